// REQUIRES: models
// The real graph, read unchanged; printing and re-parsing is stable, in the
// custom and the generic form.
// RUN: fp8-opt %models/bert_base_linalg.mlir -o %t.1.mlir
// RUN: fp8-opt %t.1.mlir -o %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: fp8-opt %models/bert_base_linalg.mlir --mlir-print-op-generic | fp8-opt -o %t.3.mlir
// RUN: diff %t.1.mlir %t.3.mlir
// RUN: FileCheck %s < %t.1.mlir

// CHECK: ml_program.global private mutable @global_seed
// CHECK-LABEL: func.func @forward
// CHECK-COUNT-72: linalg.batch_matmul
// CHECK-NOT: linalg.batch_matmul
