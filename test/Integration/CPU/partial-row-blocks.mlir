// A partial last block of scale rows: 200 rows in 128x128 blocks (the
// DeepSeek-V3 weight block) leave a last block row of 72 rows (128..199),
// whose scales must come from those 72 rows only: not from the rows before
// them (a whole block's worth, 72..199) nor from rows past the tensor. The
// same through a dynamic row count, through the vectorised kernels
// (default) and the reference generics (tiled=false).
//
// RUN: fp8-opt %s --fp8-cpu-pipeline | %fp8_run | FileCheck %s
// RUN: fp8-opt %s --fp8-cpu-pipeline=tiled=false | %fp8_run | FileCheck %s
//
// x is 1.0 everywhere but for four elements; hand-derived (E4M3, scale =
// amax / 448, codes RNE of x / scale):
//   block (0, 0), rows 0..127, cols 0..127: x[100][5] = 896 -> scale 2.0
//     (the value a fault that reads rows 72..199 for the last block sees);
//   block (0, 1): x[50][200] = 448 -> scale 1.0;
//   block (1, 0), rows 128..199: x[128][0] = 224 -> scale 0.5;
//   block (1, 1): x[199][255] = -112 -> scale 0.25.
// Codes: x[128][0] = 224 / 0.5 = 448: 0x7E (126); x[129][0] = 1 / 0.5 = 2:
// 0x40 (64); x[199][255] = -112 / 0.25 = -448: 0xFE (254); x[150][200] =
// 1 / 0.25 = 4: 0x48 (72); x[100][5] = 896 / 2 = 448: 126; x[1][0] = 0.5:
// 0x30 (48); x[0][255] = 1 / 1 = 1: 0x38 (56).

// CHECK-LABEL: static
// CHECK: {{\[}}[2,   1],
// CHECK-NEXT: [0.5,   0.25]]
// CHECK: [126,  64,  254,  72,  126,  48,  56]
// CHECK-LABEL: dynamic
// CHECK: {{\[}}[2,   1],
// CHECK-NEXT: [0.5,   0.25]]
// CHECK: [126,  64,  254,  72,  126,  48,  56]

!q = !fp8.scaled<200x256xf8E4M3FN, block = [128, 128], scale = f32>
!qd = !fp8.scaled<?x256xf8E4M3FN, block = [128, 128], scale = f32>

func.func private @printMemrefI32(memref<*xi32>)
func.func private @printMemrefF32(memref<*xf32>)

func.func @input() -> tensor<200x256xf32> {
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<200x256xf32>
  %x0 = linalg.fill ins(%one : f32) outs(%e : tensor<200x256xf32>) -> tensor<200x256xf32>
  %c0 = arith.constant 0 : index
  %c5 = arith.constant 5 : index
  %c50 = arith.constant 50 : index
  %c100 = arith.constant 100 : index
  %c128 = arith.constant 128 : index
  %c199 = arith.constant 199 : index
  %c200 = arith.constant 200 : index
  %c255 = arith.constant 255 : index
  %v896 = arith.constant 896.0 : f32
  %v448 = arith.constant 448.0 : f32
  %v224 = arith.constant 224.0 : f32
  %vm112 = arith.constant -112.0 : f32
  %x1 = tensor.insert %v896 into %x0[%c100, %c5] : tensor<200x256xf32>
  %x2 = tensor.insert %v448 into %x1[%c50, %c200] : tensor<200x256xf32>
  %x3 = tensor.insert %v224 into %x2[%c128, %c0] : tensor<200x256xf32>
  %x4 = tensor.insert %vm112 into %x3[%c199, %c255] : tensor<200x256xf32>
  return %x4 : tensor<200x256xf32>
}

// Prints the scales, then the codes at the places listed above.
func.func @report(%d: tensor<?x256xf8E4M3FN>, %s: tensor<2x2xf32>) {
  %sm = bufferization.to_buffer %s : tensor<2x2xf32> to memref<2x2xf32>
  %sc = memref.cast %sm : memref<2x2xf32> to memref<*xf32>
  call @printMemrefF32(%sc) : (memref<*xf32>) -> ()
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c100 = arith.constant 100 : index
  %c128 = arith.constant 128 : index
  %c129 = arith.constant 129 : index
  %c150 = arith.constant 150 : index
  %c199 = arith.constant 199 : index
  %c200 = arith.constant 200 : index
  %c255 = arith.constant 255 : index
  %a = tensor.extract %d[%c128, %c0] : tensor<?x256xf8E4M3FN>
  %b = tensor.extract %d[%c129, %c0] : tensor<?x256xf8E4M3FN>
  %c = tensor.extract %d[%c199, %c255] : tensor<?x256xf8E4M3FN>
  %e = tensor.extract %d[%c150, %c200] : tensor<?x256xf8E4M3FN>
  %f = tensor.extract %d[%c100, %c5] : tensor<?x256xf8E4M3FN>
  %g = tensor.extract %d[%c1, %c0] : tensor<?x256xf8E4M3FN>
  %h = tensor.extract %d[%c0, %c255] : tensor<?x256xf8E4M3FN>
  %codes = tensor.from_elements %a, %b, %c, %e, %f, %g, %h : tensor<7xf8E4M3FN>
  %i8 = arith.bitcast %codes : tensor<7xf8E4M3FN> to tensor<7xi8>
  %u = arith.extui %i8 : tensor<7xi8> to tensor<7xi32>
  %um = bufferization.to_buffer %u : tensor<7xi32> to memref<7xi32>
  %uc = memref.cast %um : memref<7xi32> to memref<*xi32>
  call @printMemrefI32(%uc) : (memref<*xi32>) -> ()
  return
}

func.func @main() {
  %x = call @input() : () -> tensor<200x256xf32>

  vector.print str "static\n"
  %q = fp8.quantize %x : tensor<200x256xf32> -> !q
  %d, %s = fp8.disassemble %q : !q
  %dd = tensor.cast %d : tensor<200x256xf8E4M3FN> to tensor<?x256xf8E4M3FN>
  call @report(%dd, %s) : (tensor<?x256xf8E4M3FN>, tensor<2x2xf32>) -> ()

  vector.print str "dynamic\n"
  %xd = tensor.cast %x : tensor<200x256xf32> to tensor<?x256xf32>
  %qd = fp8.quantize %xd : tensor<?x256xf32> -> !qd
  %dq, %sq = fp8.disassemble %qd : !qd
  %sq2 = tensor.cast %sq : tensor<?x2xf32> to tensor<2x2xf32>
  call @report(%dq, %sq2) : (tensor<?x256xf8E4M3FN>, tensor<2x2xf32>) -> ()
  return
}
