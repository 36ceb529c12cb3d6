// Element types the FP8 rewrite does not take (complex, integer, f64, FP8
// inputs) through every pass of fp8-pipeline, the report included: each
// contraction is left as it is, with a remark where a pass declines it
// (complex and integer contractions get no precision; the report printed a
// row for them only after it stopped crashing on a complex element's size),
// and the report counts their FLOPs as high precision, its precision the
// element type (it said 'f32' for f64, 'bf16' for FP8, nothing for complex
// and integers). Linears with a
// constant weight (fp8-fold-constant-weights), a batch_matmul and a generic
// contraction, per type.
// RUN: fp8-opt %s -split-input-file --fp8-pipeline -verify-diagnostics -o /dev/null | FileCheck %s
// RUN: fp8-opt %s -split-input-file --fp8-pipeline=policy=hybrid -o /dev/null 2>/dev/null | FileCheck %s

// CHECK: fp8-report: policy
// CHECK: 1 linalg.matmul {{.*}} linear complex<f32> 64x512x256 16.78 MFLOP
// CHECK: 2 linalg.batch_matmul {{.*}} attention complex<f32> 128x512x256 33.55 MFLOP
// CHECK: 3 linalg.generic {{.*}} attention complex<f32> 128x512x256 33.55 MFLOP
// CHECK: in FP8: 0 FLOP (0.0%)
// CHECK: linear weights: 1.00 MiB before, 1.00 MiB after
#m0 = affine_map<(b, m, n, k) -> (b, m, k)>
#m1 = affine_map<(b, m, n, k) -> (b, k, n)>
#m2 = affine_map<(b, m, n, k) -> (b, m, n)>
func.func @f_complex(%x: tensor<64x256xcomplex<f32>>, %z: tensor<64x512xcomplex<f32>>, %bx: tensor<2x64x256xcomplex<f32>>, %bw: tensor<2x256x512xcomplex<f32>>, %bz: tensor<2x64x512xcomplex<f32>>) -> (tensor<64x512xcomplex<f32>>, tensor<2x64x512xcomplex<f32>>, tensor<2x64x512xcomplex<f32>>) {
  %w = arith.constant dense<(1.0,2.0)> : tensor<256x512xcomplex<f32>>
  // expected-remark @+1 {{fp8-assign-precision: contraction with element type 'complex<f32>' is not floating-point (expected f32, bf16 or f16); no precision assigned, left unchanged}}
  %y = linalg.matmul ins(%x, %w : tensor<64x256xcomplex<f32>>, tensor<256x512xcomplex<f32>>) outs(%z : tensor<64x512xcomplex<f32>>) -> tensor<64x512xcomplex<f32>>
  // expected-remark @+1 {{fp8-assign-precision: contraction with element type 'complex<f32>' is not floating-point (expected f32, bf16 or f16); no precision assigned, left unchanged}}
  %b = linalg.batch_matmul ins(%bx, %bw : tensor<2x64x256xcomplex<f32>>, tensor<2x256x512xcomplex<f32>>) outs(%bz : tensor<2x64x512xcomplex<f32>>) -> tensor<2x64x512xcomplex<f32>>
  // expected-remark @+1 {{fp8-assign-precision: contraction with element type 'complex<f32>' is not floating-point (expected f32, bf16 or f16); no precision assigned, left unchanged}}
  %g = linalg.generic {indexing_maps = [#m0, #m1, #m2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%bx, %bw : tensor<2x64x256xcomplex<f32>>, tensor<2x256x512xcomplex<f32>>) outs(%bz : tensor<2x64x512xcomplex<f32>>) {
  ^bb0(%a: complex<f32>, %c: complex<f32>, %o: complex<f32>):
    %p = complex.mul %a, %c : complex<f32>
    %s = complex.add %o, %p : complex<f32>
    linalg.yield %s : complex<f32>
  } -> tensor<2x64x512xcomplex<f32>>
  return %y, %b, %g : tensor<64x512xcomplex<f32>>, tensor<2x64x512xcomplex<f32>>, tensor<2x64x512xcomplex<f32>>
}

// -----

// CHECK: fp8-report: policy
// CHECK: 1 linalg.matmul {{.*}} linear i32 64x512x256 16.78 MFLOP
// CHECK: in FP8: 0 FLOP (0.0%)
// CHECK: linear weights: 512.00 KiB before, 512.00 KiB after
#m0 = affine_map<(b, m, n, k) -> (b, m, k)>
#m1 = affine_map<(b, m, n, k) -> (b, k, n)>
#m2 = affine_map<(b, m, n, k) -> (b, m, n)>
func.func @f_i32(%x: tensor<64x256xi32>, %z: tensor<64x512xi32>, %bx: tensor<2x64x256xi32>, %bw: tensor<2x256x512xi32>, %bz: tensor<2x64x512xi32>) -> (tensor<64x512xi32>, tensor<2x64x512xi32>, tensor<2x64x512xi32>) {
  %w = arith.constant dense<3> : tensor<256x512xi32>
  // expected-remark @+1 {{fp8-assign-precision: contraction with element type 'i32' is not floating-point (expected f32, bf16 or f16); no precision assigned, left unchanged}}
  %y = linalg.matmul ins(%x, %w : tensor<64x256xi32>, tensor<256x512xi32>) outs(%z : tensor<64x512xi32>) -> tensor<64x512xi32>
  // expected-remark @+1 {{fp8-assign-precision: contraction with element type 'i32' is not floating-point (expected f32, bf16 or f16); no precision assigned, left unchanged}}
  %b = linalg.batch_matmul ins(%bx, %bw : tensor<2x64x256xi32>, tensor<2x256x512xi32>) outs(%bz : tensor<2x64x512xi32>) -> tensor<2x64x512xi32>
  // expected-remark @+1 {{fp8-assign-precision: contraction with element type 'i32' is not floating-point (expected f32, bf16 or f16); no precision assigned, left unchanged}}
  %g = linalg.generic {indexing_maps = [#m0, #m1, #m2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%bx, %bw : tensor<2x64x256xi32>, tensor<2x256x512xi32>) outs(%bz : tensor<2x64x512xi32>) {
  ^bb0(%a: i32, %c: i32, %o: i32):
    %p = arith.muli %a, %c : i32
    %s = arith.addi %o, %p : i32
    linalg.yield %s : i32
  } -> tensor<2x64x512xi32>
  return %y, %b, %g : tensor<64x512xi32>, tensor<2x64x512xi32>, tensor<2x64x512xi32>
}

// -----

// CHECK: fp8-report: policy
// CHECK: 1 linalg.matmul {{.*}} linear f64 64x512x256 16.78 MFLOP {{.*}} fp8 not applied
// CHECK: in FP8: 0 FLOP (0.0%)
// CHECK: linear weights: 1.00 MiB before, 1.00 MiB after
#m0 = affine_map<(b, m, n, k) -> (b, m, k)>
#m1 = affine_map<(b, m, n, k) -> (b, k, n)>
#m2 = affine_map<(b, m, n, k) -> (b, m, n)>
func.func @f_f64(%x: tensor<64x256xf64>, %z: tensor<64x512xf64>, %bx: tensor<2x64x256xf64>, %bw: tensor<2x256x512xf64>, %bz: tensor<2x64x512xf64>) -> (tensor<64x512xf64>, tensor<2x64x512xf64>, tensor<2x64x512xf64>) {
  %w = arith.constant dense<1.5> : tensor<256x512xf64>
  // expected-remark @+1 {{fp8-insert-quant: linear left in high precision: operands and result must be f32, bf16 or f16}}
  %y = linalg.matmul ins(%x, %w : tensor<64x256xf64>, tensor<256x512xf64>) outs(%z : tensor<64x512xf64>) -> tensor<64x512xf64>
  %b = linalg.batch_matmul ins(%bx, %bw : tensor<2x64x256xf64>, tensor<2x256x512xf64>) outs(%bz : tensor<2x64x512xf64>) -> tensor<2x64x512xf64>
  %g = linalg.generic {indexing_maps = [#m0, #m1, #m2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%bx, %bw : tensor<2x64x256xf64>, tensor<2x256x512xf64>) outs(%bz : tensor<2x64x512xf64>) {
  ^bb0(%a: f64, %c: f64, %o: f64):
    %p = arith.mulf %a, %c : f64
    %s = arith.addf %o, %p : f64
    linalg.yield %s : f64
  } -> tensor<2x64x512xf64>
  return %y, %b, %g : tensor<64x512xf64>, tensor<2x64x512xf64>, tensor<2x64x512xf64>
}

// -----

// CHECK: fp8-report: policy
// CHECK: 1 linalg.matmul {{.*}} linear f8E4M3FN 64x512x256 16.78 MFLOP {{.*}} fp8 not applied
// CHECK: in FP8: 0 FLOP (0.0%)
// CHECK: linear weights: 128.00 KiB before, 128.00 KiB after
#m0 = affine_map<(b, m, n, k) -> (b, m, k)>
#m1 = affine_map<(b, m, n, k) -> (b, k, n)>
#m2 = affine_map<(b, m, n, k) -> (b, m, n)>
func.func @f_f8(%x: tensor<64x256xf8E4M3FN>, %z: tensor<64x512xf8E4M3FN>, %bx: tensor<2x64x256xf8E4M3FN>, %bw: tensor<2x256x512xf8E4M3FN>, %bz: tensor<2x64x512xf8E4M3FN>) -> (tensor<64x512xf8E4M3FN>, tensor<2x64x512xf8E4M3FN>, tensor<2x64x512xf8E4M3FN>) {
  %w = arith.constant dense<1.5> : tensor<256x512xf8E4M3FN>
  // expected-remark @+1 {{fp8-insert-quant: linear left in high precision: operands and result must be f32, bf16 or f16}}
  %y = linalg.matmul ins(%x, %w : tensor<64x256xf8E4M3FN>, tensor<256x512xf8E4M3FN>) outs(%z : tensor<64x512xf8E4M3FN>) -> tensor<64x512xf8E4M3FN>
  %b = linalg.batch_matmul ins(%bx, %bw : tensor<2x64x256xf8E4M3FN>, tensor<2x256x512xf8E4M3FN>) outs(%bz : tensor<2x64x512xf8E4M3FN>) -> tensor<2x64x512xf8E4M3FN>
  %g = linalg.generic {indexing_maps = [#m0, #m1, #m2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%bx, %bw : tensor<2x64x256xf8E4M3FN>, tensor<2x256x512xf8E4M3FN>) outs(%bz : tensor<2x64x512xf8E4M3FN>) {
  ^bb0(%a: f8E4M3FN, %c: f8E4M3FN, %o: f8E4M3FN):
    %p = arith.mulf %a, %c : f8E4M3FN
    %s = arith.addf %o, %p : f8E4M3FN
    linalg.yield %s : f8E4M3FN
  } -> tensor<2x64x512xf8E4M3FN>
  return %y, %b, %g : tensor<64x512xf8E4M3FN>, tensor<2x64x512xf8E4M3FN>, tensor<2x64x512xf8E4M3FN>
}
