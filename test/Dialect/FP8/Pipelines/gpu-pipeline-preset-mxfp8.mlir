// A linear under the `mxfp8` preset (1x32 blocks with E8M0 scales, promotion
// every 32 K) through fp8-gpu-pipeline: its quantize ops run on the MX
// quantize kernel (a warp per 1x32 block); the mxfp8 GEMM kernel (scale_k =
// 32) runs whole 128-K blocks, so with K = 400 the GEMM stays on the host,
// whose lowering (the CPU reference) computes it, with a remark naming the
// op and what is missing; the pipeline decides this for every op before it
// lowers any, so it never stops with an error after part of the graph was
// lowered (issue 28). The graph is bit-exact against fp8-cpu-pipeline:
// test/Integration/GPUHost/presets.mlir; the kernel (K = 384):
// test/Integration/GPUHost/mx-gemm.mlir.
// RUN: fp8-opt %s --fp8-pipeline="policy=mxfp8 report=false" --fp8-gpu-pipeline="config=fixed chip=sm_90a host=llvm target=emulator" -verify-diagnostics -o /dev/null

func.func @linear(%x: tensor<200x400xf32>, %w: tensor<300x400xf32>) -> tensor<200x300xbf16> {
  %zero = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<200x300xbf16>
  %z = linalg.fill ins(%zero : bf16) outs(%e : tensor<200x300xbf16>) -> tensor<200x300xbf16>
  // expected-remark @+1 {{fp8-lower-to-nvvm: no GPU GEMM kernel for 'fp8.scaled_matmul' (the mxfp8 kernel needs a static K that is a multiple of 128, got 400); the op stays on the host}}
  %y = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : tensor<200x400xf32>, tensor<300x400xf32>) outs(%z : tensor<200x300xbf16>) -> tensor<200x300xbf16>
  return %y : tensor<200x300xbf16>
}
