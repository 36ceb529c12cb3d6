// fp8-outline-host-kernels: linalg ops on static buffers become kernels in
// gpu.module @fp8_host_kernels whose threads compute the host loop nest's
// output elements, each accumulating in the host's order; a host loop that
// views its buffers at its own indices (the embedding gradient's
// scatter-add) becomes one kernel of one thread running the loop nest; the
// others stay with a remark naming why.
// RUN: fp8-opt %s --split-input-file --fp8-outline-host-kernels 2>/dev/null | FileCheck %s
// RUN: fp8-opt %s --split-input-file --fp8-outline-host-kernels 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK --implicit-check-not="see current operation"

// A column sum ([reduction, parallel]): the parallel iterator becomes the
// thread's, the reduction a sequential loop inside it. The fill only writes
// its output: its kernel loads nothing.
func.func @colsum(%a: memref<4x8xf32>, %out: memref<8xf32>) {
  %c0 = arith.constant 0.0 : f32
  linalg.fill ins(%c0 : f32) outs(%out : memref<8xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]}
      ins(%a : memref<4x8xf32>) outs(%out : memref<8xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %acc, %x : f32
    linalg.yield %s : f32
  }
  return
}

// CHECK-LABEL: func.func @colsum(
// CHECK: gpu.launch_func @fp8_host_kernels::@colsum_fill blocks in (%{{.*}}) threads in (%{{.*}}) args(%arg1 : memref<8xf32>)
// CHECK: gpu.launch_func @fp8_host_kernels::@colsum_generic blocks in ({{.*}}) threads in ({{.*}}) args(%arg0 : memref<4x8xf32>, %arg1 : memref<8xf32>)
// CHECK: gpu.module @fp8_host_kernels [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80">]
// CHECK: gpu.func @colsum_fill(%[[OUT:.*]]: memref<8xf32>) kernel attributes {known_block_size = array<i32: 8, 1, 1>, known_grid_size = array<i32: 1, 1, 1>}
// CHECK: %[[ID:.*]] = arith.addi
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[ID]], %c8
// CHECK: scf.if %[[IN]]
// CHECK-NOT: memref.load
// CHECK: memref.store %{{.*}}, %[[OUT]]
// CHECK: gpu.func @colsum_generic(%[[A:.*]]: memref<4x8xf32>, %[[S:.*]]: memref<8xf32>)
// CHECK: scf.if
// CHECK-NEXT: scf.for %[[K:.*]] = %c0 to %c4
// CHECK: memref.load %[[A]][%{{.*}}, %{{.*}}]
// CHECK: memref.load %[[S]]
// CHECK: arith.addf
// CHECK: memref.store %{{.*}}, %[[S]]

// -----

// Two reductions around a parallel iterator: d1 outermost, then d0 (3
// iterations) and d2 (5) in their order.
func.func @order(%a: memref<3x600x5xf32>, %out: memref<600xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1)>], iterator_types = ["reduction", "parallel", "reduction"]}
      ins(%a : memref<3x600x5xf32>) outs(%out : memref<600xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %acc, %x : f32
    linalg.yield %s : f32
  }
  return
}

// CHECK-LABEL: func.func @order(
// CHECK: gpu.launch_func @fp8_host_kernels::@order_generic blocks in (%c3, %c1, %c1) threads in (%c256, %c1, %c1)
// CHECK: gpu.func @order_generic
// CHECK: scf.if
// CHECK-NEXT: scf.for %[[D0:.*]] = %c0 to %c3
// CHECK-NEXT: scf.for %[[D2:.*]] = %c0_0 to %c5

// -----

// No parallel iterator (a loss sum): one thread.
func.func @total(%a: memref<16xf32>, %out: memref<f32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]}
      ins(%a : memref<16xf32>) outs(%out : memref<f32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %acc, %x : f32
    linalg.yield %s : f32
  }
  return
}

// CHECK-LABEL: func.func @total(
// CHECK: gpu.launch_func @fp8_host_kernels::@total_generic blocks in (%c1{{(_[0-9]+)?}}, %c1, %c1) threads in (%c1{{(_[0-9]+)?}}, %c1, %c1)
// CHECK: gpu.func @total_generic
// CHECK-NOT: scf.if
// CHECK: scf.for

// -----

// memref.copy of a static shape into a view: linalg.copy's kernel.
func.func @copy(%a: memref<4x8xbf16>, %b: memref<8x8xbf16>) {
  %v = memref.subview %b[4, 0] [4, 8] [1, 1] : memref<8x8xbf16> to memref<4x8xbf16, strided<[8, 1], offset: 32>>
  memref.copy %a, %v : memref<4x8xbf16> to memref<4x8xbf16, strided<[8, 1], offset: 32>>
  return
}

// CHECK-LABEL: func.func @copy(
// CHECK: %[[V:.*]] = memref.subview
// CHECK-NOT: memref.copy
// CHECK: gpu.launch_func @fp8_host_kernels::@copy_copy {{.*}} args(%arg0 : memref<4x8xbf16>, %[[V]] : memref<4x8xbf16, strided<[8, 1], offset: 32>>)
// CHECK: gpu.func @copy_copy(
// CHECK: arith.remui %{{.*}}, %c8
// CHECK: arith.divui %{{.*}}, %c8

// -----

// What stays on the host, and why.
func.func @host(%a: memref<?xf32>, %b: memref<?xf32>, %c: memref<8xf32>, %d: memref<8xf32>, %e: memref<8xf64>) {
  linalg.copy ins(%a : memref<?xf32>) outs(%b : memref<?xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%c : memref<8xf32>) outs(%d : memref<8xf32>) {
  ^bb0(%x: f32, %y: f32):
    %r = math.exp %x : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%c : memref<8xf32>) outs(%d : memref<8xf32>) {
  ^bb0(%x: f32, %y: f32):
    %r = arith.mulf %x, %x fastmath<contract> : f32
    linalg.yield %r : f32
  }
  %cst = arith.constant 1.0 : f64
  linalg.fill ins(%cst : f64) outs(%e : memref<8xf64>)
  scf.forall (%i) in (2) {
    %z = arith.constant 0.0 : f32
    %s = memref.subview %c[%i] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: ?>>
    linalg.fill ins(%z : f32) outs(%s : memref<4xf32, strided<[1], offset: ?>>)
  }
  return
}

// REMARK: remark: runs on the host (fp8-outline-host-kernels): an operand has a dynamic shape or layout (kernels take bare pointers: static shapes only)
// REMARK: remark: runs on the host (fp8-outline-host-kernels): its body's math.exp has no GPU lowering with the host's bits
// REMARK: remark: runs on the host (fp8-outline-host-kernels): its body's arith.mulf has fast-math flags, which the host's and the GPU's code generators may apply differently
// REMARK: remark: runs on the host (fp8-outline-host-kernels): an operand has an element type that is not i8/i16/i32/i64/f16/bf16/f32
// REMARK: remark: runs on the host (fp8-outline-host-kernels): it is inside a host-parallel loop
// CHECK-LABEL: func.func @host(
// CHECK-NOT: gpu.launch_func
// CHECK: linalg.copy
// CHECK: math.exp
// CHECK: fastmath<contract>
// CHECK: linalg.fill
// CHECK: scf.forall
// CHECK: linalg.fill
// CHECK-NOT: gpu.module

// -----

// The embedding's gather: the body loads the table (a buffer defined
// outside the op) at the token ids. The table becomes a kernel parameter,
// loaded by the kernel at the index_cast id and the thread's column.
func.func @gather(%ids: memref<16xi64>, %table: memref<32x8xf32>, %out: memref<16x8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%ids : memref<16xi64>) outs(%out : memref<16x8xf32>) {
  ^bb0(%id: i64, %o: f32):
    %row = arith.index_cast %id : i64 to index
    %col = linalg.index 1 : index
    %v = memref.load %table[%row, %col] : memref<32x8xf32>
    linalg.yield %v : f32
  }
  return
}

// CHECK-LABEL: func.func @gather(
// CHECK: gpu.launch_func @fp8_host_kernels::@gather_generic blocks in (%{{.*}}) threads in (%{{.*}}) args(%arg0 : memref<16xi64>, %arg2 : memref<16x8xf32>, %arg1 : memref<32x8xf32>)
// CHECK: gpu.func @gather_generic(%[[IDS:.*]]: memref<16xi64>, %[[OUT:.*]]: memref<16x8xf32>, %[[T:.*]]: memref<32x8xf32>)
// CHECK: %[[COL:.*]] = arith.remui %{{.*}}, %c8
// CHECK: %[[ID:.*]] = memref.load %[[IDS]][%{{.*}}]
// CHECK: %[[R:.*]] = arith.index_cast %[[ID]] : i64 to index
// CHECK: %[[V:.*]] = memref.load %[[T]][%[[R]], %[[COL]]]
// CHECK: memref.store %[[V]], %[[OUT]][

// -----

// The embedding's backward: the host loop over the tokens adds each
// token's gradient row into the table row of its id (duplicate ids in
// token order). One kernel runs the loop nest, its threads over the row
// update's columns and over chunks of the table's rows (the row the loop
// views at each token's id): thread g owns column g % 8 of the rows of
// chunk g / 8 and runs the whole token loop, adding a token's element only
// when the token's row is its chunk's. Every element is added to by one
// thread, in token order (the host's bits). 32 rows of 8 columns: 32
// chunks of one row (at most one chunk per row), 256 threads. The views
// fold into the loads and stores of the table.
func.func @scatter_add(%ids: memref<16xi64>, %grad: memref<16x8xf32>, %table: memref<32x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.for %t = %c0 to %c16 step %c1 {
    %id = memref.load %ids[%t] : memref<16xi64>
    %row = arith.index_cast %id : i64 to index
    %dst = memref.subview %table[%row, 0] [1, 8] [1, 1] : memref<32x8xf32> to memref<8xf32, strided<[1], offset: ?>>
    %src = memref.subview %grad[%t, 0] [1, 8] [1, 1] : memref<16x8xf32> to memref<8xf32, strided<[1], offset: ?>>
    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
        ins(%src : memref<8xf32, strided<[1], offset: ?>>) outs(%dst : memref<8xf32, strided<[1], offset: ?>>) {
    ^bb0(%g: f32, %acc: f32):
      %s = arith.addf %acc, %g : f32
      linalg.yield %s : f32
    }
  }
  return
}

// CHECK-LABEL: func.func @scatter_add(
// CHECK-NOT: scf.for
// CHECK: gpu.launch_func @fp8_host_kernels::@scatter_add_loop blocks in (%c1{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}) threads in (%c256{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}) args(%arg0 : memref<16xi64>, %arg1 : memref<16x8xf32>, %arg2 : memref<32x8xf32>)
// CHECK-NOT: scf.for
// CHECK: return
// CHECK: gpu.func @scatter_add_loop(%[[IDS:.*]]: memref<16xi64>, %[[G:.*]]: memref<16x8xf32>, %[[T:.*]]: memref<32x8xf32>) kernel attributes {known_block_size = array<i32: 256, 1, 1>, known_grid_size = array<i32: 1, 1, 1>}
// CHECK-NOT: memref.subview
// CHECK: %[[GID:.*]] = arith.addi %{{.*}}, %thread_id_x
// CHECK: %[[J:.*]] = arith.remui %[[GID]], %c8
// CHECK: %[[CHUNK:.*]] = arith.divui %[[GID]], %c8
// CHECK: scf.for %[[TOK:.*]] = %{{.*}} to %c16
// CHECK: %[[ID:.*]] = memref.load %[[IDS]][%[[TOK]]]
// CHECK: %[[R:.*]] = arith.index_cast %[[ID]] : i64 to index
// CHECK: %[[OWN:.*]] = arith.cmpi eq, %[[R]], %[[CHUNK]]
// CHECK: scf.if %[[OWN]]
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[J]], %c8
// CHECK: scf.if %[[IN]]
// CHECK-DAG: %[[A:.*]] = memref.load %[[T]][%[[R]], %[[J]]]
// CHECK-DAG: %[[B:.*]] = memref.load %[[G]][%[[TOK]], %[[J]]]
// CHECK: %[[S:.*]] = arith.addf %[[A]], %[[B]]
// CHECK: memref.store %[[S]], %[[T]][%[[R]], %[[J]]]
// CHECK-NOT: memref.subview
// CHECK: gpu.return

// -----

// A bigger table: 4096 rows of 64 columns. 2^16 threads are 1024 chunks
// of 64 (kOwnedRowsThreads), so each chunk owns 4 rows: a token's row r is
// chunk r / 4's. 256 CTAs of 256 threads.
func.func @scatter_add_chunks(%ids: memref<16xi64>, %grad: memref<16x64xf32>, %table: memref<4096x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.for %t = %c0 to %c16 step %c1 {
    %id = memref.load %ids[%t] : memref<16xi64>
    %row = arith.index_cast %id : i64 to index
    %dst = memref.subview %table[%row, 0] [1, 64] [1, 1] : memref<4096x64xf32> to memref<64xf32, strided<[1], offset: ?>>
    %src = memref.subview %grad[%t, 0] [1, 64] [1, 1] : memref<16x64xf32> to memref<64xf32, strided<[1], offset: ?>>
    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
        ins(%src : memref<64xf32, strided<[1], offset: ?>>) outs(%dst : memref<64xf32, strided<[1], offset: ?>>) {
    ^bb0(%g: f32, %acc: f32):
      %s = arith.addf %acc, %g : f32
      linalg.yield %s : f32
    }
  }
  return
}

// CHECK-LABEL: func.func @scatter_add_chunks(
// CHECK: gpu.launch_func @fp8_host_kernels::@scatter_add_chunks_loop blocks in (%c256{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}) threads in (%c256{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}})
// CHECK: gpu.func @scatter_add_chunks_loop(
// CHECK: %[[GID:.*]] = arith.addi %{{.*}}, %thread_id_x
// CHECK: %[[CHUNK:.*]] = arith.divui %[[GID]], %c64
// CHECK: scf.for
// CHECK: %[[R:.*]] = arith.index_cast
// CHECK: %[[OWNER:.*]] = arith.divui %[[R]], %c4
// CHECK: %[[OWN:.*]] = arith.cmpi eq, %[[OWNER]], %[[CHUNK]]
// CHECK: scf.if %[[OWN]]
// CHECK: memref.store
// CHECK: gpu.return

// -----

// Two offsets moving with the tokens (a row and a column of a 2-D table):
// no one row per iteration, so the threads split the columns only (each
// keeps its element: the moving column offset is along a unit dimension).
func.func @scatter_two_offsets(%ids: memref<16xi64>, %grad: memref<16x8xf32>, %table: memref<32x16x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.for %t = %c0 to %c16 step %c1 {
    %id = memref.load %ids[%t] : memref<16xi64>
    %row = arith.index_cast %id : i64 to index
    %dst = memref.subview %table[%row, %t, 0] [1, 1, 8] [1, 1, 1] : memref<32x16x8xf32> to memref<8xf32, strided<[1], offset: ?>>
    %src = memref.subview %grad[%t, 0] [1, 8] [1, 1] : memref<16x8xf32> to memref<8xf32, strided<[1], offset: ?>>
    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
        ins(%src : memref<8xf32, strided<[1], offset: ?>>) outs(%dst : memref<8xf32, strided<[1], offset: ?>>) {
    ^bb0(%g: f32, %acc: f32):
      %s = arith.addf %acc, %g : f32
      linalg.yield %s : f32
    }
  }
  return
}

// CHECK-LABEL: func.func @scatter_two_offsets(
// CHECK: gpu.launch_func @fp8_host_kernels::@scatter_two_offsets_loop blocks in (%c1{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}) threads in (%c8{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}})
// CHECK: gpu.func @scatter_two_offsets_loop(
// CHECK-NOT: arith.divui
// CHECK: scf.for
// CHECK-NOT: arith.cmpi eq
// CHECK: memref.store
// CHECK: gpu.return

// -----

// A loop whose row update is scaled by an element of the table it writes
// (another thread's column): one thread runs the loop nest, in the host's
// order.
func.func @one_thread(%ids: memref<16xi64>, %grad: memref<16x8xf32>, %table: memref<32x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.for %t = %c0 to %c16 step %c1 {
    %id = memref.load %ids[%t] : memref<16xi64>
    %row = arith.index_cast %id : i64 to index
    %scale = memref.load %table[%row, %c0] : memref<32x8xf32>
    %dst = memref.subview %table[%row, 0] [1, 8] [1, 1] : memref<32x8xf32> to memref<8xf32, strided<[1], offset: ?>>
    %src = memref.subview %grad[%t, 0] [1, 8] [1, 1] : memref<16x8xf32> to memref<8xf32, strided<[1], offset: ?>>
    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
        ins(%src : memref<8xf32, strided<[1], offset: ?>>) outs(%dst : memref<8xf32, strided<[1], offset: ?>>) {
    ^bb0(%g: f32, %acc: f32):
      %m = arith.mulf %g, %scale : f32
      %s = arith.addf %acc, %m : f32
      linalg.yield %s : f32
    }
  }
  return
}

// CHECK-LABEL: func.func @one_thread(
// CHECK: gpu.launch_func @fp8_host_kernels::@one_thread_loop blocks in (%c1{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}) threads in (%c1{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}})
// CHECK: gpu.func @one_thread_loop(
// CHECK-SAME: known_block_size = array<i32: 1, 1, 1>
// CHECK-NOT: scf.if
// CHECK: scf.for
// CHECK: scf.for
// CHECK: arith.mulf
// CHECK: gpu.return

// -----

// A loop without views at its indices stays a host loop; its static ops
// are kernels one by one (one launch per iteration).
func.func @per_op(%a: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %z = arith.constant 0.0 : f32
  scf.for %t = %c0 to %c4 step %c1 {
    linalg.fill ins(%z : f32) outs(%a : memref<8xf32>)
  }
  return
}

// CHECK-LABEL: func.func @per_op(
// CHECK: scf.for
// CHECK: gpu.launch_func @fp8_host_kernels::@per_op_fill
// CHECK-NEXT: }

// -----

// Host loops that stay on the host: the op in the loop says why, and why
// its loop is not a kernel.
func.func @loop_host(%ids: memref<16xi64>, %grad: memref<16x8xf32>, %table: memref<32x8xf32>, %dyn: memref<?x8xf32>, %e: memref<16x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  // Rows copied into a table it does not read: the residency would take
  // the kernel's write-only table as wholly written.
  scf.for %t = %c0 to %c16 step %c1 {
    %id = memref.load %ids[%t] : memref<16xi64>
    %row = arith.index_cast %id : i64 to index
    %dst = memref.subview %table[%row, 0] [1, 8] [1, 1] : memref<32x8xf32> to memref<8xf32, strided<[1], offset: ?>>
    %src = memref.subview %grad[%t, 0] [1, 8] [1, 1] : memref<16x8xf32> to memref<8xf32, strided<[1], offset: ?>>
    linalg.copy ins(%src : memref<8xf32, strided<[1], offset: ?>>) outs(%dst : memref<8xf32, strided<[1], offset: ?>>)
  }
  // A buffer of a dynamic shape.
  scf.for %t = %c0 to %c16 step %c1 {
    %id = memref.load %ids[%t] : memref<16xi64>
    %row = arith.index_cast %id : i64 to index
    %dst = memref.subview %dyn[%row, 0] [1, 8] [1, 1] : memref<?x8xf32> to memref<8xf32, strided<[1], offset: ?>>
    %src = memref.subview %grad[%t, 0] [1, 8] [1, 1] : memref<16x8xf32> to memref<8xf32, strided<[1], offset: ?>>
    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
        ins(%src : memref<8xf32, strided<[1], offset: ?>>) outs(%dst : memref<8xf32, strided<[1], offset: ?>>) {
    ^bb0(%g: f32, %acc: f32):
      %s = arith.addf %acc, %g : f32
      linalg.yield %s : f32
    }
  }
  // A body op without the host's bits on the GPU.
  scf.for %t = %c0 to %c16 step %c1 {
    %id = memref.load %ids[%t] : memref<16xi64>
    %row = arith.index_cast %id : i64 to index
    %dst = memref.subview %table[%row, 0] [1, 8] [1, 1] : memref<32x8xf32> to memref<8xf32, strided<[1], offset: ?>>
    %src = memref.subview %grad[%t, 0] [1, 8] [1, 1] : memref<16x8xf32> to memref<8xf32, strided<[1], offset: ?>>
    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
        ins(%src : memref<8xf32, strided<[1], offset: ?>>) outs(%dst : memref<8xf32, strided<[1], offset: ?>>) {
    ^bb0(%g: f32, %acc: f32):
      %x = math.exp %g : f32
      %s = arith.addf %acc, %x : f32
      linalg.yield %s : f32
    }
  }
  // A gather from the op's own output (a thread would read what another
  // writes), and from a buffer of a dynamic shape.
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%ids : memref<16xi64>) outs(%e : memref<16x8xf32>) {
  ^bb0(%id: i64, %o: f32):
    %row = arith.index_cast %id : i64 to index
    %col = linalg.index 1 : index
    %v = memref.load %e[%row, %col] : memref<16x8xf32>
    linalg.yield %v : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%ids : memref<16xi64>) outs(%e : memref<16x8xf32>) {
  ^bb0(%id: i64, %o: f32):
    %row = arith.index_cast %id : i64 to index
    %col = linalg.index 1 : index
    %v = memref.load %dyn[%row, %col] : memref<?x8xf32>
    linalg.yield %v : f32
  }
  return
}

// REMARK: remark: runs on the host (fp8-outline-host-kernels): an operand has a dynamic shape or layout (kernels take bare pointers: static shapes only); its scf.for is not a kernel: it writes a buffer it does not read (a kernel's write-only buffers are taken as wholly written)
// REMARK: remark: runs on the host (fp8-outline-host-kernels): an operand has a dynamic shape or layout (kernels take bare pointers: static shapes only); its scf.for is not a kernel: a buffer it uses has a dynamic shape or layout
// REMARK: remark: runs on the host (fp8-outline-host-kernels): an operand has a dynamic shape or layout (kernels take bare pointers: static shapes only); its scf.for is not a kernel: its body's math.exp has no GPU lowering with the host's bits
// REMARK: remark: runs on the host (fp8-outline-host-kernels): its body's memref.load reads a buffer the op writes (threads would race with the host's order)
// REMARK: remark: runs on the host (fp8-outline-host-kernels): its body's memref.load reads a buffer that has a dynamic shape or layout
// CHECK-LABEL: func.func @loop_host(
// CHECK-NOT: gpu.launch_func
// CHECK: return

// -----

// A program constant (the RoPE cos/sin tables: a `constant` memref.global
// after bufferization) read by kernels is no kernel argument: the kernel
// module holds one copy of the global, shared by the kernels reading it
// (whole or through a view, folded into the loads), so the residency
// never copies it in. An op
// staying on the host (fast-math flags) keeps reading the host's global;
// a global that is not constant stays a kernel argument.
memref.global "private" constant @table : memref<4x8xf32> = dense<[[0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [-1.0, -2.0, -3.0, -4.0, -5.0, -6.0, -7.0, -8.0], [0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 2.0]]> {alignment = 64 : i64}
memref.global "private" @state : memref<8xf32> = dense<0.0>
func.func @const_table(%a: memref<4x8xf32>, %b: memref<8xf32>, %out: memref<4x8xf32>, %row: memref<8xf32>, %h: memref<8xf32>, %s: memref<8xf32>) {
  %t = memref.get_global @table : memref<4x8xf32>
  linalg.add ins(%a, %t : memref<4x8xf32>, memref<4x8xf32>) outs(%out : memref<4x8xf32>)
  %r1 = memref.subview %t[1, 0] [1, 8] [1, 1] : memref<4x8xf32> to memref<8xf32, strided<[1], offset: 8>>
  linalg.mul ins(%b, %r1 : memref<8xf32>, memref<8xf32, strided<[1], offset: 8>>) outs(%row : memref<8xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%r1 : memref<8xf32, strided<[1], offset: 8>>) outs(%h : memref<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %x fastmath<fast> : f32
    linalg.yield %y : f32
  }
  %g = memref.get_global @state : memref<8xf32>
  linalg.add ins(%b, %g : memref<8xf32>, memref<8xf32>) outs(%s : memref<8xf32>)
  return
}

// CHECK-LABEL: func.func @const_table(
// CHECK-SAME: %[[A:[^:]*]]: memref<4x8xf32>, %[[B:[^:]*]]: memref<8xf32>, %[[OUT:[^:]*]]: memref<4x8xf32>, %[[ROW:[^:]*]]: memref<8xf32>, %[[H:[^:]*]]: memref<8xf32>, %[[S:[^:]*]]: memref<8xf32>)
// CHECK: %[[T:.*]] = memref.get_global @table : memref<4x8xf32>
// CHECK: gpu.launch_func @fp8_host_kernels::@const_table_add blocks in (%{{.*}}) threads in (%{{.*}}) args(%[[A]] : memref<4x8xf32>, %[[OUT]] : memref<4x8xf32>){{$}}
// CHECK: %[[R1:.*]] = memref.subview %[[T]][1, 0] [1, 8] [1, 1]
// CHECK: gpu.launch_func @fp8_host_kernels::@const_table_mul blocks in (%{{.*}}) threads in (%{{.*}}) args(%[[B]] : memref<8xf32>, %[[ROW]] : memref<8xf32>){{$}}
// CHECK: linalg.generic {{.*}} ins(%[[R1]] : memref<8xf32, strided<[1], offset: 8>>) outs(%[[H]] : memref<8xf32>)
// CHECK: %[[G:.*]] = memref.get_global @state : memref<8xf32>
// CHECK: gpu.launch_func @fp8_host_kernels::@const_table_add_0 blocks in (%{{.*}}) threads in (%{{.*}}) args(%[[B]] : memref<8xf32>, %[[G]] : memref<8xf32>, %[[S]] : memref<8xf32>)
// CHECK: gpu.module @fp8_host_kernels
// CHECK-NEXT: memref.global "private" constant @table : memref<4x8xf32> = dense<{{\[\[}}5.000000e-01, 1.000000e+00, {{.*}}]]> {alignment = 64 : i64}
// CHECK-NOT: memref.global
// CHECK: gpu.func @const_table_add(%{{.*}}: memref<4x8xf32>, %{{.*}}: memref<4x8xf32>) kernel
// CHECK: %[[KT:.*]] = memref.get_global @table : memref<4x8xf32>
// CHECK: memref.load %[[KT]]
// CHECK: gpu.func @const_table_mul(%{{.*}}: memref<8xf32>, %{{.*}}: memref<8xf32>) kernel
// CHECK: %[[KT2:.*]] = memref.get_global @table : memref<4x8xf32>
// CHECK-NOT: memref.subview
// CHECK: memref.load %[[KT2]][%c1, %{{.*}}] : memref<4x8xf32>
// CHECK: gpu.func @const_table_add_0(%{{.*}}: memref<8xf32>, %{{.*}}: memref<8xf32>, %{{.*}}: memref<8xf32>) kernel
// CHECK-NOT: memref.get_global
// CHECK: gpu.return
// REMARK: remark: runs on the host (fp8-outline-host-kernels): its body's arith.addf has fast-math flags

// -----

// A step repeats its layers' ops on the same shapes: an op whose kernel
// would be a copy of one outlined before (the same type, attributes and
// body, up to names and locations) launches that kernel, here across two
// functions. Another shape or another body is a kernel of its own: a - b
// and b - a hash alike (the same ops), their bodies differ.
#id = affine_map<(d0) -> (d0)>
func.func @layer0(%a: memref<64xf32>, %b: memref<64xf32>, %c: memref<32xf32>, %d: memref<64xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : memref<64xf32>) outs(%b : memref<64xf32>) {
  ^bb0(%x: f32, %y: f32):
    %s = arith.mulf %x, %x : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%b : memref<64xf32>) outs(%a : memref<64xf32>) {
  ^bb0(%x: f32, %y: f32):
    %s = arith.mulf %x, %x : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%c : memref<32xf32>) outs(%c : memref<32xf32>) {
  ^bb0(%x: f32, %y: f32):
    %s = arith.mulf %x, %x : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%a, %b : memref<64xf32>, memref<64xf32>) outs(%d : memref<64xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %s = arith.subf %x, %y : f32
    linalg.yield %s : f32
  }
  return
}
func.func @layer1(%a: memref<64xf32>, %b: memref<64xf32>, %d: memref<64xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : memref<64xf32>) outs(%b : memref<64xf32>) {
  ^bb0(%x: f32, %y: f32):
    %s = arith.mulf %x, %x : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%a, %b : memref<64xf32>, memref<64xf32>) outs(%d : memref<64xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %s = arith.subf %y, %x : f32
    linalg.yield %s : f32
  }
  return
}

// CHECK-LABEL: func.func @layer0(
// CHECK: gpu.launch_func @fp8_host_kernels::@[[SQUARE:layer0_generic]] {{.*}} args(%arg0 : memref<64xf32>, %arg1 : memref<64xf32>)
// CHECK: gpu.launch_func @fp8_host_kernels::@[[SQUARE]] {{.*}} args(%arg1 : memref<64xf32>, %arg0 : memref<64xf32>)
// CHECK: gpu.launch_func @fp8_host_kernels::@[[SHORT:layer0_generic_[0-9]+]] {{.*}} args(%arg2 : memref<32xf32>)
// CHECK: gpu.launch_func @fp8_host_kernels::@[[AMINUSB:layer0_generic_[0-9]+]] {{.*}} args(%arg0 : memref<64xf32>, %arg1 : memref<64xf32>, %arg3 : memref<64xf32>)
// CHECK-LABEL: func.func @layer1(
// CHECK: gpu.launch_func @fp8_host_kernels::@[[SQUARE]] {{.*}} args(%arg0 : memref<64xf32>, %arg1 : memref<64xf32>)
// CHECK: gpu.launch_func @fp8_host_kernels::@[[BMINUSA:layer1_generic]] {{.*}} args(%arg0 : memref<64xf32>, %arg1 : memref<64xf32>, %arg2 : memref<64xf32>)
// CHECK: gpu.module @fp8_host_kernels
// CHECK-COUNT-4: gpu.func
// CHECK-NOT: gpu.func
