// RUN: fp8-opt %s -split-input-file -fp8-assign-precision | FileCheck %s
// RUN: fp8-opt %s -split-input-file -fp8-assign-precision -fp8-insert-quant -fp8-report -o /dev/null | FileCheck %s --check-prefix=REPORT

// The gradients of a vocabulary-sized output head (V = 32000 >= kMinVocab)
// in a split backward: the Dgrad contracts over the vocabulary, the weight
// gradient has a vocabulary-sized dimension whichever way it is stored,
// [V, H] (dYᵀ X) or [H, V] (Xᵀ dY); both stay in the policy's high
// precision with the head, by their own size (no Dgrad shares their dY).

#id = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @head_backward_hv
// CHECK: linalg.matmul {fp8.gemm = #fp8.gemm<wgrad>, fp8.precision = #fp8.precision<bf16>, fp8.reason = "heuristic: weight gradient of a vocabulary-sized linear (128x32000)", fp8.role = #fp8.role<output_head>}
// REPORT: linalg.matmul {{.*}}output_head/wgrad bf16 128x32000x16
func.func @head_backward_hv(%h: tensor<16x128xf32>, %dlogits: tensor<16x32000xf32>) -> tensor<128x32000xf32> {
  %c0 = arith.constant 0.0 : f32
  %et = tensor.empty() : tensor<128x16xf32>
  %ht = linalg.transpose ins(%h : tensor<16x128xf32>) outs(%et : tensor<128x16xf32>) permutation = [1, 0]
  %e = tensor.empty() : tensor<128x32000xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<128x32000xf32>) -> tensor<128x32000xf32>
  %dwt = linalg.matmul ins(%ht, %dlogits : tensor<128x16xf32>, tensor<16x32000xf32>) outs(%z : tensor<128x32000xf32>) -> tensor<128x32000xf32>
  return %dwt : tensor<128x32000xf32>
}

// -----

// CHECK-LABEL: func.func @head_backward_vh
// CHECK: linalg.matmul {fp8.gemm = #fp8.gemm<wgrad>, fp8.precision = #fp8.precision<bf16>, fp8.reason = "heuristic: weight gradient of a vocabulary-sized linear (32000x128)", fp8.role = #fp8.role<output_head>}
func.func @head_backward_vh(%h: tensor<16x128xf32>, %dlogits: tensor<16x32000xf32>) -> tensor<32000x128xf32> {
  %c0 = arith.constant 0.0 : f32
  %et = tensor.empty() : tensor<32000x16xf32>
  %dt = linalg.transpose ins(%dlogits : tensor<16x32000xf32>) outs(%et : tensor<32000x16xf32>) permutation = [1, 0]
  %e = tensor.empty() : tensor<32000x128xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<32000x128xf32>) -> tensor<32000x128xf32>
  %dw = linalg.matmul ins(%dt, %h : tensor<32000x16xf32>, tensor<16x128xf32>) outs(%z : tensor<32000x128xf32>) -> tensor<32000x128xf32>
  return %dw : tensor<32000x128xf32>
}

// -----

// The Dgrad with the [H, V] weight gradient sharing its dY: an activation
// gradient contracting over the 32000-word vocabulary, kept high, whose
// FLOPs count in high precision (2 * 16 * 128 * 32000 = 131.07 MFLOP, 0%
// FP8); the weight gradient is the head's by its own size.
// CHECK-LABEL: func.func @head_dgrad
// CHECK: linalg.matmul {fp8.gemm = #fp8.gemm<dgrad>, fp8.precision = #fp8.precision<bf16>, fp8.reason = "heuristic: activation gradient of a vocabulary-sized linear (contraction over 32000)", fp8.role = #fp8.role<output_head>}
// CHECK: linalg.matmul {fp8.gemm = #fp8.gemm<wgrad>, fp8.precision = #fp8.precision<bf16>, fp8.reason = "heuristic: weight gradient of a vocabulary-sized linear (128x32000)", fp8.role = #fp8.role<output_head>}
// REPORT: linalg.matmul {{.*}}output_head/dgrad bf16 16x128x32000 131.07 MFLOP
// REPORT: dgrad 1 0 FLOP 131.07 MFLOP 0.0%
func.func @head_dgrad(%h: tensor<16x128xf32>, %w: tensor<32000x128xf32>, %dlogits: tensor<16x32000xf32>) -> (tensor<16x128xf32>, tensor<128x32000xf32>) {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x128xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<16x128xf32>) -> tensor<16x128xf32>
  %dx = linalg.matmul ins(%dlogits, %w : tensor<16x32000xf32>, tensor<32000x128xf32>) outs(%z : tensor<16x128xf32>) -> tensor<16x128xf32>
  %et = tensor.empty() : tensor<128x16xf32>
  %ht = linalg.transpose ins(%h : tensor<16x128xf32>) outs(%et : tensor<128x16xf32>) permutation = [1, 0]
  %ew = tensor.empty() : tensor<128x32000xf32>
  %zw = linalg.fill ins(%c0 : f32) outs(%ew : tensor<128x32000xf32>) -> tensor<128x32000xf32>
  %dwt = linalg.matmul ins(%ht, %dlogits : tensor<128x16xf32>, tensor<16x32000xf32>) outs(%zw : tensor<128x32000xf32>) -> tensor<128x32000xf32>
  return %dx, %dwt : tensor<16x128xf32>, tensor<128x32000xf32>
}
