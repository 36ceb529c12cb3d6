// fp8-convert-tosa (and so fp8-pipeline) names the op and the unranked type
// that tosa-to-linalg cannot convert (upstream only says "failed to
// legalize operation").
// RUN: fp8-opt %s -fp8-convert-tosa -verify-diagnostics
// RUN: not fp8-opt %s --fp8-pipeline 2>&1 | FileCheck %s
// CHECK: error: fp8-convert-tosa: tosa.add has an unranked tensor 'tensor<*xf32>'; tosa-to-linalg needs ranked tensors (run --tosa-infer-shapes first)

func.func @unranked(%a: tensor<*xf32>, %b: tensor<*xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{fp8-convert-tosa: tosa.add has an unranked tensor 'tensor<*xf32>'; tosa-to-linalg needs ranked tensors (run --tosa-infer-shapes first)}}
  %0 = tosa.add %a, %b : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
