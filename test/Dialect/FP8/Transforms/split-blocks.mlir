// RUN: fp8-opt %s -split-input-file -fp8-split-blocks | FileCheck %s

// Every op with regions in a function body ends its block: the rest of the
// block moves to a new one reached by cf.br. No split before the
// terminator; nested regions (the loop bodies) are left alone.
// CHECK-LABEL: func.func @loops
// CHECK: scf.for
// CHECK: scf.for
// CHECK: memref.store
// CHECK: }
// CHECK: }
// CHECK-NEXT: cf.br ^[[B1:bb[0-9]+]]
// CHECK-NEXT: ^[[B1]]:
// CHECK-NEXT: %[[S:.*]] = arith.addi
// CHECK-NEXT: %[[R:.*]] = scf.if
// CHECK: } else {
// CHECK: {{^ *}}}{{$}}
// CHECK-NEXT: cf.br ^[[B2:bb[0-9]+]]
// CHECK-NEXT: ^[[B2]]:
// CHECK-NEXT: scf.for
// CHECK: }
// CHECK-NEXT: return %[[R]]
// CHECK-NOT: cf.br
func.func @loops(%n: index, %m: memref<?xf32>, %c: i1) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      memref.store %f, %m[%j] : memref<?xf32>
    }
  }
  %s = arith.addi %n, %c1 : index
  %r = scf.if %c -> index {
    scf.yield %s : index
  } else {
    scf.yield %n : index
  }
  scf.for %i = %c0 to %s step %c1 {
    memref.store %f, %m[%i] : memref<?xf32>
  }
  return %r : index
}

// -----

// Without ops with regions, or with one only right before the terminator:
// unchanged.
// CHECK-LABEL: func.func @straight
// CHECK-NOT: cf.br
// CHECK: return
func.func @straight(%n: index, %m: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  memref.store %f, %m[%c0] : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    memref.store %f, %m[%i] : memref<?xf32>
  }
  return
}

// -----

// max-block-ops = 2: a run of ops without regions is split after every
// second op (a GPU host step's launches and calls: bounded blocks keep the
// conversions to LLVM linear), never before the terminator; an op with
// regions still ends its block and starts a new run.
// RUN: fp8-opt %s -split-input-file -fp8-split-blocks=max-block-ops=2 | FileCheck %s --check-prefix=BOUND
// BOUND-LABEL: func.func @runs
// BOUND-NEXT: arith.constant 0
// BOUND-NEXT: arith.constant 1
// BOUND-NEXT: cf.br ^[[B1:bb[0-9]+]]
// BOUND-NEXT: ^[[B1]]:
// BOUND-NEXT: arith.constant 2.0
// BOUND-NEXT: scf.for
// BOUND: }
// BOUND-NEXT: cf.br ^[[B2:bb[0-9]+]]
// BOUND-NEXT: ^[[B2]]:
// BOUND-NEXT: memref.store
// BOUND-NEXT: memref.store
// BOUND-NEXT: cf.br ^[[B3:bb[0-9]+]]
// BOUND-NEXT: ^[[B3]]:
// BOUND-NEXT: memref.store
// BOUND-NEXT: return
func.func @runs(%n: index, %m: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 2.0 : f32
  scf.for %i = %c0 to %n step %c1 {
    memref.store %f, %m[%i] : memref<?xf32>
  }
  memref.store %f, %m[%c0] : memref<?xf32>
  memref.store %f, %m[%c1] : memref<?xf32>
  memref.store %f, %m[%n] : memref<?xf32>
  return
}

// -----

// RUN: not fp8-opt %s -split-input-file -fp8-split-blocks=max-block-ops=-1 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: fp8-split-blocks: max-block-ops must be >= 0, got -1
func.func @negative() {
  return
}
