// The reduction order of the float row sums (docs/numerics.md, "Reduction
// order"): with 32 lanes, lane l adds elements l, l + 32, ... of a row into
// -0.0, then the halving tree q[i] = p[i] + p[i + h] (h = 16, 8, 4, 2), then
// init + (q[0] + q[1]). Rows of 64 f32 built so that the sequential order
// (reduction-lanes=0, the old contract: init + x0 + x1 + ...) and the lane
// order differ in f32; results printed as their bits (i32). Expected values
// derived by hand below (2^24 + 1 rounds to 2^24, ties to even; 2^24 + 2 is
// exact): 2^24 = 0x4B800000 = 1266679808, 2^24 + 2 = 0x4B800001 =
// 1266679809, -0.0 = 0x80000000 = -2147483648.
//
// row 0 (the lane stride): x[0] = 2^24, x[1] = x[33] = 1, init 0. Lanes:
//   p[0] = 2^24, p[1] = 1 + 1 = 2, the tree adds them: 2^24 + 2.
//   Sequential: 2^24 + 1 + 1 = 2^24 (each 1 is lost). Contiguous chunks
//   (lane l holding x[2l], x[2l + 1]) would lose x[1] in lane 0: 2^24.
// row 1 (the tree): x[0] = 2^24, x[1] = x[3] = 1, init 0. p[0] = 2^24,
//   p[1] = p[3] = 1: the level h = 2 gives q[1] = p[1] + p[3] = 2, then
//   2^24 + 2. Sequential 2^24; adjacent pairs ((p0 + p1) + (p2 + p3)) 2^24.
// row 2 (the init last): x[0] = x[32] = 1, init 2^24. p[0] = 2, then
//   init + 2 = 2^24 + 2. Sequential (init first) 2^24; the init as lane 0's
//   start value also 2^24.
// row 3 (-0.0, the identity): all x = -0.0, init -0.0: -0.0 both ways; a
//   +0.0 start of the lanes would give +0.0 (0).
// With 8 lanes (N = 8 x 8, so contiguous chunks of 8 would also be valid
// IR) the same placements give the same bits: row 0's x[1] and x[33] are
// lane 1's (33 = 1 + 4 x 8), lane 0 holds x[0] and x[32]; contiguous chunks
// would put x[0], x[1] in lane 0 (2^24). Row 1: lanes 1 and 3 meet at
// h = 2 again; row 2: x[0], x[32] are lane 0's.
// The rows of 64 are shorter than 32 lanes x 4 (the default
// reduction-vector): no vector step, the order above. With 8 lanes and
// reduction-vector=1 the same; with 8 lanes and vector 4 (two steps of 32,
// lane l adding 32 j + 4 l + v) row 0's x[0], x[1] and x[33] are all lane
// 0's: 2^24 + 1 + 1 = 2^24; row 1's x[0], x[1], x[3] too: 2^24; row 2:
// x[0], x[32] lane 0's, 2^24 + 2; row 3: -0.0.
//
// RUN: fp8-opt %s --fp8-cpu-pipeline | %fp8_run | FileCheck %s --check-prefix=LANES
// RUN: fp8-opt %s --fp8-cpu-pipeline="reduction-lanes=8 reduction-vector=1" | %fp8_run | FileCheck %s --check-prefix=LANES
// RUN: fp8-opt %s --fp8-cpu-pipeline=reduction-lanes=8 | %fp8_run | FileCheck %s --check-prefix=L8V4
// RUN: fp8-opt %s --fp8-cpu-pipeline=reduction-lanes=0 | %fp8_run | FileCheck %s --check-prefix=SEQ

func.func private @printMemrefI32(memref<*xi32>)

func.func @row_sum(%x: tensor<4x64xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x64xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %acc, %in : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c32 = arith.constant 32 : index
  %c33 = arith.constant 33 : index
  %big = arith.constant 16777216.0 : f32
  %one = arith.constant 1.0 : f32
  %negzero = arith.constant -0.0 : f32
  %zeros = arith.constant dense<0.0> : tensor<4x64xf32>
  %e = tensor.empty() : tensor<64xf32>
  %nz = linalg.fill ins(%negzero : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %x0 = tensor.insert_slice %nz into %zeros[3, 0] [1, 64] [1, 1] : tensor<64xf32> into tensor<4x64xf32>
  %x1 = tensor.insert %big into %x0[%c0, %c0] : tensor<4x64xf32>
  %x2 = tensor.insert %one into %x1[%c0, %c1] : tensor<4x64xf32>
  %x3 = tensor.insert %one into %x2[%c0, %c33] : tensor<4x64xf32>
  %x4 = tensor.insert %big into %x3[%c1, %c0] : tensor<4x64xf32>
  %x5 = tensor.insert %one into %x4[%c1, %c1] : tensor<4x64xf32>
  %x6 = tensor.insert %one into %x5[%c1, %c3] : tensor<4x64xf32>
  %x7 = tensor.insert %one into %x6[%c2, %c0] : tensor<4x64xf32>
  %x = tensor.insert %one into %x7[%c2, %c32] : tensor<4x64xf32>
  %init = arith.constant dense<[0.0, 0.0, 16777216.0, -0.0]> : tensor<4xf32>
  %r = call @row_sum(%x, %init) : (tensor<4x64xf32>, tensor<4xf32>) -> tensor<4xf32>
  %bits = arith.bitcast %r : tensor<4xf32> to tensor<4xi32>
  %m = bufferization.to_buffer %bits : tensor<4xi32> to memref<4xi32>
  %u = memref.cast %m : memref<4xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}

// LANES: [1266679809,  1266679809,  1266679809,  -2147483648]
// L8V4: [1266679808,  1266679808,  1266679809,  -2147483648]
// SEQ: [1266679808,  1266679808,  1266679808,  -2147483648]
