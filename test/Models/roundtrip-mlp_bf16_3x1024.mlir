// REQUIRES: models
// The real graph, read unchanged; printing and re-parsing is stable, in the
// custom and the generic form.
// RUN: fp8-opt %models/mlp_bf16_3x1024.mlir -o %t.1.mlir
// RUN: fp8-opt %t.1.mlir -o %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: fp8-opt %models/mlp_bf16_3x1024.mlir --mlir-print-op-generic | fp8-opt -o %t.3.mlir
// RUN: diff %t.1.mlir %t.3.mlir
// RUN: FileCheck %s < %t.1.mlir

// CHECK-LABEL: func.func @forward
// CHECK-COUNT-3: linalg.matmul
// CHECK: return
