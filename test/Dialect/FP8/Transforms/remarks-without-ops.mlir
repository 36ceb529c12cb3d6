// Remarks and warnings of the fp8 passes print their location and message
// only, never the whole op ("see current operation: ..." would dump a whole
// function for a remark on it); errors keep the op.
// RUN: fp8-opt %s -split-input-file -fp8-assign-precision -fp8-insert-quant -o /dev/null 2>&1 | FileCheck %s
// RUN: not fp8-opt %s -split-input-file -fp8-assign-precision=strict=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=STRICT

// CHECK: remark: fp8-assign-precision: no matmul-like contraction recognised in @elementwise; function left unchanged
// CHECK-NOT: see current operation
// STRICT: error: fp8-assign-precision: no matmul-like contraction recognised in @elementwise
// STRICT: see current operation
func.func @elementwise(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = arith.addf %x, %x : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// CHECK: remark: fp8-insert-quant: {{.*}}dynamic N or K
// CHECK-NOT: see current operation
func.func @dynamic(%x: tensor<16x?xf32>, %w: tensor<?x512xf32>, %init: tensor<16x512xf32>) -> tensor<16x512xf32> {
  %y = linalg.matmul ins(%x, %w : tensor<16x?xf32>, tensor<?x512xf32>) outs(%init : tensor<16x512xf32>) -> tensor<16x512xf32>
  return %y : tensor<16x512xf32>
}
