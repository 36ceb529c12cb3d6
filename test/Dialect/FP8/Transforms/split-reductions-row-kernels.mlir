// RUN: fp8-opt %s -split-input-file -fp8-split-reductions="row-kernels=true" | FileCheck %s
// RUN: fp8-opt %s -split-input-file -fp8-split-reductions="row-kernels=true lanes=16" | FileCheck %s --check-prefix=LANES16

// With row-kernels, a sum the GPU row kernel takes stays one linalg.generic
// marked fp8.reduction_lanes (fp8-outline-host-kernels lowers it to one
// warp-per-row kernel); a named reduction is generalized first; a row max
// (maximumf: no order changes its result) is marked too, and never split. Lanes other
// than a warp's 32 are split as without the option.
// CHECK-LABEL: func.func @marked
// CHECK-NOT: tensor.expand_shape
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}], iterator_types = ["parallel", "reduction"]} ins(%{{.*}} : tensor<8x128xbf16>) outs(%{{.*}} : tensor<8xf32>) attrs =  {fp8.reduction_lanes = 32 : i64, fp8.reduction_vector = 4 : i64}
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}], iterator_types = ["parallel", "reduction"]} ins(%{{.*}} : tensor<4x64xf32>) outs(%{{.*}} : tensor<4xf32>) attrs =  {fp8.reduction_lanes = 32 : i64, fp8.reduction_vector = 4 : i64}
// CHECK-NOT: linalg.reduce
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction"]} {{.*}} attrs =  {fp8.reduction_lanes = 32 : i64, fp8.reduction_vector = 4 : i64}
// CHECK: linalg.index 0
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} {{.*}} attrs =  {fp8.reduction_lanes = 32 : i64, fp8.reduction_vector = 4 : i64}
// CHECK: arith.maximumf
// CHECK-NOT: tensor.expand_shape
// CHECK: return
// LANES16-LABEL: func.func @marked
// LANES16-NOT: fp8.reduction_lanes
// LANES16-COUNT-3: tensor.expand_shape
// LANES16-NOT: fp8.reduction_lanes
// LANES16-NOT: tensor.expand_shape
// LANES16: arith.maximumf
// LANES16-NOT: fp8.reduction_lanes
func.func @marked(%x: tensor<8x128xbf16>, %init: tensor<8xf32>, %y: tensor<4x64xf32>, %i4: tensor<4xf32>,
                  %l: tensor<128xf32>, %t: index, %i1: tensor<1xf32>) -> (tensor<8xf32>, tensor<4xf32>, tensor<1xf32>, tensor<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x128xbf16>) outs(%init : tensor<8xf32>) {
  ^bb0(%in: bf16, %acc: f32):
    %f = arith.extf %in : bf16 to f32
    %e = math.exp %f : f32
    %s = arith.addf %acc, %e : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %n = linalg.reduce ins(%y : tensor<4x64xf32>) outs(%i4 : tensor<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %loss = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (0)>],
                          iterator_types = ["reduction"]}
      ins(%l : tensor<128xf32>) outs(%i1 : tensor<1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %k = linalg.index 0 : index
    %eq = arith.cmpi eq, %k, %t : index
    %v = arith.select %eq, %in, %zero : f32
    %s = arith.addf %acc, %v : f32
    linalg.yield %s : f32
  } -> tensor<1xf32>
  %max = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                         iterator_types = ["parallel", "reduction"]}
      ins(%y : tensor<4x64xf32>) outs(%i4 : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maximumf %acc, %in : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  return %r, %n, %loss, %max : tensor<8xf32>, tensor<4xf32>, tensor<1xf32>, tensor<4xf32>
}

// -----

// Split as without the option (the row kernel would not take them): a
// dynamic row count, fast-math flags, an f16 sum, an f64 input, a body
// with a tensor.extract (a gather), a sum inside a loop.
// CHECK-LABEL: func.func @split
// CHECK-NOT: fp8.reduction_lanes
// CHECK-COUNT-6: tensor.expand_shape
// CHECK-NOT: fp8.reduction_lanes
// CHECK: return
func.func @split(%d: tensor<?x64xf32>, %di: tensor<?xf32>, %x: tensor<4x64xf32>, %i4: tensor<4xf32>,
                 %h: tensor<4x64xf16>, %hi: tensor<4xf16>, %w: tensor<4x64xf64>, %table: tensor<16xf32>,
                 %n: index) -> (tensor<?xf32>, tensor<4xf32>, tensor<4xf16>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %dyn = linalg.reduce ins(%d : tensor<?x64xf32>) outs(%di : tensor<?xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %acc, %in : f32
      linalg.yield %s : f32
    }
  %fm = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                        iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x64xf32>) outs(%i4 : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %acc, %in fastmath<reassoc> : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %half = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                          iterator_types = ["parallel", "reduction"]}
      ins(%h : tensor<4x64xf16>) outs(%hi : tensor<4xf16>) {
  ^bb0(%in: f16, %acc: f16):
    %s = arith.addf %acc, %in : f16
    linalg.yield %s : f16
  } -> tensor<4xf16>
  %wide = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                          iterator_types = ["parallel", "reduction"]}
      ins(%w : tensor<4x64xf64>) outs(%i4 : tensor<4xf32>) {
  ^bb0(%in: f64, %acc: f32):
    %t = arith.truncf %in : f64 to f32
    %s = arith.addf %acc, %t : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %gather = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                            iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x64xf32>) outs(%i4 : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %k = linalg.index 0 : index
    %g = tensor.extract %table[%k] : tensor<16xf32>
    %p = arith.mulf %in, %g : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %loop = scf.for %i = %c0 to %n step %c1 iter_args(%a = %i4) -> tensor<4xf32> {
    %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                         iterator_types = ["parallel", "reduction"]}
        ins(%x : tensor<4x64xf32>) outs(%a : tensor<4xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %r = arith.addf %acc, %in : f32
      linalg.yield %r : f32
    } -> tensor<4xf32>
    scf.yield %s : tensor<4xf32>
  }
  return %dyn, %fm, %half, %wide, %gather, %loop : tensor<?xf32>, tensor<4xf32>, tensor<4xf16>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// The cross-entropy's target pick: the row's logit at the token's target id
// (an i64 input broadcast along the row, compared with the column's index)
// summed with zeros. Integer inputs are loaded as they are: the row kernel
// takes it, so it is marked, not split into loops.
// CHECK-LABEL: func.func @target_pick
// CHECK-NOT: tensor.expand_shape
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<8x256xf32>, tensor<8xi64>) outs(%{{.*}} : tensor<8xf32>) attrs =  {fp8.reduction_lanes = 32 : i64, fp8.reduction_vector = 4 : i64}
// LANES16-LABEL: func.func @target_pick
// LANES16-NOT: fp8.reduction_lanes
// LANES16: tensor.expand_shape
func.func @target_pick(%logits: tensor<8x256xf32>, %targets: tensor<8xi64>, %init: tensor<8xf32>) -> tensor<8xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%logits, %targets : tensor<8x256xf32>, tensor<8xi64>) outs(%init : tensor<8xf32>) {
  ^bb0(%x: f32, %t: i64, %acc: f32):
    %v = linalg.index 1 : index
    %ti = arith.index_cast %t : i64 to index
    %hit = arith.cmpi eq, %v, %ti : index
    %zero = arith.constant 0.0 : f32
    %p = arith.select %hit, %x, %zero : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// A column sum is marked fp8.column_lanes (not fp8.reduction_lanes: a
// warp's lanes would read one column), not split: fp8-outline-host-kernels
// runs its lanes and tree in one launch. A column max stays as it is.
// With lanes = 16 it is split as without the option.
// CHECK-LABEL: func.func @column
// CHECK-NOT: tensor.expand_shape
// CHECK: %[[S:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%{{.*}} : tensor<64x16xf32>) outs(%{{.*}} : tensor<16xf32>) attrs =  {fp8.column_lanes = 32 : i64}
// CHECK-NOT: fp8.reduction_lanes
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%{{.*}} : tensor<64x16xf32>) outs(%{{.*}} : tensor<16xf32>) {
// CHECK: arith.maximumf
// CHECK-NOT: fp8.
// CHECK: return %[[S]]
// LANES16-LABEL: func.func @column
// LANES16-NOT: fp8.column_lanes
// LANES16: tensor.expand_shape {{.*}} output_shape [4, 16, 16]
// LANES16-NOT: fp8.column_lanes
// LANES16: return
func.func @column(%x: tensor<64x16xf32>, %init: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x16xf32>) outs(%init : tensor<16xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x16xf32>) outs(%init : tensor<16xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  return %s, %m : tensor<16xf32>, tensor<16xf32>
}
