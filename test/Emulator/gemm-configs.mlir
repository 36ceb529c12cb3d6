// Non-default kernel configurations (fp8-lower-to-nvvm block-m / block-n)
// run on the CPU emulator bit-exact against the host reference of the
// numerics contract, on shapes whose CTA tiles straddle 128-column B-scale
// blocks (N = 300 with BLOCK_N 96, 112, 160, 216; N = 520 with a cut last
// block) and with M, N and K tails. This is the test of the B-scale index
// for BLOCK_N != 128 (each 8-column register group takes the scale of the
// block its columns fall in). fp8-emu reads each kernel's configuration
// from its code; it exits with 1 if an output differs.
// RUN: fp8-opt %s --fp8-lower-to-nvvm="config=fixed block-n=64" > %t.n64.mlir
// RUN: fp8-emu %t.n64.mlir --seed 1 | FileCheck %s --check-prefix=N64
// RUN: fp8-opt %s --fp8-lower-to-nvvm="config=fixed block-n=96" > %t.n96.mlir
// RUN: fp8-emu %t.n96.mlir --seed 2 --sm-count 3 | FileCheck %s --check-prefix=N96
// RUN: fp8-opt %s --fp8-lower-to-nvvm="config=fixed block-n=112" > %t.n112.mlir
// RUN: fp8-emu %t.n112.mlir --seed 3 | FileCheck %s --check-prefix=N112
// RUN: fp8-opt %s --fp8-lower-to-nvvm="config=fixed block-n=160" > %t.n160.mlir
// RUN: fp8-emu %t.n160.mlir --seed 4 --max-quantum 5 | FileCheck %s --check-prefix=N160
// RUN: fp8-opt %s --fp8-lower-to-nvvm="config=fixed block-n=216" > %t.n216.mlir
// RUN: fp8-emu %t.n216.mlir --seed 5 | FileCheck %s --check-prefix=N216
// RUN: fp8-opt %s --fp8-lower-to-nvvm="config=fixed block-m=64 block-n=96" > %t.m64.mlir
// RUN: fp8-emu %t.m64.mlir --seed 6 | FileCheck %s --check-prefix=M64
// RUN: fp8-opt %s --fp8-lower-to-nvvm="config=fixed block-m=256 block-n=64" > %t.m256.mlir
// RUN: fp8-emu %t.m256.mlir --seed 7 | FileCheck %s --check-prefix=M256
// BLOCK_N = 256 (BLOCK_M = 64, two consumers splitting the columns) and
// BLOCK_N = 16 (the narrowest wgmma tile of the matrix).
// RUN: fp8-opt %s --fp8-lower-to-nvvm="block-m=64 block-n=256" > %t.n256.mlir
// RUN: fp8-emu %t.n256.mlir --seed 8 --max-quantum 7 | FileCheck %s --check-prefix=N256
// RUN: fp8-opt %s --fp8-lower-to-nvvm="block-n=16" > %t.n16.mlir
// RUN: fp8-emu %t.n16.mlir --seed 9 | FileCheck %s --check-prefix=N16

// Stages by hand: (227 KB - 1 KB) / (BM x 128 + BN x 128 + roundUp(4 BM, 128)),
// at most 8.
// N64-DAG: fp8-emu: PASS fp8_scaled_matmul_200x300x400_e4m3_e4m3_bf16_t128x64s8: 200x300x400, 60000 outputs bit-exact
// N64-DAG: fp8-emu: PASS fp8_scaled_matmul_65x520x272_e4m3_e4m3_f32_t128x64s8: 65x520x272, 33800 outputs bit-exact
// N96-DAG: fp8-emu: PASS fp8_scaled_matmul_200x300x400_e4m3_e4m3_bf16_t128x96s7: 200x300x400, 60000 outputs bit-exact (grid 3,
// N96-DAG: fp8-emu: PASS fp8_scaled_matmul_65x520x272_e4m3_e4m3_f32_t128x96s7: 65x520x272, 33800 outputs bit-exact (grid 3,
// N112-DAG: fp8-emu: PASS fp8_scaled_matmul_200x300x400_e4m3_e4m3_bf16_t128x112s7: 200x300x400, 60000 outputs bit-exact
// N112-DAG: fp8-emu: PASS fp8_scaled_matmul_65x520x272_e4m3_e4m3_f32_t128x112s7: 65x520x272, 33800 outputs bit-exact
// N160-DAG: fp8-emu: PASS fp8_scaled_matmul_200x300x400_e4m3_e4m3_bf16_t128x160s6: 200x300x400, 60000 outputs bit-exact
// N160-DAG: fp8-emu: PASS fp8_scaled_matmul_65x520x272_e4m3_e4m3_f32_t128x160s6: 65x520x272, 33800 outputs bit-exact
// N216-DAG: fp8-emu: PASS fp8_scaled_matmul_200x300x400_e4m3_e4m3_bf16_t128x216s5: 200x300x400, 60000 outputs bit-exact
// N216-DAG: fp8-emu: PASS fp8_scaled_matmul_65x520x272_e4m3_e4m3_f32_t128x216s5: 65x520x272, 33800 outputs bit-exact
// M64-DAG: fp8-emu: PASS fp8_scaled_matmul_200x300x400_e4m3_e4m3_bf16_t64x96s8: 200x300x400, 60000 outputs bit-exact
// M64-DAG: fp8-emu: PASS fp8_scaled_matmul_65x520x272_e4m3_e4m3_f32_t64x96s8: 65x520x272, 33800 outputs bit-exact
// M256-DAG: fp8-emu: PASS fp8_scaled_matmul_200x300x400_e4m3_e4m3_bf16_t256x64s5: 200x300x400, 60000 outputs bit-exact
// M256-DAG: fp8-emu: PASS fp8_scaled_matmul_65x520x272_e4m3_e4m3_f32_t256x64s5: 65x520x272, 33800 outputs bit-exact
// Grids by hand: ceil(200/64) x ceil(300/256) = 8 and ceil(65/64) x
// ceil(520/256) = 6 tiles of 64 x 256; 2 x 19 and 1 x 33 of 128 x 16.
// N256-DAG: fp8-emu: PASS fp8_scaled_matmul_200x300x400_e4m3_e4m3_bf16_t64x256s5c2: 200x300x400, 60000 outputs bit-exact (grid 8,
// N256-DAG: fp8-emu: PASS fp8_scaled_matmul_65x520x272_e4m3_e4m3_f32_t64x256s5c2: 65x520x272, 33800 outputs bit-exact (grid 6,
// N16-DAG: fp8-emu: PASS fp8_scaled_matmul_200x300x400_e4m3_e4m3_bf16_t128x16s8: 200x300x400, 60000 outputs bit-exact (grid 38,
// N16-DAG: fp8-emu: PASS fp8_scaled_matmul_65x520x272_e4m3_e4m3_f32_t128x16s8: 65x520x272, 33800 outputs bit-exact (grid 33,

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
