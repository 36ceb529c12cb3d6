// fp8-emu's own runner launches a quantize kernel once with f32 scales of
// 1x128 or 128x128 blocks; the per-tensor kernel (two launches: the amax,
// then the codes), a block per whole row, [128, 1] blocks and E8M0 scales
// run through their compiled host program instead (fp8-gpu-pipeline
// host=llvm target=emulator: test/Integration/GPUHost/tensor-quantize.mlir,
// rowwise-quantize.mlir, column-quantize.mlir, e8m0-scales.mlir). fp8-emu
// says so per kernel, not that the kernel has no attribute.
// RUN: fp8-opt %s --fp8-lower-to-nvvm > %t.mlir
// RUN: not fp8-emu %t.mlir 2>&1 | FileCheck %s

// CHECK-DAG: fp8-emu: error: quantize kernel 'fp8_quantize_64x256_tensor_f32_e4m3' has one scale per tensor (two launches): it runs through its compiled host program (fp8-gpu-pipeline host=llvm target=emulator, libfp8_emu_mgpu), not this single-launch runner
// CHECK-DAG: fp8-emu: error: quantize kernel 'fp8_quantize_64x256_1x256_f32_e4m3' has a block per whole row: it runs through its compiled host program
// CHECK-DAG: fp8-emu: error: quantize kernel 'fp8_quantize_64x256_1x128_f32_e4m3_pow2_ue8m0' has E8M0 scales: it runs through its compiled host program
// CHECK-DAG: fp8-emu: error: quantize kernel 'fp8_quantize_256x64_128x1_f32_e4m3' has [128, 1] blocks (a scale per column): it runs through its compiled host program
// CHECK-NOT: nothing says what it computes

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
