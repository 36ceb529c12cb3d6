// The transpose-requantize kernels of fp8-lower-to-nvvm (fp8.requantize
// [T, F] -> [F, T], 1x128 tiles in and out) run on the CPU emulator
// (fp8-emu): the input codes and scales quantized on the host from seeded
// values (each token row its own magnitude), the output bit-exact against
// the host evaluation of the op (each code decoded by hostFP8ToF32 times its
// scale, transposed, then HostQuantizer), under three scheduler seeds:
// 272x300 (T and F tails, 4-byte code stores), 130x200 e5m2 (T % 4 != 0:
// byte stores), e4m3 -> e5m2 with pow2 scales. fp8-emu exits with 1 if any
// code or scale differs. (The same ops against fp8-cpu-pipeline:
// test/Integration/GPUHost/requantize.mlir.)
// RUN: fp8-opt %s --fp8-lower-to-nvvm > %t.mlir
// RUN: fp8-emu %t.mlir --seed 1 --schedules 3 | FileCheck %s
// RUN: fp8-emu %t.mlir --seed 7 --max-quantum 2 | FileCheck %s

// CHECK-DAG: fp8-emu: PASS fp8_requantize_t_300x272_1x128_e4m3_e4m3: 272x300 -> 300x272, 81600 codes and 900 scales bit-exact
// CHECK-DAG: fp8-emu: PASS fp8_requantize_t_200x130_1x128_e5m2_e5m2: 130x200 -> 200x130, 26000 codes and 400 scales bit-exact
// CHECK-DAG: fp8-emu: PASS fp8_requantize_t_256x384_1x128_e4m3_e5m2_pow2: 384x256 -> 256x384, 98304 codes and 768 scales bit-exact

func.func @ops(%x: !fp8.scaled<272x300xf8E4M3FN, block = [1, 128], scale = f32>,
               %g: !fp8.scaled<130x200xf8E5M2, block = [1, 128], scale = f32>,
               %m: !fp8.scaled<384x256xf8E4M3FN, block = [1, 128], scale = f32>)
    -> (!fp8.scaled<300x272xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<200x130xf8E5M2, block = [1, 128], scale = f32>, !fp8.scaled<256x384xf8E5M2, block = [1, 128], scale = f32>) {
  %xt = fp8.requantize %x {permutation = array<i64: 1, 0>} : !fp8.scaled<272x300xf8E4M3FN, block = [1, 128], scale = f32> -> !fp8.scaled<300x272xf8E4M3FN, block = [1, 128], scale = f32>
  %gt = fp8.requantize %g {permutation = array<i64: 1, 0>} : !fp8.scaled<130x200xf8E5M2, block = [1, 128], scale = f32> -> !fp8.scaled<200x130xf8E5M2, block = [1, 128], scale = f32>
  %mt = fp8.requantize %m {permutation = array<i64: 1, 0>, scale_mode = #fp8.scale_mode<pow2>} : !fp8.scaled<384x256xf8E4M3FN, block = [1, 128], scale = f32> -> !fp8.scaled<256x384xf8E5M2, block = [1, 128], scale = f32>
  return %xt, %gt, %mt : !fp8.scaled<300x272xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<200x130xf8E5M2, block = [1, 128], scale = f32>, !fp8.scaled<256x384xf8E5M2, block = [1, 128], scale = f32>
}
