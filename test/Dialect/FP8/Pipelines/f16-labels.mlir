// An f16 model's sensitive ops: the policy's high precision is bf16, but
// fp8-insert-quant casts only f32 operands of a high-precision contraction
// to bf16 and never narrows an elementwise or reduction op below its own
// type, so these compute in f16. The label fp8.precision<bf16> is the
// policy's class (high); the reason says what is computed ("; computes in
// f16"), and so does the report's precision column (docs/policies.md,
// "What high precision means"). An f32 model's attention is cast to bf16:
// its label is what it computes, and its reason says nothing more.
// RUN: fp8-opt %s -split-input-file --fp8-pipeline 2>&1 | FileCheck %s

// CHECK-LABEL: fp8-report
// CHECK: linalg.matmul {{.*}} attention f16 {{.*}}heuristic: contraction of two activations; computes in f16
// CHECK-LABEL: func.func @attention_f16
// CHECK: %[[Q:.*]] = arith.truncf %{{.*}} : tensor<16x256xf32> to tensor<16x256xf16>
// CHECK: %[[K:.*]] = arith.truncf %{{.*}} : tensor<16x256xf32> to tensor<16x256xf16>
// CHECK-NOT: xbf16>
// CHECK: linalg.matmul {{.*}}{fp8.precision = #fp8.precision<bf16>, fp8.reason = "heuristic: contraction of two activations; computes in f16", fp8.role = #fp8.role<attention>} ins(%[[Q]], %[[K]] : tensor<16x256xf16>, tensor<16x256xf16>)
// CHECK: linalg.generic {{.*}}fp8.precision = #fp8.precision<bf16>, fp8.reason = "heuristic: between contractions feeding attention (softmax, scale, mask, RoPE, head reshapes); computes in f16", fp8.role = #fp8.role<attention>
// CHECK: return
func.func @attention_f16(%x: tensor<16x256xf16>, %wq: tensor<256x256xf16>, %wk: tensor<256x256xf16>, %wv: tensor<256x256xf16>) -> tensor<16x256xf16> {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<16x256xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<16x256xf16>) -> tensor<16x256xf16>
  %q = linalg.matmul ins(%x, %wq : tensor<16x256xf16>, tensor<256x256xf16>) outs(%f : tensor<16x256xf16>) -> tensor<16x256xf16>
  %k = linalg.matmul ins(%x, %wk : tensor<16x256xf16>, tensor<256x256xf16>) outs(%f : tensor<16x256xf16>) -> tensor<16x256xf16>
  %v = linalg.matmul ins(%x, %wv : tensor<16x256xf16>, tensor<256x256xf16>) outs(%f : tensor<16x256xf16>) -> tensor<16x256xf16>
  %es = tensor.empty() : tensor<16x16xf16>
  %fs = linalg.fill ins(%z : f16) outs(%es : tensor<16x16xf16>) -> tensor<16x16xf16>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<16x256xf16>, tensor<16x256xf16>) outs(%fs : tensor<16x16xf16>) -> tensor<16x16xf16>
  %p = linalg.softmax dimension(1) ins(%s : tensor<16x16xf16>) outs(%es : tensor<16x16xf16>) -> tensor<16x16xf16>
  %o = linalg.matmul ins(%p, %v : tensor<16x16xf16>, tensor<16x256xf16>) outs(%f : tensor<16x256xf16>) -> tensor<16x256xf16>
  return %o : tensor<16x256xf16>
}

// -----

// CHECK-LABEL: fp8-report
// CHECK: linalg.matmul {{.*}} attention bf16 {{.*}}heuristic: contraction of two activations{{$}}
// CHECK-LABEL: func.func @attention_f32
// CHECK: %[[Q:.*]] = arith.truncf %{{.*}} : tensor<16x256xf32> to tensor<16x256xbf16>
// CHECK: %[[K:.*]] = arith.truncf %{{.*}} : tensor<16x256xf32> to tensor<16x256xbf16>
// CHECK: linalg.matmul {{.*}}{fp8.precision = #fp8.precision<bf16>, fp8.reason = "heuristic: contraction of two activations", fp8.role = #fp8.role<attention>} ins(%[[Q]], %[[K]] : tensor<16x256xbf16>, tensor<16x256xbf16>)
// CHECK: return
func.func @attention_f32(%x: tensor<16x256xf32>, %wq: tensor<256x256xf32>, %wk: tensor<256x256xf32>) -> tensor<16x16xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x256xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x256xf32>) -> tensor<16x256xf32>
  %q = linalg.matmul ins(%x, %wq : tensor<16x256xf32>, tensor<256x256xf32>) outs(%f : tensor<16x256xf32>) -> tensor<16x256xf32>
  %k = linalg.matmul ins(%x, %wk : tensor<16x256xf32>, tensor<256x256xf32>) outs(%f : tensor<16x256xf32>) -> tensor<16x256xf32>
  %es = tensor.empty() : tensor<16x16xf32>
  %fs = linalg.fill ins(%z : f32) outs(%es : tensor<16x16xf32>) -> tensor<16x16xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<16x256xf32>, tensor<16x256xf32>) outs(%fs : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %s : tensor<16x16xf32>
}
