// fp8-outline-host-kernels: a row sum marked `fp8.row_group` (with
// `fp8.reduction_lanes = 32`) and the ops of its group after it become one
// launch, the row kernel's: after the butterfly lane 0 loads the init and
// shfl.sync.idx gives it to every lane, every lane adds it (the same bits
// in each lane), lane 0 stores the sum's result; then the per-row ops in
// registers (lane 0 stores their outputs) and the elementwise ops, lane l
// computing elements l + 32 j of the row (j < ceil(N / 32), the last step
// for the lanes below N % 32 only), each output stored. A group the
// kernel cannot take is an error naming why.
// RUN: fp8-opt %s --split-input-file --verify-diagnostics --fp8-outline-host-kernels | FileCheck %s

#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>

// CHECK-LABEL: func.func @rmsnorm
// The sum's launch after the consumers' allocations; the dealloc between
// the sum and the last op of the group after it.
// CHECK: %[[RSTD:.*]] = memref.alloc() : memref<20xf32>
// CHECK: %[[N:.*]] = memref.alloc() : memref<20x100xf32>
// CHECK: gpu.launch_func @fp8_host_kernels::@rmsnorm_row_sum_fused blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}}) args(%{{.*}} : memref<20x100xf32>, %{{.*}} : memref<20xf32>, %[[RSTD]] : memref<20xf32>, %{{.*}} : memref<100xf32>, %[[N]] : memref<20x100xf32>)
// CHECK-NEXT: memref.dealloc
// CHECK-NOT: gpu.launch_func
// CHECK: return
// CHECK: gpu.func @rmsnorm_row_sum_fused(%[[X:.*]]: memref<20x100xf32>, %[[S:.*]]: memref<20xf32>, %[[R:.*]]: memref<20xf32>, %[[W:.*]]: memref<100xf32>, %[[OUT:.*]]: memref<20x100xf32>) kernel
// CHECK: %[[LANE:.*]] = arith.remui %{{.*}}, %{{.*}} : index
// CHECK: %[[ROW:.*]] = arith.remui %{{.*}}, %{{.*}} : index
// CHECK-COUNT-5: nvvm.shfl.sync bfly
// CHECK-NEXT: %[[T1:.*]] = arith.addf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[L0:.*]] = arith.cmpi eq, %[[LANE]], %[[C0]] : index
// CHECK: %[[OLD:.*]] = scf.if %[[L0]] -> (f32) {
// CHECK-NEXT: memref.load %[[S]][%{{.*}}] : memref<20xf32>
// CHECK: %[[C0I:.*]] = arith.constant 0 : i32
// CHECK: %[[BC:.*]] = nvvm.shfl.sync idx %{{.*}}, %[[OLD]], %[[C0I]], %{{.*}} : f32 -> f32
// CHECK-NEXT: %[[SUM:.*]] = arith.addf %[[BC]], %[[T1]] : f32
// CHECK-NEXT: scf.if %[[L0]] {
// CHECK-NEXT: memref.store %[[SUM]], %[[S]][%{{.*}}] : memref<20xf32>
// The per-row op on the sum in every lane; lane 0 stores it.
// CHECK: %[[P:.*]] = arith.addf %[[SUM]], %{{.*}} : f32
// CHECK-NEXT: %[[RS:.*]] = math.rsqrt %[[P]] : f32
// CHECK-NEXT: scf.if %{{.*}} {
// CHECK-NEXT: memref.store %[[RS]], %[[R]][%[[ROW]]] : memref<20xf32>
// The elementwise op: 4 steps, element 32 j + lane, the last step's lanes
// below 100 - 96 = 4 only.
// CHECK: %[[C4:.*]] = arith.constant 4 : index
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %[[C4]] step %{{.*}} {
// CHECK: %[[J32:.*]] = arith.muli %[[J]], %{{.*}} : index
// CHECK-NEXT: %[[E:.*]] = arith.addi %[[J32]], %[[LANE]] : index
// CHECK-NEXT: %[[C100:.*]] = arith.constant 100 : index
// CHECK-NEXT: %[[IN:.*]] = arith.cmpi ult, %[[E]], %[[C100]] : index
// CHECK-NEXT: scf.if %[[IN]] {
// CHECK: %[[XV:.*]] = memref.load %[[X]][%{{.*}}, %{{.*}}] : memref<20x100xf32>
// CHECK: %[[WV:.*]] = memref.load %[[W]][%{{.*}}] : memref<100xf32>
// CHECK-NEXT: %[[T:.*]] = arith.mulf %[[XV]], %[[RS]] : f32
// CHECK-NEXT: %[[U:.*]] = arith.mulf %[[T]], %[[WV]] : f32
// CHECK-NEXT: memref.store %[[U]], %[[OUT]][%[[ROW]], %[[E]]] : memref<20x100xf32>
func.func @rmsnorm(%x: memref<20x100xf32>, %w: memref<100xf32>, %s: memref<20xf32>) -> (memref<20x100xf32>, memref<20xf32>) {
  %eps = arith.constant 1.0e-6 : f32
  %tmp = memref.alloc() : memref<8xf32>
  linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<20x100xf32>) outs(%s : memref<20xf32>) attrs = {fp8.reduction_lanes = 32 : i64, fp8.row_group = 0 : i64} {
  ^bb0(%a: f32, %acc: f32):
    %q = arith.mulf %a, %a : f32
    %r = arith.addf %acc, %q : f32
    linalg.yield %r : f32
  }
  memref.dealloc %tmp : memref<8xf32>
  %rstd = memref.alloc() : memref<20xf32>
  linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%s : memref<20xf32>) outs(%rstd : memref<20xf32>) attrs = {fp8.row_group = 0 : i64} {
  ^bb0(%a: f32, %o: f32):
    %p = arith.addf %a, %eps : f32
    %r = math.rsqrt %p : f32
    linalg.yield %r : f32
  }
  %n = memref.alloc() : memref<20x100xf32>
  linalg.generic {indexing_maps = [#id2, #row, #col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %rstd, %w : memref<20x100xf32>, memref<20xf32>, memref<100xf32>) outs(%n : memref<20x100xf32>) attrs = {fp8.row_group = 0 : i64} {
  ^bb0(%a: f32, %r: f32, %g: f32, %o: f32):
    %t = arith.mulf %a, %r : f32
    %u = arith.mulf %t, %g : f32
    linalg.yield %u : f32
  }
  return %n, %rstd : memref<20x100xf32>, memref<20xf32>
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// A write between the sum and its consumer: the launch would move the
// consumer's kernel across it.
func.func @write_between(%x: memref<4x64xf32>, %s: memref<4xf32>, %o: memref<4x64xf32>, %t: memref<8xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-error @+1 {{fp8-outline-host-kernels: the row group 0 cannot be one kernel: 'linalg.fill' between its ops reads or writes memory (the one launch would move it across them)}}
  linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x64xf32>) outs(%s : memref<4xf32>) attrs = {fp8.reduction_lanes = 32 : i64, fp8.row_group = 0 : i64} {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }
  linalg.fill ins(%zero : f32) outs(%t : memref<8xf32>)
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
#col = affine_map<(d0, d1) -> (d1)>

// The sum's buffer read along the other dimension: another warp's row.
func.func @other_row(%x: memref<32x32xf32>, %s: memref<32xf32>, %o: memref<32x32xf32>) {
  // expected-error @+1 {{the row group 3 cannot be one kernel: an op reads a buffer the group writes other than the value an earlier op of the group computed, at its own row (broadcast along the row) or element}}
  linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<32x32xf32>) outs(%s : memref<32xf32>) attrs = {fp8.reduction_lanes = 32 : i64, fp8.row_group = 3 : i64} {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id2, #col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : memref<32x32xf32>, memref<32xf32>) outs(%o : memref<32x32xf32>) attrs = {fp8.row_group = 3 : i64} {
  ^bb0(%a: f32, %r: f32, %b: f32):
    %m = arith.mulf %a, %r : f32
    linalg.yield %m : f32
  }
  return
}

// -----

#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// A member reading a buffer a later member writes (lane 0 of another warp
// may have written it already): refused.
func.func @reads_later(%x: memref<4x64xf32>, %s: memref<4xf32>, %o: memref<4x64xf32>, %t: memref<4xf32>) {
  // expected-error @+1 {{the row group 0 cannot be one kernel: an op reads a buffer the group writes other than the value an earlier op of the group computed}}
  linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x64xf32>) outs(%s : memref<4xf32>) attrs = {fp8.reduction_lanes = 32 : i64, fp8.row_group = 0 : i64} {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id2, #row, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s, %t : memref<4x64xf32>, memref<4xf32>, memref<4xf32>) outs(%o : memref<4x64xf32>) attrs = {fp8.row_group = 0 : i64} {
  ^bb0(%a: f32, %r: f32, %u: f32, %b: f32):
    %m = arith.mulf %a, %r : f32
    %n = arith.mulf %m, %u : f32
    linalg.yield %n : f32
  }
  linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%s : memref<4xf32>) outs(%t : memref<4xf32>) attrs = {fp8.row_group = 0 : i64} {
  ^bb0(%r: f32, %b: f32):
    %m = arith.mulf %r, %r : f32
    linalg.yield %m : f32
  }
  return
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// The consumer writes the rows the sum reads (in place): refused.
func.func @in_place(%x: memref<4x64xf32>, %s: memref<4xf32>) {
  // expected-error @+1 {{the row group 0 cannot be one kernel: the sum reads a buffer its group writes}}
  linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x64xf32>) outs(%s : memref<4xf32>) attrs = {fp8.reduction_lanes = 32 : i64, fp8.row_group = 0 : i64} {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s : memref<4xf32>) outs(%x : memref<4x64xf32>) attrs = {fp8.row_group = 0 : i64} {
  ^bb0(%r: f32, %b: f32):
    %m = arith.mulf %r, %r : f32
    linalg.yield %m : f32
  }
  return
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// A member the kernels do not take (fast-math flags), one that reduces.
func.func @fastmath(%x: memref<4x64xf32>, %s: memref<4xf32>, %o: memref<4x64xf32>) {
  // expected-error @+1 {{the row group 0 cannot be one kernel: its linalg.generic at 1 cannot join the row kernel: its body's arith.mulf has fast-math flags}}
  linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x64xf32>) outs(%s : memref<4xf32>) attrs = {fp8.reduction_lanes = 32 : i64, fp8.row_group = 0 : i64} {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : memref<4x64xf32>, memref<4xf32>) outs(%o : memref<4x64xf32>) attrs = {fp8.row_group = 0 : i64} {
  ^bb0(%a: f32, %r: f32, %b: f32):
    %m = arith.mulf %a, %r fastmath<fast> : f32
    linalg.yield %m : f32
  }
  return
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

func.func @reduces(%x: memref<4x64xf32>, %s: memref<4xf32>, %t: memref<4xf32>) {
  // expected-error @+1 {{the row group 0 cannot be one kernel: its linalg.generic at 1 cannot join the row kernel: an iterator is not parallel}}
  linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x64xf32>) outs(%s : memref<4xf32>) attrs = {fp8.reduction_lanes = 32 : i64, fp8.row_group = 0 : i64} {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x64xf32>) outs(%t : memref<4xf32>) attrs = {fp8.row_group = 0 : i64} {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }
  return
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// An op of a group with no sum of that group before it.
func.func @no_sum(%x: memref<4x64xf32>, %s: memref<4xf32>, %o: memref<4x64xf32>) {
  // expected-error @+1 {{fp8-outline-host-kernels: the op of row group 5 follows no row sum of its group in its block}}
  linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : memref<4x64xf32>, memref<4xf32>) outs(%o : memref<4x64xf32>) attrs = {fp8.row_group = 5 : i64} {
  ^bb0(%a: f32, %r: f32, %b: f32):
    %m = arith.mulf %a, %r : f32
    linalg.yield %m : f32
  }
  return
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// A masked softmax as one group (the exp, which fp8-expand-math expands
// before bufferization, as a square here): the mask add (a producer,
// before the max), the max, exp(z - max), the sum of the exps (a chained
// reduction), the divide. One kernel: the lanes compute and store their elements of
// the mask add, the max's partial maxima read them back, its butterfly,
// the init through shfl.sync.idx; exp(z - max) per element, stored; the
// sum's partial sums over the lane's own exps, its butterfly and init;
// the divide.
// Lane-strided (no fp8.reduction_vector: V = 1): every lane reads back its
// own elements, no warp sync.
// CHECK-LABEL: func.func @softmax
// CHECK: gpu.launch_func @fp8_host_kernels::@softmax_row_max_fused
// CHECK-NOT: gpu.launch_func
// CHECK: return
// CHECK: gpu.func @softmax_row_max_fused(%[[X:.*]]: memref<4x64xf32>, %[[K:.*]]: memref<4x64xf32>, %[[Z:.*]]: memref<4x64xf32>, %[[M:.*]]: memref<4xf32>, %[[E:.*]]: memref<4x64xf32>, %[[S:.*]]: memref<4xf32>, %[[P:.*]]: memref<4x64xf32>) kernel
// The mask add: each lane its elements, stored.
// CHECK: scf.for
// CHECK: %[[ZV:.*]] = arith.addf
// CHECK-NEXT: memref.store %[[ZV]], %[[Z]]
// The max over them (read back), its butterfly, its init.
// CHECK: scf.for
// CHECK: memref.load %[[Z]]
// CHECK: arith.maximumf
// CHECK-COUNT-5: nvvm.shfl.sync bfly
// CHECK: memref.load %[[M]]
// CHECK: nvvm.shfl.sync idx
// CHECK: memref.store %{{.*}}, %[[M]]
// exp(z - max), stored.
// CHECK: scf.for
// CHECK: memref.load %[[Z]]
// CHECK: arith.subf
// CHECK: arith.mulf
// CHECK: memref.store %{{.*}}, %[[E]]
// The sum over the lane's own exps, its butterfly, its init.
// CHECK: scf.for
// CHECK: memref.load %[[E]]
// CHECK: arith.addf
// CHECK-COUNT-5: nvvm.shfl.sync bfly
// CHECK: memref.load %[[S]]
// CHECK: nvvm.shfl.sync idx
// CHECK: memref.store %{{.*}}, %[[S]]
// The divide.
// CHECK: scf.for
// CHECK: memref.load %[[E]]
// CHECK: arith.divf
// CHECK: memref.store %{{.*}}, %[[P]]
// CHECK-NOT: nvvm.shfl.sync
// CHECK: gpu.return
// CHECK-NOT: nvvm.bar.warp.sync
func.func @softmax(%x: memref<4x64xf32>, %k: memref<4x64xf32>, %m: memref<4xf32>, %s: memref<4xf32>) -> memref<4x64xf32> {
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
  return %p : memref<4x64xf32>
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// The vector order (fp8.reduction_vector = 4, rows of 128: one vector
// step): the partial sums read elements 4 l .. 4 l + 3, which other lanes of
// the element loops (elements l, l + 32, ...) stored, so a bar.warp.sync
// stands between each element loop and the partial sums reading it back.
// CHECK-LABEL: gpu.func @softmax_vector_row_max_fused
// The mask add, the sync, the max's partial maxima.
// CHECK: arith.addf
// CHECK: memref.store
// CHECK: nvvm.bar.warp.sync %{{.*}} : i32
// CHECK-NEXT: arith.constant
// CHECK: arith.maximumf
// CHECK-COUNT-5: nvvm.shfl.sync bfly
// exp(z - max) stored, the sync, the sum's partial sums.
// CHECK: arith.subf
// CHECK: memref.store
// CHECK: nvvm.bar.warp.sync %{{.*}} : i32
// CHECK-NEXT: arith.constant
// CHECK: arith.addf
// CHECK-COUNT-5: nvvm.shfl.sync bfly
// CHECK-NOT: nvvm.bar.warp.sync
// CHECK: gpu.return
func.func @softmax_vector(%x: memref<4x128xf32>, %k: memref<4x128xf32>, %m: memref<4xf32>, %s: memref<4xf32>) -> memref<4x128xf32> {
  %z = memref.alloc() : memref<4x128xf32>
  linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %k : memref<4x128xf32>, memref<4x128xf32>) outs(%z : memref<4x128xf32>) attrs = {fp8.row_group = 0 : i64} {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%z : memref<4x128xf32>) outs(%m : memref<4xf32>) attrs = {fp8.reduction_lanes = 32 : i64, fp8.reduction_vector = 4 : i64, fp8.row_group = 0 : i64} {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %acc, %a : f32
    linalg.yield %r : f32
  }
  %e = memref.alloc() : memref<4x128xf32>
  linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%z, %m : memref<4x128xf32>, memref<4xf32>) outs(%e : memref<4x128xf32>) attrs = {fp8.row_group = 0 : i64} {
  ^bb0(%a: f32, %mx: f32, %o: f32):
    %d = arith.subf %a, %mx : f32
    linalg.yield %d : f32
  }
  linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%e : memref<4x128xf32>) outs(%s : memref<4xf32>) attrs = {fp8.reduction_lanes = 32 : i64, fp8.reduction_vector = 4 : i64, fp8.row_group = 0 : i64} {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }
  return %e : memref<4x128xf32>
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// A chained reduction over rows of another length: the row kernel's lanes
// would read other elements than they computed.
func.func @chained_other_n(%x: memref<4x64xf32>, %y: memref<4x128xf32>, %m: memref<4xf32>, %e: memref<4x64xf32>, %s: memref<4xf32>) {
  // expected-error @+1 {{the row group 0 cannot be one kernel: its linalg.generic at 2 cannot join the row kernel: a chained reduction over other rows or elements than the sum's}}
  linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x64xf32>) outs(%m : memref<4xf32>) attrs = {fp8.reduction_lanes = 32 : i64, fp8.row_group = 0 : i64} {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %acc, %a : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m : memref<4x64xf32>, memref<4xf32>) outs(%e : memref<4x64xf32>) attrs = {fp8.row_group = 0 : i64} {
  ^bb0(%a: f32, %mx: f32, %o: f32):
    %d = arith.subf %a, %mx : f32
    linalg.yield %d : f32
  }
  linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%y : memref<4x128xf32>) outs(%s : memref<4xf32>) attrs = {fp8.reduction_lanes = 32 : i64, fp8.row_group = 0 : i64} {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }
  return
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// A chained reduction reading a per-row value of the group, which lane 0
// alone stored (LayerNorm's variance reading the mean).
func.func @chained_reads_row(%x: memref<4x64xf32>, %m: memref<4xf32>, %mean: memref<4xf32>, %v: memref<4xf32>) {
  // expected-error @+1 {{the row group 0 cannot be one kernel: a reduction of the group reads a buffer its group writes other than an element an earlier op computed, at its own element}}
  linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x64xf32>) outs(%m : memref<4xf32>) attrs = {fp8.reduction_lanes = 32 : i64, fp8.row_group = 0 : i64} {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%m : memref<4xf32>) outs(%mean : memref<4xf32>) attrs = {fp8.row_group = 0 : i64} {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant 1.562500e-02 : f32
    %r = arith.mulf %a, %c : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id2, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %mean : memref<4x64xf32>, memref<4xf32>) outs(%v : memref<4xf32>) attrs = {fp8.reduction_lanes = 32 : i64, fp8.row_group = 0 : i64} {
  ^bb0(%a: f32, %mn: f32, %acc: f32):
    %d = arith.subf %a, %mn : f32
    %q = arith.mulf %d, %d : f32
    %r = arith.addf %acc, %q : f32
    linalg.yield %r : f32
  }
  return
}
