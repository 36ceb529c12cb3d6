// The linear layers and element-wise ops in the forms LLVM 22's linalg and
// its users write, through fp8-pipeline (fp8-normalize-forms first): each
// linear becomes one FP8 GEMM (fp8.scaled_matmul, role linear), attention
// between two activations stays in BF16, element-wise ops keep their role
// (normalization, attention) and type. The values of these forms are
// checked in test/Integration/CPU/linalg22-forms.mlir.
// RUN: fp8-opt %s -split-input-file --fp8-pipeline=report=false | FileCheck %s
// RUN: fp8-opt %s -split-input-file --fp8-pipeline="policy=bf16 report=false" | FileCheck %s --check-prefix=BF16

// BF16-NOT: fp8.scaled_matmul
// BF16-NOT: fp8.quantize

// linalg.contract with matmul maps: NN (the [K, N] weight transposed to NT
// before its quantization) and NT (quantized as stored).
// CHECK-LABEL: func.func @contract_nn_nt
// CHECK-SAME: (%[[X:.*]]: tensor<16x256xf32>, %[[W:.*]]: tensor<256x512xf32>, %[[WT:.*]]: tensor<512x256xf32>)
// CHECK: linalg.transpose ins(%[[W]] : tensor<256x512xf32>) outs(%{{.*}} : tensor<512x256xf32>) permutation = [1, 0]
// CHECK: fp8.scaled_matmul {{.*}}fp8.role = #fp8.role<linear>{{.*}} -> tensor<16x512xf32>
// CHECK: %[[QW:.*]] = fp8.quantize %[[WT]] : tensor<512x256xf32> -> !fp8.scaled<512x256xf8E4M3FN, block = [128, 128]
// CHECK: fp8.scaled_matmul %{{.*}}, %[[QW]] {{.*}}fp8.role = #fp8.role<linear>{{.*}} -> tensor<16x512xf32>
// CHECK-NOT: linalg.contract
func.func @contract_nn_nt(%x: tensor<16x256xf32>, %w: tensor<256x512xf32>, %wt: tensor<512x256xf32>) -> (tensor<16x512xf32>, tensor<16x512xf32>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x512xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x512xf32>) -> tensor<16x512xf32>
  %a = linalg.contract indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : tensor<16x256xf32>, tensor<256x512xf32>) outs(%f : tensor<16x512xf32>) -> tensor<16x512xf32>
  %b = linalg.contract indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %wt : tensor<16x256xf32>, tensor<512x256xf32>) outs(%f : tensor<16x512xf32>) -> tensor<16x512xf32>
  return %a, %b : tensor<16x512xf32>, tensor<16x512xf32>
}

// -----

// torch-mlir's bmm against a weight broadcast over the batch, with the
// weight NT in the batch_matmul's maps: one GEMM over B * S tokens.
// CHECK-LABEL: func.func @batch_matmul_nt_maps
// CHECK: tensor.collapse_shape {{.*}} : tensor<4x16x256xf32> into tensor<64x256xf32>
// CHECK: fp8.quantize %{{.*}} : tensor<512x256xf32> -> !fp8.scaled<512x256xf8E4M3FN, block = [128, 128]
// CHECK: fp8.scaled_matmul {{.*}}fp8.role = #fp8.role<linear>{{.*}} -> tensor<64x512xf32>
// CHECK-NOT: linalg.batch_matmul
func.func @batch_matmul_nt_maps(%x: tensor<4x16x256xf32>, %w: tensor<512x256xf32>) -> tensor<4x16x512xf32> {
  %z = arith.constant 0.0 : f32
  %ew = tensor.empty() : tensor<4x512x256xf32>
  %wb = linalg.broadcast ins(%w : tensor<512x256xf32>) outs(%ew : tensor<4x512x256xf32>) dimensions = [0]
  %e = tensor.empty() : tensor<4x16x512xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x16x512xf32>) -> tensor<4x16x512xf32>
  %y = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%x, %wb : tensor<4x16x256xf32>, tensor<4x512x256xf32>) outs(%f : tensor<4x16x512xf32>) -> tensor<4x16x512xf32>
  return %y : tensor<4x16x512xf32>
}

// -----

// Decode shapes: linalg.vecmat (x [K] . W [K, N]) and linalg.matvec
// (W [N, K] . x [K]) are one-token linears; the matvec's weight is NT as
// stored.
// CHECK-LABEL: func.func @decode
// CHECK-SAME: (%[[X:.*]]: tensor<256xf32>, %[[W:.*]]: tensor<256x512xf32>, %[[WT:.*]]: tensor<512x256xf32>)
// CHECK: fp8.quantize %{{.*}} : tensor<1x256xf32> -> !fp8.scaled<1x256xf8E4M3FN, block = [1, 128]
// CHECK: fp8.scaled_matmul {{.*}}fp8.role = #fp8.role<linear>{{.*}} -> tensor<1x512xf32>
// CHECK: %[[QW:.*]] = fp8.quantize %[[WT]] : tensor<512x256xf32>
// CHECK: fp8.scaled_matmul %{{.*}}, %[[QW]] {{.*}}fp8.role = #fp8.role<linear>{{.*}} -> tensor<1x512xf32>
// CHECK-NOT: linalg.matvec
// CHECK-NOT: linalg.vecmat
func.func @decode(%x: tensor<256xf32>, %w: tensor<256x512xf32>, %wt: tensor<512x256xf32>) -> (tensor<512xf32>, tensor<512xf32>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<512xf32>) -> tensor<512xf32>
  %a = linalg.vecmat ins(%x, %w : tensor<256xf32>, tensor<256x512xf32>) outs(%f : tensor<512xf32>) -> tensor<512xf32>
  %b = linalg.matvec ins(%wt, %x : tensor<512x256xf32>, tensor<256xf32>) outs(%f : tensor<512xf32>) -> tensor<512xf32>
  return %a, %b : tensor<512xf32>, tensor<512xf32>
}

// -----

// linalg.batch_reduce_matmul over weight chunks: one GEMM with K = 4 * 256.
// CHECK-LABEL: func.func @batch_reduce
// CHECK: fp8.quantize %{{.*}} : tensor<16x1024xf32> -> !fp8.scaled<16x1024xf8E4M3FN, block = [1, 128]
// CHECK: fp8.scaled_matmul {{.*}}fp8.role = #fp8.role<linear>{{.*}} -> tensor<16x512xf32>
func.func @batch_reduce(%x: tensor<4x16x256xf32>, %w: tensor<4x256x512xf32>) -> tensor<16x512xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x512xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x512xf32>) -> tensor<16x512xf32>
  %y = linalg.batch_reduce_matmul ins(%x, %w : tensor<4x16x256xf32>, tensor<4x256x512xf32>) outs(%f : tensor<16x512xf32>) -> tensor<16x512xf32>
  return %y : tensor<16x512xf32>
}

// -----

// Mixed element types (bf16 x bf16 -> f32) and a cast attribute on
// linalg.matmul and linalg.contract: FP8 like any linear, the result type
// kept.
// CHECK-LABEL: func.func @mixed_types
// CHECK: fp8.quantize %{{.*}} : tensor<16x256xbf16>
// CHECK: fp8.scaled_matmul {{.*}}fp8.role = #fp8.role<linear>{{.*}} -> tensor<16x512xf32>
// CHECK: fp8.scaled_matmul {{.*}}fp8.role = #fp8.role<linear>{{.*}} -> tensor<16x512xf32>
func.func @mixed_types(%x: tensor<16x256xbf16>, %w: tensor<256x512xbf16>, %xf: tensor<16x256xf32>, %wf: tensor<256x512xf32>) -> (tensor<16x512xf32>, tensor<16x512xf32>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x512xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x512xf32>) -> tensor<16x512xf32>
  %a = linalg.contract indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : tensor<16x256xbf16>, tensor<256x512xbf16>) outs(%f : tensor<16x512xf32>) -> tensor<16x512xf32>
  %b = linalg.matmul {cast = #linalg.type_fn<cast_unsigned>} ins(%xf, %wf : tensor<16x256xf32>, tensor<256x512xf32>) outs(%f : tensor<16x512xf32>) -> tensor<16x512xf32>
  return %a, %b : tensor<16x512xf32>, tensor<16x512xf32>
}

// -----

// A block written with LLVM 22's ops: RMSNorm from linalg.elementwise and
// linalg.reduce (every op of it a normalization), Q/K/V projections with
// the heads split in the weight (linalg.contract, one N per head and
// dim), scores and P.V as linalg.contract over [S, H, D] heads (attention:
// two activations, BF16), softmax from linalg.elementwise (attention),
// the output projection and a residual add.
// CHECK-LABEL: func.func @block
// CHECK: linalg.generic {{.*}}fp8.role = #fp8.role<normalization>
// CHECK: math.rsqrt
// CHECK: linalg.generic {{.*}}fp8.role = #fp8.role<normalization>
// CHECK: linalg.generic {{.*}}fp8.role = #fp8.role<normalization>
// CHECK-COUNT-3: fp8.scaled_matmul {{.*}}fp8.role = #fp8.role<linear>{{.*}} -> tensor<64x256xf32>
// CHECK: arith.truncf {{.*}} : tensor<2x64x128xf32> to tensor<2x64x128xbf16>
// CHECK: arith.truncf {{.*}} : tensor<2x64x128xf32> to tensor<2x64x128xbf16>
// CHECK: linalg.batch_matmul indexing_maps = {{.*}} {fp8.precision = #fp8.precision<bf16>, fp8.reason = "heuristic: contraction of two activations", fp8.role = #fp8.role<attention>} ins({{.*}} : tensor<2x64x128xbf16>, tensor<2x64x128xbf16>)
// CHECK: linalg.generic {{.*}}fp8.role = #fp8.role<attention>
// CHECK: math.exp
// CHECK: linalg.batch_matmul {fp8.precision = #fp8.precision<bf16>, {{.*}}fp8.role = #fp8.role<attention>} ins({{.*}} : tensor<2x64x64xbf16>, tensor<2x64x128xbf16>)
// CHECK: fp8.scaled_matmul {{.*}}fp8.role = #fp8.role<linear>{{.*}} -> tensor<64x256xf32>
// CHECK: linalg.generic {{.*}}fp8.role = #fp8.role<other>
// CHECK: arith.addf
// CHECK-NOT: linalg.contract
// CHECK-NOT: linalg.elementwise
// BF16-LABEL: func.func @block
// BF16-COUNT-3: linalg.matmul {fp8.precision = #fp8.precision<bf16>, fp8.reason = "heuristic: contraction with a weight (function argument)", fp8.role = #fp8.role<linear>}
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row3 = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @block(%x: tensor<64x256xf32>, %g: tensor<256xf32>, %wq: tensor<256x2x128xf32>, %wk: tensor<256x2x128xf32>, %wv: tensor<256x2x128xf32>, %wo: tensor<256x256xf32>) -> tensor<64x256xf32> {
  %z = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e0 = tensor.empty() : tensor<64x256xf32>
  %sq = linalg.elementwise kind=#linalg.elementwise_kind<square> ins(%x : tensor<64x256xf32>) outs(%e0 : tensor<64x256xf32>) -> tensor<64x256xf32>
  %er = tensor.empty() : tensor<64xf32>
  %fr = linalg.fill ins(%z : f32) outs(%er : tensor<64xf32>) -> tensor<64xf32>
  %ss = linalg.reduce ins(%sq : tensor<64x256xf32>) outs(%fr : tensor<64xf32>) dimensions = [1]
    (%in: f32, %acc: f32) { %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32 }
  %rs = linalg.elementwise kind=#linalg.elementwise_kind<rsqrt> ins(%ss : tensor<64xf32>) outs(%er : tensor<64xf32>) -> tensor<64xf32>
  %xn = linalg.elementwise kind=#linalg.elementwise_kind<mul> indexing_maps = [#id, #row, #id] ins(%x, %rs : tensor<64x256xf32>, tensor<64xf32>) outs(%e0 : tensor<64x256xf32>) -> tensor<64x256xf32>
  %h = linalg.elementwise kind=#linalg.elementwise_kind<mul> indexing_maps = [#id, #col, #id] ins(%xn, %g : tensor<64x256xf32>, tensor<256xf32>) outs(%e0 : tensor<64x256xf32>) -> tensor<64x256xf32>
  %eh = tensor.empty() : tensor<64x2x128xf32>
  %fh = linalg.fill ins(%z : f32) outs(%eh : tensor<64x2x128xf32>) -> tensor<64x2x128xf32>
  %q = linalg.contract indexing_maps = [affine_map<(s, h, d, k) -> (s, k)>, affine_map<(s, h, d, k) -> (k, h, d)>, affine_map<(s, h, d, k) -> (s, h, d)>] ins(%h, %wq : tensor<64x256xf32>, tensor<256x2x128xf32>) outs(%fh : tensor<64x2x128xf32>) -> tensor<64x2x128xf32>
  %k = linalg.contract indexing_maps = [affine_map<(s, h, d, k) -> (s, k)>, affine_map<(s, h, d, k) -> (k, h, d)>, affine_map<(s, h, d, k) -> (s, h, d)>] ins(%h, %wk : tensor<64x256xf32>, tensor<256x2x128xf32>) outs(%fh : tensor<64x2x128xf32>) -> tensor<64x2x128xf32>
  %v = linalg.contract indexing_maps = [affine_map<(s, h, d, k) -> (s, k)>, affine_map<(s, h, d, k) -> (k, h, d)>, affine_map<(s, h, d, k) -> (s, h, d)>] ins(%h, %wv : tensor<64x256xf32>, tensor<256x2x128xf32>) outs(%fh : tensor<64x2x128xf32>) -> tensor<64x2x128xf32>
  %es = tensor.empty() : tensor<2x64x64xf32>
  %fs = linalg.fill ins(%z : f32) outs(%es : tensor<2x64x64xf32>) -> tensor<2x64x64xf32>
  %s = linalg.contract indexing_maps = [affine_map<(h, i, j, d) -> (i, h, d)>, affine_map<(h, i, j, d) -> (j, h, d)>, affine_map<(h, i, j, d) -> (h, i, j)>] ins(%q, %k : tensor<64x2x128xf32>, tensor<64x2x128xf32>) outs(%fs : tensor<2x64x64xf32>) -> tensor<2x64x64xf32>
  %em = tensor.empty() : tensor<2x64xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%em : tensor<2x64xf32>) -> tensor<2x64xf32>
  %mx = linalg.reduce ins(%s : tensor<2x64x64xf32>) outs(%fm : tensor<2x64xf32>) dimensions = [2]
    (%in: f32, %acc: f32) { %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32 }
  %sub = linalg.elementwise kind=#linalg.elementwise_kind<sub> indexing_maps = [#id3, #row3, #id3] ins(%s, %mx : tensor<2x64x64xf32>, tensor<2x64xf32>) outs(%es : tensor<2x64x64xf32>) -> tensor<2x64x64xf32>
  %ex = linalg.elementwise kind=#linalg.elementwise_kind<exp> ins(%sub : tensor<2x64x64xf32>) outs(%es : tensor<2x64x64xf32>) -> tensor<2x64x64xf32>
  %fsum = linalg.fill ins(%z : f32) outs(%em : tensor<2x64xf32>) -> tensor<2x64xf32>
  %sm = linalg.reduce ins(%ex : tensor<2x64x64xf32>) outs(%fsum : tensor<2x64xf32>) dimensions = [2]
    (%in: f32, %acc: f32) { %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32 }
  %p = linalg.elementwise kind=#linalg.elementwise_kind<div> indexing_maps = [#id3, #row3, #id3] ins(%ex, %sm : tensor<2x64x64xf32>, tensor<2x64xf32>) outs(%es : tensor<2x64x64xf32>) -> tensor<2x64x64xf32>
  %o = linalg.contract indexing_maps = [affine_map<(h, i, d, j) -> (h, i, j)>, affine_map<(h, i, d, j) -> (j, h, d)>, affine_map<(h, i, d, j) -> (i, h, d)>] ins(%p, %v : tensor<2x64x64xf32>, tensor<64x2x128xf32>) outs(%fh : tensor<64x2x128xf32>) -> tensor<64x2x128xf32>
  %o2 = tensor.collapse_shape %o [[0], [1, 2]] : tensor<64x2x128xf32> into tensor<64x256xf32>
  %ep = tensor.empty() : tensor<64x256xf32>
  %fp = linalg.fill ins(%z : f32) outs(%ep : tensor<64x256xf32>) -> tensor<64x256xf32>
  %a = linalg.contract indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>] ins(%o2, %wo : tensor<64x256xf32>, tensor<256x256xf32>) outs(%fp : tensor<64x256xf32>) -> tensor<64x256xf32>
  %r = linalg.elementwise kind=#linalg.elementwise_kind<add> ins(%x, %a : tensor<64x256xf32>, tensor<64x256xf32>) outs(%e0 : tensor<64x256xf32>) -> tensor<64x256xf32>
  return %r : tensor<64x256xf32>
}

// -----

// Attention scores written as an NT linalg.contract and an NT
// linalg.matmul (q . k^T, both activations), kept in bf16, get their f32
// operands cast to bf16 and keep their maps (before, only ops without
// maps were cast, the others computed in f32 under a bf16 decision).
// CHECK-LABEL: func.func @scores_nt
// CHECK: %[[Q:.*]] = arith.truncf %{{.*}} : tensor<64x128xf32> to tensor<64x128xbf16>
// CHECK: %[[K:.*]] = arith.truncf %{{.*}} : tensor<64x128xf32> to tensor<64x128xbf16>
// CHECK: linalg.contract indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}] {fp8.precision = #fp8.precision<bf16>, {{.*}}fp8.role = #fp8.role<attention>} ins(%[[Q]], %[[K]] : tensor<64x128xbf16>, tensor<64x128xbf16>) outs(%{{.*}} : tensor<64x64xf32>)
// CHECK: linalg.matmul indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}] {fp8.precision = #fp8.precision<bf16>, {{.*}}fp8.role = #fp8.role<attention>} ins(%{{.*}}, %{{.*}} : tensor<64x128xbf16>, tensor<64x128xbf16>) outs(%{{.*}} : tensor<64x64xf32>)
func.func @scores_nt(%x: tensor<64x256xf32>, %wq: tensor<256x128xf32>, %wk: tensor<256x128xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x128xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64x128xf32>) -> tensor<64x128xf32>
  %q = linalg.matmul ins(%x, %wq : tensor<64x256xf32>, tensor<256x128xf32>) outs(%f : tensor<64x128xf32>) -> tensor<64x128xf32>
  %k = linalg.matmul ins(%x, %wk : tensor<64x256xf32>, tensor<256x128xf32>) outs(%f : tensor<64x128xf32>) -> tensor<64x128xf32>
  %es = tensor.empty() : tensor<64x64xf32>
  %fs = linalg.fill ins(%z : f32) outs(%es : tensor<64x64xf32>) -> tensor<64x64xf32>
  %s1 = linalg.contract indexing_maps = [affine_map<(i, j, d) -> (i, d)>, affine_map<(i, j, d) -> (j, d)>, affine_map<(i, j, d) -> (i, j)>]
      ins(%q, %k : tensor<64x128xf32>, tensor<64x128xf32>) outs(%fs : tensor<64x64xf32>) -> tensor<64x64xf32>
  %s2 = linalg.matmul indexing_maps = [affine_map<(i, j, d) -> (i, d)>, affine_map<(i, j, d) -> (j, d)>, affine_map<(i, j, d) -> (i, j)>]
      ins(%q, %k : tensor<64x128xf32>, tensor<64x128xf32>) outs(%fs : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %s1, %s2 : tensor<64x64xf32>, tensor<64x64xf32>
}
