// The GEMM kernel in clusters of 2 with the grouped tile order: cluster
// tiles of 2 x 64 rows in groups of 2 cluster-tile rows, a run-time M that
// leaves the last group one row short (M = 300: ceil(300 / 128) = 3
// cluster-tile rows, groups {0, 1} and {2}; the last cluster tile's rank 1
// entirely past M), and a persistent grid of 3 clusters (--sm-count 6)
// that wraps. fp8-emu runs the kernels bit-exact against its host
// reference: a tile computed twice or never is a mismatch (exit 1).
// RUN: fp8-opt %s --fp8-lower-to-nvvm="block-m=64 block-n=32 stages=3 cluster=2 group-m=2" > %t.mlir
// RUN: fp8-emu %t.mlir --seed 1 --m 300 --sm-count 6 | FileCheck %s
// RUN: fp8-emu %t.mlir --seed 2 --m 170 --sm-count 4 --max-quantum 5 | FileCheck %s --check-prefix=M170
//
// The cross-CTA release of a stage (each consumer warp's mbarrier.arrive
// on the peer's empty barrier, through mapa): without it a producer
// multicasts into a stage its peer still reads. Whether the emulator sees
// that depends on when the copy lands; with every copy landing at issue
// (--copies prompt) as well as under the default (seeded) mode, the
// overwrite is a fault (a copy writing what a wgmma still reads) or a
// wrong output.
// RUN: fp8-emu %t.mlir --seed 3 --m 300 --sm-count 6 --copies prompt | FileCheck %s
// RUN: fp8-emu %t.mlir --seed 4 --m 170 --sm-count 4 --copies prompt --schedules 2 | FileCheck %s --check-prefix=M170

// 300 x 200: 3 cluster-tile rows x ceil(200 / 32) = 7 columns.
// CHECK-DAG: fp8-emu: PASS fp8_scaled_matmul_300x200x256_{{.*}}cl2: 300x200x256, 60000 outputs bit-exact
// CHECK-DAG: fp8-emu: PASS fp8_scaled_matmul_dynx200x256_{{.*}}cl2: 300x200x256, 60000 outputs bit-exact
// M = 170: 2 cluster-tile rows (one full group), rank 1 of the second
// holding rows 192..255, all past M.
// M170-DAG: fp8-emu: PASS fp8_scaled_matmul_dynx200x256_{{.*}}cl2: 170x200x256, 34000 outputs bit-exact

func.func @gemm_300x200x256(%a: !fp8.scaled<300x256xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<200x256xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<300x200xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<300x256xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<200x256xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<300x200xbf16>
  return %d : tensor<300x200xbf16>
}

func.func @gemm_dyn(%a: !fp8.scaled<?x256xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<200x256xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<?x200xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<?x256xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<200x256xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<?x200xbf16>
  return %d : tensor<?x200xbf16>
}
