// RUN: fp8-opt %s --fp8-cpu-pipeline | FileCheck %s
// RUN: fp8-opt %s --fp8-cpu-pipeline -o %t.1 && fp8-opt %s --fp8-cpu-pipeline -o %t.2 && diff %t.1 %t.2
// RUN: fp8-opt %s --fp8-constant-globals | FileCheck %s --check-prefix=PASS

// The globals of tensor constants come out in module order, named in that
// order (upstream's __constant_<shape>, then _0, _1, ... on a clash), and
// one global serves equal constants (f7's is f2's), on every run: one-shot
// bufferization alone created them in an order taken from a pointer-keyed
// map (8 functions: a different order, and names, on almost every run).

// CHECK: llvm.mlir.global private constant @__constant_4xf32(dense<[0.000000e+00, 1.000000e+00, 2.000000e+00, 3.000000e+00]>
// CHECK-NEXT: llvm.mlir.global private constant @__constant_4xf32_0(dense<[1.000000e+00, 1.000000e+00, 2.000000e+00, 4.000000e+00]>
// CHECK-NEXT: llvm.mlir.global private constant @__constant_4xf32_1(dense<[2.000000e+00, 1.000000e+00, 2.000000e+00, 5.000000e+00]>
// CHECK-NEXT: llvm.mlir.global private constant @__constant_4xf32_2(dense<[3.000000e+00, 1.000000e+00, 2.000000e+00, 6.000000e+00]>
// CHECK-NEXT: llvm.mlir.global private constant @__constant_4xf32_3(dense<[4.000000e+00, 1.000000e+00, 2.000000e+00, 7.000000e+00]>
// CHECK-NEXT: llvm.mlir.global private constant @__constant_4xf32_4(dense<[5.000000e+00, 1.000000e+00, 2.000000e+00, 8.000000e+00]>
// CHECK-NEXT: llvm.mlir.global private constant @__constant_4xf32_5(dense<[6.000000e+00, 1.000000e+00, 2.000000e+00, 9.000000e+00]>
// CHECK-NOT: llvm.mlir.global
// CHECK-LABEL: llvm.func @f0(
// CHECK: llvm.mlir.addressof @__constant_4xf32 :
// CHECK-LABEL: llvm.func @f1(
// CHECK: llvm.mlir.addressof @__constant_4xf32_0 :
// CHECK-LABEL: llvm.func @f6(
// CHECK: llvm.mlir.addressof @__constant_4xf32_5 :
// CHECK-LABEL: llvm.func @f7(
// CHECK: llvm.mlir.addressof @__constant_4xf32_1 :

// The pass alone: the globals after the one already at the module's start,
// in module order; the constants stay (bufferization replaces them).
// PASS: memref.global "private" constant @table : memref<2xf32> = dense<[1.000000e+00, 2.000000e+00]>
// PASS-NEXT: memref.global "private" constant @__constant_4xf32 : memref<4xf32> = dense<[0.000000e+00, 1.000000e+00, 2.000000e+00, 3.000000e+00]> {alignment = 64 : i64}
// PASS-NEXT: memref.global "private" constant @__constant_4xf32_0 : memref<4xf32> = dense<[1.000000e+00,
// PASS-NEXT: memref.global "private" constant @__constant_4xf32_1 : memref<4xf32> = dense<[2.000000e+00,
// PASS-NEXT: memref.global "private" constant @__constant_4xf32_2 : memref<4xf32> = dense<[3.000000e+00,
// PASS-NEXT: memref.global "private" constant @__constant_4xf32_3 : memref<4xf32> = dense<[4.000000e+00,
// PASS-NEXT: memref.global "private" constant @__constant_4xf32_4 : memref<4xf32> = dense<[5.000000e+00,
// PASS-NEXT: memref.global "private" constant @__constant_4xf32_5 : memref<4xf32> = dense<[6.000000e+00,
// PASS-NEXT: func.func @f0(
// PASS-NEXT: arith.constant dense<[0.000000e+00, 1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<4xf32>
// PASS-NOT: memref.global

memref.global "private" constant @table : memref<2xf32> = dense<[1.0, 2.0]>
func.func @f0(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<[0.0, 1.0, 2.0, 3.0]> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.add ins(%x, %c : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @f1(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<[1.0, 1.0, 2.0, 4.0]> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.add ins(%x, %c : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @f2(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<[2.0, 1.0, 2.0, 5.0]> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.add ins(%x, %c : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @f3(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<[3.0, 1.0, 2.0, 6.0]> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.add ins(%x, %c : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @f4(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<[4.0, 1.0, 2.0, 7.0]> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.add ins(%x, %c : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @f5(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<[5.0, 1.0, 2.0, 8.0]> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.add ins(%x, %c : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @f6(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<[6.0, 1.0, 2.0, 9.0]> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.add ins(%x, %c : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @f7(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<[2.0, 1.0, 2.0, 5.0]> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.add ins(%x, %c : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y0 = call @f0(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %y1 = call @f1(%y0) : (tensor<4xf32>) -> tensor<4xf32>
  %y2 = call @f2(%y1) : (tensor<4xf32>) -> tensor<4xf32>
  %y3 = call @f3(%y2) : (tensor<4xf32>) -> tensor<4xf32>
  %y4 = call @f4(%y3) : (tensor<4xf32>) -> tensor<4xf32>
  %y5 = call @f5(%y4) : (tensor<4xf32>) -> tensor<4xf32>
  %y6 = call @f6(%y5) : (tensor<4xf32>) -> tensor<4xf32>
  %y7 = call @f7(%y6) : (tensor<4xf32>) -> tensor<4xf32>
  return %y7 : tensor<4xf32>
}
