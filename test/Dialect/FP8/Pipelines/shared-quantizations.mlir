// fp8-pipeline shares quantizations: the Q, K and V projections of one
// normalized hidden state read it once in FP8 (one fp8.quantize of %x, used
// by three fp8.scaled_matmul), and a weight used by two linears is
// quantized once. fp8-insert-quant emits one quantize per use; the
// pipeline's CSE merges identical ones.
// RUN: fp8-opt %s --fp8-pipeline="report=false" | FileCheck %s
// RUN: fp8-opt %s --fp8-insert-quant | FileCheck %s --check-prefix=UNSHARED

// CHECK-LABEL: func.func @qkv
// CHECK-COUNT-1: fp8.quantize %arg0 :
// CHECK-NOT: fp8.quantize %arg0 :
// CHECK-LABEL: func.func @same_weight_twice
// CHECK-COUNT-1: fp8.quantize %arg2 :
// CHECK-NOT: fp8.quantize %arg2 :
// UNSHARED-LABEL: func.func @qkv
// UNSHARED-COUNT-3: fp8.quantize %arg0 :
func.func @qkv(%x: tensor<32x256xf32>, %wq: tensor<256x256xf32>, %wk: tensor<256x256xf32>, %wv: tensor<256x256xf32>)
    -> (tensor<32x256xf32>, tensor<32x256xf32>, tensor<32x256xf32>) {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x256xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<32x256xf32>) -> tensor<32x256xf32>
  %q = linalg.matmul {fp8.precision = #fp8.precision<fp8>} ins(%x, %wq : tensor<32x256xf32>, tensor<256x256xf32>) outs(%f : tensor<32x256xf32>) -> tensor<32x256xf32>
  %k = linalg.matmul {fp8.precision = #fp8.precision<fp8>} ins(%x, %wk : tensor<32x256xf32>, tensor<256x256xf32>) outs(%f : tensor<32x256xf32>) -> tensor<32x256xf32>
  %v = linalg.matmul {fp8.precision = #fp8.precision<fp8>} ins(%x, %wv : tensor<32x256xf32>, tensor<256x256xf32>) outs(%f : tensor<32x256xf32>) -> tensor<32x256xf32>
  return %q, %k, %v : tensor<32x256xf32>, tensor<32x256xf32>, tensor<32x256xf32>
}

func.func @same_weight_twice(%x: tensor<32x256xf32>, %y: tensor<32x256xf32>, %w: tensor<512x256xf32>)
    -> (tensor<32x512xf32>, tensor<32x512xf32>) {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x512xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<32x512xf32>) -> tensor<32x512xf32>
  %a = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%x, %w : tensor<32x256xf32>, tensor<512x256xf32>) outs(%f : tensor<32x512xf32>) -> tensor<32x512xf32>
  %b = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%y, %w : tensor<32x256xf32>, tensor<512x256xf32>) outs(%f : tensor<32x512xf32>) -> tensor<32x512xf32>
  return %a, %b : tensor<32x512xf32>, tensor<32x512xf32>
}
