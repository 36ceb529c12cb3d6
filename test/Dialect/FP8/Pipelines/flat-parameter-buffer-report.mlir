// RUN: fp8-opt %s -split-input-file --fp8-pipeline="policy=hybrid" -o /dev/null 2>/dev/null | FileCheck %s

// Flat parameter buffers (every parameter a slice of one `tensor<Nxf32>`)
// through the whole graph pipeline, checked on its report: which GEMMs run
// in FP8, their roles and training kinds, and the FLOPs (2 * M * N * K,
// computed by hand below). Two views are one weight only when they read the
// same elements (docs/design.md, weight identity); these graphs have no
// tied weight, so every linear must be FP8. The assign-precision
// counterpart is Transforms/flat-parameter-buffer.mlir.

#ids = affine_map<(d0, d1) -> (d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>

// An embedding table [256, 64] at offset 0 and a linear weight of the same
// shape at offset 16384: same sizes and strides, other elements. The
// linear (16x64x256: 2 * 16 * 64 * 256 = 524288 FLOP) is FP8, not a tied
// output head.
// CHECK-LABEL: fp8-report: policy hybrid
// CHECK: Matmuls
// CHECK-NEXT: #
// CHECK-NEXT: 1 fp8.scaled_matmul {{.*}} linear fp8 16x64x256 524288 FLOP heuristic: contraction with a weight (function argument)
// CHECK-EMPTY:
// CHECK: in FP8: 524288 FLOP (100.0%)
func.func @equal_sized_slices(%ids: tensor<16xi64>, %x: tensor<16x256xf32>, %params: tensor<32768xf32>) -> tensor<16x64xf32> {
  %tf = tensor.extract_slice %params[0] [16384] [1] : tensor<32768xf32> to tensor<16384xf32>
  %table = tensor.expand_shape %tf [[0, 1]] output_shape [256, 64] : tensor<16384xf32> into tensor<256x64xf32>
  %wf = tensor.extract_slice %params[16384] [16384] [1] : tensor<32768xf32> to tensor<16384xf32>
  %w = tensor.expand_shape %wf [[0, 1]] output_shape [256, 64] : tensor<16384xf32> into tensor<256x64xf32>
  %e = tensor.empty() : tensor<16x64xf32>
  %h = linalg.generic {indexing_maps = [#ids, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<16xi64>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%i: i64, %o: f32):
    %row = arith.index_cast %i : i64 to index
    %col = linalg.index 1 : index
    %v = tensor.extract %table[%row, %col] : tensor<256x64xf32>
    linalg.yield %v : f32
  } -> tensor<16x64xf32>
  %c0 = arith.constant 0.0 : f32
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %y = linalg.matmul ins(%x, %w : tensor<16x256xf32>, tensor<256x64xf32>) outs(%z : tensor<16x64xf32>) -> tensor<16x64xf32>
  %r = linalg.add ins(%h, %y : tensor<16x64xf32>, tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}

// -----

#ids = affine_map<(d0, d1) -> (d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>

// The table [256, 128] a 1-D slice at element 384; the linear's weight
// rows [384, 640) of the buffer viewed as [640, 128], i.e. elements
// [49152, 81920): a row offset is 384 * 128 elements, not 384. Disjoint
// from the table: FP8 (16x128x256: 2 * 16 * 128 * 256 = 1048576 FLOP,
// printed 1.05 MFLOP).
// CHECK-LABEL: fp8-report: policy hybrid
// CHECK: Matmuls
// CHECK-NEXT: #
// CHECK-NEXT: 1 fp8.scaled_matmul {{.*}} linear fp8 16x128x256 1.05 MFLOP heuristic: contraction with a weight (function argument)
// CHECK-EMPTY:
// CHECK: in FP8: 1.05 MFLOP (100.0%)
func.func @row_offset_slice(%ids: tensor<16xi64>, %x: tensor<16x256xf32>, %params: tensor<81920xf32>) -> tensor<16x128xf32> {
  %tf = tensor.extract_slice %params[384] [32768] [1] : tensor<81920xf32> to tensor<32768xf32>
  %table = tensor.expand_shape %tf [[0, 1]] output_shape [256, 128] : tensor<32768xf32> into tensor<256x128xf32>
  %all = tensor.expand_shape %params [[0, 1]] output_shape [640, 128] : tensor<81920xf32> into tensor<640x128xf32>
  %w = tensor.extract_slice %all[384, 0] [256, 128] [1, 1] : tensor<640x128xf32> to tensor<256x128xf32>
  %e = tensor.empty() : tensor<16x128xf32>
  %h = linalg.generic {indexing_maps = [#ids, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<16xi64>) outs(%e : tensor<16x128xf32>) {
  ^bb0(%i: i64, %o: f32):
    %row = arith.index_cast %i : i64 to index
    %col = linalg.index 1 : index
    %v = tensor.extract %table[%row, %col] : tensor<256x128xf32>
    linalg.yield %v : f32
  } -> tensor<16x128xf32>
  %c0 = arith.constant 0.0 : f32
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<16x128xf32>) -> tensor<16x128xf32>
  %y = linalg.matmul ins(%x, %w : tensor<16x256xf32>, tensor<256x128xf32>) outs(%z : tensor<16x128xf32>) -> tensor<16x128xf32>
  %r = linalg.add ins(%h, %y : tensor<16x128xf32>, tensor<16x128xf32>) outs(%e : tensor<16x128xf32>) -> tensor<16x128xf32>
  return %r : tensor<16x128xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#mk = affine_map<(m, n, k) -> (m, k)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>

// A split step: the forward's router reads elements [0, 1024) of `params`
// ([8, 128]); the backward's dgrad reads another slice of the same
// argument (elements [1024, 9216), [64, 128]): a plain linear's dgrad in
// FP8 (16x128x64: 2 * 16 * 128 * 64 = 262144 FLOP), not the router's.
// CHECK-LABEL: fp8-report: policy hybrid
// CHECK: Matmuls
// CHECK-NEXT: #
// CHECK-NEXT: 1 linalg.matmul {{.*}} gating/fprop bf16 16x8x128 32768 FLOP
// CHECK-NEXT: 2 fp8.scaled_matmul {{.*}} linear/dgrad fp8 16x128x64 262144 FLOP heuristic: activation gradient dX = dY * W of a linear (weight: function argument)
// CHECK-NEXT: 3 fp8.scaled_matmul {{.*}} linear/wgrad fp8 64x128x16 262144 FLOP
// CHECK-EMPTY:
// CHECK: in FP8: 524288 FLOP (94.1%)
func.func @router_forward(%x: tensor<16x128xf32>, %params: tensor<9216xf32> loc("params")) -> tensor<16x8xf32> {
  %gf = tensor.extract_slice %params[0] [1024] [1] : tensor<9216xf32> to tensor<1024xf32>
  %g = tensor.expand_shape %gf [[0, 1]] output_shape [8, 128] : tensor<1024xf32> into tensor<8x128xf32>
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x8xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %s = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%x, %g : tensor<16x128xf32>, tensor<8x128xf32>) outs(%z : tensor<16x8xf32>) -> tensor<16x8xf32>
  %p = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) {
  ^bb0(%in: f32, %o: f32):
    %n = arith.negf %in : f32
    %ex = math.exp %n : f32
    linalg.yield %ex : f32
  } -> tensor<16x8xf32>
  return %p : tensor<16x8xf32>
}
func.func @linear_backward(%x: tensor<16x128xf32>, %params: tensor<9216xf32> loc("params"), %dy: tensor<16x64xf32>) -> (tensor<16x128xf32>, tensor<64x128xf32>) {
  %wf = tensor.extract_slice %params[1024] [8192] [1] : tensor<9216xf32> to tensor<8192xf32>
  %w = tensor.expand_shape %wf [[0, 1]] output_shape [64, 128] : tensor<8192xf32> into tensor<64x128xf32>
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x128xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<16x128xf32>) -> tensor<16x128xf32>
  %dx = linalg.matmul ins(%dy, %w : tensor<16x64xf32>, tensor<64x128xf32>) outs(%z : tensor<16x128xf32>) -> tensor<16x128xf32>
  %et = tensor.empty() : tensor<64x16xf32>
  %dyt = linalg.transpose ins(%dy : tensor<16x64xf32>) outs(%et : tensor<64x16xf32>) permutation = [1, 0]
  %ew = tensor.empty() : tensor<64x128xf32>
  %zw = linalg.fill ins(%c0 : f32) outs(%ew : tensor<64x128xf32>) -> tensor<64x128xf32>
  %dw = linalg.matmul ins(%dyt, %x : tensor<64x16xf32>, tensor<16x128xf32>) outs(%zw : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %dx, %dw : tensor<16x128xf32>, tensor<64x128xf32>
}

// -----

// Two frozen linears on two slices: [64, 128] contracted along its second
// dimension, then [64, 32] stored [K, N] (contracted along its first). Not
// an fprop and its dgrad (other elements of the buffer): plain FP8 linears
// with no training kind (2 * 16 * 64 * 128 = 262144 and
// 2 * 16 * 32 * 64 = 65536 FLOP).
// CHECK-LABEL: fp8-report: policy hybrid
// CHECK: Matmuls
// CHECK-NEXT: #
// CHECK-NEXT: 1 fp8.scaled_matmul {{.*}} linear fp8 16x64x128 262144 FLOP heuristic: contraction with a weight (function argument)
// CHECK-NEXT: 2 fp8.scaled_matmul {{.*}} linear fp8 16x32x64 65536 FLOP heuristic: contraction with a weight (function argument)
// CHECK-EMPTY:
// CHECK: in FP8: 327680 FLOP (100.0%)
// CHECK-NOT: Training
func.func @frozen_slices(%x: tensor<16x128xf32>, %params: tensor<10240xf32>) -> tensor<16x32xf32> {
  %af = tensor.extract_slice %params[0] [8192] [1] : tensor<10240xf32> to tensor<8192xf32>
  %a = tensor.expand_shape %af [[0, 1]] output_shape [64, 128] : tensor<8192xf32> into tensor<64x128xf32>
  %bf = tensor.extract_slice %params[8192] [2048] [1] : tensor<10240xf32> to tensor<2048xf32>
  %b = tensor.expand_shape %bf [[0, 1]] output_shape [64, 32] : tensor<2048xf32> into tensor<64x32xf32>
  %c0 = arith.constant 0.0 : f32
  %eat = tensor.empty() : tensor<128x64xf32>
  %at = linalg.transpose ins(%a : tensor<64x128xf32>) outs(%eat : tensor<128x64xf32>) permutation = [1, 0]
  %e = tensor.empty() : tensor<16x64xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %h = linalg.matmul ins(%x, %at : tensor<16x128xf32>, tensor<128x64xf32>) outs(%z : tensor<16x64xf32>) -> tensor<16x64xf32>
  %e2 = tensor.empty() : tensor<16x32xf32>
  %z2 = linalg.fill ins(%c0 : f32) outs(%e2 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %y = linalg.matmul ins(%h, %b : tensor<16x64xf32>, tensor<64x32xf32>) outs(%z2 : tensor<16x32xf32>) -> tensor<16x32xf32>
  return %y : tensor<16x32xf32>
}
