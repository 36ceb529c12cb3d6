// The short K-block path (docs/gpu-kernel.md, "The K-block path"): the A
// scales read between the wait on full[s] and the wgmma chain, the slot's
// descriptors computed before the wait. Bit-exact against the host
// reference on tiles that straddle two (BLOCK_N 96) and three (BLOCK_N 200)
// 128-column B-scale blocks, with 11 K blocks (K = 1300: a K tail), on 2
// SMs so that each CTA runs several tiles, and a grouped contiguous kernel.
// fp8-emu exits with 1 if an output differs.
// RUN: fp8-opt %s --fp8-lower-to-nvvm="block-m=128 block-n=96" > %t.n96.mlir
// RUN: fp8-emu %t.n96.mlir --seed 1 --m 130 --sm-count 2 --schedules 2 | FileCheck %s --check-prefix=N96
// RUN: fp8-opt %s --fp8-lower-to-nvvm="block-m=128 block-n=200" > %t.n200.mlir
// RUN: fp8-emu %t.n200.mlir --seed 2 --m 65 --sm-count 2 --max-quantum 5 | FileCheck %s --check-prefix=N200

// N96-DAG: fp8-emu: PASS fp8_scaled_matmul_130x300x1300_e4m3_e4m3_bf16_t128x96s7: 130x300x1300, 39000 outputs bit-exact
// N96-DAG: fp8-emu: PASS fp8_grouped_matmul_contiguous_3x390x300x400_e4m3_e4m3_bf16_t128x96s7: 3 groups
// N200-DAG: fp8-emu: PASS fp8_scaled_matmul_130x300x1300_e4m3_e4m3_bf16_t128x200s5: 130x300x1300, 39000 outputs bit-exact
// N200-DAG: fp8-emu: PASS fp8_grouped_matmul_contiguous_3x390x300x400_e4m3_e4m3_bf16_t128x200s5: 3 groups

func.func @gemm(%a: !fp8.scaled<130x1300xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<300x1300xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<130x300xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<130x1300xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<300x1300xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<130x300xbf16>
  return %d : tensor<130x300xbf16>
}

func.func @contiguous(%x: !fp8.scaled<390x400xf8E4M3FN, block = [1, 128], scale = f32>,
    %w: !fp8.scaled<3x300x400xf8E4M3FN, block = [1, 128, 128], scale = f32>,
    %ids: tensor<390xi32>) -> tensor<390x300xbf16> {
  %d = fp8.grouped_scaled_matmul contiguous %x, %w group_ids(%ids : tensor<390xi32>) {m_alignment = 128 : i64} : !fp8.scaled<390x400xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<3x300x400xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<390x300xbf16>
  return %d : tensor<390x300xbf16>
}
