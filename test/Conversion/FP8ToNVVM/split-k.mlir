// Split-K (k_splits = S, docs/gpu-kernel.md "Split-K") at the NVVM level,
// in its launcher and through ptxas. The kernel of 64 x 2112 x 7168 with
// k_splits = 3 (config=fixed: 64x128 tiles, 17 of them; KB = 56 in ranges
// of 19, 19 and 18 K blocks): its attribute and name carry the split, it
// takes the workspace and the counters last, its persistent loop walks 3 x
// 17 units, split s starting at K block 18 s + min(s, 2) (q = 18, r = 2)
// with 19, 19 and 18 blocks; each consumer thread stores
// its 32 accumulators as f32 partials, fences (membar.gl), counts its
// arrival (atom add), and the one that saw 2 arrivals before it fences,
// loads split 0's partials of its 64 registers, then adds splits 1 and 2
// in split order in a rolled loop (64 adds per trip) before the masked
// stores of D. With k_splits = 7 (sed) the kernel stays free of spills: an
// unrolled 7 x 64 nest of loads spilled 128 bytes. The launcher allocates 3 x 17 x 64 x 128
// x 4 bytes of partials and 17 x 128 counters, zeroes the counters, and
// launches min(51, 132) CTAs.
// REQUIRES: ptxas
// RUN: fp8-opt %s -split-input-file --fp8-lower-to-nvvm="config=fixed" -fp8-launch-kernels -canonicalize -cse | FileCheck %s --check-prefix=NVVM
// RUN: fp8-opt %s -split-input-file --fp8-lower-to-nvvm="config=fixed" -fp8-launch-kernels | FileCheck %s --check-prefix=HOST
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=none config=fixed" | fp8-translate --fp8-extract-gpu-object > %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: sed 's/{k_splits = 3 : i64}/{k_splits = 7 : i64}/' %s | fp8-opt --fp8-gpu-pipeline="chip=sm_90a host=none config=fixed" | fp8-translate --fp8-extract-gpu-object > %t.k7.ptx
// RUN: %ptxas -arch=sm_90a -v %t.k7.ptx -o %t.k7.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS-K7
// With the overlapped promotion (overlap8 at 128x128, overlap4 at
// 128x64): each unit's K loop of 19, 19 or 18 blocks makes two trips (by 8;
// four by 4), each trip's first wgmma batch left in flight and the next
// U - 1 followed by wait_group 1, then the drain, and the 3 or 2 (by 4: 3
// or 2) blocks after the trips in lock-step; ptxas 0 spills.
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=none block-m=128 block-n=128 promotion-schedule=overlap8" | fp8-translate --fp8-extract-gpu-object > %t.o8.ptx
// RUN: FileCheck %s --check-prefix=O8 < %t.o8.ptx
// RUN: %ptxas -arch=sm_90a -v %t.o8.ptx -o %t.o8.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS-O8
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=none block-m=128 block-n=64 promotion-schedule=overlap4" | fp8-translate --fp8-extract-gpu-object > %t.o4.ptx
// RUN: FileCheck %s --check-prefix=O4 < %t.o4.ptx
// RUN: %ptxas -arch=sm_90a -v %t.o4.ptx -o %t.o4.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS-O4
// Refusals, each naming its limit.
// RUN: not fp8-opt %s --fp8-lower-to-nvvm="store=tma" 2>&1 | FileCheck %s --check-prefix=TMA
// RUN: not fp8-opt %s --fp8-lower-to-nvvm="cluster=2" 2>&1 | FileCheck %s --check-prefix=CLUSTER
// RUN: not fp8-opt %s --fp8-lower-to-nvvm="promotion-schedule=overlap8 block-m=64 block-n=128" 2>&1 | FileCheck %s --check-prefix=OVERLAP64
// RUN: not fp8-opt %s --fp8-lower-to-nvvm="swap-ab=always" 2>&1 | FileCheck %s --check-prefix=SWAP

// NVVM-LABEL: llvm.func @fp8_scaled_matmul_64x2112x7168_e4m3_e4m3_bf16_t64x128s8k3(
// NVVM-SAME: %arg4: !llvm.ptr, %arg5: i32, %arg6: !llvm.ptr, %arg7: !llvm.ptr)
// NVVM-SAME: fp8.kernel = #fp8.gemm_kernel<m = 64, n = 2112, k = 7168, {{.*}}, block_m = 64, block_n = 128, block_k = 128, stages = 8, consumers = 1, k_splits = 3>
// NVVM-SAME: ctas = 51
// NVVM: nvvm.memory.barrier <gpu>
// NVVM-NEXT: arith.extui
// NVVM: llvm.atomicrmw add %{{.*}}, %{{.*}} monotonic {alignment = 4 : i64} : !llvm.ptr<1>, i32
// NVVM: scf.if
// NVVM-NEXT: nvvm.memory.barrier <gpu>
// NVVM-NOT: arith.addf
// NVVM: scf.for
// NVVM-COUNT-64: arith.addf
// NVVM: scf.yield
// NVVM-NOT: arith.addf
// NVVM: llvm.store {{.*}} : vector<2xbf16>, !llvm.ptr<1>
// NVVM: llvm.return

// HOST-LABEL: func.func private @fp8_launch_fp8_scaled_matmul_64x2112x7168_e4m3_e4m3_bf16_t64x128s8k3(
// HOST: arith.constant 1671168 : index
// HOST: gpu.alloc
// HOST: arith.constant 2176 : index
// HOST: gpu.alloc
// HOST: gpu.memset
// HOST: gpu.launch_func
// HOST: gpu.dealloc

// PTX: membar.gl;
// PTX: atom.global.add.u32
// PTXAS: Compiling entry function 'fp8_scaled_matmul_64x2112x7168_e4m3_e4m3_bf16_t64x128s8k3'
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// PTXAS-K7: Compiling entry function 'fp8_scaled_matmul_64x2112x7168_e4m3_e4m3_bf16_t64x128s8k7'
// PTXAS-K7: 0 bytes spill stores, 0 bytes spill loads

// O8-LABEL: .entry fp8_scaled_matmul_64x2112x7168_e4m3_e4m3_bf16_t128x128s{{[0-9]+}}o8k3(
// O8: wgmma.commit_group.sync.aligned;
// O8-NOT: wgmma.wait_group
// O8-COUNT-7: wgmma.wait_group.sync.aligned 1;
// O8-NOT: wgmma.wait_group.sync.aligned 1;
// O8: wgmma.wait_group.sync.aligned 0;
// O8-NOT: wgmma.wait_group.sync.aligned 1;
// O8: atom.global.add.u32
// PTXAS-O8: Compiling entry function 'fp8_scaled_matmul_64x2112x7168_e4m3_e4m3_bf16_t128x128s{{[0-9]+}}o8k3'
// PTXAS-O8-NOT: {{warning|[1-9][0-9]* bytes spill}}
// PTXAS-O8: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

// O4-LABEL: .entry fp8_scaled_matmul_64x2112x7168_e4m3_e4m3_bf16_t128x64s{{[0-9]+}}o4k3(
// O4-COUNT-3: wgmma.wait_group.sync.aligned 1;
// O4-NOT: wgmma.wait_group.sync.aligned 1;
// O4: wgmma.wait_group.sync.aligned 0;
// O4-NOT: wgmma.wait_group.sync.aligned 1;
// O4: atom.global.add.u32
// PTXAS-O4: Compiling entry function 'fp8_scaled_matmul_64x2112x7168_e4m3_e4m3_bf16_t128x64s{{[0-9]+}}o4k3'
// PTXAS-O4-NOT: {{warning|[1-9][0-9]* bytes spill}}
// PTXAS-O4: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

// TMA: error: 'fp8.scaled_matmul' op GPU lowering: invalid kernel configuration block-m=64 block-n=128 stages={{[0-9]+}} consumers=1 k_splits=3 ({{[0-9]+}} bytes of shared memory): split-K (k_splits > 1) needs the FP8 kernel with the st.global store epilogue: no bf16 operands, quantize epilogue, TMA store or cluster
// CLUSTER: error: 'fp8.scaled_matmul' op GPU lowering: invalid kernel configuration {{.*}} k_splits=3 {{.*}}: split-K (k_splits > 1) needs the FP8 kernel with the st.global store epilogue
// The overlapped promotion's own tile limit, not split-K's.
// OVERLAP64: error: 'fp8.scaled_matmul' op GPU lowering: invalid kernel configuration block-m=64 block-n=128 {{.*}} k_splits=3 {{.*}}: the overlapped promotion needs block-m 128 with two consumer warpgroups
// SWAP: error: 'fp8.scaled_matmul' op GPU lowering: swap-ab=always and k_splits = 3 do not combine (the split-K kernel is the 2-D kernel)

func.func @decode(%a: !fp8.scaled<64x7168xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<2112x7168xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<64x2112xbf16> {
  %d = fp8.scaled_matmul %a, %b {k_splits = 3 : i64} : !fp8.scaled<64x7168xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<2112x7168xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<64x2112xbf16>
  return %d : tensor<64x2112xbf16>
}
