// The promotion's schedule as an option (fp8-lower-to-nvvm /
// fp8-gpu-pipeline `promotion-schedule`): `overlap8` / `overlap4` give the kernel the
// overlapped promotion (#fp8.gemm_kernel `overlap = U`, name suffix
// `o<U>`; an explicit schedule is a tile option, so the cost model chooses
// no tile then: the shape's default tile); `lockstep` the default kernel;
// `auto` (the default) leaves it to the cost model when it chooses the tile.
// Where the kernel cannot overlap, the error names the limit: more than
// 128 columns per consumer by 8 or 64 by 4, one consumer (BLOCK_M 64),
// per-column B scales, one stage; a schedule it does not know is an error naming the values.
// RUN: not fp8-opt %s -split-input-file --fp8-lower-to-nvvm="promotion-schedule=overlap8" 2>/dev/null | FileCheck %s --check-prefix=O8
// RUN: fp8-opt %s -split-input-file --fp8-lower-to-nvvm="config=fixed promotion-schedule=lockstep" | FileCheck %s --check-prefix=LOCKSTEP
// RUN: not fp8-opt %s -split-input-file --fp8-lower-to-nvvm="block-m=128 block-n=64 promotion-schedule=overlap4" 2>/dev/null | FileCheck %s --check-prefix=O4
// RUN: not fp8-opt %s -split-input-file --fp8-lower-to-nvvm="block-m=64 block-n=128 promotion-schedule=overlap8" 2>&1 | FileCheck %s --check-prefix=M64
// RUN: not fp8-opt %s -split-input-file --fp8-lower-to-nvvm="block-m=128 block-n=128 promotion-schedule=overlap4" 2>&1 | FileCheck %s --check-prefix=O4N128
// RUN: not fp8-opt %s -split-input-file --fp8-lower-to-nvvm="block-n=144 promotion-schedule=overlap8" 2>&1 | FileCheck %s --check-prefix=GROUPED144
// RUN: not fp8-opt %s -split-input-file --fp8-lower-to-nvvm="block-n=160 promotion-schedule=overlap8" 2>&1 | FileCheck %s --check-prefix=N160
// RUN: not fp8-opt %s -split-input-file --fp8-lower-to-nvvm="stages=1 promotion-schedule=overlap4" 2>&1 | FileCheck %s --check-prefix=ONESTAGE
// RUN: not fp8-opt %s -split-input-file --fp8-lower-to-nvvm="promotion-schedule=overlap8" 2>&1 | FileCheck %s --check-prefix=WGRAD
// RUN: not fp8-opt %s -split-input-file --fp8-lower-to-nvvm="promotion-schedule=overlap2" 2>&1 | FileCheck %s --check-prefix=BADOPT
// RUN: not fp8-opt %s -split-input-file --fp8-gpu-pipeline="promotion-schedule=fast" 2>&1 | FileCheck %s --check-prefix=BADPIPE

// O8-LABEL: llvm.func @fp8_scaled_matmul_200x300x1300_e4m3_e4m3_bf16_t128x128s6o8(
// O8-SAME: fp8.kernel = #fp8.gemm_kernel<m = 200, n = 300, k = 1300, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 128, stages = 6, consumers = 2, overlap = 8>
// O8: nvvm.wgmma.wait.group.sync.aligned 1
// O8-LABEL: llvm.func @fp8_grouped_matmul_contiguous_4x1024x256x1024_e4m3_e4m3_bf16_t128x128s6o8(
// O8-SAME: consumers = 2, overlap = 8>

// LOCKSTEP-LABEL: llvm.func @fp8_scaled_matmul_200x300x1300_e4m3_e4m3_bf16(
// LOCKSTEP-SAME: stages = 6, consumers = 2>
// LOCKSTEP-NOT: nvvm.wgmma.wait.group.sync.aligned 1
// LOCKSTEP-LABEL: llvm.func @fp8_grouped_matmul_contiguous_4x1024x256x1024_e4m3_e4m3_bf16(
// LOCKSTEP-NOT: overlap =
// LOCKSTEP-NOT: nvvm.wgmma.wait.group.sync.aligned 1

// Unrolled by 4: at most 64 columns per consumer (ptxas spills 112 and 128
// by 4).
// O4-LABEL: llvm.func @fp8_scaled_matmul_200x300x1300_e4m3_e4m3_bf16_t128x64s8o4(
// O4-SAME: block_m = 128, block_n = 64, block_k = 128, stages = 8, consumers = 2, overlap = 4>

// GROUPED144: error: 'fp8.scaled_matmul' op GPU lowering: invalid kernel configuration block-m=128 block-n=144 stages=6 consumers=2 ({{[0-9]+}} bytes of shared memory): the overlapped promotion needs block-m 128 with two consumer warpgroups of 112 to 128 columns each with overlap 8, at most 64 with overlap 4 (block-n / splits): other tiles spill in ptxas and serialise their wgmma
// GROUPED144: error: 'fp8.grouped_scaled_matmul' op GPU lowering: invalid kernel configuration block-m=128 block-n=144 stages=6 consumers=2 ({{[0-9]+}} bytes of shared memory): the overlapped promotion needs block-m 128 with two consumer warpgroups of 112 to 128 columns each with overlap 8, at most 64 with overlap 4 (block-n / splits): other tiles spill in ptxas and serialise their wgmma
// N160: error: 'fp8.scaled_matmul' op GPU lowering: invalid kernel configuration block-m=128 block-n=160 stages=6 consumers=2 ({{[0-9]+}} bytes of shared memory): the overlapped promotion needs block-m 128 with two consumer warpgroups of 112 to 128 columns each with overlap 8, at most 64 with overlap 4 (block-n / splits): other tiles spill in ptxas and serialise their wgmma
// M64: error: 'fp8.scaled_matmul' op GPU lowering: invalid kernel configuration block-m=64 block-n=128 stages={{[0-9]+}} consumers=1 ({{[0-9]+}} bytes of shared memory): the overlapped promotion needs block-m 128 with two consumer warpgroups of 112 to 128 columns each with overlap 8, at most 64 with overlap 4 (block-n / splits): other tiles spill in ptxas and serialise their wgmma
// O4N128: error: 'fp8.scaled_matmul' op GPU lowering: invalid kernel configuration block-m=128 block-n=128 stages=6 consumers=2 ({{[0-9]+}} bytes of shared memory): the overlapped promotion needs block-m 128 with two consumer warpgroups of 112 to 128 columns each with overlap 8, at most 64 with overlap 4 (block-n / splits): other tiles spill in ptxas and serialise their wgmma
// ONESTAGE: error: 'fp8.scaled_matmul' op GPU lowering: invalid kernel configuration block-m=128 block-n=128 stages=1 consumers=2 ({{[0-9]+}} bytes of shared memory): the overlapped promotion (overlap 4 or 8) needs stages >= 2 (a consumer holds block k's slot until block k + 1's wgmma is issued)
// WGRAD: error: 'fp8.scaled_matmul' op GPU lowering: invalid kernel configuration block-m=128 block-n=128 stages=6 consumers=2 ({{[0-9]+}} bytes of shared memory): the overlapped promotion (overlap 4 or 8) needs 128 x 128 B blocks with a scale per K block (not per-column B scales, not mxfp8)
// BADOPT: fp8-lower-to-nvvm: option promotion-schedule='overlap2' is invalid (expected auto, lockstep, overlap4 or overlap8)
// BADPIPE: fp8-lower-to-nvvm: option promotion-schedule='fast' is invalid (expected auto, lockstep, overlap4 or overlap8)

func.func @gemm(%a: !fp8.scaled<200x1300xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<300x1300xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<200x300xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<200x1300xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<300x1300xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<200x300xbf16>
  return %d : tensor<200x300xbf16>
}

// -----

func.func @contiguous(%x: !fp8.scaled<1024x1024xf8E4M3FN, block = [1, 128], scale = f32>,
    %w: !fp8.scaled<4x256x1024xf8E4M3FN, block = [1, 128, 128], scale = f32>,
    %ids: tensor<1024xi32>) -> tensor<1024x256xbf16> {
  %d = fp8.grouped_scaled_matmul contiguous %x, %w group_ids(%ids : tensor<1024xi32>) {m_alignment = 128 : i64} : !fp8.scaled<1024x1024xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<4x256x1024xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<1024x256xbf16>
  return %d : tensor<1024x256xbf16>
}

// -----

// The Wgrad GEMM's per-column B scales (b blocks [1, 128]).
func.func @wgrad(%a: !fp8.scaled<256x512xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<256x512xf8E4M3FN, block = [1, 128], scale = f32>) -> tensor<256x256xf32> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<256x512xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<256x512xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<256x256xf32>
  return %d : tensor<256x256xf32>
}

