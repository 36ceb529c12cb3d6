// The tiled kernel is one private function per scaled_matmul signature
// (operand types, blocks, interval, vector width, result element type,
// accumulator model), called by every op with that signature: a model's
// layers repeat a few GEMM shapes, so the module grows by one call per GEMM,
// not by one kernel body per GEMM.
// RUN: fp8-opt %s -fp8-lower-to-linalg="tiled=true vector-lanes=8" | FileCheck %s
// RUN: fp8-opt %s -fp8-lower-to-linalg="tiled=true vector-lanes=8 accumulator-bits=14" | FileCheck %s --check-prefix=ACC
// RUN: fp8-opt %s -fp8-lower-to-linalg="tiled=true vector-lanes=16 accumulator=sm90" | FileCheck %s --check-prefix=SM90

!a = !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>
!b = !fp8.scaled<64x256xf8E4M3FN, block = [128, 128], scale = f32>
!b2 = !fp8.scaled<96x256xf8E4M3FN, block = [128, 128], scale = f32>

// CHECK-LABEL: func.func @layers
// CHECK-COUNT-2: call @[[SAME:__scaled_matmul_tiled_tensor_32x256xf8E4M3FN__tensor_32x2xf32__tensor_64x256xf8E4M3FN__tensor_1x2xf32__1_128_128_128_i128_l8_bf16]](
// CHECK: call @[[F32:__scaled_matmul_tiled_tensor_32x256xf8E4M3FN__tensor_32x2xf32__tensor_64x256xf8E4M3FN__tensor_1x2xf32__1_128_128_128_i128_l8_f32]](
// CHECK: call @[[OTHER:__scaled_matmul_tiled_tensor_32x256xf8E4M3FN__tensor_32x2xf32__tensor_96x256xf8E4M3FN__tensor_1x2xf32__1_128_128_128_i128_l8_bf16]](
// CHECK-NOT: call @__scaled_matmul_tiled
// CHECK: return
func.func @layers(%x: !a, %w1: !b, %w2: !b, %w3: !b2) -> (tensor<32x64xbf16>, tensor<32x64xbf16>, tensor<32x64xf32>, tensor<32x96xbf16>) {
  %0 = fp8.scaled_matmul %x, %w1 : !a, !b -> tensor<32x64xbf16>
  %1 = fp8.scaled_matmul %x, %w2 : !a, !b -> tensor<32x64xbf16>
  %2 = fp8.scaled_matmul %x, %w1 : !a, !b -> tensor<32x64xf32>
  %3 = fp8.scaled_matmul %x, %w3 : !a, !b2 -> tensor<32x96xbf16>
  return %0, %1, %2, %3 : tensor<32x64xbf16>, tensor<32x64xbf16>, tensor<32x64xf32>, tensor<32x96xbf16>
}
// One body each, after the graph; the result is rounded in the kernel.
// CHECK: func.func private @[[SAME]](
// CHECK: vector.fma
// CHECK: arith.truncf {{.*}} : vector<8xf32> to vector<8xbf16>
// CHECK: return
// CHECK: func.func private @[[F32]](
// CHECK-NOT: arith.truncf
// CHECK: return
// CHECK: func.func private @[[OTHER]](
// CHECK-NOT: func.func private @__scaled_matmul_tiled

// The accumulator model (group, fraction bits, kept bits, alignment) is part
// of the signature; its kernel works on vectors too.
// ACC-COUNT-2: call @[[A:__scaled_matmul_tiled_tensor_32x256xf8E4M3FN__tensor_32x2xf32__tensor_64x256xf8E4M3FN__tensor_1x2xf32__1_128_128_128_i128_l8_bf16_acc32_13_14_1]](
// ACC: func.func private @[[A]](
// ACC: math.ctlz {{.*}} : vector<8xi32>
// ACC-NOT: vector.fma
// SM90-COUNT-2: call @[[S:__scaled_matmul_tiled_tensor_32x256xf8E4M3FN__tensor_32x2xf32__tensor_64x256xf8E4M3FN__tensor_1x2xf32__1_128_128_128_i128_l16_bf16_acc32_13_14_0]](
