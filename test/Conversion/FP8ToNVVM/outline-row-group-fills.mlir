// fp8-outline-host-kernels: the fill of a row reduction's init (a fused
// group's, `fp8.row_group`, or a standalone row kernel's) folded into the
// row kernel. Where the fill writes an f32 scalar into an allocation whose
// first toucher after it is that reduction (into the same view, one row per
// element), the kernel combines the scalar after the butterfly where it
// loaded the buffer's element (the init last, on the body's side:
// docs/numerics.md, "Reduction order"), and the fill has no launch.
// Otherwise the fill keeps its launch, with a remark saying why, and the
// kernel loads the init.
// RUN: fp8-opt %s --split-input-file --fp8-outline-host-kernels -verify-diagnostics | FileCheck %s

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
  // expected-remark @below {{the init fill of a row kernel keeps a launch of its own (fp8-outline-host-kernels): not folded into the kernel: the first op after it touching the buffer is not a row reduction into the same view}}
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
// name): it keeps its launch, the kernel loads the init.
// CHECK-LABEL: func.func @argument_fill
// CHECK: gpu.launch_func @fp8_host_kernels::@argument_fill_fill
// CHECK: gpu.launch_func @fp8_host_kernels::@argument_fill_row_sum_fused
// CHECK: gpu.func @argument_fill_row_sum_fused(
// CHECK: nvvm.shfl.sync idx
func.func @argument_fill(%x: memref<4x64xf32>, %s: memref<4xf32>, %o: memref<4x64xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-remark @below {{the init fill of a row kernel keeps a launch of its own (fp8-outline-host-kernels): not folded into the kernel: the buffer is no allocation of the function}}
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
  return
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// Standalone row kernels (no group: the cross-entropy's target pick, the
// loss) fold their inits' fills too: no fill's launch, lane 0 combines the
// scalar with the butterfly's total where it loaded the element, on the
// body's side (the max's accumulator on the right: -inf last), and stores.
// CHECK-LABEL: func.func @standalone
// CHECK-NOT: _fill
// CHECK: gpu.launch_func @fp8_host_kernels::@standalone_row_sum blocks
// CHECK: gpu.launch_func @fp8_host_kernels::@standalone_row_max blocks
// CHECK-NOT: gpu.launch_func
// CHECK: return
// CHECK: gpu.func @standalone_row_sum(%{{.*}}: memref<4x64xf32>, %[[S:.*]]: memref<4xf32>) kernel
// CHECK-DAG: %[[Q:.*]] = arith.constant 2.500000e-01 : f32
// CHECK-NOT: memref.load %[[S]]
// CHECK-COUNT-5: nvvm.shfl.sync bfly
// CHECK: %[[T:.*]] = arith.addf %{{.*}}, %{{.*}} : f32
// CHECK-NOT: memref.load %[[S]]
// CHECK: %[[R:.*]] = arith.addf %[[Q]], %[[T]] : f32
// CHECK-NEXT: memref.store %[[R]], %[[S]]
// CHECK: gpu.func @standalone_row_max(%{{.*}}: memref<4x64xf32>, %[[M:.*]]: memref<4xf32>) kernel
// CHECK-DAG: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK-NOT: memref.load %[[M]]
// CHECK-COUNT-5: nvvm.shfl.sync bfly
// CHECK: %[[MT:.*]] = arith.maximumf %{{.*}}, %{{.*}} : f32
// CHECK-NOT: memref.load %[[M]]
// CHECK: %[[MR:.*]] = arith.maximumf %[[MT]], %[[NINF]] : f32
// CHECK-NEXT: memref.store %[[MR]], %[[M]]
func.func @standalone(%x: memref<4x64xf32>) -> (memref<4xf32>, memref<4xf32>) {
  %quarter = arith.constant 0.25 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %u = memref.alloc() : memref<4xf32>
  linalg.fill ins(%quarter : f32) outs(%u : memref<4xf32>)
  linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x64xf32>) outs(%u : memref<4xf32>) attrs = {fp8.reduction_lanes = 32 : i64} {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }
  %m = memref.alloc() : memref<4xf32>
  linalg.fill ins(%ninf : f32) outs(%m : memref<4xf32>)
  linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x64xf32>) outs(%m : memref<4xf32>) attrs = {fp8.reduction_lanes = 32 : i64} {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc : f32
    linalg.yield %r : f32
  }
  return %u, %m : memref<4xf32>, memref<4xf32>
}

// -----

#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#row0 = affine_map<(d0, d1) -> (d0, 0)>

// Standalone row kernels whose fills stay: an op between reads the filled
// buffer (it must see the fill's value), and the reduction writes only
// column 0 of its [4, 2] init (column 1 keeps the fill's value). Each fill
// keeps its launch and says why; the kernels load their inits.
// CHECK-LABEL: func.func @standalone_kept
// CHECK: gpu.launch_func @fp8_host_kernels::@standalone_kept_fill blocks
// CHECK: gpu.launch_func @fp8_host_kernels::@standalone_kept_generic
// CHECK: gpu.launch_func @fp8_host_kernels::@standalone_kept_row_sum blocks
// CHECK: gpu.launch_func @fp8_host_kernels::@standalone_kept_fill_0
// CHECK: gpu.launch_func @fp8_host_kernels::@standalone_kept_row_sum_1
// CHECK: gpu.func @standalone_kept_row_sum(%{{.*}}: memref<4x64xf32>, %[[S:.*]]: memref<4xf32>) kernel
// CHECK-COUNT-5: nvvm.shfl.sync bfly
// CHECK: memref.load %[[S]]
// CHECK: gpu.func @standalone_kept_row_sum_1(%{{.*}}: memref<4x64xf32>, %[[W:.*]]: memref<4x2xf32>) kernel
// CHECK-COUNT-5: nvvm.shfl.sync bfly
// CHECK: memref.load %[[W]]
func.func @standalone_kept(%x: memref<4x64xf32>, %t: memref<4xf32>) -> (memref<4xf32>, memref<4x2xf32>) {
  %zero = arith.constant 0.0 : f32
  %s = memref.alloc() : memref<4xf32>
  // expected-remark @below {{the init fill of a row kernel keeps a launch of its own (fp8-outline-host-kernels): not folded into the kernel: the first op after it touching the buffer is not a row reduction into the same view}}
  linalg.fill ins(%zero : f32) outs(%s : memref<4xf32>)
  linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%s : memref<4xf32>) outs(%t : memref<4xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  }
  linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x64xf32>) outs(%s : memref<4xf32>) attrs = {fp8.reduction_lanes = 32 : i64} {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }
  %w = memref.alloc() : memref<4x2xf32>
  // expected-remark @below {{the init fill of a row kernel keeps a launch of its own (fp8-outline-host-kernels): not folded into the kernel: the reduction does not write every element of the view}}
  linalg.fill ins(%zero : f32) outs(%w : memref<4x2xf32>)
  linalg.generic {indexing_maps = [#id2, #row0], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x64xf32>) outs(%w : memref<4x2xf32>) attrs = {fp8.reduction_lanes = 32 : i64} {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }
  return %s, %w : memref<4xf32>, memref<4x2xf32>
}
