// RUN: fp8-opt %s -split-input-file -fp8-split-deallocs | FileCheck %s
// Nested on func.func the pass does not read other functions (another
// thread may be rewriting them): calls are not known fresh.
// RUN: fp8-opt %s -split-input-file \
// RUN:   -pass-pipeline='builtin.module(func.func(fp8-split-deallocs))' \
// RUN:   | FileCheck %s --check-prefix=NESTED

// A dealloc of distinct allocations becomes one dealloc per allocation with
// its own condition and the same retained value (of unknown origin: it may
// be either); the updated condition of each retained value is the `or` of
// the pieces'.
// CHECK-LABEL: func.func @split
// CHECK-SAME: (%[[C:.*]]: i1)
// CHECK: %[[R:.*]] = call @opaque()
// CHECK: %[[A:.*]] = memref.alloc() : memref<2xf32>
// CHECK: %[[B:.*]] = memref.alloc() : memref<4xf32>
// CHECK: %[[T:.*]] = arith.constant true
// CHECK: %[[O1:.*]] = bufferization.dealloc (%[[A]] : memref<2xf32>) if (%[[T]]) retain (%[[R]] : memref<2xf32>)
// CHECK: %[[O2:.*]] = bufferization.dealloc (%[[B]] : memref<4xf32>) if (%[[C]]) retain (%[[R]] : memref<2xf32>)
// CHECK: %[[O:.*]] = arith.ori %[[O1]], %[[O2]] : i1
// CHECK-NOT: bufferization.dealloc
// CHECK: return %[[O]]
func.func @split(%c: i1) -> i1 {
  %r = call @opaque() : () -> memref<2xf32>
  %a = memref.alloc() : memref<2xf32>
  %b = memref.alloc() : memref<4xf32>
  %true = arith.constant true
  %o = bufferization.dealloc (%a, %b : memref<2xf32>, memref<4xf32>) if (%true, %c) retain (%r : memref<2xf32>)
  return %o : i1
}
func.func private @opaque() -> memref<2xf32>

// -----

// An allocation listed twice: left to buffer-deallocation-simplification.
// An argument may alias anything but a buffer allocated inside its
// function: the allocation beside it is split off, the argument stays.
// CHECK-LABEL: func.func @kept
// CHECK-SAME: (%[[C:.*]]: i1, %[[ARG:.*]]: memref<2xf32>)
// CHECK: %[[A:.*]] = memref.alloc() : memref<2xf32>
// CHECK: %[[T:.*]] = arith.constant true
// CHECK: bufferization.dealloc (%[[A]] : memref<2xf32>) if (%[[T]])
// CHECK: bufferization.dealloc (%[[ARG]] : memref<2xf32>) if (%[[C]])
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

// -----

// Each piece retains only the retained values that may alias its buffer:
// a view of it, and values of unknown origin (an external call's result).
// Another allocation (a view of one, a fresh call's result) and an
// argument of the function are other buffers: not retained, their updated
// condition from that piece is false. A value no piece retains gets false.
// CHECK-LABEL: func.func @retained
// CHECK-SAME: (%[[C:.*]]: i1, %[[ARG:.*]]: memref<2xf32>)
// CHECK: %[[A:.*]] = memref.alloc() : memref<2xf32>
// CHECK: %[[B:.*]] = memref.alloc() : memref<4xf32>
// CHECK: %[[VA:.*]] = memref.subview %[[A]]
// CHECK: %[[VB:.*]] = memref.subview %[[B]]
// CHECK: %[[X:.*]] = call @fresh()
// CHECK: %[[U:.*]] = call @external()
// CHECK: %[[T:.*]] = arith.constant true
// CHECK: %[[PA:.*]]:2 = bufferization.dealloc (%[[A]] : memref<2xf32>) if (%[[T]]) retain (%[[VA]], %[[U]] : memref<1xf32, strided<[1]>>, memref<2xf32>)
// CHECK: %[[PB:.*]]:2 = bufferization.dealloc (%[[B]] : memref<4xf32>) if (%[[C]]) retain (%[[VB]], %[[U]] : memref<1xf32, strided<[1], offset: 2>>, memref<2xf32>)
// CHECK: %[[U_OWNED:.*]] = arith.ori %[[PA]]#1, %[[PB]]#1 : i1
// CHECK: %[[F:.*]] = arith.constant false
// CHECK-NOT: bufferization.dealloc
// CHECK: return %[[PA]]#0, %[[PB]]#0, %[[F]], %[[U_OWNED]], %[[F]]
func.func @retained(%c: i1, %arg: memref<2xf32>) -> (i1, i1, i1, i1, i1) {
  %a = memref.alloc() : memref<2xf32>
  %b = memref.alloc() : memref<4xf32>
  %va = memref.subview %a[0] [1] [1] : memref<2xf32> to memref<1xf32, strided<[1]>>
  %vb = memref.subview %b[2] [1] [1] : memref<4xf32> to memref<1xf32, strided<[1], offset: 2>>
  %x = call @fresh() : () -> memref<4xf32>
  %u = call @external() : () -> memref<2xf32>
  %true = arith.constant true
  %o:5 = bufferization.dealloc (%a, %b : memref<2xf32>, memref<4xf32>) if (%true, %c)
      retain (%va, %vb, %arg, %u, %x : memref<1xf32, strided<[1]>>, memref<1xf32, strided<[1], offset: 2>>, memref<2xf32>, memref<2xf32>, memref<4xf32>)
  return %o#0, %o#1, %o#2, %o#3, %o#4 : i1, i1, i1, i1, i1
}
func.func private @fresh() -> memref<4xf32> {
  %b = memref.alloc() : memref<4xf32>
  return %b : memref<4xf32>
}
func.func private @external() -> memref<2xf32>

// -----

// One buffer, many retained values (the results of a function with many
// outputs): only those that may alias it stay.
// CHECK-LABEL: func.func @one_buffer
// CHECK: %[[A:.*]] = memref.alloc() : memref<2xf32>
// CHECK: %[[B:.*]] = memref.alloc() : memref<2xf32>
// CHECK: %[[P:.*]] = bufferization.dealloc (%[[A]] : memref<2xf32>) if (%{{.*}}) retain (%[[A]] : memref<2xf32>)
// CHECK: %[[F:.*]] = arith.constant false
// CHECK-NOT: bufferization.dealloc
// CHECK: return %[[A]], %[[B]], %[[P]], %[[F]]
func.func @one_buffer(%c: i1, %arg: memref<2xf32>) -> (memref<2xf32>, memref<2xf32>, i1, i1) {
  %a = memref.alloc() : memref<2xf32>
  %b = memref.alloc() : memref<2xf32>
  %o:2 = bufferization.dealloc (%a : memref<2xf32>) if (%c) retain (%a, %b : memref<2xf32>, memref<2xf32>)
  return %a, %b, %o#0, %o#1 : memref<2xf32>, memref<2xf32>, i1, i1
}

// -----

// A block argument is another buffer than an allocation inside its block
// only: a loop's iteration argument may be a buffer allocated before the
// loop, so a dealloc of that buffer inside the loop keeps retaining it.
// CHECK-LABEL: func.func @loop_argument
// CHECK: scf.for
// CHECK: bufferization.dealloc (%{{.*}} : memref<2xf32>) if (%{{.*}}) retain (%{{.*}} : memref<2xf32>)
// CHECK-NOT: bufferization.dealloc
func.func @loop_argument(%n: index, %c: i1) -> memref<2xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc() : memref<2xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%it = %a) -> memref<2xf32> {
    %o = bufferization.dealloc (%a : memref<2xf32>) if (%c) retain (%it : memref<2xf32>)
    scf.yield %it : memref<2xf32>
  }
  return %r : memref<2xf32>
}

// -----

// A function that returns the results of calls of fresh functions (a step
// function returning what its GEMM kernels computed) returns fresh buffers
// too: the dealloc of its results in its caller is split. A recursive
// function is not known fresh (not looked into twice; no endless descent).
// CHECK-LABEL: func.func @transitive
// CHECK: bufferization.dealloc (%{{[^ ,]+}} : memref<4xf32>) if
// CHECK: bufferization.dealloc (%{{[^ ,]+}} : memref<4xf32>) if
// CHECK: bufferization.dealloc (%{{.*}}, %{{.*}} : memref<4xf32>, memref<4xf32>) if
// CHECK-NOT: bufferization.dealloc
func.func @transitive(%c: i1) {
  %x, %y = call @step() : () -> (memref<4xf32>, memref<4xf32>)
  %true = arith.constant true
  bufferization.dealloc (%x, %y : memref<4xf32>, memref<4xf32>) if (%true, %c)
  %r = call @recursive(%c) : (i1) -> memref<4xf32>
  %s = call @recursive(%c) : (i1) -> memref<4xf32>
  bufferization.dealloc (%r, %s : memref<4xf32>, memref<4xf32>) if (%true, %c)
  return
}
func.func private @step() -> (memref<4xf32>, memref<4xf32>) {
  %a = call @kernel() : () -> memref<4xf32>
  %b = call @kernel() : () -> memref<4xf32>
  return %a, %b : memref<4xf32>, memref<4xf32>
}
func.func private @kernel() -> memref<4xf32> {
  %b = memref.alloc() : memref<4xf32>
  return %b : memref<4xf32>
}
func.func private @recursive(%c: i1) -> memref<4xf32> {
  cf.cond_br %c, ^own, ^again
^own:
  %b = memref.alloc() : memref<4xf32>
  return %b : memref<4xf32>
^again:
  %false = arith.constant false
  %r = call @recursive(%false) : (i1) -> memref<4xf32>
  return %r : memref<4xf32>
}
