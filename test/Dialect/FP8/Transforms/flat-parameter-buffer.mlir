// RUN: fp8-opt %s -split-input-file -fp8-assign-precision | FileCheck %s

// Every parameter in one flat buffer (`tensor<Nxf32>`), each weight a
// tensor.extract_slice + tensor.expand_shape (+ transpose) of it, as some
// exporters write them. Two views are the same weight only when they read
// the same elements of the buffer (docs/design.md, weight identity): the
// slices of the other weights are not the embedding table, so only a head
// reading the table's own elements is a tied output head.

#ids = affine_map<(d0, d1) -> (d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>

// The table [512, 128] at offset 0, a hidden linear [128, 128] at 65536,
// the head reading the table through a transpose generic: the hidden
// linear is a plain FP8 linear, the head a tied output head.
// CHECK-LABEL: func.func @tied_head
// CHECK: linalg.generic {{.*}}fp8.role = #fp8.role<embedding>
// CHECK: linalg.matmul {fp8.precision = #fp8.precision<fp8>, fp8.reason = "heuristic: contraction with a weight (function argument)", fp8.role = #fp8.role<linear>}
// CHECK: linalg.matmul {fp8.precision = #fp8.precision<bf16>, fp8.reason = "heuristic: linear with the embedding table as its weight (tied output head)", fp8.role = #fp8.role<output_head>}
func.func @tied_head(%ids: tensor<16xi64>, %params: tensor<81920xf32>) -> tensor<16x512xf32> {
  %tf = tensor.extract_slice %params[0] [65536] [1] : tensor<81920xf32> to tensor<65536xf32>
  %table = tensor.expand_shape %tf [[0, 1]] output_shape [512, 128] : tensor<65536xf32> into tensor<512x128xf32>
  %wf = tensor.extract_slice %params[65536] [16384] [1] : tensor<81920xf32> to tensor<16384xf32>
  %w = tensor.expand_shape %wf [[0, 1]] output_shape [128, 128] : tensor<16384xf32> into tensor<128x128xf32>
  %e = tensor.empty() : tensor<16x128xf32>
  %h = linalg.generic {indexing_maps = [#ids, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<16xi64>) outs(%e : tensor<16x128xf32>) {
  ^bb0(%i: i64, %o: f32):
    %row = arith.index_cast %i : i64 to index
    %col = linalg.index 1 : index
    %v = tensor.extract %table[%row, %col] : tensor<512x128xf32>
    linalg.yield %v : f32
  } -> tensor<16x128xf32>
  %c0 = arith.constant 0.0 : f32
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<16x128xf32>) -> tensor<16x128xf32>
  %ewt = tensor.empty() : tensor<128x128xf32>
  %wt = linalg.transpose ins(%w : tensor<128x128xf32>) outs(%ewt : tensor<128x128xf32>) permutation = [1, 0]
  %x = linalg.matmul ins(%h, %wt : tensor<16x128xf32>, tensor<128x128xf32>) outs(%z : tensor<16x128xf32>) -> tensor<16x128xf32>
  %et = tensor.empty() : tensor<128x512xf32>
  %tt = linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]}
      ins(%table : tensor<512x128xf32>) outs(%et : tensor<128x512xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<128x512xf32>
  %eo = tensor.empty() : tensor<16x512xf32>
  %zo = linalg.fill ins(%c0 : f32) outs(%eo : tensor<16x512xf32>) -> tensor<16x512xf32>
  %logits = linalg.matmul ins(%x, %tt : tensor<16x128xf32>, tensor<128x512xf32>) outs(%zo : tensor<16x512xf32>) -> tensor<16x512xf32>
  return %logits : tensor<16x512xf32>
}

// -----

#ids = affine_map<(d0, d1) -> (d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#mk = affine_map<(m, n, k) -> (m, k)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>

// The same elements through another view chain: the head's weight is rows
// [128, 640) of the buffer expanded to [640, 128] (a 2-D slice of a 2-D
// view), the table a 1-D slice at offset 16384 expanded; both read elements
// [16384, 81920) in the same order: tied. The hidden linear's weight (rows
// [0, 128)) is not.
// CHECK-LABEL: func.func @tied_head_other_view
// CHECK: linalg.matmul {{.*}}fp8.role = #fp8.role<linear>
// CHECK: linalg.matmul {{.*}}(tied output head)", fp8.role = #fp8.role<output_head>}
func.func @tied_head_other_view(%ids: tensor<16xi64>, %params: tensor<81920xf32>) -> tensor<16x512xf32> {
  %tf = tensor.extract_slice %params[16384] [65536] [1] : tensor<81920xf32> to tensor<65536xf32>
  %table = tensor.expand_shape %tf [[0, 1]] output_shape [512, 128] : tensor<65536xf32> into tensor<512x128xf32>
  %all = tensor.expand_shape %params [[0, 1]] output_shape [640, 128] : tensor<81920xf32> into tensor<640x128xf32>
  %head = tensor.extract_slice %all[128, 0] [512, 128] [1, 1] : tensor<640x128xf32> to tensor<512x128xf32>
  %w = tensor.extract_slice %all[0, 0] [128, 128] [1, 1] : tensor<640x128xf32> to tensor<128x128xf32>
  %e = tensor.empty() : tensor<16x128xf32>
  %h = linalg.generic {indexing_maps = [#ids, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<16xi64>) outs(%e : tensor<16x128xf32>) {
  ^bb0(%i: i64, %o: f32):
    %row = arith.index_cast %i : i64 to index
    %col = linalg.index 1 : index
    %v = tensor.extract %table[%row, %col] : tensor<512x128xf32>
    linalg.yield %v : f32
  } -> tensor<16x128xf32>
  %c0 = arith.constant 0.0 : f32
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<16x128xf32>) -> tensor<16x128xf32>
  %x = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%h, %w : tensor<16x128xf32>, tensor<128x128xf32>) outs(%z : tensor<16x128xf32>) -> tensor<16x128xf32>
  %eo = tensor.empty() : tensor<16x512xf32>
  %zo = linalg.fill ins(%c0 : f32) outs(%eo : tensor<16x512xf32>) -> tensor<16x512xf32>
  %logits = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%x, %head : tensor<16x128xf32>, tensor<512x128xf32>) outs(%zo : tensor<16x512xf32>) -> tensor<16x512xf32>
  return %logits : tensor<16x512xf32>
}

// -----

#ids = affine_map<(d0, d1) -> (d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#mk = affine_map<(m, n, k) -> (m, k)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>

// Untied: the head's weight is its own slice (offset 81920), and a second
// head-shaped slice shifted by one row (offset 128) overlaps the table but
// reads other elements: neither is tied. Both reach a result with N = 512
// rows of the table's vocabulary, so they are output heads by size, and
// the hidden linear is FP8.
// CHECK-LABEL: func.func @untied_heads
// CHECK: linalg.matmul {{.*}}fp8.role = #fp8.role<linear>
// CHECK: linalg.matmul {{.*}}fp8.reason = "heuristic: vocabulary-sized linear (N = 512) reaching a function result", fp8.role = #fp8.role<output_head>}
// CHECK: linalg.matmul {{.*}}fp8.reason = "heuristic: vocabulary-sized linear (N = 512) reaching a function result", fp8.role = #fp8.role<output_head>}
func.func @untied_heads(%ids: tensor<16xi64>, %params: tensor<147456xf32>) -> (tensor<16x512xf32>, tensor<16x512xf32>) {
  %tf = tensor.extract_slice %params[0] [65536] [1] : tensor<147456xf32> to tensor<65536xf32>
  %table = tensor.expand_shape %tf [[0, 1]] output_shape [512, 128] : tensor<65536xf32> into tensor<512x128xf32>
  %wf = tensor.extract_slice %params[65536] [16384] [1] : tensor<147456xf32> to tensor<16384xf32>
  %w = tensor.expand_shape %wf [[0, 1]] output_shape [128, 128] : tensor<16384xf32> into tensor<128x128xf32>
  %hf = tensor.extract_slice %params[81920] [65536] [1] : tensor<147456xf32> to tensor<65536xf32>
  %head = tensor.expand_shape %hf [[0, 1]] output_shape [512, 128] : tensor<65536xf32> into tensor<512x128xf32>
  %sf = tensor.extract_slice %params[128] [65536] [1] : tensor<147456xf32> to tensor<65536xf32>
  %shifted = tensor.expand_shape %sf [[0, 1]] output_shape [512, 128] : tensor<65536xf32> into tensor<512x128xf32>
  %e = tensor.empty() : tensor<16x128xf32>
  %h = linalg.generic {indexing_maps = [#ids, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<16xi64>) outs(%e : tensor<16x128xf32>) {
  ^bb0(%i: i64, %o: f32):
    %row = arith.index_cast %i : i64 to index
    %col = linalg.index 1 : index
    %v = tensor.extract %table[%row, %col] : tensor<512x128xf32>
    linalg.yield %v : f32
  } -> tensor<16x128xf32>
  %c0 = arith.constant 0.0 : f32
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<16x128xf32>) -> tensor<16x128xf32>
  %x = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%h, %w : tensor<16x128xf32>, tensor<128x128xf32>) outs(%z : tensor<16x128xf32>) -> tensor<16x128xf32>
  %eo = tensor.empty() : tensor<16x512xf32>
  %zo = linalg.fill ins(%c0 : f32) outs(%eo : tensor<16x512xf32>) -> tensor<16x512xf32>
  %l1 = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%x, %head : tensor<16x128xf32>, tensor<512x128xf32>) outs(%zo : tensor<16x512xf32>) -> tensor<16x512xf32>
  %l2 = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%x, %shifted : tensor<16x128xf32>, tensor<512x128xf32>) outs(%zo : tensor<16x512xf32>) -> tensor<16x512xf32>
  return %l1, %l2 : tensor<16x512xf32>, tensor<16x512xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#mk = affine_map<(m, n, k) -> (m, k)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>

// A split training step whose forward has a router (gating) linear on one
// slice of the buffer: the backward function's dgrad of another slice of
// the same buffer (same argument name and type) is not the router's
// gradient; a dgrad reading the router's own slice is.
// CHECK-LABEL: func.func @forward
// CHECK: linalg.matmul {{.*}}fp8.role = #fp8.role<gating>
// CHECK-LABEL: func.func @backward
// CHECK: linalg.matmul {fp8.gemm = #fp8.gemm<dgrad>, {{.*}}fp8.reason = "heuristic: activation gradient dX = dY * W of a linear (weight: function argument)", fp8.role = #fp8.role<linear>}
// CHECK: linalg.matmul {fp8.gemm = #fp8.gemm<dgrad>, {{.*}}fp8.reason = "heuristic: activation gradient of the gating linear of the same parameter (params) in another function", fp8.role = #fp8.role<gating>}
func.func @forward(%x: tensor<16x256xf32>, %params: tensor<34816xf32> loc("params")) -> tensor<16x8xf32> {
  %gf = tensor.extract_slice %params[0] [2048] [1] : tensor<34816xf32> to tensor<2048xf32>
  %g = tensor.expand_shape %gf [[0, 1]] output_shape [8, 256] : tensor<2048xf32> into tensor<8x256xf32>
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x8xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %s = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%x, %g : tensor<16x256xf32>, tensor<8x256xf32>) outs(%z : tensor<16x8xf32>) -> tensor<16x8xf32>
  %p = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) {
  ^bb0(%in: f32, %o: f32):
    %n = arith.negf %in : f32
    %ex = math.exp %n : f32
    linalg.yield %ex : f32
  } -> tensor<16x8xf32>
  return %p : tensor<16x8xf32>
}
func.func @backward(%x: tensor<16x256xf32>, %params: tensor<34816xf32> loc("params"), %dy: tensor<16x128xf32>, %ds: tensor<16x8xf32>) -> (tensor<16x256xf32>, tensor<128x256xf32>, tensor<16x256xf32>, tensor<8x256xf32>) {
  %wf = tensor.extract_slice %params[2048] [32768] [1] : tensor<34816xf32> to tensor<32768xf32>
  %w = tensor.expand_shape %wf [[0, 1]] output_shape [128, 256] : tensor<32768xf32> into tensor<128x256xf32>
  %gf = tensor.extract_slice %params[0] [2048] [1] : tensor<34816xf32> to tensor<2048xf32>
  %g = tensor.expand_shape %gf [[0, 1]] output_shape [8, 256] : tensor<2048xf32> into tensor<8x256xf32>
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x256xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<16x256xf32>) -> tensor<16x256xf32>
  %dx = linalg.matmul ins(%dy, %w : tensor<16x128xf32>, tensor<128x256xf32>) outs(%z : tensor<16x256xf32>) -> tensor<16x256xf32>
  %et = tensor.empty() : tensor<128x16xf32>
  %dyt = linalg.transpose ins(%dy : tensor<16x128xf32>) outs(%et : tensor<128x16xf32>) permutation = [1, 0]
  %ew = tensor.empty() : tensor<128x256xf32>
  %zw = linalg.fill ins(%c0 : f32) outs(%ew : tensor<128x256xf32>) -> tensor<128x256xf32>
  %dw = linalg.matmul ins(%dyt, %x : tensor<128x16xf32>, tensor<16x256xf32>) outs(%zw : tensor<128x256xf32>) -> tensor<128x256xf32>
  %dxg = linalg.matmul ins(%ds, %g : tensor<16x8xf32>, tensor<8x256xf32>) outs(%z : tensor<16x256xf32>) -> tensor<16x256xf32>
  %est = tensor.empty() : tensor<8x16xf32>
  %dst = linalg.transpose ins(%ds : tensor<16x8xf32>) outs(%est : tensor<8x16xf32>) permutation = [1, 0]
  %eg = tensor.empty() : tensor<8x256xf32>
  %zg = linalg.fill ins(%c0 : f32) outs(%eg : tensor<8x256xf32>) -> tensor<8x256xf32>
  %dg = linalg.matmul ins(%dst, %x : tensor<8x16xf32>, tensor<16x256xf32>) outs(%zg : tensor<8x256xf32>) -> tensor<8x256xf32>
  return %dx, %dw, %dxg, %dg : tensor<16x256xf32>, tensor<128x256xf32>, tensor<16x256xf32>, tensor<8x256xf32>
}

// -----

// Two frozen linears (no weight gradient) on two slices of the buffer, the
// second weight stored [K, N] (contracted along its leading dimension): not
// the activation gradient of the first, whose weight is another slice; no
// GEMM of the graph is a training GEMM.
// CHECK-LABEL: func.func @frozen_linears
// CHECK-NOT: fp8.gemm
// CHECK-COUNT-2: linalg.matmul {fp8.precision = #fp8.precision<fp8>, fp8.reason = "heuristic: contraction with a weight (function argument)", fp8.role = #fp8.role<linear>}
// CHECK-NOT: fp8.gemm
func.func @frozen_linears(%x: tensor<16x128xf32>, %params: tensor<49152xf32>) -> tensor<16x256xf32> {
  %af = tensor.extract_slice %params[0] [16384] [1] : tensor<49152xf32> to tensor<16384xf32>
  %a = tensor.expand_shape %af [[0, 1]] output_shape [128, 128] : tensor<16384xf32> into tensor<128x128xf32>
  %bf = tensor.extract_slice %params[16384] [32768] [1] : tensor<49152xf32> to tensor<32768xf32>
  %b = tensor.expand_shape %bf [[0, 1]] output_shape [128, 256] : tensor<32768xf32> into tensor<128x256xf32>
  %c0 = arith.constant 0.0 : f32
  %eat = tensor.empty() : tensor<128x128xf32>
  %at = linalg.transpose ins(%a : tensor<128x128xf32>) outs(%eat : tensor<128x128xf32>) permutation = [1, 0]
  %e = tensor.empty() : tensor<16x128xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<16x128xf32>) -> tensor<16x128xf32>
  %h = linalg.matmul ins(%x, %at : tensor<16x128xf32>, tensor<128x128xf32>) outs(%z : tensor<16x128xf32>) -> tensor<16x128xf32>
  %e2 = tensor.empty() : tensor<16x256xf32>
  %z2 = linalg.fill ins(%c0 : f32) outs(%e2 : tensor<16x256xf32>) -> tensor<16x256xf32>
  %y = linalg.matmul ins(%h, %b : tensor<16x128xf32>, tensor<128x256xf32>) outs(%z2 : tensor<16x256xf32>) -> tensor<16x256xf32>
  return %y : tensor<16x256xf32>
}
