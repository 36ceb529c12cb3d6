// RUN: fp8-opt %s --allow-unregistered-dialect -split-input-file -fp8-assign-precision | FileCheck %s

// IREE's torch and StableHLO imports keep the parameters in `util.global`s
// read with `util.global.load`: that is the weight of the linear (a global),
// not the activation beside it, even when the activation is a function
// argument (which the analysis would otherwise take as the weight).
// CHECK-LABEL: func.func @util_global_weight
// CHECK: linalg.matmul {fp8.precision = #fp8.precision<fp8>, fp8.reason = "heuristic: contraction with a weight (global)", fp8.role = #fp8.role<linear>}
"util.global"() {sym_name = "w", sym_visibility = "private", type = tensor<256x256xf32>, initial_value = dense<1.0> : tensor<256x256xf32>} : () -> ()
func.func @util_global_weight(%x: tensor<16x256xf32>) -> tensor<16x256xf32> {
  %z = arith.constant 0.0 : f32
  %w = "util.global.load"() {global = @w} : () -> tensor<256x256xf32>
  %e = tensor.empty() : tensor<16x256xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x256xf32>) -> tensor<16x256xf32>
  %y = linalg.matmul ins(%x, %w : tensor<16x256xf32>, tensor<256x256xf32>) outs(%f : tensor<16x256xf32>) -> tensor<16x256xf32>
  return %y : tensor<16x256xf32>
}

// -----

// The same global as the weight of two attention-free projections of
// computed activations: each is a linear (without the global both would be
// contractions of two activations: attention).
// CHECK-LABEL: func.func @util_global_computed_tokens
// CHECK: linalg.matmul {fp8.precision = #fp8.precision<fp8>, fp8.reason = "heuristic: contraction with a weight (global)", fp8.role = #fp8.role<linear>}
// CHECK: linalg.matmul {fp8.precision = #fp8.precision<fp8>, fp8.reason = "heuristic: contraction with a weight (global)", fp8.role = #fp8.role<linear>}
"util.global"() {sym_name = "w2", sym_visibility = "private", type = tensor<256x256xf32>, initial_value = dense<1.0> : tensor<256x256xf32>} : () -> ()
func.func @util_global_computed_tokens(%x: tensor<16x256xf32>) -> tensor<16x256xf32> {
  %z = arith.constant 0.0 : f32
  %w = "util.global.load"() {global = @w2} : () -> tensor<256x256xf32>
  %e = tensor.empty() : tensor<16x256xf32>
  %x2 = linalg.exp ins(%x : tensor<16x256xf32>) outs(%e : tensor<16x256xf32>) -> tensor<16x256xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x256xf32>) -> tensor<16x256xf32>
  %y = linalg.matmul ins(%x2, %w : tensor<16x256xf32>, tensor<256x256xf32>) outs(%f : tensor<16x256xf32>) -> tensor<16x256xf32>
  %y2 = linalg.matmul ins(%y, %w : tensor<16x256xf32>, tensor<256x256xf32>) outs(%f : tensor<16x256xf32>) -> tensor<16x256xf32>
  return %y2 : tensor<16x256xf32>
}
