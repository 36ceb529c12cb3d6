// The quantize kernels whose launches differ from the 1x128 / 128x128 ones
// run through their launcher too (fp8-launch-kernels' host code, as the
// compiled host program runs them: test/Integration/GPUHost/
// tensor-quantize.mlir, rowwise-quantize.mlir, column-quantize.mlir,
// e8m0-scales.mlir), bit-exact against the host reference (HostQuantizer
// over each block): the per-tensor kernel (two launches: the amax, then the
// codes; one scale), a block per whole row, [128, 1] blocks (a scale per
// column) and E8M0 scales (one byte each). fp8-emu's former single-launch
// runner refused all four.
// RUN: fp8-opt %s --fp8-lower-to-nvvm > %t.mlir
// RUN: fp8-emu %t.mlir --seed 1 | FileCheck %s
// RUN: fp8-emu %t.mlir --seed 2 --specials --max-quantum 3 | FileCheck %s

// CHECK-DAG: fp8-emu: PASS fp8_quantize_64x256_tensor_f32_e4m3: 64x256, 16384 codes and 1 scales bit-exact (
// CHECK-DAG: fp8-emu: PASS fp8_quantize_64x256_1x256_f32_e4m3: 64x256, 16384 codes and 64 scales bit-exact (
// CHECK-DAG: fp8-emu: PASS fp8_quantize_64x256_1x128_f32_e4m3_pow2_ue8m0: 64x256, 16384 codes and 128 scales bit-exact (
// CHECK-DAG: fp8-emu: PASS fp8_quantize_256x64_128x1_f32_e4m3: 256x64, 16384 codes and 128 scales bit-exact (
// CHECK-NOT: error

func.func @tensor(%x: tensor<64x256xf32>) -> !fp8.scaled<64x256xf8E4M3FN, block = [64, 256], scale = f32> {
  %q = fp8.quantize %x : tensor<64x256xf32> -> !fp8.scaled<64x256xf8E4M3FN, block = [64, 256], scale = f32>
  return %q : !fp8.scaled<64x256xf8E4M3FN, block = [64, 256], scale = f32>
}

func.func @rowwise(%x: tensor<64x256xf32>) -> !fp8.scaled<64x256xf8E4M3FN, block = [1, 256], scale = f32> {
  %q = fp8.quantize %x : tensor<64x256xf32> -> !fp8.scaled<64x256xf8E4M3FN, block = [1, 256], scale = f32>
  return %q : !fp8.scaled<64x256xf8E4M3FN, block = [1, 256], scale = f32>
}

func.func @e8m0(%x: tensor<64x256xf32>) -> !fp8.scaled<64x256xf8E4M3FN, block = [1, 128], scale = f8E8M0FNU> {
  %q = fp8.quantize %x {scale_mode = #fp8.scale_mode<pow2>} : tensor<64x256xf32> -> !fp8.scaled<64x256xf8E4M3FN, block = [1, 128], scale = f8E8M0FNU>
  return %q : !fp8.scaled<64x256xf8E4M3FN, block = [1, 128], scale = f8E8M0FNU>
}

func.func @columns(%x: tensor<256x64xf32>) -> !fp8.scaled<256x64xf8E4M3FN, block = [128, 1], scale = f32> {
  %q = fp8.quantize %x : tensor<256x64xf32> -> !fp8.scaled<256x64xf8E4M3FN, block = [128, 1], scale = f32>
  return %q : !fp8.scaled<256x64xf8E4M3FN, block = [128, 1], scale = f32>
}
