// Numerical safety nets at the edges of f32 (issue 7; contract §1.2-§1.5),
// lowered by fp8-cpu-pipeline and run on the CPU. Every expected value is
// derived by hand below; scales are compared bit for bit against constants
// written as f32 bit patterns, so no expected value comes from the lowering.
// Each check prints 1 for "as the contract says".
//
// RUN: fp8-opt %s --fp8-cpu-pipeline | %fp8_run | FileCheck %s

!row = !fp8.scaled<1x4xf8E4M3FN, block = [1, 4], scale = f32>
!rowe8 = !fp8.scaled<1x4xf8E4M3FN, block = [1, 4], scale = f8E8M0FNU>

func.func private @printMemrefI32(memref<*xi32>)

func.func @print_i32(%t: tensor<1x4xi32>) {
  %m = bufferization.to_buffer %t : tensor<1x4xi32> to memref<1x4xi32>
  %c = memref.cast %m : memref<1x4xi32> to memref<*xi32>
  call @printMemrefI32(%c) : (memref<*xi32>) -> ()
  return
}

func.func @print_codes(%t: tensor<1x4xf8E4M3FN>) {
  %i = arith.bitcast %t : tensor<1x4xf8E4M3FN> to tensor<1x4xi8>
  %u = arith.extui %i : tensor<1x4xi8> to tensor<1x4xi32>
  call @print_i32(%u) : (tensor<1x4xi32>) -> ()
  return
}

// Prints [scale bits == expected, #non-finite dequantized values, 0, 0].
func.func @check(%s: tensor<1x1xf32>, %expected_bits: i32, %deq: tensor<1x4xf32>) {
  %c0 = arith.constant 0 : index
  %sv = tensor.extract %s[%c0, %c0] : tensor<1x1xf32>
  %sb = arith.bitcast %sv : f32 to i32
  %eq = arith.cmpi eq, %sb, %expected_bits : i32
  %eqi = arith.extui %eq : i1 to i32
  %inf = arith.constant 0x7F800000 : f32
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %bad = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %zero) -> i32 {
    %v = tensor.extract %deq[%c0, %i] : tensor<1x4xf32>
    %abs = math.absf %v : f32
    %fin = arith.cmpf olt, %abs, %inf : f32
    %inc = arith.select %fin, %zero, %one : i32
    %s2 = arith.addi %a, %inc : i32
    scf.yield %s2 : i32
  }
  %r = tensor.from_elements %eqi, %bad, %zero, %zero : tensor<1x4xi32>
  call @print_i32(%r) : (tensor<1x4xi32>) -> ()
  return
}

func.func @quantize_row(%x: tensor<1x4xf32>, %eps: f32, %bits: i32) {
  %q = fp8.quantize %x {eps = 0.0 : f32} : tensor<1x4xf32> -> !row
  %d, %s = fp8.disassemble %q : !row
  call @print_codes(%d) : (tensor<1x4xf8E4M3FN>) -> ()
  %deq = fp8.dequantize %q : !row -> tensor<1x4xf32>
  call @check(%s, %bits, %deq) : (tensor<1x1xf32>, i32, tensor<1x4xf32>) -> ()
  return
}

func.func @main() {
  %eps0 = arith.constant 0.0 : f32

  // amax = FLT_MAX (0x7F7FFFFF = (2^24 - 1) * 2^104). FLT_MAX / 448 =
  // 2396745 * 2^98 exactly (2^24 - 1 is divisible by 7): 0x7B124924, finite.
  // Codes: ±FLT_MAX / s = ±448 -> 0x7E / 0xFE; 1 / s ~ 1.3e-36 -> 0x00.
  // Dequantized: 448 * s = FLT_MAX exactly: no Inf.
  // CHECK: [126,   0,   254,   0]
  // CHECK: [1,   0,   0,   0]
  %big = arith.constant dense<[[0x7F7FFFFF, 1.0, 0xFF7FFFFF, 0.0]]> : tensor<1x4xf32>
  %big_s = arith.constant 0x7B124924 : i32
  call @quantize_row(%big, %eps0, %big_s) : (tensor<1x4xf32>, f32, i32) -> ()

  // amax = 448 * 2^-126: amax / 448 = 2^-126, the smallest normal f32
  // (0x00800000), a valid scale. Codes: 448 -> 0x7E, 224 -> 0x76, 0, 0.
  // CHECK: [126,   118,   0,   0]
  // CHECK: [1,   0,   0,   0]
  %edge = arith.constant dense<[[0x04E00000, 0x04600000, 0.0, 0.0]]> : tensor<1x4xf32>
  %edge_s = arith.constant 0x00800000 : i32
  call @quantize_row(%edge, %eps0, %edge_s) : (tensor<1x4xf32>, f32, i32) -> ()

  // amax = 447 * 2^-126 (eps = 0): amax / 448 is subnormal, not a normal
  // f32, so the scale is 1 (0x3F800000); a flush-to-zero GPU would divide by
  // 0 here. Codes: the values themselves (~1e-36) round to zero, keeping
  // their sign: +0 = 0x00, -0 = 0x80 (as NVIDIA's cvt does).
  // CHECK: [0,   0,   128,   0]
  // CHECK: [1,   0,   0,   0]
  %sub = arith.constant dense<[[0x04DF8000, 0.0, 0x84DF8000, 0.0]]> : tensor<1x4xf32>
  %one_s = arith.constant 0x3F800000 : i32
  call @quantize_row(%sub, %eps0, %one_s) : (tensor<1x4xf32>, f32, i32) -> ()

  // +Inf in the block: amax is Inf, the scale is 1; +Inf saturates to 448
  // (0x7E), 1 -> 0x38, 2 -> 0x40, -3 -> 0xC4. Dequantized 448: finite.
  // CHECK: [126,   56,   64,   196]
  // CHECK: [1,   0,   0,   0]
  %inf = arith.constant dense<[[0x7F800000, 1.0, 2.0, -3.0]]> : tensor<1x4xf32>
  call @quantize_row(%inf, %eps0, %one_s) : (tensor<1x4xf32>, f32, i32) -> ()

  // pow2 scale at the top of f32: the smallest power of two >= 2396745 * 2^98
  // is 2^120 (0x7B800000), stored in E8M0 as 120 + 127 = 247. Codes:
  // ±FLT_MAX / 2^120 = ±(2^24 - 1) / 2^16 = ±255.99998 -> ±256 = 0x78 / 0xF8.
  // CHECK: [120,   0,   248,   0]
  // CHECK: [247]
  %qp = fp8.quantize %big {eps = 0.0 : f32, scale_mode = #fp8.scale_mode<pow2>} : tensor<1x4xf32> -> !rowe8
  %dp, %sp = fp8.disassemble %qp : !rowe8
  call @print_codes(%dp) : (tensor<1x4xf8E4M3FN>) -> ()
  %spi = arith.bitcast %sp : tensor<1x1xf8E8M0FNU> to tensor<1x1xi8>
  %spu = arith.extui %spi : tensor<1x1xi8> to tensor<1x1xi32>
  %spm = bufferization.to_buffer %spu : tensor<1x1xi32> to memref<1x1xi32>
  %spc = memref.cast %spm : memref<1x1xi32> to memref<*xi32>
  call @printMemrefI32(%spc) : (memref<*xi32>) -> ()

  // Huge K: K = 65536, every A and B code 448, scales 1. Each promotion
  // interval sums 128 * 448^2 = 49 * 2^19 exactly; the f32 total is
  // 512 * 49 * 2^19 = 49 * 2^28 = 13153337344 (0x50440000), exact: the
  // accumulator neither overflows nor rounds (an f16 one overflows at once).
  // CHECK: [1,   0,   0,   0]
  %a = arith.constant dense<448.0> : tensor<1x65536xf8E4M3FN>
  %sa = arith.constant dense<1.0> : tensor<1x512xf32>
  %sb = arith.constant dense<1.0> : tensor<1x512xf32>
  %qa = fp8.assemble %a, %sa : tensor<1x65536xf8E4M3FN>, tensor<1x512xf32> -> !fp8.scaled<1x65536xf8E4M3FN, block = [1, 128], scale = f32>
  %qb = fp8.assemble %a, %sb : tensor<1x65536xf8E4M3FN>, tensor<1x512xf32> -> !fp8.scaled<1x65536xf8E4M3FN, block = [128, 128], scale = f32>
  %dmm = fp8.scaled_matmul %qa, %qb : !fp8.scaled<1x65536xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<1x65536xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<1x1xf32>
  %want = arith.constant 0x50440000 : i32
  %c0 = arith.constant 0 : index
  %dv = tensor.extract %dmm[%c0, %c0] : tensor<1x1xf32>
  %dvb = arith.bitcast %dv : f32 to i32
  %ok = arith.cmpi eq, %dvb, %want : i32
  %oki = arith.extui %ok : i1 to i32
  %z = arith.constant 0 : i32
  %r = tensor.from_elements %oki, %z, %z, %z : tensor<1x4xi32>
  call @print_i32(%r) : (tensor<1x4xi32>) -> ()

  // E8M0 scale code 0 is 2^-127 (OCP MX v1.0: the smallest scale, not
  // zero), a subnormal f32 (0x00400000). Codes 448, 1.0, 0, -0 dequantize
  // to 448 * 2^-127 = 1.75 * 2^-119 (0x04600000 = 73400320), 2^-127
  // (0x00400000 = 4194304), 0 and -0 (0x80000000 = -2147483648).
  // CHECK: [73400320,   4194304,   0,   -2147483648]
  %e8c = arith.constant dense<[[126, 56, 0, -128]]> : tensor<1x4xi8>
  %e8d = arith.bitcast %e8c : tensor<1x4xi8> to tensor<1x4xf8E4M3FN>
  %e8si = arith.constant dense<0> : tensor<1x1xi8>
  %e8s = arith.bitcast %e8si : tensor<1x1xi8> to tensor<1x1xf8E8M0FNU>
  %e8q = fp8.assemble %e8d, %e8s : tensor<1x4xf8E4M3FN>, tensor<1x1xf8E8M0FNU> -> !rowe8
  %e8v = fp8.dequantize %e8q : !rowe8 -> tensor<1x4xf32>
  %e8b = arith.bitcast %e8v : tensor<1x4xf32> to tensor<1x4xi32>
  call @print_i32(%e8b) : (tensor<1x4xi32>) -> ()
  return
}
