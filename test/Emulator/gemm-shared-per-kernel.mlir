// A GEMM kernel whose dynamic shared memory is within 1 KiB of the sm_90
// limit (block-m=64 block-n=256 store=tma, f32 D: t64x256s4c2tma, 231456
// bytes of dynamic shared memory, which checkGemmKernelConfig accepts) in
// the same gpu.module as a quantize kernel with its static amax buffer
// (fp8_quantize_amax, 32 bytes): the GEMM kernel never reaches that buffer,
// so its shared memory is its dynamic bytes alone, as on silicon, and it
// runs bit-exact against the host reference. The emulator counted every
// static shared global of the module (up to the 1024-byte boundary of the
// dynamic memory) and refused the launch at 232480 bytes.
//
// RUN: fp8-opt %s --fp8-lower-to-nvvm="block-m=64 block-n=256 store=tma" > %t.mlir
// RUN: fp8-emu %t.mlir --accumulator sm90 --seed 1 | FileCheck %s
// RUN: env FP8_EMU_SCHEDULE=lockstep fp8-emu %t.mlir --accumulator sm90 --seed 2 | FileCheck %s

// CHECK-NOT: exceeds the sm_90 limit
// CHECK-DAG: fp8-emu: PASS fp8_quantize_200x384_128x128_f32_e4m3: 200x384, 76800 codes and 6 scales bit-exact
// CHECK-DAG: fp8-emu: PASS fp8_scaled_matmul_65x256x256_e4m3_e4m3_f32_t64x256s4c2tma: 65x256x256, 16640 outputs bit-exact

func.func @gemm(%a: !fp8.scaled<65x256xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<256x256xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<65x256xf32> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<65x256xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<256x256xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<65x256xf32>
  return %d : tensor<65x256xf32>
}

func.func @quantize(%x: tensor<200x384xf32>) -> !fp8.scaled<200x384xf8E4M3FN, block = [128, 128], scale = f32> {
  %q = fp8.quantize %x : tensor<200x384xf32> -> !fp8.scaled<200x384xf8E4M3FN, block = [128, 128], scale = f32>
  return %q : !fp8.scaled<200x384xf8E4M3FN, block = [128, 128], scale = f32>
}
