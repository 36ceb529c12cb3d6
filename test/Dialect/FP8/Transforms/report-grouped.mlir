// The report of a grouped linear (MoE routed experts, 3 experts with
// per-expert constant weights): after fp8-insert-quant it is 3 identical
// fp8.scaled_matmul ops, shown as one table row "3 x 8x64x128" with their
// summed FLOPs (3 * 2*8*64*128 = 393216 FLOP), listed one by one in JSON.
// RUN: fp8-opt %s -fp8-assign-precision -fp8-insert-quant -fp8-report -o /dev/null | FileCheck %s --check-prefix=TABLE
// RUN: fp8-opt %s -fp8-assign-precision -fp8-insert-quant -fp8-report=format=json -o /dev/null | FileCheck %s --check-prefix=JSON

// TABLE: Matmuls (M x N x K)
// TABLE-NEXT: #
// TABLE-NEXT: 1 {{ *}}fp8.scaled_matmul {{ *}}experts {{ *}}linear {{ *}}fp8 {{ *}}3 x 8x64x128 {{ *}}393216 FLOP  heuristic: contraction with per-group weights (constant)
// TABLE-EMPTY:
// TABLE: in FP8:              393216 FLOP (100.0%)

// JSON-COUNT-3: "op": "fp8.scaled_matmul"
// JSON-NOT: "op": "fp8.scaled_matmul"

func.func @moe(%x: tensor<3x8x128xf32>) -> tensor<3x8x64xf32> {
  %w = arith.constant dense<0.01> : tensor<3x128x64xf32>
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x8x64xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<3x8x64xf32>) -> tensor<3x8x64xf32>
  %y = linalg.batch_matmul ins(%x, %w : tensor<3x8x128xf32>, tensor<3x128x64xf32>) outs(%f : tensor<3x8x64xf32>) -> tensor<3x8x64xf32> loc("experts")
  return %y : tensor<3x8x64xf32>
}
