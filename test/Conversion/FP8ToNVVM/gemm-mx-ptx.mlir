// The mxfp8 GEMM kernel (scale_k = 32: a scale per row of A and of B per 32
// K, promoted after every wgmma k32 step) in NVVM and through ptxas: per K
// block of 128 one wgmma k32 per step, each with scale-d = 0 (its own
// partial) and followed by a wait and a promotion: four waits, four
// promotions; the A scales TMA-loaded as one box of the K block's four
// scale rows ([K / 32, Mpad], coordinate 4 kb), each step's B scales loaded
// from row 4 kb + s of [K / 32, Np]; a K tail's steps past K skipped. The
// default tile, a dynamic M with an accumulator and a K tail assemble for
// sm_90a with 0 spills.
// RUN: fp8-opt %s --fp8-lower-to-nvvm=config=fixed | FileCheck %s --check-prefix=ATTR
// RUN: fp8-opt %s --fp8-lower-to-nvvm=config=fixed | FileCheck %s --check-prefix=NVVM
// RUN: fp8-opt %s --fp8-lower-to-nvvm=config=fixed --fp8-launch-kernels | FileCheck %s --check-prefix=HOST
// RUN: %if ptxas %{ fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=none config=fixed" | fp8-translate --fp8-extract-gpu-object > %t.ptx %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// The cost model's tiles (config=auto) and the widest legal one (block-n
// 80 per consumer) assemble without spills too.
// RUN: %if ptxas %{ fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=none" | fp8-translate --fp8-extract-gpu-object > %t.auto.ptx %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t.auto.ptx -o %t.auto.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=none block-n=80" | fp8-translate --fp8-extract-gpu-object > %t.80.ptx %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t.80.ptx -o %t.80.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// A wider tile is an error naming the limit.
// RUN: not fp8-opt %s --fp8-lower-to-nvvm=block-n=96 2>&1 | FileCheck %s --check-prefix=WIDE

// WIDE: block-n is too wide for the consumer registers of the mxfp8 kernel

// config=fixed: the mxfp8 kernel's default tile is 128 x 64 (its per-step
// promotions fit 80 columns per consumer without spills); stages: 16384 +
// 8192 + 4 x 512 = 26624 bytes per stage, (227 KB - 1024) / 26624 = 8.7, at
// most 8.
// ATTR: llvm.func @fp8_scaled_matmul_200x300x384_e4m3_e4m3_bf16_b1x128_mx32_t128x64s8(
// ATTR-SAME: b_scale_rows = 1, scale_k = 32, block_m = 128, block_n = 64, block_k = 128, stages = 8, consumers = 2
// ATTR: llvm.func @fp8_scaled_matmul_dynx136x256_e4m3_e4m3_f32_accf32_b1x128_mx32_t128x64s8(

// The producer's A-scale load: coordinate (row0, 4 kb).
// NVVM-LABEL: llvm.func @fp8_scaled_matmul_200x300x384_e4m3_e4m3_bf16_b1x128_mx32_t128x64s8(
// NVVM: %[[SROW:.*]] = arith.muli %{{.*}}, %c4_i32 : i32
// NVVM: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg2, %{{.*}}, box[%{{.*}}, %[[SROW]]]
// The consumer: four single-step wgmma groups, each waited for, per K block.
// NVVM-COUNT-4: nvvm.wgmma.wait.group.sync.aligned 0
// NVVM-NOT: nvvm.wgmma.wait.group.sync.aligned
// NVVM: llvm.return

// A K tail (K = 224 = 128 + 96: two K blocks, the last with three k32
// steps): the fourth step in an scf.if on "K block < 1" (not the last),
// the accumulators its results, its wait inside.
// NVVM-LABEL: llvm.func @fp8_scaled_matmul_200x300x224_e4m3_e4m3_bf16_b1x128_mx32_t128x64s8(
// NVVM: %[[NOTLAST:.*]] = arith.cmpi ult, %{{.*}}, %c1_i32{{.*}} : i32
// NVVM-COUNT-3: nvvm.wgmma.wait.group.sync.aligned 0
// NVVM: scf.if %[[NOTLAST]] -> (f32, f32, {{.*}}, f32) {
// NVVM: nvvm.wgmma.wait.group.sync.aligned 0
// NVVM-NOT: nvvm.wgmma.wait.group.sync.aligned
// NVVM: llvm.return

// The launcher's A-scale map: box {4, 128} over [12, 200] (K / 32 = 12).
// HOST-LABEL: func.func private @fp8_launch_fp8_scaled_matmul_200x300x384_e4m3_e4m3_bf16_b1x128_mx32_t128x64s8(
// HOST: nvgpu.tma.create.descriptor %{{.*}} box[%c4{{.*}}, %c128{{.*}}] : memref<*xf32> -> <tensor = memref<4x128xf32, 3>

// PTXAS-NOT: {{warning|[1-9][0-9]* bytes spill}}
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: {{warning|[1-9][0-9]* bytes spill}}
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: {{warning|[1-9][0-9]* bytes spill}}
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

func.func @mx(%a: !fp8.scaled<200x384xf8E4M3FN, block = [1, 32], scale = f32>,
              %b: !fp8.scaled<300x384xf8E4M3FN, block = [1, 32], scale = f32>) -> tensor<200x300xbf16> {
  %d = fp8.scaled_matmul %a, %b {promote_interval = 32 : i64} : !fp8.scaled<200x384xf8E4M3FN, block = [1, 32], scale = f32>,
    !fp8.scaled<300x384xf8E4M3FN, block = [1, 32], scale = f32> -> tensor<200x300xbf16>
  return %d : tensor<200x300xbf16>
}

func.func @mx_dyn_acc(%a: !fp8.scaled<?x256xf8E4M3FN, block = [1, 32], scale = f32>,
                      %b: !fp8.scaled<136x256xf8E4M3FN, block = [1, 32], scale = f32>,
                      %c: tensor<?x136xf32>) -> tensor<?x136xf32> {
  %d = fp8.scaled_matmul %a, %b acc(%c : tensor<?x136xf32>) {promote_interval = 32 : i64} : !fp8.scaled<?x256xf8E4M3FN, block = [1, 32], scale = f32>,
    !fp8.scaled<136x256xf8E4M3FN, block = [1, 32], scale = f32> -> tensor<?x136xf32>
  return %d : tensor<?x136xf32>
}

func.func @mx_tail(%a: !fp8.scaled<200x224xf8E4M3FN, block = [1, 32], scale = f32>,
                   %b: !fp8.scaled<300x224xf8E4M3FN, block = [1, 32], scale = f32>) -> tensor<200x300xbf16> {
  %d = fp8.scaled_matmul %a, %b {promote_interval = 32 : i64} : !fp8.scaled<200x224xf8E4M3FN, block = [1, 32], scale = f32>,
    !fp8.scaled<300x224xf8E4M3FN, block = [1, 32], scale = f32> -> tensor<200x300xbf16>
  return %d : tensor<200x300xbf16>
}
