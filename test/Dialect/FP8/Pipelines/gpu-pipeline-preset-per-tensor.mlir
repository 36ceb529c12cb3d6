// A linear under the `per-tensor` preset (whole-tensor blocks ([200, 400] and [300, 400], f32 scales)) through fp8-gpu-pipeline: every op
// no kernel implements stays on the host, whose lowering (the CPU reference)
// computes it, with a remark naming the op and what is missing (here the
// quantize ops: the GEMM is the whole-K-scales kernel, scale_k = k); the pipeline
// decides this for every op before it lowers any, so it never stops with an
// error after part of the graph was lowered (issue 28). The graph is
// bit-exact against fp8-cpu-pipeline: test/Integration/GPUHost/presets.mlir.
// RUN: fp8-opt %s --fp8-pipeline="policy=per-tensor report=false" --fp8-gpu-pipeline="config=fixed chip=sm_90a host=llvm target=emulator" -verify-diagnostics -o /dev/null

func.func @linear(%x: tensor<200x400xf32>, %w: tensor<300x400xf32>) -> tensor<200x300xbf16> {
  %zero = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<200x300xbf16>
  %z = linalg.fill ins(%zero : bf16) outs(%e : tensor<200x300xbf16>) -> tensor<200x300xbf16>
  // expected-remark @+2 {{fp8-lower-to-nvvm: no GPU quantize kernel (implements blocks [1, 128], [128, 128], [1, 32] (MX) and [1, cols] (rowwise), got [200, 400]); the op stays on the host ('fp8.quantize' of 'tensor<200x400xf32>')}}
  // expected-remark @+1 {{fp8-lower-to-nvvm: no GPU quantize kernel (implements blocks [1, 128], [128, 128], [1, 32] (MX) and [1, cols] (rowwise), got [300, 400]); the op stays on the host ('fp8.quantize' of 'tensor<300x400xf32>')}}
  %y = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : tensor<200x400xf32>, tensor<300x400xf32>) outs(%z : tensor<200x300xbf16>) -> tensor<200x300xbf16>
  return %y : tensor<200x300xbf16>
}
