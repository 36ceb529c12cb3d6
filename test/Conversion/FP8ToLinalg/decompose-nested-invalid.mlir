// Types that nest !fp8.scaled (a function value, a tensor of scaled
// tensors) have no rule in the 1:N conversion into data and scales: a
// clear error naming the op and the type, never a half-converted module
// (func.constant's type left stale) or one with fp8 ops left behind.
// (Branches carrying !fp8.scaled: invalid.mlir.)
// RUN: fp8-opt %s -split-input-file -fp8-decompose -verify-diagnostics
// RUN: not fp8-opt %s -split-input-file -fp8-lower-to-linalg 2>&1 | FileCheck %s --check-prefix=LOWER
// LOWER: 'func.constant' op fp8-lower-to-linalg: a result has type '(!fp8.scaled<4x256xf8E4M3FN, block = [1, 128], scale = f32>) -> !fp8.scaled<4x256xf8E4M3FN, block = [1, 128], scale = f32>', which nests !fp8.scaled: not supported
// LOWER: 'tensor.extract' op fp8-lower-to-linalg: an operand has type 'tensor<2x!fp8.scaled<4x256xf8E4M3FN, block = [1, 128], scale = f32>>', which nests !fp8.scaled: not supported

!q = !fp8.scaled<4x256xf8E4M3FN, block = [1, 128], scale = f32>
func.func private @id(%a: !q) -> !q {
  return %a : !q
}
func.func @indirect(%a: !q) -> !q {
  // expected-error @+1 {{'func.constant' op fp8-decompose: a result has type '(!fp8.scaled<4x256xf8E4M3FN, block = [1, 128], scale = f32>) -> !fp8.scaled<4x256xf8E4M3FN, block = [1, 128], scale = f32>', which nests !fp8.scaled: not supported (the 1:N conversion of !fp8.scaled into its data and scale tensors rewrites values of that type, function signatures, direct calls, returns and scf ops, not types built from it: a tensor of scaled tensors, a function value for func.constant or func.call_indirect)}}
  %f = func.constant @id : (!q) -> !q
  %r = func.call_indirect %f(%a) : (!q) -> !q
  return %r : !q
}

// -----

!q = !fp8.scaled<4x256xf8E4M3FN, block = [1, 128], scale = f32>
func.func @tensor_of_scaled(%t: tensor<2x!q>) -> tensor<4x256xf32> {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tensor.extract' op fp8-decompose: an operand has type 'tensor<2x!fp8.scaled<4x256xf8E4M3FN, block = [1, 128], scale = f32>>', which nests !fp8.scaled}}
  %q = tensor.extract %t[%c0] : tensor<2x!q>
  %d = fp8.dequantize %q : !q -> tensor<4x256xf32>
  return %d : tensor<4x256xf32>
}

