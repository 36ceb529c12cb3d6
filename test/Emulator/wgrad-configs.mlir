// Per-column B scales (the Wgrad GEMM, b blocks [1, 128]) and 128x128
// B blocks under column-split consumers and grouped tile orders, with an
// accumulator C and M tails; each output compared bit for bit with the host
// reference (fp8-emu). A second value check, beside gemm-1d1d.mlir and
// gemm-grouped-order.mlir, of:
// - each consumer warpgroup's own scale columns: with the columns split
//   across consumers (BLOCK_N 256 over two, BLOCK_N 128 over two of four),
//   warpgroup w reads the scales of columns consumerN * (w / rowGroups) on;
// - the host reference's per-column scale index (sb[n][kb], not the block
//   of 128 columns);
// - C's row clamp: M = 300 leaves rows 300..319 of the last tile row
//   (BLOCK_M 64) or 300..383 (128) outside C; they load a clamped in-range
//   row and are never stored;
// - the grouped tile order: 5 tile rows in groups of 2, 3 tile rows in
//   groups of 2 (the last group shorter), swept column by column.
// RUN: fp8-opt %s --fp8-lower-to-nvvm="block-m=64 block-n=256 stages=3 group-m=2" > %t.split2.mlir
// RUN: fp8-emu %t.split2.mlir --seed 21 --sm-count 7 | FileCheck %s --check-prefix=SPLIT2
// RUN: fp8-opt %s --fp8-lower-to-nvvm="block-m=128 block-n=128 consumers=4 stages=3 group-m=2" > %t.split4.mlir
// RUN: fp8-emu %t.split4.mlir --seed 22 --sm-count 5 --max-quantum 17 | FileCheck %s --check-prefix=SPLIT4
// SPLIT2-DAG: fp8-emu: PASS fp8_scaled_matmul_300x520x272_e4m3_e4m3_bf16_accf32_b1x128_t64x256s3c2g2: 300x520x272, 156000 outputs bit-exact
// SPLIT2-DAG: fp8-emu: PASS fp8_scaled_matmul_300x520x272_e5m2_e4m3_f32_accbf16_t64x256s3c2g2: 300x520x272, 156000 outputs bit-exact
// SPLIT4-DAG: fp8-emu: PASS fp8_scaled_matmul_300x520x272_e4m3_e4m3_bf16_accf32_b1x128_t128x128s3c4g2: 300x520x272, 156000 outputs bit-exact
// SPLIT4-DAG: fp8-emu: PASS fp8_scaled_matmul_300x520x272_e5m2_e4m3_f32_accbf16_t128x128s3c4g2: 300x520x272, 156000 outputs bit-exact

func.func @wgrad_acc(%a: !fp8.scaled<300x272xf8E4M3FN, block = [1, 128], scale = f32>,
                     %b: !fp8.scaled<520x272xf8E4M3FN, block = [1, 128], scale = f32>,
                     %c: tensor<300x520xf32>) -> tensor<300x520xbf16> {
  %d = fp8.scaled_matmul %a, %b acc(%c : tensor<300x520xf32>) : !fp8.scaled<300x272xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<520x272xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<300x520xbf16>
  return %d : tensor<300x520xbf16>
}

func.func @blocks_acc(%a: !fp8.scaled<300x272xf8E5M2, block = [1, 128], scale = f32>,
                      %b: !fp8.scaled<520x272xf8E4M3FN, block = [128, 128], scale = f32>,
                      %c: tensor<300x520xbf16>) -> tensor<300x520xf32> {
  %d = fp8.scaled_matmul %a, %b acc(%c : tensor<300x520xbf16>) : !fp8.scaled<300x272xf8E5M2, block = [1, 128], scale = f32>, !fp8.scaled<520x272xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<300x520xf32>
  return %d : tensor<300x520xf32>
}
