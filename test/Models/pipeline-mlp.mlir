// REQUIRES: models
// RUN: fp8-opt %models/mlp_fp32_3x1024.mlir --fp8-pipeline="report=false" | FileCheck %s --check-prefix=F32
// RUN: fp8-opt %models/mlp_bf16_3x1024.mlir --fp8-pipeline="report=false" | FileCheck %s --check-prefix=BF16
// RUN: fp8-opt %models/mlp_fp32_3x1024.mlir --fp8-pipeline | FileCheck %s --check-prefix=REPORT

// All three linears in FP8; the splat weights (1.4, 1.5, 1.6) quantized
// at compile time: amax = v, s = v/448, code 448.
// F32-DAG: arith.constant dense<4.480000e+02> : tensor<1024x1024xf8E4M3FN>
// F32-DAG: arith.constant dense<0.00357142859> : tensor<8x8xf32>
// F32-COUNT-3: fp8.scaled_matmul {{.*}} -> tensor<256x1024xf32>
// F32-NOT: linalg.matmul
// BF16-COUNT-3: fp8.scaled_matmul {{.*}} -> tensor<256x1024xbf16>
// BF16-NOT: linalg.matmul
// 3 * 2*256*1024*1024 = 1.61 GFLOP, all FP8; weights 3 * 4 MiB f32 -> 3 *
// (1 MiB + 64 scales * 4 B).
// REPORT: in FP8:              1.61 GFLOP (100.0%)
// REPORT: linear weights:      12.00 MiB before, 3.00 MiB after
