// RUN: fp8-opt %s -split-input-file -fp8-cache-activations -verify-diagnostics

// The `fp8.saved` linkage of modules without a caller: each name on one
// result, each argument's name on some result, of the same type.

func.func @fwd_a(%x: tensor<4x4xf32>) -> (tensor<4x4xf32> {fp8.saved = "x"}) {
  return %x : tensor<4x4xf32>
}
// expected-error @below {{fp8-cache-activations: saved activation 'x' is returned twice: @fwd_a result 0 and @fwd_b result 0}}
func.func @fwd_b(%x: tensor<4x4xf32>) -> (tensor<4x4xf32> {fp8.saved = "x"}) {
  return %x : tensor<4x4xf32>
}

// -----

// expected-error @below {{fp8-cache-activations: argument 1 of @bwd is the saved activation 'h', which no result of a function with a body names}}
func.func @bwd(%dy: tensor<4x4xf32>, %h: tensor<4x4xf32> {fp8.saved = "h"}) -> tensor<4x4xf32> {
  return %h : tensor<4x4xf32>
}

// -----

func.func @fwd(%x: tensor<4x4xf32>) -> (tensor<4x4xf32> {fp8.saved = "x"}) {
  return %x : tensor<4x4xf32>
}
// expected-error @below {{fp8-cache-activations: argument 0 of @bwd (saved activation 'x') must be of another function than the result it names and of its type, 'tensor<4x4xf32>'}}
func.func @bwd(%x: tensor<4x8xf32> {fp8.saved = "x"}) -> tensor<4x8xf32> {
  return %x : tensor<4x8xf32>
}
