// fp8-outline-host-kernels: a row sum marked `fp8.reduction_lanes = 32`
// (fp8-split-reductions{row-kernels}) becomes one warp-per-row kernel: 8
// rows per CTA (ceil(20 / 8) = 3 CTAs of 256 threads), warp = tid / 32 its
// row, lane = tid % 32; lane l adds elements l + 32 j (j < 64 / 32 = 2)
// into -0.0 with the op's body; the butterfly adds the lanes with
// shfl.sync.bfly xor 16, 8, 4, 2, 1 in that order, each lane's own value
// on the left; lane 0 adds the init (on the accumulator's side of the
// body) and stores. A marked sum the kernel cannot take is an error: the
// host has no loop nest with that order.
// RUN: fp8-opt %s --split-input-file --verify-diagnostics --fp8-outline-host-kernels | FileCheck %s

// CHECK-LABEL: func.func @rows
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG: %[[C256:.*]] = arith.constant 256 : index
// CHECK: gpu.launch_func @fp8_host_kernels::@rows_row_sum blocks in (%[[C3]], %{{.*}}, %{{.*}}) threads in (%[[C256]], %{{.*}}, %{{.*}})
// CHECK-NOT: gpu.launch_func
// CHECK: return
// CHECK: gpu.func @rows_row_sum(%[[X:.*]]: memref<20x64xf32>, %[[OUT:.*]]: memref<20xf32>) kernel
// CHECK-DAG: %[[BID:.*]] = gpu.block_id  x
// CHECK-DAG: %[[TID:.*]] = gpu.thread_id  x
// CHECK: %[[C32:.*]] = arith.constant 32 : index
// CHECK: %[[WARP:.*]] = arith.divui %[[TID]], %[[C32]] : index
// CHECK: %[[LANE:.*]] = arith.remui %[[TID]], %[[C32]] : index
// CHECK: %[[C8:.*]] = arith.constant 8 : index
// CHECK: %[[FIRST:.*]] = arith.muli %[[BID]], %[[C8]] : index
// CHECK: %[[ROW:.*]] = arith.addi %[[FIRST]], %[[WARP]] : index
// CHECK: %[[C20:.*]] = arith.constant 20 : index
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[ROW]], %[[C20]] : index
// CHECK: scf.if %[[IN]] {
// CHECK: %[[STEPS:.*]] = arith.constant 2 : index
// CHECK: %[[NZ:.*]] = arith.constant -0.000000e+00 : f32
// CHECK: %[[P:.*]] = scf.for %[[J:.*]] = %{{.*}} to %[[STEPS]] step %{{.*}} iter_args(%[[ACC:.*]] = %[[NZ]]) -> (f32) {
// CHECK: %[[J32:.*]] = arith.muli %[[J]], %{{.*}} : index
// CHECK: %[[K:.*]] = arith.addi %[[J32]], %[[LANE]] : index
// CHECK: %[[V:.*]] = memref.load %[[X]][%{{.*}}, %{{.*}}] : memref<20x64xf32>
// CHECK: %[[SQ:.*]] = arith.mulf %[[V]], %[[V]] : f32
// CHECK: %[[S:.*]] = arith.addf %[[ACC]], %[[SQ]] : f32
// CHECK: scf.yield %[[S]] : f32
// The butterfly: xor 16, 8, 4, 2, 1, in that order.
// CHECK: %[[C16:.*]] = arith.constant 16 : i32
// CHECK: %[[O16:.*]] = nvvm.shfl.sync bfly %{{.*}}, %[[P]], %[[C16]], %{{.*}} : f32 -> f32
// CHECK: %[[T16:.*]] = arith.addf %[[P]], %[[O16]] : f32
// CHECK: %[[C8I:.*]] = arith.constant 8 : i32
// CHECK: %[[O8:.*]] = nvvm.shfl.sync bfly %{{.*}}, %[[T16]], %[[C8I]], %{{.*}} : f32 -> f32
// CHECK: %[[T8:.*]] = arith.addf %[[T16]], %[[O8]] : f32
// CHECK: %[[C4:.*]] = arith.constant 4 : i32
// CHECK: %[[O4:.*]] = nvvm.shfl.sync bfly %{{.*}}, %[[T8]], %[[C4]], %{{.*}} : f32 -> f32
// CHECK: %[[T4:.*]] = arith.addf %[[T8]], %[[O4]] : f32
// CHECK: %[[C2:.*]] = arith.constant 2 : i32
// CHECK: %[[O2:.*]] = nvvm.shfl.sync bfly %{{.*}}, %[[T4]], %[[C2]], %{{.*}} : f32 -> f32
// CHECK: %[[T2:.*]] = arith.addf %[[T4]], %[[O2]] : f32
// CHECK: %[[C1:.*]] = arith.constant 1 : i32
// CHECK: %[[O1:.*]] = nvvm.shfl.sync bfly %{{.*}}, %[[T2]], %[[C1]], %{{.*}} : f32 -> f32
// CHECK: %[[T1:.*]] = arith.addf %[[T2]], %[[O1]] : f32
// CHECK-NOT: nvvm.shfl.sync
// CHECK: %[[L0:.*]] = arith.cmpi eq, %[[LANE]], %{{.*}} : index
// CHECK: scf.if %[[L0]] {
// CHECK: %[[OLD:.*]] = memref.load %[[OUT]][%{{.*}}] : memref<20xf32>
// CHECK: %[[R:.*]] = arith.addf %[[OLD]], %[[T1]] : f32
// CHECK: memref.store %[[R]], %[[OUT]][%{{.*}}] : memref<20xf32>
func.func @rows(%x: memref<20x64xf32>, %out: memref<20xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<20x64xf32>) outs(%out : memref<20xf32>) attrs = {fp8.reduction_lanes = 32 : i64} {
  ^bb0(%a: f32, %acc: f32):
    %q = arith.mulf %a, %a : f32
    %r = arith.addf %acc, %q : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// The accumulator on the right: lane 0 adds the init on the right too.
// Fewer rows than a CTA holds: one CTA of 3 warps.
// CHECK-LABEL: func.func @right
// CHECK: %[[C96:.*]] = arith.constant 96 : index
// CHECK: gpu.launch_func @fp8_host_kernels::@right_row_sum blocks in (%[[G:.*]], %{{.*}}, %{{.*}}) threads in (%[[C96]], %{{.*}}, %{{.*}})
// CHECK: gpu.func @right_row_sum({{.*}}) kernel attributes {known_block_size = array<i32: 96, 1, 1>, known_grid_size = array<i32: 1, 1, 1>}
// CHECK: %[[S:.*]] = arith.addf %{{.*}}, %{{.*}} : f32
// CHECK: scf.yield
// CHECK-COUNT-5: nvvm.shfl.sync bfly
// CHECK: %[[T1:.*]] = arith.addf
// CHECK: scf.if
// CHECK: %[[OLD:.*]] = memref.load
// CHECK: arith.addf %[[T1]], %[[OLD]] : f32
func.func @right(%x: memref<3x32xbf16>, %out: memref<3xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<3x32xbf16>) outs(%out : memref<3xf32>) attrs = {fp8.reduction_lanes = 32 : i64} {
  ^bb0(%a: bf16, %acc: f32):
    %f = arith.extf %a : bf16 to f32
    %r = arith.addf %f, %acc : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A row max: the same kernel, -inf the lanes' start, maximumf the
// butterfly's and the init's combiner.
// CHECK-LABEL: func.func @max
// CHECK: gpu.launch_func @fp8_host_kernels::@max_row_max
// CHECK: gpu.func @max_row_max
// CHECK: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[NINF]]) -> (f32)
// CHECK: arith.maximumf
// CHECK: scf.yield
// CHECK-COUNT-5: nvvm.shfl.sync bfly
// CHECK: %[[T1:.*]] = arith.maximumf
// CHECK: scf.if
// CHECK: %[[OLD:.*]] = memref.load
// CHECK: arith.maximumf %[[OLD]], %[[T1]] : f32
// CHECK-NOT: arith.addf
// CHECK: gpu.return
func.func @max(%x: memref<4x64xf32>, %out: memref<4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x64xf32>) outs(%out : memref<4xf32>) attrs = {fp8.reduction_lanes = 32 : i64} {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %acc, %a : f32
    linalg.yield %r : f32
  }
  return
}

// -----

func.func @not_warp(%x: memref<4x64xf32>, %out: memref<4xf32>) {
  // expected-error @+1 {{fp8-outline-host-kernels: the row sum marked fp8.reduction_lanes cannot run as a row kernel: the row kernel runs 32 lanes (a warp), the attribute asks for 16}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x64xf32>) outs(%out : memref<4xf32>) attrs = {fp8.reduction_lanes = 16 : i64} {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A row of 72 = 2 x 32 + 8 elements: lane l adds elements l and l + 32 in
// the loop, then lanes l < 8 add the tail element 64 + l last (the other
// lanes read nothing past the row), then the butterfly.
// CHECK-LABEL: func.func @tail
// CHECK: gpu.func @tail_row_sum(%[[X:.*]]: memref<5x72xf32>, %{{.*}}: memref<5xf32>) kernel
// CHECK: %[[LANE:.*]] = arith.remui
// CHECK: %[[STEPS:.*]] = arith.constant 2 : index
// CHECK: %[[P:.*]] = scf.for %{{.*}} to %[[STEPS]] {{.*}} -> (f32) {
// CHECK: arith.addf
// CHECK: scf.yield
// CHECK: %[[C8:.*]] = arith.constant 8 : index
// CHECK: %[[HAS:.*]] = arith.cmpi ult, %[[LANE]], %[[C8]] : index
// CHECK: %[[PT:.*]] = scf.if %[[HAS]] -> (f32) {
// CHECK: %[[C64:.*]] = arith.constant 64 : index
// CHECK: %[[K:.*]] = arith.addi %[[C64]], %[[LANE]] : index
// CHECK: %[[I:.*]] = affine.apply #{{.*}}(%{{.*}}, %[[K]])
// CHECK: %[[J:.*]] = affine.apply #{{.*}}(%{{.*}}, %[[K]])
// CHECK: %[[V:.*]] = memref.load %[[X]][%[[I]], %[[J]]] : memref<5x72xf32>
// CHECK: %[[SQ:.*]] = arith.mulf %[[V]], %[[V]] : f32
// CHECK: %[[S:.*]] = arith.addf %[[P]], %[[SQ]] : f32
// CHECK: scf.yield %[[S]] : f32
// CHECK: } else {
// CHECK: scf.yield %[[P]] : f32
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %[[PT]], %{{.*}}
// CHECK-COUNT-4: nvvm.shfl.sync bfly
func.func @tail(%x: memref<5x72xf32>, %out: memref<5xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<5x72xf32>) outs(%out : memref<5xf32>) attrs = {fp8.reduction_lanes = 32 : i64} {
  ^bb0(%a: f32, %acc: f32):
    %q = arith.mulf %a, %a : f32
    %r = arith.addf %acc, %q : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Fewer elements than lanes: fp8-split-reductions marks no such row.
func.func @short_row(%x: memref<4x31xf32>, %out: memref<4xf32>) {
  // expected-error @+1 {{cannot run as a row kernel: the reduction's size must be static and at least 32 (a warp's lanes)}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x31xf32>) outs(%out : memref<4xf32>) attrs = {fp8.reduction_lanes = 32 : i64} {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }
  return
}

// -----

func.func @min(%x: memref<4x64xf32>, %out: memref<4xf32>) {
  // expected-error @+1 {{cannot run as a row kernel: its body must yield an f32 arith.addf or arith.maximumf of the accumulator and a value of the inputs}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x64xf32>) outs(%out : memref<4xf32>) attrs = {fp8.reduction_lanes = 32 : i64} {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.minimumf %acc, %a : f32
    linalg.yield %r : f32
  }
  return
}

// -----

func.func @fastmath(%x: memref<4x64xf32>, %out: memref<4xf32>) {
  // expected-error @+1 {{cannot run as a row kernel: its body's arith.addf has fast-math flags, which the host's and the GPU's code generators may apply differently}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x64xf32>) outs(%out : memref<4xf32>) attrs = {fp8.reduction_lanes = 32 : i64} {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a fastmath<reassoc> : f32
    linalg.yield %r : f32
  }
  return
}

// -----

func.func @in_forall(%x: memref<2x4x64xf32>, %out: memref<2x4xf32>) {
  scf.forall (%i) in (2) {
    %xi = memref.subview %x[%i, 0, 0] [1, 4, 64] [1, 1, 1] : memref<2x4x64xf32> to memref<4x64xf32, strided<[64, 1], offset: ?>>
    %oi = memref.subview %out[%i, 0] [1, 4] [1, 1] : memref<2x4xf32> to memref<4xf32, strided<[1], offset: ?>>
    // expected-error @+1 {{cannot run as a row kernel: it is inside a host-parallel loop}}
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
        ins(%xi : memref<4x64xf32, strided<[64, 1], offset: ?>>) outs(%oi : memref<4xf32, strided<[1], offset: ?>>) attrs = {fp8.reduction_lanes = 32 : i64} {
    ^bb0(%a: f32, %acc: f32):
      %r = arith.addf %acc, %a : f32
      linalg.yield %r : f32
    }
  }
  return
}
