// fp8.quantize / fp8.dequantize / fp8.requantize lowered by fp8-cpu-pipeline
// and run on the CPU: tails, zero blocks (case 6), tiny amax (case 7),
// NaN/Inf blocks (case 8), pow2 and E8M0 scales, E5M2, dynamic shapes and
// !fp8.scaled function results. Expected codes and scales are derived by
// hand in the comments (contract §1; most blocks have amax = 448 * 2^k so
// the scale is exactly 2^k). Codes print as unsigned bytes.
//
// RUN: fp8-opt %s --fp8-cpu-pipeline | %fp8_run | FileCheck %s

!t1 = !fp8.scaled<?x?xf8E4M3FN, block = [2, 4], scale = f32>
!row4 = !fp8.scaled<3x4xf8E4M3FN, block = [1, 4], scale = f32>
!p2 = !fp8.scaled<1x12xf8E4M3FN, block = [1, 4], scale = f32>
!e8 = !fp8.scaled<1x12xf8E4M3FN, block = [1, 4], scale = f8E8M0FNU>

func.func private @printMemrefI32(memref<*xi32>)
func.func private @printMemrefF32(memref<*xf32>)

func.func @print_codes(%t: tensor<?x?xf8E4M3FN>) {
  %i = arith.bitcast %t : tensor<?x?xf8E4M3FN> to tensor<?x?xi8>
  %u = arith.extui %i : tensor<?x?xi8> to tensor<?x?xi32>
  %m = bufferization.to_buffer %u : tensor<?x?xi32> to memref<?x?xi32>
  %c = memref.cast %m : memref<?x?xi32> to memref<*xi32>
  call @printMemrefI32(%c) : (memref<*xi32>) -> ()
  return
}

func.func @print_f32(%t: tensor<?x?xf32>) {
  %m = bufferization.to_buffer %t : tensor<?x?xf32> to memref<?x?xf32>
  %c = memref.cast %m : memref<?x?xf32> to memref<*xf32>
  call @printMemrefF32(%c) : (memref<*xf32>) -> ()
  return
}

// Number of NaN or infinite elements (tests for "no NaN anywhere").
func.func @count_nonfinite(%t: tensor<?x?xf32>) {
  %zero = arith.constant 0 : i32
  %init = tensor.empty() : tensor<i32>
  %acc = linalg.fill ins(%zero : i32) outs(%init : tensor<i32>) -> tensor<i32>
  %r = linalg.reduce ins(%t : tensor<?x?xf32>) outs(%acc : tensor<i32>) dimensions = [0, 1]
    (%x: f32, %a: i32) {
      %abs = math.absf %x : f32
      %inf = arith.constant 0x7F800000 : f32
      // ULT is true for NaN too.
      %fin = arith.cmpf olt, %abs, %inf : f32
      %one = arith.constant 1 : i32
      %z = arith.constant 0 : i32
      %inc = arith.select %fin, %z, %one : i32
      %s = arith.addi %a, %inc : i32
      linalg.yield %s : i32
    }
  %e = tensor.expand_shape %r [] output_shape [1] : tensor<i32> into tensor<1xi32>
  %m = bufferization.to_buffer %e : tensor<1xi32> to memref<1xi32>
  %c = memref.cast %m : memref<1xi32> to memref<*xi32>
  call @printMemrefI32(%c) : (memref<*xi32>) -> ()
  return
}

// A scaled value crossing a function boundary (1:N: data + scales).
func.func @quant_dyn(%x: tensor<?x?xf32>) -> !t1 {
  %q = fp8.quantize %x : tensor<?x?xf32> -> !t1
  return %q : !t1
}

func.func @tails() {
  // 3x5 with 2x4 blocks: scales 2x2, blocks cut in both dimensions.
  //   block (0:2, 0:4): amax 14  -> s = 2^-5: codes of x * 32
  //   block (0:2, 4)  : amax 448 -> s = 1;  0.001 / 2^-9 = 0.512 -> 0x01
  //   block (2, 0:4)  : amax 7   -> s = 2^-6; 1.1 * 64 = 70.4 -> 72 = 0x69
  //   block (2, 4)    : amax 3.5 -> s = 2^-7; -3.5 * 128 = -448 -> 0xFE
  %x = arith.constant dense<[[1.0, -2.0, 3.0, 14.0, 448.0],
                             [0.5, 0.25, -10.0, 1.0, 0.001],
                             [7.0, 0.0, 0.0, 1.1, -3.5]]> : tensor<3x5xf32>
  %xd = tensor.cast %x : tensor<3x5xf32> to tensor<?x?xf32>
  %q = call @quant_dyn(%xd) : (tensor<?x?xf32>) -> !t1
  %d, %s = fp8.disassemble %q : !t1
  call @print_codes(%d) : (tensor<?x?xf8E4M3FN>) -> ()
  call @print_f32(%s) : (tensor<?x?xf32>) -> ()
  %r = fp8.dequantize %q : !t1 -> tensor<?x?xf32>
  call @print_f32(%r) : (tensor<?x?xf32>) -> ()
  return
}
// CHECK-LABEL: tails
// CHECK:      sizes = [3, 5]
// CHECK-NEXT: [96, 232, 108, 126, 126]
// CHECK-NEXT: [88, 80, 250, 96, 1]
// CHECK-NEXT: [126, 0, 0, 105, 254]
// CHECK:      sizes = [2, 2]
// CHECK-NEXT: [0.03125, 1]
// CHECK-NEXT: [0.015625, 0.0078125]
// CHECK:      sizes = [3, 5]
// CHECK-NEXT: [1, -2, 3, 14, 448]
// CHECK-NEXT: [0.5, 0.25, -10, 1, 0.00195312]
// CHECK-NEXT: [7, 0, 0, 1.125, -3.5]

func.func @zero_blocks() {
  // Case 6: an all-zero 1x128 block in a [2, 256] tensor. Scale =
  // eps / 448 = 1e-4 / 448 (finite, > 0), codes 0, dequantized 0; the
  // neighbouring blocks (amax 1 and 2) are unchanged.
  %zeros = arith.constant dense<0.0> : tensor<1x128xf32>
  %ones = arith.constant dense<1.0> : tensor<1x128xf32>
  %twos = arith.constant dense<2.0> : tensor<1x256xf32>
  %row0 = tensor.concat dim(1) %zeros, %ones : (tensor<1x128xf32>, tensor<1x128xf32>) -> tensor<1x256xf32>
  %x = tensor.concat dim(0) %row0, %twos : (tensor<1x256xf32>, tensor<1x256xf32>) -> tensor<2x256xf32>
  %q = fp8.quantize %x : tensor<2x256xf32> -> !fp8.scaled<2x256xf8E4M3FN, block = [1, 128], scale = f32>
  %d, %s = fp8.disassemble %q : !fp8.scaled<2x256xf8E4M3FN, block = [1, 128], scale = f32>
  %sd = tensor.cast %s : tensor<2x2xf32> to tensor<?x?xf32>
  call @print_f32(%sd) : (tensor<?x?xf32>) -> ()
  // Codes across the block boundary, columns 126..129.
  %ds = tensor.extract_slice %d[0, 126] [2, 4] [1, 1] : tensor<2x256xf8E4M3FN> to tensor<2x4xf8E4M3FN>
  %dsd = tensor.cast %ds : tensor<2x4xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  call @print_codes(%dsd) : (tensor<?x?xf8E4M3FN>) -> ()
  %r = fp8.dequantize %q : !fp8.scaled<2x256xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<2x256xf32>
  %rs = tensor.extract_slice %r[0, 126] [2, 4] [1, 1] : tensor<2x256xf32> to tensor<2x4xf32>
  %rsd = tensor.cast %rs : tensor<2x4xf32> to tensor<?x?xf32>
  call @print_f32(%rsd) : (tensor<?x?xf32>) -> ()
  %rd = tensor.cast %r : tensor<2x256xf32> to tensor<?x?xf32>
  call @count_nonfinite(%rd) : (tensor<?x?xf32>) -> ()

  // An all-zero 128x128 weight block above a block of 3s.
  %wz = arith.constant dense<0.0> : tensor<128x128xf32>
  %w3 = arith.constant dense<3.0> : tensor<128x128xf32>
  %w = tensor.concat dim(0) %wz, %w3 : (tensor<128x128xf32>, tensor<128x128xf32>) -> tensor<256x128xf32>
  %qw = fp8.quantize %w : tensor<256x128xf32> -> !fp8.scaled<256x128xf8E4M3FN, block = [128, 128], scale = f32>
  %dw, %sw = fp8.disassemble %qw : !fp8.scaled<256x128xf8E4M3FN, block = [128, 128], scale = f32>
  %swd = tensor.cast %sw : tensor<2x1xf32> to tensor<?x?xf32>
  call @print_f32(%swd) : (tensor<?x?xf32>) -> ()
  %dws = tensor.extract_slice %dw[126, 0] [4, 2] [1, 1] : tensor<256x128xf8E4M3FN> to tensor<4x2xf8E4M3FN>
  %dwsd = tensor.cast %dws : tensor<4x2xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  call @print_codes(%dwsd) : (tensor<?x?xf8E4M3FN>) -> ()
  %rw = fp8.dequantize %qw : !fp8.scaled<256x128xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<256x128xf32>
  %rwd = tensor.cast %rw : tensor<256x128xf32> to tensor<?x?xf32>
  call @count_nonfinite(%rwd) : (tensor<?x?xf32>) -> ()
  return
}
// CHECK-LABEL: zero_blocks
// CHECK:      [2.23214e-07, 0.00223214]
// CHECK-NEXT: [0.00446429, 0.00446429]
// CHECK:      [0, 0, 126, 126]
// CHECK-NEXT: [126, 126, 126, 126]
// CHECK:      [0, 0, 1, 1]
// CHECK-NEXT: [2, 2, 2, 2]
// CHECK:      [0]
// CHECK:      [2.23214e-07]
// CHECK-NEXT: [0.00669643]
// CHECK:      [0, 0]
// CHECK-NEXT: [0, 0]
// CHECK-NEXT: [126, 126]
// CHECK-NEXT: [126, 126]
// CHECK:      [0]

func.func @tiny_amax() {
  // Case 7: block amax 1e-40 (an f32 subnormal). eps = 1e-12: scale
  // 1e-12 / 448 = 2.23214e-15, codes 0. eps = 0: 1e-40 / 448 is not a normal
  // f32, so the scale is 1 (contract §1.2), codes 0.
  %x = arith.constant dense<[[1.0e-40, 1.0e-41, 0.0, 0.0]]> : tensor<1x4xf32>
  %q = fp8.quantize %x {eps = 1.0e-12 : f32} : tensor<1x4xf32> -> !fp8.scaled<1x4xf8E4M3FN, block = [1, 4], scale = f32>
  %d, %s = fp8.disassemble %q : !fp8.scaled<1x4xf8E4M3FN, block = [1, 4], scale = f32>
  %dd = tensor.cast %d : tensor<1x4xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  %sd = tensor.cast %s : tensor<1x1xf32> to tensor<?x?xf32>
  call @print_codes(%dd) : (tensor<?x?xf8E4M3FN>) -> ()
  call @print_f32(%sd) : (tensor<?x?xf32>) -> ()
  %q0 = fp8.quantize %x {eps = 0.0 : f32} : tensor<1x4xf32> -> !fp8.scaled<1x4xf8E4M3FN, block = [1, 4], scale = f32>
  %d0, %s0 = fp8.disassemble %q0 : !fp8.scaled<1x4xf8E4M3FN, block = [1, 4], scale = f32>
  %d0d = tensor.cast %d0 : tensor<1x4xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  %s0d = tensor.cast %s0 : tensor<1x1xf32> to tensor<?x?xf32>
  call @print_codes(%d0d) : (tensor<?x?xf8E4M3FN>) -> ()
  call @print_f32(%s0d) : (tensor<?x?xf32>) -> ()
  %r = fp8.dequantize %q0 : !fp8.scaled<1x4xf8E4M3FN, block = [1, 4], scale = f32> -> tensor<1x4xf32>
  %rd = tensor.cast %r : tensor<1x4xf32> to tensor<?x?xf32>
  call @count_nonfinite(%rd) : (tensor<?x?xf32>) -> ()
  return
}
// CHECK-LABEL: tiny_amax
// CHECK:      [0, 0, 0, 0]
// CHECK:      [2.23214e-15]
// CHECK:      [0, 0, 0, 0]
// CHECK:      [1]
// CHECK:      [0]

func.func @nan_inf() {
  // Case 8: a NaN makes amax NaN -> scale 1; the NaN encodes as 0x7F and
  // dequantizes to NaN, the other elements are encoded with scale 1
  // (1 -> 0x38, 2 -> 0x40). An Inf block also gets scale 1; satfinite maps
  // ±Inf to ±448. A finite block next to them is unaffected.
  %nan = arith.constant 0x7FC00000 : f32
  %inf = arith.constant 0x7F800000 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0.0 : f32
  %c05 = arith.constant 0.5 : f32
  %c1 = arith.constant 1.0 : f32
  %c2 = arith.constant 2.0 : f32
  %c3 = arith.constant 3.0 : f32
  %c448 = arith.constant 448.0 : f32
  %x = tensor.from_elements %nan, %c1, %c2, %c0,
                            %inf, %c1, %ninf, %c05,
                            %c1, %c2, %c3, %c448 : tensor<3x4xf32>
  %q = fp8.quantize %x : tensor<3x4xf32> -> !row4
  %d, %s = fp8.disassemble %q : !row4
  %dd = tensor.cast %d : tensor<3x4xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  %sd = tensor.cast %s : tensor<3x1xf32> to tensor<?x?xf32>
  call @print_codes(%dd) : (tensor<?x?xf8E4M3FN>) -> ()
  call @print_f32(%sd) : (tensor<?x?xf32>) -> ()
  %r = fp8.dequantize %q : !row4 -> tensor<3x4xf32>
  %rd = tensor.cast %r : tensor<3x4xf32> to tensor<?x?xf32>
  call @print_f32(%rd) : (tensor<?x?xf32>) -> ()
  return
}
// CHECK-LABEL: nan_inf
// CHECK:      [127, 56, 64, 0]
// CHECK-NEXT: [126, 56, 254, 48]
// CHECK-NEXT: [56, 64, 68, 126]
// CHECK:      [1]
// CHECK-NEXT: [1]
// CHECK-NEXT: [1]
// CHECK:      [nan, 1, 2, 0]
// CHECK-NEXT: [448, 1, -448, 0.5]
// CHECK-NEXT: [1, 2, 3, 448]

func.func @pow2_and_e8m0() {
  // Three 1x4 blocks, scale_mode = pow2:
  //   amax 3            -> 3/448 = 0.0067 -> 2^-7: 3*128 = 384 -> 0x7C,
  //                        1 -> 128 = 0x70, -0.5 -> -64 = 0xE8
  //   amax 0x42600001   -> 56.000004/448 is just above 2^-3 -> 2^-2 (a log2
  //                        that rounds onto 2^-3 would clip): x*4 -> 224 =
  //                        0x76, 4 = 0x48, 8 = 0x50, 12 = 0x54
  //   amax 56           -> exactly 2^-3: 56*8 = 448 -> 0x7E
  // E8M0 stores the biased exponents 120, 125, 124.
  %big = arith.constant 0x42600001 : f32
  %c0 = arith.constant 0.0 : f32
  %cm05 = arith.constant -0.5 : f32
  %c1 = arith.constant 1.0 : f32
  %c2 = arith.constant 2.0 : f32
  %c3 = arith.constant 3.0 : f32
  %c56 = arith.constant 56.0 : f32
  %x = tensor.from_elements %c3, %c1, %c0, %cm05, %big, %c1, %c2, %c3,
                            %c56, %c0, %c0, %c0 : tensor<1x12xf32>
  %q = fp8.quantize %x {scale_mode = #fp8.scale_mode<pow2>} : tensor<1x12xf32> -> !p2
  %d, %s = fp8.disassemble %q : !p2
  %dd = tensor.cast %d : tensor<1x12xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  %sd = tensor.cast %s : tensor<1x3xf32> to tensor<?x?xf32>
  call @print_codes(%dd) : (tensor<?x?xf8E4M3FN>) -> ()
  call @print_f32(%sd) : (tensor<?x?xf32>) -> ()

  %qe = fp8.quantize %x {scale_mode = #fp8.scale_mode<pow2>} : tensor<1x12xf32> -> !e8
  %de, %se = fp8.disassemble %qe : !e8
  %dde = tensor.cast %de : tensor<1x12xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  call @print_codes(%dde) : (tensor<?x?xf8E4M3FN>) -> ()
  %sei = arith.bitcast %se : tensor<1x3xf8E8M0FNU> to tensor<1x3xi8>
  %seu = arith.extui %sei : tensor<1x3xi8> to tensor<1x3xi32>
  %sem = bufferization.to_buffer %seu : tensor<1x3xi32> to memref<1x3xi32>
  %sec = memref.cast %sem : memref<1x3xi32> to memref<*xi32>
  call @printMemrefI32(%sec) : (memref<*xi32>) -> ()
  %re = fp8.dequantize %qe : !e8 -> tensor<1x12xf32>
  %red = tensor.cast %re : tensor<1x12xf32> to tensor<?x?xf32>
  call @print_f32(%red) : (tensor<?x?xf32>) -> ()
  return
}
// CHECK-LABEL: pow2_and_e8m0
// CHECK:      [124, 112, 0, 232, 118, 72, 80, 84, 126, 0, 0, 0]
// CHECK:      [0.0078125, 0.25, 0.125]
// CHECK:      [124, 112, 0, 232, 118, 72, 80, 84, 126, 0, 0, 0]
// CHECK:      [120, 125, 124]
// CHECK:      [3, 1, 0, -0.5, 56, 1, 2, 3, 56, 0, 0, 0]

func.func @e5m2() {
  // E5M2, pow2: amax 4 -> 4/57344 = 6.98e-5 -> 2^-13: 1 -> 2^13 = 0x70,
  // 2 -> 0x74, 4 -> 0x78, -3 -> -1.5*2^14 = 0xF6.
  %x = arith.constant dense<[[1.0, 2.0, 4.0, -3.0]]> : tensor<1x4xf32>
  %q = fp8.quantize %x {scale_mode = #fp8.scale_mode<pow2>} : tensor<1x4xf32> -> !fp8.scaled<1x4xf8E5M2, block = [1, 4], scale = f32>
  %d, %s = fp8.disassemble %q : !fp8.scaled<1x4xf8E5M2, block = [1, 4], scale = f32>
  %i = arith.bitcast %d : tensor<1x4xf8E5M2> to tensor<1x4xi8>
  %u = arith.extui %i : tensor<1x4xi8> to tensor<1x4xi32>
  %m = bufferization.to_buffer %u : tensor<1x4xi32> to memref<1x4xi32>
  %c = memref.cast %m : memref<1x4xi32> to memref<*xi32>
  call @printMemrefI32(%c) : (memref<*xi32>) -> ()
  %sd = tensor.cast %s : tensor<1x1xf32> to tensor<?x?xf32>
  call @print_f32(%sd) : (tensor<?x?xf32>) -> ()
  %r = fp8.dequantize %q : !fp8.scaled<1x4xf8E5M2, block = [1, 4], scale = f32> -> tensor<1x4xf32>
  %rd = tensor.cast %r : tensor<1x4xf32> to tensor<?x?xf32>
  call @print_f32(%rd) : (tensor<?x?xf32>) -> ()
  return
}
// CHECK-LABEL: e5m2
// CHECK:      [112, 116, 120, 246]
// CHECK:      [0.00012207]
// CHECK:      [1, 2, 4, -3]

func.func @requantize() {
  // 1x2 blocks -> transposed 2x1 blocks (a Wgrad operand), pow2 so every
  // value is exact: the result dequantizes to the transpose, with scales
  //   col 0 rows 0-1: amax 2 -> 2^-7;  col 1 rows 0-1: amax 0.5 -> 2^-9
  //   col 0 rows 2-3: amax 8 -> 2^-5;  col 1 rows 2-3: amax 448 -> 1
  %x = arith.constant dense<[[1.0, 2.0, 4.0, 8.0], [0.5, 0.25, 16.0, 448.0]]> : tensor<2x4xf32>
  %q = fp8.quantize %x {scale_mode = #fp8.scale_mode<pow2>} : tensor<2x4xf32> -> !fp8.scaled<2x4xf8E4M3FN, block = [1, 2], scale = f32>
  %t = fp8.requantize %q {permutation = array<i64: 1, 0>, scale_mode = #fp8.scale_mode<pow2>}
      : !fp8.scaled<2x4xf8E4M3FN, block = [1, 2], scale = f32> -> !fp8.scaled<4x2xf8E4M3FN, block = [2, 1], scale = f32>
  %d, %s = fp8.disassemble %t : !fp8.scaled<4x2xf8E4M3FN, block = [2, 1], scale = f32>
  %sd = tensor.cast %s : tensor<2x2xf32> to tensor<?x?xf32>
  call @print_f32(%sd) : (tensor<?x?xf32>) -> ()
  %r = fp8.dequantize %t : !fp8.scaled<4x2xf8E4M3FN, block = [2, 1], scale = f32> -> tensor<4x2xf32>
  %rd = tensor.cast %r : tensor<4x2xf32> to tensor<?x?xf32>
  call @print_f32(%rd) : (tensor<?x?xf32>) -> ()
  return
}
// CHECK-LABEL: requantize
// CHECK:      [0.0078125, 0.00195312]
// CHECK-NEXT: [0.03125, 1]
// CHECK:      [1, 0.5]
// CHECK-NEXT: [2, 0.25]
// CHECK-NEXT: [4, 16]
// CHECK-NEXT: [8, 448]


func.func @main() {
  // Section labels for CHECK-LABEL come from vector.print of strings.
  vector.print str "tails\n"
  call @tails() : () -> ()
  vector.print str "zero_blocks\n"
  call @zero_blocks() : () -> ()
  vector.print str "tiny_amax\n"
  call @tiny_amax() : () -> ()
  vector.print str "nan_inf\n"
  call @nan_inf() : () -> ()
  vector.print str "pow2_and_e8m0\n"
  call @pow2_and_e8m0() : () -> ()
  vector.print str "e5m2\n"
  call @e5m2() : () -> ()
  vector.print str "requantize\n"
  call @requantize() : () -> ()
  return
}
