// The grouped (swizzled) tile order (GemmKernelConfig::groupM, issue 17):
// tiles in groups of G tile rows, each group swept column by column. Every
// output element must still be computed exactly once by the tile that owns
// it: the emulator runs the kernels bit-exact against the host reference
// (an output tile computed twice or never shows up as a mismatch; fp8-emu
// exits with 1). The shapes make the last group shorter than G and the
// persistent grid's waves straddle group boundaries (--sm-count), with a
// run-time M for the dynamic kernel.
// RUN: fp8-opt %s --fp8-lower-to-nvvm="block-m=64 block-n=32 stages=4 group-m=3" > %t.g3.mlir
// RUN: fp8-emu %t.g3.mlir --seed 1 --m 257 --sm-count 7 | FileCheck %s --check-prefix=G3
// RUN: fp8-emu %t.g3.mlir --seed 2 --m 65 --sm-count 3 --max-quantum 5 | FileCheck %s --check-prefix=G3SMALL
// RUN: fp8-opt %s --fp8-lower-to-nvvm="block-m=128 block-n=176 stages=5 group-m=16" > %t.g16.mlir
// RUN: fp8-emu %t.g16.mlir --seed 3 --m 300 --sm-count 2 | FileCheck %s --check-prefix=G16
// RUN: fp8-opt %s --fp8-lower-to-nvvm="block-m=64 block-n=48 stages=8 group-m=2" > %t.g2.mlir
// RUN: fp8-emu %t.g2.mlir --seed 4 --m 200 --sm-count 5 --schedules 2 | FileCheck %s --check-prefix=G2

// 200x300x400 with 64x32 tiles: 4 x 10 tiles, groups of rows {0, 1, 2}, {3};
// 7 CTAs. The dynamic kernel at M = 257: 5 tile rows, groups {0-2}, {3, 4}.
// G3-DAG: fp8-emu: PASS fp8_scaled_matmul_200x300x400_e4m3_e4m3_bf16_t64x32s4g3: 200x300x400, 60000 outputs bit-exact
// G3-DAG: fp8-emu: PASS fp8_scaled_matmul_65x520x272_e4m3_e4m3_f32_t64x32s4g3: 65x520x272, 33800 outputs bit-exact
// G3-DAG: fp8-emu: PASS fp8_scaled_matmul_dynx300x400_e4m3_e4m3_bf16_t64x32s4g3: 257x300x400, 77100 outputs bit-exact
// G3SMALL-DAG: fp8-emu: PASS fp8_scaled_matmul_dynx300x400_e4m3_e4m3_bf16_t64x32s4g3: 65x300x400, 19500 outputs bit-exact
// The model's choice for the large DeepSeek-V3 shapes (128x176, groups of
// 16) on small shapes: the group is taller than the tile rows (clamped).
// G16-DAG: fp8-emu: PASS fp8_scaled_matmul_200x300x400_e4m3_e4m3_bf16_t128x176s5g16: 200x300x400, 60000 outputs bit-exact
// G16-DAG: fp8-emu: PASS fp8_scaled_matmul_dynx300x400_e4m3_e4m3_bf16_t128x176s5g16: 300x300x400, 90000 outputs bit-exact
// G2-DAG: fp8-emu: PASS fp8_scaled_matmul_65x520x272_e4m3_e4m3_f32_t64x48s8g2: 65x520x272, 33800 outputs bit-exact
// G2-DAG: fp8-emu: PASS fp8_scaled_matmul_dynx300x400_e4m3_e4m3_bf16_t64x48s8g2: 200x300x400, 60000 outputs bit-exact

func.func @gemm_200x300x400(%a: !fp8.scaled<200x400xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<300x400xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<200x300xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<200x400xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<300x400xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<200x300xbf16>
  return %d : tensor<200x300xbf16>
}

func.func @gemm_65x520x272(%a: !fp8.scaled<65x272xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<520x272xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<65x520xf32> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<65x272xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<520x272xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<65x520xf32>
  return %d : tensor<65x520xf32>
}

func.func @gemm_dyn(%a: !fp8.scaled<?x400xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<300x400xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<?x300xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<?x400xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<300x400xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<?x300xbf16>
  return %d : tensor<?x300xbf16>
}
