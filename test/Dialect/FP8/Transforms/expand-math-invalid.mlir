// fp8-expand-math on tensors: an error naming the op and its type (MLIR's
// approximations build scalar constants for a tensor operand: IR that does
// not verify), before any rewrite. f64 tensors, which the pass does not
// expand, stay.
// RUN: fp8-opt %s --split-input-file --fp8-expand-math -verify-diagnostics | FileCheck %s

func.func @exp_tensor(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'math.exp' op on 'tensor<4xf32>' is not expanded: fp8-expand-math takes scalars and vectors (f32; bf16, f16 through f32); convert element-wise math on tensors to linalg first (convert-elementwise-to-linalg, as fp8-cpu-pipeline does)}}
  %y = math.exp %x : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// Every one is reported, whichever its type (bf16 through f32, a dynamic
// shape); the function is left as it was.
func.func @several(%x: tensor<?xbf16>, %y: tensor<2x2xf32>, %z: f32)
    -> (tensor<?xbf16>, tensor<2x2xf32>, f32) {
  // expected-error @+1 {{'math.tanh' op on 'tensor<?xbf16>' is not expanded}}
  %a = math.tanh %x : tensor<?xbf16>
  // expected-error @+1 {{'math.erf' op on 'tensor<2x2xf32>' is not expanded}}
  %b = math.erf %y : tensor<2x2xf32>
  %c = math.exp %z : f32
  return %a, %b, %c : tensor<?xbf16>, tensor<2x2xf32>, f32
}

// -----

// The other seven ops likewise.
func.func @others(%x: tensor<4xf32>, %h: tensor<4xf16>) {
  // expected-error @+1 {{'math.exp2' op on 'tensor<4xf32>'}}
  %a = math.exp2 %x : tensor<4xf32>
  // expected-error @+1 {{'math.rsqrt' op on 'tensor<4xf32>'}}
  %b = math.rsqrt %x : tensor<4xf32>
  // expected-error @+1 {{'math.log' op on 'tensor<4xf32>'}}
  %c = math.log %x : tensor<4xf32>
  // expected-error @+1 {{'math.log2' op on 'tensor<4xf32>'}}
  %d = math.log2 %x : tensor<4xf32>
  // expected-error @+1 {{'math.log1p' op on 'tensor<4xf32>'}}
  %e = math.log1p %x : tensor<4xf32>
  // expected-error @+1 {{'math.expm1' op on 'tensor<4xf16>'}}
  %f = math.expm1 %h : tensor<4xf16>
  return
}

// -----

// Not expanded (f64, an op outside the set): left as they are, no error.
// CHECK-LABEL: func.func @left(
// CHECK: math.exp %{{.*}} : tensor<4xf64>
// CHECK: math.sin %{{.*}} : tensor<4xf32>
func.func @left(%x: tensor<4xf64>, %y: tensor<4xf32>)
    -> (tensor<4xf64>, tensor<4xf32>) {
  %a = math.exp %x : tensor<4xf64>
  %b = math.sin %y : tensor<4xf32>
  return %a, %b : tensor<4xf64>, tensor<4xf32>
}
