// The emulated tensor-core accumulators of fp8-lower-to-linalg (the generic
// accumulator-bits=14, DeepSeek-V3 §3.5.2; the hardware models sm90 and
// sm89) against the exact FP32 partial sums, run on the CPU. Expected values
// are derived by hand in the comments (the model's rules: Passes.td,
// docs/numerics.md).
//
// RUN: fp8-opt %s --fp8-cpu-pipeline | %fp8_run | FileCheck %s --check-prefix=EXACT
// RUN: fp8-opt %s --fp8-cpu-pipeline=accumulator-bits=14 | %fp8_run | FileCheck %s --check-prefix=ACC14
// RUN: fp8-opt %s --fp8-cpu-pipeline=accumulator=sm90 | %fp8_run | FileCheck %s --check-prefix=SM90
// RUN: fp8-opt %s --fp8-cpu-pipeline=accumulator=sm89 | %fp8_run | FileCheck %s --check-prefix=SM89
// RUN: not fp8-opt %s --fp8-lower-to-linalg=accumulator-bits=25 2>&1 | FileCheck %s --check-prefix=BAD

// BAD: fp8-lower-to-linalg: option accumulator-bits=25 is out of range: expected 0 (exact f32 sums) or 1..24

!a = !fp8.scaled<1x256xf8E4M3FN, block = [1, 256], scale = f32>

func.func private @printMemrefF32(memref<*xf32>)

func.func @print_f32(%t: tensor<?x?xf32>) {
  %m = bufferization.to_buffer %t : tensor<?x?xf32> to memref<?x?xf32>
  %c = memref.cast %m : memref<?x?xf32> to memref<*xf32>
  call @printMemrefF32(%c) : (memref<*xf32>) -> ()
  return
}

// A = B = [16, 0.125 x 255], one pow2 block: scale 2^-4, codes 256 and 2,
// products (in code units) 65536 once and 4 255 times.
//   exact:            (65536 + 255 * 4) * 2^-8 = 259.984375
//   14 bits, one interval (promote_interval = 256): in every 32-product
//     group the running sum is >= 65536 = 2^16, so the grid is 2^(16-13) = 8
//     and each 4 truncates to 0: 65536 * 2^-8 = 256
//   14 bits, promotion every 128: the first interval loses its 4s (256), the
//     second (max exponent 2^2 .. 2^8) keeps all 128 of them: 128 * 4 * 2^-8
//     = 2, total 258
//   sm90 / sm89: the same (alignment exponents 8 + 8 = 16 for 256 * 256,
//     1 + 1 = 2 for 2 * 2; the running sum's own exponent 16 .. 2^2 .. 2^8;
//     the grid 2^(E-13) is the same as above)
func.func @promotion() {
  %big = arith.constant dense<16.0> : tensor<1x1xf32>
  %small = arith.constant dense<0.125> : tensor<1x255xf32>
  %x = tensor.concat dim(1) %big, %small : (tensor<1x1xf32>, tensor<1x255xf32>) -> tensor<1x256xf32>
  %q = fp8.quantize %x {scale_mode = #fp8.scale_mode<pow2>} : tensor<1x256xf32> -> !a
  %d1 = fp8.scaled_matmul %q, %q {promote_interval = 256} : !a, !a -> tensor<1x1xf32>
  %d2 = fp8.scaled_matmul %q, %q {promote_interval = 128} : !a, !a -> tensor<1x1xf32>
  %d = tensor.concat dim(1) %d1, %d2 : (tensor<1x1xf32>, tensor<1x1xf32>) -> tensor<1x2xf32>
  %dd = tensor.cast %d : tensor<1x2xf32> to tensor<?x?xf32>
  call @print_f32(%dd) : (tensor<?x?xf32>) -> ()
  return
}
// EXACT-LABEL: promotion
// EXACT:       [259.984, 259.984]
// ACC14-LABEL: promotion
// ACC14:       [256, 258]
// SM90-LABEL:  promotion
// SM90:        [256, 258]
// SM89-LABEL:  promotion
// SM89:        [256, 258]

// NaN propagates through the emulated accumulator too (case 8).
func.func @nan_row() {
  %nan = arith.constant 0x7FC00000 : f32
  %ones = arith.constant dense<1.0> : tensor<2x128xf32>
  %i0 = arith.constant 0 : index
  %a = tensor.insert %nan into %ones[%i0, %i0] : tensor<2x128xf32>
  %qa = fp8.quantize %a : tensor<2x128xf32> -> !fp8.scaled<2x128xf8E4M3FN, block = [1, 128], scale = f32>
  %qb = fp8.quantize %ones : tensor<2x128xf32> -> !fp8.scaled<2x128xf8E4M3FN, block = [128, 128], scale = f32>
  %d = fp8.scaled_matmul %qa, %qb
      : !fp8.scaled<2x128xf8E4M3FN, block = [1, 128], scale = f32>,
        !fp8.scaled<2x128xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<2x2xf32>
  %dd = tensor.cast %d : tensor<2x2xf32> to tensor<?x?xf32>
  call @print_f32(%dd) : (tensor<?x?xf32>) -> ()
  return
}
// EXACT-LABEL: nan_row
// EXACT:       [nan, nan]
// EXACT-NEXT:  [128, 128]
// ACC14-LABEL: nan_row
// ACC14:       [nan, nan]
// ACC14-NEXT:  [128, 128]
// SM90-LABEL:  nan_row
// SM90:        [nan, nan]
// SM90-NEXT:   [128, 128]

!s32 = !fp8.scaled<1x32xf8E4M3FN, block = [1, 32], scale = f32>
!s64 = !fp8.scaled<1x64xf8E4M3FN, block = [1, 64], scale = f32>

// Alignment by ea + eb, not by the normalised product. E4M3 codes given by
// value (scales 1), one group of 32 (the rest zero products):
//   1.5 * 1.5 = 2.25    ea + eb = 0 + 0 = 0 (normalised exponent 1)
//   -1 * 1 (twice)      0
//   2^-6 * 2^-7 = 2^-13 -6 + -6 = -12 (2^-7 is subnormal: exponent -6)
//   2^-7 * 2^-7 = 2^-14 -12
//   exact f32:  0.25 + 2^-13 + 2^-14 = 0.25018310546875
//   sm90, sm89: E = 0, grid 2^-13: 2^-14 truncates to 0; the sum 0.25 +
//     2^-13 has 12 significant bits: 0.2501220703125
//   accumulator-bits=14 (normalised): E = 1, grid 2^-12: both small products
//     truncate to 0: 0.25
func.func @alignment() {
  %a = arith.constant dense<[[1.5, -1.0, -1.0, 0.015625, 0.0078125, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]]> : tensor<1x32xf8E4M3FN>
  %b = arith.constant dense<[[1.5, 1.0, 1.0, 0.0078125, 0.0078125, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]]> : tensor<1x32xf8E4M3FN>
  %s = arith.constant dense<1.0> : tensor<1x1xf32>
  %qa = fp8.assemble %a, %s : tensor<1x32xf8E4M3FN>, tensor<1x1xf32> -> !s32
  %qb = fp8.assemble %b, %s : tensor<1x32xf8E4M3FN>, tensor<1x1xf32> -> !s32
  %d = fp8.scaled_matmul %qa, %qb {promote_interval = 32} : !s32, !s32 -> tensor<1x1xf32>
  %dd = tensor.cast %d : tensor<1x1xf32> to tensor<?x?xf32>
  call @print_f32(%dd) : (tensor<?x?xf32>) -> ()
  return
}
// EXACT-LABEL: alignment
// EXACT:       [0.250183]
// ACC14-LABEL: alignment
// ACC14:       [0.25]
// SM90-LABEL:  alignment
// SM90:        [0.250122]
// SM89-LABEL:  alignment
// SM89:        [0.250122]

// The running accumulator takes part in the alignment. K = 64: the first
// k32 group holds 8 * 16 = 128, the second 32 products 1 * 2^-7 (ea + eb =
// 0 + -6 = -6), 0.25 in all.
//   promote_interval = 64 (the two groups chained): the second group's E is
//     the accumulator's exponent 7, grid 2^-6, every 2^-7 truncates to 0:
//     128 (sm90, accumulator-bits=14; sm89: groups of 16, the same: 128).
//     Aligning the products among themselves and adding them to the
//     accumulator afterwards would give 128.25, as the exact sums do.
//   promote_interval = 32: the second group starts from 0 and keeps its
//     0.25; promotion adds the two in f32: 128.25 with every model.
func.func @accumulator() {
  %a = arith.constant dense<[[8.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]]> : tensor<1x64xf8E4M3FN>
  %b = arith.constant dense<[[16.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0078125, 0.0078125, 0.0078125, 0.0078125, 0.0078125, 0.0078125, 0.0078125, 0.0078125, 0.0078125, 0.0078125, 0.0078125, 0.0078125, 0.0078125, 0.0078125, 0.0078125, 0.0078125, 0.0078125, 0.0078125, 0.0078125, 0.0078125, 0.0078125, 0.0078125, 0.0078125, 0.0078125, 0.0078125, 0.0078125, 0.0078125, 0.0078125, 0.0078125, 0.0078125, 0.0078125, 0.0078125]]> : tensor<1x64xf8E4M3FN>
  %s = arith.constant dense<1.0> : tensor<1x1xf32>
  %qa = fp8.assemble %a, %s : tensor<1x64xf8E4M3FN>, tensor<1x1xf32> -> !s64
  %qb = fp8.assemble %b, %s : tensor<1x64xf8E4M3FN>, tensor<1x1xf32> -> !s64
  %d1 = fp8.scaled_matmul %qa, %qb {promote_interval = 64} : !s64, !s64 -> tensor<1x1xf32>
  %d2 = fp8.scaled_matmul %qa, %qb {promote_interval = 32} : !s64, !s64 -> tensor<1x1xf32>
  %d = tensor.concat dim(1) %d1, %d2 : (tensor<1x1xf32>, tensor<1x1xf32>) -> tensor<1x2xf32>
  %dd = tensor.cast %d : tensor<1x2xf32> to tensor<?x?xf32>
  call @print_f32(%dd) : (tensor<?x?xf32>) -> ()
  return
}
// EXACT-LABEL: accumulator
// EXACT:       [128.25, 128.25]
// ACC14-LABEL: accumulator
// ACC14:       [128, 128.25]
// SM90-LABEL:  accumulator
// SM90:        [128, 128.25]
// SM89-LABEL:  accumulator
// SM89:        [128, 128.25]

// Zero products take no part in the alignment: 0 * 448 (its inputs'
// exponents -6 + 8 = 2 would set E = 2 and the grid 2^-11), 1 * 1, 2^-6 *
// 2^-7 = 2^-13. Without the zero product E = 0, grid 2^-13, and 1 + 2^-13
// has 14 significant bits: 1.0001220703125 with every model (with the zero
// product aligned: 1).
func.func @zero_products() {
  %a = arith.constant dense<[[0.0, 1.0, 0.015625, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]]> : tensor<1x32xf8E4M3FN>
  %b = arith.constant dense<[[448.0, 1.0, 0.0078125, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]]> : tensor<1x32xf8E4M3FN>
  %s = arith.constant dense<1.0> : tensor<1x1xf32>
  %qa = fp8.assemble %a, %s : tensor<1x32xf8E4M3FN>, tensor<1x1xf32> -> !s32
  %qb = fp8.assemble %b, %s : tensor<1x32xf8E4M3FN>, tensor<1x1xf32> -> !s32
  %d = fp8.scaled_matmul %qa, %qb {promote_interval = 32} : !s32, !s32 -> tensor<1x1xf32>
  %dd = tensor.cast %d : tensor<1x1xf32> to tensor<?x?xf32>
  call @print_f32(%dd) : (tensor<?x?xf32>) -> ()
  return
}
// EXACT-LABEL: zero_products
// EXACT:       [1.00012]
// ACC14-LABEL: zero_products
// ACC14:       [1.00012]
// SM90-LABEL:  zero_products
// SM90:        [1.00012]
// SM89-LABEL:  zero_products
// SM89:        [1.00012]

// A subnormal input aligns at the format's minimum normal exponent (-6 for
// E4M3FN), not below: 2^-7 (subnormal) * 16 = 2^-3 aligns at -6 + 4 = -2,
// grid 2^-15, so 2^-9 * 2^-7 = 2^-16 truncates to 0: 0.125 (sm90, sm89).
// Aligned at -7 + 4 = -3 (an unclamped field-0 exponent) or at its own
// normalised exponent -3 (accumulator-bits=14), the grid is 2^-16 and the
// sum keeps it: 0.125 + 2^-16 = 0.1250152587890625, as the exact sum.
func.func @subnormal_inputs() {
  %a = arith.constant dense<[[0.0078125, 0.001953125, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]]> : tensor<1x32xf8E4M3FN>
  %b = arith.constant dense<[[16.0, 0.0078125, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]]> : tensor<1x32xf8E4M3FN>
  %s = arith.constant dense<1.0> : tensor<1x1xf32>
  %qa = fp8.assemble %a, %s : tensor<1x32xf8E4M3FN>, tensor<1x1xf32> -> !s32
  %qb = fp8.assemble %b, %s : tensor<1x32xf8E4M3FN>, tensor<1x1xf32> -> !s32
  %d = fp8.scaled_matmul %qa, %qb {promote_interval = 32} : !s32, !s32 -> tensor<1x1xf32>
  %dd = tensor.cast %d : tensor<1x1xf32> to tensor<?x?xf32>
  call @print_f32(%dd) : (tensor<?x?xf32>) -> ()
  return
}
// EXACT-LABEL: subnormal_inputs
// EXACT:       [0.125015]
// ACC14-LABEL: subnormal_inputs
// ACC14:       [0.125015]
// SM90-LABEL:  subnormal_inputs
// SM90:        [0.125]
// SM89-LABEL:  subnormal_inputs
// SM89:        [0.125]

func.func @main() {
  vector.print str "promotion\n"
  call @promotion() : () -> ()
  vector.print str "nan_row\n"
  call @nan_row() : () -> ()
  vector.print str "alignment\n"
  call @alignment() : () -> ()
  vector.print str "accumulator\n"
  call @accumulator() : () -> ()
  vector.print str "zero_products\n"
  call @zero_products() : () -> ()
  vector.print str "subnormal_inputs\n"
  call @subnormal_inputs() : () -> ()
  return
}
