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

// expected-error @+1 {{unknown fp8 attribute 'fp8.recipe' (known: fp8.role, fp8.precision, fp8.reason, fp8.gemm, fp8.policy, fp8.kernel, fp8.kernel_model, fp8.kernel_ref, fp8.reduction_lanes, fp8.reduction_vector, fp8.row_group, fp8.column_lanes)}}
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

// fp8.kernel (fp8-lower-to-nvvm, on a kernel and its launcher) is a typed
// kernel configuration; the untyped dictionary it replaced is rejected.
// expected-error @+1 {{attribute 'fp8.kernel' must be a #fp8.gemm_kernel<...>, #fp8.quantize_kernel<...> or #fp8.transpose_kernel<...> attribute, got {block_m = 64 : i64}}}
func.func @kernel_dict() attributes {fp8.kernel = {block_m = 64}} {
  return
}

// -----

// expected-error @+1 {{attribute 'fp8.kernel_ref' must be a symbol reference to a kernel (@fp8_kernels::@name), got "fp8_scaled_matmul_64x32x128_e4m3_e4m3_bf16"}}
func.func @kernel_ref_string() attributes {fp8.kernel_ref = "fp8_scaled_matmul_64x32x128_e4m3_e4m3_bf16"} {
  return
}

// -----

// expected-error @+1 {{unknown fp8 attribute 'fp8.kernel_config'}}
func.func @kernel_config_gone() attributes {fp8.kernel_config = {block_m = 64}} {
  return
}

// -----

// expected-error @+1 {{attribute 'fp8.reduction_lanes' must be an i64 power of two >= 2 (the lanes), got 12 : i64}}
func.func @reduction_lanes_not_pow2() attributes {fp8.reduction_lanes = 12 : i64} {
  return
}

// -----

func.func @reduction_lanes_not_generic(%a: f32) -> f32 {
  // expected-error @+1 {{attribute 'fp8.reduction_lanes' is only valid on a linalg.generic row reduction, not on 'arith.addf'}}
  %r = arith.addf %a, %a {fp8.reduction_lanes = 32 : i64} : f32
  return %r : f32
}

// -----

// expected-error @+1 {{attribute 'fp8.column_lanes' must be an i64 power of two >= 2 (the lanes), got 24 : i64}}
func.func @column_lanes_not_pow2() attributes {fp8.column_lanes = 24 : i64} {
  return
}

// -----

func.func @column_lanes_not_generic(%a: f32) -> f32 {
  // expected-error @+1 {{attribute 'fp8.column_lanes' is only valid on a linalg.generic column sum, not on 'arith.addf'}}
  %r = arith.addf %a, %a {fp8.column_lanes = 32 : i64} : f32
  return %r : f32
}

// -----

#t = affine_map<(d0, d1) -> (d1, d0)>
#c = affine_map<(d0, d1) -> (d0)>
func.func @column_lanes_beside_row_lanes(%x: tensor<64x8xf32>, %init: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{attribute 'fp8.column_lanes' cannot stand beside 'fp8.reduction_lanes' (a sum has one order: a column's or a row's)}}
  %r = linalg.generic {indexing_maps = [#t, #c], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x8xf32>) outs(%init : tensor<8xf32>) attrs = {fp8.column_lanes = 32 : i64, fp8.reduction_lanes = 32 : i64} {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %acc, %in : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// expected-error @+1 {{attribute 'fp8.reduction_vector' must be an i64 power of two in [1, 16] (the elements per lane and step), got 3 : i64}}
func.func @reduction_vector_not_pow2() attributes {fp8.reduction_vector = 3 : i64} {
  return
}

// -----

// expected-error @+1 {{attribute 'fp8.reduction_vector' must be an i64 power of two in [1, 16] (the elements per lane and step), got 32 : i64}}
func.func @reduction_vector_too_wide() attributes {fp8.reduction_vector = 32 : i64} {
  return
}

// -----

#id = affine_map<(d0) -> (d0)>
#all = affine_map<(d0) -> ()>
func.func @reduction_vector_without_lanes(%x: tensor<64xf32>, %init: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{attribute 'fp8.reduction_vector' is only valid on a linalg.generic marked 'fp8.reduction_lanes', not on 'linalg.generic'}}
  %r = linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction"]}
      ins(%x : tensor<64xf32>) outs(%init : tensor<f32>) attrs = {fp8.reduction_vector = 4 : i64} {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %acc, %in : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// expected-error @+1 {{attribute 'fp8.row_group' must be an i64 >= 0 (the group's id), got -1 : i64}}
func.func @row_group_negative() attributes {fp8.row_group = -1 : i64} {
  return
}

// -----

func.func @row_group_not_generic(%a: f32) -> f32 {
  // expected-error @+1 {{attribute 'fp8.row_group' is only valid on a linalg.generic (a row sum or its elementwise consumer), not on 'arith.addf'}}
  %r = arith.addf %a, %a {fp8.row_group = 0 : i64} : f32
  return %r : f32
}
