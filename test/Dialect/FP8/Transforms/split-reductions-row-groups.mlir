// RUN: fp8-opt %s -split-input-file -verify-diagnostics -fp8-split-reductions="row-kernels=true" | FileCheck %s
// The remarks print their location and message, never the op (each
// printed op cost a walk of its whole function: quadratic in a model's
// layers).
// RUN: fp8-opt %s -split-input-file -fp8-split-reductions="row-kernels=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not="see current operation"
// REMARK: remark: not fused into the row kernel of its operand

// With row-kernels, a marked row sum and the elementwise ops after it that
// consume its per-row result form a group (`fp8.row_group`, the same id on
// each): per-row ops over the sum's rows (RMSNorm's rsqrt(sum / N + eps))
// and elementwise ops over its elements reading the per-row values
// broadcast along the row (x * rstd * w); fp8-outline-host-kernels
// computes the group in the row kernel's launch. A consumer that cannot
// join says why (a remark).

#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>

// CHECK-LABEL: func.func @rmsnorm
// CHECK: iterator_types = ["parallel", "reduction"]} {{.*}} attrs =  {fp8.reduction_lanes = 32 : i64, fp8.reduction_vector = 4 : i64, fp8.row_group = 0 : i64}
// CHECK: iterator_types = ["parallel"]} {{.*}} attrs =  {fp8.row_group = 0 : i64}
// CHECK: iterator_types = ["parallel", "parallel"]} {{.*}} attrs =  {fp8.row_group = 0 : i64}
func.func @rmsnorm(%x: tensor<4x64xf32>, %w: tensor<64xf32>) -> (tensor<4x64xf32>, tensor<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x64xf32>) outs(%s0 : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %q = arith.mulf %a, %a : f32
    %r = arith.addf %acc, %q : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %e1 = tensor.empty() : tensor<4xf32>
  %rstd = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%s : tensor<4xf32>) outs(%e1 : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %eps = arith.constant 1.0e-6 : f32
    %p = arith.addf %a, %eps : f32
    %r = math.rsqrt %p : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %e2 = tensor.empty() : tensor<4x64xf32>
  %n = linalg.generic {indexing_maps = [#id2, #row, #col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %rstd, %w : tensor<4x64xf32>, tensor<4xf32>, tensor<64xf32>) outs(%e2 : tensor<4x64xf32>) {
  ^bb0(%a: f32, %r: f32, %g: f32, %o: f32):
    %t = arith.mulf %a, %r : f32
    %u = arith.mulf %t, %g : f32
    linalg.yield %u : f32
  } -> tensor<4x64xf32>
  return %n, %rstd : tensor<4x64xf32>, tensor<4xf32>
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// Softmax: the max with exp(z - max), then the sum of those exps (a
// chained reduction: same rows, same N, reading each element at its own
// index) with the divide, all one group; the sum's init fill moves before
// the max (the one launch spans the sum).
// CHECK-LABEL: func.func @softmax
// CHECK: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: linalg.fill ins(%[[NINF]] : f32) outs
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0.0
// CHECK-NEXT: linalg.fill ins(%[[ZERO]] : f32) outs
// CHECK-NEXT: linalg.generic {{.*}} attrs =  {fp8.reduction_lanes = 32 : i64, fp8.reduction_vector = 4 : i64, fp8.row_group = 0 : i64}
// CHECK: arith.maximumf
// CHECK: attrs =  {fp8.row_group = 0 : i64}
// CHECK: math.exp
// CHECK: attrs =  {fp8.reduction_lanes = 32 : i64, fp8.reduction_vector = 4 : i64, fp8.row_group = 0 : i64}
// CHECK: attrs =  {fp8.row_group = 0 : i64}
// CHECK: arith.divf
// CHECK-NOT: fp8.row_group = 1
func.func @softmax(%z: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<4xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %mx = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%z : tensor<4x64xf32>) outs(%m0 : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %e1 = tensor.empty() : tensor<4x64xf32>
  %ex = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%z, %mx : tensor<4x64xf32>, tensor<4xf32>) outs(%e1 : tensor<4x64xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<4x64xf32>
  %zero = arith.constant 0.0 : f32
  %s0 = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %sm = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<4x64xf32>) outs(%s0 : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %p = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %sm : tensor<4x64xf32>, tensor<4xf32>) outs(%e1 : tensor<4x64xf32>) {
  ^bb0(%a: f32, %t: f32, %o: f32):
    %r = arith.divf %a, %t : f32
    linalg.yield %r : f32
  } -> tensor<4x64xf32>
  return %p : tensor<4x64xf32>
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>

// The row's result read along the other dimension (a square [32, 32]):
// another row's value for each element; not fused, and without a member
// the sum has no group.
// CHECK-LABEL: func.func @other_row
// CHECK-NOT: fp8.row_group
// CHECK: return
func.func @other_row(%x: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e : tensor<32xf32>) -> tensor<32xf32>
  %s = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<32x32xf32>) outs(%s0 : tensor<32xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<32xf32>
  %e1 = tensor.empty() : tensor<32x32xf32>
  // expected-remark @+1 {{not fused into the row kernel of its operand (fp8-split-reductions): it reads the row's result other than at its own row}}
  %n = linalg.generic {indexing_maps = [#id2, #col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<32x32xf32>, tensor<32xf32>) outs(%e1 : tensor<32x32xf32>) {
  ^bb0(%a: f32, %r: f32, %o: f32):
    %t = arith.mulf %a, %r : f32
    linalg.yield %t : f32
  } -> tensor<32x32xf32>
  return %n : tensor<32x32xf32>
}

// -----

#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#rev = affine_map<(d0) -> (3 - d0)>
#flip = affine_map<(d0, d1) -> (d0, 63 - d1)>

// A per-row op reading another tensor at another row, and an elementwise
// op reading another lane's element of the group: the group keeps what
// comes before them.
// CHECK-LABEL: func.func @other_elements
// CHECK: fp8.reduction_lanes = 32 : i64, fp8.reduction_vector = 4 : i64, fp8.row_group = 0 : i64
// CHECK: iterator_types = ["parallel", "parallel"]} {{.*}} attrs =  {fp8.row_group = 0 : i64}
// CHECK-NOT: fp8.row_group
// CHECK: return
func.func @other_elements(%x: tensor<4x64xf32>, %y: tensor<4xf32>) -> (tensor<4x64xf32>, tensor<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x64xf32>) outs(%s0 : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %e1 = tensor.empty() : tensor<4x64xf32>
  %n = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<4x64xf32>, tensor<4xf32>) outs(%e1 : tensor<4x64xf32>) {
  ^bb0(%a: f32, %r: f32, %o: f32):
    %t = arith.mulf %a, %r : f32
    linalg.yield %t : f32
  } -> tensor<4x64xf32>
  // expected-remark @+1 {{not fused into the row kernel of its operand (fp8-split-reductions): it reads an element of the group other than its own (the lanes share only the per-row values)}}
  %f = linalg.generic {indexing_maps = [#flip, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%n : tensor<4x64xf32>) outs(%e1 : tensor<4x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = arith.negf %a : f32
    linalg.yield %t : f32
  } -> tensor<4x64xf32>
  %e2 = tensor.empty() : tensor<4xf32>
  // expected-remark @+1 {{not fused into the row kernel of its operand (fp8-split-reductions): it reads a tensor other than at its own row}}
  %g = linalg.generic {indexing_maps = [#id1, #rev, #id1], iterator_types = ["parallel"]}
      ins(%s, %y : tensor<4xf32>, tensor<4xf32>) outs(%e2 : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %t = arith.addf %a, %b : f32
    linalg.yield %t : f32
  } -> tensor<4xf32>
  return %f, %g : tensor<4x64xf32>, tensor<4xf32>
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>

// An op between the sum and its consumer that will write memory (a fill
// of another tensor) and whose result the consumer reads: the launch must
// not move across it, nor can the consumer move before it (hoisted
// consumers: below).
// CHECK-LABEL: func.func @fill_between
// CHECK-NOT: fp8.row_group
// CHECK: return
func.func @fill_between(%x: tensor<4x64xf32>) -> (tensor<4x64xf32>, tensor<64xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x64xf32>) outs(%s0 : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %e8 = tensor.empty() : tensor<64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e8 : tensor<64xf32>) -> tensor<64xf32>
  %e1 = tensor.empty() : tensor<4x64xf32>
  // expected-remark @+1 {{not fused into the row kernel of its operand (fp8-split-reductions): the group ends at an op before it that will touch memory ('linalg.fill': the one launch must not move across it)}}
  %n = linalg.generic {indexing_maps = [#id2, #row, #col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s, %f : tensor<4x64xf32>, tensor<4xf32>, tensor<64xf32>) outs(%e1 : tensor<4x64xf32>) {
  ^bb0(%a: f32, %r: f32, %c: f32, %o: f32):
    %t = arith.mulf %a, %r : f32
    %u = arith.addf %t, %c : f32
    linalg.yield %u : f32
  } -> tensor<4x64xf32>
  return %n, %f : tensor<4x64xf32>, tensor<64xf32>
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// A tensor.extract between (a load once bufferized) ends the group too
// (the consumer uses its value: it cannot move before it); a scalar op and
// a tensor.empty do not.
// CHECK-LABEL: func.func @extract_between
// CHECK-NOT: fp8.row_group
// CHECK: return
func.func @extract_between(%x: tensor<4x64xf32>, %y: tensor<8xf32>) -> (tensor<4x64xf32>, f32) {
  %zero = arith.constant 0.0 : f32
  %c1 = arith.constant 1 : index
  %e = tensor.empty() : tensor<4xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x64xf32>) outs(%s0 : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %c2 = arith.addi %c1, %c1 : index
  %v = tensor.extract %y[%c2] : tensor<8xf32>
  %e1 = tensor.empty() : tensor<4x64xf32>
  // expected-remark @+1 {{not fused into the row kernel of its operand (fp8-split-reductions): the group ends at an op before it that will touch memory ('tensor.extract': the one launch must not move across it)}}
  %n = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<4x64xf32>, tensor<4xf32>) outs(%e1 : tensor<4x64xf32>) {
  ^bb0(%a: f32, %r: f32, %o: f32):
    %t = arith.mulf %a, %r : f32
    %u = arith.addf %t, %v : f32
    linalg.yield %u : f32
  } -> tensor<4x64xf32>
  return %n, %v : tensor<4x64xf32>, f32
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// Masked softmax: the mask add is a producer of the max (read at its own
// element; z - max reads it too): it joins the group before the max, the
// max's init fill moving before it.
// CHECK-LABEL: func.func @masked_softmax
// CHECK: linalg.fill
// CHECK: linalg.fill
// CHECK-NEXT: linalg.generic {{.*}} attrs =  {fp8.row_group = 0 : i64}
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.addf
// CHECK: attrs =  {fp8.reduction_lanes = 32 : i64, fp8.reduction_vector = 4 : i64, fp8.row_group = 0 : i64}
// CHECK: attrs =  {fp8.row_group = 0 : i64}
// CHECK: attrs =  {fp8.reduction_lanes = 32 : i64, fp8.reduction_vector = 4 : i64, fp8.row_group = 0 : i64}
// CHECK: attrs =  {fp8.row_group = 0 : i64}
// CHECK-NOT: fp8.row_group = 1
func.func @masked_softmax(%x: tensor<4x64xf32>, %mask: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %ez = tensor.empty() : tensor<4x64xf32>
  %z = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mask : tensor<4x64xf32>, tensor<4x64xf32>) outs(%ez : tensor<4x64xf32>) {
  ^bb0(%a: f32, %k: f32, %o: f32):
    %r = arith.addf %a, %k : f32
    linalg.yield %r : f32
  } -> tensor<4x64xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<4xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %mx = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%z : tensor<4x64xf32>) outs(%m0 : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %e1 = tensor.empty() : tensor<4x64xf32>
  %ex = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%z, %mx : tensor<4x64xf32>, tensor<4xf32>) outs(%e1 : tensor<4x64xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<4x64xf32>
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<4xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
  %sm = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<4x64xf32>) outs(%s0 : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %e3 = tensor.empty() : tensor<4x64xf32>
  %p = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %sm : tensor<4x64xf32>, tensor<4xf32>) outs(%e3 : tensor<4x64xf32>) {
  ^bb0(%a: f32, %t: f32, %o: f32):
    %r = arith.divf %a, %t : f32
    linalg.yield %r : f32
  } -> tensor<4x64xf32>
  return %p : tensor<4x64xf32>
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#r3 = affine_map<(d0, d1, d2) -> (d0, d2)>
#o3 = affine_map<(d0, d1, d2) -> (d0, d1)>

// A row reduction reading the group's elements over other rows (the exps
// broadcast over a new dimension: [4, 2] rows of 64): its own kernel, the
// fill of its init stays where it is (the group ends there).
// CHECK-LABEL: func.func @other_rows
// CHECK: attrs =  {fp8.reduction_lanes = 32 : i64, fp8.reduction_vector = 4 : i64, fp8.row_group = 0 : i64}
// CHECK: attrs =  {fp8.row_group = 0 : i64}
// CHECK: linalg.fill
// CHECK: attrs =  {fp8.reduction_lanes = 32 : i64, fp8.reduction_vector = 4 : i64}
func.func @other_rows(%z: tensor<4x64xf32>, %y: tensor<4x2x64xf32>) -> tensor<4x2xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<4xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %mx = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%z : tensor<4x64xf32>) outs(%m0 : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %e1 = tensor.empty() : tensor<4x64xf32>
  %ex = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%z, %mx : tensor<4x64xf32>, tensor<4xf32>) outs(%e1 : tensor<4x64xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<4x64xf32>
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<4x2xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x2xf32>) -> tensor<4x2xf32>
  // expected-remark @+1 {{not chained into the row kernel of its operand (fp8-split-reductions): its loop ranges differ from the group's reduction (another row count or row length)}}
  %sm = linalg.generic {indexing_maps = [#r3, #id3, #o3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%ex, %y : tensor<4x64xf32>, tensor<4x2x64xf32>) outs(%s0 : tensor<4x2xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x2xf32>
  return %sm : tensor<4x2xf32>
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#id1 = affine_map<(d0) -> (d0)>

// LayerNorm's variance: sum((x - mean)^2) reads the per-row mean, which
// lane 0 alone stores: not chained (its own row kernel and group).
// CHECK-LABEL: func.func @variance
// CHECK: attrs =  {fp8.reduction_lanes = 32 : i64, fp8.reduction_vector = 4 : i64, fp8.row_group = 0 : i64}
// CHECK: attrs =  {fp8.row_group = 0 : i64}
// CHECK: attrs =  {fp8.reduction_lanes = 32 : i64, fp8.reduction_vector = 4 : i64}
func.func @variance(%x: tensor<4x64xf32>) -> tensor<4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x64xf32>) outs(%s0 : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %e1 = tensor.empty() : tensor<4xf32>
  %mean = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%s : tensor<4xf32>) outs(%e1 : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %inv = arith.constant 1.562500e-02 : f32
    %r = arith.mulf %a, %inv : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %e2 = tensor.empty() : tensor<4xf32>
  %v0 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
  // expected-remark @+1 {{not chained into the row kernel of its operand (fp8-split-reductions): it reads a per-row value of the group (lane 0 alone stored it)}}
  %v = linalg.generic {indexing_maps = [#id2, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %mean : tensor<4x64xf32>, tensor<4xf32>) outs(%v0 : tensor<4xf32>) {
  ^bb0(%a: f32, %m: f32, %acc: f32):
    %d = arith.subf %a, %m : f32
    %q = arith.mulf %d, %d : f32
    %r = arith.addf %acc, %q : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %v : tensor<4xf32>
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// A producer of the sum with a write between it and the sum (a fill of
// another tensor): not fused (the sum alone is a row kernel, no group).
// CHECK-LABEL: func.func @producer_write_between
// CHECK-NOT: fp8.row_group
// CHECK: return
func.func @producer_write_between(%x: tensor<4x64xf32>, %k: tensor<4x64xf32>) -> (tensor<4xf32>, tensor<8xf32>) {
  %ez = tensor.empty() : tensor<4x64xf32>
  // expected-remark @+1 {{not fused into the row kernel of its consumer (fp8-split-reductions): an op between it and the reduction will touch memory ('linalg.fill')}}
  %z = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %k : tensor<4x64xf32>, tensor<4x64xf32>) outs(%ez : tensor<4x64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<4x64xf32>
  %zero = arith.constant 0.0 : f32
  %e8 = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e8 : tensor<8xf32>) -> tensor<8xf32>
  %e = tensor.empty() : tensor<4xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%z : tensor<4x64xf32>) outs(%s0 : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %s, %f : tensor<4xf32>, tensor<8xf32>
}

// -----

#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// Consumers after the group's end whose operands are all defined before
// it ends move to just after its last op and join it (on tensors the move
// changes no value): the cross-entropy's gradient softmax - one-hot,
// written after the target pick (a gather) and the loss's sum, which
// ended the group, and its conversion to bf16 after it; their
// tensor.empty inits move with them. The log-sum-exp's row kernel then
// computes the gradient (the exps are no longer stored for it).
// CHECK-LABEL: func.func @xent_grad_hoisted
// CHECK: %[[MAX:.*]] = linalg.generic {{.*}}fp8.row_group = 0 : i64
// CHECK: %[[EXP:.*]] = linalg.generic {{.*}}fp8.row_group = 0 : i64
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}}fp8.row_group = 0 : i64
// CHECK: %[[GE:.*]] = tensor.empty() : tensor<4x64xf32>
// CHECK-NEXT: %[[G:.*]] = linalg.generic {{.*}} ins(%[[EXP]], %[[SUM]], %{{.*}} : tensor<4x64xf32>, tensor<4xf32>, tensor<4xi64>) outs(%[[GE]] : tensor<4x64xf32>) attrs = {fp8.row_group = 0 : i64}
// CHECK: linalg.index 1
// CHECK: %[[BE:.*]] = tensor.empty() : tensor<4x64xbf16>
// CHECK-NEXT: %[[B:.*]] = linalg.generic {{.*}} ins(%[[G]] : tensor<4x64xf32>) outs(%[[BE]] : tensor<4x64xbf16>) attrs = {fp8.row_group = 0 : i64}
// CHECK: tensor.extract
// CHECK: return %[[B]]
func.func @xent_grad_hoisted(%z: tensor<4x64xf32>, %t: tensor<4xi64>) -> (tensor<4x64xbf16>, tensor<1xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %mx = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%z : tensor<4x64xf32>) outs(%m0 : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %y = arith.maximumf %acc, %a : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  %e1 = tensor.empty() : tensor<4x64xf32>
  %ex = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%z, %mx : tensor<4x64xf32>, tensor<4xf32>) outs(%e1 : tensor<4x64xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<4x64xf32>
  %e2 = tensor.empty() : tensor<4xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
  %sm = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<4x64xf32>) outs(%s0 : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %y = arith.addf %acc, %a : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  // The target pick: a gather of the logits (a load once bufferized).
  %e3 = tensor.empty() : tensor<4xf32>
  %pick = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%t : tensor<4xi64>) outs(%e3 : tensor<4xf32>) {
  ^bb0(%id: i64, %o: f32):
    %r = linalg.index 0 : index
    %c = arith.index_cast %id : i64 to index
    %v = tensor.extract %z[%r, %c] : tensor<4x64xf32>
    linalg.yield %v : f32
  } -> tensor<4xf32>
  // The loss over the rows (too short a row for a row kernel).
  %e4 = tensor.empty() : tensor<1xf32>
  %l0 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<1xf32>) -> tensor<1xf32>
  // expected-remark @+1 {{not fused into the row kernel of its operand}}
  %loss = linalg.generic {indexing_maps = [#id1, #id1, #id1, affine_map<(d0) -> (0)>], iterator_types = ["reduction"]}
      ins(%mx, %sm, %pick : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) outs(%l0 : tensor<1xf32>) {
  ^bb0(%m: f32, %s: f32, %p: f32, %acc: f32):
    %lg = math.log %s : f32
    %lse = arith.addf %m, %lg : f32
    %d = arith.subf %lse, %p : f32
    %r = arith.addf %acc, %d : f32
    linalg.yield %r : f32
  } -> tensor<1xf32>
  %e5 = tensor.empty() : tensor<4x64xf32>
  %g = linalg.generic {indexing_maps = [#id2, #row, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %sm, %t : tensor<4x64xf32>, tensor<4xf32>, tensor<4xi64>) outs(%e5 : tensor<4x64xf32>) {
  ^bb0(%a: f32, %s: f32, %id: i64, %o: f32):
    %c = linalg.index 1 : index
    %ti = arith.index_cast %id : i64 to index
    %hit = arith.cmpi eq, %c, %ti : index
    %p = arith.divf %a, %s : f32
    %one = arith.constant 1.0 : f32
    %q = arith.subf %p, %one : f32
    %y = arith.select %hit, %q, %p : f32
    linalg.yield %y : f32
  } -> tensor<4x64xf32>
  %e6 = tensor.empty() : tensor<4x64xbf16>
  %b = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%g : tensor<4x64xf32>) outs(%e6 : tensor<4x64xbf16>) {
  ^bb0(%a: f32, %o: bf16):
    %y = arith.truncf %a : f32 to bf16
    linalg.yield %y : bf16
  } -> tensor<4x64xbf16>
  return %b, %loss : tensor<4x64xbf16>, tensor<1xf32>
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// An elementwise consumer after the group's end that reads none of the
// group's elements (only the per-row sum, broadcast) is not moved into
// it: in the group its output would be stored for its readers, where
// fp8-fuse-elementwise may compute it inside theirs.
// CHECK-LABEL: func.func @broadcast_stays
// CHECK-NOT: fp8.row_group
// CHECK: return
func.func @broadcast_stays(%x: tensor<4x64xf32>) -> (tensor<4x64xf32>, tensor<8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x64xf32>) outs(%s0 : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %e8 = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e8 : tensor<8xf32>) -> tensor<8xf32>
  %e1 = tensor.empty() : tensor<4x64xf32>
  // expected-remark @+1 {{not fused into the row kernel of its operand (fp8-split-reductions): the group ends at an op before it that will touch memory ('linalg.fill': the one launch must not move across it)}}
  %n = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<4x64xf32>, tensor<4xf32>) outs(%e1 : tensor<4x64xf32>) {
  ^bb0(%a: f32, %r: f32, %o: f32):
    %t = arith.mulf %a, %r : f32
    linalg.yield %t : f32
  } -> tensor<4x64xf32>
  return %n, %f : tensor<4x64xf32>, tensor<8xf32>
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>

// A consumer after the group's end that reads an element of the group
// (x * s) and the fill that ended the group: it cannot move before the
// fill (it would use the fill's result before its definition), so it stays
// with its remark; the group is the sum and x * s.
// CHECK-LABEL: func.func @operand_after_end
// CHECK: linalg.generic {{.*}}fp8.row_group = 0 : i64
// CHECK: linalg.generic {{.*}}fp8.row_group = 0 : i64
// CHECK: linalg.fill
// CHECK-NOT: fp8.row_group
// CHECK: return
func.func @operand_after_end(%x: tensor<4x64xf32>) -> (tensor<4x64xf32>, tensor<64xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x64xf32>) outs(%s0 : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %e1 = tensor.empty() : tensor<4x64xf32>
  %n = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<4x64xf32>, tensor<4xf32>) outs(%e1 : tensor<4x64xf32>) {
  ^bb0(%a: f32, %r: f32, %o: f32):
    %t = arith.mulf %a, %r : f32
    linalg.yield %t : f32
  } -> tensor<4x64xf32>
  %e8 = tensor.empty() : tensor<64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e8 : tensor<64xf32>) -> tensor<64xf32>
  %e2 = tensor.empty() : tensor<4x64xf32>
  // expected-remark @+1 {{not fused into the row kernel of its operand (fp8-split-reductions): the group ends at an op before it that will touch memory ('linalg.fill': the one launch must not move across it)}}
  %m = linalg.generic {indexing_maps = [#id2, #col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%n, %f : tensor<4x64xf32>, tensor<64xf32>) outs(%e2 : tensor<4x64xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %t = arith.addf %a, %c : f32
    linalg.yield %t : f32
  } -> tensor<4x64xf32>
  return %m, %f : tensor<4x64xf32>, tensor<64xf32>
}
