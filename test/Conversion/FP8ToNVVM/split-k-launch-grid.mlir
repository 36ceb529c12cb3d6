// The split-K launcher's persistent grid (docs/gpu-kernel.md, "Split-K"):
// min(work units, SMs), where the work units are tiles x k_splits, not the
// tiles. A grid of min(tiles, SMs) still computes every unit (each CTA
// walks units c, c + grid, ...) and passes every numeric test, but runs
// the splits one after the other on as few CTAs as there are tiles: the
// fault split-K exists to avoid. Derived by hand from the shape: 64 x 2112
// with config=fixed's 64x128 tiles is 1 x 17 tiles, k_splits = 3 makes 51
// units; the grid is min(51, 132) = 51 with 132 SMs compiled in, min(51,
// 40) = 40 with 40, and minui(fp8_mgpu_sm_count(), 51) at run time.
// RUN: fp8-opt %s --fp8-lower-to-nvvm="config=fixed" -fp8-launch-kernels=sm-count=132 -canonicalize -cse | FileCheck %s --check-prefix=SM132
// RUN: fp8-opt %s --fp8-lower-to-nvvm="config=fixed" -fp8-launch-kernels=sm-count=40 -canonicalize -cse | FileCheck %s --check-prefix=SM40
// RUN: fp8-opt %s --fp8-lower-to-nvvm="config=fixed" -fp8-launch-kernels -canonicalize -cse | FileCheck %s --check-prefix=RUNTIME

// SM132-LABEL: func.func private @fp8_launch_fp8_scaled_matmul_64x2112x7168_e4m3_e4m3_bf16_t64x128s8k3(
// SM132: %[[UNITS:.*]] = arith.constant 51 : index
// SM132: gpu.launch_func {{.*}} @fp8_kernels::@fp8_scaled_matmul_64x2112x7168_e4m3_e4m3_bf16_t64x128s8k3 blocks in (%[[UNITS]], %c1, %c1) threads in (%c256, %c1, %c1)

// SM40-LABEL: func.func private @fp8_launch_fp8_scaled_matmul_64x2112x7168_e4m3_e4m3_bf16_t64x128s8k3(
// SM40: %[[SMS:.*]] = arith.constant 40 : index
// SM40: gpu.launch_func {{.*}} @fp8_kernels::@fp8_scaled_matmul_64x2112x7168_e4m3_e4m3_bf16_t64x128s8k3 blocks in (%[[SMS]], %c1, %c1)

// RUNTIME-LABEL: func.func private @fp8_launch_fp8_scaled_matmul_64x2112x7168_e4m3_e4m3_bf16_t64x128s8k3(
// RUNTIME-DAG: %[[UNITS:.*]] = arith.constant 51 : index
// RUNTIME-DAG: %[[N:.*]] = call @fp8_mgpu_sm_count() : () -> i32
// RUNTIME: %[[SMS:.*]] = arith.index_castui %[[N]] : i32 to index
// RUNTIME-NEXT: %[[GRID:.*]] = arith.minui %[[SMS]], %[[UNITS]] : index
// RUNTIME: gpu.launch_func {{.*}} @fp8_kernels::@fp8_scaled_matmul_64x2112x7168_e4m3_e4m3_bf16_t64x128s8k3 blocks in (%[[GRID]], %c1, %c1)

func.func @decode(%a: !fp8.scaled<64x7168xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<2112x7168xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<64x2112xbf16> {
  %d = fp8.scaled_matmul %a, %b {k_splits = 3 : i64} : !fp8.scaled<64x7168xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<2112x7168xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<64x2112xbf16>
  return %d : tensor<64x2112xbf16>
}
