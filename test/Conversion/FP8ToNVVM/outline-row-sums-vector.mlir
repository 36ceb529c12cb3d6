// fp8-outline-host-kernels: a row sum marked `fp8.reduction_vector = 4`
// besides `fp8.reduction_lanes = 32` (docs/numerics.md, "Reduction
// order"): lane l first adds elements 128 j + 4 l + v (v = 0..3, in that
// order) of the row's whole 128-element steps, reading them with one
// vector.load of 16 bytes (f32; 8 bytes of bf16) aligned to its size where
// the memref's type shows every step's first element aligned (innermost
// unit stride, static offset and strides multiples of 4) and the base
// pointer, tested at run time, is; otherwise with four scalar loads in the
// same order. Then the rest of the row lane-strided, then its tail.
// RUN: fp8-opt %s --split-input-file --fp8-outline-host-kernels | FileCheck %s

// N = 288: two vector steps (256 elements), one strided step, no tail.
// CHECK-LABEL: gpu.func @vec_f32_row_sum
// CHECK-SAME: (%[[X:.*]]: memref<4x288xf32>, %{{.*}}: memref<4xf32>) kernel
// CHECK: %[[LANE:.*]] = arith.remui %{{.*}}, %{{.*}} : index
// CHECK: %[[NZ:.*]] = arith.constant -0.000000e+00 : f32
// CHECK: %[[PTR:.*]] = memref.extract_aligned_pointer_as_index %[[X]] : memref<4x288xf32> -> index
// CHECK: %[[C16:.*]] = arith.constant 16 : index
// CHECK: %[[MIS:.*]] = arith.remui %[[PTR]], %[[C16]] : index
// CHECK: %[[OK:.*]] = arith.cmpi eq, %[[MIS]], %{{.*}} : index
// CHECK: %[[ALIGNED:.*]] = arith.andi %{{.*}}, %[[OK]] : i1
// CHECK: %[[VP:.*]] = scf.if %[[ALIGNED]] -> (f32) {
// CHECK: %[[C2:.*]] = arith.constant 2 : index
// CHECK: %[[C4:.*]] = arith.constant 4 : index
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %[[C2]] step %{{.*}} iter_args(%[[ACC:.*]] = %[[NZ]]) -> (f32) {
// CHECK: %[[J32:.*]] = arith.muli %[[J]], %{{.*}} : index
// CHECK: %[[CHUNK:.*]] = arith.addi %[[J32]], %[[LANE]] : index
// CHECK: %[[BASE:.*]] = arith.muli %[[CHUNK]], %[[C4]] : index
// CHECK: %[[VEC:.*]] = vector.load %[[X]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<4x288xf32>, vector<4xf32>
// CHECK: %[[E0:.*]] = vector.extract %[[VEC]][0] : f32 from vector<4xf32>
// CHECK: %[[Q0:.*]] = arith.mulf %[[E0]], %[[E0]] : f32
// CHECK: %[[S0:.*]] = arith.addf %[[ACC]], %[[Q0]] : f32
// CHECK: %[[E1:.*]] = vector.extract %[[VEC]][1] : f32 from vector<4xf32>
// CHECK: %[[Q1:.*]] = arith.mulf %[[E1]], %[[E1]] : f32
// CHECK: %[[S1:.*]] = arith.addf %[[S0]], %[[Q1]] : f32
// CHECK: %[[E2:.*]] = vector.extract %[[VEC]][2] : f32 from vector<4xf32>
// CHECK: %[[Q2:.*]] = arith.mulf %[[E2]], %[[E2]] : f32
// CHECK: %[[S2:.*]] = arith.addf %[[S1]], %[[Q2]] : f32
// CHECK: %[[E3:.*]] = vector.extract %[[VEC]][3] : f32 from vector<4xf32>
// CHECK: %[[Q3:.*]] = arith.mulf %[[E3]], %[[E3]] : f32
// CHECK: %[[S3:.*]] = arith.addf %[[S2]], %[[Q3]] : f32
// CHECK: scf.yield %[[S3]] : f32
// The unaligned base: four scalar loads, elements base + 0 .. base + 3.
// CHECK: } else {
// CHECK-NOT: vector.load
// CHECK-COUNT-4: memref.load %[[X]]
// CHECK: scf.yield
// The strided step over elements 256 .. 287.
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[C256:.*]] = arith.constant 256 : index
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[C1]] step %{{.*}} iter_args(%{{.*}} = %[[VP]]) -> (f32) {
// CHECK: %[[K:.*]] = arith.addi %{{.*}}, %[[LANE]] : index
// CHECK: %{{.*}} = arith.addi %[[C256]], %[[K]] : index
// CHECK-NOT: vector.load
// CHECK: nvvm.shfl.sync bfly
func.func @vec_f32(%x: memref<4x288xf32>, %out: memref<4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x288xf32>) outs(%out : memref<4xf32>) attrs = {fp8.reduction_lanes = 32 : i64, fp8.reduction_vector = 4 : i64} {
  ^bb0(%a: f32, %acc: f32):
    %q = arith.mulf %a, %a : f32
    %r = arith.addf %acc, %q : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// bf16 rows of 128: one vector step of 8-byte loads, nothing left.
// CHECK-LABEL: gpu.func @vec_bf16_row_sum
// CHECK: memref.extract_aligned_pointer_as_index
// CHECK-NEXT: %[[C8:.*]] = arith.constant 8 : index
// CHECK-NEXT: arith.remui %{{.*}}, %[[C8]] : index
// CHECK: vector.load %{{.*}}[%{{.*}}, %{{.*}}] {alignment = 8 : i64} : memref<2x128xbf16>, vector<4xbf16>
// CHECK-COUNT-4: vector.extract
// CHECK: } else {
// CHECK-COUNT-4: memref.load
// CHECK: }
// CHECK-NOT: scf.for
// CHECK: nvvm.shfl.sync bfly
func.func @vec_bf16(%x: memref<2x128xbf16>, %out: memref<2xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<2x128xbf16>) outs(%out : memref<2xf32>) attrs = {fp8.reduction_lanes = 32 : i64, fp8.reduction_vector = 4 : i64} {
  ^bb0(%a: bf16, %acc: f32):
    %e = arith.extf %a : bf16 to f32
    %r = arith.addf %acc, %e : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// An odd row length (161 bf16: row r starts at 322 r bytes, not 8-byte
// aligned for odd r): the vector step reads its four elements with scalar
// loads, no run-time test; then 32 strided elements and a tail of one.
// CHECK-LABEL: gpu.func @odd_bf16_row_sum
// CHECK-NOT: memref.extract_aligned_pointer_as_index
// CHECK: scf.for
// CHECK-NOT: vector.load
// CHECK-COUNT-4: memref.load %{{.*}} : memref<4x161xbf16>
// CHECK-NOT: vector.load
// CHECK: scf.for
// CHECK: memref.load %{{.*}} : memref<4x161xbf16>
// CHECK: scf.if
// CHECK: %[[C160:.*]] = arith.constant 160 : index
// CHECK-NOT: vector.load
// CHECK: nvvm.shfl.sync bfly
func.func @odd_bf16(%x: memref<4x161xbf16>, %out: memref<4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x161xbf16>) outs(%out : memref<4xf32>) attrs = {fp8.reduction_lanes = 32 : i64, fp8.reduction_vector = 4 : i64} {
  ^bb0(%a: bf16, %acc: f32):
    %e = arith.extf %a : bf16 to f32
    %r = arith.addf %acc, %e : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// An odd f32 row length (257: row r starts 1028 r bytes in, not 16-byte
// aligned for odd r) read with the weight (along the reduction only,
// aligned): the row's four elements by scalar loads, the weight's by one
// vector load; then the tail element 256 for lane 0.
// CHECK-LABEL: gpu.func @weighted_row_sum
// CHECK: memref.extract_aligned_pointer_as_index %{{.*}} : memref<257xf32> -> index
// CHECK-NOT: memref.extract_aligned_pointer_as_index
// CHECK: scf.if
// CHECK: scf.for
// CHECK: vector.load %{{.*}}[%{{.*}}] {alignment = 16 : i64} : memref<257xf32>, vector<4xf32>
// CHECK-COUNT-4: memref.load %{{.*}} : memref<4x257xf32>
// CHECK: } else {
// CHECK-NOT: vector.load
// CHECK: %[[C256:.*]] = arith.constant 256 : index
// CHECK-NOT: vector.load
// CHECK: nvvm.shfl.sync bfly
func.func @weighted(%x: memref<4x257xf32>, %w: memref<257xf32>, %out: memref<4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x, %w : memref<4x257xf32>, memref<257xf32>) outs(%out : memref<4xf32>) attrs = {fp8.reduction_lanes = 32 : i64, fp8.reduction_vector = 4 : i64} {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  }
  return
}
