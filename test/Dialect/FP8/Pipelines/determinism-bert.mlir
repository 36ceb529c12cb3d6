// REQUIRES: models
// The same input gives byte-identical output (the FP8 graph and the report)
// across runs, and with and without multithreading, on a real graph
// (BERT-base, 12 layers).
// RUN: fp8-opt %models/bert_base_linalg.mlir --fp8-pipeline="policy=deepseek-v3" -o %t.run1.mlir > %t.run1.txt
// RUN: fp8-opt %models/bert_base_linalg.mlir --fp8-pipeline="policy=deepseek-v3" -o %t.run2.mlir > %t.run2.txt
// RUN: fp8-opt %models/bert_base_linalg.mlir --fp8-pipeline="policy=deepseek-v3" --mlir-disable-threading -o %t.serial.mlir > %t.serial.txt
// RUN: diff %t.run1.mlir %t.run2.mlir
// RUN: diff %t.run1.mlir %t.serial.mlir
// RUN: diff %t.run1.txt %t.run2.txt
// RUN: diff %t.run1.txt %t.serial.txt
// RUN: FileCheck %s < %t.run1.mlir
// RUN: FileCheck %s --check-prefix=REPORT < %t.run1.txt

// The output is the transformed graph, not an empty module.
// CHECK: fp8.policy = #fp8.policy<name = "deepseek-v3"
// CHECK-COUNT-49: fp8.scaled_matmul
// CHECK-NOT: fp8.scaled_matmul
// REPORT: fp8-report: policy deepseek-v3
// REPORT: in FP8:
