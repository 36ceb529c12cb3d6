// Forms real exporters write for the layers of a transformer, through
// fp8-pipeline, with the roles derived by hand (DeepSeek-V3 §3.1/§3.3:
// linear layers FP8, 1x128 activation and 128x128 weight blocks; attention
// and the MoE router kept BF16). Values: test/Integration/CPU/exporter-forms.mlir.
// RUN: fp8-opt %s -split-input-file --fp8-pipeline=report=false 2>&1 | FileCheck %s

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#bc0 = affine_map<(d0, d1, d2) -> (0, d1, d2)>

// torch-mlir's bmm against a [1, K, N] weight expanded over the batch
// (`aten.expand` of a size-1 dim reads it at index 0): one weight shared by
// the 4 batches, so one FP8 GEMM over the 4 * 16 tokens, the weight
// quantized once as [N, K] (not 4 per-group copies).
// CHECK-LABEL: func.func @bmm_weight_expand0
// CHECK-SAME: (%[[X:.*]]: tensor<4x16x256xf32>, %[[W:.*]]: tensor<1x256x512xf32>)
// CHECK: tensor.collapse_shape %[[X]] {{.*}} into tensor<64x256xf32>
// CHECK: tensor.collapse_shape %[[W]] {{.*}} into tensor<256x512xf32>
// CHECK: fp8.quantize %{{.*}} : tensor<512x256xf32> -> !fp8.scaled<512x256xf8E4M3FN, block = [128, 128]
// CHECK: fp8.scaled_matmul {{.*}}fp8.role = #fp8.role<linear>{{.*}} -> tensor<64x512xf32>
// CHECK-NOT: grouped_scaled_matmul
// CHECK: return
func.func @bmm_weight_expand0(%x: tensor<4x16x256xf32>, %w: tensor<1x256x512xf32>) -> tensor<4x16x512xf32> {
  %z = arith.constant 0.0 : f32
  %ew = tensor.empty() : tensor<4x256x512xf32>
  %wb = linalg.generic {indexing_maps = [#bc0, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w : tensor<1x256x512xf32>) outs(%ew : tensor<4x256x512xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<4x256x512xf32>
  %e = tensor.empty() : tensor<4x16x512xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x16x512xf32>) -> tensor<4x16x512xf32>
  %y = linalg.batch_matmul ins(%x, %wb : tensor<4x16x256xf32>, tensor<4x256x512xf32>) outs(%f : tensor<4x16x512xf32>) -> tensor<4x16x512xf32>
  return %y : tensor<4x16x512xf32>
}

// -----

// GQA against a KV cache passed as an argument (decode): repeat_kv
// (unsqueeze, expand, reshape) repeats each of the 2 KV heads for the 2
// query heads of its group. The cache varies over the KV heads: it is no
// weight shared by the 4 batches (B * H) of the scores, however it is
// broadcast. Attention, BF16; nothing quantized.
// CHECK-LABEL: func.func @gqa_cache_broadcast
// CHECK-NOT: fp8.quantize
// CHECK: linalg.batch_matmul {{.*}}fp8.role = #fp8.role<attention>
// CHECK-NOT: fp8.quantize
// CHECK: return
func.func @gqa_cache_broadcast(%q: tensor<4x16x64xf32>, %kc: tensor<2x16x64xf32>) -> tensor<4x16x16xf32> {
  %z = arith.constant 0.0 : f32
  %ek = tensor.empty() : tensor<2x2x16x64xf32>
  %k2 = linalg.broadcast ins(%kc : tensor<2x16x64xf32>) outs(%ek : tensor<2x2x16x64xf32>) dimensions = [1]
  %k = tensor.collapse_shape %k2 [[0, 1], [2], [3]] : tensor<2x2x16x64xf32> into tensor<4x16x64xf32>
  %e = tensor.empty() : tensor<4x16x16xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q, %k : tensor<4x16x64xf32>, tensor<4x16x64xf32>) outs(%f : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  return %s : tensor<4x16x16xf32>
}

// -----

#kv5 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>

// The same repeat_kv as torch-mlir writes `expand`: a copy generic reading
// the unsqueezed unit dim at index 0.
// CHECK-LABEL: func.func @gqa_cache_expand0
// CHECK-NOT: fp8.quantize
// CHECK: linalg.batch_matmul {{.*}}fp8.role = #fp8.role<attention>
// CHECK-NOT: fp8.quantize
// CHECK: return
func.func @gqa_cache_expand0(%q: tensor<4x16x64xf32>, %kc: tensor<2x16x64xf32>) -> tensor<4x16x16xf32> {
  %z = arith.constant 0.0 : f32
  %k1 = tensor.expand_shape %kc [[0, 1], [2], [3]] output_shape [2, 1, 16, 64] : tensor<2x16x64xf32> into tensor<2x1x16x64xf32>
  %ek = tensor.empty() : tensor<2x2x16x64xf32>
  %k2 = linalg.generic {indexing_maps = [#kv5, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%k1 : tensor<2x1x16x64xf32>) outs(%ek : tensor<2x2x16x64xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<2x2x16x64xf32>
  %k = tensor.collapse_shape %k2 [[0, 1], [2], [3]] : tensor<2x2x16x64xf32> into tensor<4x16x64xf32>
  %e = tensor.empty() : tensor<4x16x16xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q, %k : tensor<4x16x64xf32>, tensor<4x16x64xf32>) outs(%f : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  return %s : tensor<4x16x16xf32>
}

// -----

#x = affine_map<(d0, d1) -> (d0, d1)>
#r1 = affine_map<(d0, d1) -> (d0)>
#et = affine_map<(e, t, f) -> (t, e)>
#m3 = affine_map<(e, t, f) -> (e, t, f)>
#red = affine_map<(e, t, f) -> (t, f)>

// A dense (dispatch-free) top-1 MoE: the router [T, H] x [H, E] (E = 4)
// feeds a sort-free top-k (a max reduction, a compare, exp); every token is
// broadcast to every expert and multiplied by the experts' [E, H, F] and
// [E, F, H] weights (arguments), the gate applied at the combine. The
// router is gating (BF16); both expert GEMMs are grouped FP8 linears with
// the experts' weights as the weights (not the broadcast tokens); the
// combine contracts over E = 4 with the router's gate: dispatch, as a routed
// combine is, kept in f32 as it is (no matmul: the gate has no M loop).
// CHECK-LABEL: func.func @moe_dense
// CHECK: linalg.matmul {{.*}}fp8.role = #fp8.role<gating>
// CHECK: fp8.quantize %{{.*}} : tensor<2048x256xf32> -> !fp8.scaled<2048x256xf8E4M3FN, block = [128, 128]
// CHECK: fp8.grouped_scaled_matmul {{.*}}per-group weights (function argument){{.*}}fp8.role = #fp8.role<linear>
// CHECK: fp8.quantize %{{.*}} : tensor<1024x512xf32> -> !fp8.scaled<1024x512xf8E4M3FN, block = [128, 128]
// CHECK: fp8.grouped_scaled_matmul {{.*}}per-group weights (function argument){{.*}}fp8.role = #fp8.role<linear>
// CHECK: linalg.generic {{.*}}iterator_types = ["reduction", "parallel", "parallel"]{{.*}}fp8.precision = #fp8.precision<f32>, fp8.reason = "heuristic: weighted sum by the router's output over the experts (dense MoE combine)", fp8.role = #fp8.role<dispatch>
// CHECK-NOT: fp8.role<attention>
// CHECK: return
func.func @moe_dense(%x: tensor<8x256xf32>, %wg: tensor<256x4xf32>, %wup: tensor<4x256x512xf32>, %wdown: tensor<4x512x256xf32>) -> tensor<8x256xf32> {
  %c0 = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %el = tensor.empty() : tensor<8x4xf32>
  %zl = linalg.fill ins(%c0 : f32) outs(%el : tensor<8x4xf32>) -> tensor<8x4xf32>
  %logits = linalg.matmul ins(%x, %wg : tensor<8x256xf32>, tensor<256x4xf32>) outs(%zl : tensor<8x4xf32>) -> tensor<8x4xf32>
  %em = tensor.empty() : tensor<8xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%em : tensor<8xf32>) -> tensor<8xf32>
  %mx = linalg.generic {indexing_maps = [#x, #r1], iterator_types = ["parallel", "reduction"]}
      ins(%logits : tensor<8x4xf32>) outs(%fm : tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %m = arith.maximumf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<8xf32>
  %gate = linalg.generic {indexing_maps = [#x, #r1, #x], iterator_types = ["parallel", "parallel"]}
      ins(%logits, %mx : tensor<8x4xf32>, tensor<8xf32>) outs(%el : tensor<8x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %eq = arith.cmpf oeq, %a, %b : f32
    %d = arith.subf %a, %b : f32
    %e = math.exp %d : f32
    %v = arith.select %eq, %e, %c0 : f32
    linalg.yield %v : f32
  } -> tensor<8x4xf32>
  %ex = tensor.empty() : tensor<4x8x256xf32>
  %xb = linalg.broadcast ins(%x : tensor<8x256xf32>) outs(%ex : tensor<4x8x256xf32>) dimensions = [0]
  %eu = tensor.empty() : tensor<4x8x512xf32>
  %zu = linalg.fill ins(%c0 : f32) outs(%eu : tensor<4x8x512xf32>) -> tensor<4x8x512xf32>
  %up = linalg.batch_matmul ins(%xb, %wup : tensor<4x8x256xf32>, tensor<4x256x512xf32>) outs(%zu : tensor<4x8x512xf32>) -> tensor<4x8x512xf32>
  %zd = linalg.fill ins(%c0 : f32) outs(%ex : tensor<4x8x256xf32>) -> tensor<4x8x256xf32>
  %down = linalg.batch_matmul ins(%up, %wdown : tensor<4x8x512xf32>, tensor<4x512x256xf32>) outs(%zd : tensor<4x8x256xf32>) -> tensor<4x8x256xf32>
  %ey = tensor.empty() : tensor<8x256xf32>
  %zy = linalg.fill ins(%c0 : f32) outs(%ey : tensor<8x256xf32>) -> tensor<8x256xf32>
  %y = linalg.generic {indexing_maps = [#m3, #et, #red], iterator_types = ["reduction", "parallel", "parallel"]}
      ins(%down, %gate : tensor<4x8x256xf32>, tensor<8x4xf32>) outs(%zy : tensor<8x256xf32>) {
  ^bb0(%a: f32, %g: f32, %o: f32):
    %m = arith.mulf %a, %g : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<8x256xf32>
  return %y : tensor<8x256xf32>
}

// -----

#x = affine_map<(d0, d1) -> (d0, d1)>
#r1 = affine_map<(d0, d1) -> (d0)>
#et = affine_map<(e, t, f) -> (t, e)>
#m3 = affine_map<(e, t, f) -> (e, t, f)>
#red = affine_map<(e, t, f) -> (t, f)>

// The same dense MoE with a hard top-1 gate and no softmax: the router's
// logits go to a max over the experts and a compare (a sort-free top-k),
// the gate is the chosen logit. The router is still the gating linear
// (BF16), and the experts grouped FP8 linears.
// CHECK-LABEL: func.func @moe_topk_without_exp
// CHECK: linalg.matmul {{.*}}fp8.role = #fp8.role<gating>
// CHECK-COUNT-2: fp8.grouped_scaled_matmul {{.*}}per-group weights (function argument){{.*}}fp8.role = #fp8.role<linear>
// CHECK-NOT: fp8.role<attention>
// CHECK: return
func.func @moe_topk_without_exp(%x: tensor<8x256xf32>, %wg: tensor<256x4xf32>, %wup: tensor<4x256x512xf32>, %wdown: tensor<4x512x256xf32>) -> tensor<8x256xf32> {
  %c0 = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %el = tensor.empty() : tensor<8x4xf32>
  %zl = linalg.fill ins(%c0 : f32) outs(%el : tensor<8x4xf32>) -> tensor<8x4xf32>
  %logits = linalg.matmul ins(%x, %wg : tensor<8x256xf32>, tensor<256x4xf32>) outs(%zl : tensor<8x4xf32>) -> tensor<8x4xf32>
  %em = tensor.empty() : tensor<8xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%em : tensor<8xf32>) -> tensor<8xf32>
  %mx = linalg.generic {indexing_maps = [#x, #r1], iterator_types = ["parallel", "reduction"]}
      ins(%logits : tensor<8x4xf32>) outs(%fm : tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %m = arith.maximumf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<8xf32>
  %gate = linalg.generic {indexing_maps = [#x, #r1, #x], iterator_types = ["parallel", "parallel"]}
      ins(%logits, %mx : tensor<8x4xf32>, tensor<8xf32>) outs(%el : tensor<8x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %eq = arith.cmpf oeq, %a, %b : f32
    %v = arith.select %eq, %a, %c0 : f32
    linalg.yield %v : f32
  } -> tensor<8x4xf32>
  %ex = tensor.empty() : tensor<4x8x256xf32>
  %xb = linalg.broadcast ins(%x : tensor<8x256xf32>) outs(%ex : tensor<4x8x256xf32>) dimensions = [0]
  %eu = tensor.empty() : tensor<4x8x512xf32>
  %zu = linalg.fill ins(%c0 : f32) outs(%eu : tensor<4x8x512xf32>) -> tensor<4x8x512xf32>
  %up = linalg.batch_matmul ins(%xb, %wup : tensor<4x8x256xf32>, tensor<4x256x512xf32>) outs(%zu : tensor<4x8x512xf32>) -> tensor<4x8x512xf32>
  %zd = linalg.fill ins(%c0 : f32) outs(%ex : tensor<4x8x256xf32>) -> tensor<4x8x256xf32>
  %down = linalg.batch_matmul ins(%up, %wdown : tensor<4x8x512xf32>, tensor<4x512x256xf32>) outs(%zd : tensor<4x8x256xf32>) -> tensor<4x8x256xf32>
  %ey = tensor.empty() : tensor<8x256xf32>
  %zy = linalg.fill ins(%c0 : f32) outs(%ey : tensor<8x256xf32>) -> tensor<8x256xf32>
  %y = linalg.generic {indexing_maps = [#m3, #et, #red], iterator_types = ["reduction", "parallel", "parallel"]}
      ins(%down, %gate : tensor<4x8x256xf32>, tensor<8x4xf32>) outs(%zy : tensor<8x256xf32>) {
  ^bb0(%a: f32, %g: f32, %o: f32):
    %m = arith.mulf %a, %g : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<8x256xf32>
  return %y : tensor<8x256xf32>
}

// -----

#x = affine_map<(d0, d1) -> (d0, d1)>
#r1 = affine_map<(d0, d1) -> (d0)>

// torch-mlir's `argmax(router(x), -1)`: a reduction with a compare and a
// select keeping the index of the largest logit. The router is gating.
// CHECK-LABEL: func.func @router_argmax
// CHECK: linalg.matmul {{.*}}fp8.role = #fp8.role<gating>
// CHECK-NOT: fp8.quantize
// CHECK: return
func.func @router_argmax(%x: tensor<8x256xf32>, %wg: tensor<256x4xf32>) -> tensor<8xi64> {
  %c0 = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %i0 = arith.constant 0 : i64
  %el = tensor.empty() : tensor<8x4xf32>
  %zl = linalg.fill ins(%c0 : f32) outs(%el : tensor<8x4xf32>) -> tensor<8x4xf32>
  %logits = linalg.matmul ins(%x, %wg : tensor<8x256xf32>, tensor<256x4xf32>) outs(%zl : tensor<8x4xf32>) -> tensor<8x4xf32>
  %em = tensor.empty() : tensor<8xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%em : tensor<8xf32>) -> tensor<8xf32>
  %ei = tensor.empty() : tensor<8xi64>
  %fi = linalg.fill ins(%i0 : i64) outs(%ei : tensor<8xi64>) -> tensor<8xi64>
  %r:2 = linalg.generic {indexing_maps = [#x, #r1, #r1], iterator_types = ["parallel", "reduction"]}
      ins(%logits : tensor<8x4xf32>) outs(%fm, %fi : tensor<8xf32>, tensor<8xi64>) {
  ^bb0(%a: f32, %m: f32, %i: i64):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i64
    %gt = arith.cmpf ogt, %a, %m : f32
    %nm = arith.select %gt, %a, %m : f32
    %ni = arith.select %gt, %ji, %i : i64
    linalg.yield %nm, %ni : f32, i64
  } -> (tensor<8xf32>, tensor<8xi64>)
  return %r#1 : tensor<8xi64>
}

// -----

// MQA decode (one token) against a one-head KV cache passed in ([S, D],
// S = 128), broadcast to the 4 query heads: the scores feed a softmax and
// the probabilities read the V cache. Both are attention (BF16, nothing of
// the caches quantized), not linears with the cache as a shared weight;
// the q and o projections stay FP8 linears.
// CHECK-LABEL: func.func @mqa_decode_cache
// CHECK: fp8.scaled_matmul {{.*}}fp8.role = #fp8.role<linear>
// CHECK-NOT: fp8.quantize
// CHECK: linalg.batch_matmul {{.*}}fp8.role = #fp8.role<attention>
// CHECK-NOT: fp8.quantize
// CHECK: linalg.batch_matmul {{.*}}fp8.role = #fp8.role<attention>
// CHECK: fp8.scaled_matmul {{.*}}fp8.role = #fp8.role<linear>
// CHECK: return
#x3 = affine_map<(b, m, n) -> (b, m, n)>
#r3 = affine_map<(b, m, n) -> (b, m)>
func.func @mqa_decode_cache(%x: tensor<1x256xf32>, %wq: tensor<256x256xf32>, %kc: tensor<128x64xf32>, %vc: tensor<128x64xf32>, %wo: tensor<256x256xf32>) -> tensor<1x256xf32> {
  %z = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e1 = tensor.empty() : tensor<1x256xf32>
  %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<1x256xf32>) -> tensor<1x256xf32>
  %q = linalg.matmul ins(%x, %wq : tensor<1x256xf32>, tensor<256x256xf32>) outs(%f1 : tensor<1x256xf32>) -> tensor<1x256xf32>
  %q3 = tensor.expand_shape %q [[0], [1, 2]] output_shape [1, 4, 64] : tensor<1x256xf32> into tensor<1x4x64xf32>
  %eq = tensor.empty() : tensor<4x1x64xf32>
  %qh = linalg.transpose ins(%q3 : tensor<1x4x64xf32>) outs(%eq : tensor<4x1x64xf32>) permutation = [1, 0, 2]
  %ek = tensor.empty() : tensor<4x128x64xf32>
  %k = linalg.broadcast ins(%kc : tensor<128x64xf32>) outs(%ek : tensor<4x128x64xf32>) dimensions = [0]
  %v = linalg.broadcast ins(%vc : tensor<128x64xf32>) outs(%ek : tensor<4x128x64xf32>) dimensions = [0]
  %es = tensor.empty() : tensor<4x1x128xf32>
  %fs = linalg.fill ins(%z : f32) outs(%es : tensor<4x1x128xf32>) -> tensor<4x1x128xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%qh, %k : tensor<4x1x64xf32>, tensor<4x128x64xf32>) outs(%fs : tensor<4x1x128xf32>) -> tensor<4x1x128xf32>
  %em = tensor.empty() : tensor<4x1xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%em : tensor<4x1xf32>) -> tensor<4x1xf32>
  %mx = linalg.generic {indexing_maps = [#x3, #r3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%s : tensor<4x1x128xf32>) outs(%fm : tensor<4x1xf32>) {
  ^bb0(%a: f32, %b: f32):
    %m = arith.maximumf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<4x1xf32>
  %ex = linalg.generic {indexing_maps = [#x3, #r3, #x3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %mx : tensor<4x1x128xf32>, tensor<4x1xf32>) outs(%es : tensor<4x1x128xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %d = arith.subf %a, %b : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<4x1x128xf32>
  %fz = linalg.fill ins(%z : f32) outs(%em : tensor<4x1xf32>) -> tensor<4x1xf32>
  %sm = linalg.generic {indexing_maps = [#x3, #r3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<4x1x128xf32>) outs(%fz : tensor<4x1xf32>) {
  ^bb0(%a: f32, %b: f32):
    %m = arith.addf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<4x1xf32>
  %p = linalg.generic {indexing_maps = [#x3, #r3, #x3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex, %sm : tensor<4x1x128xf32>, tensor<4x1xf32>) outs(%es : tensor<4x1x128xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %d = arith.divf %a, %b : f32
    linalg.yield %d : f32
  } -> tensor<4x1x128xf32>
  %fo = linalg.fill ins(%z : f32) outs(%eq : tensor<4x1x64xf32>) -> tensor<4x1x64xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x1x128xf32>, tensor<4x128x64xf32>) outs(%fo : tensor<4x1x64xf32>) -> tensor<4x1x64xf32>
  %eo = tensor.empty() : tensor<1x4x64xf32>
  %ot = linalg.transpose ins(%o : tensor<4x1x64xf32>) outs(%eo : tensor<1x4x64xf32>) permutation = [1, 0, 2]
  %of = tensor.collapse_shape %ot [[0], [1, 2]] : tensor<1x4x64xf32> into tensor<1x256xf32>
  %y = linalg.matmul ins(%of, %wo : tensor<1x256xf32>, tensor<256x256xf32>) outs(%f1 : tensor<1x256xf32>) -> tensor<1x256xf32>
  return %y : tensor<1x256xf32>
}

// -----

// JAX/StableHLO GQA (2 KV heads, 2 query heads each), every contraction a
// linalg.generic in the exporter's dim order. Roles by hand: the q, k, v
// projections (weights [H, Kh, G, D], [H, Kh, D]) and the output
// projection (weight [Kh, G, D, H]: three K loops) are FP8 linears; the
// scores and P * V contract two activations: attention (BF16); the softmax
// between them is attention.
// CHECK-LABEL: func.func @jax_gqa
// CHECK-COUNT-3: fp8.scaled_matmul {{.*}}fp8.role = #fp8.role<linear>
// CHECK: linalg.batch_matmul {{.*}}fp8.role = #fp8.role<attention>
// CHECK: math.exp
// CHECK: linalg.batch_matmul {{.*}}fp8.role = #fp8.role<attention>
// CHECK: fp8.scaled_matmul {{.*}}fp8.role = #fp8.role<linear>
// CHECK-NOT: linalg.generic {{.*}}reduction{{.*}}fp8.role = #fp8.role<linear>
// CHECK: return
#xq = affine_map<(b, s, k, g, d, h) -> (b, s, h)>
#wq = affine_map<(b, s, k, g, d, h) -> (h, k, g, d)>
#oq = affine_map<(b, s, k, g, d, h) -> (b, s, k, g, d)>
#xk = affine_map<(b, s, k, d, h) -> (b, s, h)>
#wk = affine_map<(b, s, k, d, h) -> (h, k, d)>
#ok = affine_map<(b, s, k, d, h) -> (b, s, k, d)>
#sq = affine_map<(b, k, g, s, t, d) -> (b, s, k, g, d)>
#sk = affine_map<(b, k, g, s, t, d) -> (b, t, k, d)>
#ss = affine_map<(b, k, g, s, t, d) -> (b, k, g, s, t)>
#pp = affine_map<(b, s, k, g, d, t) -> (b, k, g, s, t)>
#pv = affine_map<(b, s, k, g, d, t) -> (b, t, k, d)>
#po = affine_map<(b, s, k, g, d, t) -> (b, s, k, g, d)>
#yo = affine_map<(b, s, h, k, g, d) -> (b, s, k, g, d)>
#yw = affine_map<(b, s, h, k, g, d) -> (k, g, d, h)>
#yy = affine_map<(b, s, h, k, g, d) -> (b, s, h)>
#id5 = affine_map<(b, k, g, s, t) -> (b, k, g, s, t)>
#rd5 = affine_map<(b, k, g, s, t) -> (b, k, g, s)>
func.func @jax_gqa(%x: tensor<1x16x256xf32>, %wq: tensor<256x2x2x64xf32>, %wk: tensor<256x2x64xf32>, %wv: tensor<256x2x64xf32>, %wo: tensor<2x2x64x256xf32>) -> tensor<1x16x256xf32> {
  %z = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %eq = tensor.empty() : tensor<1x16x2x2x64xf32>
  %fq = linalg.fill ins(%z : f32) outs(%eq : tensor<1x16x2x2x64xf32>) -> tensor<1x16x2x2x64xf32>
  %q = linalg.generic {indexing_maps = [#xq, #wq, #oq], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%x, %wq : tensor<1x16x256xf32>, tensor<256x2x2x64xf32>) outs(%fq : tensor<1x16x2x2x64xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x16x2x2x64xf32>
  %ek = tensor.empty() : tensor<1x16x2x64xf32>
  %fk = linalg.fill ins(%z : f32) outs(%ek : tensor<1x16x2x64xf32>) -> tensor<1x16x2x64xf32>
  %k = linalg.generic {indexing_maps = [#xk, #wk, #ok], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%x, %wk : tensor<1x16x256xf32>, tensor<256x2x64xf32>) outs(%fk : tensor<1x16x2x64xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x16x2x64xf32>
  %v = linalg.generic {indexing_maps = [#xk, #wk, #ok], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%x, %wv : tensor<1x16x256xf32>, tensor<256x2x64xf32>) outs(%fk : tensor<1x16x2x64xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x16x2x64xf32>
  %es = tensor.empty() : tensor<1x2x2x16x16xf32>
  %fs = linalg.fill ins(%z : f32) outs(%es : tensor<1x2x2x16x16xf32>) -> tensor<1x2x2x16x16xf32>
  %s = linalg.generic {indexing_maps = [#sq, #sk, #ss], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<1x16x2x2x64xf32>, tensor<1x16x2x64xf32>) outs(%fs : tensor<1x2x2x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x2x16x16xf32>
  %em = tensor.empty() : tensor<1x2x2x16xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%em : tensor<1x2x2x16xf32>) -> tensor<1x2x2x16xf32>
  %mx = linalg.generic {indexing_maps = [#id5, #rd5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%s : tensor<1x2x2x16x16xf32>) outs(%fm : tensor<1x2x2x16xf32>) {
  ^bb0(%a: f32, %b: f32):
    %m = arith.maximumf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<1x2x2x16xf32>
  %ex = linalg.generic {indexing_maps = [#id5, #rd5, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%s, %mx : tensor<1x2x2x16x16xf32>, tensor<1x2x2x16xf32>) outs(%es : tensor<1x2x2x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %d = arith.subf %a, %b : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<1x2x2x16x16xf32>
  %f0 = linalg.fill ins(%z : f32) outs(%em : tensor<1x2x2x16xf32>) -> tensor<1x2x2x16xf32>
  %sm = linalg.generic {indexing_maps = [#id5, #rd5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%ex : tensor<1x2x2x16x16xf32>) outs(%f0 : tensor<1x2x2x16xf32>) {
  ^bb0(%a: f32, %b: f32):
    %m = arith.addf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<1x2x2x16xf32>
  %p = linalg.generic {indexing_maps = [#id5, #rd5, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%ex, %sm : tensor<1x2x2x16x16xf32>, tensor<1x2x2x16xf32>) outs(%es : tensor<1x2x2x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %d = arith.divf %a, %b : f32
    linalg.yield %d : f32
  } -> tensor<1x2x2x16x16xf32>
  %o = linalg.generic {indexing_maps = [#pp, #pv, #po], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<1x2x2x16x16xf32>, tensor<1x16x2x64xf32>) outs(%fq : tensor<1x16x2x2x64xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x16x2x2x64xf32>
  %ey = tensor.empty() : tensor<1x16x256xf32>
  %fy = linalg.fill ins(%z : f32) outs(%ey : tensor<1x16x256xf32>) -> tensor<1x16x256xf32>
  %y = linalg.generic {indexing_maps = [#yo, #yw, #yy], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%o, %wo : tensor<1x16x2x2x64xf32>, tensor<2x2x64x256xf32>) outs(%fy : tensor<1x16x256xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x16x256xf32>
  return %y : tensor<1x16x256xf32>
}

// -----

// TOSA (TorchToTosa): the q projection a tosa.matmul against a [1, K, N]
// constant; GQA's repeat_kv of a cache argument by tosa.tile. The
// projection is an FP8 linear; the scores, against the tiled cache,
// attention (nothing of the cache quantized).
// CHECK-LABEL: func.func @tosa_gqa
// CHECK: fp8.scaled_matmul {{.*}}fp8.role = #fp8.role<linear>
// CHECK-NOT: fp8.quantize
// CHECK: linalg.batch_matmul {{.*}}fp8.role = #fp8.role<attention>
// CHECK: return
func.func @tosa_gqa(%x: tensor<1x16x256xf32>, %kc: tensor<1x2x16x64xf32>) -> tensor<1x4x16x16xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %wq = "tosa.const"() <{values = dense<0.01> : tensor<1x256x256xf32>}> : () -> tensor<1x256x256xf32>
  %q = tosa.matmul %x, %wq, %zp, %zp : (tensor<1x16x256xf32>, tensor<1x256x256xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x256xf32>
  %s4 = tosa.const_shape {values = dense<[1, 16, 4, 64]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %q4 = tosa.reshape %q, %s4 : (tensor<1x16x256xf32>, !tosa.shape<4>) -> tensor<1x16x4x64xf32>
  %qt = tosa.transpose %q4 {perms = array<i32: 0, 2, 1, 3>} : (tensor<1x16x4x64xf32>) -> tensor<1x4x16x64xf32>
  %s3 = tosa.const_shape {values = dense<[4, 16, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %q3 = tosa.reshape %qt, %s3 : (tensor<1x4x16x64xf32>, !tosa.shape<3>) -> tensor<4x16x64xf32>
  // repeat_kv with tosa.tile: [1,2,16,64] -> [1,2,1,16,64] -> tile x2 -> [1,4,16,64]
  %s5 = tosa.const_shape {values = dense<[1, 2, 1, 16, 64]> : tensor<5xindex>} : () -> !tosa.shape<5>
  %k5 = tosa.reshape %kc, %s5 : (tensor<1x2x16x64xf32>, !tosa.shape<5>) -> tensor<1x2x1x16x64xf32>
  %m5 = tosa.const_shape {values = dense<[1, 1, 2, 1, 1]> : tensor<5xindex>} : () -> !tosa.shape<5>
  %kt5 = tosa.tile %k5, %m5 : (tensor<1x2x1x16x64xf32>, !tosa.shape<5>) -> tensor<1x2x2x16x64xf32>
  %k3 = tosa.reshape %kt5, %s3 : (tensor<1x2x2x16x64xf32>, !tosa.shape<3>) -> tensor<4x16x64xf32>
  %kT = tosa.transpose %k3 {perms = array<i32: 0, 2, 1>} : (tensor<4x16x64xf32>) -> tensor<4x64x16xf32>
  %s = tosa.matmul %q3, %kT, %zp, %zp : (tensor<4x16x64xf32>, tensor<4x64x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x16x16xf32>
  %e = tosa.exp %s : (tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<4x16x16xf32>) -> tensor<4x16x1xf32>
  %r = tosa.reciprocal %sum : (tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
  %sh = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %p = tosa.mul %e, %r, %sh : (tensor<4x16x16xf32>, tensor<4x16x1xf32>, tensor<1xi8>) -> tensor<4x16x16xf32>
  %so = tosa.const_shape {values = dense<[1, 4, 16, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %o = tosa.reshape %p, %so : (tensor<4x16x16xf32>, !tosa.shape<4>) -> tensor<1x4x16x16xf32>
  return %o : tensor<1x4x16x16xf32>
}

// -----

// The GQA cache of @gqa_cache_expand0 with a run-time length S: its
// [2, S, 64] source has one dim more than a batch of the scores' [S, 64]
// operand, so it varies over the batch: attention (without a softmax next
// to it to tell).
// CHECK-LABEL: func.func @gqa_cache_dynamic
// CHECK-NOT: remark
// CHECK: linalg.batch_matmul {{.*}}fp8.role = #fp8.role<attention>
// CHECK: return
#kv5 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @gqa_cache_dynamic(%q: tensor<4x?x64xf32>, %kc: tensor<2x?x64xf32>) -> tensor<4x?x?xf32> {
  %z = arith.constant 0.0 : f32
  %c1 = arith.constant 1 : index
  %s = tensor.dim %kc, %c1 : tensor<2x?x64xf32>
  %t = tensor.dim %q, %c1 : tensor<4x?x64xf32>
  %k1 = tensor.expand_shape %kc [[0, 1], [2], [3]] output_shape [2, 1, %s, 64] : tensor<2x?x64xf32> into tensor<2x1x?x64xf32>
  %ek = tensor.empty(%s) : tensor<2x2x?x64xf32>
  %k2 = linalg.generic {indexing_maps = [#kv5, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%k1 : tensor<2x1x?x64xf32>) outs(%ek : tensor<2x2x?x64xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<2x2x?x64xf32>
  %k = tensor.collapse_shape %k2 [[0, 1], [2], [3]] : tensor<2x2x?x64xf32> into tensor<4x?x64xf32>
  %e = tensor.empty(%t, %s) : tensor<4x?x?xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x?x?xf32>) -> tensor<4x?x?xf32>
  %sc = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q, %k : tensor<4x?x64xf32>, tensor<4x?x64xf32>) outs(%f : tensor<4x?x?xf32>) -> tensor<4x?x?xf32>
  return %sc : tensor<4x?x?xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#bc0 = affine_map<(d0, d1, d2) -> (0, d1, d2)>

// @bmm_weight_expand0 with a run-time batch and sequence (torch-mlir's
// dynamic dims): still one weight, one FP8 GEMM over the B * S tokens.
// CHECK-LABEL: func.func @bmm_weight_expand0_dynamic
// CHECK: fp8.quantize %{{.*}} : tensor<512x256xf32> -> !fp8.scaled<512x256xf8E4M3FN, block = [128, 128]
// CHECK: fp8.scaled_matmul {{.*}}fp8.role = #fp8.role<linear>{{.*}} -> tensor<?x512xf32>
// CHECK-NOT: grouped_scaled_matmul
// CHECK: return
func.func @bmm_weight_expand0_dynamic(%x: tensor<?x?x256xf32>, %w: tensor<1x256x512xf32>) -> tensor<?x?x512xf32> {
  %z = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b = tensor.dim %x, %c0 : tensor<?x?x256xf32>
  %s = tensor.dim %x, %c1 : tensor<?x?x256xf32>
  %ew = tensor.empty(%b) : tensor<?x256x512xf32>
  %wb = linalg.generic {indexing_maps = [#bc0, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%w : tensor<1x256x512xf32>) outs(%ew : tensor<?x256x512xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<?x256x512xf32>
  %e = tensor.empty(%b, %s) : tensor<?x?x512xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<?x?x512xf32>) -> tensor<?x?x512xf32>
  %y = linalg.batch_matmul ins(%x, %wb : tensor<?x?x256xf32>, tensor<?x256x512xf32>) outs(%f : tensor<?x?x512xf32>) -> tensor<?x?x512xf32>
  return %y : tensor<?x?x512xf32>
}

// -----

#l = affine_map<(b, m, n, k) -> (m, k, b)>
#r = affine_map<(b, m, n, k) -> (k, n, b)>
#o = affine_map<(b, m, n, k) -> (b, m, n)>
#wb_in = affine_map<(k, n, b) -> (k, n)>
#wb_out = affine_map<(k, n, b) -> (k, n, b)>

// A StableHLO dot_general with the batch dims last in the operands
// (`mkb,knb->bmn`), the [K, N] weight broadcast over the batch before it:
// fp8-normalize-forms lays the weight out [N, K] without the batch and
// broadcasts it again, so it stays one weight: one FP8 GEMM over the 2 * 16
// tokens (not a grouped GEMM quantizing a transposed copy per batch).
// CHECK-LABEL: func.func @dot_general_batch_last
// CHECK-SAME: (%[[X:.*]]: tensor<16x256x2xf32>, %[[W:.*]]: tensor<256x512xf32>)
// CHECK: linalg.transpose ins(%[[W]] : tensor<256x512xf32>) outs(%{{.*}} : tensor<512x256xf32>) permutation = [1, 0]
// CHECK: fp8.quantize %{{.*}} : tensor<512x256xf32> -> !fp8.scaled<512x256xf8E4M3FN, block = [128, 128]
// CHECK: fp8.scaled_matmul {{.*}}fp8.role = #fp8.role<linear>{{.*}} -> tensor<32x512xf32>
// CHECK-NOT: grouped_scaled_matmul
// CHECK: return
func.func @dot_general_batch_last(%x: tensor<16x256x2xf32>, %w: tensor<256x512xf32>) -> tensor<2x16x512xf32> {
  %z = arith.constant 0.0 : f32
  %ew = tensor.empty() : tensor<256x512x2xf32>
  %wb = linalg.generic {indexing_maps = [#wb_in, #wb_out], iterator_types = ["parallel", "parallel", "parallel"]} ins(%w : tensor<256x512xf32>) outs(%ew : tensor<256x512x2xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<256x512x2xf32>
  %e = tensor.empty() : tensor<2x16x512xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2x16x512xf32>) -> tensor<2x16x512xf32>
  %y = linalg.generic {indexing_maps = [#l, #r, #o], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%x, %wb : tensor<16x256x2xf32>, tensor<256x512x2xf32>) outs(%f : tensor<2x16x512xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r2 = arith.addf %c, %m : f32
    linalg.yield %r2 : f32
  } -> tensor<2x16x512xf32>
  return %y : tensor<2x16x512xf32>
}

// -----

#x = affine_map<(d0, d1) -> (d0, d1)>
#r1 = affine_map<(d0, d1) -> (d0)>

// Sparse MoE dispatch (one expert shown): an argmax picks a token id per
// slot (computed ids), the tokens are gathered by id from the hidden states
// (an activation, not a parameter), then the expert's up and down
// projections; the down projection (N = 256, as many as the tokens) returns.
// The gather is no embedding and the 256 tokens no vocabulary: every
// projection is an FP8 linear, none an output head.
// CHECK-LABEL: func.func @moe_gather_tokens
// CHECK-NOT: fp8.role<embedding>
// CHECK-NOT: fp8.role<output_head>
// CHECK-COUNT-4: fp8.scaled_matmul {{.*}}fp8.role = #fp8.role<linear>
// CHECK-NOT: fp8.role<output_head>
// CHECK: return
func.func @moe_gather_tokens(%x0: tensor<256x256xf32>, %wn: tensor<256x256xf32>, %wg: tensor<256x256xf32>, %wup: tensor<256x512xf32>, %wdown: tensor<512x256xf32>) -> tensor<256x256xf32> {
  %c0 = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %i0 = arith.constant 0 : i64
  %e = tensor.empty() : tensor<256x256xf32>
  %f = linalg.fill ins(%c0 : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  // hidden states: a computed activation (a previous layer)
  %x = linalg.matmul ins(%x0, %wn : tensor<256x256xf32>, tensor<256x256xf32>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  // slot -> token scores, argmax over tokens: the token id of each slot
  %sc = linalg.matmul ins(%x, %wg : tensor<256x256xf32>, tensor<256x256xf32>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  %em = tensor.empty() : tensor<256xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%em : tensor<256xf32>) -> tensor<256xf32>
  %ei = tensor.empty() : tensor<256xi64>
  %fi = linalg.fill ins(%i0 : i64) outs(%ei : tensor<256xi64>) -> tensor<256xi64>
  %r:2 = linalg.generic {indexing_maps = [#x, #r1, #r1], iterator_types = ["parallel", "reduction"]} ins(%sc : tensor<256x256xf32>) outs(%fm, %fi : tensor<256xf32>, tensor<256xi64>) {
  ^bb0(%a: f32, %m: f32, %i: i64):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i64
    %gt = arith.cmpf ogt, %a, %m : f32
    %nm = arith.select %gt, %a, %m : f32
    %ni = arith.select %gt, %ji, %i : i64
    linalg.yield %nm, %ni : f32, i64
  } -> (tensor<256xf32>, tensor<256xi64>)
  %tok = linalg.generic {indexing_maps = [#r1, #x], iterator_types = ["parallel", "parallel"]} ins(%r#1 : tensor<256xi64>) outs(%e : tensor<256x256xf32>) {
  ^bb0(%id: i64, %o: f32):
    %row = arith.index_cast %id : i64 to index
    %col = linalg.index 1 : index
    %v = tensor.extract %x[%row, %col] : tensor<256x256xf32>
    linalg.yield %v : f32
  } -> tensor<256x256xf32>
  %eu = tensor.empty() : tensor<256x512xf32>
  %fu = linalg.fill ins(%c0 : f32) outs(%eu : tensor<256x512xf32>) -> tensor<256x512xf32>
  %up = linalg.matmul ins(%tok, %wup : tensor<256x256xf32>, tensor<256x512xf32>) outs(%fu : tensor<256x512xf32>) -> tensor<256x512xf32>
  %down = linalg.matmul ins(%up, %wdown : tensor<256x512xf32>, tensor<512x256xf32>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %down : tensor<256x256xf32>
}

// -----

// torch-mlir's bmm against one third of a fused QKV weight (an
// extract_slice of a [256, 1536] parameter) broadcast over the batch: the
// broadcast tensor holds one batch's [K, N] elements (the fused parameter
// holds three): one shared weight, an FP8 linear.
// CHECK-LABEL: func.func @fused_slice_bmm
// CHECK: fp8.scaled_matmul {{.*}}fp8.role = #fp8.role<linear>{{.*}} -> tensor<64x512xf32>
// CHECK: return
func.func @fused_slice_bmm(%x: tensor<4x16x256xf32>, %wqkv: tensor<256x1536xf32>) -> tensor<4x16x512xf32> {
  %z = arith.constant 0.0 : f32
  %w = tensor.extract_slice %wqkv[0, 512] [256, 512] [1, 1] : tensor<256x1536xf32> to tensor<256x512xf32>
  %ew = tensor.empty() : tensor<4x256x512xf32>
  %wb = linalg.broadcast ins(%w : tensor<256x512xf32>) outs(%ew : tensor<4x256x512xf32>) dimensions = [0]
  %e = tensor.empty() : tensor<4x16x512xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x16x512xf32>) -> tensor<4x16x512xf32>
  %y = linalg.batch_matmul ins(%x, %wb : tensor<4x16x256xf32>, tensor<4x256x512xf32>) outs(%f : tensor<4x16x512xf32>) -> tensor<4x16x512xf32>
  return %y : tensor<4x16x512xf32>
}

// -----

// linalg.softmax, the named op (torch-mlir, IREE), between QKᵀ and P * V:
// fp8-normalize-forms decomposes it (upstream's max, exp, sum, divide
// generics; the max with arith.maximumf, fp8-decompose-softmax's rewrite),
// and those get attention's role as an exporter's decomposed softmax does;
// the projections stay FP8 linears, both attention GEMMs BF16.
// CHECK-LABEL: func.func @attention_named_softmax
// CHECK-NOT: linalg.softmax
// CHECK-COUNT-3: fp8.scaled_matmul {{.*}}fp8.role = #fp8.role<linear>
// CHECK: linalg.matmul {{.*}}fp8.role = #fp8.role<attention>
// CHECK: linalg.generic {{.*}}fp8.role = #fp8.role<attention>
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.maximumf
// CHECK: linalg.generic {{.*}}fp8.role = #fp8.role<attention>
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.subf
// CHECK-NEXT: math.exp
// CHECK: linalg.generic {{.*}}fp8.role = #fp8.role<attention>
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.addf
// CHECK: linalg.generic {{.*}}fp8.role = #fp8.role<attention>
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.divf
// CHECK: linalg.matmul {{.*}}fp8.role = #fp8.role<attention>
// CHECK-NOT: linalg.softmax
// CHECK: return
func.func @attention_named_softmax(%x: tensor<16x256xf32>, %wq: tensor<256x256xf32>, %wk: tensor<256x256xf32>, %wv: tensor<256x256xf32>) -> tensor<16x256xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x256xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x256xf32>) -> tensor<16x256xf32>
  %q = linalg.matmul ins(%x, %wq : tensor<16x256xf32>, tensor<256x256xf32>) outs(%f : tensor<16x256xf32>) -> tensor<16x256xf32>
  %k = linalg.matmul ins(%x, %wk : tensor<16x256xf32>, tensor<256x256xf32>) outs(%f : tensor<16x256xf32>) -> tensor<16x256xf32>
  %v = linalg.matmul ins(%x, %wv : tensor<16x256xf32>, tensor<256x256xf32>) outs(%f : tensor<16x256xf32>) -> tensor<16x256xf32>
  %es = tensor.empty() : tensor<16x16xf32>
  %fs = linalg.fill ins(%z : f32) outs(%es : tensor<16x16xf32>) -> tensor<16x16xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<16x256xf32>, tensor<16x256xf32>) outs(%fs : tensor<16x16xf32>) -> tensor<16x16xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<16x16xf32>) outs(%es : tensor<16x16xf32>) -> tensor<16x16xf32>
  %o = linalg.matmul ins(%p, %v : tensor<16x16xf32>, tensor<16x256xf32>) outs(%f : tensor<16x256xf32>) -> tensor<16x256xf32>
  return %o : tensor<16x256xf32>
}

// -----

// A router whose top-k probabilities are linalg.softmax over the experts:
// the router is gating (BF16) as with the decomposed softmax; the softmax's
// generics keep their type (role other, as the decomposed form's).
// CHECK-LABEL: func.func @router_named_softmax
// CHECK: linalg.matmul {{.*}}fp8.role = #fp8.role<gating>
// CHECK-NOT: linalg.softmax
// CHECK: math.exp
// CHECK: return
func.func @router_named_softmax(%x: tensor<8x256xf32>, %wg: tensor<256x4xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %el = tensor.empty() : tensor<8x4xf32>
  %zl = linalg.fill ins(%z : f32) outs(%el : tensor<8x4xf32>) -> tensor<8x4xf32>
  %logits = linalg.matmul ins(%x, %wg : tensor<8x256xf32>, tensor<256x4xf32>) outs(%zl : tensor<8x4xf32>) -> tensor<8x4xf32>
  %p = linalg.softmax dimension(1) ins(%logits : tensor<8x4xf32>) outs(%el : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %p : tensor<8x4xf32>
}

// -----

// MQA decode with the query heads folded into M (batch 1, q [1, 4, 64])
// against one-head K and V caches passed as [1, S, D] (S = 128) and read
// without a broadcast: each has a [1, K, N] weight's shape. A softmax lies
// between the two contractions that read them (QK^T with the K cache, then
// P * V with the V cache): attention, BF16, nothing of the caches
// quantized; the q and o projections stay FP8 linears.
// CHECK-LABEL: func.func @mqa_decode_cache_unit_batch
// CHECK: fp8.scaled_matmul {{.*}}fp8.role = #fp8.role<linear>
// CHECK-NOT: fp8.quantize
// CHECK: linalg.batch_matmul {{.*}}fp8.reason = "heuristic: contraction with a unit-batch argument, a softmax between it and another such contraction (an MQA KV cache read without a broadcast)", fp8.role = #fp8.role<attention>
// CHECK-NOT: fp8.quantize
// CHECK: linalg.batch_matmul {{.*}}fp8.role = #fp8.role<attention>
// CHECK: fp8.scaled_matmul {{.*}}fp8.role = #fp8.role<linear>
// CHECK: return
func.func @mqa_decode_cache_unit_batch(%x: tensor<1x256xf32>, %wq: tensor<256x256xf32>, %kc: tensor<1x128x64xf32>, %vc: tensor<1x128x64xf32>, %wo: tensor<256x256xf32>) -> tensor<1x256xf32> {
  %z = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<1x256xf32>
  %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<1x256xf32>) -> tensor<1x256xf32>
  %q = linalg.matmul ins(%x, %wq : tensor<1x256xf32>, tensor<256x256xf32>) outs(%f1 : tensor<1x256xf32>) -> tensor<1x256xf32>
  %qh = tensor.expand_shape %q [[0], [1, 2]] output_shape [1, 4, 64] : tensor<1x256xf32> into tensor<1x4x64xf32>
  %es = tensor.empty() : tensor<1x4x128xf32>
  %fs = linalg.fill ins(%z : f32) outs(%es : tensor<1x4x128xf32>) -> tensor<1x4x128xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%qh, %kc : tensor<1x4x64xf32>, tensor<1x128x64xf32>) outs(%fs : tensor<1x4x128xf32>) -> tensor<1x4x128xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<1x4x128xf32>) outs(%es : tensor<1x4x128xf32>) -> tensor<1x4x128xf32>
  %eo = tensor.empty() : tensor<1x4x64xf32>
  %fo = linalg.fill ins(%z : f32) outs(%eo : tensor<1x4x64xf32>) -> tensor<1x4x64xf32>
  %o = linalg.batch_matmul ins(%p, %vc : tensor<1x4x128xf32>, tensor<1x128x64xf32>) outs(%fo : tensor<1x4x64xf32>) -> tensor<1x4x64xf32>
  %of = tensor.collapse_shape %o [[0], [1, 2]] : tensor<1x4x64xf32> into tensor<1x256xf32>
  %y = linalg.matmul ins(%of, %wo : tensor<1x256xf32>, tensor<256x256xf32>) outs(%f1 : tensor<1x256xf32>) -> tensor<1x256xf32>
  return %y : tensor<1x256xf32>
}

// -----

// A classifier as torch-mlir's bmm against a [1, K, N] weight argument
// (batch 1, N = 1000 classes) feeding a softmax: no second contraction
// reads the probabilities, so the weight is a weight: an FP8 linear.
// CHECK-LABEL: func.func @bmm_unit_batch_classifier
// CHECK: fp8.scaled_matmul {{.*}}fp8.role = #fp8.role<linear>
// CHECK-NOT: fp8.role<attention>
// CHECK: return
func.func @bmm_unit_batch_classifier(%x: tensor<1x16x256xf32>, %w: tensor<1x256x1000xf32>) -> tensor<1x16x1000xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x1000xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x16x1000xf32>) -> tensor<1x16x1000xf32>
  %y = linalg.batch_matmul ins(%x, %w : tensor<1x16x256xf32>, tensor<1x256x1000xf32>) outs(%f : tensor<1x16x1000xf32>) -> tensor<1x16x1000xf32>
  %p = linalg.softmax dimension(2) ins(%y : tensor<1x16x1000xf32>) outs(%e : tensor<1x16x1000xf32>) -> tensor<1x16x1000xf32>
  return %p : tensor<1x16x1000xf32>
}
