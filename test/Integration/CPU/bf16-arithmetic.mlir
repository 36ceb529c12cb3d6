// bf16 arithmetic on the host (fp8-cpu-pipeline: each op in f32, rounded
// back to bf16 by integer RNE code, no __truncsfbf2 libcall): the ties of
// the rounding, derived by hand. 1 + 2^-8 is half an ulp of bf16 above 1:
// to even, 1. 1 + 3 * 2^-8 is half-way between 1 + 2^-7 and 1 + 2^-6: to
// even, 1 + 2^-6 = 1.015625 (printed 1.01562). 3 * 0.5 = 1.5 is exact.
//
// RUN: fp8-opt %s --fp8-cpu-pipeline | %fp8_run | FileCheck %s

// CHECK: [1, 1.01562, 1.5]

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %x = arith.constant dense<[1.0, 1.0, 3.0]> : tensor<3xbf16>
  %d = arith.constant dense<[0.00390625, 0.01171875, 0.0]> : tensor<3xbf16>
  %m = arith.constant dense<[1.0, 1.0, 0.5]> : tensor<3xbf16>
  %e = tensor.empty() : tensor<3xbf16>
  %s = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x, %d, %m : tensor<3xbf16>, tensor<3xbf16>, tensor<3xbf16>) outs(%e : tensor<3xbf16>) {
  ^bb0(%a: bf16, %b: bf16, %c: bf16, %o: bf16):
    %r = arith.addf %a, %b : bf16
    %p = arith.mulf %r, %c : bf16
    linalg.yield %p : bf16
  } -> tensor<3xbf16>
  %f = arith.extf %s : tensor<3xbf16> to tensor<3xf32>
  %buf = bufferization.to_buffer %f : tensor<3xf32> to memref<3xf32>
  %u = memref.cast %buf : memref<3xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
