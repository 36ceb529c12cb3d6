// Regression cases 1, 4 and 5 of docs/regression-cases.md (Conversion, scale 1):
// arith.truncf f32 -> FP8 expanded by fp8-expand-arith, satfinite and
// non-saturating, run on the CPU. Expected codes are the case file's, or
// hand-derived from the formats (E4M3FN: bias 7, max 0x7E = 448, NaN 0x7F;
// E5M2: bias 15, max 0x7B = 57344, Inf 0x7C). Codes print as unsigned bytes.
//
// RUN: fp8-opt %s --convert-elementwise-to-linalg --fp8-expand-arith=saturate=true --fp8-cpu-pipeline \
// RUN:   | %fp8_run | FileCheck %s --check-prefixes=CHECK,SAT
// RUN: fp8-opt %s --convert-elementwise-to-linalg --fp8-expand-arith --fp8-cpu-pipeline \
// RUN:   | %fp8_run | FileCheck %s --check-prefixes=CHECK,NOSAT

func.func private @printMemrefI32(memref<*xi32>)
func.func private @printMemrefF32(memref<*xf32>)

func.func @print_e4m3(%t: tensor<?xf8E4M3FN>) {
  %i = arith.bitcast %t : tensor<?xf8E4M3FN> to tensor<?xi8>
  %u = arith.extui %i : tensor<?xi8> to tensor<?xi32>
  %m = bufferization.to_buffer %u : tensor<?xi32> to memref<?xi32>
  %c = memref.cast %m : memref<?xi32> to memref<*xi32>
  call @printMemrefI32(%c) : (memref<*xi32>) -> ()
  return
}

func.func @print_e5m2(%t: tensor<?xf8E5M2>) {
  %i = arith.bitcast %t : tensor<?xf8E5M2> to tensor<?xi8>
  %u = arith.extui %i : tensor<?xi8> to tensor<?xi32>
  %m = bufferization.to_buffer %u : tensor<?xi32> to memref<?xi32>
  %c = memref.cast %m : memref<?xi32> to memref<*xi32>
  call @printMemrefI32(%c) : (memref<*xi32>) -> ()
  return
}

func.func @print_f32(%t: tensor<?xf32>) {
  %m = bufferization.to_buffer %t : tensor<?xf32> to memref<?xf32>
  %c = memref.cast %m : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%c) : (memref<*xf32>) -> ()
  return
}

func.func @main() {
  // Case 1: saturation at the top of E4M3FN.
  // SAT: [126, 126, 126, 126, 254]
  // NOSAT: [126, 126, 127, 127, 255]
  %c1 = arith.constant dense<[448.0, 464.0, 465.0, 1000.0, -1000.0]> : tensor<5xf32>
  %q1 = arith.truncf %c1 : tensor<5xf32> to tensor<5xf8E4M3FN>
  %q1d = tensor.cast %q1 : tensor<5xf8E4M3FN> to tensor<?xf8E4M3FN>
  call @print_e4m3(%q1d) : (tensor<?xf8E4M3FN>) -> ()
  // Decoded: non-saturating 465 / 1000 / -1000 are NaN.
  // SAT: [448, 448, 448, 448, -448]
  // NOSAT: [448, 448, nan, nan, nan]
  %d1 = arith.extf %q1 : tensor<5xf8E4M3FN> to tensor<5xf32>
  %d1d = tensor.cast %d1 : tensor<5xf32> to tensor<?xf32>
  call @print_f32(%d1d) : (tensor<?xf32>) -> ()

  // Case 4: subnormal rounding and carry (both modes): 0.01 -> 0x05,
  // 2^-10 -> 0x00 (tie to even), 1.5*2^-9 -> 0x02 (tie to even),
  // 7.5*2^-9 -> 0x08 (carry into the smallest normal 2^-6), and the
  // negatives with the sign bit.
  // CHECK: [5, 0, 2, 8, 133, 128, 130, 136]
  %c4 = arith.constant dense<[0.01, 9.765625e-04, 2.9296875e-03, 1.46484375e-02,
                              -0.01, -9.765625e-04, -2.9296875e-03, -1.46484375e-02]> : tensor<8xf32>
  %q4 = arith.truncf %c4 : tensor<8xf32> to tensor<8xf8E4M3FN>
  %q4d = tensor.cast %q4 : tensor<8xf8E4M3FN> to tensor<?xf8E4M3FN>
  call @print_e4m3(%q4d) : (tensor<?xf8E4M3FN>) -> ()

  // Case 5: E5M2 overflow, inputs 57344, 61439, 61440, 65504, -61440, Inf,
  // NaN, -Inf. 57344 -> 0x7B; 61439 -> 0x7B; 61440 ties to the even code
  // 0x7C (Inf) without saturation; 65504, Inf -> Inf; NaN -> 0x7F; -61440
  // and -Inf -> 0xFC (-Inf), or 0xFB (-57344) with satfinite.
  // SAT: [123, 123, 123, 123, 251, 123, 127, 251]
  // NOSAT: [123, 123, 124, 124, 252, 124, 127, 252]
  %inf = arith.constant 0x7F800000 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c5a = arith.constant dense<[57344.0, 61439.0, 61440.0, 65504.0]> : tensor<4xf32>
  %c5b = tensor.from_elements %inf, %nan, %ninf : tensor<3xf32>
  %c5c = arith.constant dense<[-61440.0]> : tensor<1xf32>
  %c5 = tensor.concat dim(0) %c5a, %c5c, %c5b : (tensor<4xf32>, tensor<1xf32>, tensor<3xf32>) -> tensor<8xf32>
  %q5 = arith.truncf %c5 : tensor<8xf32> to tensor<8xf8E5M2>
  %q5d = tensor.cast %q5 : tensor<8xf8E5M2> to tensor<?xf8E5M2>
  call @print_e5m2(%q5d) : (tensor<?xf8E5M2>) -> ()
  return
}
