// RUN: fp8-opt %s -split-input-file --fp8-pipeline="cache-activations=true report-tokens=100" -o /dev/null 2>/dev/null | FileCheck %s

// The training lines of fp8-report through the whole graph pipeline, each
// value computed by hand below (docs/training.md): the saved activation is
// the weight gradient's X (not its dY), measured with its scales when the
// forward caches it, and a dynamic token count is counted at report-tokens.
// The pass-level counterparts are Transforms/cache-activations-pipeline.mlir
// and Transforms/report-dynamic-training.mlir.

// A split step, X [128, 256] f32 and dY [128, 64]: the saved X is
// 128 * 256 * 4 B = 128.00 KiB (dY would be 32.00 KiB); cached as FP8 codes
// 128 * 256 * 1 B = 32768 B plus 1x128 scales 128 * 2 * 4 B = 1024 B, i.e.
// 33.00 KiB (32.00 KiB without the scales), against 64.00 KiB in bf16.
// CHECK-LABEL: fp8-report: policy
// CHECK: saved activations: 128.00 KiB in high precision, 33.00 KiB cached as FP8
// CHECK-NEXT: cached by the forward: 1 activations, 64.00 KiB as bf16, 33.00 KiB as FP8 (codes + scales; measured: the forward's results)
func.func @forward(%x: tensor<128x256xf32>, %w: tensor<64x256xf32>) -> (tensor<128x64xf32>, tensor<128x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<256x64xf32>
  %wt = linalg.transpose ins(%w : tensor<64x256xf32>) outs(%e0 : tensor<256x64xf32>) permutation = [1, 0]
  %e1 = tensor.empty() : tensor<128x64xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<128x64xf32>) -> tensor<128x64xf32>
  %y = linalg.matmul ins(%x, %wt : tensor<128x256xf32>, tensor<256x64xf32>) outs(%f1 : tensor<128x64xf32>) -> tensor<128x64xf32>
  return %y, %x : tensor<128x64xf32>, tensor<128x256xf32>
}
func.func @backward(%x: tensor<128x256xf32>, %w: tensor<64x256xf32>, %dy: tensor<128x64xf32>) -> (tensor<128x256xf32>, tensor<64x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<128x256xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<128x256xf32>) -> tensor<128x256xf32>
  %dx = linalg.matmul ins(%dy, %w : tensor<128x64xf32>, tensor<64x256xf32>) outs(%f2 : tensor<128x256xf32>) -> tensor<128x256xf32>
  %e3 = tensor.empty() : tensor<64x128xf32>
  %dyt = linalg.transpose ins(%dy : tensor<128x64xf32>) outs(%e3 : tensor<64x128xf32>) permutation = [1, 0]
  %e4 = tensor.empty() : tensor<64x256xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<64x256xf32>) -> tensor<64x256xf32>
  %dw = linalg.matmul ins(%dyt, %x : tensor<64x128xf32>, tensor<128x256xf32>) outs(%f4 : tensor<64x256xf32>) -> tensor<64x256xf32>
  return %dx, %dw : tensor<128x256xf32>, tensor<64x256xf32>
}
func.func @step(%x: tensor<128x256xf32>, %w: tensor<64x256xf32>, %dy: tensor<128x64xf32>) -> (tensor<128x64xf32>, tensor<128x256xf32>, tensor<64x256xf32>) {
  %y, %saved = call @forward(%x, %w) : (tensor<128x256xf32>, tensor<64x256xf32>) -> (tensor<128x64xf32>, tensor<128x256xf32>)
  %dx, %dw = call @backward(%saved, %w, %dy) : (tensor<128x256xf32>, tensor<64x256xf32>, tensor<128x64xf32>) -> (tensor<128x256xf32>, tensor<64x256xf32>)
  return %y, %dx, %dw : tensor<128x64xf32>, tensor<128x256xf32>, tensor<64x256xf32>
}

// -----

// A joint step over a dynamic token count T, at report-tokens=100: each of
// the three GEMMs is 2 * 100 * 64 * 256 = 3276800 FLOP (3.28 MFLOP), the
// weight gradient over the run-time tokens in FP8 too (a kernel takes K at run
// time); 9.83 MFLOP in all, all of it in FP8. X [100, 256] f32, saved for the
// weight gradient, is 100 * 256 * 4 B = 100.00 KiB; as the forward's FP8 X
// it is 100 * 256 * 1 B = 25600 B of codes plus 1x128 row scales
// 100 * 2 * 4 B = 800 B, 26400 B = 25.78 KiB.
// CHECK-LABEL: fp8-report: policy
// CHECK: fp8.scaled_matmul {{.*}}linear/wgrad fp8 64x256x? 3.28 MFLOP
// CHECK: matmul FLOPs: 9.83 MFLOP
// CHECK-NEXT: in FP8: 9.83 MFLOP (100.0%)
// CHECK: wgrad 1 3.28 MFLOP 0 FLOP 100.0%
// CHECK-NEXT: saved activations: 100.00 KiB in high precision, 25.78 KiB cached as FP8
func.func @dynamic_step(%x: tensor<?x256xf32>, %w: tensor<64x256xf32>, %dy: tensor<?x64xf32>)
    -> (tensor<?x64xf32>, tensor<?x256xf32>, tensor<64x256xf32>) {
  %c0 = arith.constant 0.0 : f32
  %i0 = arith.constant 0 : index
  %t = tensor.dim %x, %i0 : tensor<?x256xf32>
  %ewt = tensor.empty() : tensor<256x64xf32>
  %wt = linalg.transpose ins(%w : tensor<64x256xf32>) outs(%ewt : tensor<256x64xf32>) permutation = [1, 0]
  %ey = tensor.empty(%t) : tensor<?x64xf32>
  %zy = linalg.fill ins(%c0 : f32) outs(%ey : tensor<?x64xf32>) -> tensor<?x64xf32>
  %y = linalg.matmul ins(%x, %wt : tensor<?x256xf32>, tensor<256x64xf32>) outs(%zy : tensor<?x64xf32>) -> tensor<?x64xf32>
  %edx = tensor.empty(%t) : tensor<?x256xf32>
  %zdx = linalg.fill ins(%c0 : f32) outs(%edx : tensor<?x256xf32>) -> tensor<?x256xf32>
  %dx = linalg.matmul ins(%dy, %w : tensor<?x64xf32>, tensor<64x256xf32>) outs(%zdx : tensor<?x256xf32>) -> tensor<?x256xf32>
  %edyt = tensor.empty(%t) : tensor<64x?xf32>
  %dyt = linalg.transpose ins(%dy : tensor<?x64xf32>) outs(%edyt : tensor<64x?xf32>) permutation = [1, 0]
  %ew = tensor.empty() : tensor<64x256xf32>
  %zw = linalg.fill ins(%c0 : f32) outs(%ew : tensor<64x256xf32>) -> tensor<64x256xf32>
  %dw = linalg.matmul ins(%dyt, %x : tensor<64x?xf32>, tensor<?x256xf32>) outs(%zw : tensor<64x256xf32>) -> tensor<64x256xf32>
  return %y, %dx, %dw : tensor<?x64xf32>, tensor<?x256xf32>, tensor<64x256xf32>
}

// -----

// A split backward's output-head weight gradient stored [H, V] (Xᵀ dY,
// V = 32000): a vocabulary-sized dimension, so the head's (high precision),
// whichever side the vocabulary is on: 2 * 64 * 32000 * 8 = 32768000 FLOP
// (32.77 MFLOP), none of it in FP8.
// CHECK-LABEL: fp8-report: policy
// CHECK: linalg.matmul {{.*}}output_head/wgrad bf16 64x32000x8 32.77 MFLOP
// CHECK: in FP8: 0 FLOP (0.0%)
func.func @head_wgrad_hv(%h: tensor<8x64xf32>, %dlogits: tensor<8x32000xf32>) -> tensor<64x32000xf32> {
  %c0 = arith.constant 0.0 : f32
  %et = tensor.empty() : tensor<64x8xf32>
  %ht = linalg.transpose ins(%h : tensor<8x64xf32>) outs(%et : tensor<64x8xf32>) permutation = [1, 0]
  %e = tensor.empty() : tensor<64x32000xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<64x32000xf32>) -> tensor<64x32000xf32>
  %dwt = linalg.matmul ins(%ht, %dlogits : tensor<64x8xf32>, tensor<8x32000xf32>) outs(%z : tensor<64x32000xf32>) -> tensor<64x32000xf32>
  return %dwt : tensor<64x32000xf32>
}
