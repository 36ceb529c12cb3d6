// RUN: fp8-opt %s -split-input-file -fp8-split-deallocs | FileCheck %s
// Nested on func.func the pass does not read other functions (another
// thread may be rewriting them): calls are not known fresh.
// RUN: fp8-opt %s -split-input-file \
// RUN:   -pass-pipeline='builtin.module(func.func(fp8-split-deallocs))' \
// RUN:   | FileCheck %s --check-prefix=NESTED

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

// -----

// The results of calls of a function that returns a memref.alloc of its own
// body are fresh allocations too (each call allocates its own buffer), and
// so is the base buffer of one (what the deallocation frees of a call's
// result): split.
// CHECK-LABEL: func.func @calls
// CHECK: %[[A:.*]] = memref.alloc() : memref<2xf32>
// CHECK: %[[X:.*]] = call @fresh
// CHECK: %[[Y:.*]] = call @fresh
// CHECK: %[[BASE:.*]], %{{.*}}, %{{.*}}, %{{.*}} = memref.extract_strided_metadata %[[Y]]
// CHECK: bufferization.dealloc (%[[A]] : memref<2xf32>) if
// CHECK: bufferization.dealloc (%[[X]] : memref<4xf32>) if
// CHECK: bufferization.dealloc (%[[BASE]] : memref<f32>) if
// CHECK-NOT: bufferization.dealloc
// CHECK: func.func private @fresh
// NESTED-LABEL: func.func @calls
// NESTED: bufferization.dealloc (%{{.*}}, %{{.*}}, %{{.*}} : memref<2xf32>, memref<4xf32>, memref<f32>)
func.func @calls(%c: i1) {
  %a = memref.alloc() : memref<2xf32>
  %x = call @fresh(%a) : (memref<2xf32>) -> memref<4xf32>
  %y = call @fresh(%a) : (memref<2xf32>) -> memref<4xf32>
  %base, %off, %size, %stride = memref.extract_strided_metadata %y : memref<4xf32> -> memref<f32>, index, index, index
  %true = arith.constant true
  bufferization.dealloc (%a, %x, %base : memref<2xf32>, memref<4xf32>, memref<f32>) if (%true, %c, %true)
  return
}
func.func private @fresh(%arg: memref<2xf32>) -> memref<4xf32> {
  %b = memref.alloc() : memref<4xf32>
  return %b : memref<4xf32>
}

// -----

// Calls whose result may alias another buffer: of a function that returns
// its argument on one path, of an external function; a call's result
// listed beside its own base buffer (the same buffer twice). Left to the
// simplification.
// CHECK-LABEL: func.func @kept_calls
// CHECK: bufferization.dealloc (%{{.*}}, %{{.*}} : memref<2xf32>, memref<2xf32>) if
// CHECK: bufferization.dealloc (%{{.*}}, %{{.*}} : memref<2xf32>, memref<2xf32>) if
// CHECK: bufferization.dealloc (%{{.*}}, %{{.*}} : memref<4xf32>, memref<f32>) if
// CHECK-NOT: bufferization.dealloc
func.func @kept_calls(%c: i1) {
  %a = memref.alloc() : memref<2xf32>
  %true = arith.constant true
  %x = call @maybe_argument(%a, %c) : (memref<2xf32>, i1) -> memref<2xf32>
  bufferization.dealloc (%a, %x : memref<2xf32>, memref<2xf32>) if (%true, %c)
  %b = memref.alloc() : memref<2xf32>
  %y = call @external() : () -> memref<2xf32>
  bufferization.dealloc (%b, %y : memref<2xf32>, memref<2xf32>) if (%true, %c)
  %z = call @fresh() : () -> memref<4xf32>
  %base, %off, %size, %stride = memref.extract_strided_metadata %z : memref<4xf32> -> memref<f32>, index, index, index
  bufferization.dealloc (%z, %base : memref<4xf32>, memref<f32>) if (%true, %c)
  return
}
func.func private @maybe_argument(%arg: memref<2xf32>, %c: i1) -> memref<2xf32> {
  cf.cond_br %c, ^own, ^arg
^own:
  %b = memref.alloc() : memref<2xf32>
  return %b : memref<2xf32>
^arg:
  return %arg : memref<2xf32>
}
func.func private @external() -> memref<2xf32>
func.func private @fresh() -> memref<4xf32> {
  %b = memref.alloc() : memref<4xf32>
  return %b : memref<4xf32>
}

// -----

// A function that returns one allocation at two indices: each result is a
// memref.alloc of its body, but the two results of one call are the same
// buffer. Splitting would free it twice: left to the simplification.
// CHECK-LABEL: func.func @kept_twice_returned
// CHECK: bufferization.dealloc (%{{.*}}, %{{.*}} : memref<4xf32>, memref<4xf32>) if
// CHECK-NOT: bufferization.dealloc
func.func @kept_twice_returned(%c: i1) {
  %x, %y = call @twice() : () -> (memref<4xf32>, memref<4xf32>)
  %true = arith.constant true
  bufferization.dealloc (%x, %y : memref<4xf32>, memref<4xf32>) if (%true, %c)
  return
}
func.func private @twice() -> (memref<4xf32>, memref<4xf32>) {
  %b = memref.alloc() : memref<4xf32>
  return %b, %b : memref<4xf32>, memref<4xf32>
}
