// The tiled fp8.quantize / fp8.dequantize (and the two halves of
// fp8.requantize) are one private function per signature, called by every op
// with that signature, as the tiled scaled_matmul is
// (scaled-matmul-tiled-outlined.mlir): a model's layers repeat a few
// activation and weight shapes, so the graph function grows by one call per
// quantization, not by one loop nest per quantization, and so does the time
// of every later pass of fp8-cpu-pipeline over it (docs/compile-time.md, the
// language model's training step). The signature holds everything the body
// depends on: the rank-2 input type, the blocks, the formats, eps, the scale
// mode, saturation and the vector width (for a dequantization: the codes
// and scales types, the blocks, the result and stored element types).
// RUN: fp8-opt %s -split-input-file -fp8-lower-to-linalg="tiled=true vector-lanes=8" | FileCheck %s

!a = !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>
!t = !fp8.scaled<256x32xf8E4M3FN, block = [1, 128], scale = f32>

// Two layers' quantizations of the same signature share one function; eps,
// saturation and the scale mode each make another one.
// CHECK-LABEL: func.func @layers
// CHECK-NOT: scf.forall
// CHECK: call @[[Q:__quantize_tiled_tensor_32x256xf32__b_1_128_f8E4M3FN_f32_eps3F1A36E2E0000000_amax_sat_l8]](%arg0)
// CHECK-NEXT: call @[[Q]](%arg1)
// CHECK-NEXT: call @[[QEPS:__quantize_tiled_tensor_32x256xf32__b_1_128_f8E4M3FN_f32_eps3D71979980000000_amax_sat_l8]](%arg1)
// CHECK-NEXT: call @[[QNOSAT:__quantize_tiled_tensor_32x256xf32__b_1_128_f8E4M3FN_f32_eps3F1A36E2E0000000_amax_nosat_l8]](%arg1)
// CHECK-NEXT: call @[[QPOW2:__quantize_tiled_tensor_32x256xf32__b_1_128_f8E4M3FN_f32_eps3F1A36E2E0000000_pow2_sat_l8]](%arg1)
// CHECK-NEXT: %[[D0:.+]] = call @[[D:__dequantize_tiled_tensor_32x256xf8E4M3FN__tensor_32x2xf32__b_1_128_f32_f32_l8]](
// CHECK-NEXT: call @[[D]](
// The requantization: a dequantization of the same signature, the
// transpose inline, and the quantization of the transposed shape.
// CHECK-NEXT: call @[[D]](%arg2, %arg3)
// CHECK-NOT: scf.forall
// CHECK: linalg.transpose
// CHECK-NOT: scf.forall
// CHECK: call @[[QT:__quantize_tiled_tensor_256x32xf32__b_1_128_f8E4M3FN_f32_eps3F1A36E2E0000000_amax_sat_l8]](
// CHECK-NOT: scf.forall
// CHECK: return
func.func @layers(%x0: tensor<32x256xf32>, %x1: tensor<32x256xf32>, %q: !a) -> (!a, !a, !a, !a, !a, tensor<32x256xf32>, tensor<32x256xf32>, !t) {
  %0 = fp8.quantize %x0 : tensor<32x256xf32> -> !a
  %1 = fp8.quantize %x1 : tensor<32x256xf32> -> !a
  %2 = fp8.quantize %x1 {eps = 1.0e-12 : f32} : tensor<32x256xf32> -> !a
  %3 = fp8.quantize %x1 {saturate = false} : tensor<32x256xf32> -> !a
  %4 = fp8.quantize %x1 {scale_mode = #fp8.scale_mode<pow2>} : tensor<32x256xf32> -> !a
  %5 = fp8.dequantize %0 : !a -> tensor<32x256xf32>
  %6 = fp8.dequantize %1 : !a -> tensor<32x256xf32>
  %7 = fp8.requantize %q {permutation = array<i64: 1, 0>} : !a -> !t
  return %0, %1, %2, %3, %4, %5, %6, %7 : !a, !a, !a, !a, !a, tensor<32x256xf32>, tensor<32x256xf32>, !t
}
// One body each, after the graph, in the order of first use.
// CHECK: func.func private @[[Q]](%{{.*}}: tensor<32x256xf32>) -> (tensor<32x256xf8E4M3FN>, tensor<32x2xf32>)
// CHECK: scf.forall
// CHECK: func.func private @[[QEPS]](
// CHECK: func.func private @[[QNOSAT]](
// CHECK: func.func private @[[QPOW2]](
// CHECK: func.func private @[[D]](%{{.*}}: tensor<32x256xf8E4M3FN>, %{{.*}}: tensor<32x2xf32>) -> tensor<32x256xf32>
// CHECK: scf.forall
// CHECK: func.func private @[[QT]](%{{.*}}: tensor<256x32xf32>) -> (tensor<256x32xf8E4M3FN>, tensor<256x1xf32>)
// CHECK-NOT: func.func private

// -----

!a = !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>

// Other ranks are quantized through their rank-2 view: the view in the
// caller, one function for the rank-2 form. A bf16 result only widened to
// f32 is another signature (stored as f32).
// CHECK-LABEL: func.func @views
// CHECK: tensor.collapse_shape %arg0
// CHECK: call @[[Q3:__quantize_tiled_tensor_32x256xf32__b_1_128_f8E4M3FN_f32_eps3F1A36E2E0000000_amax_sat_l8]](
// CHECK: tensor.expand_shape
// CHECK: call @[[Q3]](
// CHECK: call @[[DW:__dequantize_tiled_tensor_32x256xf8E4M3FN__tensor_32x2xf32__b_1_128_bf16_f32_l8]](
// CHECK: func.func private @[[Q3]](
// CHECK: func.func private @[[DW]](%{{.*}}: tensor<32x256xf8E4M3FN>, %{{.*}}: tensor<32x2xf32>) -> tensor<32x256xf32>
// CHECK-NOT: func.func private
func.func @views(%x: tensor<4x8x256xf32>, %y: tensor<32x256xf32>, %q: !a) -> (!fp8.scaled<4x8x256xf8E4M3FN, block = [1, 1, 128], scale = f32>, !a, tensor<32x256xf32>) {
  %0 = fp8.quantize %x : tensor<4x8x256xf32> -> !fp8.scaled<4x8x256xf8E4M3FN, block = [1, 1, 128], scale = f32>
  %1 = fp8.quantize %y : tensor<32x256xf32> -> !a
  %2 = fp8.dequantize %q : !a -> tensor<32x256xbf16>
  %3 = arith.extf %2 : tensor<32x256xbf16> to tensor<32x256xf32>
  return %0, %1, %3 : !fp8.scaled<4x8x256xf8E4M3FN, block = [1, 1, 128], scale = f32>, !a, tensor<32x256xf32>
}
