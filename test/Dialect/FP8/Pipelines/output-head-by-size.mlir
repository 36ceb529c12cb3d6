// RUN: fp8-opt %s --fp8-pipeline="report=false" | FileCheck %s
// RUN: fp8-opt %s --fp8-pipeline="report-format=json" -o /dev/null | FileCheck %s --check-prefix=JSON

// A GPT-2-sized output head (N = 50257 >= 32000, the smallest common
// vocabulary) whose result is the function's: kept high (DeepSeek-V3
// §3.3.1) even though no embedding lookup in the graph names its vocabulary.
// The hidden projection before it (N = 256) is an FP8 linear.
// CHECK-LABEL: func.func @lm_head
// CHECK: fp8.scaled_matmul
// CHECK-SAME: -> tensor<4x256xbf16>
// CHECK: linalg.matmul {fp8.precision = #fp8.precision<bf16>, fp8.reason = "heuristic: vocabulary-sized linear (N = 50257) reaching a function result", fp8.role = #fp8.role<output_head>}
// CHECK-NOT: fp8.scaled_matmul
// JSON: "role": "output_head"
func.func @lm_head(%x: tensor<4x256xbf16>, %w1: tensor<256x256xbf16>, %head: tensor<256x50257xbf16>) -> tensor<4x50257xbf16> {
  %cst = arith.constant 0.0 : bf16
  %e1 = tensor.empty() : tensor<4x256xbf16>
  %f1 = linalg.fill ins(%cst : bf16) outs(%e1 : tensor<4x256xbf16>) -> tensor<4x256xbf16>
  %h = linalg.matmul ins(%x, %w1 : tensor<4x256xbf16>, tensor<256x256xbf16>) outs(%f1 : tensor<4x256xbf16>) -> tensor<4x256xbf16>
  %e2 = tensor.empty() : tensor<4x50257xbf16>
  %f2 = linalg.fill ins(%cst : bf16) outs(%e2 : tensor<4x50257xbf16>) -> tensor<4x50257xbf16>
  %y = linalg.matmul ins(%h, %head : tensor<4x256xbf16>, tensor<256x50257xbf16>) outs(%f2 : tensor<4x50257xbf16>) -> tensor<4x50257xbf16>
  return %y : tensor<4x50257xbf16>
}
