// RUN: fp8-opt %s -split-input-file -fp8-assign-precision | FileCheck %s
// RUN: fp8-opt %s -split-input-file -fp8-assign-precision="policy=per-tensor" | FileCheck %s --check-prefix=PT

// Every linear form real exporters produce, every role, every override path.

// CHECK: module attributes {fp8.policy = #fp8.policy<name = "deepseek-v3"
// PT: module attributes {fp8.policy = #fp8.policy<name = "per-tensor"
// CHECK-LABEL: func.func @matmul_weight_arg
// CHECK: linalg.matmul {fp8.precision = #fp8.precision<fp8>, fp8.reason = "heuristic: contraction with a weight (function argument)", fp8.role = #fp8.role<linear>}
func.func @matmul_weight_arg(%x: tensor<16x256xf32>, %w: tensor<256x512xf32>) -> tensor<16x512xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x512xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<16x512xf32>) -> tensor<16x512xf32>
  %y = linalg.matmul ins(%x, %w : tensor<16x256xf32>, tensor<256x512xf32>) outs(%f : tensor<16x512xf32>) -> tensor<16x512xf32>
  return %y : tensor<16x512xf32>
}

// -----

// torch-mlir's aten.linear: a transpose linalg.generic of a constant [N, K]
// weight, then linalg.matmul.
#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-LABEL: func.func @matmul_behind_transpose
// CHECK: linalg.generic
// CHECK-SAME: fp8.role = #fp8.role<other>
// CHECK: linalg.matmul {fp8.precision = #fp8.precision<fp8>, fp8.reason = "heuristic: contraction with a weight (constant)", fp8.role = #fp8.role<linear>}
func.func @matmul_behind_transpose(%x: tensor<16x256xbf16>) -> tensor<16x512xbf16> {
  %w = arith.constant dense<1.0> : tensor<512x256xbf16>
  %e0 = tensor.empty() : tensor<256x512xbf16>
  %wt = linalg.generic {indexing_maps = [#id, #tr], iterator_types = ["parallel", "parallel"]} ins(%w : tensor<512x256xbf16>) outs(%e0 : tensor<256x512xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    linalg.yield %in : bf16
  } -> tensor<256x512xbf16>
  %cst = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<16x512xbf16>
  %f = linalg.fill ins(%cst : bf16) outs(%e : tensor<16x512xbf16>) -> tensor<16x512xbf16>
  %y = linalg.matmul ins(%x, %wt : tensor<16x256xbf16>, tensor<256x512xbf16>) outs(%f : tensor<16x512xbf16>) -> tensor<16x512xbf16>
  return %y : tensor<16x512xbf16>
}

// -----

// torch-mlir's BERT form: batch_matmul against a weight broadcast to 1xKxN.
#m2 = affine_map<(d0, d1, d2) -> (d1, d2)>
#m3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @batch_matmul_broadcast_weight
// CHECK: linalg.batch_matmul {fp8.precision = #fp8.precision<fp8>, fp8.reason = "heuristic: contraction with a weight (function argument)", fp8.role = #fp8.role<linear>}
func.func @batch_matmul_broadcast_weight(%x: tensor<4x128x256xf32>, %w: tensor<256x512xf32>) -> tensor<4x128x512xf32> {
  %e0 = tensor.empty() : tensor<4x256x512xf32>
  %wb = linalg.generic {indexing_maps = [#m2, #m3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%w : tensor<256x512xf32>) outs(%e0 : tensor<4x256x512xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x256x512xf32>
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x128x512xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<4x128x512xf32>) -> tensor<4x128x512xf32>
  %y = linalg.batch_matmul ins(%x, %wb : tensor<4x128x256xf32>, tensor<4x256x512xf32>) outs(%f : tensor<4x128x512xf32>) -> tensor<4x128x512xf32>
  return %y : tensor<4x128x512xf32>
}

// -----

// A contraction-shaped generic: y[b, s, n] += x[b, s, k] * w[n, k].
#x = affine_map<(b, s, n, k) -> (b, s, k)>
#w = affine_map<(b, s, n, k) -> (n, k)>
#y = affine_map<(b, s, n, k) -> (b, s, n)>
// CHECK-LABEL: func.func @contraction_generic
// CHECK: linalg.generic
// CHECK-SAME: fp8.precision = #fp8.precision<fp8>, fp8.reason = "heuristic: contraction with a weight (function argument)", fp8.role = #fp8.role<linear>
func.func @contraction_generic(%x: tensor<2x8x256xf32>, %w: tensor<384x256xf32>, %init: tensor<2x8x384xf32>) -> tensor<2x8x384xf32> {
  %y = linalg.generic {indexing_maps = [#x, #w, #y], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%x, %w : tensor<2x8x256xf32>, tensor<384x256xf32>) outs(%init : tensor<2x8x384xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %c, %p : f32
    linalg.yield %s : f32
  } -> tensor<2x8x384xf32>
  return %y : tensor<2x8x384xf32>
}

// -----

// Attention: QK^T and PV contract two activations; softmax between them is
// attention too. A batch_matmul whose B is an unbroadcast function argument
// with batch > 1 (a KV cache) is not a weight.
#a4 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#r4 = affine_map<(d0, d1, d2) -> (d0, d1)>
#b4 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
// CHECK-LABEL: func.func @attention
// CHECK: linalg.batch_matmul {fp8.precision = #fp8.precision<bf16>, fp8.reason = "heuristic: contraction of two activations", fp8.role = #fp8.role<attention>}
// CHECK: linalg.generic
// CHECK-SAME: fp8.role = #fp8.role<attention>
// CHECK: linalg.generic
// CHECK-SAME: fp8.role = #fp8.role<attention>
// CHECK: linalg.batch_matmul {fp8.precision = #fp8.precision<bf16>, fp8.reason = "heuristic: contraction of two activations", fp8.role = #fp8.role<attention>}
// PT-LABEL: func.func @attention
// PT: linalg.batch_matmul {fp8.precision = #fp8.precision<bf16>
func.func @attention(%q: tensor<12x40x64xf32>, %kt: tensor<12x64x40xf32>, %v: tensor<12x40x64xf32>) -> tensor<12x40x64xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<12x40x40xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<12x40x40xf32>) -> tensor<12x40x40xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<12x40x64xf32>, tensor<12x64x40xf32>) outs(%f : tensor<12x40x40xf32>) -> tensor<12x40x40xf32>
  %p = linalg.generic {indexing_maps = [#a4, #a4], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<12x40x40xf32>) outs(%e : tensor<12x40x40xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = math.exp %in : f32
    linalg.yield %x : f32
  } -> tensor<12x40x40xf32>
  %e2 = tensor.empty() : tensor<12x40x40xf32>
  %n = linalg.generic {indexing_maps = [#a4, #a4], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p : tensor<12x40x40xf32>) outs(%e2 : tensor<12x40x40xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.mulf %in, %in : f32
    linalg.yield %x : f32
  } -> tensor<12x40x40xf32>
  %eo = tensor.empty() : tensor<12x40x64xf32>
  %fo = linalg.fill ins(%cst : f32) outs(%eo : tensor<12x40x64xf32>) -> tensor<12x40x64xf32>
  %o = linalg.batch_matmul ins(%n, %v : tensor<12x40x40xf32>, tensor<12x40x64xf32>) outs(%fo : tensor<12x40x64xf32>) -> tensor<12x40x64xf32>
  return %o : tensor<12x40x64xf32>
}

// -----

// Embedding: torch-mlir's gather (a generic extracting rows of a captured
// table). Output head: a linear whose N is the table's row count and whose
// result is returned.
#i2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#i3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#wb = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-LABEL: func.func @embedding_and_head
// CHECK: linalg.generic
// CHECK-SAME: fp8.precision = #fp8.precision<f32>, fp8.reason = "heuristic: gather from a 1000x128 table", fp8.role = #fp8.role<embedding>
// CHECK: linalg.batch_matmul {fp8.precision = #fp8.precision<bf16>, fp8.reason = "heuristic: vocabulary-sized linear (N = 1000) reaching a function result", fp8.role = #fp8.role<output_head>}
func.func @embedding_and_head(%ids: tensor<1x8xi64>, %head: tensor<128x1000xf32>) -> tensor<1x8x1000xf32> {
  %table = arith.constant dense<0.5> : tensor<1000x128xf32>
  %e = tensor.empty() : tensor<1x8x128xf32>
  %h = linalg.generic {indexing_maps = [#i2, #i3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ids : tensor<1x8xi64>) outs(%e : tensor<1x8x128xf32>) {
  ^bb0(%in: i64, %out: f32):
    %r = arith.index_cast %in : i64 to index
    %c = linalg.index 2 : index
    %x = tensor.extract %table[%r, %c] : tensor<1000x128xf32>
    linalg.yield %x : f32
  } -> tensor<1x8x128xf32>
  %eb = tensor.empty() : tensor<1x128x1000xf32>
  %hb = linalg.generic {indexing_maps = [#wb, #i3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%head : tensor<128x1000xf32>) outs(%eb : tensor<1x128x1000xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x128x1000xf32>
  %cst = arith.constant 0.0 : f32
  %eo = tensor.empty() : tensor<1x8x1000xf32>
  %fo = linalg.fill ins(%cst : f32) outs(%eo : tensor<1x8x1000xf32>) -> tensor<1x8x1000xf32>
  %logits = linalg.batch_matmul ins(%h, %hb : tensor<1x8x128xf32>, tensor<1x128x1000xf32>) outs(%fo : tensor<1x8x1000xf32>) -> tensor<1x8x1000xf32>
  return %logits : tensor<1x8x1000xf32>
}

// -----

// An element pick (take_along_axis: the cross-entropy's logits[t, target[t]],
// fp8_mlir.training) is not an embedding: its other index is the generic's
// own linalg.index of the loop dim the targets vary over, so it reads one
// element of the token's own row. It keeps its element type as any other op.
#p1 = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @element_pick
// CHECK: linalg.matmul {fp8.precision = #fp8.precision<fp8>, fp8.reason = "heuristic: contraction with a weight (function argument)", fp8.role = #fp8.role<linear>}
// CHECK: linalg.generic
// CHECK-SAME: fp8.reason = "heuristic: no sensitive pattern", fp8.role = #fp8.role<other>
func.func @element_pick(%x: tensor<8x64xf32>, %w: tensor<64x1000xf32>, %targets: tensor<8xi64>) -> tensor<8xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x1000xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<8x1000xf32>) -> tensor<8x1000xf32>
  %logits = linalg.matmul ins(%x, %w : tensor<8x64xf32>, tensor<64x1000xf32>) outs(%f : tensor<8x1000xf32>) -> tensor<8x1000xf32>
  %ep = tensor.empty() : tensor<8xf32>
  %p = linalg.generic {indexing_maps = [#p1, #p1], iterator_types = ["parallel"]} ins(%targets : tensor<8xi64>) outs(%ep : tensor<8xf32>) {
  ^bb0(%in: i64, %out: f32):
    %row = linalg.index 0 : index
    %col = arith.index_cast %in : i64 to index
    %z = tensor.extract %logits[%row, %col] : tensor<8x1000xf32>
    linalg.yield %z : f32
  } -> tensor<8xf32>
  return %p : tensor<8xf32>
}

// -----

// A per-sequence table [b, vocab, h] read at (the sequence's own index, the
// id, the walk along h): it reads a row per id, an embedding however one of
// its indices follows the ids' own loop dimension.
#b2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#b3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @per_sequence_embedding
// CHECK: linalg.generic
// CHECK-SAME: fp8.reason = "heuristic: gather from a 2x1000x128 table", fp8.role = #fp8.role<embedding>
func.func @per_sequence_embedding(%ids: tensor<2x8xi64>, %w: tensor<128x64xf32>) -> tensor<2x8x64xf32> {
  %table = arith.constant dense<0.5> : tensor<2x1000x128xf32>
  %e = tensor.empty() : tensor<2x8x128xf32>
  %h = linalg.generic {indexing_maps = [#b2, #b3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ids : tensor<2x8xi64>) outs(%e : tensor<2x8x128xf32>) {
  ^bb0(%in: i64, %out: f32):
    %b = linalg.index 0 : index
    %r = arith.index_cast %in : i64 to index
    %c = linalg.index 2 : index
    %x = tensor.extract %table[%b, %r, %c] : tensor<2x1000x128xf32>
    linalg.yield %x : f32
  } -> tensor<2x8x128xf32>
  %hc = tensor.collapse_shape %h [[0, 1], [2]] : tensor<2x8x128xf32> into tensor<16x128xf32>
  %cst = arith.constant 0.0 : f32
  %eo = tensor.empty() : tensor<16x64xf32>
  %fo = linalg.fill ins(%cst : f32) outs(%eo : tensor<16x64xf32>) -> tensor<16x64xf32>
  %y = linalg.matmul ins(%hc, %w : tensor<16x128xf32>, tensor<128x64xf32>) outs(%fo : tensor<16x64xf32>) -> tensor<16x64xf32>
  %ye = tensor.expand_shape %y [[0, 1], [2]] output_shape [2, 8, 64] : tensor<16x64xf32> into tensor<2x8x64xf32>
  return %ye : tensor<2x8x64xf32>
}

// -----

// Output head without an embedding in the graph: N >= 32000.
// CHECK-LABEL: func.func @lm_head_by_size
// CHECK: linalg.matmul {fp8.precision = #fp8.precision<bf16>, fp8.reason = "heuristic: vocabulary-sized linear (N = 32000) reaching a function result", fp8.role = #fp8.role<output_head>}
func.func @lm_head_by_size(%x: tensor<4x64xbf16>, %w: tensor<64x32000xbf16>, %init: tensor<4x32000xbf16>) -> tensor<4x32000xbf16> {
  %y = linalg.matmul ins(%x, %w : tensor<4x64xbf16>, tensor<64x32000xbf16>) outs(%init : tensor<4x32000xbf16>) -> tensor<4x32000xbf16>
  return %y : tensor<4x32000xbf16>
}

// -----

// MoE gating: N = 8 experts, K = 256, feeding a softmax (exp). A linear
// with the same small N that does not feed a softmax stays linear.
#g2 = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @gating
// CHECK: linalg.matmul {fp8.precision = #fp8.precision<bf16>, fp8.reason = "heuristic: expert-count linear (N = 8) feeding softmax/sigmoid/top-k", fp8.role = #fp8.role<gating>}
// CHECK: linalg.generic
// CHECK-SAME: fp8.role = #fp8.role<other>
// CHECK: linalg.matmul {fp8.precision = #fp8.precision<fp8>, fp8.reason = "heuristic: contraction with a weight (function argument)", fp8.role = #fp8.role<linear>}
func.func @gating(%x: tensor<16x256xf32>, %wg: tensor<256x8xf32>, %init: tensor<16x8xf32>) -> (tensor<16x8xf32>, tensor<16x8xf32>) {
  %logits = linalg.matmul ins(%x, %wg : tensor<16x256xf32>, tensor<256x8xf32>) outs(%init : tensor<16x8xf32>) -> tensor<16x8xf32>
  %e = tensor.empty() : tensor<16x8xf32>
  %p = linalg.generic {indexing_maps = [#g2, #g2], iterator_types = ["parallel", "parallel"]} ins(%logits : tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x2 = math.exp %in : f32
    linalg.yield %x2 : f32
  } -> tensor<16x8xf32>
  %other = linalg.matmul ins(%x, %wg : tensor<16x256xf32>, tensor<256x8xf32>) outs(%init : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %p, %other : tensor<16x8xf32>, tensor<16x8xf32>
}

// -----

// RMSNorm as tosa-to-linalg writes it: x^2, sum, * 1/D, + eps, rsqrt,
// x * rstd, * gamma. Every op of it is normalization; the linear after it
// is not.
#n3 = affine_map<(d0, d1) -> (d0, d1)>
#nr = affine_map<(d0, d1) -> (d0, 0)>
#ng = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @rmsnorm
// CHECK-COUNT-5: fp8.precision = #fp8.precision<f32>, fp8.reason = "heuristic: normalization (reduction + rsqrt: LayerNorm/RMSNorm)", fp8.role = #fp8.role<normalization>
// CHECK: linalg.matmul {fp8.precision = #fp8.precision<fp8>
func.func @rmsnorm(%x: tensor<40x256xf32>, %gamma: tensor<256xf32>, %w: tensor<256x256xf32>, %init: tensor<40x256xf32>) -> tensor<40x256xf32> {
  %e = tensor.empty() : tensor<40x256xf32>
  %sq = linalg.generic {indexing_maps = [#n3, #n3], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<40x256xf32>) outs(%e : tensor<40x256xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %in : f32
    linalg.yield %m : f32
  } -> tensor<40x256xf32>
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<40xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<40xf32>) -> tensor<40xf32>
  %sum = linalg.reduce ins(%sq : tensor<40x256xf32>) outs(%f1 : tensor<40xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
    }
  %s2 = tensor.expand_shape %sum [[0, 1]] output_shape [40, 1] : tensor<40xf32> into tensor<40x1xf32>
  %e2 = tensor.empty() : tensor<40x1xf32>
  %rstd = linalg.generic {indexing_maps = [#n3, #n3], iterator_types = ["parallel", "parallel"]} ins(%s2 : tensor<40x1xf32>) outs(%e2 : tensor<40x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.constant 3.906250e-03 : f32
    %eps = arith.constant 1.0e-6 : f32
    %m = arith.mulf %in, %d : f32
    %a = arith.addf %m, %eps : f32
    %r = math.rsqrt %a : f32
    linalg.yield %r : f32
  } -> tensor<40x1xf32>
  %y = linalg.generic {indexing_maps = [#n3, #nr, #n3], iterator_types = ["parallel", "parallel"]} ins(%x, %rstd : tensor<40x256xf32>, tensor<40x1xf32>) outs(%e : tensor<40x256xf32>) {
  ^bb0(%in: f32, %r: f32, %out: f32):
    %m = arith.mulf %in, %r : f32
    linalg.yield %m : f32
  } -> tensor<40x256xf32>
  %z = linalg.generic {indexing_maps = [#n3, #ng, #n3], iterator_types = ["parallel", "parallel"]} ins(%y, %gamma : tensor<40x256xf32>, tensor<256xf32>) outs(%e : tensor<40x256xf32>) {
  ^bb0(%in: f32, %g: f32, %out: f32):
    %m = arith.mulf %in, %g : f32
    linalg.yield %m : f32
  } -> tensor<40x256xf32>
  %o = linalg.matmul ins(%z, %w : tensor<40x256xf32>, tensor<256x256xf32>) outs(%init : tensor<40x256xf32>) -> tensor<40x256xf32>
  return %o : tensor<40x256xf32>
}

// -----

// Overrides: an explicit fp8.role / fp8.precision on the op wins over the
// heuristic.
// CHECK-LABEL: func.func @attribute_overrides
// CHECK: linalg.matmul {fp8.precision = #fp8.precision<bf16>, fp8.reason = "override: fp8.role attribute", fp8.role = #fp8.role<output_head>}
// CHECK: linalg.matmul {fp8.precision = #fp8.precision<f32>, fp8.reason = "heuristic: contraction with a weight (function argument); precision override: fp8.precision attribute", fp8.role = #fp8.role<linear>}
// CHECK: linalg.matmul {fp8.precision = #fp8.precision<fp8>, fp8.reason = "override: fp8.role attribute", fp8.role = #fp8.role<linear>}
func.func @attribute_overrides(%x: tensor<16x256xf32>, %w: tensor<256x512xf32>, %init: tensor<16x512xf32>, %a: tensor<16x16xf32>, %init2: tensor<16x256xf32>) -> (tensor<16x512xf32>, tensor<16x512xf32>, tensor<16x256xf32>) {
  %y = linalg.matmul {fp8.role = #fp8.role<output_head>} ins(%x, %w : tensor<16x256xf32>, tensor<256x512xf32>) outs(%init : tensor<16x512xf32>) -> tensor<16x512xf32>
  %z = linalg.matmul {fp8.precision = #fp8.precision<f32>} ins(%x, %w : tensor<16x256xf32>, tensor<256x512xf32>) outs(%init : tensor<16x512xf32>) -> tensor<16x512xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<16x256xf32>) outs(%init2 : tensor<16x256xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %in : f32
    linalg.yield %m : f32
  } -> tensor<16x256xf32>
  // Two activations, forced linear (a weight-gradient-style contraction).
  %g = linalg.matmul {fp8.role = #fp8.role<linear>} ins(%a, %s : tensor<16x16xf32>, tensor<16x256xf32>) outs(%init2 : tensor<16x256xf32>) -> tensor<16x256xf32>
  return %y, %z, %g : tensor<16x512xf32>, tensor<16x512xf32>, tensor<16x256xf32>
}

// -----

// A function without any contraction is left unchanged (a remark says so;
// see assign-precision-remarks.mlir).
// CHECK-LABEL: func.func @no_contraction
// CHECK-NOT: fp8.role
// CHECK: return
func.func @no_contraction(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %in : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// MoE routed experts: a batch_matmul whose B holds one weight per group
// (per-expert constants [E, K, N]) is a grouped linear and goes FP8
// (DeepSeek-V3 keeps its expert GEMMs in FP8). The same shape with B a
// function argument and no router in the function stays attention (a KV
// cache, see @attention above; with a router: moe-experts-arguments.mlir).
// CHECK-LABEL: func.func @moe_experts
// CHECK: linalg.batch_matmul {fp8.precision = #fp8.precision<fp8>, fp8.reason = "heuristic: contraction with per-group weights (constant)", fp8.role = #fp8.role<linear>}
func.func @moe_experts(%x: tensor<4x8x256xf32>) -> tensor<4x8x128xf32> {
  %w = arith.constant dense<0.01> : tensor<4x256x128xf32>
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8x128xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<4x8x128xf32>) -> tensor<4x8x128xf32>
  %y = linalg.batch_matmul ins(%x, %w : tensor<4x8x256xf32>, tensor<4x256x128xf32>) outs(%f : tensor<4x8x128xf32>) -> tensor<4x8x128xf32>
  return %y : tensor<4x8x128xf32>
}
