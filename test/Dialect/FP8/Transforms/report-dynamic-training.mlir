// RUN: fp8-opt %s -fp8-assign-precision -fp8-insert-quant -fp8-report=tokens=130 -o /dev/null 2>/dev/null | FileCheck %s
// RUN: fp8-opt %s -fp8-assign-precision -fp8-insert-quant -fp8-report -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=PERTOKEN

// One linear's joint training step over a dynamic token count T: the fprop
// and the dgrad (M = T) and the weight gradient (a contraction over T, K
// dynamic: the GPU kernel takes K at run time, docs/gpu-kernel.md) are FP8.
// Every contraction counts at tokens=130: 2 * 130 * 384 * 512 = 51.12 MFLOP
// each, so FP8 is all three (100%); the weight gradient's X is cached as
// FP8 codes and scales along the tokens: 130 * 512 codes + 130 * 4 * 4
// bytes of scales (the forward's 1x128 tiles) = 68640 bytes = 67.03 KiB.

// CHECK: fp8.scaled_matmul {{.*}}linear/wgrad fp8 384x512x? 51.12 MFLOP
// CHECK: matmul FLOPs: 153.35 MFLOP
// CHECK-NEXT: in FP8: 153.35 MFLOP (100.0%)
// CHECK: wgrad 1 51.12 MFLOP 0 FLOP 100.0%
// CHECK-NEXT: saved activations: 260.00 KiB in high precision, 67.03 KiB cached as FP8

// Without tokens, every GEMM is counted per token (2 * 384 * 512 = 393216
// FLOP each).
// PERTOKEN: fp8.scaled_matmul {{.*}}linear/wgrad fp8 384x512x? 393216 FLOP/tok
// PERTOKEN: matmul FLOPs: 0 FLOP + 1.18 MFLOP per token
// PERTOKEN-NEXT: in FP8: 0 FLOP + 1.18 MFLOP per token (100.0% of the per-token FLOPs)
func.func @train_step(%x: tensor<?x512xf32>, %w: tensor<384x512xf32>, %dy: tensor<?x384xf32>)
    -> (tensor<?x384xf32>, tensor<?x512xf32>, tensor<384x512xf32>) {
  %c0 = arith.constant 0.0 : f32
  %i0 = arith.constant 0 : index
  %t = tensor.dim %x, %i0 : tensor<?x512xf32>
  %ewt = tensor.empty() : tensor<512x384xf32>
  %wt = linalg.transpose ins(%w : tensor<384x512xf32>) outs(%ewt : tensor<512x384xf32>) permutation = [1, 0]
  %ey = tensor.empty(%t) : tensor<?x384xf32>
  %zy = linalg.fill ins(%c0 : f32) outs(%ey : tensor<?x384xf32>) -> tensor<?x384xf32>
  %y = linalg.matmul ins(%x, %wt : tensor<?x512xf32>, tensor<512x384xf32>) outs(%zy : tensor<?x384xf32>) -> tensor<?x384xf32>
  %edx = tensor.empty(%t) : tensor<?x512xf32>
  %zdx = linalg.fill ins(%c0 : f32) outs(%edx : tensor<?x512xf32>) -> tensor<?x512xf32>
  %dx = linalg.matmul ins(%dy, %w : tensor<?x384xf32>, tensor<384x512xf32>) outs(%zdx : tensor<?x512xf32>) -> tensor<?x512xf32>
  %edyt = tensor.empty(%t) : tensor<384x?xf32>
  %dyt = linalg.transpose ins(%dy : tensor<?x384xf32>) outs(%edyt : tensor<384x?xf32>) permutation = [1, 0]
  %ew = tensor.empty() : tensor<384x512xf32>
  %zw = linalg.fill ins(%c0 : f32) outs(%ew : tensor<384x512xf32>) -> tensor<384x512xf32>
  %dw = linalg.matmul ins(%dyt, %x : tensor<384x?xf32>, tensor<?x512xf32>) outs(%zw : tensor<384x512xf32>) -> tensor<384x512xf32>
  return %y, %dx, %dw : tensor<?x384xf32>, tensor<?x512xf32>, tensor<384x512xf32>
}
