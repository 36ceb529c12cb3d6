// RUN: fp8-opt %s -split-input-file -fp8-resolve-expand-shapes | FileCheck %s

// Two run-time sizes in one group ([G * M, 8] viewed as [G, M, 8]): a
// reinterpret_cast of the source's base at its offset, the op's sizes, and
// the strides of a row-major split of the source's row stride (8): M's
// stride 8, G's 8 * M. Nothing is computed past G (no product for a
// dimension outside the group).
// CHECK-LABEL: func.func @two_dynamic
// CHECK-SAME: (%[[A:.*]]: memref<?x8xf32>, %[[G:.*]]: index, %[[M:.*]]: index)
// CHECK: %[[BASE:.*]], %[[OFF:.*]], %{{.*}}:2, %{{.*}}:2 = memref.extract_strided_metadata %[[A]]
// CHECK: %[[C8:.*]] = arith.constant 8 : index
// CHECK: %[[GS:.*]] = arith.muli %[[C8]], %[[M]] : index
// CHECK-NOT: arith.muli
// CHECK: memref.reinterpret_cast %[[BASE]] to offset: [0], sizes: [%[[G]], %[[M]], 8], strides: [%[[GS]], 8, 1]
// CHECK-NOT: memref.expand_shape
func.func @two_dynamic(%a: memref<?x8xf32>, %g: index, %m: index) -> memref<?x?x8xf32> {
  %e = memref.expand_shape %a [[0, 1], [2]] output_shape [%g, %m, 8] : memref<?x8xf32> into memref<?x?x8xf32>
  return %e : memref<?x?x8xf32>
}

// -----

// A strided source (a column slice: row stride and offset run-time
// values): the innermost result dimension of each group takes its source
// dimension's stride, the outer ones multiply by the inner sizes (the
// run-time S; H's stride 1 x 4 folds to a constant); the source's offset
// is kept.
// CHECK-LABEL: func.func @strided_source
// CHECK-SAME: (%[[A:.*]]: memref<?x?xf32, strided<[?, 1], offset: ?>>, %[[B:.*]]: index, %[[S:.*]]: index, %[[H:.*]]: index)
// CHECK: %[[BASE:.*]], %[[OFF:.*]], %{{.*}}:2, %[[ST:.*]]:2 = memref.extract_strided_metadata %[[A]]
// CHECK: %[[SS:.*]] = arith.muli %[[ST]]#0, %[[S]] : index
// CHECK-NOT: arith.muli
// CHECK: memref.reinterpret_cast %[[BASE]] to offset: [%[[OFF]]], sizes: [%[[B]], %[[S]], %[[H]], 4], strides: [%[[SS]], %[[ST]]#0, 4, 1]
func.func @strided_source(%a: memref<?x?xf32, strided<[?, 1], offset: ?>>, %b: index, %s: index, %h: index) -> memref<?x?x?x4xf32, strided<[?, ?, 4, 1], offset: ?>> {
  %e = memref.expand_shape %a [[0, 1], [2, 3]] output_shape [%b, %s, %h, 4] : memref<?x?xf32, strided<[?, 1], offset: ?>> into memref<?x?x?x4xf32, strided<[?, ?, 4, 1], offset: ?>>
  return %e : memref<?x?x?x4xf32, strided<[?, ?, 4, 1], offset: ?>>
}

// -----

// One run-time size per group: left to expand-strided-metadata, which
// derives it.
// CHECK-LABEL: func.func @one_dynamic
// CHECK: memref.expand_shape
// CHECK-NOT: memref.reinterpret_cast
func.func @one_dynamic(%a: memref<?x8xf32>, %g: index) -> memref<?x4x8xf32> {
  %e = memref.expand_shape %a [[0, 1], [2]] output_shape [%g, 4, 8] : memref<?x8xf32> into memref<?x4x8xf32>
  return %e : memref<?x4x8xf32>
}
