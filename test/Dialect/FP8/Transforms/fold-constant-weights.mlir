// RUN: fp8-opt %s -split-input-file -fp8-fold-constant-weights -canonicalize | FileCheck %s

// Constant weights are quantized at compile time. Expected values derived by
// hand from the numerics contract (docs/design.md §1):
//  row 0 [448, 224, 1, -448]: amax 448, s = 448/448 = 1; codes are the
//    values: 448 = 0x7E, 224 = 1.75*2^7, 1, -448.
//  row 1 [0.5, 0.25, 0, 0]: amax 0.5, s = 0.5/448 = 1.11607148e-3 (f32);
//    0.5/s = 448, 0.25/s = 224.
//  pow2: s = the smallest power of two >= 0.5/448 = 2^-9 = 0.001953125;
//    0.5/s = 256, 0.25/s = 128.
// CHECK-LABEL: func.func @dense
// CHECK-DAG: %[[D:.*]] = arith.constant dense<{{\[\[}}4.480000e+02, 2.240000e+02, 1.000000e+00, -4.480000e+02], [4.480000e+02, 2.240000e+02, 0.000000e+00, 0.000000e+00]]> : tensor<2x4xf8E4M3FN>
// CHECK-DAG: %[[S:.*]] = arith.constant dense<{{\[\[}}1.000000e+00], [0.00111607148]]> : tensor<2x1xf32>
// CHECK-DAG: %[[DP:.*]] = arith.constant dense<{{\[\[}}4.480000e+02, 2.240000e+02, 1.000000e+00, -4.480000e+02], [2.560000e+02, 1.280000e+02, 0.000000e+00, 0.000000e+00]]> : tensor<2x4xf8E4M3FN>
// CHECK-DAG: %[[SP:.*]] = arith.constant dense<{{\[\[}}1.000000e+00], [0.001953125]]> : tensor<2x1xf32>
// CHECK-DAG: %[[Q:.*]] = fp8.assemble %[[D]], %[[S]] : tensor<2x4xf8E4M3FN>, tensor<2x1xf32> -> !fp8.scaled<2x4xf8E4M3FN, block = [1, 4], scale = f32>
// CHECK-DAG: %[[P:.*]] = fp8.assemble %[[DP]], %[[SP]]
// CHECK-NOT: fp8.quantize
// CHECK: return %[[Q]], %[[P]]
func.func @dense() -> (!fp8.scaled<2x4xf8E4M3FN, block = [1, 4], scale = f32>, !fp8.scaled<2x4xf8E4M3FN, block = [1, 4], scale = f32>) {
  %c = arith.constant dense<[[448.0, 224.0, 1.0, -448.0], [0.5, 0.25, 0.0, 0.0]]> : tensor<2x4xf32>
  %q = fp8.quantize %c : tensor<2x4xf32> -> !fp8.scaled<2x4xf8E4M3FN, block = [1, 4], scale = f32>
  %p = fp8.quantize %c {scale_mode = #fp8.scale_mode<pow2>} : tensor<2x4xf32> -> !fp8.scaled<2x4xf8E4M3FN, block = [1, 4], scale = f32>
  return %q, %p : !fp8.scaled<2x4xf8E4M3FN, block = [1, 4], scale = f32>, !fp8.scaled<2x4xf8E4M3FN, block = [1, 4], scale = f32>
}

// -----

// A splat weight (exported graphs with elided weights) folds to splats of
// any size: every 128x128 block has amax 3, s = 3/448, code 448.
// All-zero blocks (case 6): amax clamps to eps (1e-4 as f32 =
// 9.99999974e-5), s = eps/448 = 2.23214286e-7 in f32, finite and > 0,
// codes 0.
// CHECK-LABEL: func.func @splat_and_zero
// CHECK-DAG: arith.constant dense<4.480000e+02> : tensor<256x384xf8E4M3FN>
// CHECK-DAG: arith.constant dense<0.00669642864> : tensor<2x3xf32>
// CHECK-DAG: arith.constant dense<0.000000e+00> : tensor<2x256xf8E4M3FN>
// CHECK-DAG: arith.constant dense<2.23214286E-7> : tensor<2x2xf32>
func.func @splat_and_zero() -> (!fp8.scaled<256x384xf8E4M3FN, block = [128, 128], scale = f32>, !fp8.scaled<2x256xf8E4M3FN, block = [1, 128], scale = f32>) {
  %s = arith.constant dense<3.0> : tensor<256x384xf32>
  %qs = fp8.quantize %s : tensor<256x384xf32> -> !fp8.scaled<256x384xf8E4M3FN, block = [128, 128], scale = f32>
  %z = arith.constant dense<0.0> : tensor<2x256xbf16>
  %qz = fp8.quantize %z : tensor<2x256xbf16> -> !fp8.scaled<2x256xf8E4M3FN, block = [1, 128], scale = f32>
  return %qs, %qz : !fp8.scaled<256x384xf8E4M3FN, block = [128, 128], scale = f32>, !fp8.scaled<2x256xf8E4M3FN, block = [1, 128], scale = f32>
}

// -----

// A splat weight behind a transpose (how fp8-insert-quant makes a [K, N]
// weight NT) is still a splat: folded.
// CHECK-LABEL: func.func @splat_transposed
// CHECK: arith.constant dense<4.480000e+02> : tensor<512x256xf8E4M3FN>
// CHECK-NOT: linalg.transpose
// CHECK-NOT: fp8.quantize
func.func @splat_transposed() -> !fp8.scaled<512x256xf8E4M3FN, block = [128, 128], scale = f32> {
  %w = arith.constant dense<1.5> : tensor<256x512xf32>
  %e = tensor.empty() : tensor<512x256xf32>
  %t = linalg.transpose ins(%w : tensor<256x512xf32>) outs(%e : tensor<512x256xf32>) permutation = [1, 0]
  %q = fp8.quantize %t : tensor<512x256xf32> -> !fp8.scaled<512x256xf8E4M3FN, block = [128, 128], scale = f32>
  return %q : !fp8.scaled<512x256xf8E4M3FN, block = [128, 128], scale = f32>
}

// -----

// NaN in a block (case 8): amax is NaN, so the scale is 1 and the NaN
// element stays NaN (0x7F); the other block [2, 2] is unaffected (amax 2,
// s = 2/448, codes 448).
// CHECK-LABEL: func.func @nan_block
// CHECK-DAG: arith.constant dense<{{\[\[}}0x7F, 1.000000e+00, 4.480000e+02, 4.480000e+02]]> : tensor<1x4xf8E4M3FN>
// CHECK-DAG: arith.constant dense<{{\[\[}}1.000000e+00, 0.00446428591]]> : tensor<1x2xf32>
func.func @nan_block() -> !fp8.scaled<1x4xf8E4M3FN, block = [1, 2], scale = f32> {
  %c = arith.constant dense<[[0x7FC00000, 1.0, 2.0, 2.0]]> : tensor<1x4xf32>
  %q = fp8.quantize %c : tensor<1x4xf32> -> !fp8.scaled<1x4xf8E4M3FN, block = [1, 2], scale = f32>
  return %q : !fp8.scaled<1x4xf8E4M3FN, block = [1, 2], scale = f32>
}

// -----

// dense_resource (an elided blob) cannot be read: left as it is.
// CHECK-LABEL: func.func @resource
// CHECK: fp8.quantize
func.func @resource() -> !fp8.scaled<2x128xf8E4M3FN, block = [1, 128], scale = f32> {
  %c = arith.constant dense_resource<__elided__> : tensor<2x128xf32>
  %q = fp8.quantize %c : tensor<2x128xf32> -> !fp8.scaled<2x128xf8E4M3FN, block = [1, 128], scale = f32>
  return %q : !fp8.scaled<2x128xf8E4M3FN, block = [1, 128], scale = f32>
}

// -----

// One quantization per value: Q/K/V projections of one input share it
// after CSE (fp8-insert-quant emits identical ops).
// RUN: fp8-opt %s -split-input-file -fp8-insert-quant -cse | FileCheck %s --check-prefix=SHARE
// SHARE-LABEL: func.func @shared
// SHARE-COUNT-1: fp8.quantize %arg0
// SHARE-NOT: fp8.quantize %arg0
// SHARE-COUNT-3: fp8.scaled_matmul
func.func @shared(%x: tensor<16x256xf32>, %wq: tensor<256x256xf32>, %wk: tensor<256x256xf32>, %wv: tensor<256x256xf32>, %c: tensor<16x256xf32>) -> (tensor<16x256xf32>, tensor<16x256xf32>, tensor<16x256xf32>) {
  %q = linalg.matmul {fp8.precision = #fp8.precision<fp8>} ins(%x, %wq : tensor<16x256xf32>, tensor<256x256xf32>) outs(%c : tensor<16x256xf32>) -> tensor<16x256xf32>
  %k = linalg.matmul {fp8.precision = #fp8.precision<fp8>} ins(%x, %wk : tensor<16x256xf32>, tensor<256x256xf32>) outs(%c : tensor<16x256xf32>) -> tensor<16x256xf32>
  %v = linalg.matmul {fp8.precision = #fp8.precision<fp8>} ins(%x, %wv : tensor<16x256xf32>, tensor<256x256xf32>) outs(%c : tensor<16x256xf32>) -> tensor<16x256xf32>
  return %q, %k, %v : tensor<16x256xf32>, tensor<16x256xf32>, tensor<16x256xf32>
}

// -----

// A dense weight stored [K, N] and transposed to NT by fp8-insert-quant is
// folded too: rows of the transpose are [1, 4], [2, 5], [3, 6]; s = amax/448
// per row; 1*448/4 = 112, 2*448/5 = 179.2 -> 176 (E4M3 spacing 16 in
// [128, 256)), 3*448/6 = 224.
// CHECK-LABEL: func.func @dense_transposed
// CHECK-DAG: arith.constant dense<{{\[\[}}1.120000e+02, 4.480000e+02], [1.760000e+02, 4.480000e+02], [2.240000e+02, 4.480000e+02]]> : tensor<3x2xf8E4M3FN>
// CHECK-DAG: arith.constant dense<{{\[\[}}0.00892857183], [0.0111607146], [0.0133928573]]> : tensor<3x1xf32>
// CHECK-NOT: linalg.transpose
func.func @dense_transposed() -> !fp8.scaled<3x2xf8E4M3FN, block = [1, 2], scale = f32> {
  %w = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %e = tensor.empty() : tensor<3x2xf32>
  %t = linalg.transpose ins(%w : tensor<2x3xf32>) outs(%e : tensor<3x2xf32>) permutation = [1, 0]
  %q = fp8.quantize %t : tensor<3x2xf32> -> !fp8.scaled<3x2xf8E4M3FN, block = [1, 2], scale = f32>
  return %q : !fp8.scaled<3x2xf8E4M3FN, block = [1, 2], scale = f32>
}

// -----

// docs/regression-cases.md case 20: the folded bytes are the bytes the
// run-time lowering writes, NaNs of either sign included (every NaN -> 0x7F,
// sign dropped, in both formats). Hand-derived: a block with a NaN has a
// NaN amax, hence scale 1; E4M3 [448, 4.25, 4.75, 4.3] has amax 448, scale 1,
// and rounds to 448, 4 (tie to even), 5 (tie to even), 4.5; E5M2 rounds 9 to
// 8, 11 to 12, 13 to 12 and 15 to 16 (ties to even mantissas).
// CHECK-LABEL: func.func @case20
// CHECK-DAG: arith.constant dense<{{\[\[}}4.480000e+02, 4.000000e+00, 5.000000e+00, 4.500000e+00]]> : tensor<1x4xf8E4M3FN>
// CHECK-DAG: arith.constant dense<{{\[\[}}0x7F, 1.000000e+00, -0.000000e+00, 9.765620e-03]]> : tensor<1x4xf8E4M3FN>
// CHECK-DAG: arith.constant dense<{{\[\[}}0x7F, 8.000000e+00, 1.200000e+01, 5.734400e+04]]> : tensor<1x4xf8E5M2>
// CHECK-DAG: arith.constant dense<{{\[\[}}0x7F, 8.000000e+00, 1.200000e+01, 1.600000e+01]]> : tensor<1x4xf8E5M2>
// CHECK-DAG: arith.constant dense<0x7F> : tensor<2x4xf8E4M3FN>
// CHECK-DAG: arith.constant dense<1.000000e+00> : tensor<1x1xf32>
// CHECK-NOT: fp8.quantize
func.func @case20() -> (!fp8.scaled<1x4xf8E4M3FN, block = [1, 4], scale = f32>, !fp8.scaled<1x4xf8E4M3FN, block = [1, 4], scale = f32>, !fp8.scaled<1x4xf8E5M2, block = [1, 4], scale = f32>, !fp8.scaled<1x4xf8E5M2, block = [1, 4], scale = f32>, !fp8.scaled<2x4xf8E4M3FN, block = [2, 4], scale = f32>) {
  %a = arith.constant dense<[[448.0, 4.25, 4.75, 4.3]]> : tensor<1x4xf32>
  %b = arith.constant dense<[[0xFFC00000, 1.0, -0.0, 0.01]]> : tensor<1x4xf32>
  %c = arith.constant dense<[[0xFFC00000, 9.0, 11.0, 57344.0]]> : tensor<1x4xf32>
  %d = arith.constant dense<[[0x7FC00000, 9.0, 13.0, 15.0]]> : tensor<1x4xf32>
  %e = arith.constant dense<0xFFC00000> : tensor<2x4xf32>
  %qa = fp8.quantize %a : tensor<1x4xf32> -> !fp8.scaled<1x4xf8E4M3FN, block = [1, 4], scale = f32>
  %qb = fp8.quantize %b : tensor<1x4xf32> -> !fp8.scaled<1x4xf8E4M3FN, block = [1, 4], scale = f32>
  %qc = fp8.quantize %c : tensor<1x4xf32> -> !fp8.scaled<1x4xf8E5M2, block = [1, 4], scale = f32>
  %qd = fp8.quantize %d : tensor<1x4xf32> -> !fp8.scaled<1x4xf8E5M2, block = [1, 4], scale = f32>
  %qe = fp8.quantize %e : tensor<2x4xf32> -> !fp8.scaled<2x4xf8E4M3FN, block = [2, 4], scale = f32>
  return %qa, %qb, %qc, %qd, %qe : !fp8.scaled<1x4xf8E4M3FN, block = [1, 4], scale = f32>, !fp8.scaled<1x4xf8E4M3FN, block = [1, 4], scale = f32>, !fp8.scaled<1x4xf8E5M2, block = [1, 4], scale = f32>, !fp8.scaled<1x4xf8E5M2, block = [1, 4], scale = f32>, !fp8.scaled<2x4xf8E4M3FN, block = [2, 4], scale = f32>
}
