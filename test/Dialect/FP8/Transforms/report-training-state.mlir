// RUN: fp8-opt %s -split-input-file -fp8-report -o /dev/null | FileCheck %s

// The report's training state (master weights, weight gradients, AdamW
// moments) follows from the policy's fields, not its name: DeepSeek-V3's
// recipe (§3.3.3: BF16 moments) is FP8 linears with 1xB activation tiles
// and BxB weight blocks, whatever the policy is called. One linear's joint
// training step, annotated as fp8-assign-precision would (which writes a
// preset over the module's policy); W has 128 * 256 = 32768 elements: 128.00 KiB in f32,
// two moments of 2 B each = 128.00 KiB in bf16, 256.00 KiB in f32.

// A user-written policy with deepseek-v3's fields under another name.
// CHECK-LABEL: fp8-report: policy my-recipe (
// CHECK: master weights f32 (128.00 KiB), weight gradients f32 (128.00 KiB), optimizer moments bf16 (128.00 KiB) for the 32768 linear weight elements
module attributes {fp8.policy = #fp8.policy<name = "my-recipe", format = f8E4M3FN, grad_format = f8E4M3FN, activation_block = [1, 128], weight_block = [128, 128], scale_mode = f32, scale_type = f32, eps = 1.0e-4, promote_interval = 128, high = bf16, keep_high = [embedding, output_head, gating, normalization, attention]>} {
func.func @joint(%x: tensor<64x256xf32>, %w: tensor<128x256xf32>, %dy: tensor<64x128xf32>) -> (tensor<64x128xf32>, tensor<64x256xf32>, tensor<128x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<256x128xf32>
  %wt = linalg.transpose ins(%w : tensor<128x256xf32>) outs(%e0 : tensor<256x128xf32>) permutation = [1, 0]
  %e1 = tensor.empty() : tensor<64x128xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<64x128xf32>) -> tensor<64x128xf32>
  %y = linalg.matmul {fp8.gemm = #fp8.gemm<fprop>, fp8.precision = #fp8.precision<fp8>, fp8.role = #fp8.role<linear>} ins(%x, %wt : tensor<64x256xf32>, tensor<256x128xf32>) outs(%f1 : tensor<64x128xf32>) -> tensor<64x128xf32>
  %e2 = tensor.empty() : tensor<64x256xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<64x256xf32>) -> tensor<64x256xf32>
  %dx = linalg.matmul {fp8.gemm = #fp8.gemm<dgrad>, fp8.precision = #fp8.precision<fp8>, fp8.role = #fp8.role<linear>} ins(%dy, %w : tensor<64x128xf32>, tensor<128x256xf32>) outs(%f2 : tensor<64x256xf32>) -> tensor<64x256xf32>
  %e3 = tensor.empty() : tensor<128x64xf32>
  %dyt = linalg.transpose ins(%dy : tensor<64x128xf32>) outs(%e3 : tensor<128x64xf32>) permutation = [1, 0]
  %e4 = tensor.empty() : tensor<128x256xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<128x256xf32>) -> tensor<128x256xf32>
  %dw = linalg.matmul {fp8.gemm = #fp8.gemm<wgrad>, fp8.precision = #fp8.precision<fp8>, fp8.role = #fp8.role<linear>} ins(%dyt, %x : tensor<128x64xf32>, tensor<64x256xf32>) outs(%f4 : tensor<128x256xf32>) -> tensor<128x256xf32>
  return %y, %dx, %dw : tensor<64x128xf32>, tensor<64x256xf32>, tensor<128x256xf32>
}
}

// -----

// Named deepseek-v3, but every linear kept high: a BF16 baseline, no FP8
// training, so FP32 moments.
// CHECK-LABEL: fp8-report: policy deepseek-v3 (
// CHECK: master weights f32 (128.00 KiB), weight gradients f32 (128.00 KiB), optimizer moments f32 (256.00 KiB) for the 32768 linear weight elements
module attributes {fp8.policy = #fp8.policy<"deepseek-v3", keep_high = [linear, embedding, output_head, gating, normalization, attention]>} {
func.func @joint(%x: tensor<64x256xf32>, %w: tensor<128x256xf32>, %dy: tensor<64x128xf32>) -> (tensor<64x128xf32>, tensor<64x256xf32>, tensor<128x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<256x128xf32>
  %wt = linalg.transpose ins(%w : tensor<128x256xf32>) outs(%e0 : tensor<256x128xf32>) permutation = [1, 0]
  %e1 = tensor.empty() : tensor<64x128xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<64x128xf32>) -> tensor<64x128xf32>
  %y = linalg.matmul {fp8.gemm = #fp8.gemm<fprop>, fp8.precision = #fp8.precision<bf16>, fp8.role = #fp8.role<linear>} ins(%x, %wt : tensor<64x256xf32>, tensor<256x128xf32>) outs(%f1 : tensor<64x128xf32>) -> tensor<64x128xf32>
  %e2 = tensor.empty() : tensor<64x256xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<64x256xf32>) -> tensor<64x256xf32>
  %dx = linalg.matmul {fp8.gemm = #fp8.gemm<dgrad>, fp8.precision = #fp8.precision<bf16>, fp8.role = #fp8.role<linear>} ins(%dy, %w : tensor<64x128xf32>, tensor<128x256xf32>) outs(%f2 : tensor<64x256xf32>) -> tensor<64x256xf32>
  %e3 = tensor.empty() : tensor<128x64xf32>
  %dyt = linalg.transpose ins(%dy : tensor<64x128xf32>) outs(%e3 : tensor<128x64xf32>) permutation = [1, 0]
  %e4 = tensor.empty() : tensor<128x256xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<128x256xf32>) -> tensor<128x256xf32>
  %dw = linalg.matmul {fp8.gemm = #fp8.gemm<wgrad>, fp8.precision = #fp8.precision<bf16>, fp8.role = #fp8.role<linear>} ins(%dyt, %x : tensor<128x64xf32>, tensor<64x256xf32>) outs(%f4 : tensor<128x256xf32>) -> tensor<128x256xf32>
  return %y, %dx, %dw : tensor<64x128xf32>, tensor<64x256xf32>, tensor<128x256xf32>
}
}

// -----

// A user-written policy with 1x128 blocks for weights too (no square weight
// blocks, as mxfp8 and rowwise): FP8 linears, but not DeepSeek-V3's recipe.
// CHECK-LABEL: fp8-report: policy my-rowblocks (
// CHECK: master weights f32 (128.00 KiB), weight gradients f32 (128.00 KiB), optimizer moments f32 (256.00 KiB) for the 32768 linear weight elements
module attributes {fp8.policy = #fp8.policy<"deepseek-v3", name = "my-rowblocks", weight_block = [1, 128]>} {
func.func @joint(%x: tensor<64x256xf32>, %w: tensor<128x256xf32>, %dy: tensor<64x128xf32>) -> (tensor<64x128xf32>, tensor<64x256xf32>, tensor<128x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<256x128xf32>
  %wt = linalg.transpose ins(%w : tensor<128x256xf32>) outs(%e0 : tensor<256x128xf32>) permutation = [1, 0]
  %e1 = tensor.empty() : tensor<64x128xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<64x128xf32>) -> tensor<64x128xf32>
  %y = linalg.matmul {fp8.gemm = #fp8.gemm<fprop>, fp8.precision = #fp8.precision<fp8>, fp8.role = #fp8.role<linear>} ins(%x, %wt : tensor<64x256xf32>, tensor<256x128xf32>) outs(%f1 : tensor<64x128xf32>) -> tensor<64x128xf32>
  %e2 = tensor.empty() : tensor<64x256xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<64x256xf32>) -> tensor<64x256xf32>
  %dx = linalg.matmul {fp8.gemm = #fp8.gemm<dgrad>, fp8.precision = #fp8.precision<fp8>, fp8.role = #fp8.role<linear>} ins(%dy, %w : tensor<64x128xf32>, tensor<128x256xf32>) outs(%f2 : tensor<64x256xf32>) -> tensor<64x256xf32>
  %e3 = tensor.empty() : tensor<128x64xf32>
  %dyt = linalg.transpose ins(%dy : tensor<64x128xf32>) outs(%e3 : tensor<128x64xf32>) permutation = [1, 0]
  %e4 = tensor.empty() : tensor<128x256xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<128x256xf32>) -> tensor<128x256xf32>
  %dw = linalg.matmul {fp8.gemm = #fp8.gemm<wgrad>, fp8.precision = #fp8.precision<fp8>, fp8.role = #fp8.role<linear>} ins(%dyt, %x : tensor<128x64xf32>, tensor<64x256xf32>) outs(%f4 : tensor<128x256xf32>) -> tensor<128x256xf32>
  return %y, %dx, %dw : tensor<64x128xf32>, tensor<64x256xf32>, tensor<128x256xf32>
}
}
