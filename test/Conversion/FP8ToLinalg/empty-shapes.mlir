// Zero-size problems: an fp8 op with a static dimension of 0 in its result
// lowers to tensor.empty results (no loop, no kernel call: slices of an
// empty dimension would not verify), with the dynamic sizes of its operands
// (the scales' sizes are ceil(size / block)); a scaled_matmul with a static
// K = 0 is C rounded to the result type (no product), or +0.0 without C.
// Values: test/Integration/CPU/empty-shapes.mlir.
// RUN: fp8-opt %s --fp8-lower-to-linalg=tiled --canonicalize | FileCheck %s
// RUN: fp8-opt %s --fp8-lower-to-linalg=tiled=false --canonicalize | FileCheck %s

// CHECK-LABEL: func.func @m0
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<0x40xbf16>
// CHECK-NEXT: return %[[E]]
func.func @m0(%a: !fp8.scaled<0x256xf8E4M3FN, block = [1, 128], scale = f32>, %w: !fp8.scaled<40x256xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<0x40xbf16> {
  %d = fp8.scaled_matmul %a, %w : !fp8.scaled<0x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<40x256xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<0x40xbf16>
  return %d : tensor<0x40xbf16>
}

// CHECK-LABEL: func.func @k0
// CHECK-SAME: %[[C:[a-z0-9]+]]: tensor<?x40xf32>) -> tensor<?x40xbf16>
// CHECK-NOT: call
// CHECK: %[[N:.*]] = arith.constant 0x7FFF : bf16
// CHECK: linalg.generic {{.*}} ins(%[[C]] : tensor<?x40xf32>) outs(%{{.*}} : tensor<?x40xbf16>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %{{.*}}: bf16):
// CHECK-NEXT: %[[R:.*]] = arith.truncf %[[IN]] : f32 to bf16
// CHECK-NEXT: %[[U:.*]] = arith.cmpf uno, %[[IN]], %[[IN]] : f32
// CHECK-NEXT: %[[S:.*]] = arith.select %[[U]], %[[N]], %[[R]] : bf16
// CHECK-NEXT: linalg.yield %[[S]]
func.func @k0(%a: !fp8.scaled<?x0xf8E4M3FN, block = [1, 128], scale = f32>, %w: !fp8.scaled<40x0xf8E4M3FN, block = [128, 128], scale = f32>, %c: tensor<?x40xf32>) -> tensor<?x40xbf16> {
  %d = fp8.scaled_matmul %a, %w acc(%c : tensor<?x40xf32>) : !fp8.scaled<?x0xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<40x0xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<?x40xbf16>
  return %d : tensor<?x40xbf16>
}

// CHECK-LABEL: func.func @k0_zero
// CHECK: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: linalg.fill ins(%[[Z]] : f32) outs(%{{.*}} : tensor<8x40xf32>)
// CHECK-NOT: call
func.func @k0_zero(%a: !fp8.scaled<8x0xf8E4M3FN, block = [1, 128], scale = f32>, %w: !fp8.scaled<40x0xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<8x40xf32> {
  %d = fp8.scaled_matmul %a, %w : !fp8.scaled<8x0xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<40x0xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<8x40xf32>
  return %d : tensor<8x40xf32>
}

// Quantize then a transposing requantize of [?, 0]: [0, ?] codes and
// [0, ceil(? / 128)] scales, nothing computed.
// CHECK-LABEL: func.func @q0
// CHECK-SAME: (%[[X:.*]]: tensor<?x0xf32>)
// CHECK: %[[D:.*]] = tensor.dim %[[X]], %{{.*}} : tensor<?x0xf32>
// CHECK: %[[B:.*]] = affine.apply #{{.*}}()[%[[D]]]
// CHECK-DAG: tensor.empty(%[[D]]) : tensor<0x?xf8E4M3FN>
// CHECK-DAG: tensor.empty(%[[B]]) : tensor<0x?xf32>
// CHECK-NOT: linalg.generic
func.func @q0(%x: tensor<?x0xf32>) -> !fp8.scaled<0x?xf8E4M3FN, block = [1, 128], scale = f32> {
  %q = fp8.quantize %x : tensor<?x0xf32> -> !fp8.scaled<?x0xf8E4M3FN, block = [1, 128], scale = f32>
  %t = fp8.requantize %q {permutation = array<i64: 1, 0>} : !fp8.scaled<?x0xf8E4M3FN, block = [1, 128], scale = f32> -> !fp8.scaled<0x?xf8E4M3FN, block = [1, 128], scale = f32>
  return %t : !fp8.scaled<0x?xf8E4M3FN, block = [1, 128], scale = f32>
}
