// The vector lanes of the reduction order (docs/numerics.md, "Reduction
// order"): with 32 lanes and V = 4 (reduction-vector, the default), lane l
// adds elements 128 j + 4 l + v (v = 0..3 in that order) of the row's
// whole 128-element steps, then the rest of the row lane-strided (element
// 128 q + 32 i + l), then the last (N - 128 q) % 32 elements for the first
// lanes; the halving tree and the init as before. Results printed as their
// bits (i32); expected values derived by hand (2^24 + 1 rounds to 2^24,
// ties to even; 2^24 + 2 is exact): 2^24 = 1266679808, 2^24 + 2 =
// 1266679809, -0.0 = -2147483648. Elements not named are +0.0.
//
// @sum256, N = 256 (two vector steps), init 0:
//   row 0 (four consecutive elements per lane): x[0] = 2^24, x[5] = x[6] =
//     1 (lane 1's v = 1, 2). p[0] = 2^24, p[1] = 1 + 1 = 2; tree: 2^24 + 2.
//     Sequential: 2^24 + 1 + 1 = 2^24. Lane-strided (V = 1): x[5], x[6]
//     are lanes 5, 6, which meet lane 0's 2^24 one at a time (h = 4: p[1]
//     = 1, p[2] = 1; h = 2: 2^24 + 1 = 2^24; h = 1: 2^24 + 1): 2^24.
//   row 1 (the order within a vector): x[0] = x[1] = 1, x[2] = 2^24. Lane
//     0: ((1 + 1) + 2^24) = 2^24 + 2. Within the vector reversed: (2^24 +
//     1) + 1 = 2^24; lane-strided: lanes 0, 1, 2: h = 2: p[0] + p[2] =
//     2^24, h = 1: 2^24 + 1 = 2^24.
//   row 2 (the second step): x[4] = 2^24, x[132] = 1, x[133] = 1 (lane 1:
//     step 0 then step 1): p[1] = 2^24 + 1 + 1 = 2^24; 2^24. With
//     lane l's steps as contiguous runs of 8 (4 l + ...), x[132], x[133]
//     would be lane 33's (none) or another lane's: 2^24 + 2.
//   row 3 (-0.0): all x = -0.0, init -0.0: -0.0.
// @sum161, N = 161 (q = 1 vector step, then 33 elements: one lane-strided
//   step 128..159, element 160 lane 0's tail), init 0:
//   row 0: x[4] = 2^24 (lane 1), x[128] = 1, x[160] = 1 (both lane 0): p[0]
//     = 2, p[1] = 2^24; 2^24 + 2. Sequential 2^24; the tail dropped 2^24.
//   row 1: x[1] = 2^24 (lane 0), x[128] = 1, x[160] = 1 (lane 0): p[0] =
//     ((2^24 + 1) + 1) = 2^24. Lane-strided (V = 1): x[1] is lane 1's,
//     p[0] = 2, 2^24 + 2.
//
// RUN: fp8-opt %s --fp8-cpu-pipeline | %fp8_run | FileCheck %s --check-prefix=VEC
// RUN: fp8-opt %s --fp8-cpu-pipeline=reduction-vector=1 | %fp8_run | FileCheck %s --check-prefix=STRIDED
// RUN: fp8-opt %s --fp8-cpu-pipeline=reduction-lanes=0 | %fp8_run | FileCheck %s --check-prefix=SEQ

func.func private @printMemrefI32(memref<*xi32>)

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @sum256(%x: tensor<4x256xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x256xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %acc, %in : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

func.func @sum161(%x: tensor<2x161xf32>, %init: tensor<2xf32>) -> tensor<2xf32> {
  %r = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<2x161xf32>) outs(%init : tensor<2xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %acc, %in : f32
    linalg.yield %s : f32
  } -> tensor<2xf32>
  return %r : tensor<2xf32>
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
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c128 = arith.constant 128 : index
  %c132 = arith.constant 132 : index
  %c133 = arith.constant 133 : index
  %c160 = arith.constant 160 : index
  %big = arith.constant 16777216.0 : f32
  %one = arith.constant 1.0 : f32
  %negzero = arith.constant -0.0 : f32
  %zeros = arith.constant dense<0.0> : tensor<4x256xf32>
  %e = tensor.empty() : tensor<256xf32>
  %nz = linalg.fill ins(%negzero : f32) outs(%e : tensor<256xf32>) -> tensor<256xf32>
  %a0 = tensor.insert_slice %nz into %zeros[3, 0] [1, 256] [1, 1] : tensor<256xf32> into tensor<4x256xf32>
  %a1 = tensor.insert %big into %a0[%c0, %c0] : tensor<4x256xf32>
  %a2 = tensor.insert %one into %a1[%c0, %c5] : tensor<4x256xf32>
  %a3 = tensor.insert %one into %a2[%c0, %c6] : tensor<4x256xf32>
  %a4 = tensor.insert %one into %a3[%c1, %c0] : tensor<4x256xf32>
  %a5 = tensor.insert %one into %a4[%c1, %c1] : tensor<4x256xf32>
  %a6 = tensor.insert %big into %a5[%c1, %c2] : tensor<4x256xf32>
  %a7 = tensor.insert %big into %a6[%c2, %c4] : tensor<4x256xf32>
  %a8 = tensor.insert %one into %a7[%c2, %c132] : tensor<4x256xf32>
  %a = tensor.insert %one into %a8[%c2, %c133] : tensor<4x256xf32>
  %ainit = arith.constant dense<[0.0, 0.0, 0.0, -0.0]> : tensor<4xf32>
  %ra = call @sum256(%a, %ainit) : (tensor<4x256xf32>, tensor<4xf32>) -> tensor<4xf32>
  %rad = tensor.cast %ra : tensor<4xf32> to tensor<?xf32>
  call @print(%rad) : (tensor<?xf32>) -> ()

  %bz = arith.constant dense<0.0> : tensor<2x161xf32>
  %b1 = tensor.insert %big into %bz[%c0, %c4] : tensor<2x161xf32>
  %b2 = tensor.insert %one into %b1[%c0, %c128] : tensor<2x161xf32>
  %b3 = tensor.insert %one into %b2[%c0, %c160] : tensor<2x161xf32>
  %b4 = tensor.insert %big into %b3[%c1, %c1] : tensor<2x161xf32>
  %b5 = tensor.insert %one into %b4[%c1, %c128] : tensor<2x161xf32>
  %b = tensor.insert %one into %b5[%c1, %c160] : tensor<2x161xf32>
  %binit = arith.constant dense<0.0> : tensor<2xf32>
  %rb = call @sum161(%b, %binit) : (tensor<2x161xf32>, tensor<2xf32>) -> tensor<2xf32>
  %rbd = tensor.cast %rb : tensor<2xf32> to tensor<?xf32>
  call @print(%rbd) : (tensor<?xf32>) -> ()
  return
}

// VEC: [1266679809,  1266679809,  1266679808,  -2147483648]
// VEC: [1266679809,  1266679808]
// STRIDED: [1266679808,  1266679808,  1266679808,  -2147483648]
// STRIDED: [1266679809,  1266679809]
// SEQ: [1266679808,  1266679809,  1266679808,  -2147483648]
// SEQ: [1266679808,  1266679808]
