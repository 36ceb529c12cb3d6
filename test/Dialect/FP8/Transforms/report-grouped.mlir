// The report of a grouped linear (MoE routed experts, 3 experts with
// per-expert constant weights): after fp8-insert-quant it is ONE
// fp8.grouped_scaled_matmul (one GEMM, one launch), shown as the table row
// "3 groups x 8x64x128" with the FLOPs of all three (3 * 2*8*64*128 =
// 393216 FLOP) and listed once in JSON with "count": 1, "groups": 3. Weight bytes count every
// expert: before 3 * 64*128 * 4 B (f32) = 98304 B; after 3 * (64*128 codes
// + 1 f32 scale: one 128x128 block covers an expert's 64x128) = 24588 B.
// The same after the whole fp8-pipeline, where the weights are folded into
// constants viewed per group.
// RUN: fp8-opt %s -fp8-assign-precision -fp8-insert-quant -fp8-report -o /dev/null | FileCheck %s --check-prefix=TABLE
// RUN: fp8-opt %s -fp8-assign-precision -fp8-insert-quant -fp8-report=format=json -o /dev/null | FileCheck %s --check-prefixes=FP8OPS,JSON
// RUN: fp8-opt %s -fp8-pipeline=report=false -mlir-print-debuginfo | fp8-opt -fp8-report -o /dev/null | FileCheck %s --check-prefix=TABLE

// TABLE: Matmuls (M x N x K)
// TABLE-NEXT: #
// TABLE-NEXT: 1 {{ *}}fp8.grouped_scaled_matmul {{ *}}experts {{ *}}linear {{ *}}fp8 {{ *}}3 groups x 8x64x128 {{ *}}393216 FLOP  heuristic: contraction with per-group weights (constant)
// TABLE-EMPTY:
// TABLE: in FP8:              393216 FLOP (100.0%)
// TABLE: linear weights:      96.00 KiB before, 24.01 KiB after

// "fp8_ops" lists the FP8 ops with their types as data: the stacked
// activations [3 x 8 rows, 128] quantized in 1x128 tiles (viewed [3, 8, 128]
// with blocks [1, 1, 128]), the weights, and the grouped GEMM promoting every
// 128 K.
// FP8OPS: "fp8_ops": [
// FP8OPS: "op": "fp8.quantize",
// FP8OPS: "op": "fp8.quantize",
// FP8OPS: "a": {
// FP8OPS-NEXT: "block": [
// FP8OPS-NEXT: 1,
// FP8OPS-NEXT: 1,
// FP8OPS-NEXT: 128
// FP8OPS-NEXT: ],
// FP8OPS-NEXT: "element_type": "f8E4M3FN",
// FP8OPS-NEXT: "scale_type": "f32",
// FP8OPS-NEXT: "shape": [
// FP8OPS-NEXT: 3,
// FP8OPS-NEXT: 8,
// FP8OPS-NEXT: 128
// FP8OPS: "accumulator": false,
// FP8OPS: "op": "fp8.grouped_scaled_matmul",
// FP8OPS-NEXT: "promote_interval": 128,
// JSON: "ops": [
// JSON: "count": 1,
// JSON-NEXT: "flops": 393216,
// JSON: "groups": 3,
// JSON: "op": "fp8.grouped_scaled_matmul",
// JSON: "weight_bytes_after": 24588,
// JSON-NEXT: "weight_bytes_before": 98304
// JSON-NOT: "op": "fp8.{{(grouped_)?}}scaled_matmul"
// JSON: "fp8_matmul_flops": 393216,
// JSON: "weight_bytes_after": 24588,
// JSON-NEXT: "weight_bytes_before": 98304

func.func @moe(%x: tensor<3x8x128xf32>) -> tensor<3x8x64xf32> {
  %w = arith.constant dense<0.01> : tensor<3x128x64xf32>
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x8x64xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<3x8x64xf32>) -> tensor<3x8x64xf32>
  %y = linalg.batch_matmul ins(%x, %w : tensor<3x8x128xf32>, tensor<3x128x64xf32>) outs(%f : tensor<3x8x64xf32>) -> tensor<3x8x64xf32> loc("experts")
  return %y : tensor<3x8x64xf32>
}
