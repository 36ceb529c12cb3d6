// fp8-emu runs the FP8 GEMM and quantize kernels against its FP8 host
// reference; the BF16 GEMM kernels (a = b = bf16) are checked through
// their host programs (test/Integration/GPUHost/bf16-matmul.mlir). Before,
// fp8-emu fed a BF16 kernel FP8 codes and reported every output of it a
// mismatch ("4096 of 4096 outputs differ from the host reference"): now a
// BF16 kernel named by --kernel is an error saying so, and one of a module
// run whole is skipped with a note while the other kernels run.
// RUN: fp8-opt %s --fp8-lower-to-nvvm=config=fixed > %t.mlir
// RUN: fp8-emu %t.mlir 2>&1 | FileCheck %s --check-prefix=ALL
// RUN: not fp8-emu %t.mlir --kernel fp8_matmul_64x64x64_bf16_bf16_f32_accf32 2>&1 | FileCheck %s --check-prefix=NAMED

// ALL: fp8-emu: note: kernel 'fp8_matmul_64x64x64_bf16_bf16_f32_accf32' is a BF16 GEMM (a = b = bf16): fp8-emu generates FP8 operands and an FP8 reference, so it skips it; run the compiled host program on the emulated runtime instead
// ALL-NOT: differ
// ALL: fp8-emu: PASS fp8_quantize_64x128_1x128_f32_e4m3
// ALL-NOT: fp8_matmul_64x64x64_bf16

// NAMED: fp8-emu: error: kernel 'fp8_matmul_64x64x64_bf16_bf16_f32_accf32' is a BF16 GEMM (a = b = bf16): fp8-emu generates FP8 operands and an FP8 reference, so it cannot run it
// NAMED-NOT: differ

func.func @bf16(%a: tensor<64x64xbf16>, %b: tensor<64x64xbf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %y = linalg.matmul ins(%a, %b : tensor<64x64xbf16>, tensor<64x64xbf16>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %y : tensor<64x64xf32>
}

func.func @quantize(%x: tensor<64x128xf32>) -> !fp8.scaled<64x128xf8E4M3FN, block = [1, 128], scale = f32> {
  %q = fp8.quantize %x : tensor<64x128xf32> -> !fp8.scaled<64x128xf8E4M3FN, block = [1, 128], scale = f32>
  return %q : !fp8.scaled<64x128xf8E4M3FN, block = [1, 128], scale = f32>
}
