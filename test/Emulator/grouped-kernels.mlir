// The grouped (MoE) GEMM kernels of fp8.grouped_scaled_matmul, run by
// fp8-emu on a module alone (not through a host program): it builds the
// grouped operands as fp8-launch-kernels lays them out (rank-3 tensor maps
// with box 1 along G, A scales transposed per group, the counts or group
// index last) from random codes and compares every output bit for bit with
// the host reference (the 2-D reference per group; rows a group does not
// compute are +0.0). Masked with counts: the six groups get all M rows,
// none, one, a random count, -3 and M + 7 (both clamped by the op).
// Contiguous: group runs of BLOCK_M + 3 rows, none, one row and a random
// length, each starting at a multiple of BLOCK_M with -1 padding after it.
// N and K tails (N = 136 over two weight blocks per expert, K = 136 padded
// to 144), bf16 and f32 outputs, an accumulator, a run-time M (at M = 200
// the first group's run and its padding fill the rows; at M = 1 one row of
// group 0), two scheduler seeds per kernel. The non-zero counts make the
// comparisons non-vacuous (every computed row is non-zero). Counts with an
// f32 accumulator: a tile without rows keeps C in its registers, and the
// rows at or past the count (every row of the -3 group: a signed compare)
// are still stored as +0.0, not C.
// RUN: fp8-opt %s --fp8-lower-to-nvvm=config=fixed > %t.mlir
// RUN: fp8-emu %t.mlir --seed 1 --m 200 --schedules 2 | FileCheck %s
// RUN: fp8-emu %t.mlir --seed 2 --m 1 --sm-count 3 --max-quantum 5 --kernel fp8_grouped_matmul_contiguous_3xdynx128x128_e4m3_e4m3_f32_accf32 | FileCheck %s --check-prefix=SMALL

// CHECK-DAG: fp8-emu: PASS fp8_grouped_matmul_masked_6x70x136x136_e4m3_e4m3_bf16_counts: 6 groups, 70x136x136, counts [70,0,1,{{[0-9]+}},-3,77], 57120 outputs bit-exact, {{[1-9][0-9]*}} non-zero (grid 12,
// CHECK-DAG: fp8-emu: PASS fp8_grouped_matmul_masked_6x70x136x136_e4m3_e4m3_f32_counts_accf32: 6 groups, 70x136x136, counts [70,0,1,{{[0-9]+}},-3,77], 57120 outputs bit-exact, {{[1-9][0-9]*}} non-zero (grid 12,
// CHECK-DAG: fp8-emu: PASS fp8_grouped_matmul_masked_2x64x128x128_e5m2_e4m3_f32_accbf16: 2 groups, 64x128x128, 16384 outputs bit-exact, {{[1-9][0-9]*}} non-zero (grid 2,
// CHECK-DAG: fp8-emu: PASS fp8_grouped_matmul_contiguous_4x520x64x256_e4m3_e4m3_bf16: 4 groups, 520x64x256, rows per group [131,0,1,{{[0-9]+}}] + {{[0-9]+}} padding, 33280 outputs bit-exact, {{[1-9][0-9]*}} non-zero (grid 5,
// CHECK-DAG: fp8-emu: PASS fp8_grouped_matmul_contiguous_3xdynx128x128_e4m3_e4m3_f32_accf32: 3 groups, 200x128x128, rows per group [131,0,0] + 69 padding, 25600 outputs bit-exact, {{[1-9][0-9]*}} non-zero (grid 2,
// SMALL: fp8-emu: PASS fp8_grouped_matmul_contiguous_3xdynx128x128_e4m3_e4m3_f32_accf32: 3 groups, 1x128x128, rows per group [1,0,0] + 0 padding, 128 outputs bit-exact, {{[1-9][0-9]*}} non-zero (grid 1,

func.func @masked_counts(%a: !fp8.scaled<6x70x136xf8E4M3FN, block = [1, 1, 128], scale = f32>, %b: !fp8.scaled<6x136x136xf8E4M3FN, block = [1, 128, 128], scale = f32>, %n: tensor<6xi32>) -> tensor<6x70x136xbf16> {
  %d = fp8.grouped_scaled_matmul masked %a, %b counts(%n : tensor<6xi32>) : !fp8.scaled<6x70x136xf8E4M3FN, block = [1, 1, 128], scale = f32>, !fp8.scaled<6x136x136xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<6x70x136xbf16>
  return %d : tensor<6x70x136xbf16>
}

func.func @masked_counts_acc(%a: !fp8.scaled<6x70x136xf8E4M3FN, block = [1, 1, 128], scale = f32>, %b: !fp8.scaled<6x136x136xf8E4M3FN, block = [1, 128, 128], scale = f32>, %n: tensor<6xi32>, %c: tensor<6x70x136xf32>) -> tensor<6x70x136xf32> {
  %d = fp8.grouped_scaled_matmul masked %a, %b counts(%n : tensor<6xi32>) acc(%c : tensor<6x70x136xf32>) : !fp8.scaled<6x70x136xf8E4M3FN, block = [1, 1, 128], scale = f32>, !fp8.scaled<6x136x136xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<6x70x136xf32>
  return %d : tensor<6x70x136xf32>
}

func.func @masked_all_acc(%a: !fp8.scaled<2x64x128xf8E5M2, block = [1, 1, 128], scale = f32>, %b: !fp8.scaled<2x128x128xf8E4M3FN, block = [1, 128, 128], scale = f32>, %c: tensor<2x64x128xbf16>) -> tensor<2x64x128xf32> {
  %d = fp8.grouped_scaled_matmul masked %a, %b acc(%c : tensor<2x64x128xbf16>) : !fp8.scaled<2x64x128xf8E5M2, block = [1, 1, 128], scale = f32>, !fp8.scaled<2x128x128xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<2x64x128xf32>
  return %d : tensor<2x64x128xf32>
}

func.func @contiguous(%a: !fp8.scaled<520x256xf8E4M3FN, block = [1, 128], scale = f32>, %b: !fp8.scaled<4x64x256xf8E4M3FN, block = [1, 128, 128], scale = f32>, %ids: tensor<520xi32>) -> tensor<520x64xbf16> {
  %d = fp8.grouped_scaled_matmul contiguous %a, %b group_ids(%ids : tensor<520xi32>) : !fp8.scaled<520x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<4x64x256xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<520x64xbf16>
  return %d : tensor<520x64xbf16>
}

func.func @contiguous_dyn_acc(%a: !fp8.scaled<?x128xf8E4M3FN, block = [1, 128], scale = f32>, %b: !fp8.scaled<3x128x128xf8E4M3FN, block = [1, 128, 128], scale = f32>, %ids: tensor<?xi32>, %c: tensor<?x128xf32>) -> tensor<?x128xf32> {
  %d = fp8.grouped_scaled_matmul contiguous %a, %b group_ids(%ids : tensor<?xi32>) acc(%c : tensor<?x128xf32>) : !fp8.scaled<?x128xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<3x128x128xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<?x128xf32>
  return %d : tensor<?x128xf32>
}
