// The report's precision of a contraction the FP8 rewrite leaves in its own
// type is that type: f64, i8, complex<f32> (it said 'f32' for f64, as the
// precision pass's nearest high precision, and '' for the integer and
// complex ops, which get no precision). An FP8 linear is 'fp8'; a matmul
// the policy keeps high and casts to bf16 'bf16'; f32 'f32'.
// RUN: fp8-opt %s -split-input-file --fp8-pipeline='report-format=json' -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=JSON
// RUN: fp8-opt %s -split-input-file --fp8-pipeline -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=TABLE

// JSON-LABEL: "ops": [
// JSON: "function": "f_f64",
// JSON: "op": "linalg.matmul",
// JSON-NEXT: "precision": "f64",
// TABLE: 1 {{ *}}linalg.matmul {{.*}} linear {{ *}}f64 {{ *}}64x512x256
func.func @f_f64(%x: tensor<64x256xf64>, %w: tensor<256x512xf64>, %z: tensor<64x512xf64>) -> tensor<64x512xf64> {
  %y = linalg.matmul ins(%x, %w : tensor<64x256xf64>, tensor<256x512xf64>) outs(%z : tensor<64x512xf64>) -> tensor<64x512xf64>
  return %y : tensor<64x512xf64>
}

// -----

// JSON-LABEL: "ops": [
// JSON: "function": "f_i8",
// JSON: "op": "linalg.matmul",
// JSON-NEXT: "precision": "i8",
// TABLE: 1 {{ *}}linalg.matmul {{.*}} linear {{ *}}i8 {{ *}}64x512x256
func.func @f_i8(%x: tensor<64x256xi8>, %w: tensor<256x512xi8>, %z: tensor<64x512xi8>) -> tensor<64x512xi8> {
  %y = linalg.matmul ins(%x, %w : tensor<64x256xi8>, tensor<256x512xi8>) outs(%z : tensor<64x512xi8>) -> tensor<64x512xi8>
  return %y : tensor<64x512xi8>
}

// -----

// JSON-LABEL: "ops": [
// JSON: "function": "f_complex",
// JSON: "op": "linalg.matmul",
// JSON-NEXT: "precision": "complex<f32>",
func.func @f_complex(%x: tensor<64x256xcomplex<f32>>, %w: tensor<256x512xcomplex<f32>>, %z: tensor<64x512xcomplex<f32>>) -> tensor<64x512xcomplex<f32>> {
  %y = linalg.matmul ins(%x, %w : tensor<64x256xcomplex<f32>>, tensor<256x512xcomplex<f32>>) outs(%z : tensor<64x512xcomplex<f32>>) -> tensor<64x512xcomplex<f32>>
  return %y : tensor<64x512xcomplex<f32>>
}

// -----

// An f32 linear (FP8) and an attention batch_matmul of two activations
// (kept high: bf16 operands, f32 result).
// JSON-LABEL: "ops": [
// JSON: "function": "f_f32",
// JSON: "op": "fp8.scaled_matmul",
// JSON-NEXT: "precision": "fp8",
// JSON: "op": "linalg.batch_matmul",
// JSON-NEXT: "precision": "bf16",
func.func @f_f32(%x: tensor<64x256xf32>, %w: tensor<256x512xf32>, %z: tensor<64x512xf32>, %q: tensor<2x64x256xf32>, %k: tensor<2x256x64xf32>, %s: tensor<2x64x64xf32>) -> (tensor<64x512xf32>, tensor<2x64x64xf32>) {
  %wc = arith.constant dense<0.5> : tensor<256x512xf32>
  %y = linalg.matmul ins(%x, %wc : tensor<64x256xf32>, tensor<256x512xf32>) outs(%z : tensor<64x512xf32>) -> tensor<64x512xf32>
  %a = linalg.batch_matmul ins(%q, %k : tensor<2x64x256xf32>, tensor<2x256x64xf32>) outs(%s : tensor<2x64x64xf32>) -> tensor<2x64x64xf32>
  return %y, %a : tensor<64x512xf32>, tensor<2x64x64xf32>
}
