// The GEMM kernel in clusters of 2 CTAs sharing the B tile by TMA multicast
// (option cluster=2; #fp8.gemm_kernel cluster = 2, multicast = 2; symbol
// suffix `cl2`), in NVVM, in its launcher and through ptxas:
// - the empty barriers count both CTAs' consumer warps: 2 x 2 consumers x
//   4 warps = 16 (the full barriers keep 1);
// - barrier.cluster (arrive + wait) after the barrier init and before exit;
// - the producer loads its rank's 64 rows of the 128-row B tile (rows
//   col0 + 64 rank, shared-memory offset 64 rank x 128 bytes into the
//   slot) with ctaMask 0b11;
// - each consumer warp's lane 0 arrives on its own empty barrier and, via
//   mapa, on the peer's, with release at CTA scope (no scope attribute:
//   a cluster-scope release costs a cluster-wide fence per warp and stage,
//   which halved the kernel's speed on an H200; docs/performance.md);
// - the launcher's B box is {64, 128} and the launch has clusters of
//   (2, 1, 1).
// RUN: fp8-opt %s --fp8-lower-to-nvvm="config=fixed cluster=2" | FileCheck %s --check-prefix=NVVM
// RUN: fp8-opt %s --fp8-lower-to-nvvm="config=fixed cluster=2" --fp8-launch-kernels | FileCheck %s --check-prefix=HOST
// The configuration the cost model picks for 4096 x 7168 x 16384 in
// clusters (docs/performance.md) and the fixed tile assemble for sm_90a
// with 0 spills.
// RUN: %if ptxas %{ fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=none config=fixed cluster=2" | fp8-translate --fp8-extract-gpu-object > %t.ptx %}
// RUN: %if ptxas %{ FileCheck %s --check-prefix=PTX < %t.ptx %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=none block-m=128 block-n=176 stages=5 group-m=16 cluster=2" | fp8-translate --fp8-extract-gpu-object > %t.wide.ptx %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t.wide.ptx -o %t.wide.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// An odd share of the B tile is refused (each share starts a 1024-byte
// swizzle atom of 8 rows): block-n 120 / 2 = 60 rows.
// RUN: not fp8-opt %s --fp8-lower-to-nvvm="block-n=120 cluster=2" 2>&1 | FileCheck %s --check-prefix=ODD
// RUN: not fp8-opt %s --fp8-lower-to-nvvm="cluster=3" 2>&1 | FileCheck %s --check-prefix=THREE

// NVVM-LABEL: llvm.func @fp8_scaled_matmul_600x300x400_e4m3_e4m3_bf16_t128x128s6cl2(
// NVVM-SAME: cluster = 2, multicast = 2
// NVVM: nvvm.mbarrier.init %{{.*}}, %c1_i32
// NVVM: nvvm.mbarrier.init %{{.*}}, %c16_i32
// NVVM: nvvm.fence.mbarrier.init
// NVVM: nvvm.barrier0
// NVVM-NEXT: nvvm.cluster.arrive
// NVVM-NEXT: nvvm.cluster.wait
// The producer: B rows col0 + 64 rank at slot offset 128 x (64 rank).
// NVVM: %[[SHARE:.*]] = arith.muli %{{.*}}, %c64_i32 : i32
// NVVM: %[[MASK:.*]] = arith.constant 3 : i16
// NVVM: %[[ROW:.*]] = arith.addi %{{.*}}, %[[SHARE]] : i32
// NVVM: %[[OFF:.*]] = arith.muli %[[SHARE]], %c128_i32{{.*}} : i32
// NVVM: arith.addi %{{.*}}, %[[OFF]] : i32
// NVVM: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg1, %{{.*}}, box[%{{.*}}, %[[ROW]]] multicast_mask = %[[MASK]]
// The consumers' release: own, then the peer's ((rank + 1) % 2).
// NVVM: nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<3>
// NVVM: %[[PEER:.*]] = nvvm.mapa %{{.*}}, %{{.*}} : !llvm.ptr<3> -> !llvm.ptr<7>
// NVVM-NEXT: nvvm.mbarrier.arrive %[[PEER]] : !llvm.ptr<7>
// NVVM: nvvm.cluster.arrive
// NVVM-NEXT: nvvm.cluster.wait
// NVVM-NEXT: llvm.return

// HOST-LABEL: func.func private @fp8_launch_fp8_scaled_matmul_600x300x400_e4m3_e4m3_bf16_t128x128s6cl2(
// HOST: nvgpu.tma.create.descriptor %{{.*}} box[%c128{{.*}}, %c128{{.*}}] : memref<*xui8>
// HOST: nvgpu.tma.create.descriptor %{{.*}} box[%c64{{.*}}, %c128{{.*}}] : memref<*xui8>
// HOST: gpu.launch_func async {{.*}} @fp8_kernels::@fp8_scaled_matmul_600x300x400_e4m3_e4m3_bf16_t128x128s6cl2 clusters in (%c2{{.*}}, %c1{{.*}}, %c1{{.*}}) blocks in

// PTX-NOT: mbarrier.arrive.release.cluster
// PTX: mapa.shared::cluster.u64
// PTX: mbarrier.arrive.shared::cluster.b64 _, [%rd{{[0-9]+}}]
// PTX-NOT: mbarrier.arrive.release.cluster
// PTXAS-NOT: {{warning|[1-9][0-9]* bytes spill}}
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: {{warning|[1-9][0-9]* bytes spill}}

// ODD: block-n / cluster must be a multiple of 8
// THREE: option cluster=3 is invalid

func.func @mm(%a: !fp8.scaled<600x400xf8E4M3FN, block = [1, 128], scale = f32>,
              %b: !fp8.scaled<300x400xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<600x300xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<600x400xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<300x400xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<600x300xbf16>
  return %d : tensor<600x300xbf16>
}
