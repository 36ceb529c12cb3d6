// RUN: fp8-opt %s -split-input-file --fp8-pipeline="policy=bf16 report=false" | FileCheck %s
// RUN: fp8-opt %s -split-input-file --fp8-pipeline="policy=bf16" -o /dev/null | FileCheck %s --check-prefix=REPORT

// The `bf16` preset, the baseline FP8 is measured against: every role kept
// high, so every contraction (linears, attention, the head) gets BF16
// operands (f32 ones cast by fp8-insert-quant) and FP32 accumulation, and
// nothing is quantized; elementwise ops keep their own f32.

// CHECK-LABEL: func.func @mlp_with_attention
// CHECK-NOT: fp8.quantize
// CHECK-NOT: fp8.scaled_matmul
// CHECK: arith.truncf {{.*}} : tensor<16x128xf32> to tensor<16x128xbf16>
// CHECK: arith.truncf {{.*}} : tensor<128x128xf32> to tensor<128x128xbf16>
// CHECK: linalg.matmul {fp8.precision = #fp8.precision<bf16>, fp8.reason = "heuristic: contraction with a weight (function argument)", fp8.role = #fp8.role<linear>} ins({{.*}} : tensor<16x128xbf16>, tensor<128x128xbf16>) outs({{.*}} : tensor<16x128xf32>)
// CHECK: linalg.matmul {fp8.precision = #fp8.precision<bf16>, fp8.reason = "heuristic: contraction of two activations", fp8.role = #fp8.role<attention>} ins({{.*}} : tensor<16x128xbf16>, tensor<128x16xbf16>) outs({{.*}} : tensor<16x16xf32>)
// The linalg.exp, a linalg.generic after fp8-normalize-forms.
// CHECK: linalg.generic {{.*}}fp8.precision = #fp8.precision<f32>
// CHECK: math.exp
// CHECK: linalg.matmul {fp8.precision = #fp8.precision<bf16>, {{.*}}fp8.role = #fp8.role<attention>} ins({{.*}} : tensor<16x16xbf16>, tensor<16x128xbf16>) outs({{.*}} : tensor<16x128xf32>)
// CHECK-NOT: fp8.quantize
// CHECK-NOT: fp8.scaled_matmul
// 2*16*128*128 + 2 * 2*16*16*128 = 524288 + 131072 FLOP, none in FP8.
// REPORT: fp8-report: policy bf16
// REPORT: in FP8: 0 FLOP (0.0%)
// REPORT: in high precision: 655360 FLOP (100.0%)
func.func @mlp_with_attention(%x: tensor<16x128xf32>, %w: tensor<128x128xf32>) -> tensor<16x128xf32> {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x128xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<16x128xf32>) -> tensor<16x128xf32>
  %h = linalg.matmul ins(%x, %w : tensor<16x128xf32>, tensor<128x128xf32>) outs(%z : tensor<16x128xf32>) -> tensor<16x128xf32>
  %et = tensor.empty() : tensor<128x16xf32>
  %ht = linalg.transpose ins(%h : tensor<16x128xf32>) outs(%et : tensor<128x16xf32>) permutation = [1, 0]
  %es = tensor.empty() : tensor<16x16xf32>
  %zs = linalg.fill ins(%c0 : f32) outs(%es : tensor<16x16xf32>) -> tensor<16x16xf32>
  %s = linalg.matmul ins(%h, %ht : tensor<16x128xf32>, tensor<128x16xf32>) outs(%zs : tensor<16x16xf32>) -> tensor<16x16xf32>
  %p = linalg.exp ins(%s : tensor<16x16xf32>) outs(%es : tensor<16x16xf32>) -> tensor<16x16xf32>
  %o = linalg.matmul ins(%p, %h : tensor<16x16xf32>, tensor<16x128xf32>) outs(%z : tensor<16x128xf32>) -> tensor<16x128xf32>
  return %o : tensor<16x128xf32>
}
