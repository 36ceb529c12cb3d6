// The grouped (MoE) kernels under tiles other than grouped-kernels.mlir's,
// each output compared bit for bit with the host reference (fp8-emu): a
// second value check of what the grouped kernels add to the 2-D one.
// - B scales per group: N = 264 and 200 give each expert 3 and 2 weight
//   blocks along N and 3 and 2 K blocks, so group g's scales start
//   g * ceil(N / 128) * KB floats in (an offset of g * KB reads another
//   expert's or another block's scales);
// - the masked row bound: counts M, 0, 1, random: row `count` of a group
//   (computed by the tile, past the count) must be +0.0;
// - empty contiguous tiles: M = 1000 rows, of which the four group runs
//   (at most 4 * 256) leave whole tiles of padding at the end; with an
//   accumulator C, such a tile must store +0.0, not C; each run starts at a
//   multiple of the op's m_alignment (128, which the launcher asserts), so
//   under BLOCK_M 64 a run of 131 rows ends 3 rows into a tile whose other
//   61 rows are padding;
// - BLOCK_M 64 and BLOCK_N 64 (tiles straddling the scale blocks), and
//   the default tiles, with bf16 and f32 outputs and accumulators.
// RUN: fp8-opt %s --fp8-lower-to-nvvm="block-m=64 block-n=64 stages=3" > %t.64.mlir
// RUN: fp8-emu %t.64.mlir --seed 11 --sm-count 9 | FileCheck %s --check-prefix=T64
// RUN: fp8-opt %s --fp8-lower-to-nvvm=config=fixed > %t.fixed.mlir
// RUN: fp8-emu %t.fixed.mlir --seed 12 --max-quantum 9 | FileCheck %s --check-prefix=FIXED
// T64-DAG: fp8-emu: PASS fp8_grouped_matmul_masked_4x72x264x384_e4m3_e4m3_bf16_counts_accf32_t64x64s3: 4 groups, 72x264x384, counts [72,0,1,{{[0-9]+}}], 76032 outputs bit-exact, {{[1-9][0-9]*}} non-zero
// T64-DAG: fp8-emu: PASS fp8_grouped_matmul_contiguous_4x1000x200x256_e5m2_e4m3_f32_accbf16_t64x64s3: 4 groups, 1000x200x256, rows per group [131,0,1,{{[0-9]+}}] + {{[0-9]+}} padding, 200000 outputs bit-exact, {{[1-9][0-9]*}} non-zero
// FIXED-DAG: fp8-emu: PASS fp8_grouped_matmul_masked_4x72x264x384_e4m3_e4m3_bf16_counts_accf32: 4 groups, 72x264x384, counts [72,0,1,{{[0-9]+}}], 76032 outputs bit-exact, {{[1-9][0-9]*}} non-zero
// FIXED-DAG: fp8-emu: PASS fp8_grouped_matmul_contiguous_4x1000x200x256_e5m2_e4m3_f32_accbf16: 4 groups, 1000x200x256, rows per group [131,0,1,{{[0-9]+}}] + {{[0-9]+}} padding, 200000 outputs bit-exact, {{[1-9][0-9]*}} non-zero

func.func @masked_counts_acc(%a: !fp8.scaled<4x72x384xf8E4M3FN, block = [1, 1, 128], scale = f32>, %b: !fp8.scaled<4x264x384xf8E4M3FN, block = [1, 128, 128], scale = f32>, %n: tensor<4xi32>, %c: tensor<4x72x264xf32>) -> tensor<4x72x264xbf16> {
  %d = fp8.grouped_scaled_matmul masked %a, %b counts(%n : tensor<4xi32>) acc(%c : tensor<4x72x264xf32>) : !fp8.scaled<4x72x384xf8E4M3FN, block = [1, 1, 128], scale = f32>, !fp8.scaled<4x264x384xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<4x72x264xbf16>
  return %d : tensor<4x72x264xbf16>
}

func.func @contiguous_acc(%a: !fp8.scaled<1000x256xf8E5M2, block = [1, 128], scale = f32>, %b: !fp8.scaled<4x200x256xf8E4M3FN, block = [1, 128, 128], scale = f32>, %ids: tensor<1000xi32>, %c: tensor<1000x200xbf16>) -> tensor<1000x200xf32> {
  %d = fp8.grouped_scaled_matmul contiguous %a, %b group_ids(%ids : tensor<1000xi32>) acc(%c : tensor<1000x200xbf16>) : !fp8.scaled<1000x256xf8E5M2, block = [1, 128], scale = f32>, !fp8.scaled<4x200x256xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<1000x200xf32>
  return %d : tensor<1000x200xf32>
}
