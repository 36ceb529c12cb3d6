// REQUIRES: models
// fp8-pipeline followed by fp8-cpu-pipeline produces LLVM dialect that
// upstream tools accept (no fp8 dialect left, annotations stripped).
// RUN: fp8-opt %models/mlp_fp32_3x1024.mlir --fp8-pipeline="report=false" --fp8-cpu-pipeline -o %t.f32
// RUN: mlir-translate --mlir-to-llvmir %t.f32 | FileCheck %s
// RUN: fp8-opt %models/mlp_bf16_3x1024.mlir --fp8-pipeline="report=false" --fp8-cpu-pipeline -o %t.bf16
// RUN: mlir-translate --mlir-to-llvmir %t.bf16 | FileCheck %s
// RUN: not grep -q 'fp8\.' %t.f32
// RUN: not grep -q 'fp8\.' %t.bf16
// RUN: fp8-opt %models/qwen_block_tosa.mlir --fp8-pipeline="report=false" --fp8-cpu-pipeline -o %t.qwen
// RUN: mlir-translate --mlir-to-llvmir %t.qwen | FileCheck %s --check-prefix=QWEN

// CHECK: define {{.*}} @forward(
// QWEN: declare double @rtclock()
// QWEN: define {{.*}} @subgraph0(
