// The sm_90a GEMM kernels of fp8-lower-to-nvvm run on the CPU emulator
// (fp8-emu) over a matrix of shapes, bit-exact against the host reference of
// the numerics contract (k-order f32 partial per 128-wide K block, then
// fma(partial, sa * sb, acc)): M, N and K tails (M = 1, 65, 127, 129, 200,
// 300; N = 1, 65, 127, 129, 200; K < 128: 16, 96; K = 144, 160, 272, 400
// with a cut last K block), e4m3/e5m2 on either side, bf16 and f32 output,
// one and two consumer warpgroups, a run-time M kernel, rings that wrap
// (K = 1024: 8 K blocks over 6 stages), and persistent scheduling with more
// tiles than CTAs (--sm-count 3: 12 tiles of 300x400 over 3 CTAs). Each RUN
// line uses another scheduler seed and thread-switch quantum; fp8-emu exits
// with 1 (failing the RUN line) if any kernel differs or faults.
// (K = 136 and the accumulator operand C: gemm-acc-ktail.mlir.)
// RUN: fp8-opt %s --fp8-lower-to-nvvm=config=fixed > %t.mlir
// RUN: fp8-emu %t.mlir --seed 1 --m 200 | FileCheck %s
// RUN: fp8-emu %t.mlir --seed 2 --m 129 --max-quantum 3 --sm-count 3 | FileCheck %s --check-prefix=SM3
// RUN: fp8-emu %t.mlir --seed 3 --m 1 --max-quantum 1000 --sm-count 1 | FileCheck %s --check-prefix=SM1
// Hopper's accumulation model in the emulator's wgmma and in the reference
// (TensorCoreAccumulation.h); an unknown model is an error.
// RUN: fp8-emu %t.mlir --accumulator sm90 --kernel fp8_scaled_matmul_129x200x160_e4m3_e5m2_bf16 --kernel fp8_scaled_matmul_300x400x1024_e4m3_e4m3_bf16 | FileCheck %s --check-prefix=SM90
// RUN: not fp8-emu %t.mlir --accumulator sm100 2>&1 | FileCheck %s --check-prefix=BADMODEL

// CHECK-DAG: fp8-emu: PASS fp8_scaled_matmul_1x65x128_e4m3_e4m3_bf16: 1x65x128, 65 outputs bit-exact (grid 1,
// CHECK-DAG: fp8-emu: PASS fp8_scaled_matmul_65x127x144_e4m3_e4m3_bf16: 65x127x144, 8255 outputs bit-exact (grid 1,
// CHECK-DAG: fp8-emu: PASS fp8_scaled_matmul_127x129x96_e4m3_e4m3_f32: 127x129x96, 16383 outputs bit-exact (grid 2,
// CHECK-DAG: fp8-emu: PASS fp8_scaled_matmul_129x200x160_e4m3_e5m2_bf16: 129x200x160, 25800 outputs bit-exact (grid 4,
// CHECK-DAG: fp8-emu: PASS fp8_scaled_matmul_200x1x400_e5m2_e4m3_f32: 200x1x400, 200 outputs bit-exact (grid 2,
// CHECK-DAG: fp8-emu: PASS fp8_scaled_matmul_65x65x512_e5m2_e5m2_f32: 65x65x512, 4225 outputs bit-exact (grid 1,
// CHECK-DAG: fp8-emu: PASS fp8_scaled_matmul_256x256x512_e4m3_e4m3_bf16: 256x256x512, 65536 outputs bit-exact (grid 4,
// CHECK-DAG: fp8-emu: PASS fp8_scaled_matmul_64x128x16_e4m3_e4m3_bf16: 64x128x16, 8192 outputs bit-exact (grid 1,
// CHECK-DAG: fp8-emu: PASS fp8_scaled_matmul_300x400x1024_e4m3_e4m3_bf16: 300x400x1024, 120000 outputs bit-exact (grid 12,
// CHECK-DAG: fp8-emu: PASS fp8_scaled_matmul_dynx200x272_e4m3_e4m3_bf16: 200x200x272, 40000 outputs bit-exact (grid 4,

// SM3-DAG: fp8-emu: PASS fp8_scaled_matmul_300x400x1024_e4m3_e4m3_bf16: 300x400x1024, 120000 outputs bit-exact (grid 3,
// SM3-DAG: fp8-emu: PASS fp8_scaled_matmul_256x256x512_e4m3_e4m3_bf16: 256x256x512, 65536 outputs bit-exact (grid 3,
// SM3-DAG: fp8-emu: PASS fp8_scaled_matmul_dynx200x272_e4m3_e4m3_bf16: 129x200x272, 25800 outputs bit-exact (grid 3,

// SM90: fp8-emu: PASS fp8_scaled_matmul_129x200x160_e4m3_e5m2_bf16: 129x200x160, 25800 outputs bit-exact
// SM90: fp8-emu: PASS fp8_scaled_matmul_300x400x1024_e4m3_e4m3_bf16: 300x400x1024, 120000 outputs bit-exact
// BADMODEL: fp8-emu: error: --accumulator must be exact, sm90 or sm89, got 'sm100'

// SM1-DAG: fp8-emu: PASS fp8_scaled_matmul_300x400x1024_e4m3_e4m3_bf16: 300x400x1024, 120000 outputs bit-exact (grid 1,
// SM1-DAG: fp8-emu: PASS fp8_scaled_matmul_dynx200x272_e4m3_e4m3_bf16: 1x200x272, 200 outputs bit-exact (grid 1,

func.func @gemm_1x65x128_e4m3_e4m3_bf16(%a: !fp8.scaled<1x128xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<65x128xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<1x65xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<1x128xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<65x128xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<1x65xbf16>
  return %d : tensor<1x65xbf16>
}

func.func @gemm_65x127x144_e4m3_e4m3_bf16(%a: !fp8.scaled<65x144xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<127x144xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<65x127xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<65x144xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<127x144xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<65x127xbf16>
  return %d : tensor<65x127xbf16>
}

func.func @gemm_127x129x96_e4m3_e4m3_f32(%a: !fp8.scaled<127x96xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<129x96xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<127x129xf32> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<127x96xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<129x96xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<127x129xf32>
  return %d : tensor<127x129xf32>
}

func.func @gemm_129x200x160_e4m3_e5m2_bf16(%a: !fp8.scaled<129x160xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<200x160xf8E5M2, block = [128, 128], scale = f32>) -> tensor<129x200xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<129x160xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<200x160xf8E5M2, block = [128, 128], scale = f32> -> tensor<129x200xbf16>
  return %d : tensor<129x200xbf16>
}

func.func @gemm_200x1x400_e5m2_e4m3_f32(%a: !fp8.scaled<200x400xf8E5M2, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<1x400xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<200x1xf32> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<200x400xf8E5M2, block = [1, 128], scale = f32>,
    !fp8.scaled<1x400xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<200x1xf32>
  return %d : tensor<200x1xf32>
}

func.func @gemm_65x65x512_e5m2_e5m2_f32(%a: !fp8.scaled<65x512xf8E5M2, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<65x512xf8E5M2, block = [128, 128], scale = f32>) -> tensor<65x65xf32> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<65x512xf8E5M2, block = [1, 128], scale = f32>,
    !fp8.scaled<65x512xf8E5M2, block = [128, 128], scale = f32> -> tensor<65x65xf32>
  return %d : tensor<65x65xf32>
}

func.func @gemm_256x256x512_e4m3_e4m3_bf16(%a: !fp8.scaled<256x512xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<256x512xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<256x256xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<256x512xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<256x512xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<256x256xbf16>
  return %d : tensor<256x256xbf16>
}

func.func @gemm_64x128x16_e4m3_e4m3_bf16(%a: !fp8.scaled<64x16xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<128x16xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<64x128xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<64x16xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<128x16xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<64x128xbf16>
  return %d : tensor<64x128xbf16>
}

func.func @gemm_300x400x1024_e4m3_e4m3_bf16(%a: !fp8.scaled<300x1024xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<400x1024xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<300x400xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<300x1024xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<400x1024xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<300x400xbf16>
  return %d : tensor<300x400xbf16>
}

func.func @gemm_dynx200x272_e4m3_e4m3_bf16(%a: !fp8.scaled<?x272xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<200x272xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<?x200xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<?x272xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<200x272xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<?x200xbf16>
  return %d : tensor<?x200xbf16>
}
