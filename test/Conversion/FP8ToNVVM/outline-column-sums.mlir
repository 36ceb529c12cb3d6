// fp8-outline-host-kernels: a column sum marked `fp8.column_lanes = 32`
// (fp8-split-reductions{row-kernels}: RMSNorm's weight gradient, the sum
// over the tokens of each column) becomes one launch of ceil(columns / 8)
// CTAs of 256 threads: thread t runs lane t / 8 of column 8 b + t % 8;
// lane l adds elements 32 j + l (then the tail element 32 q + l for the
// lanes below N % 32) into -0.0 with the op's body; the halving tree runs
// through 256 f32 of shared memory, lanes [h, 2h) storing their value
// (slot t) before level h, a gpu.barrier, lanes l < h adding slot t + 8 h
// on the right (h = 16, 8, 4, 2, 1: slots t + 128, 64, 32, 16, 8); lane 0
// of an in-range column adds the init on the accumulator's side and
// stores. The init's zero fill is folded (its scalar, no launch). A
// marked sum the kernel cannot take is an error.
// RUN: fp8-opt %s --split-input-file --verify-diagnostics --fp8-outline-host-kernels | FileCheck %s

// 13 columns (not a multiple of 8: 2 CTAs, the last 3 columns of the
// second out of range), 70 tokens (2 steps, a tail of 6 lanes); the init
// a folded fill of 0.5.
// CHECK-LABEL: func.func @columns
// CHECK-NOT: linalg.fill
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C256:.*]] = arith.constant 256 : index
// CHECK: gpu.launch_func @fp8_host_kernels::@columns_generic_column_sum blocks in (%[[C2]], %{{.*}}, %{{.*}}) threads in (%[[C256]], %{{.*}}, %{{.*}})
// CHECK-NOT: gpu.launch_func
// CHECK: return
// CHECK: gpu.func @columns_generic_column_sum(%[[X:.*]]: memref<70x13xf32>, %[[Y:.*]]: memref<70x13xf32>, %[[OUT:.*]]: memref<13xf32>) workgroup(%[[P:.*]] : memref<256xf32, #gpu.address_space<workgroup>>) kernel
// CHECK-DAG: %[[BID:.*]] = gpu.block_id  x
// CHECK-DAG: %[[TID:.*]] = gpu.thread_id  x
// CHECK-DAG: %[[HALF:.*]] = arith.constant 5.000000e-01 : f32
// CHECK: %[[C8:.*]] = arith.constant 8 : index
// CHECK: %[[LANE:.*]] = arith.divui %[[TID]], %[[C8]] : index
// CHECK: %[[INCTA:.*]] = arith.remui %[[TID]], %[[C8]] : index
// CHECK: %[[FIRST:.*]] = arith.muli %[[BID]], %[[C8]] : index
// CHECK: %[[COL:.*]] = arith.addi %[[FIRST]], %[[INCTA]] : index
// CHECK: %[[C13:.*]] = arith.constant 13 : index
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[COL]], %{{.*}} : index
// CHECK: %[[NZ:.*]] = arith.constant -0.000000e+00 : f32
// CHECK: %[[V0:.*]] = scf.if %[[IN]] -> (f32) {
// CHECK: %[[STEPS:.*]] = arith.constant 2 : index
// CHECK: %[[START:.*]] = arith.constant -0.000000e+00 : f32
// CHECK: %[[PART:.*]] = scf.for %[[J:.*]] = %{{.*}} to %[[STEPS]] step %{{.*}} iter_args(%[[ACC:.*]] = %[[START]]) -> (f32) {
// CHECK: %[[J32:.*]] = arith.muli %[[J]], %{{.*}} : index
// CHECK: %[[K:.*]] = arith.addi %[[J32]], %[[LANE]] : index
// CHECK: memref.load %[[X]]
// CHECK: memref.load %[[Y]]
// CHECK: %[[Q:.*]] = arith.mulf
// CHECK: %[[SUM:.*]] = arith.addf %[[ACC]], %[[Q]] : f32
// CHECK: scf.yield %[[SUM]]
// CHECK: %[[C6:.*]] = arith.constant 6 : index
// CHECK: arith.cmpi ult, %[[LANE]], %[[C6]] : index
// CHECK: %[[C64:.*]] = arith.constant 64 : index
// CHECK: arith.addi %[[C64]], %[[LANE]] : index
// CHECK: } else {
// CHECK: scf.yield %[[NZ]] : f32
// Level 16: lanes [16, 32) store, a barrier, lanes below 16 add slot t + 128.
// CHECK: %[[C16:.*]] = arith.constant 16 : index
// CHECK: %[[GE16:.*]] = arith.cmpi uge, %[[LANE]], %[[C16]] : index
// CHECK: %[[C32:.*]] = arith.constant 32 : index
// CHECK: %[[LT32:.*]] = arith.cmpi ult, %[[LANE]], %[[C32]] : index
// CHECK: %[[ST16:.*]] = arith.andi %[[GE16]], %[[LT32]] : i1
// CHECK: scf.if %[[ST16]] {
// CHECK-NEXT: memref.store %[[V0]], %[[P]][%[[TID]]]
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
// CHECK: %[[LO16:.*]] = arith.cmpi ult, %[[LANE]], %{{.*}} : index
// CHECK: %[[V1:.*]] = scf.if %[[LO16]] -> (f32) {
// CHECK: %[[C128:.*]] = arith.constant 128 : index
// CHECK: %[[AT1:.*]] = arith.addi %[[TID]], %[[C128]] : index
// CHECK: %[[H1:.*]] = memref.load %[[P]][%[[AT1]]]
// CHECK: %[[S1:.*]] = arith.addf %[[V0]], %[[H1]] : f32
// CHECK: scf.yield %[[S1]]
// CHECK: } else {
// CHECK: scf.yield %[[V0]]
// Levels 8, 4, 2: the same with slots t + 64, 32, 16.
// CHECK: memref.store %[[V1]], %[[P]][%[[TID]]]
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
// CHECK: %[[C64B:.*]] = arith.constant 64 : index
// CHECK: %[[AT2:.*]] = arith.addi %[[TID]], %[[C64B]] : index
// CHECK: %[[H2:.*]] = memref.load %[[P]][%[[AT2]]]
// CHECK: %[[S2:.*]] = arith.addf %[[V1]], %[[H2]] : f32
// CHECK: memref.store
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
// CHECK: %[[AT3:.*]] = arith.addi %[[TID]], %{{.*}} : index
// CHECK: memref.load %[[P]][%[[AT3]]]
// CHECK: memref.store
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
// CHECK: %[[AT4:.*]] = arith.addi %[[TID]], %{{.*}} : index
// CHECK: memref.load %[[P]][%[[AT4]]]
// Level 1: lane 1 stores, lane 0 adds slot t + 8.
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: arith.cmpi uge, %[[LANE]], %[[C1]] : index
// CHECK: memref.store %[[V4:.*]], %[[P]][%[[TID]]]
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
// CHECK: %[[V5:.*]] = scf.if
// CHECK: %[[C8B:.*]] = arith.constant 8 : index
// CHECK: %[[AT5:.*]] = arith.addi %[[TID]], %[[C8B]] : index
// CHECK: %[[H5:.*]] = memref.load %[[P]][%[[AT5]]]
// CHECK: arith.addf %[[V4]], %[[H5]] : f32
// CHECK-NOT: gpu.barrier
// CHECK: %[[IS0:.*]] = arith.cmpi eq, %[[LANE]], %{{.*}} : index
// CHECK: %[[STORES:.*]] = arith.andi %[[IS0]], %[[IN]] : i1
// CHECK: scf.if %[[STORES]] {
// CHECK-NOT: memref.load %[[OUT]]
// CHECK: %[[R:.*]] = arith.addf %[[HALF]], %[[V5]] : f32
// CHECK: memref.store %[[R]], %[[OUT]]
// CHECK: gpu.return
func.func @columns(%x: memref<70x13xf32>, %y: memref<70x13xf32>) -> memref<13xf32> {
  %half = arith.constant 0.5 : f32
  %out = memref.alloc() : memref<13xf32>
  linalg.fill ins(%half : f32) outs(%out : memref<13xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x, %y : memref<70x13xf32>, memref<70x13xf32>) outs(%out : memref<13xf32>) attrs = {fp8.column_lanes = 32 : i64} {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %q = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %q : f32
    linalg.yield %r : f32
  }
  return %out : memref<13xf32>
}

// -----

// The accumulator on the right, the init an argument (loaded by lane 0,
// added on the right), 64 tokens (no tail), 16 columns (2 full CTAs).
// CHECK-LABEL: func.func @right
// CHECK: gpu.launch_func @fp8_host_kernels::@right_generic_column_sum blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}})
// CHECK: gpu.func @right_generic_column_sum(%[[X:.*]]: memref<64x16xbf16>, %[[OUT:.*]]: memref<16xf32>) workgroup(%{{.*}} : memref<256xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 256, 1, 1>, known_grid_size = array<i32: 2, 1, 1>}
// CHECK-COUNT-5: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK: scf.if
// CHECK: %[[OLD:.*]] = memref.load %[[OUT]]
// CHECK: %[[R:.*]] = arith.addf %{{.*}}, %[[OLD]] : f32
// CHECK: memref.store %[[R]], %[[OUT]]
func.func @right(%x: memref<64x16xbf16>, %out: memref<16xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x16xbf16>) outs(%out : memref<16xf32>) attrs = {fp8.column_lanes = 32 : i64} {
  ^bb0(%a: bf16, %acc: f32):
    %f = arith.extf %a : bf16 to f32
    %r = arith.addf %f, %acc : f32
    linalg.yield %r : f32
  }
  return
}

// -----

func.func @not_warp(%x: memref<64x16xf32>, %out: memref<16xf32>) {
  // expected-error @+1 {{fp8-outline-host-kernels: the column sum marked fp8.column_lanes cannot run as a column kernel: the row kernel runs 32 lanes (a warp), the attribute asks for 16}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x16xf32>) outs(%out : memref<16xf32>) attrs = {fp8.column_lanes = 16 : i64} {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }
  return
}

// -----

func.func @column_max(%x: memref<64x16xf32>, %out: memref<16xf32>) {
  // expected-error @+1 {{cannot run as a column kernel: its body must yield an f32 arith.addf (a column max is not split)}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x16xf32>) outs(%out : memref<16xf32>) attrs = {fp8.column_lanes = 32 : i64} {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %acc, %a : f32
    linalg.yield %r : f32
  }
  return
}

// -----

func.func @short_column(%x: memref<31x16xf32>, %out: memref<16xf32>) {
  // expected-error @+1 {{cannot run as a column kernel: the reduction's size must be static and at least 32 (a warp's lanes)}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<31x16xf32>) outs(%out : memref<16xf32>) attrs = {fp8.column_lanes = 32 : i64} {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Two parallel iterators: the 2 x 5 = 10 columns linearized row-major (d1
// fastest: d1 = c % 5, d0 = (c / 5) % 2), 2 CTAs; 40 tokens (one step, a
// tail of 8 lanes).
// CHECK-LABEL: func.func @two_parallel
// CHECK: gpu.launch_func @fp8_host_kernels::@two_parallel_generic_column_sum blocks in (%[[G:.*]], %{{.*}}, %{{.*}})
// CHECK: gpu.func @two_parallel_generic_column_sum(%[[X:.*]]: memref<40x2x5xf32>, %[[OUT:.*]]: memref<2x5xf32>)
// CHECK-SAME: known_grid_size = array<i32: 2, 1, 1>
// CHECK: %[[COL:.*]] = arith.addi
// CHECK: %[[C5:.*]] = arith.constant 5 : index
// CHECK: %[[D1:.*]] = arith.remui %[[COL]], %[[C5]] : index
// CHECK: %[[REST:.*]] = arith.divui %[[COL]], %[[C5]] : index
// CHECK: %[[C2:.*]] = arith.constant 2 : index
// CHECK: %[[D0:.*]] = arith.remui %[[REST]], %[[C2]] : index
// CHECK: %[[C10:.*]] = arith.constant 10 : index
// CHECK: arith.cmpi ult, %[[COL]], %[[C10]] : index
// CHECK: memref.load %[[X]][%{{.*}}, %{{.*}}, %{{.*}}] : memref<40x2x5xf32>
// CHECK: %[[C8:.*]] = arith.constant 8 : index
// CHECK: arith.cmpi ult, %{{.*}}, %[[C8]] : index
// CHECK-COUNT-5: gpu.barrier
// CHECK: %[[I0:.*]] = affine.apply #{{.*}}(%[[D0]], %[[D1]], %{{.*}})
// CHECK: %[[I1:.*]] = affine.apply #{{.*}}(%[[D0]], %[[D1]], %{{.*}})
// CHECK: %[[OLD:.*]] = memref.load %[[OUT]][%[[I0]], %[[I1]]] : memref<2x5xf32>
// CHECK: memref.store %{{.*}}, %[[OUT]][%[[I0]], %[[I1]]] : memref<2x5xf32>
func.func @two_parallel(%x: memref<40x2x5xf32>, %out: memref<2x5xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : memref<40x2x5xf32>) outs(%out : memref<2x5xf32>) attrs = {fp8.column_lanes = 32 : i64} {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }
  return
}
