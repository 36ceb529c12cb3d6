// fp8-outline-host-kernels{require-kernels}: not only linalg ops, every op
// left in a host function that touches a buffer's elements is an error
// naming it: under require-kernels the caller's buffers are device memory,
// and a host load, store, vector transfer or external call on one would
// dereference a device pointer on the host (a segmentation fault, or
// host memory read as if it were the tensor). Without the option they
// stay on the host as before (PLAIN).
// RUN: fp8-opt %s -split-input-file -verify-diagnostics --fp8-outline-host-kernels="require-kernels=true"
// RUN: fp8-opt %s -split-input-file --fp8-outline-host-kernels | FileCheck %s --check-prefix=PLAIN

// PLAIN-LABEL: func.func @store
// PLAIN: memref.store
func.func @store(%arg0: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  // expected-error @+1 {{'memref.store' op cannot run on the host (fp8-outline-host-kernels, require-kernels: the caller runs nothing but kernels): reads or writes a buffer's elements on the host}}
  memref.store %f, %arg0[%c0] : memref<4xf32>
  return
}

// -----

// A load inside a host loop the outliner does not take (no view moves per
// iteration) is reported too.
// PLAIN-LABEL: func.func @loop_load
// PLAIN: scf.for
// PLAIN: memref.load
func.func @loop_load(%arg0: memref<4xf32>, %arg1: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %z = arith.constant 0.0 : f32
  %s = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %z) -> f32 {
    // expected-error @+1 {{'memref.load' op cannot run on the host (fp8-outline-host-kernels, require-kernels: the caller runs nothing but kernels): reads or writes a buffer's elements on the host}}
    %v = memref.load %arg0[%i] : memref<4xf32>
    %a = arith.addf %acc, %v : f32
    scf.yield %a : f32
  }
  // expected-error @+1 {{'memref.store' op cannot run on the host}}
  memref.store %s, %arg1[] : memref<f32>
  return
}

// -----

// PLAIN-LABEL: func.func @vector_read
// PLAIN: vector.transfer_read
func.func @vector_read(%arg0: memref<4xf32>) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.0 : f32
  // expected-error @+1 {{'vector.transfer_read' op cannot run on the host (fp8-outline-host-kernels, require-kernels: the caller runs nothing but kernels): reads or writes a buffer's elements on the host (a vector access)}}
  %v = vector.transfer_read %arg0[%c0], %p : memref<4xf32>, vector<4xf32>
  return %v : vector<4xf32>
}

// -----

// A call passing a buffer to a function without a body (its code runs on
// the host); a call to a function defined here is no error of its own
// (its body is checked where it is), nor a call passing no buffer.
// PLAIN-LABEL: func.func @calls
// PLAIN: call @ext
func.func private @ext(memref<4xf32>)
func.func private @ext_scalar(f32)
func.func @defined(%arg0: memref<4xf32>) {
  return
}
func.func @calls(%arg0: memref<4xf32>) {
  %f = arith.constant 1.0 : f32
  // expected-error @+1 {{'func.call' op cannot run on the host (fp8-outline-host-kernels, require-kernels: the caller runs nothing but kernels): passes a buffer to @ext, a function without a body here, whose code runs on the host}}
  func.call @ext(%arg0) : (memref<4xf32>) -> ()
  func.call @ext_scalar(%f) : (f32) -> ()
  func.call @defined(%arg0) : (memref<4xf32>) -> ()
  return
}

// -----

// Allocation, views and a linalg op the pass outlines touch no element on
// the host: no error.
// PLAIN-LABEL: func.func @outlined
func.func @outlined(%arg0: memref<4xf32>) {
  %f = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<4xf32>
  %v = memref.subview %a[0] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1]>>
  linalg.fill ins(%f : f32) outs(%arg0 : memref<4xf32>)
  memref.dealloc %a : memref<4xf32>
  return
}
