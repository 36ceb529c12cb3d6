// RUN: fp8-opt %s -split-input-file -fp8-assign-precision -verify-diagnostics | FileCheck %s
// RUN: not fp8-opt %s -split-input-file -fp8-assign-precision=strict=true 2>&1 | FileCheck %s --check-prefix=STRICT

// A function the pass does not understand stays valid and unchanged; a
// remark (printed to stderr by default) says so. With strict=true it is an
// error and the pass fails.

// CHECK-LABEL: func.func @elementwise_only
// CHECK-NOT: fp8.role
// STRICT: error: fp8-assign-precision: no matmul-like contraction recognised in @elementwise_only
// expected-remark @below {{fp8-assign-precision: no matmul-like contraction recognised in @elementwise_only; function left unchanged}}
func.func @elementwise_only(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %in : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// TOSA that was not converted: the pass says what to run first.
// CHECK-LABEL: func.func @tosa_left
// CHECK: tosa.matmul
// CHECK-NOT: fp8.role
// expected-remark @below {{no matmul-like contraction recognised in @tosa_left}}
func.func @tosa_left(%a: tensor<1x4x8xf32>, %b: tensor<1x8x4xf32>) -> tensor<1x4x4xf32> {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  // expected-remark @below {{TOSA op not classified; run tosa-to-linalg first (fp8-pipeline does)}}
  %c = tosa.matmul %a, %b, %z, %z : (tensor<1x4x8xf32>, tensor<1x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  return %c : tensor<1x4x4xf32>
}
