// The emulated tensor-core accumulator of fp8-lower-to-linalg
// (accumulator-bits=14, DeepSeek-V3 §3.5.2) against the exact FP32 partial
// sums (accumulator-bits=0), run on the CPU.
//
// RUN: fp8-opt %s --fp8-cpu-pipeline | %fp8_run | FileCheck %s --check-prefix=EXACT
// RUN: fp8-opt %s --fp8-cpu-pipeline=accumulator-bits=14 | %fp8_run | FileCheck %s --check-prefix=ACC14
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

func.func @main() {
  vector.print str "promotion\n"
  call @promotion() : () -> ()
  vector.print str "nan_row\n"
  call @nan_row() : () -> ()
  return
}
