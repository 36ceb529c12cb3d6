// A weight stored NT [N, K] (as nn.Linear keeps it, used through explicit
// matmul_transpose_b maps) next to one stored [K, N], under every preset:
// the activation gets the policy's activation block and the weight the
// policy's weight block, each along its own K (docs/policies.md, "Presets").
// deepseek-v3 is the preset where the two differ (1x128 vs 128x128,
// DeepSeek-V3 §3.3.2), so a swap of the two is visible there.
// RUN: fp8-opt %s --fp8-pipeline="policy=deepseek-v3 report=false" | FileCheck %s --check-prefix=DSV3
// RUN: fp8-opt %s --fp8-pipeline="policy=per-tensor report=false" | FileCheck %s --check-prefix=TENSOR
// RUN: fp8-opt %s --fp8-pipeline="policy=rowwise report=false" | FileCheck %s --check-prefix=ROW
// RUN: fp8-opt %s --fp8-pipeline="policy=mxfp8 report=false" | FileCheck %s --check-prefix=MX

// DSV3-LABEL: func.func @nt_weight
// DSV3: fp8.quantize %{{.*}} : tensor<16x256xbf16> -> !fp8.scaled<16x256xf8E4M3FN, block = [1, 128], scale = f32>
// DSV3: fp8.quantize %{{.*}} : tensor<512x256xbf16> -> !fp8.scaled<512x256xf8E4M3FN, block = [128, 128], scale = f32>
// DSV3: fp8.scaled_matmul
// TENSOR-LABEL: func.func @nt_weight
// TENSOR: fp8.quantize %{{.*}} : tensor<16x256xbf16> -> !fp8.scaled<16x256xf8E4M3FN, block = [16, 256], scale = f32>
// TENSOR: fp8.quantize %{{.*}} : tensor<512x256xbf16> -> !fp8.scaled<512x256xf8E4M3FN, block = [512, 256], scale = f32>
// ROW-LABEL: func.func @nt_weight
// ROW: fp8.quantize %{{.*}} {scale_mode = #fp8.scale_mode<pow2>} : tensor<16x256xbf16> -> !fp8.scaled<16x256xf8E4M3FN, block = [1, 256], scale = f32>
// ROW: fp8.quantize %{{.*}} {scale_mode = #fp8.scale_mode<pow2>} : tensor<512x256xbf16> -> !fp8.scaled<512x256xf8E4M3FN, block = [1, 256], scale = f32>
// MX-LABEL: func.func @nt_weight
// MX: fp8.quantize %{{.*}} {scale_mode = #fp8.scale_mode<pow2>} : tensor<16x256xbf16> -> !fp8.scaled<16x256xf8E4M3FN, block = [1, 32], scale = f8E8M0FNU>
// MX: fp8.quantize %{{.*}} {scale_mode = #fp8.scale_mode<pow2>} : tensor<512x256xbf16> -> !fp8.scaled<512x256xf8E4M3FN, block = [1, 32], scale = f8E8M0FNU>
func.func @nt_weight(%x: tensor<16x256xbf16>, %w: tensor<512x256xbf16>) -> tensor<16x512xbf16> {
  %cst = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<16x512xbf16>
  %c = linalg.fill ins(%cst : bf16) outs(%e : tensor<16x512xbf16>) -> tensor<16x512xbf16>
  %y = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%x, %w : tensor<16x256xbf16>, tensor<512x256xbf16>) outs(%c : tensor<16x512xbf16>) -> tensor<16x512xbf16>
  return %y : tensor<16x512xbf16>
}

// The same weight stored [K, N]: made K-major (transposed) before its
// quantization, so the blocks are the same as above.
// DSV3-LABEL: func.func @kn_weight
// DSV3: fp8.quantize %{{.*}} : tensor<16x256xbf16> -> !fp8.scaled<16x256xf8E4M3FN, block = [1, 128], scale = f32>
// DSV3: linalg.transpose
// DSV3: fp8.quantize %{{.*}} : tensor<512x256xbf16> -> !fp8.scaled<512x256xf8E4M3FN, block = [128, 128], scale = f32>
// TENSOR-LABEL: func.func @kn_weight
// TENSOR: fp8.quantize %{{.*}} : tensor<512x256xbf16> -> !fp8.scaled<512x256xf8E4M3FN, block = [512, 256], scale = f32>
// ROW-LABEL: func.func @kn_weight
// ROW: fp8.quantize %{{.*}} : tensor<512x256xbf16> -> !fp8.scaled<512x256xf8E4M3FN, block = [1, 256], scale = f32>
// MX-LABEL: func.func @kn_weight
// MX: fp8.quantize %{{.*}} : tensor<512x256xbf16> -> !fp8.scaled<512x256xf8E4M3FN, block = [1, 32], scale = f8E8M0FNU>
func.func @kn_weight(%x: tensor<16x256xbf16>, %w: tensor<256x512xbf16>) -> tensor<16x512xbf16> {
  %cst = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<16x512xbf16>
  %c = linalg.fill ins(%cst : bf16) outs(%e : tensor<16x512xbf16>) -> tensor<16x512xbf16>
  %y = linalg.matmul ins(%x, %w : tensor<16x256xbf16>, tensor<256x512xbf16>) outs(%c : tensor<16x512xbf16>) -> tensor<16x512xbf16>
  return %y : tensor<16x512xbf16>
}
