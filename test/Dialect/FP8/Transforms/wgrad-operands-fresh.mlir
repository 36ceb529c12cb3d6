// RUN: fp8-opt %s -fp8-assign-precision=wgrad-operands=fresh -fp8-insert-quant | FileCheck %s
// RUN: fp8-opt %s -fp8-assign-precision="policy=hybrid wgrad-operands=fresh" -fp8-insert-quant | FileCheck %s --check-prefix=HYBRID
// RUN: fp8-opt %s --fp8-pipeline="wgrad-operands=fresh report=false" | FileCheck %s --check-prefix=PIPE
// RUN: fp8-opt %s --fp8-pipeline="report=false" | FileCheck %s --check-prefix=DEFAULT
// RUN: not fp8-opt %s -fp8-assign-precision=wgrad-operands=both 2>&1 | FileCheck %s --check-prefix=BAD

// wgrad_operands = fresh: the Wgrad's dY and X are quantized along the 256
// tokens (128x1 blocks of [T, F], i.e. 1x128 tiles of [F, T]) from the f32
// tensors, next to their row quantizations (1x128 along F) that the fprop
// and the dgrad read; their codes and scales are transposed, not requantized.

// CHECK: module attributes {fp8.policy = #fp8.policy<name = "deepseek-v3", {{.*}}, wgrad_operands = fresh>}
// CHECK-LABEL: func.func @joint
// CHECK-SAME: (%[[X:.*]]: tensor<256x512xf32>, %[[W:.*]]: tensor<384x512xf32>, %[[DY:.*]]: tensor<256x384xf32>)
// CHECK-DAG: %[[QX:.*]] = fp8.quantize %[[X]] : tensor<256x512xf32> -> !fp8.scaled<256x512xf8E4M3FN, block = [1, 128], scale = f32>
// CHECK-DAG: %[[TX:.*]] = fp8.quantize %[[X]] : tensor<256x512xf32> -> !fp8.scaled<256x512xf8E4M3FN, block = [128, 1], scale = f32>
// CHECK-DAG: %[[QDY:.*]] = fp8.quantize %[[DY]] : tensor<256x384xf32> -> !fp8.scaled<256x384xf8E4M3FN, block = [1, 128], scale = f32>
// CHECK-DAG: %[[TDY:.*]] = fp8.quantize %[[DY]] : tensor<256x384xf32> -> !fp8.scaled<256x384xf8E4M3FN, block = [128, 1], scale = f32>
// CHECK-DAG: fp8.scaled_matmul %[[QX]], %{{.*}} {fp8.gemm = #fp8.gemm<fprop>
// CHECK-DAG: fp8.scaled_matmul %[[QDY]], %{{.*}} {fp8.gemm = #fp8.gemm<dgrad>
// CHECK: fp8.disassemble %[[TDY]] : !fp8.scaled<256x384xf8E4M3FN, block = [128, 1], scale = f32>
// CHECK: %[[RDY:.*]] = fp8.assemble {{.*}} -> !fp8.scaled<384x256xf8E4M3FN, block = [1, 128], scale = f32>
// CHECK: fp8.disassemble %[[TX]] : !fp8.scaled<256x512xf8E4M3FN, block = [128, 1], scale = f32>
// CHECK: %[[RX:.*]] = fp8.assemble {{.*}} -> !fp8.scaled<512x256xf8E4M3FN, block = [1, 128], scale = f32>
// CHECK: fp8.scaled_matmul %[[RDY]], %[[RX]] {fp8.gemm = #fp8.gemm<wgrad>
// CHECK-NOT: fp8.requantize

// hybrid: dY's column quantization in the gradient format too.
// HYBRID-DAG: fp8.quantize %{{.*}} : tensor<256x384xf32> -> !fp8.scaled<256x384xf8E5M2, block = [128, 1], scale = f32>
// HYBRID-DAG: fp8.quantize %{{.*}} : tensor<256x512xf32> -> !fp8.scaled<256x512xf8E4M3FN, block = [128, 1], scale = f32>
// HYBRID: fp8.scaled_matmul {{.*}} : !fp8.scaled<384x256xf8E5M2, block = [1, 128], scale = f32>, !fp8.scaled<512x256xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<384x512xf32>
// HYBRID-NOT: fp8.requantize

// Through fp8-pipeline (canonicalize and CSE after): five quantizations (W,
// X twice, dY twice), no requantize.
// PIPE-LABEL: func.func @joint
// PIPE-COUNT-5: fp8.quantize
// PIPE-NOT: fp8.quantize
// PIPE-NOT: fp8.requantize
// PIPE: return

// The default is DeepSeek-V3's: two requantizes, three quantizations.
// DEFAULT-NOT: wgrad_operands
// DEFAULT-LABEL: func.func @joint
// DEFAULT-COUNT-2: fp8.requantize
// DEFAULT-NOT: fp8.requantize
// DEFAULT: return

// BAD: Cannot find option named 'both'

func.func @joint(%x: tensor<256x512xf32>, %w: tensor<384x512xf32>, %dy: tensor<256x384xf32>) -> (tensor<256x384xf32>, tensor<256x512xf32>, tensor<384x512xf32>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<512x384xf32>
  %wt = linalg.transpose ins(%w : tensor<384x512xf32>) outs(%e0 : tensor<512x384xf32>) permutation = [1, 0]
  %e1 = tensor.empty() : tensor<256x384xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<256x384xf32>) -> tensor<256x384xf32>
  %y = linalg.matmul ins(%x, %wt : tensor<256x512xf32>, tensor<512x384xf32>) outs(%f1 : tensor<256x384xf32>) -> tensor<256x384xf32>
  %e2 = tensor.empty() : tensor<256x512xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<256x512xf32>) -> tensor<256x512xf32>
  %dx = linalg.matmul ins(%dy, %w : tensor<256x384xf32>, tensor<384x512xf32>) outs(%f2 : tensor<256x512xf32>) -> tensor<256x512xf32>
  %e3 = tensor.empty() : tensor<384x256xf32>
  %dyt = linalg.transpose ins(%dy : tensor<256x384xf32>) outs(%e3 : tensor<384x256xf32>) permutation = [1, 0]
  %e4 = tensor.empty() : tensor<384x512xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<384x512xf32>) -> tensor<384x512xf32>
  %dw = linalg.matmul ins(%dyt, %x : tensor<384x256xf32>, tensor<256x512xf32>) outs(%f4 : tensor<384x512xf32>) -> tensor<384x512xf32>
  return %y, %dx, %dw : tensor<256x384xf32>, tensor<256x512xf32>, tensor<384x512xf32>
}
