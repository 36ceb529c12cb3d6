// The reduction order of a row whose length N is not a multiple of the 32
// lanes (docs/numerics.md, "Reduction order"): with N = 32 q + t, lane l
// adds elements l, l + 32, ..., l + 32 (q - 1), then, for l < t, the tail
// element 32 q + l last; then the same halving tree and the init. A row
// shorter than the lanes (N < 32) keeps the sequential order. Results
// printed as their bits (i32); expected values derived by hand (2^24 + 1
// rounds to 2^24, ties to even; 2^24 + 2 is exact): 2^24 = 1266679808,
// 2^24 + 2 = 1266679809, -0.0 = -2147483648.
//
// @sum40, N = 40 (q = 1, t = 8), init 0:
//   row 0 (the last tail lane keeps its tail): x[0] = 2^24, x[7] = 1,
//     x[39] = 1 (lane 7's tail). p[0] = 2^24, p[7] = 1 + 1 = 2; the tree
//     brings p[7] to lane 0 through lanes 7 (h = 8), 3 (h = 4), 1 (h = 2):
//     2^24 + 2. Sequential: 2^24 + 1 + 1 = 2^24; lane 7's tail dropped:
//     p[7] = 1, 2^24 + 1 = 2^24.
//   row 1 (-0.0): all x = -0.0, init -0.0: -0.0 (lanes without a tail
//     element keep their -0.0 start).
// @sum72, N = 72 (q = 2, t = 8): x[0] = 1, x[32] = 1, x[64] = 2^24 (lane
//   0's tail), init 0. Lane 0: (1 + 1) + 2^24 = 2^24 + 2; the tail added
//   first instead would give (2^24 + 1) + 1 = 2^24. Sequential: 2^24 + 2.
// @sum31, N = 31 < 32: x[0] = 2^24, x[1] = x[3] = 1, init 0. Sequential:
//   2^24. Split into lanes it would be 2^24 + 2 (p[1] + p[3] = 2 at h = 2).
//
// RUN: fp8-opt %s --fp8-cpu-pipeline | %fp8_run | FileCheck %s --check-prefix=LANES
// RUN: fp8-opt %s --fp8-cpu-pipeline=reduction-lanes=0 | %fp8_run | FileCheck %s --check-prefix=SEQ

func.func private @printMemrefI32(memref<*xi32>)

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @sum40(%x: tensor<2x40xf32>, %init: tensor<2xf32>) -> tensor<2xf32> {
  %r = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<2x40xf32>) outs(%init : tensor<2xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %acc, %in : f32
    linalg.yield %s : f32
  } -> tensor<2xf32>
  return %r : tensor<2xf32>
}

func.func @sum72(%x: tensor<1x72xf32>, %init: tensor<1xf32>) -> tensor<1xf32> {
  %r = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<1x72xf32>) outs(%init : tensor<1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %acc, %in : f32
    linalg.yield %s : f32
  } -> tensor<1xf32>
  return %r : tensor<1xf32>
}

func.func @sum31(%x: tensor<1x31xf32>, %init: tensor<1xf32>) -> tensor<1xf32> {
  %r = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<1x31xf32>) outs(%init : tensor<1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %acc, %in : f32
    linalg.yield %s : f32
  } -> tensor<1xf32>
  return %r : tensor<1xf32>
}

func.func @print(%r: tensor<?xf32>) {
  %bits = arith.bitcast %r : tensor<?xf32> to tensor<?xi32>
  %m = bufferization.to_buffer %bits : tensor<?xi32> to memref<?xi32>
  %u = memref.cast %m : memref<?xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %c32 = arith.constant 32 : index
  %c39 = arith.constant 39 : index
  %c64 = arith.constant 64 : index
  %big = arith.constant 16777216.0 : f32
  %one = arith.constant 1.0 : f32
  %negzero = arith.constant -0.0 : f32

  %z40 = arith.constant dense<0.0> : tensor<2x40xf32>
  %e = tensor.empty() : tensor<40xf32>
  %nz = linalg.fill ins(%negzero : f32) outs(%e : tensor<40xf32>) -> tensor<40xf32>
  %a0 = tensor.insert_slice %nz into %z40[1, 0] [1, 40] [1, 1] : tensor<40xf32> into tensor<2x40xf32>
  %a1 = tensor.insert %big into %a0[%c0, %c0] : tensor<2x40xf32>
  %a2 = tensor.insert %one into %a1[%c0, %c7] : tensor<2x40xf32>
  %a = tensor.insert %one into %a2[%c0, %c39] : tensor<2x40xf32>
  %ainit = arith.constant dense<[0.0, -0.0]> : tensor<2xf32>
  %ra = call @sum40(%a, %ainit) : (tensor<2x40xf32>, tensor<2xf32>) -> tensor<2xf32>
  %pa = tensor.cast %ra : tensor<2xf32> to tensor<?xf32>
  call @print(%pa) : (tensor<?xf32>) -> ()

  %z72 = arith.constant dense<0.0> : tensor<1x72xf32>
  %b1 = tensor.insert %one into %z72[%c0, %c0] : tensor<1x72xf32>
  %b2 = tensor.insert %one into %b1[%c0, %c32] : tensor<1x72xf32>
  %b = tensor.insert %big into %b2[%c0, %c64] : tensor<1x72xf32>
  %binit = arith.constant dense<0.0> : tensor<1xf32>
  %rb = call @sum72(%b, %binit) : (tensor<1x72xf32>, tensor<1xf32>) -> tensor<1xf32>
  %pb = tensor.cast %rb : tensor<1xf32> to tensor<?xf32>
  call @print(%pb) : (tensor<?xf32>) -> ()

  %z31 = arith.constant dense<0.0> : tensor<1x31xf32>
  %c1v = tensor.insert %big into %z31[%c0, %c0] : tensor<1x31xf32>
  %c2v = tensor.insert %one into %c1v[%c0, %c1] : tensor<1x31xf32>
  %cv = tensor.insert %one into %c2v[%c0, %c3] : tensor<1x31xf32>
  %rc = call @sum31(%cv, %binit) : (tensor<1x31xf32>, tensor<1xf32>) -> tensor<1xf32>
  %pc = tensor.cast %rc : tensor<1xf32> to tensor<?xf32>
  call @print(%pc) : (tensor<?xf32>) -> ()
  return
}

// LANES: [1266679809,  -2147483648]
// LANES: [1266679809]
// LANES: [1266679808]
// SEQ: [1266679808,  -2147483648]
// SEQ: [1266679809]
// SEQ: [1266679808]
