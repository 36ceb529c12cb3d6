// RUN: fp8-opt %s | fp8-opt | FileCheck %s
// RUN: fp8-opt %s --mlir-print-op-generic | fp8-opt | FileCheck %s

// Presets parse by name and print every field.
// CHECK-LABEL: module @deepseek
// CHECK-SAME: fp8.policy = #fp8.policy<name = "deepseek-v3", format = f8E4M3FN, grad_format = f8E4M3FN, activation_block = [1, 128], weight_block = [128, 128], scale_mode = f32, scale_type = f32, eps = 9.99999974E-5, promote_interval = 128, high = bf16, keep_high = [embedding, output_head, gating, normalization, attention]>
module @deepseek attributes {fp8.policy = #fp8.policy<"deepseek-v3">} {}

// CHECK-LABEL: module @per_tensor
// CHECK-SAME: name = "per-tensor", format = f8E4M3FN, grad_format = f8E5M2, activation_block = [?, ?], weight_block = [?, ?], scale_mode = f32
module @per_tensor attributes {fp8.policy = #fp8.policy<"per-tensor">} {}

// CHECK-LABEL: module @rowwise
// CHECK-SAME: name = "rowwise", {{.*}}activation_block = [1, ?], weight_block = [1, ?], scale_mode = pow2, scale_type = f32
module @rowwise attributes {fp8.policy = #fp8.policy<"rowwise">} {}

// CHECK-LABEL: module @mxfp8
// CHECK-SAME: name = "mxfp8", {{.*}}activation_block = [1, 32], weight_block = [1, 32], scale_mode = pow2, scale_type = f8E8M0FNU, {{.*}}promote_interval = 32
module @mxfp8 attributes {fp8.policy = #fp8.policy<"mxfp8">} {}

// The BF16 baseline: every role high, linear included.
// CHECK-LABEL: module @bf16
// CHECK-SAME: name = "bf16", {{.*}}high = bf16, keep_high = [linear, embedding, output_head, gating, normalization, attention, other, dispatch]>
module @bf16 attributes {fp8.policy = #fp8.policy<"bf16">} {}

// Overrides on a preset.
// CHECK-LABEL: module @override
// CHECK-SAME: name = "deepseek-v3", {{.*}}eps = 9.99999996E-13, {{.*}}high = f32, keep_high = [attention, gating]>
module @override attributes {fp8.policy = #fp8.policy<"deepseek-v3", eps = 1.0e-12, high = f32, keep_high = [attention, gating]>} {}

// No promotion within a GEMM: `?`, once at the end of each GEMM's K.
// CHECK-LABEL: module @once_per_k
// CHECK-SAME: name = "rowwise", {{.*}}activation_block = [1, ?], weight_block = [1, ?], {{.*}}promote_interval = ?, high = bf16
module @once_per_k attributes {fp8.policy = #fp8.policy<"rowwise", promote_interval = ?>} {}

// How the Wgrad operands are made: `fresh` is printed after keep_high; the
// default (`requantize`, every preset's) is not printed (module @deepseek's
// line ends at keep_high), so policies printed before the field read the same.
// CHECK-LABEL: module @fresh
// CHECK-SAME: name = "deepseek-v3", {{.*}}keep_high = [embedding, output_head, gating, normalization, attention], wgrad_operands = fresh>
module @fresh attributes {fp8.policy = #fp8.policy<"deepseek-v3", wgrad_operands = fresh>} {}
// CHECK-LABEL: module @requantize_explicit
// CHECK-SAME: keep_high = [embedding, output_head, gating, normalization, attention]>}
module @requantize_explicit attributes {fp8.policy = #fp8.policy<"deepseek-v3", wgrad_operands = requantize>} {}
// CHECK-LABEL: module @full_fresh
// CHECK-SAME: name = "mine", {{.*}}keep_high = [], wgrad_operands = fresh>
module @full_fresh attributes {fp8.policy = #fp8.policy<name = "mine", format = f8E4M3FN, grad_format = f8E4M3FN, activation_block = [1, 128], weight_block = [128, 128], scale_mode = f32, scale_type = f32, eps = 0.0, promote_interval = 128, high = bf16, keep_high = [], wgrad_operands = fresh>} {}

// The full form given in part: the fields it leaves out are the default
// preset's (deepseek-v3's, as module @deepseek prints them), its name
// "custom".
// CHECK-LABEL: module @partial_full
// CHECK-SAME: name = "custom", format = f8E4M3FN, grad_format = f8E4M3FN, activation_block = [1, 128], weight_block = [128, 128], scale_mode = f32, scale_type = f32, eps = 1.000000e+00, promote_interval = 128, high = bf16, keep_high = [embedding, output_head, gating, normalization, attention]>
module @partial_full attributes {fp8.policy = #fp8.policy<eps = 1.0>} {}

// The full form, as printed, with a user name.
// CHECK-LABEL: module @full
// CHECK-SAME: name = "my recipe", format = f8E5M2, grad_format = f8E5M2, activation_block = [1, 256], weight_block = [256, 256], scale_mode = pow2, scale_type = f32, eps = 0.000000e+00, promote_interval = 256, high = f32, keep_high = []>
module @full attributes {fp8.policy = #fp8.policy<name = "my recipe", format = f8E5M2, grad_format = f8E5M2, activation_block = [1, 256], weight_block = [256, 256], scale_mode = pow2, scale_type = f32, eps = 0.0, promote_interval = 256, high = f32, keep_high = []>} {}
