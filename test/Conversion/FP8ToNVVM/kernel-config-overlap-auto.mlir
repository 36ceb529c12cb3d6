// config=auto (the default) offers the overlapped promotion wherever the
// kernel's check accepts the tile and chooses it where the cost model has
// it faster: the training shape 4096x7168x16384 (128 K blocks: 16 trips of
// 8) gets `overlap = 8` at 128 columns per consumer, and its kernel the
// overlapped K loop (`wgmma.wait_group 1`); a K of one block (no trip) stays
// in lock-step; so does the Wgrad kernel's per-column B scales, which the
// overlapped kernel cannot promote. `promotion-schedule=lockstep` keeps the
// training shape in lock-step (an explicit schedule is a tile option: the
// shape's default tile, no name suffix).
// RUN: fp8-opt %s -split-input-file --fp8-lower-to-nvvm | FileCheck %s
// RUN: fp8-opt %s -split-input-file --fp8-lower-to-nvvm="promotion-schedule=lockstep" | FileCheck %s --check-prefix=LOCKSTEP

// CHECK-LABEL: llvm.func @fp8_scaled_matmul_4096x7168x16384_e4m3_e4m3_bf16_t128x128s{{[0-9]+}}g{{[0-9]+}}o8(
// CHECK-SAME: block_m = 128, block_n = 128, block_k = 128, stages = {{[0-9]+}}, consumers = 2, group_m = {{[0-9]+}}, overlap = 8>
// CHECK: nvvm.wgmma.wait.group.sync.aligned 1
// LOCKSTEP-LABEL: llvm.func @fp8_scaled_matmul_4096x7168x16384_e4m3_e4m3_bf16(
// LOCKSTEP-NOT: overlap =
// LOCKSTEP-NOT: nvvm.wgmma.wait.group.sync.aligned 1
// LOCKSTEP: llvm.func @fp8_scaled_matmul_4096x7168x128_
func.func @training(%a: !fp8.scaled<4096x16384xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<7168x16384xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<4096x7168xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<4096x16384xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<7168x16384xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<4096x7168xbf16>
  return %d : tensor<4096x7168xbf16>
}

// -----

// CHECK-LABEL: llvm.func @fp8_scaled_matmul_4096x7168x128_
// CHECK-NOT: overlap =
// CHECK-NOT: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK: llvm.return
func.func @one_k_block(%a: !fp8.scaled<4096x128xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<7168x128xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<4096x7168xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<4096x128xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<7168x128xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<4096x7168xbf16>
  return %d : tensor<4096x7168xbf16>
}

// -----

// The Wgrad GEMM's per-column B scales (b blocks [1, 128]), 128 K blocks.
// CHECK-LABEL: llvm.func @fp8_scaled_matmul_4096x7168x16384_e4m3_e4m3_f32_
// CHECK-NOT: overlap =
// CHECK-NOT: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK: llvm.return
func.func @wgrad(%a: !fp8.scaled<4096x16384xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<7168x16384xf8E4M3FN, block = [1, 128], scale = f32>) -> tensor<4096x7168xf32> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<4096x16384xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<7168x16384xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<4096x7168xf32>
  return %d : tensor<4096x7168xf32>
}
