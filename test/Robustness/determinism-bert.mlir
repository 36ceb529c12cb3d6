// REQUIRES: models
// The same input gives byte-identical output across runs, and with and
// without multithreading, on a real graph (BERT-base, 12 layers).
// RUN: fp8-opt %models/bert_base_linalg.mlir -fp8-assign-precision -o %t.run1.mlir
// RUN: fp8-opt %models/bert_base_linalg.mlir -fp8-assign-precision -o %t.run2.mlir
// RUN: fp8-opt %models/bert_base_linalg.mlir -fp8-assign-precision --mlir-disable-threading -o %t.serial.mlir
// RUN: diff %t.run1.mlir %t.run2.mlir
// RUN: diff %t.run1.mlir %t.serial.mlir
// RUN: FileCheck %s < %t.run1.mlir

// The output is the transformed graph, not an empty module.
// CHECK: fp8.policy = #fp8.policy<name = "deepseek-v3"
// CHECK-COUNT-72: linalg.batch_matmul {{.*}}fp8.role = #fp8.role<
