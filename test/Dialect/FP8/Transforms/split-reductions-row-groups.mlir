// RUN: fp8-opt %s -split-input-file -verify-diagnostics -fp8-split-reductions="row-kernels=true" | FileCheck %s

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

// Softmax: the max with exp(z - max), the sum with the divide; the sum
// ends the first group (a reduction), the fill before it too.
// CHECK-LABEL: func.func @softmax
// CHECK: attrs =  {fp8.reduction_lanes = 32 : i64, fp8.reduction_vector = 4 : i64, fp8.row_group = 0 : i64}
// CHECK: arith.maximumf
// CHECK: attrs =  {fp8.row_group = 0 : i64}
// CHECK: attrs =  {fp8.reduction_lanes = 32 : i64, fp8.reduction_vector = 4 : i64, fp8.row_group = 1 : i64}
// CHECK: attrs =  {fp8.row_group = 1 : i64}
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

// An op between the sum and its consumer that will write memory (a fill
// of another tensor): the launch must not move across it.
// CHECK-LABEL: func.func @fill_between
// CHECK-NOT: fp8.row_group
// CHECK: return
func.func @fill_between(%x: tensor<4x64xf32>) -> (tensor<4x64xf32>, tensor<8xf32>) {
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

// A tensor.extract between (a load once bufferized) ends the group too; a
// scalar op and a tensor.empty do not.
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
    linalg.yield %t : f32
  } -> tensor<4x64xf32>
  return %n, %v : tensor<4x64xf32>, f32
}
