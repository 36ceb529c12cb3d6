// RUN: fp8-opt %s -split-input-file -fp8-assign-precision='overrides=*.mlp.gate:gating,lm_head:output_head,*.down_proj:bf16' | FileCheck %s

// Name overrides match the module paths torch-mlir keeps in locations: the
// whole name or a dot-separated suffix (`lm_head` matches `model.lm_head`).
// They beat the heuristics; an explicit attribute on the op beats them.

// CHECK-LABEL: func.func @names
// CHECK: linalg.matmul {fp8.precision = #fp8.precision<bf16>, fp8.reason = "override: loc name 'model.layers.0.mlp.gate' matches '*.mlp.gate'", fp8.role = #fp8.role<gating>}
// CHECK: linalg.matmul {fp8.precision = #fp8.precision<bf16>, fp8.reason = "override: loc name 'model.lm_head' matches 'lm_head'", fp8.role = #fp8.role<output_head>}
// CHECK: linalg.matmul {fp8.precision = #fp8.precision<bf16>, fp8.reason = "heuristic: contraction with a weight (function argument); precision override: loc name 'model.layers.0.mlp.down_proj' matches '*.down_proj'", fp8.role = #fp8.role<linear>}
// CHECK: linalg.matmul {fp8.precision = #fp8.precision<fp8>, fp8.reason = "heuristic: contraction with a weight (function argument)", fp8.role = #fp8.role<linear>}
// CHECK: linalg.matmul {fp8.precision = #fp8.precision<fp8>, fp8.reason = "override: fp8.role attribute", fp8.role = #fp8.role<linear>}
func.func @names(%x: tensor<16x256xf32>, %w: tensor<256x512xf32>, %init: tensor<16x512xf32>) -> (tensor<16x512xf32>, tensor<16x512xf32>, tensor<16x512xf32>, tensor<16x512xf32>, tensor<16x512xf32>) {
  %a = linalg.matmul ins(%x, %w : tensor<16x256xf32>, tensor<256x512xf32>) outs(%init : tensor<16x512xf32>) -> tensor<16x512xf32> loc("model.layers.0.mlp.gate")
  %b = linalg.matmul ins(%x, %w : tensor<16x256xf32>, tensor<256x512xf32>) outs(%init : tensor<16x512xf32>) -> tensor<16x512xf32> loc(fused["model.lm_head", "other"])
  %c = linalg.matmul ins(%x, %w : tensor<16x256xf32>, tensor<256x512xf32>) outs(%init : tensor<16x512xf32>) -> tensor<16x512xf32> loc(callsite("model.layers.0.mlp.down_proj" at "forward"))
  // Not matched: `gate` is a prefix here, not the suffix `mlp.gate`.
  %d = linalg.matmul ins(%x, %w : tensor<16x256xf32>, tensor<256x512xf32>) outs(%init : tensor<16x512xf32>) -> tensor<16x512xf32> loc("model.layers.0.mlp.gate_proj")
  // The attribute wins over the name.
  %e = linalg.matmul {fp8.role = #fp8.role<linear>} ins(%x, %w : tensor<16x256xf32>, tensor<256x512xf32>) outs(%init : tensor<16x512xf32>) -> tensor<16x512xf32> loc("model.lm_head")
  return %a, %b, %c, %d, %e : tensor<16x512xf32>, tensor<16x512xf32>, tensor<16x512xf32>, tensor<16x512xf32>, tensor<16x512xf32>
}
