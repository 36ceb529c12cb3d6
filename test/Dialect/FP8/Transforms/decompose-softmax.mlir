// RUN: fp8-opt %s --fp8-decompose-softmax -split-input-file -verify-diagnostics | FileCheck %s

// The named softmax becomes upstream's decomposition: the row max, the exp
// of the difference, the row sum, the division. The max combines with
// arith.maximumf from -inf (upstream: arith.maxnumf from NaN), the row max
// fp8-split-reductions marks for the GPU's row kernel.
// CHECK-LABEL: func.func @softmax_rows
// CHECK-NOT: linalg.softmax
// CHECK: %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[START:.*]] = linalg.fill ins(%[[NEGINF]] : f32)
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK-SAME: outs(%[[START]] :
// CHECK-NOT: arith.maxnumf
// CHECK: arith.maximumf
// CHECK: linalg.generic
// CHECK: arith.subf
// CHECK: math.exp
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK: arith.addf
// CHECK: linalg.generic
// CHECK: arith.divf
func.func @softmax_rows(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %e = tensor.empty() : tensor<4x64xf32>
  %p = linalg.softmax dimension(1) ins(%x : tensor<4x64xf32>) outs(%e : tensor<4x64xf32>) -> tensor<4x64xf32>
  return %p : tensor<4x64xf32>
}

// -----

// Another op is left as it is.
// CHECK-LABEL: func.func @no_softmax
// CHECK: math.exp
// CHECK-NOT: linalg.generic
func.func @no_softmax(%x: f32) -> f32 {
  %y = math.exp %x : f32
  return %y : f32
}

// -----

// On buffers: an error naming the form (the decomposition builds tensors).
func.func @softmax_buffers(%x: memref<4x64xf32>, %y: memref<4x64xf32>) {
  // expected-error @+1 {{fp8-decompose-softmax: linalg.softmax on buffers is not supported: pass tensors}}
  linalg.softmax dimension(1) ins(%x : memref<4x64xf32>) outs(%y : memref<4x64xf32>)
  return
}
