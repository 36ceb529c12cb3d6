// RUN: fp8-opt %s -split-input-file -fp8-split-deallocs | FileCheck %s

// A dealloc of distinct allocations becomes one dealloc per allocation with
// its own condition and the same retained values; the updated condition of
// each retained value is the `or` of the pieces'.
// CHECK-LABEL: func.func @split
// CHECK-SAME: (%[[C:.*]]: i1, %[[R:.*]]: memref<2xf32>)
// CHECK: %[[A:.*]] = memref.alloc() : memref<2xf32>
// CHECK: %[[B:.*]] = memref.alloc() : memref<4xf32>
// CHECK: %[[T:.*]] = arith.constant true
// CHECK: %[[O1:.*]] = bufferization.dealloc (%[[A]] : memref<2xf32>) if (%[[T]]) retain (%[[R]] : memref<2xf32>)
// CHECK: %[[O2:.*]] = bufferization.dealloc (%[[B]] : memref<4xf32>) if (%[[C]]) retain (%[[R]] : memref<2xf32>)
// CHECK: %[[O:.*]] = arith.ori %[[O1]], %[[O2]] : i1
// CHECK-NOT: bufferization.dealloc
// CHECK: return %[[O]]
func.func @split(%c: i1, %r: memref<2xf32>) -> i1 {
  %a = memref.alloc() : memref<2xf32>
  %b = memref.alloc() : memref<4xf32>
  %true = arith.constant true
  %o = bufferization.dealloc (%a, %b : memref<2xf32>, memref<4xf32>) if (%true, %c) retain (%r : memref<2xf32>)
  return %o : i1
}

// -----

// Not every operand its own allocation (an argument, which may alias
// anything; an allocation listed twice): left to
// buffer-deallocation-simplification.
// CHECK-LABEL: func.func @kept
// CHECK: bufferization.dealloc (%{{.*}}, %{{.*}} : memref<2xf32>, memref<2xf32>) if
// CHECK: bufferization.dealloc (%{{.*}}, %{{.*}} : memref<2xf32>, memref<2xf32>) if
// CHECK-NOT: bufferization.dealloc
func.func @kept(%c: i1, %arg: memref<2xf32>) {
  %a = memref.alloc() : memref<2xf32>
  %true = arith.constant true
  bufferization.dealloc (%a, %arg : memref<2xf32>, memref<2xf32>) if (%true, %c)
  %b = memref.alloc() : memref<2xf32>
  bufferization.dealloc (%b, %b : memref<2xf32>, memref<2xf32>) if (%true, %c)
  return
}
