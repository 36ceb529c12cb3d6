// Device-resident tensors in the lowered host program (issue 28 item 2):
// the copies between host and device are the mgpuMemcpy calls, counted by
// hand for two linears in a chain, Y = (X W1^T) W2^T (the bytes they move,
// on the emulated runtime: test/Integration/GPUHost/resident.mlir).
// RUN: fp8-opt %s --fp8-pipeline=report=false --fp8-gpu-pipeline="chip=sm_90a host=llvm target=emulator" | FileCheck %s
// RUN: fp8-opt %s --fp8-pipeline=report=false --fp8-gpu-pipeline="chip=sm_90a host=llvm target=emulator resident=false" | FileCheck %s --check-prefix=COPY

// Resident: the host function copies X, W1 and W2 in (each on its first
// launch) and Y back: 4 copies; the launchers copy nothing, and H (the
// first GEMM's result, the second's quantize input) and the A scales of X
// and H (transposed into the GEMMs' layout by the transpose kernel) none.
// CHECK-NOT: llvm.call @mgpuMemcpy(
// CHECK-LABEL: llvm.func @chain(
// CHECK-COUNT-4: llvm.call @mgpuMemcpy(
// CHECK-NOT: llvm.call @mgpuMemcpy(

// resident=false: each launcher copies its operands: 3 quantize launches of
// 1 input and 2 results (X, W1, W2), 2 transpose launches of 1 input and 1
// result, the first GEMM with the quantize epilogue (H's quantize is
// computed by it: docs/gpu-kernel.md) of 4 inputs and 2 results (H's codes
// and scales), the second GEMM of 4 inputs and 1 result: 3 * 3 + 2 * 2 + 6
// + 5 = 24 copies, none in the host function.
// COPY-LABEL: llvm.func @chain(
// COPY-NOT: llvm.call @mgpuMemcpy(
// COPY: llvm.func @_mlir_ciface_chain(
// COPY-COUNT-24: llvm.call @mgpuMemcpy(
// COPY-NOT: llvm.call @mgpuMemcpy(

func.func @chain(%x: tensor<256x384xf32>, %w1: tensor<256x384xf32>, %w2: tensor<128x256xf32>) -> tensor<256x128xf32> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<384x256xf32>
  %w1t = linalg.transpose ins(%w1 : tensor<256x384xf32>) outs(%e0 : tensor<384x256xf32>) permutation = [1, 0]
  %e1 = tensor.empty() : tensor<256x256xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %h = linalg.matmul ins(%x, %w1t : tensor<256x384xf32>, tensor<384x256xf32>) outs(%f1 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %e2 = tensor.empty() : tensor<256x128xf32>
  %w2t = linalg.transpose ins(%w2 : tensor<128x256xf32>) outs(%e2 : tensor<256x128xf32>) permutation = [1, 0]
  %e3 = tensor.empty() : tensor<256x128xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<256x128xf32>) -> tensor<256x128xf32>
  %y = linalg.matmul ins(%h, %w2t : tensor<256x256xf32>, tensor<256x128xf32>) outs(%f3 : tensor<256x128xf32>) -> tensor<256x128xf32>
  return %y : tensor<256x128xf32>
}
