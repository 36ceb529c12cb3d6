// fp8-outline-host-kernels: the fill of a fused row reduction's init
// (`fp8.row_group`) folded into the row kernel. Where the fill writes an
// f32 scalar into an allocation whose first toucher after it is that
// reduction (into the same view), the kernel combines the scalar after the
// butterfly where it loaded the buffer's element (the init last, on the
// body's side: docs/numerics.md, "Reduction order"), and the fill has no
// launch. Otherwise the fill keeps its launch and the kernel loads the init.
// RUN: fp8-opt %s --split-input-file --fp8-outline-host-kernels | FileCheck %s

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// Both inits of a softmax-like group (a max, exp(z - max) as a square, a
// chained sum, the divide) folded: one launch, no fill's, no init loaded;
// the max's init -inf and the sum's 0.5 (not 0: a value the order shows)
// combined after each butterfly, the accumulator's side on the left.
// CHECK-LABEL: func.func @softmax_fills
// CHECK-NOT: linalg.fill
// CHECK-NOT: _fill
// CHECK: gpu.launch_func @fp8_host_kernels::@softmax_fills_row_max_fused
// CHECK-NOT: gpu.launch_func
// CHECK: return
// CHECK: gpu.func @softmax_fills_row_max_fused(%[[X:.*]]: memref<4x64xf32>, %[[M:.*]]: memref<4xf32>, %[[E:.*]]: memref<4x64xf32>, %[[S:.*]]: memref<4xf32>, %[[P:.*]]: memref<4x64xf32>) kernel
// CHECK-DAG: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK-DAG: %[[HALF:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-NOT: nvvm.shfl.sync idx
// CHECK-NOT: memref.load %[[M]]
// CHECK: scf.for
// CHECK-COUNT-5: nvvm.shfl.sync bfly
// CHECK: %[[MAXV:.*]] = arith.maximumf %{{.*}}, %{{.*}} : f32
// CHECK-NOT: memref.load %[[M]]
// CHECK: %[[MAX:.*]] = arith.maximumf %[[NINF]], %[[MAXV]] : f32
// CHECK: memref.store %[[MAX]], %[[M]]
// CHECK: scf.for
// CHECK: arith.subf %{{.*}}, %[[MAX]] : f32
// CHECK-COUNT-5: nvvm.shfl.sync bfly
// CHECK: %[[SUMV:.*]] = arith.addf %{{.*}}, %{{.*}} : f32
// CHECK-NOT: memref.load %[[S]]
// CHECK: %[[SUM:.*]] = arith.addf %[[HALF]], %[[SUMV]] : f32
// CHECK: memref.store %[[SUM]], %[[S]]
// CHECK: scf.for
// CHECK: arith.divf %{{.*}}, %[[SUM]] : f32
// CHECK-NOT: nvvm.shfl.sync idx
// CHECK: gpu.return
func.func @softmax_fills(%x: memref<4x64xf32>) -> (memref<4x64xf32>, memref<4xf32>, memref<4xf32>, memref<4x64xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %half = arith.constant 0.5 : f32
  %m = memref.alloc() : memref<4xf32>
  %s = memref.alloc() : memref<4xf32>
  linalg.fill ins(%ninf : f32) outs(%m : memref<4xf32>)
  linalg.fill ins(%half : f32) outs(%s : memref<4xf32>)
  linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x64xf32>) outs(%m : memref<4xf32>) attrs = {fp8.reduction_lanes = 32 : i64, fp8.row_group = 0 : i64} {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %acc, %a : f32
    linalg.yield %r : f32
  }
  %e = memref.alloc() : memref<4x64xf32>
  linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m : memref<4x64xf32>, memref<4xf32>) outs(%e : memref<4x64xf32>) attrs = {fp8.row_group = 0 : i64} {
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
  // m, s and e returned: read after the kernel, so stored
  // (outline-row-group-dead.mlir has the dead ones).
  return %p, %m, %s, %e : memref<4x64xf32>, memref<4xf32>, memref<4xf32>, memref<4x64xf32>
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// A run-time scalar (a function argument) as the fill's value: the kernel
// takes it as an operand and adds it after the butterfly.
// CHECK-LABEL: func.func @scalar_init
// CHECK-SAME: (%{{.*}}: memref<4x64xf32>, %[[V:.*]]: f32, %{{.*}}: memref<4x64xf32>)
// CHECK-NOT: _fill
// CHECK: gpu.launch_func @fp8_host_kernels::@scalar_init_row_sum_fused {{.*}}%[[V]] : f32
// CHECK-NOT: gpu.launch_func
// CHECK: gpu.func @scalar_init_row_sum_fused(
// CHECK-SAME: %[[KV:[^:]*]]: f32
// CHECK-NOT: nvvm.shfl.sync idx
// CHECK-COUNT-5: nvvm.shfl.sync bfly
// CHECK: %[[T:.*]] = arith.addf %{{.*}}, %{{.*}} : f32
// CHECK: arith.addf %[[KV]], %[[T]] : f32
func.func @scalar_init(%x: memref<4x64xf32>, %v: f32, %o: memref<4x64xf32>) {
  %s = memref.alloc() : memref<4xf32>
  linalg.fill ins(%v : f32) outs(%s : memref<4xf32>)
  linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x64xf32>) outs(%s : memref<4xf32>) attrs = {fp8.reduction_lanes = 32 : i64, fp8.row_group = 0 : i64} {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : memref<4x64xf32>, memref<4xf32>) outs(%o : memref<4x64xf32>) attrs = {fp8.row_group = 0 : i64} {
  ^bb0(%a: f32, %t: f32, %b: f32):
    %r = arith.mulf %a, %t : f32
    linalg.yield %r : f32
  }
  memref.dealloc %s : memref<4xf32>
  return
}

// -----

#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// An op between the fill and the sum reads the filled buffer (through a
// view): the fill keeps its launch, before that op's, and the kernel loads
// the init (lane 0, shfl.sync.idx).
// CHECK-LABEL: func.func @read_between
// CHECK: gpu.launch_func @fp8_host_kernels::@read_between_fill
// CHECK: gpu.launch_func @fp8_host_kernels::@read_between_generic
// CHECK: gpu.launch_func @fp8_host_kernels::@read_between_row_sum_fused
// CHECK: gpu.func @read_between_row_sum_fused(
// CHECK-COUNT-5: nvvm.shfl.sync bfly
// CHECK: memref.load
// CHECK: nvvm.shfl.sync idx
func.func @read_between(%x: memref<4x64xf32>, %o: memref<4x64xf32>, %t: memref<2xf32>) {
  %zero = arith.constant 0.0 : f32
  %s = memref.alloc() : memref<4xf32>
  linalg.fill ins(%zero : f32) outs(%s : memref<4xf32>)
  %v = memref.subview %s[1] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1], offset: 1>>
  linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%v : memref<2xf32, strided<[1], offset: 1>>) outs(%t : memref<2xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  }
  linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x64xf32>) outs(%s : memref<4xf32>) attrs = {fp8.reduction_lanes = 32 : i64, fp8.row_group = 0 : i64} {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : memref<4x64xf32>, memref<4xf32>) outs(%o : memref<4x64xf32>) attrs = {fp8.row_group = 0 : i64} {
  ^bb0(%a: f32, %r: f32, %b: f32):
    %m = arith.mulf %a, %r : f32
    linalg.yield %m : f32
  }
  memref.dealloc %s : memref<4xf32>
  return
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// A fill of a function's argument (the caller may read it through another
// name) and a fill of a row kernel in no group: both keep their launches.
// CHECK-LABEL: func.func @not_folded
// CHECK: gpu.launch_func @fp8_host_kernels::@not_folded_fill
// CHECK: gpu.launch_func @fp8_host_kernels::@not_folded_row_sum_fused
// CHECK: gpu.launch_func @fp8_host_kernels::@not_folded_fill
// CHECK: gpu.launch_func @fp8_host_kernels::@not_folded_row_sum
// CHECK: gpu.func @not_folded_row_sum_fused(
// CHECK: nvvm.shfl.sync idx
func.func @not_folded(%x: memref<4x64xf32>, %s: memref<4xf32>, %o: memref<4x64xf32>) -> memref<4xf32> {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%s : memref<4xf32>)
  linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x64xf32>) outs(%s : memref<4xf32>) attrs = {fp8.reduction_lanes = 32 : i64, fp8.row_group = 0 : i64} {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : memref<4x64xf32>, memref<4xf32>) outs(%o : memref<4x64xf32>) attrs = {fp8.row_group = 0 : i64} {
  ^bb0(%a: f32, %r: f32, %b: f32):
    %m = arith.mulf %a, %r : f32
    linalg.yield %m : f32
  }
  %u = memref.alloc() : memref<4xf32>
  linalg.fill ins(%zero : f32) outs(%u : memref<4xf32>)
  linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x64xf32>) outs(%u : memref<4xf32>) attrs = {fp8.reduction_lanes = 32 : i64} {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }
  return %u : memref<4xf32>
}
