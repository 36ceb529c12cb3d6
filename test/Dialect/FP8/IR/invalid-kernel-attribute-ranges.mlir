// RUN: fp8-opt %s -split-input-file -verify-diagnostics

// The kernel attributes' integers at the ends of int64 (written by hand:
// fp8-launch-kernels and fp8-emu read the attributes as they are). Every
// static size is below 2^31 (the kernels' 32-bit coordinates: a larger one
// verified and wrapped in them), and a huge stages count must not wrap in
// the ring's barrier bytes (2^62 stages verified). An infinite eps (every
// scale infinite, every code zero) is refused as q_eps is.

// expected-error @+1 {{needs m, n and k below 2^31 (the kernels' coordinates and row counts are signed 32-bit), got 2147483648}}
func.func private @m_2_31() attributes {fp8.kernel = #fp8.gemm_kernel<m = 2147483648, n = 256, k = 256, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 128, stages = 6, consumers = 2>}

// -----

// expected-error @+1 {{needs m, n and k below 2^31 (the kernels' coordinates and row counts are signed 32-bit), got 9223372036854775807}}
func.func private @n_max() attributes {fp8.kernel = #fp8.gemm_kernel<m = ?, n = 9223372036854775807, k = 256, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 128, stages = 6, consumers = 2>}

// -----

// expected-error @+1 {{needs m, n and k below 2^31 (the kernels' coordinates and row counts are signed 32-bit), got 4294967296}}
func.func private @k_bf16() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 256, k = 4294967296, a = bf16, b = bf16, d = f32, c = f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 64, stages = 6, consumers = 2>}

// -----

// The largest size there is: 2^31 - 1.
func.func private @m_2_31_minus_1() attributes {fp8.kernel = #fp8.gemm_kernel<m = 2147483647, n = 256, k = 256, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 128, stages = 6, consumers = 2>}

// -----

// expected-error @+1 {{needs m, n and k >= 1 (m and k may be ?), got -9223372036854775807x256x256}}
func.func private @m_min() attributes {fp8.kernel = #fp8.gemm_kernel<m = -9223372036854775807, n = 256, k = 256, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 128, stages = 6, consumers = 2>}

// -----

// expected-error @+1 {{needs groups below 2^31 (the kernels' coordinates and row counts are signed 32-bit), got 2147483648}}
func.func private @groups() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 256, k = 256, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, layout = masked, groups = 2147483648, block_m = 128, block_n = 128, block_k = 128, stages = 6, consumers = 2>}

// -----

// 2 x 8 x 2^62 bytes of barriers wrapped to 0 (<= 1024): it verified.
// expected-error @+1 {{invalid tile configuration block_m = 128, block_n = 128, stages = 4611686018427387904, consumers = 2: stages must be in 1..64}}
func.func private @stages_wrap() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 256, k = 256, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 128, stages = 4611686018427387904, consumers = 2>}

// -----

// expected-error @+1 {{invalid tile configuration block_m = 128, block_n = 128, stages = 65, consumers = 2: stages must be in 1..64}}
func.func private @stages_65() attributes {fp8.kernel = #fp8.gemm_kernel<m = 128, n = 256, k = 256, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 128, stages = 65, consumers = 2>}

// -----

// expected-error @+1 {{needs rows and cols below 2^31 (the kernels' coordinates and row counts are signed 32-bit), got 9223372036854775807}}
func.func private @quantize_rows() attributes {fp8.kernel = #fp8.quantize_kernel<rows = 9223372036854775807, cols = 256, block_rows = 1, input = f32, fp8 = f8E4M3FN, scale = f32, eps = 1.0e-4 : f32>}

// -----

// expected-error @+1 {{needs rows and cols below 2^31 (the kernels' coordinates and row counts are signed 32-bit), got 3000000000}}
func.func private @quantize_per_tensor() attributes {fp8.kernel = #fp8.quantize_kernel<rows = 3000000000, cols = 3000000000, block_rows = 3000000000, block_cols = 3000000000, input = f32, fp8 = f8E4M3FN, scale = f32, eps = 1.0e-4 : f32, per_tensor = true>}

// -----

// expected-error @+1 {{needs rows and cols below 2^31 (the kernels' coordinates and row counts are signed 32-bit), got 2147483648}}
func.func private @quantize_rowwise_cols() attributes {fp8.kernel = #fp8.quantize_kernel<rows = ?, cols = 2147483648, block_rows = 1, block_cols = 2147483648, input = bf16, fp8 = f8E4M3FN, scale = f32, eps = 1.0e-4 : f32>}

// -----

// expected-error @+1 {{needs a finite non-negative f32 eps, got 0x7F800000 : f32}}
func.func private @quantize_eps_inf() attributes {fp8.kernel = #fp8.quantize_kernel<rows = 4, cols = 256, block_rows = 1, input = f32, fp8 = f8E4M3FN, scale = f32, eps = 0x7F800000 : f32>}

// -----

// expected-error @+1 {{needs repeat_rows below 2^31 (the kernels' coordinates and row counts are signed 32-bit), got 9223372036854775807}}
func.func private @repeat_rows() attributes {fp8.kernel = #fp8.transpose_kernel<bits = 32, repeat_rows = 9223372036854775807>}

// -----

// expected-error @+1 {{needs repeat_rows >= 1, got -9223372036854775807}}
func.func private @repeat_rows_min() attributes {fp8.kernel = #fp8.transpose_kernel<bits = 32, repeat_rows = -9223372036854775807>}

// -----

// -2^63 is the stored form of `?`: written out, it read back as a run-time M.
// expected-error @+2 {{size -9223372036854775808 is out of range (a size known at run time only is written ?)}}
// expected-error @+1 {{failed to parse FP8_GemmKernelAttr parameter 'm'}}
func.func private @m_int64_min() attributes {fp8.kernel = #fp8.gemm_kernel<m = -9223372036854775808, n = 256, k = 256, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 128, stages = 6, consumers = 2>}

// -----

// expected-error @+2 {{size -9223372036854775808 is out of range (a size known at run time only is written ?)}}
// expected-error @+1 {{failed to parse FP8_QuantizeKernelAttr parameter 'rows'}}
func.func private @rows_int64_min() attributes {fp8.kernel = #fp8.quantize_kernel<rows = -9223372036854775808, cols = 256, block_rows = 1, input = f32, fp8 = f8E4M3FN, scale = f32, eps = 1.0e-4 : f32>}
