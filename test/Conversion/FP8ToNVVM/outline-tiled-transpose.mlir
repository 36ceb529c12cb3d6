// fp8-outline-host-kernels, transposing elementwise kernels
// (OutlineTiledTranspose.cpp): an input read along another innermost
// dimension than the outputs are written is staged through a workgroup
// buffer of 32 x 33 elements (a padded row against bank conflicts) per
// 32 x 32 tile: 256 threads, tx = tid % 32 and ty = tid / 32, load the tile
// with tx along the input's innermost index (coalesced), a gpu.barrier,
// then compute the output elements with tx along the output's innermost
// index, reading the staged value at tx * 33 + row; other inputs are read
// from global memory as before. Tails are guarded in both phases.
// Permutations that keep the innermost dimension stay one thread per
// element.
// RUN: fp8-opt %s --split-input-file --fp8-outline-host-kernels | FileCheck %s

func.func @tr(%a: memref<65x33xf32>, %o: memref<33x65xf32>) {
  linalg.transpose ins(%a : memref<65x33xf32>) outs(%o : memref<33x65xf32>) permutation = [1, 0]
  return
}

// The loop dims: d0 along the output's rows (33, the input's innermost),
// d1 along its columns (65): ceil(33 / 32) x ceil(65 / 32) = 6 tiles.
// CHECK-DAG: #[[D1:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[D0:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @tr(
// CHECK: gpu.launch_func @fp8_host_kernels::@tr_transpose blocks in (%c6, %c1, %c1) threads in (%c256, %c1, %c1)
// CHECK: gpu.func @tr_transpose(%[[IN:.*]]: memref<65x33xf32>, %[[OUT:.*]]: memref<33x65xf32>) workgroup(%[[TILE:.*]] : memref<1056xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 256, 1, 1>, known_grid_size = array<i32: 6, 1, 1>}
// CHECK: %[[BID:.*]] = gpu.block_id x
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[TX:.*]] = arith.remui %[[TID]], %c32
// CHECK: %[[TY:.*]] = arith.divui %[[TID]], %c32
// The tile's origin: the output's innermost tile index fastest.
// CHECK: %[[TN:.*]] = arith.remui %[[BID]], %c3
// CHECK: %[[REST:.*]] = arith.divui %[[BID]], %c3
// CHECK: %[[N0:.*]] = arith.muli %[[TN]], %c32
// CHECK: %[[TK:.*]] = arith.remui %[[REST]], %c2
// CHECK: %[[K0:.*]] = arith.muli %[[TK]], %c32
// The loads: row ty + 8 r along d1, tx along d0 (the input's innermost).
// CHECK: scf.for %[[R:.*]] = %c0 to %c4 step %c1 {
// CHECK: %[[R8:.*]] = arith.muli %[[R]], %c8
// CHECK: %[[ROW:.*]] = arith.addi %[[TY]], %[[R8]]
// CHECK: %[[DN:.*]] = arith.addi %[[N0]], %[[ROW]]
// CHECK: %[[DK:.*]] = arith.addi %[[K0]], %[[TX]]
// CHECK: %[[INN:.*]] = arith.cmpi ult, %[[DN]], %c65
// CHECK: %[[INK:.*]] = arith.cmpi ult, %[[DK]], %c33
// CHECK: %[[IN_RANGE:.*]] = arith.andi %[[INN]], %[[INK]]
// CHECK: scf.if %[[IN_RANGE]] {
// CHECK: %[[PITCH:.*]] = arith.muli %[[ROW]], %c33
// CHECK: %[[AT:.*]] = arith.addi %[[PITCH]], %[[TX]]
// CHECK: %[[I0:.*]] = affine.apply #[[D1]](%[[DK]], %[[DN]])
// CHECK: %[[I1:.*]] = affine.apply #[[D0]](%[[DK]], %[[DN]])
// CHECK: %[[V:.*]] = memref.load %[[IN]][%[[I0]], %[[I1]]]
// CHECK: memref.store %[[V]], %[[TILE]][%[[AT]]]
// CHECK: }
// CHECK: }
// CHECK-NEXT: gpu.barrier
// The compute: tx along d1 (the output's innermost), row ty + 8 r along d0.
// CHECK: scf.for %[[R2:.*]] = %c0{{.*}} to %c4{{.*}} step %c1{{.*}} {
// CHECK: %[[R28:.*]] = arith.muli %[[R2]], %c8
// CHECK: %[[ROW2:.*]] = arith.addi %[[TY]], %[[R28]]
// CHECK: %[[DN2:.*]] = arith.addi %[[N0]], %[[TX]]
// CHECK: %[[DK2:.*]] = arith.addi %[[K0]], %[[ROW2]]
// CHECK: %[[INN2:.*]] = arith.cmpi ult, %[[DN2]], %c65
// CHECK: %[[INK2:.*]] = arith.cmpi ult, %[[DK2]], %c33
// CHECK: %[[IN_RANGE2:.*]] = arith.andi %[[INN2]], %[[INK2]]
// CHECK: scf.if %[[IN_RANGE2]] {
// CHECK: %[[PITCH2:.*]] = arith.muli %[[TX]], %c33
// CHECK: %[[AT2:.*]] = arith.addi %[[PITCH2]], %[[ROW2]]
// CHECK: %[[W:.*]] = memref.load %[[TILE]][%[[AT2]]]
// CHECK: %[[O0:.*]] = affine.apply #[[D0]](%[[DK2]], %[[DN2]])
// CHECK: %[[O1:.*]] = affine.apply #[[D1]](%[[DK2]], %[[DN2]])
// CHECK: memref.store %[[W]], %[[OUT]][%[[O0]], %[[O1]]]
// CHECK: gpu.return

// -----

// A transpose fused with a truncf, a second input in the output's order
// and a per-row one: only the transposed input is staged, the others are
// loaded from global memory at the element, the body's ops in their order.
func.func @fused(%x: memref<70x45xf32>, %y: memref<45x70xf32>, %r: memref<45xf32>, %o: memref<45x70xbf16>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y, %r : memref<70x45xf32>, memref<45x70xf32>, memref<45xf32>) outs(%o : memref<45x70xbf16>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %out: bf16):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %m, %c : f32
    %t = arith.truncf %s : f32 to bf16
    linalg.yield %t : bf16
  }
  return
}

// CHECK-LABEL: func.func @fused(
// CHECK: gpu.func @fused_generic(%[[X:.*]]: memref<70x45xf32>, %[[Y:.*]]: memref<45x70xf32>, %[[R:.*]]: memref<45xf32>, %[[O:.*]]: memref<45x70xbf16>) workgroup(%[[TILE:.*]] : memref<1056xf32, #gpu.address_space<workgroup>>) kernel
// CHECK: scf.for
// CHECK-NOT: memref.load %[[Y]]
// CHECK: %[[XV:.*]] = memref.load %[[X]]
// CHECK: memref.store %[[XV]], %[[TILE]]
// CHECK: gpu.barrier
// CHECK: scf.for
// CHECK-NOT: memref.load %[[X]]
// CHECK: %[[A:.*]] = memref.load %[[TILE]]
// CHECK: %[[B:.*]] = memref.load %[[Y]]
// CHECK: %[[C:.*]] = memref.load %[[R]]
// CHECK: %[[M:.*]] = arith.mulf %[[A]], %[[B]] : f32
// CHECK: %[[S:.*]] = arith.addf %[[M]], %[[C]] : f32
// CHECK: %[[T:.*]] = arith.truncf %[[S]] : f32 to bf16
// CHECK: memref.store %[[T]], %[[O]]
// CHECK: gpu.return

// -----

// The rows swap, the innermost dimension stays: one thread per element.
func.func @batch_rows(%a: memref<4x6x40xf32>, %o: memref<6x4x40xf32>) {
  linalg.transpose ins(%a : memref<4x6x40xf32>) outs(%o : memref<6x4x40xf32>) permutation = [1, 0, 2]
  return
}

// CHECK-LABEL: func.func @batch_rows(
// CHECK: gpu.launch_func @fp8_host_kernels::@batch_rows_transpose blocks in (%c4, %c1, %c1) threads in (%c256, %c1, %c1)
// CHECK: gpu.func @batch_rows_transpose(%{{.*}}: memref<4x6x40xf32>, %{{.*}}: memref<6x4x40xf32>) kernel
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return

// -----

// FP8 codes have no workgroup buffer here: their transpose stays one
// thread per element.
func.func @codes(%a: memref<40x48xf8E4M3FN>, %o: memref<48x40xf8E4M3FN>) {
  linalg.transpose ins(%a : memref<40x48xf8E4M3FN>) outs(%o : memref<48x40xf8E4M3FN>) permutation = [1, 0]
  return
}

// CHECK-LABEL: func.func @codes(
// CHECK: gpu.func @codes_transpose(%{{.*}}: memref<40x48xf8E4M3FN>, %{{.*}}: memref<48x40xf8E4M3FN>) kernel
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
