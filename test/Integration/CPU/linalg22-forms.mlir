// The LLVM 22 linalg forms of a linear layer fp8-pipeline makes FP8
// (fp8-normalize-forms, then fp8-insert-quant), run through
// fp8-cpu-pipeline: linalg.contract NT, linalg.batch_matmul with NT maps
// against a broadcast weight, linalg.matvec and linalg.vecmat (decode),
// linalg.batch_reduce_matmul, linalg.contract with the heads split in the
// weight, and a linalg.contract storing its result [N, M].
//
// Values derived by hand, exact in FP8 (as in dynamic-batch-bert-linear):
// token m holds c_m = 7 * 2^m in every element (a 1x128 block's amax c_m,
// scale 2^m / 64, every code 448); the weight, whatever its storage, is
// w(k, n) = 7/16 for k <= n, else 0 (a 128x128 block's amax 7/16, scale
// 1/1024, codes 448 or 0). So y[m, n] = c_m * 7/16 * (n + 1) = 49/16 * 2^m
// * (n + 1), printed at n = 0, 127, 255: [3.0625, 392, 784] for m = 0,
// [6.125, 784, 1568] for m = 1. The weights are square (K = N = 256): a
// weight stored [N, K] read as [K, N] would give c_m * 7/16 * (256 - n)
// instead, not a shape error.
//
// RUN: fp8-opt %s --fp8-pipeline="report=false" -o %t.fp8 2>/dev/null
// RUN: FileCheck %s --check-prefix=IR < %t.fp8
// RUN: fp8-opt %t.fp8 --fp8-cpu-pipeline | %fp8_run | FileCheck %s
// The same values under the other presets' blocks and scales (per-tensor:
// one scale 14/448; rowwise; MX: power-of-two E8M0 scales, 1x32 blocks).
// RUN: fp8-opt %s --fp8-pipeline="report=false policy=per-tensor" 2>/dev/null | fp8-opt --fp8-cpu-pipeline | %fp8_run | FileCheck %s
// RUN: fp8-opt %s --fp8-pipeline="report=false policy=rowwise" 2>/dev/null | fp8-opt --fp8-cpu-pipeline | %fp8_run | FileCheck %s
// RUN: fp8-opt %s --fp8-pipeline="report=false policy=mxfp8" 2>/dev/null | fp8-opt --fp8-cpu-pipeline | %fp8_run | FileCheck %s

// IR-COUNT-7: fp8.scaled_matmul
// IR-NOT: linalg.contract
// IR-NOT: linalg.batch_matmul
// IR-NOT: linalg.matvec
// IR-NOT: linalg.vecmat
// IR-NOT: linalg.batch_reduce_matmul

// contract NT
// CHECK: {{\[\[}}3.0625,   392,   784],
// CHECK-NEXT: [6.125,   784,   1568]]
// batch_matmul NT maps
// CHECK: {{\[\[}}3.0625,   392,   784],
// CHECK-NEXT: [6.125,   784,   1568]]
// batch_reduce_matmul
// CHECK: {{\[\[}}3.0625,   392,   784],
// CHECK-NEXT: [6.125,   784,   1568]]
// heads
// CHECK: {{\[\[}}3.0625,   392,   784],
// CHECK-NEXT: [6.125,   784,   1568]]
// result [N, M]
// CHECK: {{\[\[}}3.0625,   392,   784],
// CHECK-NEXT: [6.125,   784,   1568]]
// vecmat, matvec
// CHECK-NEXT: Unranked
// CHECK-NEXT: [3.0625,  392,  784]
// CHECK-NEXT: Unranked
// CHECK-NEXT: [3.0625,  392,  784]
// CHECK: {{\[\[}}3.0625,   392,   784],
// CHECK-NEXT: [6.125,   784,   1568]]

#nk = affine_map<(n, k) -> (n, k)>
#kn = affine_map<(k, n) -> (k, n)>

func.func private @printMemrefF32(memref<*xf32>)

func.func @contract_nt(%x: tensor<2x256xf32>, %w: tensor<256x256xf32>) -> tensor<2x256xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x256xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2x256xf32>) -> tensor<2x256xf32>
  %y = linalg.contract indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : tensor<2x256xf32>, tensor<256x256xf32>) outs(%f : tensor<2x256xf32>) -> tensor<2x256xf32>
  return %y : tensor<2x256xf32>
}

// Two batches of one token each, the [N, K] weight broadcast over them.
func.func @batch_nt(%x: tensor<2x256xf32>, %w: tensor<256x256xf32>) -> tensor<2x256xf32> {
  %z = arith.constant 0.0 : f32
  %x3 = tensor.expand_shape %x [[0, 1], [2]] output_shape [2, 1, 256] : tensor<2x256xf32> into tensor<2x1x256xf32>
  %ew = tensor.empty() : tensor<2x256x256xf32>
  %wb = linalg.broadcast ins(%w : tensor<256x256xf32>) outs(%ew : tensor<2x256x256xf32>) dimensions = [0]
  %e = tensor.empty() : tensor<2x1x256xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2x1x256xf32>) -> tensor<2x1x256xf32>
  %y = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%x3, %wb : tensor<2x1x256xf32>, tensor<2x256x256xf32>) outs(%f : tensor<2x1x256xf32>) -> tensor<2x1x256xf32>
  %r = tensor.collapse_shape %y [[0, 1], [2]] : tensor<2x1x256xf32> into tensor<2x256xf32>
  return %r : tensor<2x256xf32>
}

// The reduced batch R = 2 of [R, M, 128] x [R, 128, N]: k' = 128 r + k.
func.func @batch_reduce(%x: tensor<2x2x128xf32>, %w: tensor<2x128x256xf32>) -> tensor<2x256xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x256xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2x256xf32>) -> tensor<2x256xf32>
  %y = linalg.batch_reduce_matmul ins(%x, %w : tensor<2x2x128xf32>, tensor<2x128x256xf32>) outs(%f : tensor<2x256xf32>) -> tensor<2x256xf32>
  return %y : tensor<2x256xf32>
}

// einsum mk,khd->mhd: n = 128 h + d.
func.func @heads(%x: tensor<2x256xf32>, %w: tensor<256x2x128xf32>) -> tensor<2x256xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x2x128xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2x2x128xf32>) -> tensor<2x2x128xf32>
  %y = linalg.contract indexing_maps = [affine_map<(m, h, d, k) -> (m, k)>, affine_map<(m, h, d, k) -> (k, h, d)>, affine_map<(m, h, d, k) -> (m, h, d)>]
      ins(%x, %w : tensor<2x256xf32>, tensor<256x2x128xf32>) outs(%f : tensor<2x2x128xf32>) -> tensor<2x2x128xf32>
  %r = tensor.collapse_shape %y [[0], [1, 2]] : tensor<2x2x128xf32> into tensor<2x256xf32>
  return %r : tensor<2x256xf32>
}

// The result stored [N, M] (transposed back for printing).
func.func @result_nm(%x: tensor<2x256xf32>, %w: tensor<256x256xf32>) -> tensor<2x256xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x2xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<256x2xf32>) -> tensor<256x2xf32>
  %y = linalg.contract indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (n, m)>]
      ins(%x, %w : tensor<2x256xf32>, tensor<256x256xf32>) outs(%f : tensor<256x2xf32>) -> tensor<256x2xf32>
  %et = tensor.empty() : tensor<2x256xf32>
  %t = linalg.transpose ins(%y : tensor<256x2xf32>) outs(%et : tensor<2x256xf32>) permutation = [1, 0]
  return %t : tensor<2x256xf32>
}

func.func @vecmat(%x: tensor<256xf32>, %w: tensor<256x256xf32>) -> tensor<256xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<256xf32>) -> tensor<256xf32>
  %y = linalg.vecmat ins(%x, %w : tensor<256xf32>, tensor<256x256xf32>) outs(%f : tensor<256xf32>) -> tensor<256xf32>
  return %y : tensor<256xf32>
}

func.func @matvec(%w: tensor<256x256xf32>, %x: tensor<256xf32>) -> tensor<256xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<256xf32>) -> tensor<256xf32>
  %y = linalg.matvec ins(%w, %x : tensor<256x256xf32>, tensor<256xf32>) outs(%f : tensor<256xf32>) -> tensor<256xf32>
  return %y : tensor<256xf32>
}

// Columns 0, 127 and 255 of each row.
func.func @print2(%t: tensor<2x256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c127 = arith.constant 127 : index
  %c255 = arith.constant 255 : index
  %a = tensor.extract %t[%c0, %c0] : tensor<2x256xf32>
  %b = tensor.extract %t[%c0, %c127] : tensor<2x256xf32>
  %c = tensor.extract %t[%c0, %c255] : tensor<2x256xf32>
  %d = tensor.extract %t[%c1, %c0] : tensor<2x256xf32>
  %e = tensor.extract %t[%c1, %c127] : tensor<2x256xf32>
  %f = tensor.extract %t[%c1, %c255] : tensor<2x256xf32>
  %s = tensor.from_elements %a, %b, %c, %d, %e, %f : tensor<2x3xf32>
  %m = bufferization.to_buffer %s : tensor<2x3xf32> to memref<2x3xf32>
  %u = memref.cast %m : memref<2x3xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

func.func @print1(%t: tensor<256xf32>) {
  %c0 = arith.constant 0 : index
  %c127 = arith.constant 127 : index
  %c255 = arith.constant 255 : index
  %a = tensor.extract %t[%c0] : tensor<256xf32>
  %b = tensor.extract %t[%c127] : tensor<256xf32>
  %c = tensor.extract %t[%c255] : tensor<256xf32>
  %s = tensor.from_elements %a, %b, %c : tensor<3xf32>
  %m = bufferization.to_buffer %s : tensor<3xf32> to memref<3xf32>
  %u = memref.cast %m : memref<3xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

// w(k, n) = 7/16 when k <= n.
func.func @weight(%k: index, %n: index) -> f32 {
  %le = arith.cmpi ule, %k, %n : index
  %w = arith.constant 0.4375 : f32
  %zero = arith.constant 0.0 : f32
  %v = arith.select %le, %w, %zero : f32
  return %v : f32
}

func.func @main() {
  // Tokens: row m holds 7 * 2^m.
  %ex = tensor.empty() : tensor<2x256xf32>
  %x = linalg.generic {indexing_maps = [#kn], iterator_types = ["parallel", "parallel"]} outs(%ex : tensor<2x256xf32>) {
  ^bb0(%out: f32):
    %m = linalg.index 0 : index
    %mi = arith.index_cast %m : index to i32
    %mf = arith.sitofp %mi : i32 to f32
    %two = arith.constant 2.0 : f32
    %p = math.powf %two, %mf : f32
    %seven = arith.constant 7.0 : f32
    %v = arith.mulf %seven, %p : f32
    linalg.yield %v : f32
  } -> tensor<2x256xf32>
  // The weight stored [N, K] and [K, N].
  %ew = tensor.empty() : tensor<256x256xf32>
  %wnk = linalg.generic {indexing_maps = [#nk], iterator_types = ["parallel", "parallel"]} outs(%ew : tensor<256x256xf32>) {
  ^bb0(%out: f32):
    %n = linalg.index 0 : index
    %k = linalg.index 1 : index
    %v = func.call @weight(%k, %n) : (index, index) -> f32
    linalg.yield %v : f32
  } -> tensor<256x256xf32>
  %wkn = linalg.generic {indexing_maps = [#kn], iterator_types = ["parallel", "parallel"]} outs(%ew : tensor<256x256xf32>) {
  ^bb0(%out: f32):
    %k = linalg.index 0 : index
    %n = linalg.index 1 : index
    %v = func.call @weight(%k, %n) : (index, index) -> f32
    linalg.yield %v : f32
  } -> tensor<256x256xf32>
  // [R, 128, N] chunks (k' = 128 r + k) and [K, H, D] heads (n = 128 h + d).
  %wr = tensor.expand_shape %wkn [[0, 1], [2]] output_shape [2, 128, 256] : tensor<256x256xf32> into tensor<2x128x256xf32>
  %wh = tensor.expand_shape %wkn [[0], [1, 2]] output_shape [256, 2, 128] : tensor<256x256xf32> into tensor<256x2x128xf32>
  // [R, M, 128]: the tokens' two K halves.
  %xr0 = tensor.extract_slice %x[0, 0] [2, 128] [1, 1] : tensor<2x256xf32> to tensor<2x128xf32>
  %xr1 = tensor.extract_slice %x[0, 128] [2, 128] [1, 1] : tensor<2x256xf32> to tensor<2x128xf32>
  %exr = tensor.empty() : tensor<2x2x128xf32>
  %xr0i = tensor.insert_slice %xr0 into %exr[0, 0, 0] [1, 2, 128] [1, 1, 1] : tensor<2x128xf32> into tensor<2x2x128xf32>
  %xr = tensor.insert_slice %xr1 into %xr0i[1, 0, 0] [1, 2, 128] [1, 1, 1] : tensor<2x128xf32> into tensor<2x2x128xf32>
  %x0 = tensor.extract_slice %x[0, 0] [1, 256] [1, 1] : tensor<2x256xf32> to tensor<256xf32>

  %y1 = call @contract_nt(%x, %wnk) : (tensor<2x256xf32>, tensor<256x256xf32>) -> tensor<2x256xf32>
  call @print2(%y1) : (tensor<2x256xf32>) -> ()
  %y2 = call @batch_nt(%x, %wnk) : (tensor<2x256xf32>, tensor<256x256xf32>) -> tensor<2x256xf32>
  call @print2(%y2) : (tensor<2x256xf32>) -> ()
  %y3 = call @batch_reduce(%xr, %wr) : (tensor<2x2x128xf32>, tensor<2x128x256xf32>) -> tensor<2x256xf32>
  call @print2(%y3) : (tensor<2x256xf32>) -> ()
  %y4 = call @heads(%x, %wh) : (tensor<2x256xf32>, tensor<256x2x128xf32>) -> tensor<2x256xf32>
  call @print2(%y4) : (tensor<2x256xf32>) -> ()
  %y5 = call @result_nm(%x, %wkn) : (tensor<2x256xf32>, tensor<256x256xf32>) -> tensor<2x256xf32>
  call @print2(%y5) : (tensor<2x256xf32>) -> ()
  %y6 = call @vecmat(%x0, %wkn) : (tensor<256xf32>, tensor<256x256xf32>) -> tensor<256xf32>
  call @print1(%y6) : (tensor<256xf32>) -> ()
  %y7 = call @matvec(%wnk, %x0) : (tensor<256x256xf32>, tensor<256xf32>) -> tensor<256xf32>
  call @print1(%y7) : (tensor<256xf32>) -> ()
  // The same [N, K] weight as a plain contraction once more (the check's
  // last block: nothing else printed after the vectors).
  call @print2(%y1) : (tensor<2x256xf32>) -> ()
  return
}
