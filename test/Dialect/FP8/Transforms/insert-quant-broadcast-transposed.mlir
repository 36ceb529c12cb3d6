// RUN: fp8-opt %s -fp8-assign-precision -fp8-insert-quant | FileCheck %s

// A weight broadcast over the batch by a generic that also transposes it
// (torch-mlir's `expand` of `weight.t()` as one generic): B[b, k, n] =
// W[n, k]. It is not a plain broadcast of a [K, N] weight (the input map
// reads (d2, d1), not (d1, d2)): the batch's B operand, [G, K, N], is
// transposed to [G, N, K] and quantized with the weight block per group,
// and the product is one grouped GEMM. Reading W [256, 128] as the [K, N]
// source of the broadcast would transpose it to [128, 256] where an
// [N, K] = [256, 128] weight is needed. (Values:
// Integration/CPU/broadcast-transposed-weight.mlir.)
// CHECK-LABEL: func.func @broadcast_transposed_weight
// CHECK-SAME: (%[[X:.*]]: tensor<2x4x128xf32>, %[[W:.*]]: tensor<256x128xf32>)
// CHECK: %[[WB:.*]] = linalg.generic {{.*}} ins(%[[W]] : tensor<256x128xf32>) outs(%{{.*}} : tensor<2x128x256xf32>)
// CHECK: %[[NK:.*]] = linalg.transpose ins(%[[WB]] : tensor<2x128x256xf32>) outs(%{{.*}} : tensor<2x256x128xf32>) permutation = [0, 2, 1]
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %[[NK]] {{\[\[}}0, 1], [2]] : tensor<2x256x128xf32> into tensor<512x128xf32>
// CHECK: fp8.quantize %[[FLAT]] : tensor<512x128xf32> -> !fp8.scaled<512x128xf8E4M3FN, block = [128, 128], scale = f32>
// CHECK: fp8.grouped_scaled_matmul masked
// CHECK-SAME: -> tensor<2x4x256xf32>
// CHECK-NOT: linalg.batch_matmul
#wt = affine_map<(d0, d1, d2) -> (d2, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @broadcast_transposed_weight(%x: tensor<2x4x128xf32>, %w: tensor<256x128xf32>) -> tensor<2x4x256xf32> {
  %eb = tensor.empty() : tensor<2x128x256xf32>
  %wb = linalg.generic {indexing_maps = [#wt, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%w : tensor<256x128xf32>) outs(%eb : tensor<2x128x256xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x128x256xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x256xf32>) -> tensor<2x4x256xf32>
  %y = linalg.batch_matmul ins(%x, %wb : tensor<2x4x128xf32>, tensor<2x128x256xf32>) outs(%f : tensor<2x4x256xf32>) -> tensor<2x4x256xf32>
  return %y : tensor<2x4x256xf32>
}
