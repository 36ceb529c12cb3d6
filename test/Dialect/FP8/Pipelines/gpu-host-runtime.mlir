// The lowered host program links against the project's mgpu* runtime
// (runtime/lib/mgpu_cuda_runtime.cpp) with no undefined symbol left: the
// runtime implements every function the emitted host code calls (plus
// MLIR's C runner utils for memrefCopy, which the CPU part of a program with
// dynamic shapes uses).
// REQUIRES: clang, mgpu-runtime
// RUN: fp8-opt %s --fp8-gpu-pipeline="config=fixed chip=sm_90a host=llvm" | mlir-translate --mlir-to-llvmir -o %t.ll
// RUN: %clang -Wno-override-module -shared -fPIC %t.ll -o %t.so -L%fp8_lib_dir -lfp8_mgpu_runtime -L%mlir_lib_dir -lmlir_c_runner_utils -Wl,--no-undefined
// RUN: llvm-nm -D --defined-only %t.so | FileCheck %s
// CHECK: T _mlir_ciface_linear

func.func @linear(%x: tensor<?x384xbf16>, %w: tensor<256x384xf32>) -> tensor<?x256xbf16> {
  %a = fp8.quantize %x : tensor<?x384xbf16> -> !fp8.scaled<?x384xf8E4M3FN, block = [1, 128], scale = f32>
  %b = fp8.quantize %w : tensor<256x384xf32> -> !fp8.scaled<256x384xf8E4M3FN, block = [128, 128], scale = f32>
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<?x384xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<256x384xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<?x256xbf16>
  return %d : tensor<?x256xbf16>
}
