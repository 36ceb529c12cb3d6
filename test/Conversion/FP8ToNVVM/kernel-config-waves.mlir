// Two m64 waves per consumer warpgroup as an option (fp8-lower-to-nvvm /
// fp8-gpu-pipeline `waves=2`): the kernel's #fp8.gemm_kernel has `waves =
// 2`, its name the suffix `w2`; without block-m the tile is 256 rows on two
// consumers of 128 rows each (`block-m=256 block-n=128 waves=2`:
// `_t256x128s4w2`, 4 stages of 48 KB of codes fit). Like a tile option it
// keeps the cost model from choosing the tile. A GEMM whose result only a
// 1x128 quantize reads keeps the two-wave tile and stores D (the quantize
// runs as its own kernel). What the wave form is not built for is an error
// naming the conflict: the overlapped promotion, the TMA store, a grouped
// kernel, swap-AB, mxfp8, split-K, more than 128 columns per consumer
// (the measured register limit); a block-m that is not whole consumers
// of 128 rows and a value other than 0..2 are option errors.
// RUN: not fp8-opt %s -split-input-file --fp8-lower-to-nvvm="waves=2" 2>&1 | FileCheck %s --check-prefix=W2
// RUN: not fp8-opt %s -split-input-file --fp8-gpu-pipeline="waves=2 block-m=128 target=emulator host=none" 2>&1 | FileCheck %s --check-prefix=PIPE
// RUN: not fp8-opt %s -split-input-file --fp8-lower-to-nvvm="waves=2 promotion-schedule=overlap8" 2>&1 | FileCheck %s --check-prefix=OVERLAP
// RUN: not fp8-opt %s -split-input-file --fp8-lower-to-nvvm="waves=2 store=tma" 2>&1 | FileCheck %s --check-prefix=TMA
// RUN: not fp8-opt %s -split-input-file --fp8-lower-to-nvvm="waves=2 swap-ab=always" 2>&1 | FileCheck %s --check-prefix=SWAP
// RUN: not fp8-opt %s -split-input-file --fp8-lower-to-nvvm="waves=2 block-n=136" 2>&1 | FileCheck %s --check-prefix=REGS
// RUN: not fp8-opt %s --fp8-lower-to-nvvm="waves=3" 2>&1 | FileCheck %s --check-prefix=BADW
// RUN: not fp8-opt %s --fp8-lower-to-nvvm="waves=2 block-m=192" 2>&1 | FileCheck %s --check-prefix=BADM
// RUN: not fp8-opt %s --fp8-lower-to-nvvm="waves=2 block-m=256 consumers=3" 2>&1 | FileCheck %s --check-prefix=BADC

// W2-LABEL: llvm.func @fp8_scaled_matmul_600x512x1024_e4m3_e4m3_bf16_t256x128s4w2(
// W2-SAME: fp8.kernel = #fp8.gemm_kernel<m = 600, n = 512, k = 1024, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 256, block_n = 128, block_k = 128, stages = 4, consumers = 2, waves = 2>
// W2-LABEL: llvm.func @fp8_scaled_matmul_200x512x1024_e4m3_e4m3_bf16_t256x128s4w2(
// W2-NOT: epilogue = quantize
// W2: llvm.func @fp8_quantize
// W2: error: 'fp8.grouped_scaled_matmul' op GPU lowering: invalid kernel configuration block-m=256 block-n=128 stages=4 consumers=2 ({{[0-9]+}} bytes of shared memory): waves 2 needs the 2-D kernel: a grouped kernel's consumers compute one m64 wave each
// W2: error: 'fp8.scaled_matmul' op GPU lowering: invalid kernel configuration block-m=256 block-n=128 stages=4 consumers=2 k_splits=2 ({{[0-9]+}} bytes of shared memory): waves 2 needs k-splits 1
// W2: error: 'fp8.scaled_matmul' op GPU lowering: invalid kernel configuration block-m=256 block-n=128 stages={{[0-9]+}} consumers=2 ({{[0-9]+}} bytes of shared memory): waves 2 needs 128 x 128 B blocks with a scale per K block (not per-column B scales, swap-AB, whole-K scales or mxfp8)

// PIPE-LABEL: llvm.func @fp8_scaled_matmul_600x512x1024_e4m3_e4m3_bf16_t128x128s6w2(
// PIPE-SAME: block_m = 128, block_n = 128, block_k = 128, stages = 6, consumers = 1, waves = 2>

// OVERLAP: error: 'fp8.scaled_matmul' op GPU lowering: invalid kernel configuration block-m=256 block-n=128 stages=4 consumers=2 ({{[0-9]+}} bytes of shared memory): waves 2 needs the lock-step promotion
// TMA: error: 'fp8.scaled_matmul' op GPU lowering: invalid kernel configuration block-m=256 block-n=128 stages={{[0-9]+}} consumers=2 ({{[0-9]+}} bytes of shared memory): waves 2 needs the st.global store epilogue
// SWAP: error: 'fp8.scaled_matmul' op GPU lowering: invalid kernel configuration block-m=256 block-n=128 stages=4 consumers=2 ({{[0-9]+}} bytes of shared memory): waves 2 needs 128 x 128 B blocks with a scale per K block (not per-column B scales, swap-AB, whole-K scales or mxfp8)
// REGS: error: 'fp8.scaled_matmul' op GPU lowering: invalid kernel configuration block-m=256 block-n=136 stages=4 consumers=2 ({{[0-9]+}} bytes of shared memory): block-n is too wide for the consumer registers of the two-wave kernel {{.*}} up to block-n / splits = 128)
// BADW: fp8-lower-to-nvvm: option waves=3 is invalid: expected 0 or 1 (one m64 wave per consumer warpgroup) or 2 (128 rows per consumer as two m64 waves)
// BADM: fp8-lower-to-nvvm: options block-m=192 and waves=2 disagree: each consumer warpgroup computes 128 rows as two m64 waves (block-m 128 or 256)
// BADC: fp8-lower-to-nvvm: options block-m=256 and consumers=3 disagree: each consumer warpgroup computes 128 rows (consumers = block-m / 128 times the column splits)

func.func @gemm(%a: !fp8.scaled<600x1024xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<512x1024xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<600x512xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<600x1024xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<512x1024xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<600x512xbf16>
  return %d : tensor<600x512xbf16>
}

// -----

// The result only quantized into 1x128 tiles: the two-wave tile stores D,
// the quantize is its own kernel.
func.func @quantized(%a: !fp8.scaled<200x1024xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<512x1024xf8E4M3FN, block = [128, 128], scale = f32>) -> !fp8.scaled<200x512xf8E4M3FN, block = [1, 128], scale = f32> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<200x1024xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<512x1024xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<200x512xbf16>
  %q = fp8.quantize %d : tensor<200x512xbf16> -> !fp8.scaled<200x512xf8E4M3FN, block = [1, 128], scale = f32>
  return %q : !fp8.scaled<200x512xf8E4M3FN, block = [1, 128], scale = f32>
}

// -----

func.func @contiguous(%x: !fp8.scaled<1024x1024xf8E4M3FN, block = [1, 128], scale = f32>,
    %w: !fp8.scaled<4x256x1024xf8E4M3FN, block = [1, 128, 128], scale = f32>,
    %ids: tensor<1024xi32>) -> tensor<1024x256xbf16> {
  %d = fp8.grouped_scaled_matmul contiguous %x, %w group_ids(%ids : tensor<1024xi32>) {m_alignment = 256 : i64} : !fp8.scaled<1024x1024xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<4x256x1024xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<1024x256xbf16>
  return %d : tensor<1024x256xbf16>
}

// -----

func.func @ksplit(%a: !fp8.scaled<600x1024xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<512x1024xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<600x512xbf16> {
  %d = fp8.scaled_matmul %a, %b {k_splits = 2 : i64} : !fp8.scaled<600x1024xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<512x1024xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<600x512xbf16>
  return %d : tensor<600x512xbf16>
}

// -----

// The Wgrad GEMM's per-column B scales.
func.func @wgrad(%a: !fp8.scaled<600x1024xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<512x1024xf8E4M3FN, block = [1, 128], scale = f32>) -> tensor<600x512xf32> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<600x1024xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<512x1024xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<600x512xf32>
  return %d : tensor<600x512xf32>
}
