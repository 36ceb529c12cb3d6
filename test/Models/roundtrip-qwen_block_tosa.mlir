// REQUIRES: models
// The real graph, read unchanged; printing and re-parsing is stable, in the
// custom and the generic form.
// RUN: fp8-opt %models/qwen_block_tosa.mlir -o %t.1.mlir
// RUN: fp8-opt %t.1.mlir -o %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: fp8-opt %models/qwen_block_tosa.mlir --mlir-print-op-generic | fp8-opt -o %t.3.mlir
// RUN: diff %t.1.mlir %t.3.mlir
// RUN: FileCheck %s < %t.1.mlir

// CHECK: func.func private @rtclock
// CHECK: llvm.mlir.global private constant @op_name_input_layernorm
// CHECK-LABEL: func.func @subgraph0
// CHECK-COUNT-2: tosa.matmul
// CHECK-NOT: tosa.matmul
