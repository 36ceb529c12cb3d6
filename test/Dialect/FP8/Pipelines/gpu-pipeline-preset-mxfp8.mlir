// A linear under the `mxfp8` preset (1x32 blocks with E8M0 scales,
// promotion every 32 K) through fp8-gpu-pipeline: its quantize ops run on
// the MX quantize kernel (a warp per 1x32 block) and its GEMM on the mxfp8
// kernel (scale_k = 32), whose last K block runs only the k32 steps inside
// K = 400 = 3 * 128 + 16; so no op stays on the host and no remark is
// emitted (-verify-diagnostics fails on any). The graph is bit-exact against
// fp8-cpu-pipeline: test/Integration/GPUHost/presets.mlir.
// RUN: fp8-opt %s --fp8-pipeline="policy=mxfp8 report=false" --fp8-gpu-pipeline="config=fixed chip=sm_90a host=llvm target=emulator" -verify-diagnostics -o /dev/null
// RUN: fp8-opt %s --fp8-pipeline="policy=mxfp8 report=false" --fp8-gpu-pipeline="config=fixed chip=sm_90a" | FileCheck %s

// CHECK-LABEL: func.func @linear
// CHECK: call @fp8_launch_fp8_quantize_200x400_1x32_f32_e4m3_pow2_ue8m0(
// CHECK: call @fp8_launch_fp8_quantize_300x400_1x32_f32_e4m3_pow2_ue8m0(
// CHECK: call @fp8_launch_fp8_scaled_matmul_200x300x400_e4m3_e4m3_bf16_b1x128_mx32_t128x64s8(
// CHECK-NOT: fp8.scaled_matmul
// CHECK-NOT: fp8.quantize

func.func @linear(%x: tensor<200x400xf32>, %w: tensor<300x400xf32>) -> tensor<200x300xbf16> {
  %zero = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<200x300xbf16>
  %z = linalg.fill ins(%zero : bf16) outs(%e : tensor<200x300xbf16>) -> tensor<200x300xbf16>
  %y = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : tensor<200x400xf32>, tensor<300x400xf32>) outs(%z : tensor<200x300xbf16>) -> tensor<200x300xbf16>
  return %y : tensor<200x300xbf16>
}
