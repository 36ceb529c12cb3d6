// RUN: fp8-opt %s --split-input-file --fp8-fuse-elementwise | FileCheck %s

// SwiGLU's tail: silu(g) = g * (1 / (1 + exp(-g))) (exp stood in by negf),
// times u, rounded to bf16: three element-wise ops, one chain, one op. The
// body keeps every op in order (the negation, the add, the division, the
// two products, the rounding).

#id = affine_map<(i, j) -> (i, j)>
// CHECK-LABEL: func.func @chain
// CHECK:         %[[R:.*]] = linalg.generic
// CHECK-SAME:      ins(%arg0, %arg1 : tensor<4x64xf32>, tensor<4x64xf32>)
// CHECK:           arith.negf
// CHECK-NEXT:      arith.addf
// CHECK-NEXT:      arith.divf
// CHECK-NEXT:      arith.mulf
// CHECK-NEXT:      arith.mulf
// CHECK-NEXT:      arith.truncf {{.*}} : f32 to bf16
// CHECK-NEXT:      linalg.yield
// CHECK-NOT:     linalg.generic
// CHECK:         return %[[R]]
func.func @chain(%g: tensor<4x64xf32>, %u: tensor<4x64xf32>) -> tensor<4x64xbf16> {
  %e = tensor.empty() : tensor<4x64xf32>
  %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%g : tensor<4x64xf32>) outs(%e : tensor<4x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %n = arith.negf %x : f32
    %d = arith.addf %one, %n : f32
    %r = arith.divf %x, %d : f32
    linalg.yield %r : f32
  } -> tensor<4x64xf32>
  %p = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%s, %u : tensor<4x64xf32>, tensor<4x64xf32>) outs(%e : tensor<4x64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %m2 = arith.mulf %m, %b : f32
    linalg.yield %m2 : f32
  } -> tensor<4x64xf32>
  %eb = tensor.empty() : tensor<4x64xbf16>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%p : tensor<4x64xf32>) outs(%eb : tensor<4x64xbf16>) {
  ^bb0(%a: f32, %o: bf16):
    %r = arith.truncf %a : f32 to bf16
    linalg.yield %r : bf16
  } -> tensor<4x64xbf16>
  return %t : tensor<4x64xbf16>
}

// -----

// A producer with a later second user (here the return) is computed once,
// in the fused op, which yields it as a second result for that user.

#id = affine_map<(i, j) -> (i, j)>
// CHECK-LABEL: func.func @two_uses
// CHECK:         %[[F:.*]]:2 = linalg.generic
// CHECK-SAME:      ins(%arg0 : tensor<4x64xf32>)
// CHECK:           %[[N:.*]] = arith.negf
// CHECK-NEXT:      %[[A:.*]] = arith.addf %[[N]], %[[N]]
// CHECK-NEXT:      linalg.yield %[[N]], %[[A]]
// CHECK-NOT:     linalg.generic
// CHECK:         return %[[F]]#0, %[[F]]#1
func.func @two_uses(%x: tensor<4x64xf32>) -> (tensor<4x64xf32>, tensor<4x64xf32>) {
  %e = tensor.empty() : tensor<4x64xf32>
  %n = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x64xf32>) outs(%e : tensor<4x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.negf %a : f32
    linalg.yield %r : f32
  } -> tensor<4x64xf32>
  %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%n : tensor<4x64xf32>) outs(%e : tensor<4x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %a : f32
    linalg.yield %r : f32
  } -> tensor<4x64xf32>
  return %n, %s : tensor<4x64xf32>, tensor<4x64xf32>
}

// -----

// The negation's first user (a call) comes before the add: the add reads
// nothing defined after the negation, so it moves up to it and the two
// fuse; the call then reads the fused op's first result. The product reads
// the call's result, defined after the square: it cannot move up, and the
// square (needed by the call before it) stays its own op.

#id = affine_map<(i, j) -> (i, j)>
// CHECK-LABEL: func.func @earlier_user
// CHECK:         %[[F:.*]]:2 = linalg.generic
// CHECK:           arith.negf
// CHECK-NEXT:      arith.addf
// CHECK:         %[[C:.*]] = call @use(%[[F]]#0)
// CHECK:         %[[Q:.*]] = linalg.generic
// CHECK:           arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK:         call @use(%[[Q]])
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%[[Q]], %{{.*}} :
// CHECK:           arith.mulf
func.func private @use(tensor<4x64xf32>) -> tensor<4x64xf32>
func.func @earlier_user(%x: tensor<4x64xf32>) -> (tensor<4x64xf32>, tensor<4x64xf32>, tensor<4x64xf32>) {
  %e = tensor.empty() : tensor<4x64xf32>
  %n = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x64xf32>) outs(%e : tensor<4x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.negf %a : f32
    linalg.yield %r : f32
  } -> tensor<4x64xf32>
  %c = call @use(%n) : (tensor<4x64xf32>) -> tensor<4x64xf32>
  %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%n : tensor<4x64xf32>) outs(%e : tensor<4x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %a : f32
    linalg.yield %r : f32
  } -> tensor<4x64xf32>
  %q = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x64xf32>) outs(%e : tensor<4x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.mulf %a, %a : f32
    linalg.yield %r : f32
  } -> tensor<4x64xf32>
  %d = call @use(%q) : (tensor<4x64xf32>) -> tensor<4x64xf32>
  %p = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%q, %d : tensor<4x64xf32>, tensor<4x64xf32>) outs(%e : tensor<4x64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<4x64xf32>
  return %c, %s, %p : tensor<4x64xf32>, tensor<4x64xf32>, tensor<4x64xf32>
}

// -----

// A transpose feeding an element-wise op (attention's head reshapes) is
// generalized and fused: the consumer reads the source through the
// permuted map, and the transposed copy is never written.

#id = affine_map<(i, j, k) -> (i, j, k)>
// CHECK-DAG:   #[[PERM:.*]] = affine_map<(d0, d1, d2) -> (d1, d0, d2)>
// CHECK-DAG:   #[[ID:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @transpose
// CHECK:         linalg.generic {indexing_maps = [#[[PERM]], #[[ID]]]
// CHECK-SAME:      ins(%arg0 : tensor<8x2x16xf32>)
// CHECK:           arith.truncf
// CHECK-NOT:     linalg.transpose
func.func @transpose(%x: tensor<8x2x16xf32>) -> tensor<2x8x16xbf16> {
  %e = tensor.empty() : tensor<2x8x16xf32>
  %t = linalg.transpose ins(%x : tensor<8x2x16xf32>) outs(%e : tensor<2x8x16xf32>) permutation = [1, 0, 2]
  %eb = tensor.empty() : tensor<2x8x16xbf16>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%t : tensor<2x8x16xf32>) outs(%eb : tensor<2x8x16xbf16>) {
  ^bb0(%a: f32, %o: bf16):
    %v = arith.truncf %a : f32 to bf16
    linalg.yield %v : bf16
  } -> tensor<2x8x16xbf16>
  return %r : tensor<2x8x16xbf16>
}

// -----

// RMSNorm's scaling: the per-row factor rsqrt(mean + eps) is read along the
// row (a broadcast): fusing would recompute it for each of the row's 64
// elements, so the two ops stay.

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
// CHECK-LABEL: func.func @broadcast
// CHECK:         %[[F:.*]] = linalg.generic
// CHECK:           math.rsqrt
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%arg0, %[[F]] : tensor<4x64xf32>, tensor<4xf32>)
func.func @broadcast(%x: tensor<4x64xf32>, %ss: tensor<4xf32>) -> tensor<4x64xf32> {
  %e1 = tensor.empty() : tensor<4xf32>
  %f = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%ss : tensor<4xf32>) outs(%e1 : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.rsqrt %a : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %e = tensor.empty() : tensor<4x64xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %f : tensor<4x64xf32>, tensor<4xf32>) outs(%e : tensor<4x64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<4x64xf32>
  return %y : tensor<4x64xf32>
}

// -----

// A reduction is no element-wise consumer (its order, marked or not, stays
// its own op), and an op marked for a lowering (here the row kernel's
// fp8.reduction_lanes) is left as it is: the square stays apart from the row
// sum, the negation from the marked op it feeds. The graph's annotations
// (fp8.role, ...) are no such mark: the fused op keeps the consumer's.

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
// CHECK-LABEL: func.func @decisions
// CHECK:         linalg.generic
// CHECK:           arith.mulf
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "reduction"]
// CHECK:         linalg.generic
// CHECK:           arith.negf
// CHECK:         linalg.generic
// CHECK-SAME:      attrs = {fp8.reduction_lanes = 32 : i64}
// CHECK:           arith.addf
func.func @decisions(%x: tensor<4x64xf32>, %acc: tensor<4xf32>) -> (tensor<4xf32>, tensor<4x64xf32>) {
  %e = tensor.empty() : tensor<4x64xf32>
  %sq = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x64xf32>) outs(%e : tensor<4x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.mulf %a, %a : f32
    linalg.yield %r : f32
  } -> tensor<4x64xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%sq : tensor<4x64xf32>) outs(%acc : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %o, %a : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %n = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x64xf32>) outs(%e : tensor<4x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.negf %a : f32
    linalg.yield %r : f32
  } -> tensor<4x64xf32>
  %d = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%n : tensor<4x64xf32>) outs(%e : tensor<4x64xf32>)
      attrs = {fp8.reduction_lanes = 32 : i64} {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %a : f32
    linalg.yield %r : f32
  } -> tensor<4x64xf32>
  return %s, %d : tensor<4xf32>, tensor<4x64xf32>
}

// -----

#id = affine_map<(i, j) -> (i, j)>
// CHECK-LABEL: func.func @annotations
// CHECK:         linalg.generic
// CHECK-SAME:      attrs = {fp8.precision = #fp8.precision<f32>, fp8.role = #fp8.role<normalization>}
// CHECK:           arith.negf
// CHECK-NEXT:      arith.mulf
// CHECK-NOT:     linalg.generic
func.func @annotations(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %e = tensor.empty() : tensor<4x64xf32>
  %n = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x64xf32>) outs(%e : tensor<4x64xf32>)
      attrs = {fp8.role = #fp8.role<attention>} {
  ^bb0(%a: f32, %o: f32):
    %r = arith.negf %a : f32
    linalg.yield %r : f32
  } -> tensor<4x64xf32>
  %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%n : tensor<4x64xf32>) outs(%e : tensor<4x64xf32>)
      attrs = {fp8.precision = #fp8.precision<f32>, fp8.role = #fp8.role<normalization>} {
  ^bb0(%a: f32, %o: f32):
    %r = arith.mulf %a, %a : f32
    linalg.yield %r : f32
  } -> tensor<4x64xf32>
  return %s : tensor<4x64xf32>
}

// -----

// RoPE's rotation (fp8-fold-rotate-half): the consumer reads the product
// at the other half's index, (d + 4) mod 8, each element once: fused, the
// product's operand read through the rotated map.

#id = affine_map<(i, j) -> (i, j)>
#rot = affine_map<(i, j) -> (i, (j + 4) mod 8)>
// CHECK-LABEL: func.func @rotated_read
// CHECK:         linalg.generic {indexing_maps = [#[[ROT:.*]], #[[ROT]], #{{.*}}]
// CHECK-SAME:      ins(%arg0, %arg1 : tensor<3x8xf32>, tensor<3x8xf32>)
// CHECK:           arith.mulf
// CHECK-NEXT:      arith.negf
// CHECK-NOT:     linalg.generic
func.func @rotated_read(%x: tensor<3x8xf32>, %s: tensor<3x8xf32>) -> tensor<3x8xf32> {
  %e = tensor.empty() : tensor<3x8xf32>
  %u = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<3x8xf32>, tensor<3x8xf32>) outs(%e : tensor<3x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<3x8xf32>
  %r = linalg.generic {indexing_maps = [#rot, #id], iterator_types = ["parallel", "parallel"]}
      ins(%u : tensor<3x8xf32>) outs(%e : tensor<3x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  } -> tensor<3x8xf32>
  return %r : tensor<3x8xf32>
}

// -----

// Not each element once: (d + 2) mod 4 over a dimension of 8 reads the
// first 4 elements twice (the product would be computed twice each): not
// fused.

#id = affine_map<(i, j) -> (i, j)>
#wrap = affine_map<(i, j) -> (i, (j + 2) mod 4)>
// CHECK-LABEL: func.func @wrapped_read
// CHECK-COUNT-2: linalg.generic
func.func @wrapped_read(%x: tensor<3x4xf32>, %s: tensor<3x4xf32>) -> tensor<3x8xf32> {
  %e = tensor.empty() : tensor<3x4xf32>
  %u = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<3x4xf32>, tensor<3x4xf32>) outs(%e : tensor<3x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<3x4xf32>
  %e8 = tensor.empty() : tensor<3x8xf32>
  %r = linalg.generic {indexing_maps = [#wrap, #id], iterator_types = ["parallel", "parallel"]}
      ins(%u : tensor<3x4xf32>) outs(%e8 : tensor<3x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  } -> tensor<3x8xf32>
  return %r : tensor<3x8xf32>
}
// -----

// Q's permutation before RoPE, [B, S, H, D] -> [B * H, S, D] (B = 2, S = 3,
// H = 2, D = 8): the transpose and its collapse, read by RoPE's rotation,
// become a read of x through the delinearized index, fused with RoPE: one
// op that reads x twice (the element and the other half's) in its source
// layout.

#id = affine_map<(i, s, d) -> (i, s, d)>
#rot = affine_map<(i, s, d) -> (i, s, (d + 4) mod 8)>
#tab = affine_map<(i, s, d) -> (s, d)>
// CHECK-DAG: #[[X:.*]] = affine_map<(d0, d1, d2) -> (d0 floordiv 2, d1, d0 mod 2, d2)>
// CHECK-DAG: #[[XR:.*]] = affine_map<(d0, d1, d2) -> (d0 floordiv 2, d1, d0 mod 2, (d2 + 4) mod 8)>
// CHECK-LABEL: func.func @rope_forward
// CHECK-NOT:     linalg.transpose
// CHECK-NOT:     tensor.collapse_shape
// CHECK:         linalg.generic {indexing_maps = [#[[X]], #{{.*}}, #[[XR]], #{{.*}}, #{{.*}}]
// CHECK-SAME:      ins(%arg0, %arg1, %arg0, %arg2 :
// CHECK-NOT:     linalg.generic
func.func @rope_forward(%x: tensor<2x3x2x8xf32>, %cos: tensor<3x8xf32>, %sin: tensor<3x8xf32>) -> tensor<4x3x8xf32> {
  %e4 = tensor.empty() : tensor<2x2x3x8xf32>
  %t = linalg.transpose ins(%x : tensor<2x3x2x8xf32>) outs(%e4 : tensor<2x2x3x8xf32>) permutation = [0, 2, 1, 3]
  %c = tensor.collapse_shape %t [[0, 1], [2], [3]] : tensor<2x2x3x8xf32> into tensor<4x3x8xf32>
  %e = tensor.empty() : tensor<4x3x8xf32>
  %r = linalg.generic {indexing_maps = [#rot, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%c : tensor<4x3x8xf32>) outs(%e : tensor<4x3x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %i = linalg.index 2 : index
    %h = arith.constant 4 : index
    %lo = arith.cmpi ult, %i, %h : index
    %n = arith.negf %a : f32
    %v = arith.select %lo, %n, %a : f32
    linalg.yield %v : f32
  } -> tensor<4x3x8xf32>
  %y = linalg.generic {indexing_maps = [#id, #tab, #id, #tab, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%c, %cos, %r, %sin : tensor<4x3x8xf32>, tensor<3x8xf32>, tensor<4x3x8xf32>, tensor<3x8xf32>) outs(%e : tensor<4x3x8xf32>) {
  ^bb0(%a: f32, %b: f32, %p: f32, %q: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %n = arith.mulf %p, %q : f32
    %s = arith.addf %m, %n : f32
    linalg.yield %s : f32
  } -> tensor<4x3x8xf32>
  return %y : tensor<4x3x8xf32>
}

// -----

// The same permutation read by an op without a rotation (V's, read by
// its conversion): not RoPE's, left to the transpose kernels.

#id = affine_map<(i, s, d) -> (i, s, d)>
// CHECK-LABEL: func.func @permutation_without_rope
// CHECK:         linalg.transpose
// CHECK:         tensor.collapse_shape
func.func @permutation_without_rope(%x: tensor<2x3x2x8xf32>) -> tensor<4x3x8xbf16> {
  %e4 = tensor.empty() : tensor<2x2x3x8xf32>
  %t = linalg.transpose ins(%x : tensor<2x3x2x8xf32>) outs(%e4 : tensor<2x2x3x8xf32>) permutation = [0, 2, 1, 3]
  %c = tensor.collapse_shape %t [[0, 1], [2], [3]] : tensor<2x2x3x8xf32> into tensor<4x3x8xf32>
  %e = tensor.empty() : tensor<4x3x8xbf16>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%c : tensor<4x3x8xf32>) outs(%e : tensor<4x3x8xbf16>) {
  ^bb0(%a: f32, %o: bf16):
    %t16 = arith.truncf %a : f32 to bf16
    linalg.yield %t16 : bf16
  } -> tensor<4x3x8xbf16>
  return %y : tensor<4x3x8xbf16>
}

// -----

// dQ's permutation after RoPE's backward, [B * H, S, D] -> [B, S, H, D]:
// the expand and the transpose become a read of RoPE's result through the
// linearized index (b * 2 + h), fused with it: one op over [B, S, H, D]
// that reads the gradient (and its other half) at [b * 2 + h, s, d].

#id = affine_map<(i, s, d) -> (i, s, d)>
#rot = affine_map<(i, s, d) -> (i, s, (d + 4) mod 8)>
// CHECK-DAG: #[[G:.*]] = affine_map<(d0, d1, d2, d3) -> (d0 * 2 + d2, d1, d3)>
// CHECK-DAG: #[[GR:.*]] = affine_map<(d0, d1, d2, d3) -> (d0 * 2 + d2, d1, (d3 + 4) mod 8)>
// CHECK-LABEL: func.func @rope_backward
// CHECK-NOT:     linalg.transpose
// CHECK-NOT:     tensor.expand_shape
// CHECK:         linalg.generic {indexing_maps = [#[[G]], #[[GR]], #{{.*}}]
// CHECK-SAME:      ins(%arg0, %arg0 :
// CHECK-SAME:      outs(%{{.*}} : tensor<2x3x2x8xf32>)
// CHECK-NOT:     linalg.generic
func.func @rope_backward(%g: tensor<4x3x8xf32>) -> tensor<2x3x2x8xf32> {
  %e = tensor.empty() : tensor<4x3x8xf32>
  %r = linalg.generic {indexing_maps = [#rot, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%g : tensor<4x3x8xf32>) outs(%e : tensor<4x3x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %i = linalg.index 2 : index
    %h = arith.constant 4 : index
    %lo = arith.cmpi ult, %i, %h : index
    %n = arith.negf %a : f32
    %v = arith.select %lo, %a, %n : f32
    linalg.yield %v : f32
  } -> tensor<4x3x8xf32>
  %y = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%g, %r : tensor<4x3x8xf32>, tensor<4x3x8xf32>) outs(%e : tensor<4x3x8xf32>) {
  ^bb0(%a: f32, %p: f32, %o: f32):
    %s = arith.addf %a, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x3x8xf32>
  %x = tensor.expand_shape %y [[0, 1], [2], [3]] output_shape [2, 2, 3, 8] : tensor<4x3x8xf32> into tensor<2x2x3x8xf32>
  %e4 = tensor.empty() : tensor<2x3x2x8xf32>
  %t = linalg.transpose ins(%x : tensor<2x2x3x8xf32>) outs(%e4 : tensor<2x3x2x8xf32>) permutation = [0, 2, 1, 3]
  return %t : tensor<2x3x2x8xf32>
}

// -----

// The same permutation of an element-wise result that is not RoPE's (no
// rotation read, directly or by its producer): left to the transpose
// kernels.

#id = affine_map<(i, s, d) -> (i, s, d)>
// CHECK-LABEL: func.func @permutation_after_other_op
// CHECK:         tensor.expand_shape
// CHECK:         linalg.transpose
func.func @permutation_after_other_op(%g: tensor<4x3x8xf32>) -> tensor<2x3x2x8xf32> {
  %e = tensor.empty() : tensor<4x3x8xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%g : tensor<4x3x8xf32>) outs(%e : tensor<4x3x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  } -> tensor<4x3x8xf32>
  %x = tensor.expand_shape %y [[0, 1], [2], [3]] output_shape [2, 2, 3, 8] : tensor<4x3x8xf32> into tensor<2x2x3x8xf32>
  %e4 = tensor.empty() : tensor<2x3x2x8xf32>
  %t = linalg.transpose ins(%x : tensor<2x2x3x8xf32>) outs(%e4 : tensor<2x3x2x8xf32>) permutation = [0, 2, 1, 3]
  return %t : tensor<2x3x2x8xf32>
}

// -----

// Not each element once: (i * 2 + j) over j of 4 reads element 2 at
// (0, 2) and (1, 0): a linearization whose terms overlap is not fused.

#id = affine_map<(i, j) -> (i, j)>
#lin = affine_map<(i, j) -> (i * 2 + j)>
// CHECK-LABEL: func.func @overlapping_read
// CHECK-COUNT-2: linalg.generic
func.func @overlapping_read(%x: tensor<8xf32>) -> tensor<2x4xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %u = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %a : f32
    linalg.yield %m : f32
  } -> tensor<8xf32>
  %e2 = tensor.empty() : tensor<2x4xf32>
  %r = linalg.generic {indexing_maps = [#lin, #id], iterator_types = ["parallel", "parallel"]}
      ins(%u : tensor<8xf32>) outs(%e2 : tensor<2x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  } -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}

// -----

// Each element once: (i * 4 + j) over j of 4 is [2, 4]'s linearization (a
// collapsed head view): fused.

#id = affine_map<(i, j) -> (i, j)>
#lin = affine_map<(i, j) -> (i * 4 + j)>
// CHECK-LABEL: func.func @linearized_read
// CHECK:         linalg.generic {indexing_maps = [#[[LIN:.*]], #{{.*}}]
// CHECK-SAME:      ins(%arg0 : tensor<8xf32>)
// CHECK:           arith.mulf
// CHECK-NEXT:      arith.negf
// CHECK-NOT:     linalg.generic
func.func @linearized_read(%x: tensor<8xf32>) -> tensor<2x4xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %u = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %a : f32
    linalg.yield %m : f32
  } -> tensor<8xf32>
  %e2 = tensor.empty() : tensor<2x4xf32>
  %r = linalg.generic {indexing_maps = [#lin, #id], iterator_types = ["parallel", "parallel"]}
      ins(%u : tensor<8xf32>) outs(%e2 : tensor<2x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  } -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}
