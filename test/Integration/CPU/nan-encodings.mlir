// The NaN encodings of the GEMM results (docs/numerics.md, "NaN encodings"):
// the GPU returns NVIDIA's canonical NaN for every NaN its f32 arithmetic
// produces, 0x7FFFFFFF, whatever NaN went in (a NaN code of either sign,
// Inf - Inf, Inf * 0, a NaN in C), and cvt.rn.bf16.f32 gives 0x7FFF for any
// NaN; measured on an H200 (2026-12-04: every NaN of an f32 GEMM result
// 0x7FFFFFFF). The CPU's f32 arithmetic keeps payloads (x86: 0x7FC00000 |
// sign, 0xFFC00000 for Inf - Inf or Inf * 0), so the reference lowering
// canonicalises the promotion FMA's result and the bf16 rounding. Results
// are printed as their bits (i32); every expected value is derived by hand
// below, none printed by the code under test.
//
// RUN: fp8-opt %s --fp8-cpu-pipeline | %fp8_run | FileCheck %s
// RUN: fp8-opt %s --fp8-cpu-pipeline=tiled=false | %fp8_run | FileCheck %s
// RUN: fp8-opt %s --fp8-cpu-pipeline=accumulator=sm90 | %fp8_run | FileCheck %s
// RUN: fp8-opt %s --fp8-cpu-pipeline="accumulator=sm90 tiled=false" | %fp8_run | FileCheck %s
//
// A (E5M2, 5x64, block [1, 128], scales 1): 1.0 (0x3C) everywhere except
//   row 1: k = 3 is the NaN code 0x7D;  row 2: k = 3 is the NaN code 0xFF
//   (sign set);  row 3: k = 0 is +Inf (0x7C), k = 1 is -Inf (0xFC);
//   row 4: k = 0 is +Inf.
// B (E4M3FN, 2x64, block [128, 128], scale 1): 1.0 (0x38) everywhere except
//   B[1, 0] = +0.
// D[m, n] = sum_k A[m, k] B[n, k]:
//   row 0: 64 = 0x42800000 = 1115684864, 63 = 0x427C0000 = 1115422720
//   rows 1, 2: NaN, NaN; row 3: Inf - Inf = NaN, and Inf * 0 = NaN
//   row 4: +Inf = 0x7F800000 = 2139095040, Inf * 0 = NaN
//   NaN: 0x7FFFFFFF = 2147483647.
// bf16: 64 = 0x4280 = 17024, 63 = 0x427C = 17020, +Inf 0x7F80 = 32640,
//   NaN 0x7FFF = 32767.

!a = !fp8.scaled<5x64xf8E5M2, block = [1, 128], scale = f32>
!b = !fp8.scaled<2x64xf8E4M3FN, block = [128, 128], scale = f32>
!ak0 = !fp8.scaled<5x0xf8E5M2, block = [1, 128], scale = f32>
!bk0 = !fp8.scaled<2x0xf8E4M3FN, block = [128, 128], scale = f32>

func.func private @printMemrefI32(memref<*xi32>)

func.func @print_bits(%t: tensor<5x2xi32>) {
  %m = bufferization.to_buffer %t : tensor<5x2xi32> to memref<5x2xi32>
  %c = memref.cast %m : memref<5x2xi32> to memref<*xi32>
  call @printMemrefI32(%c) : (memref<*xi32>) -> ()
  return
}

func.func @print_f32(%d: tensor<5x2xf32>) {
  %i = arith.bitcast %d : tensor<5x2xf32> to tensor<5x2xi32>
  call @print_bits(%i) : (tensor<5x2xi32>) -> ()
  return
}

func.func @print_bf16(%d: tensor<5x2xbf16>) {
  %i = arith.bitcast %d : tensor<5x2xbf16> to tensor<5x2xi16>
  %u = arith.extui %i : tensor<5x2xi16> to tensor<5x2xi32>
  call @print_bits(%u) : (tensor<5x2xi32>) -> ()
  return
}

func.func @operands() -> (!a, !b) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %one5 = arith.constant 0x3C : i8
  %nan = arith.constant 0x7D : i8
  %nnan = arith.constant 0xFF : i8
  %inf = arith.constant 0x7C : i8
  %ninf = arith.constant 0xFC : i8
  %zero = arith.constant 0 : i8
  %a0 = tensor.splat %one5 : tensor<5x64xi8>
  %a1 = tensor.insert %nan into %a0[%c1, %c3] : tensor<5x64xi8>
  %a2 = tensor.insert %nnan into %a1[%c2, %c3] : tensor<5x64xi8>
  %a3 = tensor.insert %inf into %a2[%c3, %c0] : tensor<5x64xi8>
  %a4 = tensor.insert %ninf into %a3[%c3, %c1] : tensor<5x64xi8>
  %a5 = tensor.insert %inf into %a4[%c4, %c0] : tensor<5x64xi8>
  %ac = arith.bitcast %a5 : tensor<5x64xi8> to tensor<5x64xf8E5M2>
  %one4 = arith.constant 0x38 : i8
  %b0 = tensor.splat %one4 : tensor<2x64xi8>
  %b1 = tensor.insert %zero into %b0[%c1, %c0] : tensor<2x64xi8>
  %bc = arith.bitcast %b1 : tensor<2x64xi8> to tensor<2x64xf8E4M3FN>
  %sa = arith.constant dense<1.0> : tensor<5x1xf32>
  %sb = arith.constant dense<1.0> : tensor<1x1xf32>
  %qa = fp8.assemble %ac, %sa : tensor<5x64xf8E5M2>, tensor<5x1xf32> -> !a
  %qb = fp8.assemble %bc, %sb : tensor<2x64xf8E4M3FN>, tensor<1x1xf32> -> !b
  return %qa, %qb : !a, !b
}

func.func @main() {
  %qa, %qb = call @operands() : () -> (!a, !b)

  %d = fp8.scaled_matmul %qa, %qb : !a, !b -> tensor<5x2xf32>
  call @print_f32(%d) : (tensor<5x2xf32>) -> ()
  // CHECK:      [1115684864,   1115422720]
  // CHECK-NEXT: [2147483647,   2147483647]
  // CHECK-NEXT: [2147483647,   2147483647]
  // CHECK-NEXT: [2147483647,   2147483647]
  // CHECK-NEXT: [2139095040,   2147483647]

  %db = fp8.scaled_matmul %qa, %qb : !a, !b -> tensor<5x2xbf16>
  call @print_bf16(%db) : (tensor<5x2xbf16>) -> ()
  // CHECK:      [17024,   17020]
  // CHECK-NEXT: [32767,   32767]
  // CHECK-NEXT: [32767,   32767]
  // CHECK-NEXT: [32767,   32767]
  // CHECK-NEXT: [32640,   32767]

  // C with NaN payloads: row 0 holds 0x7FC00001 (2143289345) and
  // 0xFFC00000 (-4194304); the other rows +0. acc = fma(partial, 1, C):
  // row 0 is NaN + 64 and NaN + 63, the canonical NaN; the rest as above.
  %ci = arith.constant dense<[[2143289345, -4194304], [0, 0], [0, 0], [0, 0], [0, 0]]> : tensor<5x2xi32>
  %c = arith.bitcast %ci : tensor<5x2xi32> to tensor<5x2xf32>
  %dc = fp8.scaled_matmul %qa, %qb acc(%c : tensor<5x2xf32>) : !a, !b -> tensor<5x2xf32>
  call @print_f32(%dc) : (tensor<5x2xf32>) -> ()
  // CHECK:      [2147483647,   2147483647]
  // CHECK-NEXT: [2147483647,   2147483647]
  // CHECK-NEXT: [2147483647,   2147483647]
  // CHECK-NEXT: [2147483647,   2147483647]
  // CHECK-NEXT: [2139095040,   2147483647]

  // K = 0 (an empty sum, D = C): no arithmetic, so an f32 result is C's
  // bits, payloads included (the GPU moves them); a bf16 result is C
  // rounded by cvt.rn.bf16.f32: 0x7FFF for either NaN. Rows 1-4: +0.
  %ea = tensor.empty() : tensor<5x0xf8E5M2>
  %esa = tensor.empty() : tensor<5x0xf32>
  %eb = tensor.empty() : tensor<2x0xf8E4M3FN>
  %esb = tensor.empty() : tensor<1x0xf32>
  %qa0 = fp8.assemble %ea, %esa : tensor<5x0xf8E5M2>, tensor<5x0xf32> -> !ak0
  %qb0 = fp8.assemble %eb, %esb : tensor<2x0xf8E4M3FN>, tensor<1x0xf32> -> !bk0
  %d0 = fp8.scaled_matmul %qa0, %qb0 acc(%c : tensor<5x2xf32>) : !ak0, !bk0 -> tensor<5x2xf32>
  call @print_f32(%d0) : (tensor<5x2xf32>) -> ()
  // CHECK:      [2143289345,   -4194304]
  // CHECK-NEXT: [0,   0]
  %d0b = fp8.scaled_matmul %qa0, %qb0 acc(%c : tensor<5x2xf32>) : !ak0, !bk0 -> tensor<5x2xbf16>
  call @print_bf16(%d0b) : (tensor<5x2xbf16>) -> ()
  // CHECK:      [32767,   32767]
  // CHECK-NEXT: [0,   0]
  // A bf16 C into a bf16 result: rounded as well (0xFFC1 -> 0x7FFF).
  %cbi = arith.constant dense<[[-63, 16256], [0, 0], [0, 0], [0, 0], [0, 0]]> : tensor<5x2xi16>
  %cb = arith.bitcast %cbi : tensor<5x2xi16> to tensor<5x2xbf16>
  %d0bb = fp8.scaled_matmul %qa0, %qb0 acc(%cb : tensor<5x2xbf16>) : !ak0, !bk0 -> tensor<5x2xbf16>
  call @print_bf16(%d0bb) : (tensor<5x2xbf16>) -> ()
  // 0xFFC1 = -63 as i16; 16256 = 0x3F80 = 1.0 stays.
  // CHECK:      [32767,   16256]
  // CHECK-NEXT: [0,   0]
  return
}
