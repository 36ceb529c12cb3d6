// RUN: fp8-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{unknown policy preset "deepseek-v4" (known: deepseek-v3, hybrid, per-tensor, rowwise, mxfp8, bf16)}}
module attributes {fp8.policy = #fp8.policy<"deepseek-v4">} {}

// -----

// expected-error @+1 {{policy promote_interval must be a positive multiple of 32 (the FP8 wgmma K) or ? (once per GEMM, at the end of K), got 100}}
module attributes {fp8.policy = #fp8.policy<"deepseek-v3", promote_interval = 100>} {}

// -----

// expected-error @+1 {{policy promote_interval must be a positive multiple of 32 (the FP8 wgmma K) or ? (once per GEMM, at the end of K), got 0}}
module attributes {fp8.policy = #fp8.policy<"per-tensor", promote_interval = 0>} {}

// -----

// One promotion per K (`?`) multiplies in one scale per row and column:
// K-blocks with scales of their own (1x128, 128x128) cannot be promoted once.
// expected-error @+1 {{policy promote_interval = ? (one promotion per GEMM, at the end of K) needs K-blocks that span the whole K (?), but the activation_block K-block is 128, each with its own scale (per-tensor and rowwise scaling have whole-K blocks)}}
module attributes {fp8.policy = #fp8.policy<"deepseek-v3", promote_interval = ?>} {}

// -----

// expected-error @+1 {{policy promote_interval = ? (one promotion per GEMM, at the end of K) needs K-blocks that span the whole K (?), but the weight_block K-block is 256}}
module attributes {fp8.policy = #fp8.policy<"rowwise", weight_block = [1, 256], promote_interval = ?>} {}

// -----

// Without FP8 GEMMs (bf16: every role a GEMM can be FP8 in kept high)
// there is no promotion to turn off: that is the error, not the K-blocks
// of FP8 fields no GEMM uses.
// expected-error @+1 {{policy promote_interval = ? (one promotion per GEMM, at the end of K) is for FP8 GEMMs, but keep_high holds every role a GEMM can be FP8 in: each GEMM stays in high precision, accumulating in FP32 without promotion intervals (the bf16 baseline); expected a policy with FP8 GEMMs and whole-K blocks (per-tensor, rowwise)}}
module attributes {fp8.policy = #fp8.policy<"bf16", promote_interval = ?>} {}

// -----

// The same without `other` and `dispatch`, whose GEMMs are never FP8.
// expected-error @+1 {{policy promote_interval = ? (one promotion per GEMM, at the end of K) is for FP8 GEMMs}}
module attributes {fp8.policy = #fp8.policy<"per-tensor", keep_high = [linear, embedding, output_head, gating, normalization, attention], promote_interval = ?>} {}

// -----

// The mxfp8 preset's 1x32 blocks need an interval of 32.
// expected-error @+1 {{policy activation_block K-block 32 is not a multiple of promote_interval 128}}
module attributes {fp8.policy = #fp8.policy<"mxfp8", promote_interval = 128>} {}

// -----

// expected-error @+1 {{policy weight_block K-block 100 is not a multiple of promote_interval 128}}
module attributes {fp8.policy = #fp8.policy<"deepseek-v3", weight_block = [128, 100]>} {}

// -----

// expected-error @+1 {{policy activation_block must have 2 sizes ([rows, K]), got 3}}
module attributes {fp8.policy = #fp8.policy<"deepseek-v3", activation_block = [1, 1, 128]>} {}

// -----

// expected-error @+1 {{policy weight_block sizes must be positive or ? (whole dimension), got 0}}
module attributes {fp8.policy = #fp8.policy<"deepseek-v3", weight_block = [0, 128]>} {}

// -----

// expected-error @+1 {{policy format must be f8E4M3FN or f8E5M2, got 'bf16'}}
module attributes {fp8.policy = #fp8.policy<"deepseek-v3", format = bf16>} {}

// -----

// expected-error @+1 {{policy grad_format must be f8E4M3FN or f8E5M2, got 'f8E4M3FNUZ'}}
module attributes {fp8.policy = #fp8.policy<"deepseek-v3", grad_format = f8E4M3FNUZ>} {}

// -----

// expected-error @+1 {{policy scale_type must be f32 or f8E8M0FNU, got 'f16'}}
module attributes {fp8.policy = #fp8.policy<"deepseek-v3", scale_type = f16>} {}

// -----

// expected-error @+1 {{policy scale_type f8E8M0FNU holds only powers of two and needs scale_mode = pow2}}
module attributes {fp8.policy = #fp8.policy<"deepseek-v3", scale_type = f8E8M0FNU>} {}

// -----

// expected-error @+1 {{policy high must be bf16, f16 or f32, got 'f8E4M3FN'}}
module attributes {fp8.policy = #fp8.policy<"deepseek-v3", high = f8E4M3FN>} {}

// -----

// expected-error @+1 {{policy eps must be finite and >= 0}}
module attributes {fp8.policy = #fp8.policy<"deepseek-v3", eps = -1.0>} {}

// -----

// expected-error @+1 {{unknown scale_mode 'pow3' (known: f32, pow2)}}
module attributes {fp8.policy = #fp8.policy<"deepseek-v3", scale_mode = pow3>} {}

// -----

// expected-error @+1 {{unknown role 'router' (known: linear, embedding, output_head, gating, normalization, attention, other, dispatch)}}
module attributes {fp8.policy = #fp8.policy<"deepseek-v3", keep_high = [router]>} {}

// -----

// expected-error @+1 {{unknown policy field 'block' (known: name, format, grad_format, activation_block, weight_block, scale_mode, scale_type, eps, promote_interval, high, keep_high, wgrad_operands)}}
module attributes {fp8.policy = #fp8.policy<"deepseek-v3", block = [1, 128]>} {}

// -----

// expected-error @+1 {{expected '>'}}
module attributes {fp8.policy = #fp8.policy<"deepseek-v3" eps = 1.0>} {}

// -----

// expected-error @+1 {{unknown wgrad_operands 'transpose' (known: requantize, fresh)}}
module attributes {fp8.policy = #fp8.policy<"deepseek-v3", wgrad_operands = transpose>} {}
