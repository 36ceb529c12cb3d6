// The text table's columns fit their widest cell: the 25-character op name
// fp8.grouped_scaled_matmul and a 36-character location (longer than the
// usual 22 and 28) widen their columns for every row, header included, so
// each column starts at the same offset on every line. The CHECK lines are
// matched with exact whitespace: a row printed with fixed widths would put
// "model.layers..." one character right of "location" and shift the rest.
// RUN: fp8-opt %s -fp8-assign-precision -fp8-insert-quant -fp8-report -o /dev/null | FileCheck %s --strict-whitespace --match-full-lines

//      CHECK:Matmuls (M x N x K)
// CHECK-NEXT:#    op                        location                             role         prec  MxNxK                      FLOPs  reason
// CHECK-NEXT:1    fp8.grouped_scaled_matmul model.layers.0.mlp.experts.gate_proj linear       fp8   3 groups x 8x64x128  393216 FLOP  heuristic: contraction with per-group weights (constant)
// CHECK-NEXT:2    fp8.scaled_matmul         q                                    linear       fp8   8x64x128             131072 FLOP  heuristic: contraction with a weight (constant)
// CHECK-EMPTY:
// CHECK-NEXT:Sensitive non-matmul ops (grouped; format=json lists each)
// CHECK-NEXT:role           prec    ops          FLOPs  reason
// CHECK-EMPTY:

func.func @moe(%x: tensor<3x8x128xf32>, %t: tensor<8x128xf32>) -> (tensor<3x8x64xf32>, tensor<8x64xf32>) {
  %w = arith.constant dense<0.01> : tensor<3x128x64xf32>
  %v = arith.constant dense<0.02> : tensor<128x64xf32>
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x8x64xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<3x8x64xf32>) -> tensor<3x8x64xf32>
  %y = linalg.batch_matmul ins(%x, %w : tensor<3x8x128xf32>, tensor<3x128x64xf32>) outs(%f : tensor<3x8x64xf32>) -> tensor<3x8x64xf32> loc("model.layers.0.mlp.experts.gate_proj")
  %e2 = tensor.empty() : tensor<8x64xf32>
  %f2 = linalg.fill ins(%cst : f32) outs(%e2 : tensor<8x64xf32>) -> tensor<8x64xf32>
  %z = linalg.matmul ins(%t, %v : tensor<8x128xf32>, tensor<128x64xf32>) outs(%f2 : tensor<8x64xf32>) -> tensor<8x64xf32> loc("q")
  return %y, %z : tensor<3x8x64xf32>, tensor<8x64xf32>
}
