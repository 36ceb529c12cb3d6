// RUN: fp8-opt %s -split-input-file -verify-diagnostics

// The analysis annotations are typed: a string where a role belongs is rejected.
func.func @role_string(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{attribute 'fp8.role' must be an #fp8.role<...> attribute, got "linear"}}
  %0 = arith.addf %x, %x {fp8.role = "linear"} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @precision_wrong(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{attribute 'fp8.precision' must be an #fp8.precision<...> attribute, got #fp8.role<linear>}}
  %0 = arith.addf %x, %x {fp8.precision = #fp8.role<linear>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @reason_not_string(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{attribute 'fp8.reason' must be a string, got 3 : i64}}
  %0 = arith.addf %x, %x {fp8.reason = 3} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// expected-error @+1 {{attribute 'fp8.policy' must be an #fp8.policy<...> attribute, got "deepseek-v3"}}
module attributes {fp8.policy = "deepseek-v3"} {}

// -----

// expected-error @+1 {{unknown fp8 attribute 'fp8.recipe' (known: fp8.role, fp8.precision, fp8.reason, fp8.gemm, fp8.policy, fp8.kernel_config)}}
module attributes {fp8.recipe = 1} {}

// -----

func.func @bad_role_name(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{expected ::mlir::fp8::Role to be one of: linear, embedding, output_head, gating, normalization, attention, other, dispatch}}
  // expected-error @+1 {{failed to parse FP8_RoleAttr parameter 'value'}}
  %0 = arith.addf %x, %x {fp8.role = #fp8.role<router>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @bad_precision_name(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{expected ::mlir::fp8::Precision to be one of: fp8, bf16, f32}}
  // expected-error @+1 {{failed to parse FP8_PrecisionAttr parameter 'value'}}
  %0 = arith.addf %x, %x {fp8.precision = #fp8.precision<fp4>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// fp8.kernel_config (fp8-lower-to-nvvm) is a dictionary with positive tile
// sizes and a chip name.
// expected-error @+1 {{attribute 'fp8.kernel_config' must be a dictionary, got 128}}
func.func @kernel_config_not_dict() attributes {fp8.kernel_config = 128} {
  return
}

// -----

// expected-error @+1 {{attribute 'fp8.kernel_config' needs a positive integer 'block_n'}}
func.func @kernel_config_zero_block_n() attributes {fp8.kernel_config = {block_m = 64, block_n = 0, block_k = 128, stages = 8, cluster = 1, consumers = 1, chip = "h200"}} {
  return
}

// -----

// expected-error @+1 {{attribute 'fp8.kernel_config' needs a string 'chip'}}
func.func @kernel_config_no_chip() attributes {fp8.kernel_config = {block_m = 64, block_n = 32, block_k = 128, stages = 8, cluster = 1, consumers = 1}} {
  return
}

// -----

// group_m (the tile order's group of tile rows) is optional, positive when
// present.
// expected-error @+1 {{attribute 'fp8.kernel_config' needs a positive integer 'group_m' when present}}
func.func @kernel_config_zero_group() attributes {fp8.kernel_config = {block_m = 64, block_n = 32, block_k = 128, stages = 8, cluster = 1, consumers = 1, group_m = 0, chip = "h200"}} {
  return
}

// -----

// expected-error @+1 {{attribute 'fp8.kernel_config' needs a positive integer 'group_m' when present}}
func.func @kernel_config_group_not_int() attributes {fp8.kernel_config = {block_m = 64, block_n = 32, block_k = 128, stages = 8, cluster = 1, consumers = 1, group_m = "8", chip = "h200"}} {
  return
}

// -----

// b_scales (the kernel with per-column B scales, b blocks [1, 128]) is
// optional, "per_column" when present.
// expected-error @+1 {{attribute 'fp8.kernel_config' needs 'b_scales' = "per_column" when present (b blocks [1, 128])}}
func.func @kernel_config_bad_b_scales() attributes {fp8.kernel_config = {b_scales = "per_row", block_m = 64, block_n = 32, block_k = 128, stages = 8, cluster = 1, consumers = 1, chip = "h200"}} {
  return
}

// -----

func.func @kernel_config_ok_column_scales() attributes {fp8.kernel_config = {b_scales = "per_column", block_m = 128, block_n = 168, block_k = 128, stages = 6, cluster = 1, consumers = 2, chip = "h200"}} {
  return
}

// -----

func.func @kernel_config_ok_grouped() attributes {fp8.kernel_config = {block_m = 128, block_n = 176, block_k = 128, stages = 5, cluster = 1, consumers = 2, group_m = 16, chip = "h200"}} {
  return
}

// -----

func.func @kernel_config_ok() attributes {fp8.kernel_config = {block_m = 64, block_n = 32, block_k = 128, stages = 8, cluster = 1, consumers = 1, chip = "h200", ctas = 132, modelled_us = 7.0, modelled_tflops = 551.0}} {
  return
}
