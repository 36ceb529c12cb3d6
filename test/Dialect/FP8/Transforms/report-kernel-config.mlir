// fp8-report's JSON carries, per FP8 GEMM, the sm_90a kernel configuration
// the cost model chooses (GemmCostModel.h, docs/gpu-kernel.md) on `chip`
// and its modelled time; null for a GEMM without a static M (unless
// `tokens` gives one).
// RUN: fp8-opt %s -fp8-assign-precision -fp8-report=format=json -o /dev/null | FileCheck %s
// RUN: fp8-opt %s -fp8-assign-precision -fp8-report="format=json chip=h100-sxm tokens=64" -o /dev/null | FileCheck %s --check-prefix=H100
// RUN: not fp8-opt %s -fp8-report="chip=b200" 2>&1 | FileCheck %s --check-prefix=BAD

// 128x2112x7168: 64x32 tiles give 2 x ceil(2112 / 32) = 132 CTAs, one per
// SM (1 wave), no clusters (the model does not choose them); the 8-stage
// ring takes 8 x (64 + 32 + 2) x 128 B = 100352 B.
// CHECK: "chip": "h200"
// CHECK: "kernel_config": {
// CHECK-NEXT: "block_k": 128,
// CHECK-NEXT: "block_m": 64,
// CHECK-NEXT: "block_n": 32,
// CHECK-NEXT: "cluster": 1,
// CHECK-NEXT: "consumers": 1,
// CHECK-NEXT: "ctas": 132,
// A and B (16 MB) fit in half of L2: read once, row-major order (group 1).
// CHECK-NEXT: "group_m": 1,
// CHECK-NEXT: "hbm_bytes": 16629472,
// CHECK-NEXT: "k": 7168,
// CHECK-NEXT: "m": 128,
// CHECK-NEXT: "modelled_tflops": {{[0-9.]+}},
// CHECK-NEXT: "modelled_us": {{[0-9.]+}},
// CHECK-NEXT: "n": 2112,
// Lock-step: 64 rows, one consumer (the overlapped promotion needs two).
// CHECK-NEXT: "overlap": 0,
// CHECK-NEXT: "stages": 8,
// CHECK-NEXT: "waves": 1,
// CHECK-NEXT: "why_fewer_ctas": ""
// CHECK: "shape": "128x2112x7168"
// The dynamic-M GEMM without `tokens`: no configuration.
// CHECK: "kernel_config": null
// CHECK: "shape": "?x2112x7168"

// At tokens=64: 64x16 tiles, 1 x 132 CTAs.
// H100: "chip": "h100-sxm"
// H100: "block_m": 64,
// H100-NEXT: "block_n": 32,
// H100: "m": 128,
// H100: "block_m": 64,
// H100-NEXT: "block_n": 16,
// H100: "ctas": 132,
// H100: "m": 64,

// BAD: fp8-report: unknown chip 'b200' in option chip (expected one of h100-sxm, h200)

func.func @decode(%x: tensor<128x7168xbf16>, %w: tensor<7168x2112xbf16>) -> tensor<128x2112xbf16> {
  %e = tensor.empty() : tensor<128x2112xbf16>
  %y = linalg.matmul ins(%x, %w : tensor<128x7168xbf16>, tensor<7168x2112xbf16>) outs(%e : tensor<128x2112xbf16>) -> tensor<128x2112xbf16>
  return %y : tensor<128x2112xbf16>
}

func.func @any_tokens(%x: tensor<?x7168xbf16>, %w: tensor<7168x2112xbf16>) -> tensor<?x2112xbf16> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x7168xbf16>
  %e = tensor.empty(%m) : tensor<?x2112xbf16>
  %y = linalg.matmul ins(%x, %w : tensor<?x7168xbf16>, tensor<7168x2112xbf16>) outs(%e : tensor<?x2112xbf16>) -> tensor<?x2112xbf16>
  return %y : tensor<?x2112xbf16>
}
