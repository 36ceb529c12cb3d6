// fp8-outline-host-kernels never lets two threads of a kernel touch one
// element in no order. A host loop's threads each own one output element
// of its row update in every iteration, so its views of the output must
// not slide along the dimensions that tell threads apart, and its output
// map must be a permutation; otherwise one thread runs the loop (as on the
// host). An op kernel's input that is a view of its output reads only the
// element its thread writes, else the op stays on the host with a remark.
// The emulator runs of these loops: test/Emulator/host-loop-races.mlir.
// RUN: fp8-opt %s --split-input-file --fp8-outline-host-kernels -verify-diagnostics | FileCheck %s

// A window sliding by one element per iteration along the row update's
// columns: thread p adds into acc[i + p], which thread p + 1 added into
// in the previous iteration. One thread.
func.func @sliding(%src: memref<16x8xf32>, %acc: memref<24xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  // expected-remark @below {{one thread runs the loop nest (fp8-outline-host-kernels): no op of its body can be split over threads}}
  scf.for %i = %c0 to %c16 step %c1 {
    %dst = memref.subview %acc[%i] [8] [1] : memref<24xf32> to memref<8xf32, strided<[1], offset: ?>>
    %row = memref.subview %src[%i, 0] [1, 8] [1, 1] : memref<16x8xf32> to memref<8xf32, strided<[1], offset: ?>>
    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
        ins(%row : memref<8xf32, strided<[1], offset: ?>>) outs(%dst : memref<8xf32, strided<[1], offset: ?>>) {
    ^bb0(%g: f32, %a: f32):
      %s = arith.addf %a, %g : f32
      linalg.yield %s : f32
    }
  }
  return
}

// CHECK-LABEL: func.func @sliding(
// CHECK: gpu.launch_func @fp8_host_kernels::@sliding_loop blocks in (%c1{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}) threads in (%c1{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}})
// CHECK: gpu.func @sliding_loop(
// CHECK-SAME: known_block_size = array<i32: 1, 1, 1>
// CHECK-NOT: scf.if
// CHECK: scf.for
// CHECK: scf.for
// CHECK: gpu.return

// -----

// The same window slid by a view of a view: the outer view slides, the
// inner one is fixed in it. One thread.
func.func @sliding_outer(%src: memref<16x8xf32>, %acc: memref<32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  // expected-remark @below {{one thread runs the loop nest (fp8-outline-host-kernels): no op of its body can be split over threads}}
  scf.for %i = %c0 to %c16 step %c1 {
    %win = memref.subview %acc[%i] [16] [1] : memref<32xf32> to memref<16xf32, strided<[1], offset: ?>>
    %dst = memref.subview %win[4] [8] [1] : memref<16xf32, strided<[1], offset: ?>> to memref<8xf32, strided<[1], offset: ?>>
    %row = memref.subview %src[%i, 0] [1, 8] [1, 1] : memref<16x8xf32> to memref<8xf32, strided<[1], offset: ?>>
    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
        ins(%row : memref<8xf32, strided<[1], offset: ?>>) outs(%dst : memref<8xf32, strided<[1], offset: ?>>) {
    ^bb0(%g: f32, %a: f32):
      %s = arith.addf %a, %g : f32
      linalg.yield %s : f32
    }
  }
  return
}

// CHECK-LABEL: func.func @sliding_outer(
// CHECK: gpu.launch_func @fp8_host_kernels::@sliding_outer_loop blocks in (%c1{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}) threads in (%c1{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}})

// -----

// A row update whose row moves with the iteration (the embedding
// gradient's row at each token's id) at a fixed column offset, given
// outside the loop or inside it as a constant: each thread keeps its
// column. Eight threads, each running the 16 iterations (the remark says
// so, and why no row or tensor-core kernel takes the loop).
func.func @fixed_columns(%ids: memref<16xi64>, %src: memref<16x8xf32>, %table: memref<32x12xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  // expected-remark @below {{a loop kernel (fp8-outline-host-kernels): 8 threads (8 elements of its linalg.generic), 16 sequential steps each (the loop's iterations, in its order); no row or tensor-core kernel: it is a loop whose iterations view their buffers at indices of their own}}
  scf.for %t = %c0 to %c16 step %c1 {
    %id = memref.load %ids[%t] : memref<16xi64>
    %r = arith.index_cast %id : i64 to index
    %k2 = arith.constant 2 : index
    %band = memref.subview %table[0, %c2] [32, 10] [1, 1] : memref<32x12xf32> to memref<32x10xf32, strided<[12, 1], offset: ?>>
    %dst = memref.subview %band[%r, %k2] [1, 8] [1, 1] : memref<32x10xf32, strided<[12, 1], offset: ?>> to memref<8xf32, strided<[1], offset: ?>>
    %row = memref.subview %src[%t, 0] [1, 8] [1, 1] : memref<16x8xf32> to memref<8xf32, strided<[1], offset: ?>>
    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
        ins(%row : memref<8xf32, strided<[1], offset: ?>>) outs(%dst : memref<8xf32, strided<[1], offset: ?>>) {
    ^bb0(%g: f32, %a: f32):
      %s = arith.addf %a, %g : f32
      linalg.yield %s : f32
    }
  }
  return
}

// CHECK-LABEL: func.func @fixed_columns(
// CHECK: gpu.launch_func @fp8_host_kernels::@fixed_columns_loop blocks in (%c1{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}) threads in (%c8{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}})

// -----

// A row update whose output map is a projected permutation: the eight
// iterations (d0, 0..7) all add into out[d0]. Threads over its iterations
// would write one element from eight threads. One thread.
func.func @projected(%src: memref<4x2x8xf32>, %acc: memref<2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  // expected-remark @below {{one thread runs the loop nest (fp8-outline-host-kernels): no op of its body can be split over threads}}
  scf.for %i = %c0 to %c4 step %c1 {
    %row = memref.subview %src[%i, 0, 0] [1, 2, 8] [1, 1, 1] : memref<4x2x8xf32> to memref<2x8xf32, strided<[8, 1], offset: ?>>
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "parallel"]}
        ins(%row : memref<2x8xf32, strided<[8, 1], offset: ?>>) outs(%acc : memref<2xf32>) {
    ^bb0(%g: f32, %a: f32):
      %s = arith.addf %a, %g : f32
      linalg.yield %s : f32
    }
  }
  return
}

// CHECK-LABEL: func.func @projected(
// CHECK: gpu.launch_func @fp8_host_kernels::@projected_loop blocks in (%c1{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}) threads in (%c1{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}})

// -----

// An op reading its own output through another map (reversed in place):
// a thread would read an element another thread writes, in no order; the
// host's loop reads a[7 - i] after writing a[i] for i < 4. It stays on the
// host. Through another view of the buffer, too. In place element for
// element (each thread reads what it writes) is a kernel.
func.func @aliased(%a: memref<8xf32>, %b: memref<16xf32>, %c: memref<8xf32>) {
  // expected-remark @below {{runs on the host (fp8-outline-host-kernels): an input reads a buffer an output writes, not element for element (another view or indexing map: threads would race with the host's order)}}
  linalg.generic {indexing_maps = [affine_map<(d0) -> (7 - d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : memref<8xf32>) outs(%a : memref<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  %lo = memref.subview %b[0] [8] [1] : memref<16xf32> to memref<8xf32, strided<[1]>>
  %hi = memref.subview %b[4] [8] [1] : memref<16xf32> to memref<8xf32, strided<[1], offset: 4>>
  // expected-remark @below {{runs on the host (fp8-outline-host-kernels): an input reads a buffer an output writes, not element for element}}
  linalg.add ins(%lo, %c : memref<8xf32, strided<[1]>>, memref<8xf32>) outs(%hi : memref<8xf32, strided<[1], offset: 4>>)
  linalg.add ins(%a, %c : memref<8xf32>, memref<8xf32>) outs(%a : memref<8xf32>)
  return
}

// CHECK-LABEL: func.func @aliased(
// CHECK: linalg.generic
// CHECK: linalg.add ins(%{{.*}}, %{{.*}} : memref<8xf32, strided<[1]>>, memref<8xf32>)
// CHECK: gpu.launch_func @fp8_host_kernels::@aliased_add blocks in (%c1{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}) threads in (%c8{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}) args(%{{.*}} : memref<8xf32>, %{{.*}} : memref<8xf32>)
