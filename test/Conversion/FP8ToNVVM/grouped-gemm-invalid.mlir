// What the sm_90a grouped GEMM kernel does not implement: a remark naming the
// op and what is missing, and the op stays on the host (the op itself is
// valid); invalid kernel options are errors.
// RUN: fp8-opt %s -split-input-file -verify-diagnostics --fp8-lower-to-nvvm
// RUN: not fp8-opt %s -split-input-file --fp8-lower-to-nvvm="block-m=256 block-n=64" 2>&1 | FileCheck %s --check-prefix=M256
// RUN: not fp8-opt %s -split-input-file --fp8-lower-to-nvvm="block-m=64 block-n=216" 2>&1 | FileCheck %s --check-prefix=N216

// A masked M (the per-group capacity) must be static.
func.func @masked_dyn(%a: !fp8.scaled<4x?x256xf8E4M3FN, block = [1, 1, 128], scale = f32>, %b: !fp8.scaled<4x128x256xf8E4M3FN, block = [1, 128, 128], scale = f32>) -> tensor<4x?x128xbf16> {
  // expected-remark @+1 {{no GPU GEMM kernel for 'fp8.grouped_scaled_matmul' (needs static G, N and K and M (masked layout)}}
  %d = fp8.grouped_scaled_matmul masked %a, %b : !fp8.scaled<4x?x256xf8E4M3FN, block = [1, 1, 128], scale = f32>, !fp8.scaled<4x128x256xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<4x?x128xbf16>
  return %d : tensor<4x?x128xbf16>
}

// -----

// BLOCK_M is 64, 128 or 256 and must divide m_alignment.
func.func @align(%a: !fp8.scaled<256x256xf8E4M3FN, block = [1, 128], scale = f32>, %b: !fp8.scaled<2x128x256xf8E4M3FN, block = [1, 128, 128], scale = f32>, %ids: tensor<256xi32>) -> tensor<256x128xbf16> {
  // expected-remark @+1 {{(the contiguous layout needs m_alignment a multiple of 64 (BLOCK_M is 64, 128 or 256 and must divide it), got 32}}
  %d = fp8.grouped_scaled_matmul contiguous %a, %b group_ids(%ids : tensor<256xi32>) {m_alignment = 32 : i64} : !fp8.scaled<256x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<2x128x256xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<256x128xbf16>
  return %d : tensor<256x128xbf16>
}

// -----

// Only the DeepSeek-V3 blocks.
func.func @blocks(%a: !fp8.scaled<2x64x256xf8E4M3FN, block = [1, 1, 128], scale = f32>, %b: !fp8.scaled<2x128x256xf8E4M3FN, block = [1, 1, 128], scale = f32>) -> tensor<2x64x128xbf16> {
  // expected-remark @+1 {{(implements the DeepSeek-V3 blocks (a: [1, 128] per row, b: [1, 128, 128])}}
  %d = fp8.grouped_scaled_matmul masked %a, %b : !fp8.scaled<2x64x256xf8E4M3FN, block = [1, 1, 128], scale = f32>, !fp8.scaled<2x128x256xf8E4M3FN, block = [1, 1, 128], scale = f32> -> tensor<2x64x128xbf16>
  return %d : tensor<2x64x128xbf16>
}

// -----

// Valid with the default options; with block-m=256 a tile would span two
// groups of the default m_alignment 128.
// The widest 2-D tile for one consumer (216 columns) spills in a grouped
// kernel, whose consumers hold the group state too.
// N216: error: 'fp8.grouped_scaled_matmul' op GPU lowering: invalid kernel configuration block-m=64 block-n=216 stages=6 consumers=1 ({{[0-9]+}} bytes of shared memory): block-n is too wide for the consumer registers of a grouped kernel
// M256: error: 'fp8.grouped_scaled_matmul' op GPU lowering: block-m=256 does not divide m_alignment 128 (a tile of the contiguous layout must hold one group)
func.func @align_option(%a: !fp8.scaled<256x256xf8E4M3FN, block = [1, 128], scale = f32>, %b: !fp8.scaled<2x128x256xf8E4M3FN, block = [1, 128, 128], scale = f32>, %ids: tensor<256xi32>) -> tensor<256x128xbf16> {
  %d = fp8.grouped_scaled_matmul contiguous %a, %b group_ids(%ids : tensor<256xi32>) : !fp8.scaled<256x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<2x128x256xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<256x128xbf16>
  return %d : tensor<256x128xbf16>
}

// -----

// The k_grouped layout (the MoE Wgrad) over a run-time token count with a C
// of another element type than the result's has no kernel (T = 0 copies C
// to the result): the host lowering computes it.
!ka = !fp8.scaled<64x?xf8E4M3FN, block = [1, 128], scale = f32>
!kb = !fp8.scaled<96x?xf8E4M3FN, block = [1, 128], scale = f32>
func.func @k_grouped_dynamic_t(%a: !ka, %b: !kb, %ids: tensor<?xi32>, %c: tensor<3x64x96xbf16>) -> tensor<3x64x96xf32> {
  // expected-remark @+1 {{no GPU GEMM kernel for 'fp8.grouped_scaled_matmul' (a run-time T needs an accumulator C of the result's element type (T = 0 copies C to the result), got tensor<3x64x96xbf16> -> tensor<3x64x96xf32>); the op stays on the host, whose lowering computes it}}
  %d = fp8.grouped_scaled_matmul k_grouped %a, %b group_ids(%ids : tensor<?xi32>) acc(%c : tensor<3x64x96xbf16>) : !ka, !kb -> tensor<3x64x96xf32>
  return %d : tensor<3x64x96xf32>
}
