// RUN: fp8-opt %s -fp8-assign-precision | FileCheck %s
// RUN: fp8-opt %s -fp8-assign-precision=policy=rowwise | FileCheck %s --check-prefix=ROWWISE

// MoE routed experts whose per-expert weights [E, K, N] are function
// arguments (how torch-mlir exports parameters, and how training graphs pass
// them) are grouped linears: the batch dimension is the expert count of a
// router (a gating linear) and the tokens come from a dispatch contraction.
// The dispatch, a contraction with the router's output, has its own role
// and stays high. A batch_matmul over an argument whose other operand is not
// dispatched tokens (attention over a KV cache) stays attention, even with a
// batch equal to the expert count.

#x = affine_map<(d0, d1) -> (d0, d1)>
#p2m = affine_map<(d0, d1, d2) -> (d2, d0)>
#m3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#dA = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#dB = affine_map<(d0, d1, d2, d3) -> (d3, d2)>
#dC = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>

// Dispatch/combine stays high under every policy (no policy lists it in
// keep_high: it follows the gating it depends on).
// ROWWISE-LABEL: func.func @moe
// ROWWISE: fp8.precision = #fp8.precision<bf16>, fp8.reason = "heuristic: contraction with the router's output (MoE token dispatch/combine)", fp8.role = #fp8.role<dispatch>
// CHECK-LABEL: func.func @moe
// CHECK: linalg.matmul {fp8.precision = #fp8.precision<bf16>, fp8.reason = "heuristic: expert-count linear (N = 4) feeding softmax/sigmoid/top-k", fp8.role = #fp8.role<gating>}
// CHECK: fp8.precision = #fp8.precision<bf16>, fp8.reason = "heuristic: contraction with the router's output (MoE token dispatch/combine)", fp8.role = #fp8.role<dispatch>
// CHECK: linalg.batch_matmul {fp8.precision = #fp8.precision<fp8>, fp8.reason = "heuristic: contraction with per-group weights (function argument)", fp8.role = #fp8.role<linear>}
// CHECK: linalg.batch_matmul {fp8.precision = #fp8.precision<fp8>, fp8.reason = "heuristic: contraction with per-group weights (function argument)", fp8.role = #fp8.role<linear>}
// CHECK: linalg.batch_matmul {fp8.precision = #fp8.precision<bf16>, fp8.reason = "heuristic: contraction of two activations", fp8.role = #fp8.role<attention>}
func.func @moe(%x: tensor<8x256xf32>, %wg: tensor<256x4xf32>, %wup: tensor<4x256x128xf32>,
               %wdown: tensor<4x128x256xf32>, %q: tensor<4x8x64xf32>, %kv: tensor<4x64x8xf32>)
    -> (tensor<4x2x256xf32>, tensor<4x8x8xf32>) {
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
  // Attention over a KV cache argument: batch 4 = the expert count, but the
  // queries are not dispatched tokens.
  %ea = tensor.empty() : tensor<4x8x8xf32>
  %za = linalg.fill ins(%c0 : f32) outs(%ea : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %s = linalg.batch_matmul ins(%q, %kv : tensor<4x8x64xf32>, tensor<4x64x8xf32>) outs(%za : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  return %down, %s : tensor<4x2x256xf32>, tensor<4x8x8xf32>
}
