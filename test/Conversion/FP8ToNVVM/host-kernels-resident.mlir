// Residency of the host kernels' launches (fp8-launch-kernels, after
// fp8-outline-host-kernels): what a launch reads and writes of each buffer
// is what its gpu.func's body does with the parameter. Inputs are copied in
// once; a buffer only written gets a fresh device buffer (no copy in); a
// written view needs its whole buffer on the device; written buffers are
// newer on the device until a host op reads them or the block ends.
// RUN: fp8-opt %s --split-input-file --fp8-outline-host-kernels --fp8-launch-kernels=launchers=define-only 2>/dev/null | FileCheck %s

// The fill writes %s without reading it: a fresh device buffer, nothing
// copied in; the row sum reads x (copied in) and reads and writes %s on the
// device; %s crosses once, when returned.
func.func @rows(%x: memref<16x40xf32>) -> memref<16xf32> {
  %zero = arith.constant 0.0 : f32
  %s = memref.alloc() : memref<16xf32>
  linalg.fill ins(%zero : f32) outs(%s : memref<16xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<16x40xf32>) outs(%s : memref<16xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }
  return %s : memref<16xf32>
}

// CHECK-LABEL: func.func @rows(
// CHECK-SAME: %[[X:.*]]: memref<16x40xf32>
// CHECK: %[[S:.*]] = memref.alloc() : memref<16xf32>
// CHECK: gpu.alloc
// CHECK: %[[SD:.*]] = memref.view {{.*}} to memref<16xf32>
// CHECK-NOT: gpu.memcpy
// CHECK: gpu.launch_func @fp8_host_kernels::@rows_fill {{.*}} args(%[[SD]] : memref<16xf32>)
// CHECK: %[[XD:.*]] = memref.view {{.*}} to memref<16x40xf32>
// CHECK: gpu.memcpy async [%{{.*}}] %[[XD]], %[[X]]
// CHECK: gpu.launch_func @fp8_host_kernels::@rows_generic {{.*}} args(%[[XD]] : memref<16x40xf32>, %[[SD]] : memref<16xf32>)
// CHECK-NEXT: gpu.wait async
// CHECK-NEXT: gpu.memcpy async [%{{.*}}] %[[S]], %[[SD]]
// CHECK-NOT: gpu.memcpy
// CHECK: return %[[S]]

// -----

// The copy into a view of %buf: %buf's other rows must be current on the
// device, so all of %buf is copied in; the copy of %buf into %h reads the
// device copy; both are copied back at the end (arguments the function
// wrote).
func.func @slice(%x: memref<4x8xf32>, %buf: memref<8x8xf32>, %h: memref<8x8xf32>) {
  %v = memref.subview %buf[4, 0] [4, 8] [1, 1] : memref<8x8xf32> to memref<4x8xf32, strided<[8, 1], offset: 32>>
  memref.copy %x, %v : memref<4x8xf32> to memref<4x8xf32, strided<[8, 1], offset: 32>>
  memref.copy %buf, %h : memref<8x8xf32> to memref<8x8xf32>
  return
}

// CHECK-LABEL: func.func @slice(
// CHECK-SAME: %[[X:.*]]: memref<4x8xf32>, %[[BUF:.*]]: memref<8x8xf32>, %[[H:.*]]: memref<8x8xf32>
// CHECK: %[[XD:.*]] = memref.view {{.*}} to memref<4x8xf32>
// CHECK: gpu.memcpy async [%{{.*}}] %[[XD]], %[[X]]
// CHECK: %[[BD:.*]] = memref.view {{.*}} to memref<8x8xf32>
// CHECK: gpu.memcpy async [%{{.*}}] %[[BD]], %[[BUF]]
// CHECK: %[[VD:.*]] = memref.subview %[[BD]][4, 0] [4, 8] [1, 1]
// CHECK: gpu.launch_func @fp8_host_kernels::@slice_copy {{.*}} args(%[[XD]] : memref<4x8xf32>, %[[VD]] : memref<4x8xf32, strided<[8, 1], offset: 32>>)
// CHECK: %[[HD:.*]] = memref.view {{.*}} to memref<8x8xf32>
// CHECK-NOT: gpu.memcpy
// CHECK: gpu.launch_func @fp8_host_kernels::@slice_copy_0 {{.*}} args(%[[BD]] : memref<8x8xf32>, %[[HD]] : memref<8x8xf32>)
// CHECK: gpu.memcpy async [%{{.*}}] %[[BUF]], %[[BD]]
// CHECK-NEXT: gpu.memcpy async [%{{.*}}] %[[H]], %[[HD]]

// -----

// A host op (math.exp) between kernels reads %s (copied back first) and
// writes %t (copied in for the next kernel); %s's device copy stays
// current (the host op only read it) and the last kernel reads and writes
// it there.
func.func @mixed(%x: memref<16xf32>) -> memref<16xf32> {
  %s = memref.alloc() : memref<16xf32>
  %t = memref.alloc() : memref<16xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : memref<16xf32>) outs(%s : memref<16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.mulf %a, %a : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%s : memref<16xf32>) outs(%t : memref<16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%t : memref<16xf32>) outs(%s : memref<16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  }
  memref.dealloc %t : memref<16xf32>
  return %s : memref<16xf32>
}

// CHECK-LABEL: func.func @mixed(
// CHECK-SAME: %[[X:.*]]: memref<16xf32>
// CHECK: %[[S:.*]] = memref.alloc()
// CHECK: %[[T:.*]] = memref.alloc()
// CHECK: gpu.memcpy async [%{{.*}}] %{{.*}}, %[[X]]
// CHECK: %[[SD:.*]] = memref.view {{.*}} to memref<16xf32>
// CHECK: gpu.launch_func @fp8_host_kernels::@mixed_generic {{.*}}, %[[SD]] : memref<16xf32>)
// CHECK: gpu.memcpy async [%{{.*}}] %[[S]], %[[SD]]
// CHECK: linalg.generic {{.*}} ins(%[[S]] : memref<16xf32>) outs(%[[T]] : memref<16xf32>)
// CHECK: math.exp
// CHECK: %[[TD:.*]] = memref.view {{.*}} to memref<16xf32>
// CHECK: gpu.memcpy async [%{{.*}}] %[[TD]], %[[T]]
// CHECK: gpu.launch_func @fp8_host_kernels::@mixed_generic_0 {{.*}} args(%[[TD]] : memref<16xf32>, %[[SD]] : memref<16xf32>)
// CHECK: memref.dealloc %[[T]]
// CHECK: gpu.memcpy async [%{{.*}}] %[[S]], %[[SD]]
// CHECK-NOT: gpu.memcpy
// CHECK: return %[[S]]
