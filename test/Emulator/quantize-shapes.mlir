// The sm_90a quantize kernels of fp8-lower-to-nvvm run on the CPU emulator
// (fp8-emu), bit-exact against HostQuantizer (the host evaluation of the
// numerics contract's operation sequence): 1x128 tiles and 128x128 blocks,
// f32 and bf16 inputs, e4m3 and e5m2, pow2 scales and a non-default eps,
// row and column tails (65x127: element-wise loads and stores; 100x270,
// 129x256, 200x384: cut blocks), a run-time row count; the second RUN line
// plants specials (+-Inf, NaN, +-1e30, 3e38, f32 subnormals, -0) among the
// inputs (NaN amax, the scale-1 rule, satfinite). fp8-emu exits with 1 if
// any code or scale differs.
// RUN: fp8-opt %s --fp8-lower-to-nvvm=config=fixed > %t.mlir
// RUN: fp8-emu %t.mlir --m 77 --seed 1 | FileCheck %s
// RUN: fp8-emu %t.mlir --m 300 --seed 5 --specials --max-quantum 2 | FileCheck %s --check-prefix=SPECIALS

// CHECK-DAG: fp8-emu: PASS fp8_quantize_100x270_128x128_f32_e5m2_pow2_eps358637bd: 100x270, 27000 codes and 3 scales bit-exact
// CHECK-DAG: fp8-emu: PASS fp8_quantize_129x256_128x128_bf16_e4m3_pow2: 129x256, 33024 codes and 4 scales bit-exact
// CHECK-DAG: fp8-emu: PASS fp8_quantize_130x300_1x128_bf16_e4m3: 130x300, 39000 codes and 390 scales bit-exact
// CHECK-DAG: fp8-emu: PASS fp8_quantize_200x384_128x128_f32_e4m3: 200x384, 76800 codes and 6 scales bit-exact
// CHECK-DAG: fp8-emu: PASS fp8_quantize_65x127_1x128_f32_e5m2: 65x127, 8255 codes and 65 scales bit-exact
// CHECK-DAG: fp8-emu: PASS fp8_quantize_dynx512_1x128_bf16_e4m3: 77x512, 39424 codes and 308 scales bit-exact
// SPECIALS-DAG: fp8-emu: PASS fp8_quantize_dynx512_1x128_bf16_e4m3: 300x512, 153600 codes and 1200 scales bit-exact
// SPECIALS-DAG: fp8-emu: PASS fp8_quantize_200x384_128x128_f32_e4m3: 200x384, 76800 codes and 6 scales bit-exact

// Without the barrier between the per-warp amax stores and the loads of all
// warps' amax, a 128x128 block reads shared memory nothing wrote yet.
// RUN: sed '/nvvm.barrier0/d' %t.mlir | not fp8-emu --kernel fp8_quantize_200x384_128x128_f32_e4m3 2>&1 | FileCheck %s --check-prefix=NOBARRIER
// NOBARRIER: fp8-emu: error: read of uninitialised shared memory at 0x{{[0-9a-f]+}} (nothing stored or copied there before this read)
// NOBARRIER-NEXT: at loc("<stdin>":{{[0-9]+}}:{{[0-9]+}}): 'llvm.load'
// NOBARRIER-NEXT: in kernel 'fp8_quantize_200x384_128x128_f32_e4m3', CTA 0, thread

func.func @act(%x: tensor<130x300xbf16>) -> !fp8.scaled<130x300xf8E4M3FN, block = [1, 128], scale = f32> {
  %q = fp8.quantize %x : tensor<130x300xbf16> -> !fp8.scaled<130x300xf8E4M3FN, block = [1, 128], scale = f32>
  return %q : !fp8.scaled<130x300xf8E4M3FN, block = [1, 128], scale = f32>
}
func.func @act_odd(%x: tensor<65x127xf32>) -> !fp8.scaled<65x127xf8E5M2, block = [1, 128], scale = f32> {
  %q = fp8.quantize %x : tensor<65x127xf32> -> !fp8.scaled<65x127xf8E5M2, block = [1, 128], scale = f32>
  return %q : !fp8.scaled<65x127xf8E5M2, block = [1, 128], scale = f32>
}
func.func @weight(%x: tensor<200x384xf32>) -> !fp8.scaled<200x384xf8E4M3FN, block = [128, 128], scale = f32> {
  %q = fp8.quantize %x : tensor<200x384xf32> -> !fp8.scaled<200x384xf8E4M3FN, block = [128, 128], scale = f32>
  return %q : !fp8.scaled<200x384xf8E4M3FN, block = [128, 128], scale = f32>
}
func.func @tail(%x: tensor<100x270xf32>) -> !fp8.scaled<100x270xf8E5M2, block = [128, 128], scale = f32> {
  %q = fp8.quantize %x {scale_mode = #fp8.scale_mode<pow2>, eps = 1.0e-6 : f32} : tensor<100x270xf32> -> !fp8.scaled<100x270xf8E5M2, block = [128, 128], scale = f32>
  return %q : !fp8.scaled<100x270xf8E5M2, block = [128, 128], scale = f32>
}
func.func @weight_bf16(%x: tensor<129x256xbf16>) -> !fp8.scaled<129x256xf8E4M3FN, block = [128, 128], scale = f32> {
  %q = fp8.quantize %x {scale_mode = #fp8.scale_mode<pow2>} : tensor<129x256xbf16> -> !fp8.scaled<129x256xf8E4M3FN, block = [128, 128], scale = f32>
  return %q : !fp8.scaled<129x256xf8E4M3FN, block = [128, 128], scale = f32>
}
func.func @dyn(%x: tensor<?x512xbf16>) -> !fp8.scaled<?x512xf8E4M3FN, block = [1, 128], scale = f32> {
  %q = fp8.quantize %x : tensor<?x512xbf16> -> !fp8.scaled<?x512xf8E4M3FN, block = [1, 128], scale = f32>
  return %q : !fp8.scaled<?x512xf8E4M3FN, block = [1, 128], scale = f32>
}
