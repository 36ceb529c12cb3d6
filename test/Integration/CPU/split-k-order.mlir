// Split-K's summation (fp8.scaled_matmul k_splits = S, docs/numerics.md
// "Split-K") run on the CPU: the KB promotion intervals are cut into S
// contiguous ranges (the first KB mod S one interval longer), each promoted
// into its own FP32 accumulator (split 0 from C, the others from +0.0),
// then the accumulators are added in split order. Results printed as their
// bits (f32 as i32); the expected values are derived by hand below.
//
// RUN: fp8-opt %s --fp8-cpu-pipeline | %fp8_run | FileCheck %s
// RUN: fp8-opt %s --fp8-cpu-pipeline=accumulator=sm90 | %fp8_run | FileCheck %s
// RUN: fp8-opt %s --fp8-cpu-pipeline=tiled=false | %fp8_run | FileCheck %s
//
// A = B = x [1, 512] in one block along K (pow2 scale): x[0] = 2^12, x[256]
// = x[384] = 1, the rest 0. amax 2^12 / 448 rounds up to the scale 2^4, so
// the codes are 2^8 and 2^-4 (both exact in E4M3) and sa * sb = 2^8. With
// promote_interval = 128 there are KB = 4 intervals, whose partials (in
// code units) are 2^16, 0, 2^-8 and 2^-8, i.e. 2^24, 0, 1 and 1 once
// scaled (each fma's product is exact: 2^8 is a power of two).
//   S = 1: acc = 2^24, then 2^24 + 0, then 2^24 + 1 = 2^24 (a tie: the even
//     2^24 stays; the f32 spacing at 2^24 is 2), then 2^24 again: 2^24.
//   S = 2: q = 2, r = 0: split 0 = intervals {0, 1} = 2^24, split 1 = {2, 3}
//     = 1 + 1 = 2 (from +0.0); 2^24 + 2 is exact: 2^24 + 2.
//   S = 3: q = 1, r = 1: split 0 = {0, 1} = 2^24, split 1 = {2} = 1, split 2
//     = {3} = 1; (2^24 + 1) + 1 = 2^24 + 1 = 2^24. (The longer range last,
//     {0}, {1}, {2, 3}, would give 2^24 + 2; the reverse order (1 + 1) +
//     2^24 would give 2^24 + 2.)
//   S = 4: one interval each: ((2^24 + 0) + 1) + 1 = 2^24.
//   C = 1, S = 2: split 0 starts from C: 1 + 2^24 = 2^24 (tie, even), + 0;
//     split 1 = 2 (from +0.0); 2^24 + 2. (C added after the splits, (2^24 +
//     2) + 1 = 2^24 + 3, would round to the even 2^24 + 4; every split
//     from C would make split 1 = 3 and the sum 2^24 + 4.)
//   C = 1, S = 1: 1 + 2^24 = 2^24, + 0, + 1 = 2^24, + 1 = 2^24.
// Bits: 2^24 = 0x4B800000 = 1266679808, 2^24 + 2 = 0x4B800001 = 1266679809.

// CHECK: [1266679808, 1266679809, 1266679808, 1266679808, 1266679809, 1266679808]

!a = !fp8.scaled<1x512xf8E4M3FN, block = [1, 512], scale = f32>

func.func private @printMemrefI32(memref<*xi32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %c384 = arith.constant 384 : index
  %big = arith.constant 4096.0 : f32
  %one = arith.constant 1.0 : f32
  %zeros = arith.constant dense<0.0> : tensor<1x512xf32>
  %x0 = tensor.insert %big into %zeros[%c0, %c0] : tensor<1x512xf32>
  %x1 = tensor.insert %one into %x0[%c0, %c256] : tensor<1x512xf32>
  %x = tensor.insert %one into %x1[%c0, %c384] : tensor<1x512xf32>
  %q = fp8.quantize %x {scale_mode = #fp8.scale_mode<pow2>} : tensor<1x512xf32> -> !a
  %c = arith.constant dense<1.0> : tensor<1x1xf32>
  %d1 = fp8.scaled_matmul %q, %q : !a, !a -> tensor<1x1xf32>
  %d2 = fp8.scaled_matmul %q, %q {k_splits = 2 : i64} : !a, !a -> tensor<1x1xf32>
  %d3 = fp8.scaled_matmul %q, %q {k_splits = 3 : i64} : !a, !a -> tensor<1x1xf32>
  %d4 = fp8.scaled_matmul %q, %q {k_splits = 4 : i64} : !a, !a -> tensor<1x1xf32>
  %e2 = fp8.scaled_matmul %q, %q acc(%c : tensor<1x1xf32>) {k_splits = 2 : i64} : !a, !a -> tensor<1x1xf32>
  %e1 = fp8.scaled_matmul %q, %q acc(%c : tensor<1x1xf32>) : !a, !a -> tensor<1x1xf32>
  %d = tensor.concat dim(1) %d1, %d2, %d3, %d4, %e2, %e1
      : (tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>) -> tensor<1x6xf32>
  %bits = arith.bitcast %d : tensor<1x6xf32> to tensor<1x6xi32>
  %m = bufferization.to_buffer %bits : tensor<1x6xi32> to memref<1x6xi32>
  %u = memref.cast %m : memref<1x6xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}
