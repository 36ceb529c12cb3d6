// RUN: fp8-opt %s -split-input-file -verify-diagnostics

// The verifiers of #fp8.gemm_kernel, #fp8.quantize_kernel and
// #fp8.transpose_kernel: what the generator emits, checked as it checks its
// options.

// expected-error @+1 {{invalid tile configuration block_m = 128, block_n = 100, stages = 6, consumers = 2: block-n must be a multiple of 8 in 16..256}}
func.func private @block_n() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 256, k = 256, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 100, block_k = 128, stages = 6, consumers = 2>}

// -----

// expected-error @+1 {{block-m must be 64, 128, 192 or 256}}
func.func private @block_m() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 256, k = 256, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 96, block_n = 128, block_k = 128, stages = 6, consumers = 2>}

// -----

// expected-error @+1 {{the shared-memory ring}}
func.func private @smem() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 256, k = 256, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 128, stages = 8, consumers = 2>}

// -----

// The consumer registers of a grouped kernel hold 16 more per thread: block_n
// 208 fits a 2-D kernel, not a grouped one.
func.func private @wide_2d() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 256, k = 256, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 208, block_k = 128, stages = 4, consumers = 2>}
// expected-error @+1 {{block-n is too wide for the consumer registers of a grouped kernel}}
func.func private @wide_grouped() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 256, k = 256, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, layout = contiguous, groups = 4, block_m = 128, block_n = 208, block_k = 128, stages = 4, consumers = 2>}

// -----

// expected-error @+1 {{needs block_k 128 (one promotion interval per stage), got 64}}
func.func private @block_k() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 256, k = 256, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 64, stages = 6, consumers = 2>}

// -----

// expected-error @+1 {{needs FP8 operands a and b (f8E4M3FN or f8E5M2) or bf16 operands a and b (the BF16 variant), got 'bf16' and 'f8E4M3FN'}}
func.func private @operand_type() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 256, k = 256, a = bf16, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 128, stages = 6, consumers = 2>}

// -----

// The BF16 variant (a = b = bf16): what it refuses.
// expected-error @+1 {{bf16 operands need block-k 64 (64 K elements: one 128-byte swizzle row per stage, four wgmma k16)}}
func.func private @bf16_block_k() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 256, k = 256, a = bf16, b = bf16, d = f32, c = f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 128, stages = 6, consumers = 2>}

// -----

// The batch kernel of a bf16 batch_matmul is the masked layout without
// counts (m may be ?: roundtrip-kernel-attributes.mlir): not contiguous,
// not with counts.
// expected-error @+1 {{bf16 operands need the 2-D kernel (no layout, no swap_ab) or the batch kernel (layout = masked without counts)}}
func.func private @bf16_grouped() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 256, k = 256, a = bf16, b = bf16, d = f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, layout = contiguous, groups = 2, block_m = 128, block_n = 128, block_k = 64, stages = 6, consumers = 2>}

// -----

// expected-error @+1 {{bf16 operands need the 2-D kernel (no layout, no swap_ab) or the batch kernel (layout = masked without counts)}}
func.func private @bf16_batch_counts() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 256, k = 256, a = bf16, b = bf16, d = f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, layout = masked, groups = 2, counts = true, block_m = 128, block_n = 128, block_k = 64, stages = 6, consumers = 2>}



// -----

// groups = ?: the bf16 batch kernel's run-time batch count only (an FP8
// grouped kernel compiles its G in), and only with a layout.
// expected-error @+1 {{groups = ? needs the bf16 batch kernel (a = b = bf16, layout = masked without counts)}}
func.func private @fp8_dynamic_groups() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 256, k = 256, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, layout = masked, groups = ?, block_m = 128, block_n = 128, block_k = 128, stages = 6, consumers = 2>}

// -----

// expected-error @+1 {{needs groups >= 1, and 1 without a layout, got ?}}
func.func private @bf16_dynamic_groups_2d() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 256, k = 256, a = bf16, b = bf16, d = f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, groups = ?, block_m = 128, block_n = 128, block_k = 64, stages = 6, consumers = 2>}
// -----

// expected-error @+1 {{bf16 operands have no scales: no quantize epilogue, no overlapped promotion, no per-column or whole-K scales}}
func.func private @bf16_overlap() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 256, k = 256, a = bf16, b = bf16, d = f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 64, stages = 6, consumers = 2, overlap = 8>}

// -----

// expected-error @+1 {{bf16 operands need cluster 1 and the st.global store epilogue (no B multicast, no TMA store)}}
func.func private @bf16_tma_store() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 256, k = 256, a = bf16, b = bf16, d = f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 64, stages = 6, consumers = 2, tma_store = true>}

// -----

// expected-error @+1 {{bf16 operands need block-n / splits a multiple of 64 (each consumer warpgroup reads whole MN-major B boxes of 64 columns = 128 bytes)}}
func.func private @bf16_block_n() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 256, k = 256, a = bf16, b = bf16, d = f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 96, block_k = 64, stages = 6, consumers = 2>}

// -----

// expected-error @+1 {{needs a bf16 or f32 result d and accumulator c}}
func.func private @acc_type() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 256, k = 256, a = f8E4M3FN, b = f8E4M3FN, d = bf16, c = f16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 128, stages = 6, consumers = 2>}

// -----

// expected-error @+1 {{needs f32 scales, got 'f8E8M0FNU' and 'f32'}}
func.func private @scale_type() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 256, k = 256, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f8E8M0FNU, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 128, stages = 6, consumers = 2>}

// -----

// scale_k: 128 or k with per-column B scales (the whole-K kernel).
// expected-error @+1 {{needs scale_k 128 (a scale per K block), k = 256 with b_scale_rows 1 and no layout (one scale along the whole K) or 32 with b_scale_rows 1 and no layout (mxfp8), got scale_k 256, b_scale_rows 128}}
func.func private @scale_k_blocks() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 256, k = 256, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, scale_k = 256, block_m = 128, block_n = 128, block_k = 128, stages = 6, consumers = 2>}

// -----

// expected-error @+1 {{needs scale_k 128 (a scale per K block), k = 256 with b_scale_rows 1 and no layout (one scale along the whole K) or 32 with b_scale_rows 1 and no layout (mxfp8), got scale_k 200, b_scale_rows 1}}
func.func private @scale_k_other() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 256, k = 256, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 1, scale_k = 200, block_m = 128, block_n = 128, block_k = 128, stages = 6, consumers = 2>}

// -----

// expected-error @+1 {{needs b_scale_rows 128 (128 x 128 B blocks) or 1 (per-column B scales), got 32}}
func.func private @b_scale_rows() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 256, k = 256, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 32, block_m = 128, block_n = 128, block_k = 128, stages = 6, consumers = 2>}

// -----

// expected-error @+1 {{needs m, n and k >= 1 (m and k may be ?), got 0x256x256}}
func.func private @empty() attributes {fp8.kernel = #fp8.gemm_kernel<m = 0, n = 256, k = 256, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 128, stages = 6, consumers = 2>}

// -----

// expected-error @+1 {{needs groups >= 1, and 1 without a layout, got 4}}
func.func private @groups() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 256, k = 256, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, groups = 4, block_m = 128, block_n = 128, block_k = 128, stages = 6, consumers = 2>}

// -----

// The k-grouped kernel (the MoE Wgrad) takes per-column B scales; the
// masked and contiguous ones 128 x 128 blocks.
// expected-error @+1 {{the k_grouped layout needs b_scale_rows 1 (per-column B scales), got 128}}
func.func private @k_grouped() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 256, k = 256, a = f8E4M3FN, b = f8E4M3FN, d = f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, layout = k_grouped, groups = 4, block_m = 128, block_n = 128, block_k = 128, stages = 6, consumers = 2>}

// -----

// expected-error @+1 {{a masked or contiguous grouped kernel needs b_scale_rows 128}}
func.func private @masked_columns() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 256, k = 256, a = f8E4M3FN, b = f8E4M3FN, d = f32, a_scale = f32, b_scale = f32, b_scale_rows = 1, layout = masked, groups = 4, block_m = 128, block_n = 128, block_k = 128, stages = 6, consumers = 2>}

// -----

// A run-time K: the 2-D kernel's and the k-grouped kernel's (a run-time
// T).
func.func private @k_grouped_dynamic_k() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 256, k = ?, a = f8E4M3FN, b = f8E4M3FN, d = f32, a_scale = f32, b_scale = f32, b_scale_rows = 1, layout = k_grouped, groups = 4, block_m = 128, block_n = 128, block_k = 128, stages = 6, consumers = 2>}

// -----

// 168 columns fit the 2-D per-column kernel, not the k-grouped one (its
// group and K run take registers too): at most 160.
func.func private @k_grouped_160() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 256, k = 256, a = f8E4M3FN, b = f8E4M3FN, d = f32, a_scale = f32, b_scale = f32, b_scale_rows = 1, layout = k_grouped, groups = 4, block_m = 128, block_n = 160, block_k = 128, stages = 6, consumers = 2>}
func.func private @column_168() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 256, k = 256, a = f8E4M3FN, b = f8E4M3FN, d = f32, a_scale = f32, b_scale = f32, b_scale_rows = 1, block_m = 128, block_n = 168, block_k = 128, stages = 6, consumers = 2>}
// expected-error @+1 {{block-n is too wide for the consumer registers of a k-grouped kernel}}
func.func private @k_grouped_168() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 256, k = 256, a = f8E4M3FN, b = f8E4M3FN, d = f32, a_scale = f32, b_scale = f32, b_scale_rows = 1, layout = k_grouped, groups = 4, block_m = 128, block_n = 168, block_k = 128, stages = 6, consumers = 2>}

// -----

// expected-error @+1 {{counts needs the masked layout}}
func.func private @counts() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 256, k = 256, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, layout = contiguous, groups = 4, counts = true, block_m = 128, block_n = 128, block_k = 128, stages = 6, consumers = 2>}

// -----

// expected-error @+1 {{needs multicast = cluster >= 1 (every CTA of a cluster receives the B tile), got cluster 1, multicast 2}}
func.func private @multicast() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 256, k = 256, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 128, stages = 6, consumers = 2, multicast = 2>}

// -----

// expected-error @+1 {{needs multicast = cluster >= 1 (every CTA of a cluster receives the B tile), got cluster 2, multicast 1}}
func.func private @cluster_no_multicast() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 256, k = 256, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 128, stages = 6, consumers = 2, cluster = 2>}

// -----

// A grouped kernel's tile pair could straddle two groups.
// expected-error @+1 {{cluster 2 needs the 2-D kernel (no layout, no swap_ab)}}
func.func private @cluster_grouped() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 256, k = 256, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, layout = masked, groups = 4, block_m = 128, block_n = 128, block_k = 128, stages = 6, consumers = 2, cluster = 2, multicast = 2>}

// -----

// Clusters of 1 or 2 CTAs.
// expected-error @+1 {{cluster must be 1 or 2 (CTAs sharing the B tile by TMA multicast)}}
func.func private @cluster_four() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 256, k = 256, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 128, stages = 6, consumers = 2, cluster = 4, multicast = 4>}

// -----

// expected-error @+1 {{needs non-negative modelled ctas, time and TFLOPS}}
func.func private @modelled() attributes {fp8.kernel_model = #fp8.kernel_model<chip = "h200", ctas = 1, modelled_us = -1.0 : f64>}

// -----

// expected-error @+1 {{needs non-negative modelled ctas, time and TFLOPS}}
func.func private @modelled_ctas() attributes {fp8.kernel_model = #fp8.kernel_model<chip = "h200", ctas = -1>}

// -----

// expected-error @+1 {{needs the cost model's chip, got ""}}
func.func private @modelled_chip() attributes {fp8.kernel_model = #fp8.kernel_model<chip = "">}

// -----

// The figures are no longer fields of the decision.
// expected-error @+1 {{duplicate or unknown struct parameter name: chip}}
func.func private @model_in_decision() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 256, k = 256, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 128, stages = 6, consumers = 2, chip = "h200">}

// -----

// expected-error @+1 {{attribute 'fp8.kernel_model' must be a #fp8.kernel_model<...> attribute, got #fp8.transpose_kernel<bits = 8>}}
func.func private @model_kind() attributes {fp8.kernel_model = #fp8.transpose_kernel<bits = 8>}

// -----

// expected-error @+1 {{needs block_rows 1 or 128, got 64}}
func.func private @block_rows() attributes {fp8.kernel = #fp8.quantize_kernel<rows = ?, cols = 256, block_rows = 64, input = f32, fp8 = f8E4M3FN, scale = f32, eps = 1.0e-4 : f32>}

// -----

// expected-error @+1 {{needs a bf16 or f32 input, FP8 codes (f8E4M3FN or f8E5M2) and f32 scales (or f8E8M0FNU with scale_mode pow2)}}
func.func private @quantize_types() attributes {fp8.kernel = #fp8.quantize_kernel<rows = 4, cols = 256, block_rows = 1, input = f16, fp8 = f8E4M3FN, scale = f32, eps = 1.0e-4 : f32>}

// -----

// Rowwise blocks span the whole row: block_cols = cols.
// expected-error @+1 {{needs block_cols 128, or with block_rows = 1 32 (MX) or cols > 128 (rowwise), or with block_rows = 128 1 (per column), got 1x256 blocks of 400 columns}}
func.func private @block_cols() attributes {fp8.kernel = #fp8.quantize_kernel<rows = ?, cols = 400, block_rows = 1, block_cols = 256, input = f32, fp8 = f8E4M3FN, scale = f32, eps = 1.0e-4 : f32>}

// -----

// expected-error @+1 {{needs block_cols 128, or with block_rows = 1 32 (MX) or cols > 128 (rowwise), or with block_rows = 128 1 (per column), got 128x400 blocks of 400 columns}}
func.func private @block_cols_rows() attributes {fp8.kernel = #fp8.quantize_kernel<rows = 256, cols = 400, block_rows = 128, block_cols = 400, input = f32, fp8 = f8E4M3FN, scale = f32, eps = 1.0e-4 : f32>}

// -----

// Column blocks are 128x1: one column needs 128 rows per block.
// expected-error @+1 {{needs block_cols 128, or with block_rows = 1 32 (MX) or cols > 128 (rowwise), or with block_rows = 128 1 (per column), got 1x1 blocks of 400 columns}}
func.func private @block_cols_one() attributes {fp8.kernel = #fp8.quantize_kernel<rows = ?, cols = 400, block_rows = 1, block_cols = 1, input = f32, fp8 = f8E4M3FN, scale = f32, eps = 1.0e-4 : f32>}

// -----

// The requantize kernel writes 1x128 tiles, not column blocks.
// expected-error @+1 {{with transpose = true needs an FP8 input (f8E4M3FN or f8E5M2), FP8 codes, f32 scales (or f8E8M0FNU with scale_mode pow2), block_rows = 1 and a static rows}}
func.func private @block_cols_one_transpose() attributes {fp8.kernel = #fp8.quantize_kernel<rows = 256, cols = 400, block_rows = 128, block_cols = 1, input = f8E4M3FN, fp8 = f8E4M3FN, scale = f32, eps = 1.0e-4 : f32, transpose = true>}

// -----

// E8M0 scales hold powers of two only: scale_mode pow2.
// expected-error @+1 {{needs a bf16 or f32 input, FP8 codes (f8E4M3FN or f8E5M2) and f32 scales (or f8E8M0FNU with scale_mode pow2)}}
func.func private @quantize_e8m0_f32_mode() attributes {fp8.kernel = #fp8.quantize_kernel<rows = 4, cols = 256, block_rows = 1, input = f32, fp8 = f8E4M3FN, scale = f8E8M0FNU, eps = 1.0e-4 : f32>}

// -----

// expected-error @+1 {{needs a finite non-negative f32 eps, got -1.000000e+00 : f32}}
func.func private @eps() attributes {fp8.kernel = #fp8.quantize_kernel<rows = 4, cols = 256, block_rows = 1, input = f32, fp8 = f8E4M3FN, scale = f32, eps = -1.0 : f32>}

// -----

// expected-error @+1 {{needs rows and cols >= 1 (rows may be ?), got 4x0}}
func.func private @quantize_empty() attributes {fp8.kernel = #fp8.quantize_kernel<rows = 4, cols = 0, block_rows = 1, input = f32, fp8 = f8E4M3FN, scale = f32, eps = 1.0e-4 : f32>}

// -----

// The requantize kernel (transpose = true) reads FP8 codes.
// expected-error @+1 {{with transpose = true needs an FP8 input (f8E4M3FN or f8E5M2), FP8 codes, f32 scales (or f8E8M0FNU with scale_mode pow2), block_rows = 1 and a static rows}}
func.func private @requantize_input() attributes {fp8.kernel = #fp8.quantize_kernel<rows = 4, cols = 256, block_rows = 1, input = f32, fp8 = f8E4M3FN, scale = f32, eps = 1.0e-4 : f32, transpose = true>}

// -----

// expected-error @+1 {{with transpose = true needs an FP8 input (f8E4M3FN or f8E5M2), FP8 codes, f32 scales (or f8E8M0FNU with scale_mode pow2), block_rows = 1 and a static rows}}
func.func private @requantize_blocks() attributes {fp8.kernel = #fp8.quantize_kernel<rows = 256, cols = 256, block_rows = 128, input = f8E4M3FN, fp8 = f8E4M3FN, scale = f32, eps = 1.0e-4 : f32, transpose = true>}

// -----

// expected-error @+1 {{with transpose = true needs an FP8 input (f8E4M3FN or f8E5M2), FP8 codes, f32 scales (or f8E8M0FNU with scale_mode pow2), block_rows = 1 and a static rows}}
func.func private @requantize_dynamic() attributes {fp8.kernel = #fp8.quantize_kernel<rows = ?, cols = 256, block_rows = 1, input = f8E5M2, fp8 = f8E4M3FN, scale = f32, eps = 1.0e-4 : f32, transpose = true>}

// -----

// An FP8 input without transpose = true is not a quantize kernel's.
// expected-error @+1 {{needs a bf16 or f32 input, FP8 codes (f8E4M3FN or f8E5M2) and f32 scales (or f8E8M0FNU with scale_mode pow2)}}
func.func private @fp8_input() attributes {fp8.kernel = #fp8.quantize_kernel<rows = 4, cols = 256, block_rows = 1, input = f8E4M3FN, fp8 = f8E4M3FN, scale = f32, eps = 1.0e-4 : f32>}

// -----

// A run-time K: the 2-D kernel with a scale per K block only.
// expected-error @+1 {{k = ? needs a 2-D or k_grouped kernel with a scale per K block (scale_k 128)}}
func.func private @grouped_dynamic_k() attributes {fp8.kernel = #fp8.gemm_kernel<m = 256, n = 256, k = ?, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, layout = masked, groups = 4, block_m = 128, block_n = 128, block_k = 128, stages = 6, consumers = 2>}

// -----

// The transpose kernel moves FP8 codes (8 bits), bf16 (16) or f32 (32).
// expected-error @+1 {{needs bits 8 (FP8 codes), 16 (bf16) or 32 (f32), got 64}}
func.func private @transpose_bits() attributes {fp8.kernel = #fp8.transpose_kernel<bits = 64>}

// -----

// expected-error @+1 {{needs repeat_rows >= 1, got 0}}
func.func private @transpose_repeat() attributes {fp8.kernel = #fp8.transpose_kernel<bits = 32, repeat_rows = 0>}

// -----

// Swap-AB: A's per-row scales reach the kernel as per-column B scales.
// expected-error @+1 {{swap_ab needs a 2-D kernel (no layout) with b_scale_rows 1, scale_k 128 and static m and k}}
func.func private @swap_ab_block_scales() attributes {fp8.kernel = #fp8.gemm_kernel<m = 300, n = 16, k = 400, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 128, stages = 6, consumers = 2, swap_ab = true>}

// -----

// mxfp8's scale per 32 K holds for both operands: B's per column.
// expected-error @+1 {{needs scale_k 128 (a scale per K block), k = 200 with b_scale_rows 1 and no layout (one scale along the whole K) or 32 with b_scale_rows 1 and no layout (mxfp8), got scale_k 32, b_scale_rows 128}}
func.func private @mx_block_b() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 256, k = 200, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, scale_k = 32, block_m = 128, block_n = 64, block_k = 128, stages = 6, consumers = 2>}

// -----

// The per-tensor kernel's block is the whole tensor: block_rows = rows,
// block_cols = cols.
// expected-error @+1 {{with per_tensor = true needs a static rows, block_rows = rows, block_cols = cols and no transpose, got 1x128 blocks of 200x400}}
func.func private @per_tensor_blocks() attributes {fp8.kernel = #fp8.quantize_kernel<rows = 200, cols = 400, block_rows = 1, input = f32, fp8 = f8E4M3FN, scale = f32, eps = 1.0e-4 : f32, per_tensor = true>}

// -----

// expected-error @+1 {{with per_tensor = true needs a static rows, block_rows = rows, block_cols = cols and no transpose, got 200x256 blocks of 200x400}}
func.func private @per_tensor_cols() attributes {fp8.kernel = #fp8.quantize_kernel<rows = 200, cols = 400, block_rows = 200, block_cols = 256, input = f32, fp8 = f8E4M3FN, scale = f32, eps = 1.0e-4 : f32, per_tensor = true>}

// -----

// A per-tensor kernel's row count is its block's: static.
// expected-error @+1 {{with per_tensor = true needs a static rows, block_rows = rows, block_cols = cols and no transpose, got 128x400 blocks of ?x400}}
func.func private @per_tensor_dynamic() attributes {fp8.kernel = #fp8.quantize_kernel<rows = ?, cols = 400, block_rows = 128, block_cols = 400, input = f32, fp8 = f8E4M3FN, scale = f32, eps = 1.0e-4 : f32, per_tensor = true>}

// -----

// expected-error @+1 {{with per_tensor = true needs a static rows, block_rows = rows, block_cols = cols and no transpose, got 256x256 blocks of 256x256}}
func.func private @per_tensor_transpose() attributes {fp8.kernel = #fp8.quantize_kernel<rows = 256, cols = 256, block_rows = 256, block_cols = 256, input = f8E4M3FN, fp8 = f8E4M3FN, scale = f32, eps = 1.0e-4 : f32, transpose = true, per_tensor = true>}

// -----

// per_tensor = false is the blocked kernel, whose blocks are checked as usual.
// expected-error @+1 {{needs block_rows 1 or 128, got 200}}
func.func private @per_tensor_false() attributes {fp8.kernel = #fp8.quantize_kernel<rows = 200, cols = 400, block_rows = 200, block_cols = 400, input = f32, fp8 = f8E4M3FN, scale = f32, eps = 1.0e-4 : f32, per_tensor = false>}

// -----

// The per-tensor kernel's input is bf16 or f32, as the blocked kernel's.
// expected-error @+1 {{needs a bf16 or f32 input, FP8 codes (f8E4M3FN or f8E5M2) and f32 scales (or f8E8M0FNU with scale_mode pow2)}}
func.func private @per_tensor_input() attributes {fp8.kernel = #fp8.quantize_kernel<rows = 200, cols = 400, block_rows = 200, block_cols = 400, input = f16, fp8 = f8E4M3FN, scale = f32, eps = 1.0e-4 : f32, per_tensor = true>}

// -----

// The quantize epilogue: its fields come with it, and it needs a 1x128 tile
// of D within one consumer's columns, a 2-D kernel and a static K.
// expected-error @+1 {{q, q_eps and q_pow2 need epilogue = quantize}}
func.func private @q_without_epilogue() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 256, k = 256, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 128, stages = 6, consumers = 2, q = f8E4M3FN>}

// -----

// expected-error @+1 {{epilogue = quantize needs q (f8E4M3FN or f8E5M2) and q_eps}}
func.func private @q_bf16() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 256, k = 256, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 128, stages = 6, consumers = 2, epilogue = quantize, q = bf16, q_eps = 1.0e-4 : f32>}

// -----

// expected-error @+1 {{needs a finite q_eps >= 0, got -1}}
func.func private @q_eps_negative() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 256, k = 256, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 128, stages = 6, consumers = 2, epilogue = quantize, q = f8E4M3FN, q_eps = -1.0 : f32>}

// -----

// expected-error @+1 {{epilogue = quantize needs the 2-D kernel (no layout, no swap_ab) with a static k}}
func.func private @q_grouped() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 256, k = 256, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, layout = contiguous, groups = 4, block_m = 128, block_n = 128, block_k = 128, stages = 6, consumers = 2, epilogue = quantize, q = f8E4M3FN, q_eps = 1.0e-4 : f32>}

// -----

// expected-error @+1 {{the quantize epilogue needs block-n / splits a multiple of 128}}
func.func private @q_narrow() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 256, k = 256, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 112, block_k = 128, stages = 6, consumers = 2, epilogue = quantize, q = f8E4M3FN, q_eps = 1.0e-4 : f32>}

// -----

// The overlapped promotion (overlap = U): U is 4 or 8; only the tiles
// ptxas assembles without spills (block_m 128, two consumers of 112 to
// 128 columns by 8, at most 64 by 4); 128 x 128 B blocks; two stages at
// least.
func.func private @overlap_128() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 256, k = 256, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 128, stages = 4, consumers = 2, overlap = 8>}
// expected-error @+1 {{invalid tile configuration block_m = 128, block_n = 144, stages = 4, consumers = 2, overlap = 8: the overlapped promotion needs block-m 128 with two consumer warpgroups of 112 to 128 columns each with overlap 8, at most 64 with overlap 4}}
func.func private @overlap_144() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 256, k = 256, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 144, block_k = 128, stages = 4, consumers = 2, overlap = 8>}

// -----

func.func private @overlap4_64() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 256, k = 256, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 64, block_k = 128, stages = 4, consumers = 2, overlap = 4>}
// expected-error @+1 {{with overlap 8, at most 64 with overlap 4}}
func.func private @overlap4_128() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 256, k = 256, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 128, stages = 4, consumers = 2, overlap = 4>}

// -----

// expected-error @+1 {{the overlapped promotion needs block-m 128 with two consumer warpgroups}}
func.func private @overlap_one_consumer() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 256, k = 256, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 64, block_n = 128, block_k = 128, stages = 4, consumers = 1, overlap = 8>}

// -----

// expected-error @+1 {{overlap must be 0 (the lock-step promotion) or 4 or 8}}
func.func private @overlap_2() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 256, k = 256, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 128, stages = 4, consumers = 2, overlap = 2>}

// -----

// expected-error @+1 {{the overlapped promotion (overlap 4 or 8) needs 128 x 128 B blocks}}
func.func private @overlap_column_scales() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 256, k = 256, a = f8E4M3FN, b = f8E4M3FN, d = f32, a_scale = f32, b_scale = f32, b_scale_rows = 1, block_m = 128, block_n = 128, block_k = 128, stages = 4, consumers = 2, overlap = 4>}

// -----

// expected-error @+1 {{needs stages >= 2}}
func.func private @overlap_one_stage() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 256, k = 256, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 128, stages = 1, consumers = 2, overlap = 4>}

// -----

// A grouped kernel: 128 columns, not 144.
func.func private @overlap_grouped_128() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 256, k = 256, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, layout = contiguous, groups = 4, block_m = 128, block_n = 128, block_k = 128, stages = 4, consumers = 2, overlap = 8>}
// expected-error @+1 {{the overlapped promotion needs block-m 128 with two consumer warpgroups}}
func.func private @overlap_grouped_144() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 256, k = 256, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, layout = contiguous, groups = 4, block_m = 128, block_n = 144, block_k = 128, stages = 4, consumers = 2, overlap = 8>}

// -----

// acc_init (the BF16 variant's folded fill): an f32 constant, on a bf16
// kernel without c.
// expected-error @+1 {{acc_init needs the bf16 variant (a = b = bf16) without c (the accumulators start at acc_init in C's place)}}
func.func private @acc_init_with_c() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 128, k = 128, a = bf16, b = bf16, d = f32, c = f32, acc_init = 1.5 : f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 64, stages = 7, consumers = 2>}

// -----

// expected-error @+1 {{acc_init needs the bf16 variant (a = b = bf16) without c}}
func.func private @acc_init_fp8() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 256, k = 256, a = f8E4M3FN, b = f8E4M3FN, d = bf16, acc_init = 0.0 : f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 128, stages = 6, consumers = 2>}

// -----

// expected-error @+1 {{needs an f32 acc_init (the accumulators' start), got 'f64'}}
func.func private @acc_init_f64() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 128, k = 128, a = bf16, b = bf16, d = f32, acc_init = 0.0 : f64, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 64, stages = 7, consumers = 2>}

// -----

// a_major, b_major (the BF16 variant's operand majors): FP8 operands are
// K-major (wgmma transposes .f16/.bf16 only).
// expected-error @+1 {{a_major and b_major need bf16 operands: FP8 operands are K-major (wgmma has no transpose of FP8 operands; imm-trans-a and imm-trans-b are .f16/.bf16 only, PTX ISA wgmma.mma_async)}}
func.func private @major_fp8() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 256, k = 256, a = f8E4M3FN, b = f8E4M3FN, a_major = mn, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 128, stages = 6, consumers = 2>}

// -----

// expected-error @+1 {{a_major and b_major need bf16 operands}}
func.func private @major_fp8_b() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 256, k = 256, a = f8E4M3FN, b = f8E4M3FN, b_major = k, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 128, stages = 6, consumers = 2>}

// -----

// A major written at its default: a second attribute of one kernel.
// expected-error @+1 {{b_major = mn is the bf16 kernel's default: leave it out (equal kernels have equal attributes)}}
func.func private @major_default_b() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 128, k = 128, a = bf16, b = bf16, b_major = mn, d = f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 64, stages = 7, consumers = 2>}

// -----

// expected-error @+1 {{a_major = k is the bf16 kernel's default}}
func.func private @major_default_a() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 128, k = 128, a = bf16, b = bf16, a_major = k, d = f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 64, stages = 7, consumers = 2>}

// -----

// An MN-major A [K, M]: M is its rows' TMA stride, static and a multiple of 8.
// expected-error @+1 {{an MN-major A ([K, M] row-major) needs a static M, a multiple of 8 (its rows of M bf16 are TMA global strides: multiples of 16 bytes)}}
func.func private @major_a_m100() attributes {fp8.kernel = #fp8.gemm_kernel<m = 100, n = 128, k = 128, a = bf16, b = bf16, a_major = mn, d = f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 64, stages = 7, consumers = 2>}

// -----

// expected-error @+1 {{an MN-major A ([K, M] row-major) needs a static M}}
func.func private @major_a_dynamic_m() attributes {fp8.kernel = #fp8.gemm_kernel<m = ?, n = 128, k = 128, a = bf16, b = bf16, a_major = mn, d = f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 64, stages = 7, consumers = 2>}

// -----

// a_heads, b_heads (the BF16 batch kernel's head views): the batch splits
// into (g / H, g % H), so the FP8 kernels, the 2-D kernel, a run-time G or
// M and an H that does not divide G have none.
// expected-error @+1 {{a_heads and b_heads need the bf16 batch kernel (a = bf16, layout = masked without counts): the head view splits a batch_matmul's batch}}
func.func private @heads_fp8() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 256, k = 256, a = f8E4M3FN, b = f8E4M3FN, a_heads = 2, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, layout = masked, groups = 4, block_m = 128, block_n = 128, block_k = 128, stages = 6, consumers = 2>}

// -----

// expected-error @+1 {{a_heads and b_heads need the bf16 batch kernel}}
func.func private @heads_2d() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 128, k = 128, a = bf16, b = bf16, b_heads = 2, d = f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 64, stages = 7, consumers = 2>}

// -----

// expected-error @+1 {{heads 4 do not divide groups 6 (batch g is head g % H of sequence g / H)}}
func.func private @heads_divide() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 128, k = 128, a = bf16, b = bf16, b_heads = 4, d = f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, layout = masked, groups = 6, block_m = 128, block_n = 128, block_k = 64, stages = 7, consumers = 2>}

// -----

// expected-error @+1 {{a_heads and b_heads need static groups and m (the head view's batch and row extents)}}
func.func private @heads_dynamic_g() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 128, k = 128, a = bf16, b = bf16, a_heads = 2, d = f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, layout = masked, groups = ?, block_m = 128, block_n = 128, block_k = 64, stages = 7, consumers = 2>}

// -----

// expected-error @+1 {{a_heads and b_heads need static groups and m}}
func.func private @heads_dynamic_m() attributes {fp8.kernel = #fp8.gemm_kernel<m = ?, n = 128, k = 128, a = bf16, b = bf16, a_heads = 2, d = f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, layout = masked, groups = 4, block_m = 128, block_n = 128, block_k = 64, stages = 7, consumers = 2>}

// -----

// expected-error @+1 {{needs a_heads and b_heads >= 1, got 1 and 0}}
func.func private @heads_zero() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 128, k = 128, a = bf16, b = bf16, b_heads = 0, d = f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, layout = masked, groups = 4, block_m = 128, block_n = 128, block_k = 64, stages = 7, consumers = 2>}

// -----

// d_heads (the BF16 batch kernel's D written as [B, M, H, N]): the batch
// splits into (g / H, g % H) as for a_heads, and the op's C is packed.
// expected-error @+1 {{d_heads needs the bf16 batch kernel (a = bf16, layout = masked without counts): the head view splits a batch_matmul's batch}}
func.func private @dheads_fp8() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 256, k = 256, a = f8E4M3FN, b = f8E4M3FN, d_heads = 2, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, layout = masked, groups = 4, block_m = 128, block_n = 128, block_k = 128, stages = 6, consumers = 2>}

// -----

// expected-error @+1 {{d_heads needs the bf16 batch kernel}}
func.func private @dheads_2d() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 128, k = 128, a = bf16, b = bf16, d_heads = 2, d = f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 64, stages = 7, consumers = 2>}

// -----

// expected-error @+1 {{d_heads needs the bf16 batch kernel}}
func.func private @dheads_counts() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 128, k = 128, a = bf16, b = bf16, d_heads = 2, d = f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, layout = masked, groups = 4, counts = true, block_m = 128, block_n = 128, block_k = 64, stages = 7, consumers = 2>}

// -----

// expected-error @+1 {{d_heads 4 does not divide groups 6 (batch g is head g % H of sequence g / H)}}
func.func private @dheads_divide() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 128, k = 128, a = bf16, b = bf16, d_heads = 4, d = f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, layout = masked, groups = 6, block_m = 128, block_n = 128, block_k = 64, stages = 7, consumers = 2>}

// -----

// expected-error @+1 {{d_heads needs static groups and m (the head view's batch and row extents)}}
func.func private @dheads_dynamic_g() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 128, k = 128, a = bf16, b = bf16, d_heads = 2, d = f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, layout = masked, groups = ?, block_m = 128, block_n = 128, block_k = 64, stages = 7, consumers = 2>}

// -----

// expected-error @+1 {{d_heads needs static groups and m}}
func.func private @dheads_dynamic_m() attributes {fp8.kernel = #fp8.gemm_kernel<m = ?, n = 128, k = 128, a = bf16, b = bf16, d_heads = 2, d = f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, layout = masked, groups = 4, block_m = 128, block_n = 128, block_k = 64, stages = 7, consumers = 2>}

// -----

// expected-error @+1 {{d_heads needs a kernel without C (c absent): C is the op's packed [G, M, N] init, not [B, M, H, N] as D}}
func.func private @dheads_c() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 128, k = 128, a = bf16, b = bf16, d_heads = 2, d = f32, c = f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, layout = masked, groups = 4, block_m = 128, block_n = 128, block_k = 64, stages = 7, consumers = 2>}

// -----

// expected-error @+1 {{needs d_heads >= 1, got 0}}
func.func private @dheads_zero() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 128, k = 128, a = bf16, b = bf16, d_heads = 0, d = f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, layout = masked, groups = 4, block_m = 128, block_n = 128, block_k = 64, stages = 7, consumers = 2>}
