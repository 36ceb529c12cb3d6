// Zero-size problems through fp8-cpu-pipeline, run on the CPU: an op whose
// result has a static dimension of 0 (M = 0 tokens, an empty group slab,
// N = 0) computes an empty result, and a matmul with K = 0 (an empty sum) is
// its accumulator C, converted to the result type as the promotion converts
// it (f32, then RNE to bf16), or +0.0 without C. Each case prints its
// result's sizes (an empty result has no data) or its values, derived by
// hand from the inputs.
//
// RUN: fp8-opt %s --fp8-cpu-pipeline | %fp8_run | FileCheck %s
// RUN: fp8-opt %s --fp8-cpu-pipeline=tiled=false | %fp8_run | FileCheck %s

!a0 = !fp8.scaled<0x256xf8E4M3FN, block = [1, 128], scale = f32>
!w = !fp8.scaled<40x256xf8E4M3FN, block = [128, 128], scale = f32>
!ak0 = !fp8.scaled<2x0xf8E4M3FN, block = [1, 128], scale = f32>
!wk0 = !fp8.scaled<3x0xf8E4M3FN, block = [128, 128], scale = f32>
!akd = !fp8.scaled<2x?xf8E4M3FN, block = [1, 128], scale = f32>
!wkd = !fp8.scaled<3x?xf8E4M3FN, block = [128, 128], scale = f32>
!ga0 = !fp8.scaled<4x0x256xf8E4M3FN, block = [1, 1, 128], scale = f32>
!gw = !fp8.scaled<4x40x256xf8E4M3FN, block = [1, 128, 128], scale = f32>
!gak0 = !fp8.scaled<2x3x0xf8E4M3FN, block = [1, 1, 128], scale = f32>
!gwk0 = !fp8.scaled<2x2x0xf8E4M3FN, block = [1, 128, 128], scale = f32>
!cak0 = !fp8.scaled<4x0xf8E4M3FN, block = [1, 128], scale = f32>

func.func private @printMemrefF32(memref<*xf32>)

func.func @print2(%t: tensor<?x?xf32>) {
  %m = bufferization.to_buffer %t : tensor<?x?xf32> to memref<?x?xf32>
  %c = memref.cast %m : memref<?x?xf32> to memref<*xf32>
  call @printMemrefF32(%c) : (memref<*xf32>) -> ()
  return
}

// The sizes of an empty result (it has no data to print).
func.func @sizes2(%t: tensor<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %t, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %t, %c1 : tensor<?x?xf32>
  vector.print str "sizes "
  vector.print %d0 : index punctuation <comma>
  vector.print %d1 : index
  return
}

func.func @sizes3(%t: tensor<?x?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %d0 = tensor.dim %t, %c0 : tensor<?x?x?xf32>
  %d1 = tensor.dim %t, %c1 : tensor<?x?x?xf32>
  %d2 = tensor.dim %t, %c2 : tensor<?x?x?xf32>
  vector.print str "sizes "
  vector.print %d0 : index punctuation <comma>
  vector.print %d1 : index punctuation <comma>
  vector.print %d2 : index
  return
}

func.func @print3(%t: tensor<?x?x?xf32>) {
  %m = bufferization.to_buffer %t : tensor<?x?x?xf32> to memref<?x?x?xf32>
  %c = memref.cast %m : memref<?x?x?xf32> to memref<*xf32>
  call @printMemrefF32(%c) : (memref<*xf32>) -> ()
  return
}

// A [0, 256] x B [40, 256]: D is [0, 40].
func.func @m0(%b: !w) {
  %a = tensor.empty() : tensor<0x256xf8E4M3FN>
  %s = tensor.empty() : tensor<0x2xf32>
  %qa = fp8.assemble %a, %s : tensor<0x256xf8E4M3FN>, tensor<0x2xf32> -> !a0
  %d = fp8.scaled_matmul %qa, %b : !a0, !w -> tensor<0x40xf32>
  %p = tensor.cast %d : tensor<0x40xf32> to tensor<?x?xf32>
  call @sizes2(%p) : (tensor<?x?xf32>) -> ()
  return
}
// CHECK-LABEL: m0
// CHECK-NEXT: sizes 0, 40

// M dynamic, 0 at run time: quantize and matmul run no row.
func.func @m0_dynamic(%b: !w) {
  %x = tensor.empty() : tensor<0x256xf32>
  %xd = tensor.cast %x : tensor<0x256xf32> to tensor<?x256xf32>
  %qa = fp8.quantize %xd : tensor<?x256xf32> -> !fp8.scaled<?x256xf8E4M3FN, block = [1, 128], scale = f32>
  %d = fp8.scaled_matmul %qa, %b : !fp8.scaled<?x256xf8E4M3FN, block = [1, 128], scale = f32>, !w -> tensor<?x40xf32>
  %p = tensor.cast %d : tensor<?x40xf32> to tensor<?x?xf32>
  call @sizes2(%p) : (tensor<?x?xf32>) -> ()
  return
}
// CHECK-LABEL: m0_dynamic
// CHECK-NEXT: sizes 0, 40

// K = 0 with an f32 C, bf16 result: D = bf16(C), RNE:
//   1 + 3 * 2^-9 -> 1 + 2^-7 = 1.0078125 (above the half-way point),
//   1 + 2^-8 -> 1 (a tie, to even), -0.0 stays -0.0 (no product is added),
//   3.5 and -2 exactly, 1e-3 (f32 0x3A83126F) -> bf16 0x3A83 = 2^-10 * (1 + 3/128)
//   = 0.000999451 (rounded down: 0x126F < 0x8000).
func.func @k0_c_bf16(%c: tensor<2x3xf32>) {
  %a = tensor.empty() : tensor<2x0xf8E4M3FN>
  %sa = tensor.empty() : tensor<2x0xf32>
  %b = tensor.empty() : tensor<3x0xf8E4M3FN>
  %sb = tensor.empty() : tensor<1x0xf32>
  %qa = fp8.assemble %a, %sa : tensor<2x0xf8E4M3FN>, tensor<2x0xf32> -> !ak0
  %qb = fp8.assemble %b, %sb : tensor<3x0xf8E4M3FN>, tensor<1x0xf32> -> !wk0
  %d = fp8.scaled_matmul %qa, %qb acc(%c : tensor<2x3xf32>) : !ak0, !wk0 -> tensor<2x3xbf16>
  %w = arith.extf %d : tensor<2x3xbf16> to tensor<2x3xf32>
  %p = tensor.cast %w : tensor<2x3xf32> to tensor<?x?xf32>
  call @print2(%p) : (tensor<?x?xf32>) -> ()
  return
}
// CHECK-LABEL: k0_c_bf16
// CHECK:      [1.00781, 1, -0]
// CHECK-NEXT: [3.5, -2, 0.000999451]

// K = 0 without C: +0.0 everywhere.
func.func @k0_zero() {
  %a = tensor.empty() : tensor<2x0xf8E4M3FN>
  %sa = tensor.empty() : tensor<2x0xf32>
  %b = tensor.empty() : tensor<3x0xf8E4M3FN>
  %sb = tensor.empty() : tensor<1x0xf32>
  %qa = fp8.assemble %a, %sa : tensor<2x0xf8E4M3FN>, tensor<2x0xf32> -> !ak0
  %qb = fp8.assemble %b, %sb : tensor<3x0xf8E4M3FN>, tensor<1x0xf32> -> !wk0
  %d = fp8.scaled_matmul %qa, %qb : !ak0, !wk0 -> tensor<2x3xf32>
  %p = tensor.cast %d : tensor<2x3xf32> to tensor<?x?xf32>
  call @print2(%p) : (tensor<?x?xf32>) -> ()
  return
}
// CHECK-LABEL: k0_zero
// CHECK:      [0, 0, 0]
// CHECK-NEXT: [0, 0, 0]

// K dynamic, 0 at run time: the general lowering's loops run no interval,
// D = C exactly (f32 result).
func.func @k0_dynamic(%c: tensor<2x3xf32>) {
  %a = tensor.empty() : tensor<2x0xf8E4M3FN>
  %sa = tensor.empty() : tensor<2x0xf32>
  %b = tensor.empty() : tensor<3x0xf8E4M3FN>
  %sb = tensor.empty() : tensor<1x0xf32>
  %ad = tensor.cast %a : tensor<2x0xf8E4M3FN> to tensor<2x?xf8E4M3FN>
  %sad = tensor.cast %sa : tensor<2x0xf32> to tensor<2x?xf32>
  %bd = tensor.cast %b : tensor<3x0xf8E4M3FN> to tensor<3x?xf8E4M3FN>
  %sbd = tensor.cast %sb : tensor<1x0xf32> to tensor<1x?xf32>
  %qa = fp8.assemble %ad, %sad : tensor<2x?xf8E4M3FN>, tensor<2x?xf32> -> !akd
  %qb = fp8.assemble %bd, %sbd : tensor<3x?xf8E4M3FN>, tensor<1x?xf32> -> !wkd
  %d = fp8.scaled_matmul %qa, %qb acc(%c : tensor<2x3xf32>) : !akd, !wkd -> tensor<2x3xf32>
  %p = tensor.cast %d : tensor<2x3xf32> to tensor<?x?xf32>
  call @print2(%p) : (tensor<?x?xf32>) -> ()
  return
}
// CHECK-LABEL: k0_dynamic
// CHECK:      [1.00586, 1.00391, -0]
// CHECK-NEXT: [3.5, -2, 0.001]

// Masked grouped, static M = 0 (with counts and without): D is [4, 0, 40].
func.func @grouped_m0(%b: !gw) {
  %a = tensor.empty() : tensor<4x0x256xf8E4M3FN>
  %s = tensor.empty() : tensor<4x0x2xf32>
  %qa = fp8.assemble %a, %s : tensor<4x0x256xf8E4M3FN>, tensor<4x0x2xf32> -> !ga0
  %d = fp8.grouped_scaled_matmul masked %qa, %b : !ga0, !gw -> tensor<4x0x40xf32>
  %p = tensor.cast %d : tensor<4x0x40xf32> to tensor<?x?x?xf32>
  call @sizes3(%p) : (tensor<?x?x?xf32>) -> ()
  %n = arith.constant dense<[0, 3, -1, 0]> : tensor<4xi32>
  %e = fp8.grouped_scaled_matmul masked %qa, %b counts(%n : tensor<4xi32>) : !ga0, !gw -> tensor<4x0x40xbf16>
  %w = arith.extf %e : tensor<4x0x40xbf16> to tensor<4x0x40xf32>
  %q = tensor.cast %w : tensor<4x0x40xf32> to tensor<?x?x?xf32>
  call @sizes3(%q) : (tensor<?x?x?xf32>) -> ()
  return
}
// CHECK-LABEL: grouped_m0
// CHECK-NEXT: sizes 4, 0, 40
// CHECK-NEXT: sizes 4, 0, 40

// Masked grouped, K = 0, counts [2, 0] (of M = 3) with C: the computed rows
// are C, the rest +0.0 (as for any K): group 0 rows 0-1 = C, row 2 = 0;
// group 1 all 0.
func.func @grouped_k0_masked() {
  %a = tensor.empty() : tensor<2x3x0xf8E4M3FN>
  %sa = tensor.empty() : tensor<2x3x0xf32>
  %b = tensor.empty() : tensor<2x2x0xf8E4M3FN>
  %sb = tensor.empty() : tensor<2x1x0xf32>
  %qa = fp8.assemble %a, %sa : tensor<2x3x0xf8E4M3FN>, tensor<2x3x0xf32> -> !gak0
  %qb = fp8.assemble %b, %sb : tensor<2x2x0xf8E4M3FN>, tensor<2x1x0xf32> -> !gwk0
  %n = arith.constant dense<[2, 0]> : tensor<2xi32>
  %c = arith.constant dense<[[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], [[7.0, 8.0], [9.0, 10.0], [11.0, 12.0]]]> : tensor<2x3x2xf32>
  %d = fp8.grouped_scaled_matmul masked %qa, %qb counts(%n : tensor<2xi32>) acc(%c : tensor<2x3x2xf32>) : !gak0, !gwk0 -> tensor<2x3x2xf32>
  %p = tensor.cast %d : tensor<2x3x2xf32> to tensor<?x?x?xf32>
  call @print3(%p) : (tensor<?x?x?xf32>) -> ()
  return
}
// CHECK-LABEL: grouped_k0_masked
// CHECK:      {{\[}}[1, 2],
// CHECK-NEXT:   [3, 4],
// CHECK-NEXT:   [0, 0]],
// CHECK-NEXT:  {{\[}}[0, 0],
// CHECK-NEXT:   [0, 0],
// CHECK-NEXT:   [0, 0]]]

// Contiguous grouped, K = 0, group_ids [1, 1, -1, 0] (m_alignment 1) with
// C: rows of a group are C, the padding row +0.0.
func.func @grouped_k0_contiguous() {
  %a = tensor.empty() : tensor<4x0xf8E4M3FN>
  %sa = tensor.empty() : tensor<4x0xf32>
  %b = tensor.empty() : tensor<2x2x0xf8E4M3FN>
  %sb = tensor.empty() : tensor<2x1x0xf32>
  %qa = fp8.assemble %a, %sa : tensor<4x0xf8E4M3FN>, tensor<4x0xf32> -> !cak0
  %qb = fp8.assemble %b, %sb : tensor<2x2x0xf8E4M3FN>, tensor<2x1x0xf32> -> !gwk0
  %ids = arith.constant dense<[1, 1, -1, 0]> : tensor<4xi32>
  %c = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]> : tensor<4x2xf32>
  %d = fp8.grouped_scaled_matmul contiguous %qa, %qb group_ids(%ids : tensor<4xi32>) acc(%c : tensor<4x2xf32>) {m_alignment = 1 : i64} : !cak0, !gwk0 -> tensor<4x2xf32>
  %p = tensor.cast %d : tensor<4x2xf32> to tensor<?x?xf32>
  call @print2(%p) : (tensor<?x?xf32>) -> ()
  return
}
// CHECK-LABEL: grouped_k0_contiguous
// CHECK:      [1, 2],
// CHECK-NEXT: [3, 4],
// CHECK-NEXT: [0, 0],
// CHECK-NEXT: [7, 8]]

// Quantize, requantize (transposed) and dequantize of an empty [0, 256]
// tensor, and of an empty [3, 0] one: empty results of the permuted sizes.
func.func @quantize0() {
  %x = tensor.empty() : tensor<0x256xf32>
  %q = fp8.quantize %x : tensor<0x256xf32> -> !a0
  %t = fp8.requantize %q {permutation = array<i64: 1, 0>} : !a0 -> !fp8.scaled<256x0xf8E4M3FN, block = [1, 128], scale = f32>
  %d = fp8.dequantize %t : !fp8.scaled<256x0xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<256x0xf32>
  %p = tensor.cast %d : tensor<256x0xf32> to tensor<?x?xf32>
  call @sizes2(%p) : (tensor<?x?xf32>) -> ()
  %y = tensor.empty() : tensor<3x0xbf16>
  %qy = fp8.quantize %y : tensor<3x0xbf16> -> !fp8.scaled<3x0xf8E5M2, block = [1, 128], scale = f32>
  %dy = fp8.dequantize %qy : !fp8.scaled<3x0xf8E5M2, block = [1, 128], scale = f32> -> tensor<3x0xf32>
  %py = tensor.cast %dy : tensor<3x0xf32> to tensor<?x?xf32>
  call @sizes2(%py) : (tensor<?x?xf32>) -> ()
  return
}
// CHECK-LABEL: quantize0
// CHECK-NEXT: sizes 256, 0
// CHECK-NEXT: sizes 3, 0

func.func @main() {
  %x = arith.constant dense<1.0> : tensor<40x256xf32>
  %w = fp8.quantize %x : tensor<40x256xf32> -> !w
  %gx = arith.constant dense<1.0> : tensor<4x40x256xf32>
  %gw = fp8.quantize %gx : tensor<4x40x256xf32> -> !gw
  // 1 + 3 * 2^-9, 1 + 2^-8, -0.0; 3.5, -2, 1e-3
  %c = arith.constant dense<[[1.005859375, 1.00390625, -0.0], [3.5, -2.0, 0.001]]> : tensor<2x3xf32>
  vector.print str "m0\n"
  call @m0(%w) : (!w) -> ()
  vector.print str "m0_dynamic\n"
  call @m0_dynamic(%w) : (!w) -> ()
  vector.print str "k0_c_bf16\n"
  call @k0_c_bf16(%c) : (tensor<2x3xf32>) -> ()
  vector.print str "k0_zero\n"
  call @k0_zero() : () -> ()
  vector.print str "k0_dynamic\n"
  call @k0_dynamic(%c) : (tensor<2x3xf32>) -> ()
  vector.print str "grouped_m0\n"
  call @grouped_m0(%gw) : (!gw) -> ()
  vector.print str "grouped_k0_masked\n"
  call @grouped_k0_masked() : () -> ()
  vector.print str "grouped_k0_contiguous\n"
  call @grouped_k0_contiguous() : () -> ()
  vector.print str "quantize0\n"
  call @quantize0() : () -> ()
  return
}
