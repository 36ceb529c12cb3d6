// A MoE layer through the whole graph pipeline (fp8-pipeline) under three
// policies: the dispatch ([E, C, T] x [T, H] -> [E, C, H]), a contraction
// with the router's output, stays high precision (it follows the gating,
// which DeepSeek-V3 §3.3.2 keeps in BF16/FP32) and only the two expert
// projections (up and down, per-expert weights) become FP8 GEMMs: exactly
// two fp8.grouped_scaled_matmul, one per projection for all experts, and no
// other FP8 GEMM (moe-experts-arguments.mlir checks the roles).
// RUN: fp8-opt %s --fp8-pipeline="report=false" | FileCheck %s
// RUN: fp8-opt %s --fp8-pipeline="report=false policy=rowwise" | FileCheck %s
// RUN: fp8-opt %s --fp8-pipeline="report=false policy=per-tensor" | FileCheck %s

// CHECK-LABEL: func.func @moe
// CHECK-NOT: fp8.scaled_matmul
// CHECK-COUNT-2: fp8.grouped_scaled_matmul masked
// CHECK-NOT: fp8.{{(grouped_)?}}scaled_matmul
// CHECK: return

#x = affine_map<(d0, d1) -> (d0, d1)>
#p2m = affine_map<(d0, d1, d2) -> (d2, d0)>
#m3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#dA = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#dB = affine_map<(d0, d1, d2, d3) -> (d3, d2)>
#dC = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>

func.func @moe(%x: tensor<8x256xf32>, %wg: tensor<256x4xf32>, %wup: tensor<4x256x128xf32>,
               %wdown: tensor<4x128x256xf32>) -> tensor<4x2x256xf32> {
  %c0 = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %e0 = tensor.empty() : tensor<8x256xf32>
  // The tokens are computed (a normalization in a real graph).
  %h = linalg.generic {indexing_maps = [#x, #x], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x256xf32>) outs(%e0 : tensor<8x256xf32>) {
  ^bb0(%in: f32, %o: f32):
    %s = arith.mulf %in, %two : f32
    linalg.yield %s : f32
  } -> tensor<8x256xf32>
  // Router: [T, H] x [H, E] logits, then exp (softmax-like).
  %el = tensor.empty() : tensor<8x4xf32>
  %zl = linalg.fill ins(%c0 : f32) outs(%el : tensor<8x4xf32>) -> tensor<8x4xf32>
  %logits = linalg.matmul ins(%h, %wg : tensor<8x256xf32>, tensor<256x4xf32>) outs(%zl : tensor<8x4xf32>) -> tensor<8x4xf32>
  %p = linalg.generic {indexing_maps = [#x, #x], iterator_types = ["parallel", "parallel"]}
      ins(%logits : tensor<8x4xf32>) outs(%el : tensor<8x4xf32>) {
  ^bb0(%in: f32, %o: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  } -> tensor<8x4xf32>
  // Dispatch mask [E, C, T] from the routing probabilities, then the
  // dispatch contraction [E, C, T] x [T, H] -> [E, C, H].
  %em = tensor.empty() : tensor<4x2x8xf32>
  %mask = linalg.generic {indexing_maps = [#p2m, #m3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%p : tensor<8x4xf32>) outs(%em : tensor<4x2x8xf32>) {
  ^bb0(%in: f32, %o: f32):
    %r = arith.cmpf ogt, %in, %c0 : f32
    %v = arith.select %r, %in, %c0 : f32
    linalg.yield %v : f32
  } -> tensor<4x2x8xf32>
  %et = tensor.empty() : tensor<4x2x256xf32>
  %zt = linalg.fill ins(%c0 : f32) outs(%et : tensor<4x2x256xf32>) -> tensor<4x2x256xf32>
  %tok = linalg.generic {indexing_maps = [#dA, #dB, #dC], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%mask, %h : tensor<4x2x8xf32>, tensor<8x256xf32>) outs(%zt : tensor<4x2x256xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %m, %o : f32
    linalg.yield %s : f32
  } -> tensor<4x2x256xf32>
  // Experts: up then down, weights per expert from arguments.
  %eu = tensor.empty() : tensor<4x2x128xf32>
  %zu = linalg.fill ins(%c0 : f32) outs(%eu : tensor<4x2x128xf32>) -> tensor<4x2x128xf32>
  %up = linalg.batch_matmul ins(%tok, %wup : tensor<4x2x256xf32>, tensor<4x256x128xf32>) outs(%zu : tensor<4x2x128xf32>) -> tensor<4x2x128xf32>
  %zd = linalg.fill ins(%c0 : f32) outs(%et : tensor<4x2x256xf32>) -> tensor<4x2x256xf32>
  %down = linalg.batch_matmul ins(%up, %wdown : tensor<4x2x128xf32>, tensor<4x128x256xf32>) outs(%zd : tensor<4x2x256xf32>) -> tensor<4x2x256xf32>
  return %down : tensor<4x2x256xf32>
}
