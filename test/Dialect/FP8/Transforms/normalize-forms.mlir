// fp8-normalize-forms: the LLVM 22 linalg forms the role analysis does not
// read become the forms it does (linalg.generic for element-wise ops,
// linalg.matmul / batch_matmul between transposes and reshapes for
// contractions); the forms it already reads are left as they are.
// RUN: fp8-opt %s -split-input-file --fp8-normalize-forms -verify-diagnostics | FileCheck %s

// linalg.vecmat: one token [K] times a [K, N] weight is a [1, K] x [K, N]
// matmul; the fill is made again in the new shape.
// CHECK-LABEL: func.func @vecmat
// CHECK-SAME: (%[[X:.*]]: tensor<256xf32>, %[[W:.*]]: tensor<256x512xf32>)
// CHECK: %[[X2:.*]] = tensor.expand_shape %[[X]] {{\[\[}}0, 1]] output_shape [1, 256] : tensor<256xf32> into tensor<1x256xf32>
// CHECK: %[[F:.*]] = linalg.fill {{.*}} -> tensor<1x512xf32>
// CHECK: %[[Y:.*]] = linalg.matmul ins(%[[X2]], %[[W]] : tensor<1x256xf32>, tensor<256x512xf32>) outs(%[[F]] : tensor<1x512xf32>)
// CHECK: %[[R:.*]] = tensor.collapse_shape %[[Y]] {{\[\[}}0, 1]] : tensor<1x512xf32> into tensor<512xf32>
// CHECK: return %[[R]]
// CHECK-NOT: linalg.vecmat
func.func @vecmat(%x: tensor<256xf32>, %w: tensor<256x512xf32>) -> tensor<512xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<512xf32>) -> tensor<512xf32>
  %y = linalg.vecmat ins(%x, %w : tensor<256xf32>, tensor<256x512xf32>) outs(%f : tensor<512xf32>) -> tensor<512xf32>
  return %y : tensor<512xf32>
}

// -----

// linalg.matvec (decode's y = W x): the vector is the one-row token, the
// matrix the weight, kept NT [N, K] (no transpose of the weight).
// CHECK-DAG: #[[$MK:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[$NK:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[$MN:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @matvec
// CHECK-SAME: (%[[W:.*]]: tensor<512x256xf32>, %[[X:.*]]: tensor<256xf32>)
// CHECK-NOT: linalg.transpose
// CHECK: %[[X2:.*]] = tensor.expand_shape %[[X]] {{\[\[}}0, 1]] output_shape [1, 256]
// CHECK: %[[Y:.*]] = linalg.matmul indexing_maps = [#[[$MK]], #[[$NK]], #[[$MN]]] ins(%[[X2]], %[[W]] : tensor<1x256xf32>, tensor<512x256xf32>) outs(%{{.*}} : tensor<1x512xf32>)
// CHECK: tensor.collapse_shape %[[Y]] {{\[\[}}0, 1]] : tensor<1x512xf32> into tensor<512xf32>
func.func @matvec(%w: tensor<512x256xf32>, %x: tensor<256xf32>) -> tensor<512xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<512xf32>) -> tensor<512xf32>
  %y = linalg.matvec ins(%w, %x : tensor<512x256xf32>, tensor<256xf32>) outs(%f : tensor<512xf32>) -> tensor<512xf32>
  return %y : tensor<512xf32>
}

// -----

// A matrix-vector product over less than one quantization block of K is a
// dot product per row: kept, with a remark.
// CHECK-LABEL: func.func @matvec_small_k
// CHECK: linalg.matvec
func.func @matvec_small_k(%x: tensor<256x16xf32>, %w: tensor<16xf32>, %init: tensor<256xf32>) -> tensor<256xf32> {
  // expected-remark @+1 {{fp8-normalize-forms: linalg.matvec kept as it is: a matrix-vector product over K = 16 (less than one 128-element quantization block, or unknown) is a dot product per row, not a linear layer}}
  %y = linalg.matvec ins(%x, %w : tensor<256x16xf32>, tensor<16xf32>) outs(%init : tensor<256xf32>) -> tensor<256xf32>
  return %y : tensor<256xf32>
}

// -----

// linalg.batch_reduce_matmul: the reduced batch R joins K in the weight's
// order (R, K): the activation [R, M, K] is transposed to [M, R, K], the
// weight [R, K, N] only collapsed.
// CHECK-LABEL: func.func @batch_reduce
// CHECK-SAME: (%[[X:.*]]: tensor<4x64x256xf32>, %[[W:.*]]: tensor<4x256x512xf32>)
// CHECK: %[[XT:.*]] = linalg.transpose ins(%[[X]] : tensor<4x64x256xf32>) outs(%{{.*}} : tensor<64x4x256xf32>) permutation = [1, 0, 2]
// CHECK: %[[X2:.*]] = tensor.collapse_shape %[[XT]] {{\[\[}}0], [1, 2]] : tensor<64x4x256xf32> into tensor<64x1024xf32>
// CHECK: %[[W2:.*]] = tensor.collapse_shape %[[W]] {{\[\[}}0, 1], [2]] : tensor<4x256x512xf32> into tensor<1024x512xf32>
// CHECK: %[[Y:.*]] = linalg.matmul ins(%[[X2]], %[[W2]] : tensor<64x1024xf32>, tensor<1024x512xf32>)
// CHECK: return %[[Y]]
// CHECK-NOT: linalg.fill
func.func @batch_reduce(%x: tensor<4x64x256xf32>, %w: tensor<4x256x512xf32>) -> tensor<64x512xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x512xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64x512xf32>) -> tensor<64x512xf32>
  %y = linalg.batch_reduce_matmul ins(%x, %w : tensor<4x64x256xf32>, tensor<4x256x512xf32>) outs(%f : tensor<64x512xf32>) -> tensor<64x512xf32>
  return %y : tensor<64x512xf32>
}

// -----

// linalg.contract with the heads split in the weight (einsum
// bsh,hnd->bsnd, run-time batch): [B * S, H] x [H, N * D], viewed back.
// CHECK-LABEL: func.func @heads
// CHECK-SAME: (%[[X:.*]]: tensor<?x64x256xf32>, %[[W:.*]]: tensor<256x4x128xf32>)
// CHECK-DAG: %[[X2:.*]] = tensor.collapse_shape %[[X]] {{\[\[}}0, 1], [2]] : tensor<?x64x256xf32> into tensor<?x256xf32>
// CHECK-DAG: %[[W2:.*]] = tensor.collapse_shape %[[W]] {{\[\[}}0], [1, 2]] : tensor<256x4x128xf32> into tensor<256x512xf32>
// CHECK: %[[Y:.*]] = linalg.matmul ins(%[[X2]], %[[W2]] : tensor<?x256xf32>, tensor<256x512xf32>) outs(%{{.*}} : tensor<?x512xf32>)
// CHECK: %[[B:.*]] = tensor.dim
// CHECK: tensor.expand_shape %[[Y]] {{\[\[}}0, 1], [2, 3]] output_shape [%[[B]], 64, 4, 128] : tensor<?x512xf32> into tensor<?x64x4x128xf32>
func.func @heads(%x: tensor<?x64x256xf32>, %w: tensor<256x4x128xf32>) -> tensor<?x64x4x128xf32> {
  %c0 = arith.constant 0 : index
  %z = arith.constant 0.0 : f32
  %b = tensor.dim %x, %c0 : tensor<?x64x256xf32>
  %e = tensor.empty(%b) : tensor<?x64x4x128xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<?x64x4x128xf32>) -> tensor<?x64x4x128xf32>
  %y = linalg.contract indexing_maps = [affine_map<(b, s, n, d, h) -> (b, s, h)>, affine_map<(b, s, n, d, h) -> (h, n, d)>, affine_map<(b, s, n, d, h) -> (b, s, n, d)>]
      ins(%x, %w : tensor<?x64x256xf32>, tensor<256x4x128xf32>) outs(%f : tensor<?x64x4x128xf32>) -> tensor<?x64x4x128xf32>
  return %y : tensor<?x64x4x128xf32>
}

// -----

// A result stored [N, M] with a non-zero init: the init is transposed to
// [M, N], the result transposed back.
// CHECK-LABEL: func.func @result_nm
// CHECK-SAME: (%[[X:.*]]: tensor<64x256xf32>, %[[W:.*]]: tensor<256x512xf32>, %[[ACC:.*]]: tensor<512x64xf32>)
// CHECK: %[[AT:.*]] = linalg.transpose ins(%[[ACC]] : tensor<512x64xf32>) outs(%{{.*}} : tensor<64x512xf32>) permutation = [1, 0]
// CHECK: %[[Y:.*]] = linalg.matmul ins(%[[X]], %[[W]] : tensor<64x256xf32>, tensor<256x512xf32>) outs(%[[AT]] : tensor<64x512xf32>)
// CHECK: %[[R:.*]] = linalg.transpose ins(%[[Y]] : tensor<64x512xf32>) outs(%{{.*}} : tensor<512x64xf32>) permutation = [1, 0]
// CHECK: return %[[R]]
func.func @result_nm(%x: tensor<64x256xf32>, %w: tensor<256x512xf32>, %acc: tensor<512x64xf32>) -> tensor<512x64xf32> {
  %y = linalg.contract indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (n, m)>]
      ins(%x, %w : tensor<64x256xf32>, tensor<256x512xf32>) outs(%acc : tensor<512x64xf32>) -> tensor<512x64xf32>
  return %y : tensor<512x64xf32>
}

// -----

// linalg.batch_matmul with the activation stored [B, K, M] per batch:
// transposed to [B, M, K]; the weight stays NT.
// CHECK-DAG: #[[$A:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG: #[[$B:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
// CHECK-DAG: #[[$C:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @batch_a_k_first
// CHECK-SAME: (%[[X:.*]]: tensor<4x256x64xf32>, %[[W:.*]]: tensor<4x512x256xf32>)
// CHECK: %[[XT:.*]] = linalg.transpose ins(%[[X]] : tensor<4x256x64xf32>) outs(%{{.*}} : tensor<4x64x256xf32>) permutation = [0, 2, 1]
// CHECK: linalg.batch_matmul indexing_maps = [#[[$A]], #[[$B]], #[[$C]]] ins(%[[XT]], %[[W]] : tensor<4x64x256xf32>, tensor<4x512x256xf32>)
func.func @batch_a_k_first(%x: tensor<4x256x64xf32>, %w: tensor<4x512x256xf32>) -> tensor<4x64x512xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x64x512xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x64x512xf32>) -> tensor<4x64x512xf32>
  %y = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, k, m)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%x, %w : tensor<4x256x64xf32>, tensor<4x512x256xf32>) outs(%f : tensor<4x64x512xf32>) -> tensor<4x64x512xf32>
  return %y : tensor<4x64x512xf32>
}

// -----

// A contraction over the [B, S] tokens of two activations (a weight
// gradient X^T dY): both collapsed to [B * S, F], X kept K-major [K, M]
// (no transpose), as the role analysis reads a weight gradient.
// CHECK-DAG: #[[$KM:.*]] = affine_map<(d0, d1, d2) -> (d2, d0)>
// CHECK-DAG: #[[$KN:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-LABEL: func.func @over_tokens
// CHECK-NOT: linalg.transpose
// CHECK: %[[X2:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2]] : tensor<2x64x256xf32> into tensor<128x256xf32>
// CHECK: %[[D2:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2]] : tensor<2x64x512xf32> into tensor<128x512xf32>
// CHECK: linalg.matmul indexing_maps = [#[[$KM]], #[[$KN]], #{{.*}}] ins(%[[X2]], %[[D2]] : tensor<128x256xf32>, tensor<128x512xf32>) outs(%{{.*}} : tensor<256x512xf32>)
func.func @over_tokens(%x: tensor<2x64x256xf32>, %dy: tensor<2x64x512xf32>) -> tensor<256x512xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x512xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<256x512xf32>) -> tensor<256x512xf32>
  %y = linalg.contract indexing_maps = [affine_map<(m, n, b, s) -> (b, s, m)>, affine_map<(m, n, b, s) -> (b, s, n)>, affine_map<(m, n, b, s) -> (m, n)>]
      ins(%x, %dy : tensor<2x64x256xf32>, tensor<2x64x512xf32>) outs(%f : tensor<256x512xf32>) -> tensor<256x512xf32>
  return %y : tensor<256x512xf32>
}

// -----

// Forms the role analysis reads already are left as they are: linalg.contract
// with matmul maps (NN, NT, a [B, S, K] activation), linalg.batch_matmul
// with NT maps, linalg.matmul with a cast attribute or bf16 x bf16 -> f32,
// and integer contractions.
// CHECK-LABEL: func.func @known_forms
// CHECK-NOT: linalg.transpose
// CHECK-NOT: tensor.collapse_shape
// CHECK: linalg.contract
// CHECK: linalg.contract
// CHECK: linalg.contract
// CHECK: linalg.batch_matmul indexing_maps
// CHECK: linalg.matmul {cast = #linalg.type_fn<cast_unsigned>}
// CHECK: linalg.matmul ins({{.*}} : tensor<16x256xbf16>, tensor<256x512xbf16>) outs({{.*}} : tensor<16x512xf32>)
// CHECK: linalg.batch_reduce_matmul {{.*}} tensor<4x16x256xi8>
func.func @known_forms(%x: tensor<16x256xf32>, %w: tensor<256x512xf32>, %wt: tensor<512x256xf32>, %x3: tensor<2x8x256xf32>,
                       %xb: tensor<4x16x256xf32>, %wb: tensor<4x512x256xf32>, %xh: tensor<16x256xbf16>, %wh: tensor<256x512xbf16>,
                       %xi: tensor<4x16x256xi8>, %wi: tensor<4x256x512xi8>,
                       %i2: tensor<16x512xf32>, %i3: tensor<2x8x512xf32>, %ib: tensor<4x16x512xf32>, %ii: tensor<16x512xi32>)
    -> (tensor<16x512xf32>, tensor<16x512xf32>, tensor<2x8x512xf32>, tensor<4x16x512xf32>, tensor<16x512xf32>, tensor<16x512xf32>, tensor<16x512xi32>) {
  %a = linalg.contract indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : tensor<16x256xf32>, tensor<256x512xf32>) outs(%i2 : tensor<16x512xf32>) -> tensor<16x512xf32>
  %b = linalg.contract indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %wt : tensor<16x256xf32>, tensor<512x256xf32>) outs(%i2 : tensor<16x512xf32>) -> tensor<16x512xf32>
  %c = linalg.contract indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%x3, %wt : tensor<2x8x256xf32>, tensor<512x256xf32>) outs(%i3 : tensor<2x8x512xf32>) -> tensor<2x8x512xf32>
  %d = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%xb, %wb : tensor<4x16x256xf32>, tensor<4x512x256xf32>) outs(%ib : tensor<4x16x512xf32>) -> tensor<4x16x512xf32>
  %e = linalg.matmul {cast = #linalg.type_fn<cast_unsigned>} ins(%x, %w : tensor<16x256xf32>, tensor<256x512xf32>) outs(%i2 : tensor<16x512xf32>) -> tensor<16x512xf32>
  %f = linalg.matmul ins(%xh, %wh : tensor<16x256xbf16>, tensor<256x512xbf16>) outs(%i2 : tensor<16x512xf32>) -> tensor<16x512xf32>
  %g = linalg.batch_reduce_matmul ins(%xi, %wi : tensor<4x16x256xi8>, tensor<4x256x512xi8>) outs(%ii : tensor<16x512xi32>) -> tensor<16x512xi32>
  return %a, %b, %c, %d, %e, %f, %g : tensor<16x512xf32>, tensor<16x512xf32>, tensor<2x8x512xf32>, tensor<4x16x512xf32>, tensor<16x512xf32>, tensor<16x512xf32>, tensor<16x512xi32>
}

// -----

// Element-wise named ops become linalg.generic with the same body.
// CHECK-LABEL: func.func @elementwise
// CHECK-NOT: linalg.elementwise
// CHECK-NOT: linalg.add
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
// CHECK: math.rsqrt
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
// CHECK: arith.mulf
// CHECK: linalg.generic
// CHECK: arith.addf
func.func @elementwise(%x: tensor<16x256xf32>, %g: tensor<256xf32>) -> tensor<16x256xf32> {
  %e = tensor.empty() : tensor<16x256xf32>
  %r = linalg.elementwise kind=#linalg.elementwise_kind<rsqrt> ins(%x : tensor<16x256xf32>) outs(%e : tensor<16x256xf32>) -> tensor<16x256xf32>
  %m = linalg.elementwise kind=#linalg.elementwise_kind<mul> indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>]
      ins(%r, %g : tensor<16x256xf32>, tensor<256xf32>) outs(%e : tensor<16x256xf32>) -> tensor<16x256xf32>
  %a = linalg.add ins(%m, %x : tensor<16x256xf32>, tensor<16x256xf32>) outs(%e : tensor<16x256xf32>) -> tensor<16x256xf32>
  return %a : tensor<16x256xf32>
}

// -----

// A contraction-shaped generic over two K loops whose body is a matmul's
// (bf16 operands widened with arith.extf, mulf, addf) becomes a
// bf16 x bf16 -> f32 linalg.matmul; one whose body rounds each f32 product
// to bf16 is not a matmul's and stays.
// CHECK-LABEL: func.func @generic_forms
// CHECK-SAME: (%[[X:.*]]: tensor<16x2x128xbf16>, %[[W:.*]]: tensor<2x128x512xbf16>
// CHECK-DAG: %[[X2:.*]] = tensor.collapse_shape %[[X]] {{\[\[}}0], [1, 2]] : tensor<16x2x128xbf16> into tensor<16x256xbf16>
// CHECK-DAG: %[[W2:.*]] = tensor.collapse_shape %[[W]] {{\[\[}}0, 1], [2]] : tensor<2x128x512xbf16> into tensor<256x512xbf16>
// CHECK: linalg.matmul ins(%[[X2]], %[[W2]] : tensor<16x256xbf16>, tensor<256x512xbf16>) outs(%{{.*}} : tensor<16x512xf32>)
// CHECK: linalg.generic
// CHECK: arith.truncf
func.func @generic_forms(%x: tensor<16x2x128xbf16>, %w: tensor<2x128x512xbf16>, %xf: tensor<16x2x128xf32>, %wf: tensor<2x128x512xf32>) -> (tensor<16x512xf32>, tensor<16x512xf32>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x512xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x512xf32>) -> tensor<16x512xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(m, n, r, k) -> (m, r, k)>, affine_map<(m, n, r, k) -> (r, k, n)>, affine_map<(m, n, r, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %w : tensor<16x2x128xbf16>, tensor<2x128x512xbf16>) outs(%f : tensor<16x512xf32>) {
  ^bb0(%a: bf16, %b: bf16, %c: f32):
    %ae = arith.extf %a : bf16 to f32
    %be = arith.extf %b : bf16 to f32
    %m = arith.mulf %ae, %be : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  } -> tensor<16x512xf32>
  %n = linalg.generic {indexing_maps = [affine_map<(m, n, r, k) -> (m, r, k)>, affine_map<(m, n, r, k) -> (r, k, n)>, affine_map<(m, n, r, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%xf, %wf : tensor<16x2x128xf32>, tensor<2x128x512xf32>) outs(%f : tensor<16x512xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %t = arith.truncf %m : f32 to bf16
    %te = arith.extf %t : bf16 to f32
    %s = arith.addf %c, %te : f32
    linalg.yield %s : f32
  } -> tensor<16x512xf32>
  return %y, %n : tensor<16x512xf32>, tensor<16x512xf32>
}

// -----

// Contractions with a loop outside the matmul's groups stay as they are: a
// loop only the result indexes (a broadcast of the product) and a loop
// only one operand reduces.
// CHECK-LABEL: func.func @not_a_matmul
// CHECK-NOT: linalg.transpose
// CHECK-NOT: linalg.matmul
// CHECK: linalg.generic
// CHECK: linalg.generic
func.func @not_a_matmul(%x: tensor<16x256xf32>, %w: tensor<256x512xf32>, %i: tensor<4x16x512xf32>,
                        %x3: tensor<16x4x256xf32>, %i2: tensor<16x512xf32>) -> (tensor<4x16x512xf32>, tensor<16x512xf32>) {
  %y = linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (m, k)>, affine_map<(b, m, n, k) -> (k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<16x256xf32>, tensor<256x512xf32>) outs(%i : tensor<4x16x512xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x16x512xf32>
  %z = linalg.generic {indexing_maps = [affine_map<(m, n, r, k) -> (m, r, k)>, affine_map<(m, n, r, k) -> (k, n)>, affine_map<(m, n, r, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%x3, %w : tensor<16x4x256xf32>, tensor<256x512xf32>) outs(%i2 : tensor<16x512xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  } -> tensor<16x512xf32>
  return %y, %z : tensor<4x16x512xf32>, tensor<16x512xf32>
}
