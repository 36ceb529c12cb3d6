// The BF16 cost model's tiles (config=auto, the default; docs/gpu-kernel.md,
// "The BF16 variant") through ptxas: the tiles it chooses for training and
// decode shapes (128x192 in 5 stages with group-m 16, 64x64 in 8, 128x128 in
// 7, the batch kernel's 128x192, the default tile where the model keeps it)
// assemble with 0 spills and no wgmma serialisation. The expected tiles are
// the model's choices when this test was written; a changed choice fails the
// CHECK lines and must be assembled again here.
// REQUIRES: ptxas
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=none" | fp8-translate --fp8-extract-gpu-object > %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS

// CHECK-DAG: .entry fp8_matmul_8192x5632x2048_bf16_bf16_f32_accf32_t128x192s5g16(
// CHECK-DAG: .entry fp8_matmul_64x2112x7168_bf16_bf16_f32_accf32_t64x64s8(
// CHECK-DAG: .entry fp8_matmul_4096x7168x4096_bf16_bf16_f32_accf32_t128x128s7g16(
// CHECK-DAG: .entry fp8_matmul_8192x2048x5632_bf16_bf16_f32_accf32(
// CHECK-DAG: .entry fp8_batch_matmul_128x1024x1024x128_bf16_bf16_f32_accf32_t128x192s5(
// CHECK-DAG: .entry fp8_matmul_128x576x256_bf16_bf16_f32_accf32_t64x64s8(

// PTXAS-NOT: {{warning|[1-9][0-9]* bytes spill|C75[0-9][0-9]}}
// PTXAS-COUNT-6: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: {{warning|[1-9][0-9]* bytes spill|C75[0-9][0-9]}}

func.func @a(%a: tensor<8192x2048xbf16>, %b: tensor<2048x5632xbf16>, %c: tensor<8192x5632xf32>) -> tensor<8192x5632xf32> {
  %y = linalg.matmul ins(%a, %b : tensor<8192x2048xbf16>, tensor<2048x5632xbf16>) outs(%c : tensor<8192x5632xf32>) -> tensor<8192x5632xf32>
  return %y : tensor<8192x5632xf32>
}
func.func @b(%a: tensor<64x7168xbf16>, %b: tensor<7168x2112xbf16>, %c: tensor<64x2112xf32>) -> tensor<64x2112xf32> {
  %y = linalg.matmul ins(%a, %b : tensor<64x7168xbf16>, tensor<7168x2112xbf16>) outs(%c : tensor<64x2112xf32>) -> tensor<64x2112xf32>
  return %y : tensor<64x2112xf32>
}
func.func @c(%a: tensor<4096x4096xbf16>, %b: tensor<4096x7168xbf16>, %c: tensor<4096x7168xf32>) -> tensor<4096x7168xf32> {
  %y = linalg.matmul ins(%a, %b : tensor<4096x4096xbf16>, tensor<4096x7168xbf16>) outs(%c : tensor<4096x7168xf32>) -> tensor<4096x7168xf32>
  return %y : tensor<4096x7168xf32>
}
func.func @d(%a: tensor<8192x5632xbf16>, %b: tensor<5632x2048xbf16>, %c: tensor<8192x2048xf32>) -> tensor<8192x2048xf32> {
  %y = linalg.matmul ins(%a, %b : tensor<8192x5632xbf16>, tensor<5632x2048xbf16>) outs(%c : tensor<8192x2048xf32>) -> tensor<8192x2048xf32>
  return %y : tensor<8192x2048xf32>
}
func.func @e(%a: tensor<128x1024x128xbf16>, %b: tensor<128x128x1024xbf16>, %c: tensor<128x1024x1024xf32>) -> tensor<128x1024x1024xf32> {
  %y = linalg.batch_matmul ins(%a, %b : tensor<128x1024x128xbf16>, tensor<128x128x1024xbf16>) outs(%c : tensor<128x1024x1024xf32>) -> tensor<128x1024x1024xf32>
  return %y : tensor<128x1024x1024xf32>
}
func.func @f(%a: tensor<128x256xbf16>, %b: tensor<256x576xbf16>, %c: tensor<128x576xf32>) -> tensor<128x576xf32> {
  %y = linalg.matmul ins(%a, %b : tensor<128x256xbf16>, tensor<256x576xbf16>) outs(%c : tensor<128x576xf32>) -> tensor<128x576xf32>
  return %y : tensor<128x576xf32>
}
