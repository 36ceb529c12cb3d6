// fp8-outline-host-kernels: a fused row kernel (`fp8.row_group`) does not
// store an output that nothing reads after it: an allocation whose other
// uses, through any view, are the group's ops, deallocs and its init's
// folded fill. Its allocation, views and deallocs go (no device buffer).
// A later walk that reads a dead elementwise output recomputes its elements
// from what it loads (the group's inputs) through the same ops in the same
// order: the same bits, the same load count, one store less per element.
// An output read after the kernel (a copy of it or of a view of it) is
// stored as before.
// RUN: fp8-opt %s --split-input-file --fp8-outline-host-kernels | FileCheck %s

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// A masked softmax whose intermediates are freed after it: the mask add z
// (a producer), the max m, exp(z - max) as a square e, the sum s, all dead
// (m and s with their fills folded). One launch taking x, k and the
// probabilities p only; walk 1 computes z for the max, walk 2 recomputes z
// (from x and k) and e for the sum, walk 3 recomputes z and e for the
// divide; only p is stored.
// CHECK-LABEL: func.func @softmax_dead
// CHECK-SAME: (%[[HX:.*]]: memref<4x64xf32>, %[[HK:.*]]: memref<4x64xf32>)
// CHECK: %[[HP:.*]] = memref.alloc() : memref<4x64xf32>
// CHECK-NOT: memref.alloc
// CHECK-NOT: linalg.fill
// CHECK: gpu.launch_func @fp8_host_kernels::@softmax_dead_row_max_fused {{.*}} args(%[[HX]] : memref<4x64xf32>, %[[HK]] : memref<4x64xf32>, %[[HP]] : memref<4x64xf32>)
// CHECK-NOT: memref.dealloc
// CHECK: return %[[HP]]
// CHECK: gpu.func @softmax_dead_row_max_fused(%[[X:.*]]: memref<4x64xf32>, %[[K:.*]]: memref<4x64xf32>, %[[P:.*]]: memref<4x64xf32>) kernel
// CHECK: scf.for
// CHECK: %[[X1:.*]] = memref.load %[[X]]
// CHECK: %[[K1:.*]] = memref.load %[[K]]
// CHECK-NEXT: %[[Z1:.*]] = arith.addf %[[X1]], %[[K1]] : f32
// CHECK-NEXT: arith.maximumf %{{.*}}, %[[Z1]] : f32
// CHECK-NEXT: scf.yield
// CHECK-NOT: memref.store
// CHECK-COUNT-5: nvvm.shfl.sync bfly
// CHECK: %[[MAXV:.*]] = arith.maximumf
// CHECK-NOT: memref.store
// CHECK: %[[MAX:.*]] = arith.maximumf %{{.*}}, %[[MAXV]] : f32
// CHECK-NOT: memref.store
// CHECK: scf.for {{.*}} iter_args(%[[SACC:.*]] = %{{.*}}) -> (f32) {
// CHECK: %[[X2:.*]] = memref.load %[[X]]
// CHECK: %[[K2:.*]] = memref.load %[[K]]
// CHECK-NEXT: %[[Z2:.*]] = arith.addf %[[X2]], %[[K2]] : f32
// CHECK-NEXT: %[[D2:.*]] = arith.subf %[[Z2]], %[[MAX]] : f32
// CHECK-NEXT: %[[E2:.*]] = arith.mulf %[[D2]], %[[D2]] : f32
// CHECK-NEXT: arith.addf %[[SACC]], %[[E2]] : f32
// CHECK-NEXT: scf.yield
// CHECK-NOT: memref.store
// CHECK-COUNT-5: nvvm.shfl.sync bfly
// CHECK: %[[SUMV:.*]] = arith.addf
// CHECK-NOT: memref.store
// CHECK: %[[SUM:.*]] = arith.addf %{{.*}}, %[[SUMV]] : f32
// CHECK-NOT: memref.store
// CHECK: scf.for
// CHECK: %[[X3:.*]] = memref.load %[[X]]
// CHECK: %[[K3:.*]] = memref.load %[[K]]
// CHECK-NEXT: %[[Z3:.*]] = arith.addf %[[X3]], %[[K3]] : f32
// CHECK-NEXT: %[[D3:.*]] = arith.subf %[[Z3]], %[[MAX]] : f32
// CHECK-NEXT: %[[E3:.*]] = arith.mulf %[[D3]], %[[D3]] : f32
// CHECK-NEXT: %[[P3:.*]] = arith.divf %[[E3]], %[[SUM]] : f32
// CHECK-NEXT: memref.store %[[P3]], %[[P]]
// CHECK-NOT: memref.store
// CHECK: gpu.return
func.func @softmax_dead(%x: memref<4x64xf32>, %k: memref<4x64xf32>) -> memref<4x64xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %m = memref.alloc() : memref<4xf32>
  %s = memref.alloc() : memref<4xf32>
  linalg.fill ins(%ninf : f32) outs(%m : memref<4xf32>)
  linalg.fill ins(%zero : f32) outs(%s : memref<4xf32>)
  %z = memref.alloc() : memref<4x64xf32>
  linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %k : memref<4x64xf32>, memref<4x64xf32>) outs(%z : memref<4x64xf32>) attrs = {fp8.row_group = 0 : i64} {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%z : memref<4x64xf32>) outs(%m : memref<4xf32>) attrs = {fp8.reduction_lanes = 32 : i64, fp8.row_group = 0 : i64} {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %acc, %a : f32
    linalg.yield %r : f32
  }
  %e = memref.alloc() : memref<4x64xf32>
  linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%z, %m : memref<4x64xf32>, memref<4xf32>) outs(%e : memref<4x64xf32>) attrs = {fp8.row_group = 0 : i64} {
  ^bb0(%a: f32, %mx: f32, %o: f32):
    %d = arith.subf %a, %mx : f32
    %r = arith.mulf %d, %d : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%e : memref<4x64xf32>) outs(%s : memref<4xf32>) attrs = {fp8.reduction_lanes = 32 : i64, fp8.row_group = 0 : i64} {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }
  %p = memref.alloc() : memref<4x64xf32>
  linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%e, %s : memref<4x64xf32>, memref<4xf32>) outs(%p : memref<4x64xf32>) attrs = {fp8.row_group = 0 : i64} {
  ^bb0(%a: f32, %t: f32, %o: f32):
    %r = arith.divf %a, %t : f32
    linalg.yield %r : f32
  }
  memref.dealloc %z : memref<4x64xf32>
  memref.dealloc %m : memref<4xf32>
  memref.dealloc %e : memref<4x64xf32>
  memref.dealloc %s : memref<4xf32>
  return %p : memref<4x64xf32>
}

// -----

#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// Readers after the kernel: rstd r (a copy reads it) and z (a copy reads a
// view of it) are stored, their allocations kept; the sum of squares s
// (its fill folded) and the per-row r * r (t), freed unread, are not
// stored and their allocations go.
// CHECK-LABEL: func.func @readers_after
// CHECK: %[[HZ:.*]] = memref.alloc() : memref<4x64xf32>
// CHECK-NEXT: %[[HR:.*]] = memref.alloc() : memref<4xf32>
// CHECK-NOT: memref.alloc
// CHECK: gpu.launch_func @fp8_host_kernels::@readers_after_row_sum_fused {{.*}} args(%{{.*}} : memref<4x64xf32>, %{{.*}} : memref<4x64xf32>, %[[HZ]] : memref<4x64xf32>, %[[HR]] : memref<4xf32>, %{{.*}} : memref<4x64xf32>)
// CHECK: gpu.launch_func @fp8_host_kernels::@readers_after_copy {{.*}} args(%[[HR]] : memref<4xf32>
// CHECK: %[[ZV:.*]] = memref.subview %[[HZ]]
// CHECK: gpu.launch_func @fp8_host_kernels::@readers_after_copy_0 {{.*}} args(%[[ZV]] :
// CHECK-NEXT: memref.dealloc %[[HZ]]
// CHECK-NEXT: memref.dealloc %[[HR]]
// CHECK-NEXT: return
// CHECK: gpu.func @readers_after_row_sum_fused(%[[X:.*]]: memref<4x64xf32>, %[[K:.*]]: memref<4x64xf32>, %[[Z:.*]]: memref<4x64xf32>, %[[R:.*]]: memref<4xf32>, %[[O:.*]]: memref<4x64xf32>) kernel
// CHECK: %[[ZE:.*]] = arith.addf
// CHECK: memref.store %[[ZE]], %[[Z]]
// CHECK-COUNT-5: nvvm.shfl.sync bfly
// CHECK-NOT: memref.store
// CHECK: %[[RS:.*]] = math.rsqrt
// CHECK-NEXT: scf.if
// CHECK-NEXT: memref.store %[[RS]], %[[R]]
// CHECK: %[[T:.*]] = arith.mulf %[[RS]], %[[RS]] : f32
// CHECK-NOT: memref.store
// CHECK: scf.for
// CHECK: memref.load %[[Z]]
// CHECK: memref.store %{{.*}}, %[[O]]
// CHECK-NOT: memref.store
// CHECK: gpu.return
func.func @readers_after(%x: memref<4x64xf32>, %k: memref<4x64xf32>, %o: memref<4x64xf32>, %r_out: memref<4xf32>, %z_out: memref<2x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %s = memref.alloc() : memref<4xf32>
  linalg.fill ins(%zero : f32) outs(%s : memref<4xf32>)
  %z = memref.alloc() : memref<4x64xf32>
  linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %k : memref<4x64xf32>, memref<4x64xf32>) outs(%z : memref<4x64xf32>) attrs = {fp8.row_group = 0 : i64} {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  }
  linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%z : memref<4x64xf32>) outs(%s : memref<4xf32>) attrs = {fp8.reduction_lanes = 32 : i64, fp8.row_group = 0 : i64} {
  ^bb0(%a: f32, %acc: f32):
    %q = arith.mulf %a, %a : f32
    %v = arith.addf %acc, %q : f32
    linalg.yield %v : f32
  }
  %r = memref.alloc() : memref<4xf32>
  linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%s : memref<4xf32>) outs(%r : memref<4xf32>) attrs = {fp8.row_group = 0 : i64} {
  ^bb0(%a: f32, %c: f32):
    %v = math.rsqrt %a : f32
    linalg.yield %v : f32
  }
  %t = memref.alloc() : memref<4xf32>
  linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%r : memref<4xf32>) outs(%t : memref<4xf32>) attrs = {fp8.row_group = 0 : i64} {
  ^bb0(%a: f32, %c: f32):
    %v = arith.mulf %a, %a : f32
    linalg.yield %v : f32
  }
  linalg.generic {indexing_maps = [#id2, #row, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%z, %r, %t : memref<4x64xf32>, memref<4xf32>, memref<4xf32>) outs(%o : memref<4x64xf32>) attrs = {fp8.row_group = 0 : i64} {
  ^bb0(%a: f32, %b: f32, %u: f32, %c: f32):
    %v = arith.mulf %a, %b : f32
    %w = arith.mulf %v, %u : f32
    linalg.yield %w : f32
  }
  memref.copy %r, %r_out : memref<4xf32> to memref<4xf32>
  %zv = memref.subview %z[1, 0] [2, 64] [1, 1] : memref<4x64xf32> to memref<2x64xf32, strided<[64, 1], offset: 64>>
  memref.copy %zv, %z_out : memref<2x64xf32, strided<[64, 1], offset: 64>> to memref<2x64xf32>
  memref.dealloc %z : memref<4x64xf32>
  memref.dealloc %s : memref<4xf32>
  memref.dealloc %r : memref<4xf32>
  memref.dealloc %t : memref<4xf32>
  return
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// A dead producer z = x - k (written through a view of a larger
// allocation) read by the max and by a chained sum with no elementwise op
// before it (V = 4): the sum's own walk recomputes z from vector loads of
// x and k; the allocation and its view go.
// CHECK-LABEL: func.func @chained_recomputed
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.subview
// CHECK: gpu.launch_func @fp8_host_kernels::@chained_recomputed_row_max_fused {{.*}} args(%{{.*}} : memref<4x128xf32>, %{{.*}} : memref<4x128xf32>, %{{.*}} : memref<4xf32>, %{{.*}} : memref<4xf32>)
// CHECK-NOT: memref.dealloc
// CHECK: return
// CHECK: gpu.func @chained_recomputed_row_max_fused(%[[X:.*]]: memref<4x128xf32>, %[[K:.*]]: memref<4x128xf32>, %[[M:.*]]: memref<4xf32>, %[[S:.*]]: memref<4xf32>) kernel
// CHECK: %[[XV:.*]] = vector.load %[[X]]
// CHECK: %[[KV:.*]] = vector.load %[[K]]
// CHECK: %[[X0:.*]] = vector.extract %[[XV]][0]
// CHECK-NEXT: %[[K0:.*]] = vector.extract %[[KV]][0]
// CHECK-NEXT: %[[Z0:.*]] = arith.subf %[[X0]], %[[K0]] : f32
// CHECK-NEXT: arith.maximumf %{{.*}}, %[[Z0]] : f32
// CHECK-NOT: vector.store
// CHECK: memref.store %{{.*}}, %[[M]]
// CHECK: scf.for {{.*}} iter_args(%[[SACC:.*]] = %{{.*}}) -> (f32) {
// CHECK: %[[XW:.*]] = vector.load %[[X]]
// CHECK: %[[KW:.*]] = vector.load %[[K]]
// CHECK: %[[X1:.*]] = vector.extract %[[XW]][0]
// CHECK-NEXT: %[[K1:.*]] = vector.extract %[[KW]][0]
// CHECK-NEXT: %[[Z1:.*]] = arith.subf %[[X1]], %[[K1]] : f32
// CHECK-NEXT: arith.addf %[[SACC]], %[[Z1]] : f32
// CHECK-NOT: vector.store
// CHECK: memref.store %{{.*}}, %[[S]]
// CHECK-NOT: vector.store
// CHECK: gpu.return
func.func @chained_recomputed(%x: memref<4x128xf32>, %k: memref<4x128xf32>, %m: memref<4xf32>, %s: memref<4xf32>) {
  %big = memref.alloc() : memref<8x128xf32>
  %z = memref.subview %big[4, 0] [4, 128] [1, 1] : memref<8x128xf32> to memref<4x128xf32, strided<[128, 1], offset: 512>>
  linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %k : memref<4x128xf32>, memref<4x128xf32>) outs(%z : memref<4x128xf32, strided<[128, 1], offset: 512>>) attrs = {fp8.row_group = 0 : i64} {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.subf %a, %b : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%z : memref<4x128xf32, strided<[128, 1], offset: 512>>) outs(%m : memref<4xf32>) attrs = {fp8.reduction_lanes = 32 : i64, fp8.reduction_vector = 4 : i64, fp8.row_group = 0 : i64} {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %acc, %a : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%z : memref<4x128xf32, strided<[128, 1], offset: 512>>) outs(%s : memref<4xf32>) attrs = {fp8.reduction_lanes = 32 : i64, fp8.reduction_vector = 4 : i64, fp8.row_group = 0 : i64} {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }
  memref.dealloc %big : memref<8x128xf32>
  return
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// A buffer the group writes twice (t = x * s, then t / u in place) and
// frees unread: nothing is taken for dead (a recomputed t would be the
// other write's), t is stored by both walks and read back by the second.
// CHECK-LABEL: func.func @written_twice
// CHECK: %[[HT:.*]] = memref.alloc() : memref<4x64xf32>
// CHECK: gpu.launch_func @fp8_host_kernels::@written_twice_row_sum_fused {{.*}}, %[[HT]] : memref<4x64xf32>,
// CHECK-NEXT: memref.dealloc %[[HT]]
// CHECK: gpu.func @written_twice_row_sum_fused(%{{.*}}: memref<4x64xf32>, %{{.*}}: memref<4xf32>, %[[T:.*]]: memref<4x64xf32>, %{{.*}}: memref<4xf32>, %{{.*}}: memref<4x64xf32>) kernel
// CHECK: %[[TV:.*]] = arith.mulf
// CHECK: memref.store %[[TV]], %[[T]]
// CHECK: %[[TL:.*]] = memref.load %[[T]]
// CHECK-NEXT: %[[Q:.*]] = arith.divf %[[TL]], %{{.*}} : f32
// CHECK: memref.store %[[Q]], %[[T]]
func.func @written_twice(%x: memref<4x64xf32>, %s: memref<4xf32>, %u: memref<4xf32>, %o: memref<4x64xf32>) {
  linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x64xf32>) outs(%s : memref<4xf32>) attrs = {fp8.reduction_lanes = 32 : i64, fp8.row_group = 0 : i64} {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }
  %t = memref.alloc() : memref<4x64xf32>
  linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : memref<4x64xf32>, memref<4xf32>) outs(%t : memref<4x64xf32>) attrs = {fp8.row_group = 0 : i64} {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%t : memref<4x64xf32>) outs(%u : memref<4xf32>) attrs = {fp8.reduction_lanes = 32 : i64, fp8.row_group = 0 : i64} {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%t, %u : memref<4x64xf32>, memref<4xf32>) outs(%t : memref<4x64xf32>) attrs = {fp8.row_group = 0 : i64} {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %r = arith.divf %a, %b : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%t, %x : memref<4x64xf32>, memref<4x64xf32>) outs(%o : memref<4x64xf32>) attrs = {fp8.row_group = 0 : i64} {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  }
  memref.dealloc %t : memref<4x64xf32>
  return
}
