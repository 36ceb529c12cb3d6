// fp8-outline-host-kernels: a row sum marked `fp8.row_group` (with
// `fp8.reduction_lanes = 32`) and the ops of its group after it become one
// launch, the row kernel's: after the butterfly lane 0 loads the init and
// shfl.sync.idx gives it to every lane, every lane adds it (the same bits
// in each lane), lane 0 stores the sum's result; then the per-row ops in
// registers (lane 0 stores their outputs) and the elementwise ops in the
// lane map of the reduction order (fp8.reduction_vector = V: lane l
// computes elements 32 V j + V l + v of the whole vector steps, then
// l + 32 i of the rest, then the tail for the lanes below its count), each
// output stored; an element loop before a reduction carries the lane's
// partial sum of it. A group the kernel cannot take is an error naming why.
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
// The elementwise op in the sum's lane map (no fp8.reduction_vector: V = 1,
// lane-strided): 3 whole steps, element 32 j + lane, then the tail, element
// 96 + lane for the lanes below 100 - 96 = 4.
// CHECK: %[[C3:.*]] = arith.constant 3 : index
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %[[C3]] step %{{.*}} {
// CHECK: %[[J32:.*]] = arith.muli %[[J]], %{{.*}} : index
// CHECK-NEXT: %[[E:.*]] = arith.addi %[[J32]], %[[LANE]] : index
// CHECK: %[[XV:.*]] = memref.load %[[X]][%{{.*}}, %{{.*}}] : memref<20x100xf32>
// CHECK: %[[WV:.*]] = memref.load %[[W]][%{{.*}}] : memref<100xf32>
// CHECK-NEXT: %[[T:.*]] = arith.mulf %[[XV]], %[[RS]] : f32
// CHECK-NEXT: %[[U:.*]] = arith.mulf %[[T]], %[[WV]] : f32
// CHECK-NEXT: memref.store %[[U]], %[[OUT]][%[[ROW]], %[[E]]] : memref<20x100xf32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT: %[[IN:.*]] = arith.cmpi ult, %[[LANE]], %[[C4]] : index
// CHECK-NEXT: scf.if %[[IN]] {
// CHECK-NEXT: %[[C96:.*]] = arith.constant 96 : index
// CHECK-NEXT: %[[ET:.*]] = arith.addi %[[C96]], %[[LANE]] : index
// CHECK: arith.mulf %{{.*}}, %[[RS]] : f32
// CHECK-NEXT: %[[UT:.*]] = arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT: memref.store %[[UT]], %[[OUT]][%[[ROW]], %[[ET]]] : memref<20x100xf32>
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
// the mask add, the max's partial maxima in the same loop (the elements in
// registers), its butterfly, the init through shfl.sync.idx; exp(z - max)
// per element, stored, the sum's partial sums in the same loop, its
// butterfly and init; the divide.
// Lane-strided (no fp8.reduction_vector: V = 1): every walk maps lane l to
// the same elements, each lane reads back only its own, no warp sync.
// CHECK-LABEL: func.func @softmax
// CHECK: gpu.launch_func @fp8_host_kernels::@softmax_row_max_fused
// CHECK-NOT: gpu.launch_func
// CHECK: return
// CHECK: gpu.func @softmax_row_max_fused(%[[X:.*]]: memref<4x64xf32>, %[[K:.*]]: memref<4x64xf32>, %[[Z:.*]]: memref<4x64xf32>, %[[M:.*]]: memref<4xf32>, %[[E:.*]]: memref<4x64xf32>, %[[S:.*]]: memref<4xf32>, %[[P:.*]]: memref<4x64xf32>) kernel
// The mask add: each lane its elements, stored; the max's partial maxima
// over them in the same loop (not read back), its butterfly, its init.
// CHECK: %[[LANE:.*]] = arith.remui %{{.*}}, %{{.*}} : index
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[MACC:.*]] = %{{.*}}) -> (f32) {
// CHECK: %[[J32:.*]] = arith.muli %[[J]], %{{.*}} : index
// CHECK-NEXT: %[[EL:.*]] = arith.addi %[[J32]], %[[LANE]] : index
// CHECK-NOT: memref.load %[[Z]]
// CHECK: %[[ZV:.*]] = arith.addf
// CHECK-NEXT: %[[MX:.*]] = arith.maximumf %[[MACC]], %[[ZV]] : f32
// CHECK-NEXT: memref.store %[[ZV]], %[[Z]][%{{.*}}, %[[EL]]]
// CHECK-NEXT: scf.yield %[[MX]] : f32
// CHECK-COUNT-5: nvvm.shfl.sync bfly
// CHECK: memref.load %[[M]]
// CHECK: nvvm.shfl.sync idx
// CHECK: memref.store %{{.*}}, %[[M]]
// exp(z - max), stored, the sum's partial sums over the lane's exps in the
// same loop (not read back), its butterfly, its init.
// CHECK: scf.for %{{.*}} iter_args(%[[SACC:.*]] = %{{.*}}) -> (f32) {
// CHECK: memref.load %[[Z]]
// CHECK: arith.subf
// CHECK: %[[EV:.*]] = arith.mulf
// CHECK-NEXT: %[[SV:.*]] = arith.addf %[[SACC]], %[[EV]] : f32
// CHECK-NEXT: memref.store %[[EV]], %[[E]]
// CHECK-NEXT: scf.yield %[[SV]] : f32
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
func.func @softmax(%x: memref<4x64xf32>, %k: memref<4x64xf32>, %m: memref<4xf32>, %s: memref<4xf32>) -> (memref<4x64xf32>, memref<4x64xf32>, memref<4x64xf32>) {
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
  // z and e returned: read after the kernel, so stored (and read back by
  // the later walks; outline-row-group-dead.mlir has the dead ones).
  return %p, %z, %e : memref<4x64xf32>, memref<4x64xf32>, memref<4x64xf32>
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// The vector order (fp8.reduction_vector = 4, rows of 128: one vector
// step): the element loops walk the reductions' lane map, lane l computing
// elements 4 l .. 4 l + 3, the inputs read with one 16-byte vector.load and
// the output written with one vector.store where every base is aligned
// (tested at run time: scalar accesses of the same elements otherwise), the
// partial sum added in the same loop; every lane reads back only what it
// stored itself (z - max reads the mask add's z): no bar.warp.sync.
// CHECK-LABEL: gpu.func @softmax_vector_row_max_fused
// CHECK-SAME: (%[[X:.*]]: memref<4x128xf32>, %[[K:.*]]: memref<4x128xf32>, %[[Z:.*]]: memref<4x128xf32>, %[[M:.*]]: memref<4xf32>, %[[E:.*]]: memref<4x128xf32>, %[[S:.*]]: memref<4xf32>)
// CHECK-NOT: nvvm.bar.warp.sync
// CHECK: %[[LANE:.*]] = arith.remui %{{.*}}, %{{.*}} : index
// The mask add and the max: the three bases' alignment (x, k and z).
// CHECK: memref.extract_aligned_pointer_as_index %[[X]]
// CHECK: memref.extract_aligned_pointer_as_index %[[K]]
// CHECK: memref.extract_aligned_pointer_as_index %[[Z]]
// CHECK: %[[AL:.*]] = arith.andi
// CHECK-NEXT: scf.if %[[AL]] -> (f32) {
// CHECK: scf.for %[[J:.*]] = %{{.*}} iter_args(%[[MACC:.*]] = %{{.*}}) -> (f32) {
// CHECK: %[[J32:.*]] = arith.muli %[[J]], %{{.*}} : index
// CHECK-NEXT: %[[CH:.*]] = arith.addi %[[J32]], %[[LANE]] : index
// CHECK-NEXT: %[[B:.*]] = arith.muli %[[CH]], %{{.*}} : index
// CHECK: %[[XV:.*]] = vector.load %[[X]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<4x128xf32>, vector<4xf32>
// CHECK: %[[KV:.*]] = vector.load %[[K]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<4x128xf32>, vector<4xf32>
// CHECK: %[[Z0:.*]] = arith.addf
// CHECK-NEXT: %[[M0:.*]] = arith.maximumf %[[MACC]], %[[Z0]] : f32
// CHECK: %[[Z1:.*]] = arith.addf
// CHECK-NEXT: %[[M1:.*]] = arith.maximumf %[[M0]], %[[Z1]] : f32
// CHECK: %[[Z2:.*]] = arith.addf
// CHECK-NEXT: %[[M2:.*]] = arith.maximumf %[[M1]], %[[Z2]] : f32
// CHECK: %[[Z3:.*]] = arith.addf
// CHECK-NEXT: %[[M3:.*]] = arith.maximumf %[[M2]], %[[Z3]] : f32
// CHECK-NEXT: %[[ZV:.*]] = vector.from_elements %[[Z0]], %[[Z1]], %[[Z2]], %[[Z3]] : vector<4xf32>
// CHECK-NEXT: vector.store %[[ZV]], %[[Z]][%{{.*}}, %[[B]]] {alignment = 16 : i64} : memref<4x128xf32>, vector<4xf32>
// CHECK-NEXT: scf.yield %[[M3]] : f32
// The misaligned branch: the same elements in the same order, scalar.
// CHECK: } else {
// CHECK-NOT: vector.
// CHECK: arith.maximumf
// CHECK: memref.store %{{.*}}, %[[Z]]
// CHECK: arith.maximumf
// CHECK: arith.maximumf
// CHECK: arith.maximumf
// CHECK: memref.store %{{.*}}, %[[Z]]
// CHECK-COUNT-5: nvvm.shfl.sync bfly
// CHECK: memref.store %{{.*}}, %[[M]]
// exp(z - max) stored and the sum's partial sums: z read back (the lane's
// own elements) with vector loads, e stored with vector stores.
// CHECK: memref.extract_aligned_pointer_as_index %[[Z]]
// CHECK: memref.extract_aligned_pointer_as_index %[[E]]
// CHECK: scf.for %{{.*}} iter_args(%[[SACC:.*]] = %{{.*}}) -> (f32) {
// CHECK: vector.load %[[Z]]
// CHECK: %[[E0:.*]] = arith.subf
// CHECK-NEXT: arith.addf %[[SACC]], %[[E0]] : f32
// CHECK: vector.store %{{.*}}, %[[E]]
// CHECK-COUNT-5: nvvm.shfl.sync bfly
// CHECK: gpu.return
func.func @softmax_vector(%x: memref<4x128xf32>, %k: memref<4x128xf32>, %m: memref<4xf32>, %s: memref<4xf32>) -> (memref<4x128xf32>, memref<4x128xf32>) {
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
  // z returned: stored, read back (outline-row-group-dead.mlir: dead).
  return %e, %z : memref<4x128xf32>, memref<4x128xf32>
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

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// A chained reduction right after the max, no elementwise op between: its
// own partial sums (no element loop to carry them) over the mask add's z,
// which the producers' loop stored in the same lane map (V = 4 both): each
// lane reads back its own elements, no bar.warp.sync.
// CHECK-LABEL: gpu.func @chained_direct_row_max_fused
// CHECK-SAME: (%[[X:.*]]: memref<4x128xf32>, %[[K:.*]]: memref<4x128xf32>, %[[Z:.*]]: memref<4x128xf32>, %[[M:.*]]: memref<4xf32>, %[[S:.*]]: memref<4xf32>)
// CHECK-NOT: nvvm.bar.warp.sync
// CHECK: %[[LANE:.*]] = arith.remui %{{.*}}, %{{.*}} : index
// CHECK: vector.store %{{.*}}, %[[Z]]
// CHECK: memref.store %{{.*}}, %[[M]]
// The sum's partial sums: z read back at 4 (32 j + lane).
// CHECK: memref.extract_aligned_pointer_as_index %[[Z]]
// CHECK: scf.for %[[J:.*]] = %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (f32) {
// CHECK: %[[J32:.*]] = arith.muli %[[J]], %{{.*}} : index
// CHECK-NEXT: %[[CH:.*]] = arith.addi %[[J32]], %[[LANE]] : index
// CHECK-NEXT: %[[B:.*]] = arith.muli %[[CH]], %{{.*}} : index
// CHECK: vector.load %[[Z]][%{{.*}}, %{{.*}}]
// CHECK-COUNT-5: nvvm.shfl.sync bfly
// CHECK: memref.store %{{.*}}, %[[S]]
// CHECK: gpu.return
func.func @chained_direct(%x: memref<4x128xf32>, %k: memref<4x128xf32>, %m: memref<4xf32>, %s: memref<4xf32>) -> memref<4x128xf32> {
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
  linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%z : memref<4x128xf32>) outs(%s : memref<4xf32>) attrs = {fp8.reduction_lanes = 32 : i64, fp8.reduction_vector = 4 : i64, fp8.row_group = 0 : i64} {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }
  // z returned: stored, read back (outline-row-group-dead.mlir: dead).
  return %z : memref<4x128xf32>
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// Reductions of one group in other orders (written by hand: the max with
// V = 4, the chained sum lane-strided, V = 1): z - max walks the sum's
// lane map (its partial sums in the same loop), lane l computing elements
// l + 32 i, and reads z, which the producers' loop stored in the max's
// (lane l: 4 l .. 4 l + 3): a bar.warp.sync before it. The divide after
// the sum walks the sum's map again: no second sync.
// CHECK-LABEL: gpu.func @mixed_orders_row_max_fused
// CHECK-SAME: (%[[X:.*]]: memref<4x128xf32>, %[[K:.*]]: memref<4x128xf32>, %[[Z:.*]]: memref<4x128xf32>, %[[M:.*]]: memref<4xf32>, %[[E:.*]]: memref<4x128xf32>, %[[S:.*]]: memref<4xf32>, %[[P:.*]]: memref<4x128xf32>)
// CHECK-NOT: nvvm.bar.warp.sync
// CHECK: %[[LANE:.*]] = arith.remui %{{.*}}, %{{.*}} : index
// CHECK: vector.store %{{.*}}, %[[Z]]
// CHECK-NOT: nvvm.bar.warp.sync
// CHECK: memref.store %{{.*}}, %[[M]]
// CHECK-NEXT: }
// CHECK-NEXT: %[[FULL:.*]] = arith.constant -1 : i32
// CHECK-NEXT: nvvm.bar.warp.sync %[[FULL]] : i32
// The lane-strided walk: 4 steps of element 32 i + lane, no vector access.
// CHECK-NOT: vector.
// CHECK: %[[C4:.*]] = arith.constant 4 : index
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %[[C4]] step %{{.*}} iter_args(%[[SACC:.*]] = %{{.*}}) -> (f32) {
// CHECK: %[[I32:.*]] = arith.muli %[[I]], %{{.*}} : index
// CHECK-NEXT: %[[EL:.*]] = arith.addi %[[I32]], %[[LANE]] : index
// CHECK: memref.load %[[Z]]
// CHECK: %[[EV:.*]] = arith.subf
// CHECK-NEXT: %[[SV:.*]] = arith.addf %[[SACC]], %[[EV]] : f32
// CHECK-NEXT: memref.store %[[EV]], %[[E]][%{{.*}}, %[[EL]]]
// CHECK-COUNT-5: nvvm.shfl.sync bfly
// CHECK: memref.store %{{.*}}, %[[S]]
// CHECK-NOT: nvvm.bar.warp.sync
// CHECK: arith.divf
// CHECK: memref.store %{{.*}}, %[[P]]
// CHECK: gpu.return
func.func @mixed_orders(%x: memref<4x128xf32>, %k: memref<4x128xf32>, %m: memref<4xf32>, %s: memref<4xf32>) -> (memref<4x128xf32>, memref<4x128xf32>, memref<4x128xf32>) {
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
      ins(%e : memref<4x128xf32>) outs(%s : memref<4xf32>) attrs = {fp8.reduction_lanes = 32 : i64, fp8.row_group = 0 : i64} {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }
  %p = memref.alloc() : memref<4x128xf32>
  linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%e, %s : memref<4x128xf32>, memref<4xf32>) outs(%p : memref<4x128xf32>) attrs = {fp8.row_group = 0 : i64} {
  ^bb0(%a: f32, %t: f32, %o: f32):
    %r = arith.divf %a, %t : f32
    linalg.yield %r : f32
  }
  // z and e returned: stored, read back (outline-row-group-dead.mlir:
  // dead).
  return %p, %z, %e : memref<4x128xf32>, memref<4x128xf32>, memref<4x128xf32>
}
