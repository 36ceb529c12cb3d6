// A policy's whole-dimension block (`?`: per-tensor, rowwise) on an empty
// dimension. fp8-insert-quant made it the dimension's size, 0: an
// !fp8.scaled type with block 0, which the type's own verifier rejects (the
// printed IR did not parse back), fp8-lower-to-linalg then divided by it
// (a crash), and the grouped path divided by it in fp8-insert-quant itself.
// The block is 1 there now (blocks are positive; any size gives zero blocks
// on an empty dimension), and the output parses back and lowers.
// RUN: fp8-opt %s -split-input-file --fp8-pipeline="policy=per-tensor report=false" | fp8-opt -split-input-file | FileCheck %s --check-prefix=TENSOR
// RUN: fp8-opt %s -split-input-file --fp8-pipeline="policy=rowwise report=false" | fp8-opt -split-input-file | FileCheck %s --check-prefix=ROW
// RUN: fp8-opt %s -split-input-file --fp8-pipeline="policy=per-tensor report=false" --fp8-cpu-pipeline | FileCheck %s --check-prefix=CPU
// RUN: fp8-opt %s -split-input-file --fp8-pipeline="policy=rowwise report=false" --fp8-cpu-pipeline | FileCheck %s --check-prefix=CPU

// No M: the activation is [0, 128].
// TENSOR-LABEL: func.func @empty_m
// TENSOR: fp8.quantize %{{.*}} : tensor<0x128xf32> -> !fp8.scaled<0x128xf8E4M3FN, block = [1, 128], scale = f32>
// TENSOR: fp8.scaled_matmul
// ROW-LABEL: func.func @empty_m
// ROW: fp8.scaled_matmul
// CPU: llvm.func @empty_m
func.func @empty_m(%a: tensor<0x128xf32>, %b: tensor<128x256xf32>) -> tensor<0x256xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<0x256xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<0x256xf32>) -> tensor<0x256xf32>
  %r = linalg.matmul ins(%a, %b : tensor<0x128xf32>, tensor<128x256xf32>) outs(%c : tensor<0x256xf32>) -> tensor<0x256xf32>
  return %r : tensor<0x256xf32>
}

// -----

// No K: rowwise blocks span K, which is empty.
// ROW-LABEL: func.func @empty_k
// ROW: -> !fp8.scaled<16x0xf8E4M3FN, block = [1, 1], scale = f32>
// ROW: fp8.scaled_matmul
// CPU: llvm.func @empty_k
func.func @empty_k(%a: tensor<16x0xf32>, %b: tensor<0x256xf32>) -> tensor<16x256xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x256xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<16x256xf32>) -> tensor<16x256xf32>
  %r = linalg.matmul ins(%a, %b : tensor<16x0xf32>, tensor<0x256xf32>) outs(%c : tensor<16x256xf32>) -> tensor<16x256xf32>
  return %r : tensor<16x256xf32>
}

// -----

// Per-group weights with no rows per group: the grouped path's
// `rows % block` divided by 0 inside fp8-insert-quant.
// TENSOR-LABEL: func.func @grouped_empty_rows
// TENSOR: fp8.grouped_scaled_matmul
// CPU: llvm.func @grouped_empty_rows
func.func @grouped_empty_rows(%a: tensor<4x0x128xf32>, %c: tensor<4x0x64xf32>) -> tensor<4x0x64xf32> {
  %b = arith.constant dense<2.0> : tensor<4x128x64xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<4x0x128xf32>, tensor<4x128x64xf32>) outs(%c : tensor<4x0x64xf32>) -> tensor<4x0x64xf32>
  return %r : tensor<4x0x64xf32>
}
