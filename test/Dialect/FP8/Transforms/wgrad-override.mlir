// RUN: fp8-opt %s -split-input-file -fp8-assign-precision=policy=hybrid | FileCheck %s --check-prefix=ROLES
// RUN: fp8-opt %s -split-input-file -fp8-assign-precision=policy=hybrid -fp8-insert-quant | FileCheck %s

// A weight gradient that only an override names (the fp8.gemm attribute):
// one operand already stored K-last ([F, T], not a transposed view), so the
// role analysis does not take the contraction for a weight gradient and
// pairs no dY. Then dY, which gets the policy's gradient format (hybrid:
// E5M2, X E4M3), is the operand defined later: dY is computed in the
// function (here doubled), X is an argument. dY is the left operand in
// @dy_left (dW = dY^T X) and the right one in @dy_right (dW^T = X^T dY): a
// choice by position, or by the wrong order, puts E5M2 on X in one of them.

// ROLES-LABEL: func.func @dy_left
// ROLES: linalg.matmul {fp8.gemm = #fp8.gemm<wgrad>, fp8.precision = #fp8.precision<fp8>, fp8.reason = "heuristic: contraction {{.*}}; gemm override: fp8.gemm attribute"
// CHECK-LABEL: func.func @dy_left
// CHECK: fp8.scaled_matmul {{.*}}fp8.gemm = #fp8.gemm<wgrad>{{.*}} : !fp8.scaled<384x256xf8E5M2, block = [1, 128], scale = f32>, !fp8.scaled<512x256xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<384x512xf32>
func.func @dy_left(%x: tensor<256x512xf32>, %gt: tensor<384x256xf32>) -> tensor<384x512xf32> {
  %dyt = arith.addf %gt, %gt : tensor<384x256xf32>
  %zero = arith.constant 0.0 : f32
  %o = tensor.empty() : tensor<384x512xf32>
  %f = linalg.fill ins(%zero : f32) outs(%o : tensor<384x512xf32>) -> tensor<384x512xf32>
  %dw = linalg.matmul {fp8.gemm = #fp8.gemm<wgrad>} ins(%dyt, %x : tensor<384x256xf32>, tensor<256x512xf32>) outs(%f : tensor<384x512xf32>) -> tensor<384x512xf32>
  return %dw : tensor<384x512xf32>
}

// -----

// ROLES-LABEL: func.func @dy_right
// ROLES: linalg.matmul {fp8.gemm = #fp8.gemm<wgrad>, fp8.precision = #fp8.precision<fp8>, fp8.reason = "heuristic: contraction {{.*}}; gemm override: fp8.gemm attribute"
// CHECK-LABEL: func.func @dy_right
// CHECK: fp8.scaled_matmul {{.*}}fp8.gemm = #fp8.gemm<wgrad>{{.*}} : !fp8.scaled<512x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<384x256xf8E5M2, block = [1, 128], scale = f32> -> tensor<512x384xf32>
func.func @dy_right(%xt: tensor<512x256xf32>, %g: tensor<256x384xf32>) -> tensor<512x384xf32> {
  %dy = arith.addf %g, %g : tensor<256x384xf32>
  %zero = arith.constant 0.0 : f32
  %o = tensor.empty() : tensor<512x384xf32>
  %f = linalg.fill ins(%zero : f32) outs(%o : tensor<512x384xf32>) -> tensor<512x384xf32>
  %dw = linalg.matmul {fp8.gemm = #fp8.gemm<wgrad>} ins(%xt, %dy : tensor<512x256xf32>, tensor<256x384xf32>) outs(%f : tensor<512x384xf32>) -> tensor<512x384xf32>
  return %dw : tensor<512x384xf32>
}
