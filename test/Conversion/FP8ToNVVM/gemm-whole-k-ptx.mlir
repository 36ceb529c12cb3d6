// The whole-K-scales GEMM kernel (scale_k = k: one scale per row of A and
// per column of the output along the whole K, the rowwise and per-tensor
// presets; a per-tensor scale is broadcast by the launcher) through ptxas:
// the default tile, the register-limit tiles of the per-column kernel
// (block-n 168; block-m 64 block-n 256) and a dynamic M with an
// accumulator operand assemble for sm_90a with 0 spills. The kernel is the
// per-column kernel reading K block 0's scales at every K block: its
// A-scale TMA loads row 0 of the [1, Mpad] map and its B-scale loads have
// no K-block offset, so the PTX has no multiply by the scale row length
// (Np = 384 columns: 1536 bytes) that the per-K-block kernel has.
// REQUIRES: ptxas
// RUN: fp8-opt %s --fp8-lower-to-nvvm=config=fixed | FileCheck %s --check-prefix=ATTR
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=none config=fixed" | fp8-translate --fp8-extract-gpu-object > %t.1.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.1.ptx
// RUN: %ptxas -arch=sm_90a -v %t.1.ptx -o %t.1.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=none block-n=168" | fp8-translate --fp8-extract-gpu-object > %t.2.ptx
// RUN: %ptxas -arch=sm_90a -v %t.2.ptx -o %t.2.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=none block-m=64 block-n=256" | fp8-translate --fp8-extract-gpu-object > %t.3.ptx
// RUN: %ptxas -arch=sm_90a -v %t.3.ptx -o %t.3.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS

// ATTR: llvm.func @fp8_scaled_matmul_200x300x400_e4m3_e4m3_bf16_b1x128_sk(
// ATTR-SAME: b_scale_rows = 1, scale_k = 400, block_m = 128
// ATTR: llvm.func @fp8_scaled_matmul_dynx520x272_e5m2_e4m3_f32_accf32_b1x128_sk(
// ATTR-SAME: b_scale_rows = 1, scale_k = 272, block_m = 128
// A K of one block: the per-K-block kernel (scale_k 128, printed as the
// default), the same kernel as the Wgrad GEMM's.
// ATTR: llvm.func @fp8_scaled_matmul_64x256x96_e4m3_e4m3_bf16_b1x128(
// ATTR-NOT: scale_k
// ATTR-SAME: b_scale_rows = 1, block_m = 64

// PTXAS-NOT: {{warning|[1-9][0-9]* bytes spill}}
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: {{warning|[1-9][0-9]* bytes spill}}
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: {{warning|[1-9][0-9]* bytes spill}}

// PTX-LABEL: .entry fp8_scaled_matmul_200x300x400_e4m3_e4m3_bf16_b1x128_sk(
// PTX-NOT: 1536
// PTX-COUNT-16: ld.global.v2.b32
// PTX-NOT: ld.global.v2.b32
// PTX-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3
// PTX-LABEL: .entry fp8_scaled_matmul_dynx520x272_e5m2_e4m3_f32_accf32_b1x128_sk(

// rowwise: [1, K] blocks.
func.func @rowwise(%a: !fp8.scaled<200x400xf8E4M3FN, block = [1, 400], scale = f32>,
                   %b: !fp8.scaled<300x400xf8E4M3FN, block = [1, 400], scale = f32>) -> tensor<200x300xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<200x400xf8E4M3FN, block = [1, 400], scale = f32>,
    !fp8.scaled<300x400xf8E4M3FN, block = [1, 400], scale = f32> -> tensor<200x300xbf16>
  return %d : tensor<200x300xbf16>
}

// per-tensor B, rowwise A with a run-time M and an accumulator.
func.func @mixed_dyn_acc(%a: !fp8.scaled<?x272xf8E5M2, block = [1, 272], scale = f32>,
                         %b: !fp8.scaled<520x272xf8E4M3FN, block = [520, 272], scale = f32>,
                         %c: tensor<?x520xf32>) -> tensor<?x520xf32> {
  %d = fp8.scaled_matmul %a, %b acc(%c : tensor<?x520xf32>) : !fp8.scaled<?x272xf8E5M2, block = [1, 272], scale = f32>, !fp8.scaled<520x272xf8E4M3FN, block = [520, 272], scale = f32> -> tensor<?x520xf32>
  return %d : tensor<?x520xf32>
}

// per-tensor with K of one block.
func.func @small_k(%a: !fp8.scaled<64x96xf8E4M3FN, block = [64, 96], scale = f32>,
                   %b: !fp8.scaled<256x96xf8E4M3FN, block = [256, 96], scale = f32>) -> tensor<64x256xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<64x96xf8E4M3FN, block = [64, 96], scale = f32>, !fp8.scaled<256x96xf8E4M3FN, block = [256, 96], scale = f32> -> tensor<64x256xbf16>
  return %d : tensor<64x256xbf16>
}
