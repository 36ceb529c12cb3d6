// The TMA-store epilogue as an option (fp8-lower-to-nvvm / fp8-gpu-pipeline
// `store=tma`; `global`, the default, stores from the registers): the
// kernel's #fp8.gemm_kernel has `tma_store = true`, its name the suffix
// `tma`, and its stages are as many as fit beside the consumers' staging
// buffers (64 rows x block-n / splits at f32 width each: 4 stages of
// 128 x 128, 6 without). Like a tile option it keeps the cost model from
// choosing the tile (the shape's default tile). A GEMM whose result only a
// 1x128 quantize reads keeps the quantize epilogue with the TMA store of its
// codes (a 64 x 128-byte staging box per 1x128 tile: 6 stages of 128 x
// 128), or, N not a multiple of 16, on st.global with a remark naming why
// (with the stages of no staging). Where the
// kernel cannot take the TMA store, the error names the limit: N not a
// multiple of 8, a grouped kernel, block-n / splits not a multiple of 64,
// the staging past the shared memory; an unknown value is an error naming
// the values.
// RUN: not fp8-opt %s -split-input-file --fp8-lower-to-nvvm="store=tma" 2>/dev/null | FileCheck %s --check-prefix=TMA
// RUN: not fp8-opt %s -split-input-file --fp8-lower-to-nvvm="store=tma" 2>&1 >/dev/null | FileCheck %s --check-prefix=TMAERR
// RUN: fp8-opt %s -split-input-file --fp8-lower-to-nvvm="config=fixed store=global" | FileCheck %s --check-prefix=GLOBAL
// RUN: not fp8-opt %s -split-input-file --fp8-lower-to-nvvm="block-n=96 store=tma" 2>&1 | FileCheck %s --check-prefix=N96
// RUN: not fp8-opt %s -split-input-file --fp8-lower-to-nvvm="stages=5 store=tma" 2>&1 | FileCheck %s --check-prefix=SMEM
// RUN: not fp8-opt %s -split-input-file --fp8-lower-to-nvvm="store=fast" 2>&1 | FileCheck %s --check-prefix=BADOPT
// RUN: not fp8-opt %s -split-input-file --fp8-gpu-pipeline="store=st.global" 2>&1 | FileCheck %s --check-prefix=BADPIPE

// TMA-LABEL: llvm.func @fp8_scaled_matmul_200x304x1300_e4m3_e4m3_bf16_t128x128s4tma(
// TMA-SAME: fp8.kernel = #fp8.gemm_kernel<m = 200, n = 304, k = 1300, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 128, stages = 4, consumers = 2, tma_store = true>
// TMA: nvvm.stmatrix
// TMA: nvvm.cp.async.bulk.tensor.global.shared.cta
// TMAERR: error: 'fp8.scaled_matmul' op GPU lowering: invalid kernel configuration block-m=128 block-n=128 stages=4 consumers=2 (199680 bytes of shared memory): the TMA store (store = tma) needs n a multiple of 8 (a row of D is a TMA global stride: a multiple of 16 bytes)
// TMA-LABEL: llvm.func @fp8_scaled_matmul_200x512x1024_e4m3_e4m3_bf16_qe4m3_t128x128s6tma(
// TMA-SAME: block_n = 128, block_k = 128, stages = 6, consumers = 2, epilogue = quantize, q = f8E4M3FN, q_eps = 9.99999974E-5 : f32, tma_store = true>
// TMA: nvvm.cp.async.bulk.tensor.global.shared.cta
// TMAERR: remark: fp8-lower-to-nvvm: the GEMM kernel's epilogue computes the fp8.quantize of its result
// TMA-LABEL: llvm.func @fp8_scaled_matmul_200x392x1024_e4m3_e4m3_bf16_qe4m3(
// TMA-SAME: block_n = 128, block_k = 128, stages = 6, consumers = 2, epilogue = quantize, q = f8E4M3FN, q_eps = 9.99999974E-5 : f32>
// TMA-NOT: nvvm.cp.async.bulk.tensor.global.shared.cta
// TMAERR: remark: fp8-lower-to-nvvm: store=tma is not applied to the quantize epilogue of this GEMM (the TMA store (store = tma) of the quantize epilogue needs n a multiple of 16 (a row of the FP8 codes is a TMA global stride: a multiple of 16 bytes)); its codes are stored by st.global
// TMAERR: error: 'fp8.grouped_scaled_matmul' op GPU lowering: invalid kernel configuration block-m=128 block-n=128 stages=4 consumers=2 (199680 bytes of shared memory): the TMA store (store = tma) needs the 2-D kernel: a grouped kernel's D is stored from the registers (rows without a result as +0.0, a box would cross into another group)

// GLOBAL-LABEL: llvm.func @fp8_scaled_matmul_200x304x1300_e4m3_e4m3_bf16(
// GLOBAL-SAME: stages = 6, consumers = 2>
// GLOBAL-NOT: nvvm.stmatrix
// GLOBAL-NOT: nvvm.cp.async.bulk.tensor.global.shared.cta

// N96: error: 'fp8.scaled_matmul' op GPU lowering: invalid kernel configuration block-m=128 block-n=96 stages=6 consumers=2 (225280 bytes of shared memory): the TMA store (store = tma) needs block-n / splits a multiple of 64 (each consumer warpgroup stores whole boxes of 64 rows x 128 bytes: 64 bf16 or 32 f32 columns)
// SMEM: error: 'fp8.scaled_matmul' op GPU lowering: invalid kernel configuration block-m=128 block-n=128 stages=5 consumers=2 (233472 bytes of shared memory): the shared-memory ring and the TMA store's staging (stages x (block-m + block-n) x 128 bytes + A scales + barriers + block-m x block-n x 4 bytes, x 1 byte with the quantize epilogue) exceed the 227 KB of shared memory per block of sm_90: fewer stages or a smaller tile
// BADOPT: fp8-lower-to-nvvm: option store='fast' is invalid (expected global or tma)
// BADPIPE: fp8-lower-to-nvvm: option store='st.global' is invalid (expected global or tma)

func.func @gemm(%a: !fp8.scaled<200x1300xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<304x1300xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<200x304xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<200x1300xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<304x1300xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<200x304xbf16>
  return %d : tensor<200x304xbf16>
}

// -----

// N = 300: a row of D is 600 bytes, not a TMA global stride.
func.func @n300(%a: !fp8.scaled<200x1300xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<300x1300xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<200x300xf32> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<200x1300xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<300x1300xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<200x300xf32>
  return %d : tensor<200x300xf32>
}

// -----

// The result only quantized into 1x128 tiles: the quantize epilogue with the
// TMA store of its codes.
func.func @quantized(%a: !fp8.scaled<200x1024xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<512x1024xf8E4M3FN, block = [128, 128], scale = f32>) -> !fp8.scaled<200x512xf8E4M3FN, block = [1, 128], scale = f32> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<200x1024xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<512x1024xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<200x512xbf16>
  %q = fp8.quantize %d : tensor<200x512xbf16> -> !fp8.scaled<200x512xf8E4M3FN, block = [1, 128], scale = f32>
  return %q : !fp8.scaled<200x512xf8E4M3FN, block = [1, 128], scale = f32>
}

// -----

// N = 392 (a multiple of 8, not of 16): the quantize epilogue on st.global.
func.func @quantized_n392(%a: !fp8.scaled<200x1024xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<392x1024xf8E4M3FN, block = [128, 128], scale = f32>) -> !fp8.scaled<200x392xf8E4M3FN, block = [1, 128], scale = f32> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<200x1024xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<392x1024xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<200x392xbf16>
  %q = fp8.quantize %d : tensor<200x392xbf16> -> !fp8.scaled<200x392xf8E4M3FN, block = [1, 128], scale = f32>
  return %q : !fp8.scaled<200x392xf8E4M3FN, block = [1, 128], scale = f32>
}

// -----

func.func @contiguous(%x: !fp8.scaled<1024x1024xf8E4M3FN, block = [1, 128], scale = f32>,
    %w: !fp8.scaled<4x256x1024xf8E4M3FN, block = [1, 128, 128], scale = f32>,
    %ids: tensor<1024xi32>) -> tensor<1024x256xbf16> {
  %d = fp8.grouped_scaled_matmul contiguous %x, %w group_ids(%ids : tensor<1024xi32>) {m_alignment = 128 : i64} : !fp8.scaled<1024x1024xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<4x256x1024xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<1024x256xbf16>
  return %d : tensor<1024x256xbf16>
}
