// A BERT layer's linear as torch-mlir exports it, with a run-time batch and
// sequence: x [B, S, 256] times one [256, 256] weight broadcast to
// [B, 256, 256] by a copy generic (linalg.batch_matmul), then the heads
// split and merged back ([B, S, 2, 128], [B, 2, S, 128], [B * 2, S, 128]
// and back). fp8-pipeline makes the linear one FP8 GEMM over B * S tokens
// (its result viewed back as [B, S, 256], two run-time sizes in one
// group); both pipelines must compile it and the CPU one run it.
//
// Values derived by hand, exact in FP8: x[b, s, :] = c = 7 * 2^(S b + s) (a
// block's amax is c, its scale c / 448 = 2^(S b + s) / 64, every code 448);
// w[k, n] = 7/16 for k <= n, else 0 (a block's amax 7/16, scale 1/1024,
// codes 448 or 0). So y[b, s, n] = c * 7/16 * (n + 1) = 49/16 * 2^(S b + s)
// * (n + 1), printed at columns 0, 127 and 254 for B = 2, S = 3.
//
// RUN: fp8-opt %s --fp8-pipeline=report=false | FileCheck %s --check-prefix=IR
// RUN: fp8-opt %s --fp8-pipeline=report=false | fp8-opt --fp8-cpu-pipeline | %fp8_run | FileCheck %s
// RUN: fp8-opt %s --fp8-pipeline=report=false | fp8-opt --fp8-cpu-pipeline=tiled=false | %fp8_run | FileCheck %s
// RUN: fp8-opt %s --fp8-pipeline=report=false | fp8-opt --fp8-gpu-pipeline=host=llvm | FileCheck %s --check-prefix=GPU

// IR-LABEL: func.func @layer
// IR: fp8.quantize {{.*}} : tensor<?x256xf32> -> !fp8.scaled<?x256xf8E4M3FN
// IR: fp8.scaled_matmul {{.*}} -> tensor<?x256xf32>
// IR-NOT: linalg.batch_matmul
// IR-LABEL: func.func @main

// The GPU pipeline launches the dynamic-M GEMM kernel (the grid from M at
// run time); nothing of the graph is left unlowered.
// GPU-LABEL: llvm.func @layer(
// GPU: llvm.call @fp8_launch_fp8_scaled_matmul_dynx256x256
// GPU-LABEL: llvm.func @main(
// GPU-NOT: fp8.
// GPU-NOT: linalg.

func.func private @printMemrefF32(memref<*xf32>)

func.func @layer(%x: tensor<?x?x256xf32>, %w: tensor<256x256xf32>) -> tensor<?x?x256xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %b = tensor.dim %x, %c0 : tensor<?x?x256xf32>
  %s = tensor.dim %x, %c1 : tensor<?x?x256xf32>
  %ew = tensor.empty(%b) : tensor<?x256x256xf32>
  %wb = linalg.generic {indexing_maps = [affine_map<(g, k, n) -> (k, n)>, affine_map<(g, k, n) -> (g, k, n)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w : tensor<256x256xf32>) outs(%ew : tensor<?x256x256xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<?x256x256xf32>
  %e = tensor.empty(%b, %s) : tensor<?x?x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?x256xf32>) -> tensor<?x?x256xf32>
  %y = linalg.batch_matmul ins(%x, %wb : tensor<?x?x256xf32>, tensor<?x256x256xf32>) outs(%f : tensor<?x?x256xf32>) -> tensor<?x?x256xf32>
  // The heads: [B, S, 2, 128] -> [B, 2, S, 128] -> [B * 2, S, 128] and back.
  %y4 = tensor.expand_shape %y [[0], [1], [2, 3]] output_shape [%b, %s, 2, 128] : tensor<?x?x256xf32> into tensor<?x?x2x128xf32>
  %eh = tensor.empty(%b, %s) : tensor<?x2x?x128xf32>
  %h = linalg.transpose ins(%y4 : tensor<?x?x2x128xf32>) outs(%eh : tensor<?x2x?x128xf32>) permutation = [0, 2, 1, 3]
  %hc = tensor.collapse_shape %h [[0, 1], [2], [3]] : tensor<?x2x?x128xf32> into tensor<?x?x128xf32>
  %he = tensor.expand_shape %hc [[0, 1], [2], [3]] output_shape [%b, 2, %s, 128] : tensor<?x?x128xf32> into tensor<?x2x?x128xf32>
  %em = tensor.empty(%b, %s) : tensor<?x?x2x128xf32>
  %m = linalg.transpose ins(%he : tensor<?x2x?x128xf32>) outs(%em : tensor<?x?x2x128xf32>) permutation = [0, 2, 1, 3]
  %r = tensor.collapse_shape %m [[0], [1], [2, 3]] : tensor<?x?x2x128xf32> into tensor<?x?x256xf32>
  return %r : tensor<?x?x256xf32>
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %b = arith.constant 2 : index
  %s = arith.constant 3 : index
  %ex = tensor.empty(%b, %s) : tensor<?x?x256xf32>
  // x[b, s, :] = 7 * 2^(3 b + s).
  %x = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%ex : tensor<?x?x256xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %i3 = arith.muli %i, %c3 : index
    %p = arith.addi %i3, %j : index
    %pi = arith.index_cast %p : index to i32
    %seven = arith.constant 7 : i32
    %v = arith.shli %seven, %pi : i32
    %vf = arith.sitofp %v : i32 to f32
    linalg.yield %vf : f32
  } -> tensor<?x?x256xf32>
  // w[k, n] = 7/16 for k <= n, else 0.
  %e2 = tensor.empty() : tensor<256x256xf32>
  %w = linalg.generic {indexing_maps = [affine_map<(k, n) -> (k, n)>],
                       iterator_types = ["parallel", "parallel"]}
      outs(%e2 : tensor<256x256xf32>) {
  ^bb0(%o: f32):
    %k = linalg.index 0 : index
    %n = linalg.index 1 : index
    %le = arith.cmpi ule, %k, %n : index
    %a = arith.constant 0.4375 : f32
    %z = arith.constant 0.0 : f32
    %v = arith.select %le, %a, %z : f32
    linalg.yield %v : f32
  } -> tensor<256x256xf32>
  %y = call @layer(%x, %w) : (tensor<?x?x256xf32>, tensor<256x256xf32>) -> tensor<?x?x256xf32>
  %cols = tensor.extract_slice %y[0, 0, 0] [%b, %s, 3] [1, 1, 127] : tensor<?x?x256xf32> to tensor<?x?x3xf32>
  %buf = bufferization.to_buffer %cols : tensor<?x?x3xf32> to memref<?x?x3xf32>
  %u = memref.cast %buf : memref<?x?x3xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

// 49/16 * 2^j * (1, 128, 255) for j = 3 b + s.
// CHECK: sizes = [2, 3, 3]
// (780.938 is 780.9375 as printMemrefF32 rounds it to six digits.)
// CHECK-NEXT: {{\[\[\[}}3.0625, 392, 780.938],
// CHECK-NEXT: [6.125, 784, 1561.88],
// CHECK-NEXT: [12.25, 1568, 3123.75]],
// CHECK-NEXT: {{\[\[}}24.5, 3136, 6247.5],
// CHECK-NEXT: [49, 6272, 12495],
// CHECK-NEXT: [98, 12544, 24990]]]
