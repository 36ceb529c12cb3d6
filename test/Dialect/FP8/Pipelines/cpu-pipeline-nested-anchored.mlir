// RUN: fp8-opt %s --fp8-pipeline="report=false" \
// RUN:   | fp8-opt --pass-pipeline='builtin.module(builtin.module(fp8-cpu-pipeline))' \
// RUN:   | FileCheck %s

// The way out that fp8-check-nested-modules names: the pipeline anchored on
// the nested module lowers its functions like a top-level module's (the
// scaled_matmul to the LLVM dialect, no tensor left).
// CHECK-LABEL: module @outer
// CHECK: module @inner
// CHECK: llvm.func @f(
// CHECK-NOT: tensor<
module @outer {
  module @inner {
    func.func @f(%a: tensor<4x256xf32>, %b: tensor<256x256xf32>, %init: tensor<4x256xf32>) -> tensor<4x256xf32> {
      %y = linalg.matmul ins(%a, %b : tensor<4x256xf32>, tensor<256x256xf32>) outs(%init : tensor<4x256xf32>) -> tensor<4x256xf32>
      return %y : tensor<4x256xf32>
    }
  }
}
