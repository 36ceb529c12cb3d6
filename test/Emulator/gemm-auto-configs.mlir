// Every configuration the cost model (GemmCostModel.h) chooses for the
// DeepSeek-V3 shape table (bench/gpu/config_table.py; M = 64, 128, 4096 x
// its six N x K, on h200 and h100-sxm) runs on the CPU emulator bit-exact
// against the host reference, at reduced sizes that fit a unit test: the
// configurations are forced with block-m / block-n / stages / group-m on
// 200x300x400 (M, N and K tails, tiles straddling 128-column B-scale blocks)
// and 65x520x272 (f32 out), on 2 SMs so every CTA runs several tiles and the
// shared-memory ring wraps (a group taller than the reduced shapes' tile
// rows is clamped to them: gemm-grouped-order.mlir runs real groups).
// fp8-emu exits with 1 if an output differs.
// The list is the one config_table.py prints under 'distinct
// configurations' (gemm-auto-configs-list.test fails when they differ).
// The overlapped promotion's configurations (o8) run here at K = 400 and
// 272 (4 and 3 K blocks: no trip of 8, all in lock-step); their trips run
// on the same tiles in gemm-overlap.mlir (K = 1300, 2176, 1024).
// RUN: fp8-opt %s --fp8-lower-to-nvvm="block-m=64 block-n=16 stages=8" > %t.t64x16s8.mlir
// RUN: fp8-emu %t.t64x16s8.mlir --seed 1 --sm-count 2 | FileCheck %s --check-prefix=T64X16S8
// RUN: fp8-opt %s --fp8-lower-to-nvvm="block-m=64 block-n=32 stages=8" > %t.t64x32s8.mlir
// RUN: fp8-emu %t.t64x32s8.mlir --seed 2 --sm-count 2 | FileCheck %s --check-prefix=T64X32S8
// RUN: fp8-opt %s --fp8-lower-to-nvvm="block-m=64 block-n=64 stages=8" > %t.t64x64s8.mlir
// RUN: fp8-emu %t.t64x64s8.mlir --seed 3 --sm-count 2 | FileCheck %s --check-prefix=T64X64S8
// RUN: fp8-opt %s --fp8-lower-to-nvvm="block-m=64 block-n=128 stages=8" > %t.t64x128s8.mlir
// RUN: fp8-emu %t.t64x128s8.mlir --seed 4 --sm-count 2 | FileCheck %s --check-prefix=T64X128S8
// RUN: fp8-opt %s --fp8-lower-to-nvvm="block-m=64 block-n=192 stages=7" > %t.t64x192s7.mlir
// RUN: fp8-emu %t.t64x192s7.mlir --seed 5 --sm-count 2 | FileCheck %s --check-prefix=T64X192S7
// RUN: fp8-opt %s --fp8-lower-to-nvvm="block-m=64 block-n=256 stages=5" > %t.t64x256s5c2.mlir
// RUN: fp8-emu %t.t64x256s5c2.mlir --seed 6 --sm-count 2 | FileCheck %s --check-prefix=T64X256S5C2
// RUN: fp8-opt %s --fp8-lower-to-nvvm="block-m=128 block-n=128 stages=6" > %t.t128x128s6.mlir
// RUN: fp8-emu %t.t128x128s6.mlir --seed 7 --sm-count 2 | FileCheck %s --check-prefix=T128X128S6
// RUN: fp8-opt %s --fp8-lower-to-nvvm="block-m=128 block-n=192 stages=5" > %t.t128x192s5.mlir
// RUN: fp8-emu %t.t128x192s5.mlir --seed 9 --sm-count 2 | FileCheck %s --check-prefix=T128X192S5
// RUN: fp8-opt %s --fp8-lower-to-nvvm="block-m=128 block-n=112 stages=7 promotion-schedule=overlap8" > %t.t128x112s7o8.mlir
// RUN: fp8-emu %t.t128x112s7o8.mlir --seed 11 --sm-count 2 | FileCheck %s --check-prefix=T128X112S7O8
// RUN: fp8-opt %s --fp8-lower-to-nvvm="block-m=128 block-n=128 stages=6 promotion-schedule=overlap8" > %t.t128x128s6o8.mlir
// RUN: fp8-emu %t.t128x128s6o8.mlir --seed 12 --sm-count 2 | FileCheck %s --check-prefix=T128X128S6O8
// RUN: fp8-opt %s --fp8-lower-to-nvvm="block-m=128 block-n=128 stages=6 group-m=8 promotion-schedule=overlap8" > %t.t128x128s6g8o8.mlir
// RUN: fp8-emu %t.t128x128s6g8o8.mlir --seed 13 --sm-count 2 | FileCheck %s --check-prefix=T128X128S6G8O8
// RUN: fp8-opt %s --fp8-lower-to-nvvm="block-m=128 block-n=128 stages=6 group-m=16 promotion-schedule=overlap8" > %t.t128x128s6g16o8.mlir
// RUN: fp8-emu %t.t128x128s6g16o8.mlir --seed 14 --sm-count 2 | FileCheck %s --check-prefix=T128X128S6G16O8

// T64X16S8-DAG: fp8-emu: PASS fp8_scaled_matmul_200x300x400_e4m3_e4m3_bf16_t64x16s8: 200x300x400, 60000 outputs bit-exact
// T64X16S8-DAG: fp8-emu: PASS fp8_scaled_matmul_65x520x272_e4m3_e4m3_f32_t64x16s8: 65x520x272, 33800 outputs bit-exact
// T64X32S8-DAG: fp8-emu: PASS fp8_scaled_matmul_200x300x400_e4m3_e4m3_bf16_t64x32s8: 200x300x400, 60000 outputs bit-exact
// T64X32S8-DAG: fp8-emu: PASS fp8_scaled_matmul_65x520x272_e4m3_e4m3_f32_t64x32s8: 65x520x272, 33800 outputs bit-exact
// T64X64S8-DAG: fp8-emu: PASS fp8_scaled_matmul_200x300x400_e4m3_e4m3_bf16_t64x64s8: 200x300x400, 60000 outputs bit-exact
// T64X64S8-DAG: fp8-emu: PASS fp8_scaled_matmul_65x520x272_e4m3_e4m3_f32_t64x64s8: 65x520x272, 33800 outputs bit-exact
// T64X128S8-DAG: fp8-emu: PASS fp8_scaled_matmul_200x300x400_e4m3_e4m3_bf16_t64x128s8: 200x300x400, 60000 outputs bit-exact
// T64X128S8-DAG: fp8-emu: PASS fp8_scaled_matmul_65x520x272_e4m3_e4m3_f32_t64x128s8: 65x520x272, 33800 outputs bit-exact
// T64X192S7-DAG: fp8-emu: PASS fp8_scaled_matmul_200x300x400_e4m3_e4m3_bf16_t64x192s7: 200x300x400, 60000 outputs bit-exact
// T64X192S7-DAG: fp8-emu: PASS fp8_scaled_matmul_65x520x272_e4m3_e4m3_f32_t64x192s7: 65x520x272, 33800 outputs bit-exact
// T64X256S5C2-DAG: fp8-emu: PASS fp8_scaled_matmul_200x300x400_e4m3_e4m3_bf16_t64x256s5c2: 200x300x400, 60000 outputs bit-exact
// T64X256S5C2-DAG: fp8-emu: PASS fp8_scaled_matmul_65x520x272_e4m3_e4m3_f32_t64x256s5c2: 65x520x272, 33800 outputs bit-exact
// T128X128S6-DAG: fp8-emu: PASS fp8_scaled_matmul_200x300x400_e4m3_e4m3_bf16: 200x300x400, 60000 outputs bit-exact
// T128X128S6-DAG: fp8-emu: PASS fp8_scaled_matmul_65x520x272_e4m3_e4m3_f32: 65x520x272, 33800 outputs bit-exact
// T128X192S5-DAG: fp8-emu: PASS fp8_scaled_matmul_200x300x400_e4m3_e4m3_bf16_t128x192s5: 200x300x400, 60000 outputs bit-exact
// T128X192S5-DAG: fp8-emu: PASS fp8_scaled_matmul_65x520x272_e4m3_e4m3_f32_t128x192s5: 65x520x272, 33800 outputs bit-exact
// T128X112S7O8-DAG: fp8-emu: PASS fp8_scaled_matmul_200x300x400_e4m3_e4m3_bf16_t128x112s7o8: 200x300x400, 60000 outputs bit-exact
// T128X112S7O8-DAG: fp8-emu: PASS fp8_scaled_matmul_65x520x272_e4m3_e4m3_f32_t128x112s7o8: 65x520x272, 33800 outputs bit-exact
// T128X128S6O8-DAG: fp8-emu: PASS fp8_scaled_matmul_200x300x400_e4m3_e4m3_bf16_t128x128s6o8: 200x300x400, 60000 outputs bit-exact
// T128X128S6O8-DAG: fp8-emu: PASS fp8_scaled_matmul_65x520x272_e4m3_e4m3_f32_t128x128s6o8: 65x520x272, 33800 outputs bit-exact
// T128X128S6G8O8-DAG: fp8-emu: PASS fp8_scaled_matmul_200x300x400_e4m3_e4m3_bf16_t128x128s6g8o8: 200x300x400, 60000 outputs bit-exact
// T128X128S6G8O8-DAG: fp8-emu: PASS fp8_scaled_matmul_65x520x272_e4m3_e4m3_f32_t128x128s6g8o8: 65x520x272, 33800 outputs bit-exact
// T128X128S6G16O8-DAG: fp8-emu: PASS fp8_scaled_matmul_200x300x400_e4m3_e4m3_bf16_t128x128s6g16o8: 200x300x400, 60000 outputs bit-exact
// T128X128S6G16O8-DAG: fp8-emu: PASS fp8_scaled_matmul_65x520x272_e4m3_e4m3_f32_t128x128s6g16o8: 65x520x272, 33800 outputs bit-exact

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
