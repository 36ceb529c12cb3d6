// docs/regression-cases.md case 16 through the whole compiler: a linalg.matmul
// whose weight is stored [K = 128, N = 256] (N-major) goes through
// fp8-pipeline (the weight is transposed to K-major [N, K] before its
// 128x128 quantization, the matmul is NT) and fp8-cpu-pipeline, and runs.
// A = ones, B[k][n] = 1 iff n = 0 and k < 64: D[:, 0] = 64, every other
// column 0 (hand-derived; a B read N-major would put the 64 elsewhere).
//
// RUN: fp8-opt %s --fp8-pipeline="report=false" -o %t.fp8 2>/dev/null
// RUN: FileCheck %s --check-prefix=IR < %t.fp8
// RUN: fp8-opt %t.fp8 --fp8-cpu-pipeline | %fp8_run | FileCheck %s

// IR-LABEL: func.func @forward
// IR: linalg.transpose ins(%{{.*}} : tensor<128x256xf32>) outs(%{{.*}} : tensor<256x128xf32>) permutation = [1, 0]
// IR: fp8.quantize %{{.*}} : tensor<256x128xf32> -> !fp8.scaled<256x128xf8E4M3FN, block = [128, 128], scale = f32>
// IR: fp8.scaled_matmul

// CHECK: {{\[\[}}64, 0, 0, 0],
// CHECK-NEXT: [64, 0, 0, 0]]
// CHECK: {{\[\[}}0, 0, 0, 0],
// CHECK-NEXT: [0, 0, 0, 0]]

func.func private @printMemrefF32(memref<*xf32>)

func.func @forward(%a: tensor<2x128xf32>, %b: tensor<128x256xf32>) -> tensor<2x256xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x256xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2x256xf32>) -> tensor<2x256xf32>
  %d = linalg.matmul ins(%a, %b : tensor<2x128xf32>, tensor<128x256xf32>) outs(%f : tensor<2x256xf32>) -> tensor<2x256xf32>
  return %d : tensor<2x256xf32>
}

func.func @print(%t: tensor<2x4xf32>) {
  %m = bufferization.to_buffer %t : tensor<2x4xf32> to memref<2x4xf32>
  %c = memref.cast %m : memref<2x4xf32> to memref<*xf32>
  call @printMemrefF32(%c) : (memref<*xf32>) -> ()
  return
}

func.func @main() {
  %a = arith.constant dense<1.0> : tensor<2x128xf32>
  %e = tensor.empty() : tensor<128x256xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(k, n) -> (k, n)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<128x256xf32>) {
  ^bb0(%out: f32):
    %k = linalg.index 0 : index
    %n = linalg.index 1 : index
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %one = arith.constant 1.0 : f32
    %zero = arith.constant 0.0 : f32
    %isn0 = arith.cmpi eq, %n, %c0 : index
    %klow = arith.cmpi ult, %k, %c64 : index
    %both = arith.andi %isn0, %klow : i1
    %v = arith.select %both, %one, %zero : f32
    linalg.yield %v : f32
  } -> tensor<128x256xf32>
  %d = call @forward(%a, %b) : (tensor<2x128xf32>, tensor<128x256xf32>) -> tensor<2x256xf32>
  %s0 = tensor.extract_slice %d[0, 0] [2, 4] [1, 1] : tensor<2x256xf32> to tensor<2x4xf32>
  call @print(%s0) : (tensor<2x4xf32>) -> ()
  %s1 = tensor.extract_slice %d[0, 126] [2, 4] [1, 1] : tensor<2x256xf32> to tensor<2x4xf32>
  call @print(%s1) : (tensor<2x4xf32>) -> ()
  return
}
