// RUN: fp8-opt %s -split-input-file -fp8-split-reductions="vector=1" | FileCheck %s
// RUN: fp8-opt %s -split-input-file -fp8-split-reductions="lanes=4 vector=1" | FileCheck %s --check-prefix=LANES4
// RUN: fp8-opt %s -split-input-file -fp8-split-reductions | FileCheck %s --check-prefix=VEC
// RUN: not fp8-opt %s -split-input-file -fp8-split-reductions="lanes=12" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADLANES
// RUN: not fp8-opt %s -split-input-file -fp8-split-reductions="vector=3" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADVECTOR

// BADLANES: fp8-split-reductions: lanes must be a power of two >= 2, got 12
// BADVECTOR: fp8-split-reductions: vector must be a power of two in [1, 16], got 3

// The CHECK and LANES4 prefixes check the lane-strided split (vector=1);
// VEC the default vector of 4: a row's whole steps of 32 x 4 elements as
// [R, steps, 32, 4], lane l = d1 (parallel), then j = d2 and v = d3 (the
// reductions, v innermost) reading element [r, j, l, v] = x[r, (j * 32 + l)
// * 4 + v]; what is left of the row is split lane-strided after it (into
// the same partial sums), then its tail; the tree as before.

// A row sum of squares (RMSNorm), N = 128, 32 lanes: the rows are viewed as
// [R, 4, 32]; the partial op's lane l = d1 (parallel), j = d2 (reduction)
// reads element [r, j, l] = x[r, j * 32 + l], summed in increasing j into
// -0.0; the tree halves 32 -> 16 -> 8 -> 4 -> 2, the low half on the left;
// the last level adds lanes 0 and 1, then the init, on the left as in the
// original body (acc + v).
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
// CHECK-DAG: #[[LANE:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[L0:.*]] = affine_map<(d0) -> (d0, 0)>
// CHECK-DAG: #[[L1:.*]] = affine_map<(d0) -> (d0, 1)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0) -> (d0)>
// VEC-DAG: #[[VROW:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>
// VEC-DAG: #[[VLANE:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
// VEC-LABEL: func.func @sum_of_squares
// VEC: %[[V:.*]] = tensor.expand_shape %{{.*}} {{\[}}[0], [1, 2, 3]] output_shape [8, 1, 32, 4] : tensor<8x128xf32> into tensor<8x1x32x4xf32>
// VEC: %[[P:.*]] = linalg.generic {indexing_maps = [#[[VROW]], #[[VLANE]]], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%[[V]] : tensor<8x1x32x4xf32>) outs(%{{.*}} : tensor<8x32xf32>)
// VEC-NOT: tensor.expand_shape
// VEC: tensor.extract_slice %[[P]][0, 0] [8, 16] [1, 1]
// CHECK-LABEL: func.func @sum_of_squares
// CHECK-SAME: (%[[X:.*]]: tensor<8x128xf32>, %[[INIT:.*]]: tensor<8xf32>)
// CHECK: %[[V:.*]] = tensor.expand_shape %[[X]] {{\[}}[0], [1, 2]] output_shape [8, 4, 32] : tensor<8x128xf32> into tensor<8x4x32xf32>
// CHECK: %[[E:.*]] = tensor.empty() : tensor<8x32xf32>
// CHECK: %[[NZ:.*]] = arith.constant -0.000000e+00 : f32
// CHECK: %[[F:.*]] = linalg.fill ins(%[[NZ]] : f32) outs(%[[E]] : tensor<8x32xf32>)
// CHECK: %[[P:.*]] = linalg.generic {indexing_maps = [#[[ROW]], #[[LANE]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[V]] : tensor<8x4x32xf32>) outs(%[[F]] : tensor<8x32xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[SQ:.*]] = arith.mulf %[[IN]], %[[IN]] : f32
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[ACC]], %[[SQ]] : f32
// CHECK-NEXT: linalg.yield %[[S]]
// CHECK: %[[LO16:.*]] = tensor.extract_slice %[[P]][0, 0] [8, 16] [1, 1] : tensor<8x32xf32> to tensor<8x16xf32>
// CHECK: %[[HI16:.*]] = tensor.extract_slice %[[P]][0, 16] [8, 16] [1, 1] : tensor<8x32xf32> to tensor<8x16xf32>
// CHECK: %[[Q16:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ID]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[LO16]], %[[HI16]] : tensor<8x16xf32>, tensor<8x16xf32>) outs(%{{.*}} : tensor<8x16xf32>)
// CHECK-NEXT: ^bb0(%[[LO:.*]]: f32, %[[HI:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[T:.*]] = arith.addf %[[LO]], %[[HI]] : f32
// CHECK-NEXT: linalg.yield %[[T]]
// CHECK: tensor.extract_slice %[[Q16]][0, 0] [8, 8]
// CHECK: tensor.extract_slice %[[Q16]][0, 8] [8, 8]
// CHECK: %[[Q8:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<8x8xf32>)
// CHECK: tensor.extract_slice %[[Q8]][0, 0] [8, 4]
// CHECK: tensor.extract_slice %[[Q8]][0, 4] [8, 4]
// CHECK: %[[Q4:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<8x4xf32>)
// CHECK: %[[LO2:.*]] = tensor.extract_slice %[[Q4]][0, 0] [8, 2]
// CHECK: %[[HI2:.*]] = tensor.extract_slice %[[Q4]][0, 2] [8, 2]
// CHECK: %[[Q2:.*]] = linalg.generic {{.*}} ins(%[[LO2]], %[[HI2]] : {{.*}}) outs(%{{.*}} : tensor<8x2xf32>)
// CHECK: %[[R:.*]] = linalg.generic {indexing_maps = [#[[L0]], #[[L1]], #[[OUT]]], iterator_types = ["parallel"]} ins(%[[Q2]], %[[Q2]] : tensor<8x2xf32>, tensor<8x2xf32>) outs(%[[INIT]] : tensor<8xf32>)
// CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %[[I:.*]]: f32):
// CHECK-NEXT: %[[AB:.*]] = arith.addf %[[A]], %[[B]] : f32
// CHECK-NEXT: %[[W:.*]] = arith.addf %[[I]], %[[AB]] : f32
// CHECK-NEXT: linalg.yield %[[W]]
// CHECK: return %[[R]]
// LANES4-LABEL: func.func @sum_of_squares
// LANES4: tensor.expand_shape {{.*}} output_shape [8, 32, 4]
// LANES4-COUNT-3: linalg.generic
// LANES4-NOT: linalg.generic
// LANES4: return
func.func @sum_of_squares(%x: tensor<8x128xf32>, %init: tensor<8xf32>) -> tensor<8xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x128xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %sq = arith.mulf %in, %in : f32
    %s = arith.addf %acc, %sq : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// A row of N = 40 = 32 + 8 (a tail of t = 8): the partial sums read the
// first 32 elements ([8, 1, 32]); then lanes l < 8 add element 32 + l last
// (an all-parallel generic over the tail's slice and the first 8 lanes'
// partial sums, inserted back), linalg.index of the reduction now 32 + l;
// then the same tree. With 4 lanes, 40 = 10 x 4: no tail.
// CHECK-LABEL: func.func @tail
// CHECK-SAME: (%[[X:.*]]: tensor<8x40xf32>, %[[INIT:.*]]: tensor<8xf32>)
// CHECK: %[[HEAD:.*]] = tensor.extract_slice %[[X]][0, 0] [8, 32] [1, 1] : tensor<8x40xf32> to tensor<8x32xf32>
// CHECK: %[[ROWS:.*]] = tensor.expand_shape %[[HEAD]] {{\[}}[0], [1, 2]] output_shape [8, 1, 32]
// CHECK: %[[P:.*]] = linalg.generic {{.*}} ins(%[[ROWS]] : tensor<8x1x32xf32>)
// CHECK: %[[TAIL:.*]] = tensor.extract_slice %[[X]][0, 32] [8, 8] [1, 1] : tensor<8x40xf32> to tensor<8x8xf32>
// CHECK: %[[LANES:.*]] = tensor.extract_slice %[[P]][0, 0] [8, 8] [1, 1] : tensor<8x32xf32> to tensor<8x8xf32>
// CHECK: %[[T:.*]] = linalg.generic {{{.*}}iterator_types = ["parallel", "parallel"]} ins(%[[TAIL]] : tensor<8x8xf32>) outs(%[[LANES]] : tensor<8x8xf32>)
// CHECK: ^bb0(%[[IN:.*]]: f32, %[[OUT:.*]]: f32):
// CHECK: %[[L:.*]] = linalg.index 1 : index
// CHECK: %[[C32:.*]] = arith.constant 32 : index
// CHECK: %[[K:.*]] = arith.addi %[[C32]], %[[L]] : index
// CHECK: %[[KI:.*]] = arith.index_cast %[[K]] : index to i32
// CHECK: %[[KF:.*]] = arith.sitofp %[[KI]] : i32 to f32
// CHECK: %[[V:.*]] = arith.mulf %[[IN]], %[[KF]] : f32
// CHECK: %[[S:.*]] = arith.addf %[[OUT]], %[[V]] : f32
// CHECK: linalg.yield %[[S]] : f32
// CHECK: %[[PT:.*]] = tensor.insert_slice %[[T]] into %[[P]][0, 0] [8, 8] [1, 1] : tensor<8x8xf32> into tensor<8x32xf32>
// CHECK: tensor.extract_slice %[[PT]][0, 0] [8, 16]
// CHECK: tensor.extract_slice %[[PT]][0, 16] [8, 16]
// LANES4-LABEL: func.func @tail
// LANES4-NOT: tensor.extract_slice
// LANES4: tensor.expand_shape {{.*}} output_shape [8, 10, 4]
func.func @tail(%x: tensor<8x40xf32>, %init: tensor<8xf32>) -> tensor<8xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x40xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %i = linalg.index 1 : index
    %c = arith.index_cast %i : index to i32
    %f = arith.sitofp %c : i32 to f32
    %p = arith.mulf %in, %f : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// The accumulator on the right (v + acc): the init is added on the right.
// A weight broadcast along the rows (RMSNorm's backward) is expanded too.
// CHECK-LABEL: func.func @acc_right_broadcast_weight
// CHECK: %[[W:.*]] = tensor.expand_shape %{{.*}} {{\[}}[0, 1]] output_shape [2, 32] : tensor<64xf32> into tensor<2x32xf32>
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}], iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{.*}}, %[[W]] : tensor<4x2x32xf32>, tensor<2x32xf32>)
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel"]} {{.*}} outs(%[[INIT:.*]] : tensor<4xf32>)
// CHECK-NEXT: ^bb0(%{{.*}}: f32, %{{.*}}: f32, %[[I:.*]]: f32):
// CHECK-NEXT: %[[AB:.*]] = arith.addf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT: %[[R:.*]] = arith.addf %[[AB]], %[[I]] : f32
// CHECK-NEXT: linalg.yield %[[R]]
func.func @acc_right_broadcast_weight(%x: tensor<4x64xf32>, %w: tensor<64xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x, %w : tensor<4x64xf32>, tensor<64xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%in: f32, %win: f32, %acc: f32):
    %p = arith.mulf %in, %win : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// The loss: no parallel iterator, the init a tensor<1xf32> at (0); a
// linalg.index of the reduction (a one-hot pick) becomes j * lanes + l.
// CHECK-DAG: #[[XMAP:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-DAG: #[[PMAP:.*]] = affine_map<(d0, d1) -> (0, d0)>
// CHECK-LABEL: func.func @loss_with_index
// CHECK: linalg.generic {indexing_maps = [#[[XMAP]], #[[PMAP]]], iterator_types = ["parallel", "reduction"]} ins(%{{.*}} : tensor<4x32xf32>) outs(%{{.*}} : tensor<1x32xf32>)
// CHECK: %[[L:.*]] = linalg.index 0 : index
// CHECK-NEXT: %[[J:.*]] = linalg.index 1 : index
// CHECK-NEXT: %[[C:.*]] = arith.constant 32 : index
// CHECK-NEXT: %[[JS:.*]] = arith.muli %[[J]], %[[C]] : index
// CHECK-NEXT: %[[K:.*]] = arith.addi %[[JS]], %[[L]] : index
// CHECK-NEXT: arith.cmpi eq, %[[K]], %{{.*}} : index
func.func @loss_with_index(%x: tensor<128xf32>, %t: index, %init: tensor<1xf32>) -> tensor<1xf32> {
  %zero = arith.constant 0.0 : f32
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (0)>],
                       iterator_types = ["reduction"]}
      ins(%x : tensor<128xf32>) outs(%init : tensor<1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %k = linalg.index 0 : index
    %eq = arith.cmpi eq, %k, %t : index
    %v = arith.select %eq, %in, %zero : f32
    %s = arith.addf %acc, %v : f32
    linalg.yield %s : f32
  } -> tensor<1xf32>
  return %r : tensor<1xf32>
}

// -----

// A named reduction is generalized and split; a dynamic row count is kept
// (the partial sums' and the tree's tensors take it from the init).
// CHECK-LABEL: func.func @named_reduce_dynamic_rows
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0], [1, 2]] output_shape [%{{.*}}, 2, 32] : tensor<?x64xf32> into tensor<?x2x32xf32>
// CHECK: tensor.empty(%{{.*}}) : tensor<?x32xf32>
// CHECK-NOT: linalg.reduce
// CHECK: return
func.func @named_reduce_dynamic_rows(%x: tensor<?x64xf32>, %init: tensor<?xf32>) -> tensor<?xf32> {
  %r = linalg.reduce ins(%x : tensor<?x64xf32>) outs(%init : tensor<?xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<?xf32>
}

// -----

// Left alone: a max (not a sum), a row shorter than the lanes, a
// dynamic row length, a column of 8 (shorter than the lanes), a matmul (no input holds whole rows), two
// reduction iterators, an accumulator used twice, a product.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: tensor.expand_shape
// CHECK-COUNT-8: linalg.generic
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @left_alone(%x: tensor<8x128xf32>, %y: tensor<8x3xf32>, %z: tensor<8x?xf32>,
                      %m: tensor<8x64xf32>, %n: tensor<16x64xf32>, %c: tensor<8x16xf32>,
                      %init: tensor<8xf32>, %col: tensor<128xf32>, %s0: tensor<f32>)
    -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<128xf32>, tensor<8x16xf32>, tensor<f32>, tensor<8xf32>, tensor<8xf32>) {
  %max = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                         iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x128xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.maximumf %acc, %in : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %odd = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                         iterator_types = ["parallel", "reduction"]}
      ins(%y : tensor<8x3xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.addf %acc, %in : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %dyn = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                         iterator_types = ["parallel", "reduction"]}
      ins(%z : tensor<8x?xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.addf %acc, %in : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %colsum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>],
                            iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x128xf32>) outs(%col : tensor<128xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.addf %acc, %in : f32
    linalg.yield %r : f32
  } -> tensor<128xf32>
  %mm = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>],
                        iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%m, %n : tensor<8x64xf32>, tensor<16x64xf32>) outs(%c : tensor<8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  } -> tensor<8x16xf32>
  %all = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>],
                         iterator_types = ["reduction", "reduction"]}
      ins(%x : tensor<8x128xf32>) outs(%s0 : tensor<f32>) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.addf %acc, %in : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  %twice = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                           iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x128xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %p = arith.mulf %acc, %in : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %prod = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                          iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x128xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.mulf %acc, %in : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %max, %odd, %dyn, %colsum, %mm, %all, %twice, %prod
      : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<128xf32>, tensor<8x16xf32>, tensor<f32>, tensor<8xf32>, tensor<8xf32>
}

// -----

// A column sum (RMSNorm's weight gradient: the reduction over the tokens
// is the inputs' outer dimension) of 70 = 2 x 32 + 6: split as a row sum
// is, along that dimension: the first 64 elements of each column expanded
// to [2, 32, 16], lane l adding elements l and l + 32 of its column (the
// lane outermost in the partial op: consecutive columns innermost), then
// lanes 0..5 the tail's elements 64 + l, the tree over the lanes and the
// init.
// CHECK-DAG: #[[PART:.*]] = affine_map<(d0, d1, d2) -> (d2, d0, d1)>
// CHECK-DAG: #[[POUT:.*]] = affine_map<(d0, d1, d2) -> (d1, d0)>
// CHECK-LABEL: func.func @column_sum
// CHECK: %[[S:.*]] = tensor.extract_slice %{{.*}}[0, 0] [64, 16] [1, 1] : tensor<70x16xf32> to tensor<64x16xf32>
// CHECK: tensor.expand_shape %[[S]] {{\[\[}}0, 1], [2]] output_shape [2, 32, 16]
// CHECK: linalg.generic {indexing_maps = [#[[PART]], #[[PART]], #[[POUT]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-SAME: outs(%{{.*}} : tensor<16x32xf32>)
// CHECK: tensor.extract_slice %{{.*}}[64, 0] [6, 16] [1, 1] : tensor<70x16xf32> to tensor<6x16xf32>
// CHECK: tensor.insert_slice %{{.*}}[0, 0] [16, 6] [1, 1] : tensor<16x6xf32> into tensor<16x32xf32>
// CHECK-COUNT-5: arith.addf
// CHECK: return
func.func @column_sum(%x: tensor<70x16xf32>, %y: tensor<70x16xf32>, %init: tensor<16xf32>) -> tensor<16xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x, %y : tensor<70x16xf32>, tensor<70x16xf32>) outs(%init : tensor<16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  return %r : tensor<16xf32>
}

// -----

// N = 161 with the default vector of 4: one vector step (elements 0..127),
// one lane-strided step (128 + l) into the same partial sums, then lane 0's
// tail element 160. linalg.index 1 is the element's index in each piece:
// (j * 32 + l) * 4 + v, 128 + j * 32 + l, 160 + l.
// VEC-LABEL: func.func @vector_rest
// VEC: %[[S0:.*]] = tensor.extract_slice %[[X:.*]][0, 0] [8, 128] [1, 1] : tensor<8x161xf32> to tensor<8x128xf32>
// VEC: %[[E0:.*]] = tensor.expand_shape %[[S0]] {{\[}}[0], [1, 2, 3]] output_shape [8, 1, 32, 4]
// VEC: %[[F:.*]] = linalg.fill
// VEC: %[[P0:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%[[E0]] : tensor<8x1x32x4xf32>) outs(%[[F]] : tensor<8x32xf32>)
// VEC: %[[L:.*]] = linalg.index 1 : index
// VEC: %[[J:.*]] = linalg.index 2 : index
// VEC: %[[J32:.*]] = arith.muli %[[J]], %{{.*}} : index
// VEC: %[[JL:.*]] = arith.addi %[[J32]], %[[L]] : index
// VEC: %[[C4:.*]] = arith.constant 4 : index
// VEC: %[[B:.*]] = arith.muli %[[JL]], %[[C4]] : index
// VEC: %[[V:.*]] = linalg.index 3 : index
// VEC: %[[K:.*]] = arith.addi %[[B]], %[[V]] : index
// VEC: arith.index_cast %[[K]] : index to i32
// VEC: %[[S1:.*]] = tensor.extract_slice %[[X]][0, 128] [8, 32] [1, 1] : tensor<8x161xf32> to tensor<8x32xf32>
// VEC: %[[E1:.*]] = tensor.expand_shape %[[S1]] {{\[}}[0], [1, 2]] output_shape [8, 1, 32]
// VEC: %[[P1:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[E1]] : tensor<8x1x32xf32>) outs(%[[P0]] : tensor<8x32xf32>)
// VEC: %[[C128:.*]] = arith.constant 128 : index
// VEC: %[[K1:.*]] = arith.addi %[[C128]], %{{.*}} : index
// VEC: arith.index_cast %[[K1]] : index to i32
// VEC: %[[T:.*]] = tensor.extract_slice %[[X]][0, 160] [8, 1] [1, 1] : tensor<8x161xf32> to tensor<8x1xf32>
// VEC: %[[LANES:.*]] = tensor.extract_slice %[[P1]][0, 0] [8, 1] [1, 1]
// VEC: linalg.generic {{.*}} ins(%[[T]] : tensor<8x1xf32>) outs(%[[LANES]] : tensor<8x1xf32>)
// VEC: arith.constant 160 : index
// VEC: tensor.insert_slice %{{.*}} into %[[P1]][0, 0] [8, 1] [1, 1]
// VEC: return
func.func @vector_rest(%x: tensor<8x161xf32>, %init: tensor<8xf32>) -> tensor<8xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x161xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %i = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %m = arith.mulf %in, %f : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}
