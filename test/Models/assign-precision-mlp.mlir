// REQUIRES: models
// RUN: fp8-opt %models/mlp_fp32_3x1024.mlir -fp8-assign-precision | FileCheck %s --check-prefix=F32
// RUN: fp8-opt %models/mlp_bf16_3x1024.mlir -fp8-assign-precision | FileCheck %s --check-prefix=BF16

// F32-COUNT-3: linalg.matmul {fp8.precision = #fp8.precision<fp8>, fp8.reason = "heuristic: contraction with a weight (constant)", fp8.role = #fp8.role<linear>}
// F32-NOT: linalg.matmul
// BF16-COUNT-3: linalg.matmul {fp8.precision = #fp8.precision<fp8>, fp8.reason = "heuristic: contraction with a weight (constant)", fp8.role = #fp8.role<linear>}
// BF16-NOT: linalg.matmul
