// fp8-outline-host-kernels: the cross-entropy's row group as
// fp8-split-reductions leaves it once the gradient and its bf16 conversion
// have moved into it (docs/gpu-kernel.md, "Hoisted consumers"): the max,
// exp(z - max) (a square here: the pass takes no math.exp, which
// fp8-expand-math expands first), the sum, the gradient (softmax - one-hot)
// / T reading the i64 targets at its row and its column's index, the
// conversion to bf16. The exps and the f32 gradient are freed after the
// group: dead, neither stored nor allocated. One launch taking the logits,
// the row max and sum (read after it), the targets and the bf16 gradient;
// walk 3 recomputes each exp from the logit and the max in registers,
// compares the element's column with the row's target and stores the bf16
// gradient only.
// RUN: fp8-opt %s --fp8-outline-host-kernels | FileCheck %s

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// CHECK-LABEL: func.func @xent_grad
// CHECK-SAME: (%[[HZ:.*]]: memref<4x64xf32>, %[[HT:.*]]: memref<4xi64>)
// CHECK: %[[HM:.*]] = memref.alloc() : memref<4xf32>
// CHECK: %[[HS:.*]] = memref.alloc() : memref<4xf32>
// CHECK: %[[HB:.*]] = memref.alloc() : memref<4x64xbf16>
// CHECK-NOT: memref.alloc
// CHECK-NOT: linalg.fill
// CHECK: gpu.launch_func @fp8_host_kernels::@xent_grad_row_max_fused {{.*}} args(%[[HZ]] : memref<4x64xf32>, %[[HM]] : memref<4xf32>, %[[HS]] : memref<4xf32>, %[[HT]] : memref<4xi64>, %[[HB]] : memref<4x64xbf16>)
// CHECK-NOT: memref.dealloc
// CHECK: return %[[HB]], %[[HM]], %[[HS]]
// CHECK: gpu.func @xent_grad_row_max_fused(%[[Z:.*]]: memref<4x64xf32>, %[[M:.*]]: memref<4xf32>, %[[S:.*]]: memref<4xf32>, %[[T:.*]]: memref<4xi64>, %[[B:.*]]: memref<4x64xbf16>) kernel
// CHECK-COUNT-5: nvvm.shfl.sync bfly
// CHECK: memref.store %[[MAX:.*]], %[[M]]
// CHECK-COUNT-5: nvvm.shfl.sync bfly
// CHECK: memref.store %[[SUM:.*]], %[[S]]
// CHECK-NOT: memref.store
// CHECK: scf.for
// CHECK: %[[COL:.*]] = arith.addi
// CHECK: %[[ZV:.*]] = memref.load %[[Z]]
// CHECK-NEXT: %[[D:.*]] = arith.subf %[[ZV]], %[[MAX]] : f32
// CHECK-NEXT: %[[E:.*]] = arith.mulf %[[D]], %[[D]] : f32
// CHECK: %[[ID:.*]] = memref.load %[[T]]
// CHECK-NEXT: %[[IDX:.*]] = arith.index_cast %[[ID]] : i64 to index
// CHECK-NEXT: %[[HIT:.*]] = arith.cmpi eq, %[[COL]], %[[IDX]] : index
// CHECK-NEXT: %[[P:.*]] = arith.divf %[[E]], %[[SUM]] : f32
// CHECK: %[[Q:.*]] = arith.subf %[[P]]
// CHECK-NEXT: %[[Y:.*]] = arith.select %[[HIT]], %[[Q]], %[[P]] : f32
// CHECK-NEXT: %[[W:.*]] = arith.mulf %[[Y]], %{{.*}} : f32
// CHECK-NEXT: %[[BV:.*]] = arith.truncf %[[W]] : f32 to bf16
// CHECK-NEXT: memref.store %[[BV]], %[[B]]
// CHECK-NOT: memref.store
// CHECK: gpu.return

func.func @xent_grad(%z: memref<4x64xf32>, %t: memref<4xi64>) -> (memref<4x64xbf16>, memref<4xf32>, memref<4xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %inv = arith.constant 0.25 : f32
  %m = memref.alloc() : memref<4xf32>
  %s = memref.alloc() : memref<4xf32>
  linalg.fill ins(%ninf : f32) outs(%m : memref<4xf32>)
  linalg.fill ins(%zero : f32) outs(%s : memref<4xf32>)
  linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%z : memref<4x64xf32>) outs(%m : memref<4xf32>) attrs = {fp8.reduction_lanes = 32 : i64, fp8.reduction_vector = 4 : i64, fp8.row_group = 0 : i64} {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %acc, %a : f32
    linalg.yield %r : f32
  }
  %e = memref.alloc() : memref<4x64xf32>
  linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%z, %m : memref<4x64xf32>, memref<4xf32>) outs(%e : memref<4x64xf32>) attrs = {fp8.row_group = 0 : i64} {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %r = arith.mulf %d, %d : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%e : memref<4x64xf32>) outs(%s : memref<4xf32>) attrs = {fp8.reduction_lanes = 32 : i64, fp8.reduction_vector = 4 : i64, fp8.row_group = 0 : i64} {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }
  %g = memref.alloc() : memref<4x64xf32>
  linalg.generic {indexing_maps = [#id2, #row, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%e, %s, %t : memref<4x64xf32>, memref<4xf32>, memref<4xi64>) outs(%g : memref<4x64xf32>) attrs = {fp8.row_group = 0 : i64} {
  ^bb0(%a: f32, %b: f32, %id: i64, %o: f32):
    %c = linalg.index 1 : index
    %ti = arith.index_cast %id : i64 to index
    %hit = arith.cmpi eq, %c, %ti : index
    %p = arith.divf %a, %b : f32
    %one = arith.constant 1.0 : f32
    %q = arith.subf %p, %one : f32
    %y = arith.select %hit, %q, %p : f32
    %w = arith.mulf %y, %inv : f32
    linalg.yield %w : f32
  }
  %bf = memref.alloc() : memref<4x64xbf16>
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%g : memref<4x64xf32>) outs(%bf : memref<4x64xbf16>) attrs = {fp8.row_group = 0 : i64} {
  ^bb0(%a: f32, %o: bf16):
    %y = arith.truncf %a : f32 to bf16
    linalg.yield %y : bf16
  }
  memref.dealloc %e : memref<4x64xf32>
  memref.dealloc %g : memref<4x64xf32>
  return %bf, %m, %s : memref<4x64xbf16>, memref<4xf32>, memref<4xf32>
}
