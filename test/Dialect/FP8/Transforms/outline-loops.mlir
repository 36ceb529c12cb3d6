// RUN: fp8-opt %s -split-input-file -fp8-outline-loops="min-loops=2" | FileCheck %s
// RUN: fp8-opt %s -split-input-file -fp8-outline-loops="min-loops=2" -convert-func-to-llvm | FileCheck %s --check-prefix=LLVM
// RUN: fp8-opt %s -split-input-file -fp8-outline-loops="min-loops=2 straight-line-optnone=false" | FileCheck %s --check-prefix=OPT

// Each top-level loop nest becomes a call to a private function that LLVM
// must not inline: its arguments are the values from above that the nest
// uses (the constants are cloned in), its results the nest's results. The
// function left without loops is compiled unoptimised (optnone).
// CHECK-LABEL: func.func @loops(
// CHECK-SAME: %[[N:.*]]: index, %[[M:.*]]: memref<?xf32>, %[[F:.*]]: f32) -> f32
// CHECK-SAME: attributes {passthrough = ["noinline", "optnone"]}
// CHECK: %[[S:.*]] = arith.addi %[[N]], %[[N]]
// CHECK-NEXT: call @loops_loop0(%[[N]], %[[F]], %[[M]]) : (index, f32, memref<?xf32>) -> ()
// CHECK-NEXT: %[[R:.*]] = call @loops_loop1(%[[S]], %[[F]]) : (index, f32) -> f32
// CHECK-NEXT: return %[[R]] : f32
// CHECK-NOT: scf.for
// CHECK-LABEL: func.func private @loops_loop0(
// CHECK-SAME: %[[N0:.*]]: index, %[[F0:.*]]: f32, %[[M0:.*]]: memref<?xf32>)
// CHECK-SAME: attributes {passthrough = ["noinline"]}
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK: scf.for %[[I:.*]] = %[[C0]] to %[[N0]] step %[[C1]] {
// CHECK-NEXT: scf.for %[[J:.*]] = %[[C0]] to %[[I]] step %[[C1]] {
// CHECK-NEXT: memref.store %[[F0]], %[[M0]][%[[J]]]
// CHECK: return{{$}}
// CHECK-LABEL: func.func private @loops_loop1(
// CHECK-SAME: %[[S1:.*]]: index, %[[F1:.*]]: f32) -> f32
// CHECK-SAME: attributes {passthrough = ["noinline"]}
// CHECK: %[[A:.*]] = scf.for {{.*}} to %[[S1]] {{.*}} iter_args(%[[X:.*]] = %[[F1]]) -> (f32)
// CHECK: arith.addf %[[X]], %[[F1]]
// CHECK: return %[[A]] : f32
// LLVM-LABEL: llvm.func @loops(
// LLVM-SAME: passthrough = ["noinline", "optnone"]
// LLVM: llvm.call @loops_loop0(
// LLVM: llvm.call @loops_loop1(
// LLVM: llvm.func @loops_loop0({{.*}}) attributes {passthrough = ["noinline"], sym_visibility = "private"}
// LLVM: llvm.func @loops_loop1({{.*}}) -> f32 attributes {passthrough = ["noinline"], sym_visibility = "private"}
// OPT-LABEL: func.func @loops(
// OPT-NOT: optnone
// OPT: call @loops_loop0(
func.func @loops(%n: index, %m: memref<?xf32>, %f: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = arith.addi %n, %n : index
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %i step %c1 {
      memref.store %f, %m[%j] : memref<?xf32>
    }
  }
  %r = scf.for %k = %c0 to %s step %c1 iter_args(%x = %f) -> (f32) {
    %y = arith.addf %x, %f : f32
    scf.yield %y : f32
  }
  return %r : f32
}

// -----

// The layers of a model repeat the same nests on other buffers: equal nests
// (same ops, types, attributes and use of their arguments) share one
// function, whatever their number; a nest that differs in an attribute or a
// constant, or uses one value where another uses two, gets its own.
// CHECK-LABEL: func.func @layers(
// CHECK-SAME: %[[A:[^:]*]]: memref<8xf32>, %[[B:[^:]*]]: memref<8xf32>, %[[C:[^:]*]]: memref<8xf32>, %[[D:[^:]*]]: memref<4xf32>
// CHECK-NOT: scf.for
// CHECK: call @layers_loop0(%[[A]], %[[B]])
// CHECK-NEXT: call @layers_loop0(%[[B]], %[[C]])
// CHECK-NEXT: call @layers_loop0(%[[C]], %[[A]])
// CHECK-NEXT: call @layers_loop1(%[[A]], %[[B]])
// CHECK-NEXT: call @layers_loop2(%[[A]], %[[B]])
// CHECK-NEXT: call @layers_loop3(%[[D]])
// CHECK-NEXT: %[[E:.*]] = memref.cast %[[D]]
// CHECK-NEXT: call @layers_loop4(%[[D]], %[[E]])
// CHECK-NEXT: call @layers_loop3(%[[D]])
// CHECK-NEXT: call @layers_loop0(%[[A]], %[[C]])
// CHECK-NEXT: return
// CHECK: func.func private @layers_loop0(%{{.*}}: memref<8xf32>, %{{.*}}: memref<8xf32>)
// CHECK: arith.constant 8 : index
// CHECK: arith.addf %{{.*}}, %{{.*}} : f32
// CHECK: func.func private @layers_loop1(
// CHECK: arith.addf {{.*}} fastmath<nnan>
// CHECK: func.func private @layers_loop2(%{{.*}}: memref<8xf32>, %{{.*}}: memref<8xf32>)
// CHECK: arith.constant 4 : index
// CHECK: arith.addf %{{.*}}, %{{.*}} : f32
// CHECK: func.func private @layers_loop3(%{{.*}}: memref<4xf32>)
// CHECK: func.func private @layers_loop4(%{{.*}}: memref<4xf32>, %{{.*}}: memref<4xf32>)
// CHECK-NOT: func.func
func.func @layers(%a: memref<8xf32>, %b: memref<8xf32>, %c: memref<8xf32>, %d: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %x = memref.load %a[%i] : memref<8xf32>
    %y = arith.addf %x, %x : f32
    memref.store %y, %b[%i] : memref<8xf32>
  }
  scf.for %i = %c0 to %c8 step %c1 {
    %x = memref.load %b[%i] : memref<8xf32>
    %y = arith.addf %x, %x : f32
    memref.store %y, %c[%i] : memref<8xf32>
  }
  scf.for %i = %c0 to %c8 step %c1 {
    %x = memref.load %c[%i] : memref<8xf32>
    %y = arith.addf %x, %x : f32
    memref.store %y, %a[%i] : memref<8xf32>
  }
  scf.for %i = %c0 to %c8 step %c1 {
    %x = memref.load %a[%i] : memref<8xf32>
    %y = arith.addf %x, %x fastmath<nnan> : f32
    memref.store %y, %b[%i] : memref<8xf32>
  }
  scf.for %i = %c0 to %c4 step %c1 {
    %x = memref.load %a[%i] : memref<8xf32>
    %y = arith.addf %x, %x : f32
    memref.store %y, %b[%i] : memref<8xf32>
  }
  scf.for %i = %c0 to %c4 step %c1 {
    %x = memref.load %d[%i] : memref<4xf32>
    %y = arith.addf %x, %x : f32
    memref.store %y, %d[%i] : memref<4xf32>
  }
  %e = memref.cast %d : memref<4xf32> to memref<4xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    %x = memref.load %d[%i] : memref<4xf32>
    %y = arith.addf %x, %x : f32
    memref.store %y, %e[%i] : memref<4xf32>
  }
  scf.for %i = %c0 to %c4 step %c1 {
    %x = memref.load %d[%i] : memref<4xf32>
    %y = arith.addf %x, %x : f32
    memref.store %y, %d[%i] : memref<4xf32>
  }
  scf.for %i = %c0 to %c8 step %c1 {
    %x = memref.load %a[%i] : memref<8xf32>
    %y = arith.addf %x, %x : f32
    memref.store %y, %c[%i] : memref<8xf32>
  }
  return
}

// -----

// Below `min-loops` top-level loop nests the function is left alone (a
// shared kernel, a small program): one call per nest would only add cost.
// CHECK-LABEL: func.func @one_loop(
// CHECK-NOT: passthrough
// CHECK: scf.for
// CHECK-NOT: call
// CHECK-NOT: func.func private
func.func @one_loop(%n: index, %m: memref<?xf32>, %f: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    memref.store %f, %m[%i] : memref<?xf32>
  }
  return
}

// -----

// A loop left under another op (here an scf.if) still runs many times: the
// function stays optimised.
// CHECK-LABEL: func.func @nested(
// CHECK-NOT: optnone
// CHECK: call @nested_loop0(
// CHECK: call @nested_loop0(
// CHECK: scf.if
// CHECK-NEXT: scf.for
func.func @nested(%n: index, %m: memref<?xf32>, %f: f32, %p: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    memref.store %f, %m[%i] : memref<?xf32>
  }
  scf.for %i = %c0 to %n step %c1 {
    memref.store %f, %m[%i] : memref<?xf32>
  }
  scf.if %p {
    scf.for %i = %c0 to %n step %c1 {
      memref.store %f, %m[%i] : memref<?xf32>
    }
  }
  return
}

// -----

// An outlined name that is taken gets a unique one (symbol table).
// CHECK-LABEL: func.func private @f_loop0()
// CHECK-LABEL: func.func @f(
// CHECK: call @[[L0:.*]](%{{.*}})
// CHECK: call @[[L1:.*]](%{{.*}})
// CHECK-NOT: @f_loop0(
// CHECK: func.func private @[[L0]](
// CHECK: func.func private @[[L1]](
func.func private @f_loop0() {
  return
}
func.func @f(%n: index, %m: memref<?xf32>, %f: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    memref.store %f, %m[%i] : memref<?xf32>
  }
  scf.for %i = %c0 to %n step %c1 {
    memref.store %f, %m[%n] : memref<?xf32>
  }
  return
}
