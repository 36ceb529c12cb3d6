// RUN: fp8-opt %s -fp8-assign-precision -fp8-insert-quant -fp8-cache-activations 2>/dev/null | FileCheck %s
// RUN: fp8-opt %s -fp8-assign-precision -fp8-insert-quant -fp8-cache-activations -fp8-report -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=REPORT
// RUN: fp8-opt %s -fp8-assign-precision -fp8-insert-quant -fp8-report -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=PLAIN

// One linear's step in the split form with a caller, through the passes
// fp8-pipeline{cache-activations=true} runs: the forward's Fprop quantizes
// X 1x128 and returns those codes and scales; the backward requantizes them
// for the Wgrad into 128x1 tiles along the 256 tokens (then the codes and
// scales are moved to the K-major [512, 256] form, as without caching).

// CHECK-LABEL: func.func @forward
// CHECK-SAME: -> (tensor<256x384xf32>, tensor<256x512xf8E4M3FN> {fp8.cached = tensor<256x512xf32>}, tensor<256x4xf32>)
// CHECK: %[[QX:.*]] = fp8.quantize %arg0 : tensor<256x512xf32> -> !fp8.scaled<256x512xf8E4M3FN, block = [1, 128], scale = f32>
// CHECK: %[[Y:.*]] = fp8.scaled_matmul %[[QX]], {{.*}}fp8.gemm = #fp8.gemm<fprop>
// CHECK: %[[C:.*]], %[[S:.*]] = fp8.disassemble %[[QX]]
// CHECK: return %[[Y]], %[[C]], %[[S]]
// CHECK-LABEL: func.func @backward
// CHECK-SAME: (%[[BC:.*]]: tensor<256x512xf8E4M3FN> {fp8.cached = tensor<256x512xf32>}, %[[BS:.*]]: tensor<256x4xf32>, %{{.*}}: tensor<384x512xf32>, %{{.*}}: tensor<256x384xf32>)
// CHECK: %[[A:.*]] = fp8.assemble %[[BC]], %[[BS]]
// CHECK-NOT: fp8.quantize %[[BC]]
// CHECK: %[[R:.*]] = fp8.requantize %[[A]] : !fp8.scaled<256x512xf8E4M3FN, block = [1, 128], scale = f32> -> !fp8.scaled<256x512xf8E4M3FN, block = [128, 1], scale = f32>
// CHECK: fp8.scaled_matmul {{.*}}fp8.gemm = #fp8.gemm<wgrad>
// CHECK-LABEL: func.func @step
// CHECK: %[[F:.*]]:3 = call @forward
// CHECK: call @backward(%[[F]]#1, %[[F]]#2, %arg1, %arg2)

// Measured from the forward's results: 256 x 512 codes of 1 B and 256 x 4
// f32 scales = 132 KiB, against 256 KiB in bf16 and 512 KiB in f32.
// REPORT: saved activations: 512.00 KiB in high precision, 132.00 KiB cached as FP8
// REPORT-NEXT: cached by the forward: 1 activations, 256.00 KiB as bf16, 132.00 KiB as FP8 (codes + scales; measured: the forward's results)
// Without the pass: the model of caching, and no measured line.
// PLAIN: saved activations: 512.00 KiB in high precision, 132.00 KiB cached as FP8
// PLAIN-NOT: cached by the forward
func.func @forward(%x: tensor<256x512xf32>, %w: tensor<384x512xf32>) -> (tensor<256x384xf32>, tensor<256x512xf32>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<512x384xf32>
  %wt = linalg.transpose ins(%w : tensor<384x512xf32>) outs(%e0 : tensor<512x384xf32>) permutation = [1, 0]
  %e1 = tensor.empty() : tensor<256x384xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<256x384xf32>) -> tensor<256x384xf32>
  %y = linalg.matmul ins(%x, %wt : tensor<256x512xf32>, tensor<512x384xf32>) outs(%f1 : tensor<256x384xf32>) -> tensor<256x384xf32>
  return %y, %x : tensor<256x384xf32>, tensor<256x512xf32>
}
func.func @backward(%x: tensor<256x512xf32>, %w: tensor<384x512xf32>, %dy: tensor<256x384xf32>) -> (tensor<256x512xf32>, tensor<384x512xf32>) {
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<256x512xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<256x512xf32>) -> tensor<256x512xf32>
  %dx = linalg.matmul ins(%dy, %w : tensor<256x384xf32>, tensor<384x512xf32>) outs(%f2 : tensor<256x512xf32>) -> tensor<256x512xf32>
  %e3 = tensor.empty() : tensor<384x256xf32>
  %dyt = linalg.transpose ins(%dy : tensor<256x384xf32>) outs(%e3 : tensor<384x256xf32>) permutation = [1, 0]
  %e4 = tensor.empty() : tensor<384x512xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<384x512xf32>) -> tensor<384x512xf32>
  %dw = linalg.matmul ins(%dyt, %x : tensor<384x256xf32>, tensor<256x512xf32>) outs(%f4 : tensor<384x512xf32>) -> tensor<384x512xf32>
  return %dx, %dw : tensor<256x512xf32>, tensor<384x512xf32>
}
func.func @step(%x: tensor<256x512xf32>, %w: tensor<384x512xf32>, %dy: tensor<256x384xf32>) -> (tensor<256x384xf32>, tensor<256x512xf32>, tensor<384x512xf32>) {
  %r:2 = func.call @forward(%x, %w) : (tensor<256x512xf32>, tensor<384x512xf32>) -> (tensor<256x384xf32>, tensor<256x512xf32>)
  %g:2 = func.call @backward(%r#1, %w, %dy) : (tensor<256x512xf32>, tensor<384x512xf32>, tensor<256x384xf32>) -> (tensor<256x512xf32>, tensor<384x512xf32>)
  return %r#0, %g#0, %g#1 : tensor<256x384xf32>, tensor<256x512xf32>, tensor<384x512xf32>
}
