// RUN: fp8-opt %s -split-input-file | FileCheck %s
// RUN: fp8-opt %s -split-input-file | fp8-opt -split-input-file | FileCheck %s

// The typed configuration of a generated kernel prints its fields by name;
// fields at their default (no accumulator, not grouped, cluster 1, row-major
// tile order, the store epilogue) are left out. The cost model's figures
// are an attribute of their own, #fp8.kernel_model.

// CHECK-LABEL: func.func private @dynamic_m()
// CHECK-SAME: fp8.kernel = #fp8.gemm_kernel<m = ?, n = 2112, k = 7168, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 128, stages = 6, consumers = 2>
// CHECK-SAME: fp8.kernel_ref = @fp8_kernels::@fp8_scaled_matmul_dynx2112x7168_e4m3_e4m3_bf16
func.func private @dynamic_m() attributes {fp8.kernel = #fp8.gemm_kernel<m = ?, n = 2112, k = 7168, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 128, stages = 6, consumers = 2>, fp8.kernel_ref = @fp8_kernels::@fp8_scaled_matmul_dynx2112x7168_e4m3_e4m3_bf16}

// -----

// The bf16 batch kernel of a run-time batch count (and M): groups = ?.
// CHECK-LABEL: func.func private @dynamic_groups()
// CHECK-SAME: fp8.kernel = #fp8.gemm_kernel<m = ?, n = 72, k = 40, a = bf16, b = bf16, d = f32, c = f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, layout = masked, groups = ?, block_m = 128, block_n = 128, block_k = 64, stages = 7, consumers = 2>
func.func private @dynamic_groups() attributes {fp8.kernel = #fp8.gemm_kernel<m = ?, n = 72, k = 40, a = bf16, b = bf16, d = f32, c = f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, layout = masked, groups = ?, block_m = 128, block_n = 128, block_k = 64, stages = 7, consumers = 2>}

// -----

// The BF16 variant's folded fill: acc_init in place of c; -0.0 and +0.0
// are distinct attributes, and so distinct kernels (_init80000000, _init0).
// CHECK-LABEL: func.func private @acc_init_negzero()
// CHECK-SAME: fp8.kernel = #fp8.gemm_kernel<m = 100, n = 72, k = 40, a = bf16, b = bf16, d = f32, acc_init = -0.000000e+00 : f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 64, stages = 7, consumers = 2>
func.func private @acc_init_negzero() attributes {fp8.kernel = #fp8.gemm_kernel<m = 100, n = 72, k = 40, a = bf16, b = bf16, d = f32, acc_init = -0.0 : f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 64, stages = 7, consumers = 2>}
// CHECK-LABEL: func.func private @acc_init_zero()
// CHECK-SAME: acc_init = 0.000000e+00 : f32,
func.func private @acc_init_zero() attributes {fp8.kernel = #fp8.gemm_kernel<m = 100, n = 72, k = 40, a = bf16, b = bf16, d = f32, acc_init = 0.0 : f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 64, stages = 7, consumers = 2>}

// -----

// Every field given: a masked grouped kernel with counts, an f32
// accumulator, the grouped tile order, the overlapped promotion; its
// modelled time beside it.
// CHECK-LABEL: func.func private @all_fields()
// CHECK-SAME: #fp8.gemm_kernel<m = 256, n = 4096, k = 7168, a = f8E4M3FN, b = f8E5M2, d = f32, c = f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, layout = masked, groups = 8, counts = true, block_m = 128, block_n = 128, block_k = 128, stages = 5, consumers = 2, group_m = 4, overlap = 8, swap_ab = false>
// CHECK-SAME: fp8.kernel_model = #fp8.kernel_model<chip = "h100-sxm", ctas = 132, modelled_us = 1.250000e+01 : f64, modelled_tflops = 5.500000e+02 : f64>
func.func private @all_fields() attributes {fp8.kernel = #fp8.gemm_kernel<m = 256, n = 4096, k = 7168, a = f8E4M3FN, b = f8E5M2, d = f32, c = f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, layout = masked, groups = 8, counts = true, block_m = 128, block_n = 128, block_k = 128, stages = 5, consumers = 2, cluster = 1, multicast = 1, group_m = 4, overlap = 8, swap_ab = false, epilogue = store>, fp8.kernel_model = #fp8.kernel_model<chip = "h100-sxm", ctas = 132, modelled_us = 12.5 : f64, modelled_tflops = 550.0 : f64>}

// -----

// The Wgrad kernel: B scales per column (b_scale_rows = 1), columns split
// over two consumers of a 64-row tile.
// CHECK-LABEL: func.func private @column_scales()
// CHECK-SAME: #fp8.gemm_kernel<m = 7168, n = 2048, k = 4096, a = f8E4M3FN, b = f8E4M3FN, d = f32, a_scale = f32, b_scale = f32, b_scale_rows = 1, block_m = 64, block_n = 256, block_k = 128, stages = 5, consumers = 2>
func.func private @column_scales() attributes {fp8.kernel = #fp8.gemm_kernel<m = 7168, n = 2048, k = 4096, a = f8E4M3FN, b = f8E4M3FN, d = f32, a_scale = f32, b_scale = f32, b_scale_rows = 1, block_m = 64, block_n = 256, block_k = 128, stages = 5, consumers = 2>}

// -----

// The k-grouped kernel (the MoE Wgrad, layout = k_grouped): per-column B
// scales, G groups of K, C of the groups' [G, M, N].
// CHECK-LABEL: func.func private @k_grouped()
// CHECK-SAME: #fp8.gemm_kernel<m = 7168, n = 2048, k = 4096, a = f8E4M3FN, b = f8E4M3FN, d = f32, c = f32, a_scale = f32, b_scale = f32, b_scale_rows = 1, layout = k_grouped, groups = 8, block_m = 128, block_n = 160, block_k = 128, stages = 6, consumers = 2>
// CHECK-SAME: fp8.kernel_ref = @fp8_kernels::@fp8_grouped_matmul_k_grouped_8x7168x2048x4096_e4m3_e4m3_f32_accf32_b1x128_t128x160s6
func.func private @k_grouped() attributes {fp8.kernel = #fp8.gemm_kernel<m = 7168, n = 2048, k = 4096, a = f8E4M3FN, b = f8E4M3FN, d = f32, c = f32, a_scale = f32, b_scale = f32, b_scale_rows = 1, layout = k_grouped, groups = 8, block_m = 128, block_n = 160, block_k = 128, stages = 6, consumers = 2>, fp8.kernel_ref = @fp8_kernels::@fp8_grouped_matmul_k_grouped_8x7168x2048x4096_e4m3_e4m3_f32_accf32_b1x128_t128x160s6}

// -----

// The quantize epilogue: its code type, eps and pow2 scales print by name
// (q_pow2 only when given).
// CHECK-LABEL: func.func private @quantize_epilogue()
// CHECK-SAME: #fp8.gemm_kernel<m = 4096, n = 7168, k = 2048, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 128, stages = 6, consumers = 2, epilogue = quantize, q = f8E5M2, q_eps = 1.000000e-03 : f32, q_pow2 = true>
// CHECK-SAME: fp8.kernel_ref = @fp8_kernels::@fp8_scaled_matmul_4096x7168x2048_e4m3_e4m3_bf16_qe5m2_pow2_eps3a83126f
func.func private @quantize_epilogue() attributes {fp8.kernel = #fp8.gemm_kernel<m = 4096, n = 7168, k = 2048, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 128, stages = 6, consumers = 2, epilogue = quantize, q = f8E5M2, q_eps = 1.0e-3 : f32, q_pow2 = true>, fp8.kernel_ref = @fp8_kernels::@fp8_scaled_matmul_4096x7168x2048_e4m3_e4m3_bf16_qe5m2_pow2_eps3a83126f}

// -----

// CHECK-LABEL: func.func private @quantize()
// CHECK-SAME: #fp8.quantize_kernel<rows = ?, cols = 7168, block_rows = 1, input = bf16, fp8 = f8E4M3FN, scale = f32, eps = 9.99999974E-5 : f32>
// CHECK-LABEL: func.func private @quantize_pow2()
// CHECK-SAME: #fp8.quantize_kernel<rows = 512, cols = 384, block_rows = 128, input = f32, fp8 = f8E5M2, scale = f32, scale_mode = pow2, eps = 0.000000e+00 : f32>
func.func private @quantize() attributes {fp8.kernel = #fp8.quantize_kernel<rows = ?, cols = 7168, block_rows = 1, input = bf16, fp8 = f8E4M3FN, scale = f32, eps = 1.0e-4 : f32>}
func.func private @quantize_pow2() attributes {fp8.kernel = #fp8.quantize_kernel<rows = 512, cols = 384, block_rows = 128, input = f32, fp8 = f8E5M2, scale = f32, scale_mode = pow2, eps = 0.0 : f32>}
// CHECK-LABEL: func.func private @quantize_rowwise()
// CHECK-SAME: #fp8.quantize_kernel<rows = ?, cols = 7168, block_rows = 1, block_cols = 7168, input = bf16, fp8 = f8E4M3FN, scale = f32, scale_mode = pow2, eps = 9.99999974E-5 : f32>
func.func private @quantize_rowwise() attributes {fp8.kernel = #fp8.quantize_kernel<rows = ?, cols = 7168, block_rows = 1, block_cols = 7168, input = bf16, fp8 = f8E4M3FN, scale = f32, scale_mode = pow2, eps = 1.0e-4 : f32>}
// CHECK-LABEL: func.func private @quantize_columns()
// CHECK-SAME: #fp8.quantize_kernel<rows = ?, cols = 300, block_rows = 128, block_cols = 1, input = bf16, fp8 = f8E4M3FN, scale = f32, eps = 9.99999974E-5 : f32>
func.func private @quantize_columns() attributes {fp8.kernel = #fp8.quantize_kernel<rows = ?, cols = 300, block_rows = 128, block_cols = 1, input = bf16, fp8 = f8E4M3FN, scale = f32, eps = 1.0e-4 : f32>}
// CHECK-LABEL: func.func private @quantize_e8m0()
// CHECK-SAME: #fp8.quantize_kernel<rows = 64, cols = 256, block_rows = 128, input = f32, fp8 = f8E4M3FN, scale = f8E8M0FNU, scale_mode = pow2, eps = 9.99999974E-5 : f32>
func.func private @quantize_e8m0() attributes {fp8.kernel = #fp8.quantize_kernel<rows = 64, cols = 256, block_rows = 128, input = f32, fp8 = f8E4M3FN, scale = f8E8M0FNU, scale_mode = pow2, eps = 1.0e-4 : f32>}
// The per-tensor kernel: one block, the whole tensor.
// CHECK-LABEL: func.func private @quantize_per_tensor()
// CHECK-SAME: #fp8.quantize_kernel<rows = 200, cols = 400, block_rows = 200, block_cols = 400, input = f32, fp8 = f8E4M3FN, scale = f32, eps = 9.99999974E-5 : f32, per_tensor = true>
func.func private @quantize_per_tensor() attributes {fp8.kernel = #fp8.quantize_kernel<rows = 200, cols = 400, block_rows = 200, block_cols = 400, input = f32, fp8 = f8E4M3FN, scale = f32, eps = 1.0e-4 : f32, per_tensor = true>}


// -----

// The Wgrad kernel over a run-time token count: k = ?.
// CHECK-LABEL: func.func private @dynamic_k()
// CHECK-SAME: fp8.kernel = #fp8.gemm_kernel<m = 300, n = 400, k = ?, a = f8E4M3FN, b = f8E4M3FN, d = f32, a_scale = f32, b_scale = f32, b_scale_rows = 1, block_m = 128, block_n = 128, block_k = 128, stages = 6, consumers = 2>
func.func private @dynamic_k() attributes {fp8.kernel = #fp8.gemm_kernel<m = 300, n = 400, k = ?, a = f8E4M3FN, b = f8E4M3FN, d = f32, a_scale = f32, b_scale = f32, b_scale_rows = 1, block_m = 128, block_n = 128, block_k = 128, stages = 6, consumers = 2>}

// The transpose kernel (fp8-launch-kernels): sizes at run time, the element
// width its one field.
// CHECK-LABEL: func.func private @transpose()
// CHECK-SAME: fp8.kernel = #fp8.transpose_kernel<bits = 8>
// CHECK-LABEL: func.func private @transpose_repeat()
// CHECK-SAME: fp8.kernel = #fp8.transpose_kernel<bits = 32, repeat_rows = 128>
func.func private @transpose() attributes {fp8.kernel = #fp8.transpose_kernel<bits = 8, repeat_rows = 1>}
func.func private @transpose_repeat() attributes {fp8.kernel = #fp8.transpose_kernel<bits = 32, repeat_rows = 128>}

// -----

// The model of a kernel for a run-time M: the chip only (ctas = 0 and no
// times are not printed).
// CHECK-LABEL: func.func private @model_chip_only()
// CHECK-SAME: fp8.kernel_model = #fp8.kernel_model<chip = "h200">
func.func private @model_chip_only() attributes {fp8.kernel_model = #fp8.kernel_model<chip = "h200", ctas = 0>}

// -----

// The BF16 variant's batch kernel (a bf16 linalg.batch_matmul): bf16
// operands with the masked layout, G batches, no counts; m static or ? (a
// run-time M).
// CHECK-LABEL: func.func private @bf16_batch()
// CHECK-SAME: #fp8.gemm_kernel<m = 128, n = 128, k = 128, a = bf16, b = bf16, d = f32, c = f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, layout = masked, groups = 6, block_m = 128, block_n = 128, block_k = 64, stages = 7, consumers = 2>
func.func private @bf16_batch() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 128, k = 128, a = bf16, b = bf16, d = f32, c = f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, layout = masked, groups = 6, block_m = 128, block_n = 128, block_k = 64, stages = 7, consumers = 2>}

// -----

// CHECK-LABEL: func.func private @bf16_batch_dynamic_m()
// CHECK-SAME: #fp8.gemm_kernel<m = ?, n = 128, k = 128, a = bf16, b = bf16, d = f32, c = f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, layout = masked, groups = 6, block_m = 128, block_n = 128, block_k = 64, stages = 7, consumers = 2>
func.func private @bf16_batch_dynamic_m() attributes {fp8.kernel = #fp8.gemm_kernel<m = ?, n = 128, k = 128, a = bf16, b = bf16, d = f32, c = f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, layout = masked, groups = 6, block_m = 128, block_n = 128, block_k = 64, stages = 7, consumers = 2>}

// -----

// Two m64 waves per consumer (waves = 2): a 256 x 128 tile on two
// consumers of 128 rows each; waves = 1, the default, is not printed.
// CHECK-LABEL: func.func private @waves()
// CHECK-SAME: #fp8.gemm_kernel<m = 4096, n = 7168, k = 2048, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 256, block_n = 128, block_k = 128, stages = 4, consumers = 2, waves = 2>
// CHECK-SAME: fp8.kernel_ref = @fp8_kernels::@fp8_scaled_matmul_4096x7168x2048_e4m3_e4m3_bf16_t256x128s4w2
// CHECK-LABEL: func.func private @one_wave()
// CHECK-SAME: block_m = 128, block_n = 128, block_k = 128, stages = 6, consumers = 2>
func.func private @waves() attributes {fp8.kernel = #fp8.gemm_kernel<m = 4096, n = 7168, k = 2048, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 256, block_n = 128, block_k = 128, stages = 4, consumers = 2, waves = 2>, fp8.kernel_ref = @fp8_kernels::@fp8_scaled_matmul_4096x7168x2048_e4m3_e4m3_bf16_t256x128s4w2}
func.func private @one_wave() attributes {fp8.kernel = #fp8.gemm_kernel<m = 4096, n = 7168, k = 2048, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 128, stages = 6, consumers = 2, waves = 1>}

// -----

// The BF16 variant's operand majors other than its default: an MN-major A
// ([K, M]) and a K-major B ([N, K]).
// CHECK-LABEL: func.func private @majors()
// CHECK-SAME: fp8.kernel = #fp8.gemm_kernel<m = 200, n = 136, k = 72, a = bf16, b = bf16, a_major = mn, b_major = k, d = f32, c = f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 64, stages = 7, consumers = 2>
func.func private @majors() attributes {fp8.kernel = #fp8.gemm_kernel<m = 200, n = 136, k = 72, a = bf16, b = bf16, a_major = mn, b_major = k, d = f32, c = f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 64, stages = 7, consumers = 2>}

// -----

// The BF16 batch kernel's head views: A and B read from [B, rows, H, cols]
// sources of 3 heads (G = 6 = 2 x 3); a_heads = 1 is the default, not
// printed.
// CHECK-LABEL: func.func private @heads()
// CHECK-SAME: fp8.kernel = #fp8.gemm_kernel<m = 200, n = 200, k = 128, a = bf16, b = bf16, b_major = k, a_heads = 3, b_heads = 3, d = f32, c = f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, layout = masked, groups = 6, block_m = 128, block_n = 128, block_k = 64, stages = 7, consumers = 2>
func.func private @heads() attributes {fp8.kernel = #fp8.gemm_kernel<m = 200, n = 200, k = 128, a = bf16, b = bf16, b_major = k, a_heads = 3, b_heads = 3, d = f32, c = f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, layout = masked, groups = 6, block_m = 128, block_n = 128, block_k = 64, stages = 7, consumers = 2>}
// CHECK-LABEL: func.func private @heads_default()
// CHECK-SAME: fp8.kernel = #fp8.gemm_kernel<m = 200, n = 64, k = 200, a = bf16, b = bf16, b_heads = 3, d = f32,
func.func private @heads_default() attributes {fp8.kernel = #fp8.gemm_kernel<m = 200, n = 64, k = 200, a = bf16, b = bf16, a_heads = 1, b_heads = 3, d = f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, layout = masked, groups = 6, block_m = 128, block_n = 128, block_k = 64, stages = 7, consumers = 2>}
// D written through a head view ([B, M, H, N], without C); d_heads = 1 is
// the default, not printed.
// CHECK-LABEL: func.func private @dheads()
// CHECK-SAME: fp8.kernel = #fp8.gemm_kernel<m = 200, n = 64, k = 200, a = bf16, b = bf16, a_major = mn, b_heads = 3, d_heads = 3, d = f32, acc_init = 0.000000e+00 : f32, a_scale = f32,
func.func private @dheads() attributes {fp8.kernel = #fp8.gemm_kernel<m = 200, n = 64, k = 200, a = bf16, b = bf16, a_major = mn, b_heads = 3, d_heads = 3, d = f32, acc_init = 0.0 : f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, layout = masked, groups = 6, block_m = 128, block_n = 128, block_k = 64, stages = 7, consumers = 2>}
// CHECK-LABEL: func.func private @dheads_default()
// CHECK-SAME: fp8.kernel = #fp8.gemm_kernel<m = 200, n = 64, k = 200, a = bf16, b = bf16, d = f32, a_scale = f32,
func.func private @dheads_default() attributes {fp8.kernel = #fp8.gemm_kernel<m = 200, n = 64, k = 200, a = bf16, b = bf16, d_heads = 1, d = f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, layout = masked, groups = 6, block_m = 128, block_n = 128, block_k = 64, stages = 7, consumers = 2>}
