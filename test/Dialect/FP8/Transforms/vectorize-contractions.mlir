// RUN: fp8-opt %s -split-input-file -fp8-vectorize-contractions | FileCheck %s

// A static f32 matmul: 16 x 32 tiles (M = 32, N = 64), K one at a time;
// each tile's contraction as outer products, one vector.fma per row.
// CHECK-LABEL: func.func @matmul
// CHECK-NOT: linalg.matmul
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for
// CHECK: vector.fma {{.*}} : vector<32xf32>
// CHECK-NOT: linalg.matmul
func.func @matmul(%a: tensor<32x8xf32>, %b: tensor<8x64xf32>, %c: tensor<32x64xf32>) -> tensor<32x64xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<32x8xf32>, tensor<8x64xf32>) outs(%c : tensor<32x64xf32>) -> tensor<32x64xf32>
  return %r : tensor<32x64xf32>
}

// -----

// Batch matmul with bf16 operands: tiles of 1 x 2 x 8, the operands widened.
// CHECK-LABEL: func.func @batch_bf16
// CHECK-NOT: linalg.batch_matmul
// CHECK: arith.extf {{.*}} to vector<8xf32>
// CHECK: vector.fma {{.*}} : vector<8xf32>
func.func @batch_bf16(%a: tensor<2x6x4xbf16>, %b: tensor<2x4x24xbf16>, %c: tensor<2x6x24xf32>) -> tensor<2x6x24xf32> {
  %r = linalg.batch_matmul ins(%a, %b : tensor<2x6x4xbf16>, tensor<2x4x24xbf16>) outs(%c : tensor<2x6x24xf32>) -> tensor<2x6x24xf32>
  return %r : tensor<2x6x24xf32>
}

// -----

// What stays: N without a vector width (7), a dynamic shape, an f16 result,
// a generic.
// CHECK-LABEL: func.func @untouched
// CHECK: linalg.matmul ins(%{{.*}} : tensor<4x3xf32>, tensor<3x7xf32>)
// CHECK: linalg.matmul ins(%{{.*}} : tensor<?x3xf32>, tensor<3x8xf32>)
// CHECK: linalg.matmul ins(%{{.*}} : tensor<4x3xf16>, tensor<3x8xf16>)
// CHECK-NOT: vector.
func.func @untouched(%a: tensor<4x3xf32>, %b: tensor<3x7xf32>, %c: tensor<4x7xf32>,
                     %d: tensor<?x3xf32>, %e: tensor<3x8xf32>, %f: tensor<?x8xf32>,
                     %g: tensor<4x3xf16>, %h: tensor<3x8xf16>, %i: tensor<4x8xf16>)
    -> (tensor<4x7xf32>, tensor<?x8xf32>, tensor<4x8xf16>) {
  %r = linalg.matmul ins(%a, %b : tensor<4x3xf32>, tensor<3x7xf32>) outs(%c : tensor<4x7xf32>) -> tensor<4x7xf32>
  %s = linalg.matmul ins(%d, %e : tensor<?x3xf32>, tensor<3x8xf32>) outs(%f : tensor<?x8xf32>) -> tensor<?x8xf32>
  %t = linalg.matmul ins(%g, %h : tensor<4x3xf16>, tensor<3x8xf16>) outs(%i : tensor<4x8xf16>) -> tensor<4x8xf16>
  return %r, %s, %t : tensor<4x7xf32>, tensor<?x8xf32>, tensor<4x8xf16>
}
