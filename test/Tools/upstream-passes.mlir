// The upstream passes that the pipelines build on are registered in fp8-opt.
// RUN: fp8-opt --help | FileCheck %s
// CHECK-DAG: --tosa-to-linalg
// CHECK-DAG: --one-shot-bufferize
// CHECK-DAG: --convert-linalg-to-loops
// CHECK-DAG: --convert-nvgpu-to-nvvm
// CHECK-DAG: --gpu-module-to-binary
// CHECK-DAG: --canonicalize
// CHECK-DAG: --cse
