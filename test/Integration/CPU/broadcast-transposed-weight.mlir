// A weight broadcast over the batch by a generic that also transposes it
// (torch-mlir's `expand` of `weight.t()`, one generic): the batch_matmul's
// B[b, k, n] is W[n, k] of a [N, K] weight. fp8-pipeline must read it as
// Wᵀ, never as the [K, N] weight it would be without the transpose (a
// broadcast look-through that ignores the input map's order).
//
// RUN: fp8-opt %s --fp8-pipeline=report=false --fp8-cpu-pipeline | %fp8_run | FileCheck %s
//
// Hand-derived (deepseek-v3: E4M3, scale = amax / 448): x[b, s, k] = 448
// at k = 0, else 0; W[n, k] = 448 at (n, k) = (1, 0), else 0 (W[0, 1] = 2:
// a value the wrong orientation would read). Every block's amax is 448 or
// 2 or 0: codes and scales are exact. y[b, s, n] = sum_k x[b, s, k] W[n, k]
// = 448 * W[n, 0]: 200704 at n = 1, 0 elsewhere. Read as [K, N] (W[k, n])
// it would be 448 * W[0, n]: 896 at n = 1.

// CHECK-LABEL: result
// CHECK-COUNT-4: [0,   200704,   0,   0,
// CHECK-NOT: 896

func.func private @printMemrefF32(memref<*xf32>)

#wt = affine_map<(d0, d1, d2) -> (d2, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @linear(%x: tensor<2x2x128xf32>, %w: tensor<128x128xf32>) -> tensor<2x2x128xf32> {
  %eb = tensor.empty() : tensor<2x128x128xf32>
  %wb = linalg.generic {indexing_maps = [#wt, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%w : tensor<128x128xf32>) outs(%eb : tensor<2x128x128xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x128x128xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x2x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x2x128xf32>) -> tensor<2x2x128xf32>
  %y = linalg.batch_matmul ins(%x, %wb : tensor<2x2x128xf32>, tensor<2x128x128xf32>) outs(%f : tensor<2x2x128xf32>) -> tensor<2x2x128xf32>
  return %y : tensor<2x2x128xf32>
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %big = arith.constant 448.0 : f32
  %two = arith.constant 2.0 : f32
  %ex = tensor.empty() : tensor<2x2x128xf32>
  %x0 = linalg.fill ins(%zero : f32) outs(%ex : tensor<2x2x128xf32>) -> tensor<2x2x128xf32>
  %x1 = tensor.insert %big into %x0[%c0, %c0, %c0] : tensor<2x2x128xf32>
  %x2 = tensor.insert %big into %x1[%c0, %c1, %c0] : tensor<2x2x128xf32>
  %x3 = tensor.insert %big into %x2[%c1, %c0, %c0] : tensor<2x2x128xf32>
  %x = tensor.insert %big into %x3[%c1, %c1, %c0] : tensor<2x2x128xf32>
  %ew = tensor.empty() : tensor<128x128xf32>
  %w0 = linalg.fill ins(%zero : f32) outs(%ew : tensor<128x128xf32>) -> tensor<128x128xf32>
  %w1 = tensor.insert %big into %w0[%c1, %c0] : tensor<128x128xf32>
  %w = tensor.insert %two into %w1[%c0, %c1] : tensor<128x128xf32>
  vector.print str "result\n"
  %y = call @linear(%x, %w) : (tensor<2x2x128xf32>, tensor<128x128xf32>) -> tensor<2x2x128xf32>
  %m = bufferization.to_buffer %y : tensor<2x2x128xf32> to memref<2x2x128xf32>
  %u = memref.cast %m : memref<2x2x128xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
