// Regression: fp8-report on a module that fp8-assign-precision never saw
// (no #fp8.policy, no fp8 op, so the fp8 dialect was not loaded) crashed in
// PolicyAttr::getPreset. It now reports under the default preset.
// RUN: fp8-opt %s -fp8-report -o /dev/null | FileCheck %s
// RUN: fp8-opt %s -fp8-report=format=json -o /dev/null | FileCheck %s --check-prefix=JSON

// CHECK: fp8-report: policy deepseek-v3
// JSON: "policy": "deepseek-v3"
// JSON: "policy_from_module": false

func.func @f(%x: tensor<16x256xf32>, %w: tensor<256x512xf32>, %init: tensor<16x512xf32>) -> tensor<16x512xf32> {
  %y = linalg.matmul ins(%x, %w : tensor<16x256xf32>, tensor<256x512xf32>) outs(%init : tensor<16x512xf32>) -> tensor<16x512xf32>
  return %y : tensor<16x512xf32>
}
