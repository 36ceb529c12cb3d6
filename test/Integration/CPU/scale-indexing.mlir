// Which scale multiplies which product, and requantize's `saturate`, checked
// by value (the lowering's IR tests check the same maps by shape only).
// Every input code is E4M3 1.0 (0x38) unless stated, so each result is a sum
// of scale products derived by hand below; a scale taken from the wrong
// row or K block changes it. Scales are powers of two and small integers:
// every sum is an exact f32 integer.
//
// RUN: fp8-opt %s --fp8-cpu-pipeline | %fp8_run | FileCheck %s
// The same values through the reference generics of fp8-lower-to-linalg
// (the pipeline uses the register-tiled kernel by default).
// RUN: fp8-opt %s --fp8-cpu-pipeline=tiled=false | %fp8_run | FileCheck %s

func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefI32(memref<*xi32>)

func.func @print_f32(%t: tensor<?x?xf32>) {
  %m = bufferization.to_buffer %t : tensor<?x?xf32> to memref<?x?xf32>
  %c = memref.cast %m : memref<?x?xf32> to memref<*xf32>
  call @printMemrefF32(%c) : (memref<*xf32>) -> ()
  return
}

// Codes as unsigned integers (printMemrefI32).
func.func @print_codes(%t: tensor<1x4xf8E4M3FN>) {
  %i = arith.bitcast %t : tensor<1x4xf8E4M3FN> to tensor<1x4xi8>
  %u = arith.extui %i : tensor<1x4xi8> to tensor<1x4xi32>
  %m = bufferization.to_buffer %u : tensor<1x4xi32> to memref<1x4xi32>
  %c = memref.cast %m : memref<1x4xi32> to memref<*xi32>
  call @printMemrefI32(%c) : (memref<*xi32>) -> ()
  return
}
func.func @print_codes_e5m2(%t: tensor<1x4xf8E5M2>) {
  %i = arith.bitcast %t : tensor<1x4xf8E5M2> to tensor<1x4xi8>
  %u = arith.extui %i : tensor<1x4xi8> to tensor<1x4xi32>
  %m = bufferization.to_buffer %u : tensor<1x4xi32> to memref<1x4xi32>
  %c = memref.cast %m : memref<1x4xi32> to memref<*xi32>
  call @printMemrefI32(%c) : (memref<*xi32>) -> ()
  return
}

// B in 1x128 tiles (one scale per row of B and K block): D[m][n] =
// sum over kb of 128 * sa[m][kb] * sb[n][kb], with
//   sa = [[1, 2], [4, 8]],  sb = [[1, 16], [2, 32], [3, 64]]:
//   D[0] = 128 * [1 + 32, 2 + 64, 3 + 128]   = [4224, 8448, 16768]
//   D[1] = 128 * [4 + 128, 8 + 256, 12 + 512] = [16896, 33792, 67072]
// (B's scale row taken per 128 rows would give every column n = 0's value.)
func.func @b_rows_1x128() {
  %c = arith.constant dense<56> : tensor<2x256xi8>
  %a = arith.bitcast %c : tensor<2x256xi8> to tensor<2x256xf8E4M3FN>
  %cb = arith.constant dense<56> : tensor<3x256xi8>
  %b = arith.bitcast %cb : tensor<3x256xi8> to tensor<3x256xf8E4M3FN>
  %sa = arith.constant dense<[[1.0, 2.0], [4.0, 8.0]]> : tensor<2x2xf32>
  %sb = arith.constant dense<[[1.0, 16.0], [2.0, 32.0], [3.0, 64.0]]> : tensor<3x2xf32>
  %qa = fp8.assemble %a, %sa : tensor<2x256xf8E4M3FN>, tensor<2x2xf32>
      -> !fp8.scaled<2x256xf8E4M3FN, block = [1, 128], scale = f32>
  %qb = fp8.assemble %b, %sb : tensor<3x256xf8E4M3FN>, tensor<3x2xf32>
      -> !fp8.scaled<3x256xf8E4M3FN, block = [1, 128], scale = f32>
  %d = fp8.scaled_matmul %qa, %qb
      : !fp8.scaled<2x256xf8E4M3FN, block = [1, 128], scale = f32>,
        !fp8.scaled<3x256xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<2x3xf32>
  %dd = tensor.cast %d : tensor<2x3xf32> to tensor<?x?xf32>
  call @print_f32(%dd) : (tensor<?x?xf32>) -> ()
  return
}
// CHECK-LABEL: b_rows_1x128
// CHECK:      [4224, 8448, 16768]
// CHECK-NEXT: [16896, 33792, 67072]

// A in 1x256 tiles, B in 128x128 tiles: the promotion interval is 128, and
// K block kb (of 128) takes A's scale column kb / 2 and B's column kb:
//   sa = [[1, 2], [4, 8]],  sb = [[1, 16, 256, 4096]] (N = 3 < 128: one row)
//   D[0][n] = 128 * (1 * (1 + 16) + 2 * (256 + 4096)) = 128 * 8721 = 1116288
//   D[1][n] = 128 * (4 * (1 + 16) + 8 * (256 + 4096)) = 128 * 34884 = 4465152
func.func @a_cols_1x256() {
  %c = arith.constant dense<56> : tensor<2x512xi8>
  %a = arith.bitcast %c : tensor<2x512xi8> to tensor<2x512xf8E4M3FN>
  %cb = arith.constant dense<56> : tensor<3x512xi8>
  %b = arith.bitcast %cb : tensor<3x512xi8> to tensor<3x512xf8E4M3FN>
  %sa = arith.constant dense<[[1.0, 2.0], [4.0, 8.0]]> : tensor<2x2xf32>
  %sb = arith.constant dense<[[1.0, 16.0, 256.0, 4096.0]]> : tensor<1x4xf32>
  %qa = fp8.assemble %a, %sa : tensor<2x512xf8E4M3FN>, tensor<2x2xf32>
      -> !fp8.scaled<2x512xf8E4M3FN, block = [1, 256], scale = f32>
  %qb = fp8.assemble %b, %sb : tensor<3x512xf8E4M3FN>, tensor<1x4xf32>
      -> !fp8.scaled<3x512xf8E4M3FN, block = [128, 128], scale = f32>
  %d = fp8.scaled_matmul %qa, %qb
      : !fp8.scaled<2x512xf8E4M3FN, block = [1, 256], scale = f32>,
        !fp8.scaled<3x512xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<2x3xf32>
  %dd = tensor.cast %d : tensor<2x3xf32> to tensor<?x?xf32>
  call @print_f32(%dd) : (tensor<?x?xf32>) -> ()
  return
}
// CHECK-LABEL: a_cols_1x256
// CHECK:      [1.11629e+06, 1.11629e+06, 1.11629e+06]
// CHECK-NEXT: [4.46515e+06, 4.46515e+06, 4.46515e+06]

// requantize (1x2 blocks into one 1x4 block: a requantize to its own type
// folds away) of values that overflow f32 once dequantized: codes
// [448, 1, 0.5, 0] (0x7E, 0x38, 0x30, 0) with scales 2^127 dequantize to
// [Inf, 2^127, 2^126, 0]. amax = Inf, so the new scale is 1 (Inf / fmax is
// not a normal f32), and the codes are those of [Inf, 2^127, 2^126, 0]
// themselves: with saturate (satfinite) every overflow gives the largest
// finite code (E4M3FN 0x7E = 126, E5M2 0x7B = 123); without it E4M3FN gives
// its NaN code 0x7F = 127 and E5M2 its Inf code 0x7C = 124 (OCP FP8 spec;
// cuda_fp8.h __NV_NOSAT).
func.func @requantize_saturate() {
  %c = arith.constant dense<[[126, 56, 48, 0]]> : tensor<1x4xi8>
  %x = arith.bitcast %c : tensor<1x4xi8> to tensor<1x4xf8E4M3FN>
  %s = arith.constant dense<1.70141183e+38> : tensor<1x2xf32>
  %q = fp8.assemble %x, %s : tensor<1x4xf8E4M3FN>, tensor<1x2xf32>
      -> !fp8.scaled<1x4xf8E4M3FN, block = [1, 2], scale = f32>
  %sat = fp8.requantize %q : !fp8.scaled<1x4xf8E4M3FN, block = [1, 2], scale = f32>
      -> !fp8.scaled<1x4xf8E4M3FN, block = [1, 4], scale = f32>
  %nosat = fp8.requantize %q {saturate = false} : !fp8.scaled<1x4xf8E4M3FN, block = [1, 2], scale = f32>
      -> !fp8.scaled<1x4xf8E4M3FN, block = [1, 4], scale = f32>
  %nosat52 = fp8.requantize %q {saturate = false} : !fp8.scaled<1x4xf8E4M3FN, block = [1, 2], scale = f32>
      -> !fp8.scaled<1x4xf8E5M2, block = [1, 4], scale = f32>
  %sat52 = fp8.requantize %q : !fp8.scaled<1x4xf8E4M3FN, block = [1, 2], scale = f32>
      -> !fp8.scaled<1x4xf8E5M2, block = [1, 4], scale = f32>
  %d0, %s0 = fp8.disassemble %sat : !fp8.scaled<1x4xf8E4M3FN, block = [1, 4], scale = f32>
  %d1, %s1 = fp8.disassemble %nosat : !fp8.scaled<1x4xf8E4M3FN, block = [1, 4], scale = f32>
  %d2, %s2 = fp8.disassemble %nosat52 : !fp8.scaled<1x4xf8E5M2, block = [1, 4], scale = f32>
  %d3, %s3 = fp8.disassemble %sat52 : !fp8.scaled<1x4xf8E5M2, block = [1, 4], scale = f32>
  call @print_codes(%d0) : (tensor<1x4xf8E4M3FN>) -> ()
  call @print_codes(%d1) : (tensor<1x4xf8E4M3FN>) -> ()
  call @print_codes_e5m2(%d2) : (tensor<1x4xf8E5M2>) -> ()
  call @print_codes_e5m2(%d3) : (tensor<1x4xf8E5M2>) -> ()
  %sd = tensor.cast %s1 : tensor<1x1xf32> to tensor<?x?xf32>
  call @print_f32(%sd) : (tensor<?x?xf32>) -> ()
  return
}
// CHECK-LABEL: requantize_saturate
// CHECK:      {{\[}}[126, 126, 126, 0]]
// CHECK:      {{\[}}[127, 127, 127, 0]]
// CHECK:      {{\[}}[124, 124, 124, 0]]
// CHECK:      {{\[}}[123, 123, 123, 0]]
// CHECK:      {{\[}}[1]]

func.func @main() {
  vector.print str "b_rows_1x128\n"
  call @b_rows_1x128() : () -> ()
  vector.print str "a_cols_1x256\n"
  call @a_cols_1x256() : () -> ()
  vector.print str "requantize_saturate\n"
  call @requantize_saturate() : () -> ()
  return
}
