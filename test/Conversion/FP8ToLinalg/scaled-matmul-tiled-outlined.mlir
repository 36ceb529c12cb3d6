// The tiled kernel is one private function per scaled_matmul signature
// (operand types, blocks, interval, vector width), called by every op with
// that signature: a model's layers repeat a few GEMM shapes, so the module
// grows by one call per GEMM, not by one kernel body per GEMM.
// RUN: fp8-opt %s -fp8-lower-to-linalg="tiled=true vector-lanes=8" | FileCheck %s

!a = !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>
!b = !fp8.scaled<64x256xf8E4M3FN, block = [128, 128], scale = f32>
!b2 = !fp8.scaled<96x256xf8E4M3FN, block = [128, 128], scale = f32>

// CHECK-LABEL: func.func @layers
// CHECK-COUNT-2: call @[[SAME:__scaled_matmul_tiled_tensor_32x256xf8E4M3FN__tensor_32x2xf32__tensor_64x256xf8E4M3FN__tensor_1x2xf32__1_128_128_128_i128_l8]](
// CHECK: call @[[OTHER:__scaled_matmul_tiled_tensor_32x256xf8E4M3FN__tensor_32x2xf32__tensor_96x256xf8E4M3FN__tensor_1x2xf32__1_128_128_128_i128_l8]](
// CHECK-NOT: call @__scaled_matmul_tiled
// CHECK: return
func.func @layers(%x: !a, %w1: !b, %w2: !b, %w3: !b2) -> (tensor<32x64xf32>, tensor<32x64xbf16>, tensor<32x96xf32>) {
  %0 = fp8.scaled_matmul %x, %w1 : !a, !b -> tensor<32x64xf32>
  %1 = fp8.scaled_matmul %x, %w2 : !a, !b -> tensor<32x64xbf16>
  %2 = fp8.scaled_matmul %x, %w3 : !a, !b2 -> tensor<32x96xf32>
  return %0, %1, %2 : tensor<32x64xf32>, tensor<32x64xbf16>, tensor<32x96xf32>
}
// One body each, after the graph.
// CHECK: func.func private @[[SAME]](
// CHECK: vector.fma
// CHECK: return
// CHECK: func.func private @[[OTHER]](
// CHECK-NOT: func.func private @__scaled_matmul_tiled
