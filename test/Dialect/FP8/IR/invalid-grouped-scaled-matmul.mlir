// RUN: fp8-opt %s -split-input-file -verify-diagnostics

func.func @masked_a_rank2(%a: !fp8.scaled<512x256xf8E4M3FN, block = [1, 128], scale = f32>, %b: !fp8.scaled<8x96x256xf8E4M3FN, block = [1, 128, 128], scale = f32>) {
  // expected-error @+1 {{'fp8.grouped_scaled_matmul' op operand A must be rank 3 [G, M, K] in the masked layout, got shape [512, 256]}}
  %d = fp8.grouped_scaled_matmul masked %a, %b : !fp8.scaled<512x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<8x96x256xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<8x512x96xbf16>
  return
}

// -----

func.func @contiguous_a_rank3(%a: !fp8.scaled<8x64x256xf8E4M3FN, block = [1, 1, 128], scale = f32>, %b: !fp8.scaled<8x96x256xf8E4M3FN, block = [1, 128, 128], scale = f32>, %ids: tensor<64xi32>) {
  // expected-error @+1 {{'fp8.grouped_scaled_matmul' op operand A must be rank 2 [M, K] in the contiguous layout, got shape [8, 64, 256]}}
  %d = fp8.grouped_scaled_matmul contiguous %a, %b group_ids(%ids : tensor<64xi32>) : !fp8.scaled<8x64x256xf8E4M3FN, block = [1, 1, 128], scale = f32>, !fp8.scaled<8x96x256xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<64x96xbf16>
  return
}

// -----

// A 2-D weight is one group: use fp8.scaled_matmul.
func.func @b_rank2(%a: !fp8.scaled<512x256xf8E4M3FN, block = [1, 128], scale = f32>, %b: !fp8.scaled<96x256xf8E4M3FN, block = [128, 128], scale = f32>, %ids: tensor<512xi32>) {
  // expected-error @+1 {{'fp8.grouped_scaled_matmul' op operand B must be rank 3 [G, N, K] (NT layout per group), got shape [96, 256]}}
  %d = fp8.grouped_scaled_matmul contiguous %a, %b group_ids(%ids : tensor<512xi32>) : !fp8.scaled<512x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<96x256xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<512x96xbf16>
  return
}

// -----

func.func @g_mismatch(%a: !fp8.scaled<8x64x256xf8E4M3FN, block = [1, 1, 128], scale = f32>, %b: !fp8.scaled<4x96x256xf8E4M3FN, block = [1, 128, 128], scale = f32>) {
  // expected-error @+1 {{'fp8.grouped_scaled_matmul' op G of A is 8, G of B is 4}}
  %d = fp8.grouped_scaled_matmul masked %a, %b : !fp8.scaled<8x64x256xf8E4M3FN, block = [1, 1, 128], scale = f32>, !fp8.scaled<4x96x256xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<8x64x96xbf16>
  return
}

// -----

func.func @k_mismatch(%a: !fp8.scaled<8x64x256xf8E4M3FN, block = [1, 1, 128], scale = f32>, %b: !fp8.scaled<8x96x384xf8E4M3FN, block = [1, 128, 128], scale = f32>) {
  // expected-error @+1 {{'fp8.grouped_scaled_matmul' op K of A is 256, K of B is 384 (B is [G, N, K], NT layout)}}
  %d = fp8.grouped_scaled_matmul masked %a, %b : !fp8.scaled<8x64x256xf8E4M3FN, block = [1, 1, 128], scale = f32>, !fp8.scaled<8x96x384xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<8x64x96xbf16>
  return
}

// -----

// Per-tensor scaling of all experts at once: one scale would serve 8 weights.
func.func @b_block_spans_groups(%a: !fp8.scaled<8x64x256xf8E4M3FN, block = [1, 1, 128], scale = f32>, %b: !fp8.scaled<8x96x256xf8E4M3FN, block = [8, 128, 128], scale = f32>) {
  // expected-error @+1 {{'fp8.grouped_scaled_matmul' op block [8, 128, 128] of B spans 8 groups; its size along G must be 1}}
  %d = fp8.grouped_scaled_matmul masked %a, %b : !fp8.scaled<8x64x256xf8E4M3FN, block = [1, 1, 128], scale = f32>, !fp8.scaled<8x96x256xf8E4M3FN, block = [8, 128, 128], scale = f32> -> tensor<8x64x96xbf16>
  return
}

// -----

func.func @a_block_spans_groups(%a: !fp8.scaled<8x64x256xf8E4M3FN, block = [2, 1, 128], scale = f32>, %b: !fp8.scaled<8x96x256xf8E4M3FN, block = [1, 128, 128], scale = f32>) {
  // expected-error @+1 {{'fp8.grouped_scaled_matmul' op block [2, 1, 128] of A spans 2 groups; its size along G must be 1}}
  %d = fp8.grouped_scaled_matmul masked %a, %b : !fp8.scaled<8x64x256xf8E4M3FN, block = [2, 1, 128], scale = f32>, !fp8.scaled<8x96x256xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<8x64x96xbf16>
  return
}

// -----

func.func @a_blocks_along_m(%a: !fp8.scaled<8x64x256xf8E4M3FN, block = [1, 128, 1], scale = f32>, %b: !fp8.scaled<8x96x256xf8E4M3FN, block = [1, 128, 128], scale = f32>) {
  // expected-error @+1 {{'fp8.grouped_scaled_matmul' op block [1, 128, 1] of A runs along M, not along the contraction dimension K}}
  %d = fp8.grouped_scaled_matmul masked %a, %b : !fp8.scaled<8x64x256xf8E4M3FN, block = [1, 128, 1], scale = f32>, !fp8.scaled<8x96x256xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<8x64x96xbf16>
  return
}

// -----

func.func @b_k_block(%a: !fp8.scaled<8x64x256xf8E4M3FN, block = [1, 1, 128], scale = f32>, %b: !fp8.scaled<8x96x256xf8E4M3FN, block = [1, 128, 64], scale = f32>) {
  // expected-error @+1 {{'fp8.grouped_scaled_matmul' op K-block 64 of B (block [1, 128, 64]) is not a multiple of promote_interval 128; each promotion interval must see one scale per column}}
  %d = fp8.grouped_scaled_matmul masked %a, %b : !fp8.scaled<8x64x256xf8E4M3FN, block = [1, 1, 128], scale = f32>, !fp8.scaled<8x96x256xf8E4M3FN, block = [1, 128, 64], scale = f32> -> tensor<8x64x96xbf16>
  return
}

// -----

func.func @interval(%a: !fp8.scaled<8x64x256xf8E4M3FN, block = [1, 1, 128], scale = f32>, %b: !fp8.scaled<8x96x256xf8E4M3FN, block = [1, 128, 128], scale = f32>) {
  // expected-error @+1 {{'fp8.grouped_scaled_matmul' op promote_interval must be a positive multiple of 32 (the FP8 wgmma K), got 48}}
  %d = fp8.grouped_scaled_matmul masked %a, %b {promote_interval = 48} : !fp8.scaled<8x64x256xf8E4M3FN, block = [1, 1, 128], scale = f32>, !fp8.scaled<8x96x256xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<8x64x96xbf16>
  return
}

// -----

func.func @counts_shape(%a: !fp8.scaled<8x64x256xf8E4M3FN, block = [1, 1, 128], scale = f32>, %b: !fp8.scaled<8x96x256xf8E4M3FN, block = [1, 128, 128], scale = f32>, %n: tensor<4xi32>) {
  // expected-error @+1 {{'fp8.grouped_scaled_matmul' op counts must be [G] = [8], got [4]}}
  %d = fp8.grouped_scaled_matmul masked %a, %b counts(%n : tensor<4xi32>) : !fp8.scaled<8x64x256xf8E4M3FN, block = [1, 1, 128], scale = f32>, !fp8.scaled<8x96x256xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<8x64x96xbf16>
  return
}

// -----

func.func @counts_type(%a: !fp8.scaled<8x64x256xf8E4M3FN, block = [1, 1, 128], scale = f32>, %b: !fp8.scaled<8x96x256xf8E4M3FN, block = [1, 128, 128], scale = f32>, %n: tensor<8xi64>) {
  // expected-error @+1 {{'fp8.grouped_scaled_matmul' op operand #2 must be ranked tensor of 32-bit signless integer values, but got 'tensor<8xi64>'}}
  %d = fp8.grouped_scaled_matmul masked %a, %b counts(%n : tensor<8xi64>) : !fp8.scaled<8x64x256xf8E4M3FN, block = [1, 1, 128], scale = f32>, !fp8.scaled<8x96x256xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<8x64x96xbf16>
  return
}

// -----

func.func @masked_group_ids(%a: !fp8.scaled<8x64x256xf8E4M3FN, block = [1, 1, 128], scale = f32>, %b: !fp8.scaled<8x96x256xf8E4M3FN, block = [1, 128, 128], scale = f32>, %ids: tensor<64xi32>) {
  // expected-error @+1 {{'fp8.grouped_scaled_matmul' op group_ids belongs to the contiguous layout; the masked layout takes per-group counts}}
  %d = fp8.grouped_scaled_matmul masked %a, %b group_ids(%ids : tensor<64xi32>) : !fp8.scaled<8x64x256xf8E4M3FN, block = [1, 1, 128], scale = f32>, !fp8.scaled<8x96x256xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<8x64x96xbf16>
  return
}

// -----

func.func @masked_alignment(%a: !fp8.scaled<8x64x256xf8E4M3FN, block = [1, 1, 128], scale = f32>, %b: !fp8.scaled<8x96x256xf8E4M3FN, block = [1, 128, 128], scale = f32>) {
  // expected-error @+1 {{'fp8.grouped_scaled_matmul' op m_alignment applies to the contiguous layout only, got 64 on the masked layout}}
  %d = fp8.grouped_scaled_matmul masked %a, %b {m_alignment = 64} : !fp8.scaled<8x64x256xf8E4M3FN, block = [1, 1, 128], scale = f32>, !fp8.scaled<8x96x256xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<8x64x96xbf16>
  return
}

// -----

func.func @masked_result(%a: !fp8.scaled<8x64x256xf8E4M3FN, block = [1, 1, 128], scale = f32>, %b: !fp8.scaled<8x96x256xf8E4M3FN, block = [1, 128, 128], scale = f32>) {
  // expected-error @+1 {{'fp8.grouped_scaled_matmul' op result must be [G, M, N] = [8, 64, 96], got [512, 96]}}
  %d = fp8.grouped_scaled_matmul masked %a, %b : !fp8.scaled<8x64x256xf8E4M3FN, block = [1, 1, 128], scale = f32>, !fp8.scaled<8x96x256xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<512x96xbf16>
  return
}

// -----

func.func @masked_acc(%a: !fp8.scaled<8x64x256xf8E4M3FN, block = [1, 1, 128], scale = f32>, %b: !fp8.scaled<8x96x256xf8E4M3FN, block = [1, 128, 128], scale = f32>, %c: tensor<8x64x95xf32>) {
  // expected-error @+1 {{'fp8.grouped_scaled_matmul' op accumulator C must be [G, M, N] = [8, 64, 96], got [8, 64, 95]}}
  %d = fp8.grouped_scaled_matmul masked %a, %b acc(%c : tensor<8x64x95xf32>) : !fp8.scaled<8x64x256xf8E4M3FN, block = [1, 1, 128], scale = f32>, !fp8.scaled<8x96x256xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<8x64x96xf32>
  return
}

// -----

func.func @contiguous_no_ids(%a: !fp8.scaled<512x256xf8E4M3FN, block = [1, 128], scale = f32>, %b: !fp8.scaled<4x96x256xf8E4M3FN, block = [1, 128, 128], scale = f32>) {
  // expected-error @+1 {{'fp8.grouped_scaled_matmul' op the contiguous layout needs group_ids (tensor<Mxi32>, the group of every row of A)}}
  %d = fp8.grouped_scaled_matmul contiguous %a, %b : !fp8.scaled<512x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<4x96x256xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<512x96xbf16>
  return
}

// -----

func.func @contiguous_counts(%a: !fp8.scaled<512x256xf8E4M3FN, block = [1, 128], scale = f32>, %b: !fp8.scaled<4x96x256xf8E4M3FN, block = [1, 128, 128], scale = f32>, %n: tensor<4xi32>, %ids: tensor<512xi32>) {
  // expected-error @+1 {{'fp8.grouped_scaled_matmul' op counts belongs to the masked layout; the contiguous layout takes per-row group_ids}}
  %d = fp8.grouped_scaled_matmul contiguous %a, %b counts(%n : tensor<4xi32>) group_ids(%ids : tensor<512xi32>) : !fp8.scaled<512x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<4x96x256xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<512x96xbf16>
  return
}

// -----

func.func @ids_shape(%a: !fp8.scaled<512x256xf8E4M3FN, block = [1, 128], scale = f32>, %b: !fp8.scaled<4x96x256xf8E4M3FN, block = [1, 128, 128], scale = f32>, %ids: tensor<4xi32>) {
  // expected-error @+1 {{'fp8.grouped_scaled_matmul' op group_ids must be [M] = [512], got [4]}}
  %d = fp8.grouped_scaled_matmul contiguous %a, %b group_ids(%ids : tensor<4xi32>) : !fp8.scaled<512x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<4x96x256xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<512x96xbf16>
  return
}

// -----

func.func @alignment_zero(%a: !fp8.scaled<512x256xf8E4M3FN, block = [1, 128], scale = f32>, %b: !fp8.scaled<4x96x256xf8E4M3FN, block = [1, 128, 128], scale = f32>, %ids: tensor<512xi32>) {
  // expected-error @+1 {{'fp8.grouped_scaled_matmul' op m_alignment must be positive, got 0}}
  %d = fp8.grouped_scaled_matmul contiguous %a, %b group_ids(%ids : tensor<512xi32>) {m_alignment = 0} : !fp8.scaled<512x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<4x96x256xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<512x96xbf16>
  return
}

// -----

func.func @alignment_vs_a_block(%a: !fp8.scaled<512x256xf8E4M3FN, block = [128, 128], scale = f32>, %b: !fp8.scaled<4x96x256xf8E4M3FN, block = [1, 128, 128], scale = f32>, %ids: tensor<512xi32>) {
  // expected-error @+1 {{'fp8.grouped_scaled_matmul' op M-block 128 of A (block [128, 128]) does not divide m_alignment 64; a group would start inside a scale block}}
  %d = fp8.grouped_scaled_matmul contiguous %a, %b group_ids(%ids : tensor<512xi32>) {m_alignment = 64} : !fp8.scaled<512x256xf8E4M3FN, block = [128, 128], scale = f32>, !fp8.scaled<4x96x256xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<512x96xbf16>
  return
}

// -----

func.func @contiguous_result(%a: !fp8.scaled<512x256xf8E4M3FN, block = [1, 128], scale = f32>, %b: !fp8.scaled<4x96x256xf8E4M3FN, block = [1, 128, 128], scale = f32>, %ids: tensor<512xi32>) {
  // expected-error @+1 {{'fp8.grouped_scaled_matmul' op result must be [M, N] = [512, 96], got [4, 512, 96]}}
  %d = fp8.grouped_scaled_matmul contiguous %a, %b group_ids(%ids : tensor<512xi32>) : !fp8.scaled<512x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<4x96x256xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<4x512x96xbf16>
  return
}

// -----

func.func @contiguous_acc(%a: !fp8.scaled<512x256xf8E4M3FN, block = [1, 128], scale = f32>, %b: !fp8.scaled<4x96x256xf8E4M3FN, block = [1, 128, 128], scale = f32>, %ids: tensor<512xi32>, %c: tensor<511x96xbf16>) {
  // expected-error @+1 {{'fp8.grouped_scaled_matmul' op accumulator C must be [M, N] = [512, 96], got [511, 96]}}
  %d = fp8.grouped_scaled_matmul contiguous %a, %b group_ids(%ids : tensor<512xi32>) acc(%c : tensor<511x96xbf16>) : !fp8.scaled<512x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<4x96x256xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<512x96xbf16>
  return
}

// -----

// An unknown layout keyword.
func.func @bad_layout(%a: !fp8.scaled<512x256xf8E4M3FN, block = [1, 128], scale = f32>, %b: !fp8.scaled<4x96x256xf8E4M3FN, block = [1, 128, 128], scale = f32>) {
  // expected-error @+2 {{expected ::mlir::fp8::GroupLayout to be one of: masked, contiguous}}
  // expected-error @+1 {{failed to parse FP8_GroupLayoutAttr parameter 'value'}}
  %d = fp8.grouped_scaled_matmul sorted %a, %b : !fp8.scaled<512x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<4x96x256xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<512x96xbf16>
  return
}

// -----

!kb = !fp8.scaled<96x512xf8E4M3FN, block = [1, 128], scale = f32>

func.func @k_grouped_a_rank3(%a: !fp8.scaled<2x64x512xf8E4M3FN, block = [1, 1, 128], scale = f32>, %b: !kb, %ids: tensor<512xi32>) {
  // expected-error @+1 {{'fp8.grouped_scaled_matmul' op operand A must be rank 2 [M, T] in the k_grouped layout, got shape [2, 64, 512]}}
  %d = fp8.grouped_scaled_matmul k_grouped %a, %b group_ids(%ids : tensor<512xi32>) : !fp8.scaled<2x64x512xf8E4M3FN, block = [1, 1, 128], scale = f32>, !kb -> tensor<2x64x96xf32>
  return
}

// -----

!ka = !fp8.scaled<64x512xf8E4M3FN, block = [1, 128], scale = f32>

func.func @k_grouped_b_rank3(%a: !ka, %b: !fp8.scaled<2x96x512xf8E4M3FN, block = [1, 128, 128], scale = f32>, %ids: tensor<512xi32>) {
  // expected-error @+1 {{'fp8.grouped_scaled_matmul' op operand B must be rank 2 [N, T] in the k_grouped layout, got shape [2, 96, 512]}}
  %d = fp8.grouped_scaled_matmul k_grouped %a, %b group_ids(%ids : tensor<512xi32>) : !ka, !fp8.scaled<2x96x512xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<2x64x96xf32>
  return
}

// -----

// B's weight-style 128 x 128 blocks: a K block of B would hold 128 rows'
// scales, not one per row; k_grouped needs one scale per row of b.
!ka = !fp8.scaled<64x512xf8E4M3FN, block = [1, 128], scale = f32>

func.func @k_grouped_b_blocks(%a: !ka, %b: !fp8.scaled<96x512xf8E4M3FN, block = [128, 128], scale = f32>, %ids: tensor<512xi32>) {
  // expected-error @+1 {{'fp8.grouped_scaled_matmul' op block [128, 128] of B must be [1, 128] in the k_grouped layout (each 128-token K block belongs to one group)}}
  %d = fp8.grouped_scaled_matmul k_grouped %a, %b group_ids(%ids : tensor<512xi32>) : !ka, !fp8.scaled<96x512xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<2x64x96xf32>
  return
}

// -----

!kb = !fp8.scaled<96x512xf8E4M3FN, block = [1, 128], scale = f32>

// A K block of 256 tokens could span two groups.
func.func @k_grouped_a_blocks(%a: !fp8.scaled<64x512xf8E4M3FN, block = [1, 256], scale = f32>, %b: !kb, %ids: tensor<512xi32>) {
  // expected-error @+1 {{'fp8.grouped_scaled_matmul' op block [1, 256] of A must be [1, 128] in the k_grouped layout}}
  %d = fp8.grouped_scaled_matmul k_grouped %a, %b group_ids(%ids : tensor<512xi32>) : !fp8.scaled<64x512xf8E4M3FN, block = [1, 256], scale = f32>, !kb -> tensor<2x64x96xf32>
  return
}

// -----

!ka = !fp8.scaled<64x512xf8E4M3FN, block = [1, 128], scale = f32>

func.func @k_grouped_t_mismatch(%a: !ka, %b: !fp8.scaled<96x384xf8E4M3FN, block = [1, 128], scale = f32>, %ids: tensor<512xi32>) {
  // expected-error @+1 {{'fp8.grouped_scaled_matmul' op T of A is 512, T of B is 384 (A is [M, T], B is [N, T])}}
  %d = fp8.grouped_scaled_matmul k_grouped %a, %b group_ids(%ids : tensor<512xi32>) : !ka, !fp8.scaled<96x384xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<2x64x96xf32>
  return
}

// -----

!ka = !fp8.scaled<64x512xf8E4M3FN, block = [1, 128], scale = f32>
!kb = !fp8.scaled<96x512xf8E4M3FN, block = [1, 128], scale = f32>

func.func @k_grouped_no_ids(%a: !ka, %b: !kb) {
  // expected-error @+1 {{'fp8.grouped_scaled_matmul' op the k_grouped layout needs group_ids (tensor<Txi32>, the group of every token)}}
  %d = fp8.grouped_scaled_matmul k_grouped %a, %b : !ka, !kb -> tensor<2x64x96xf32>
  return
}

// -----

!ka = !fp8.scaled<64x512xf8E4M3FN, block = [1, 128], scale = f32>
!kb = !fp8.scaled<96x512xf8E4M3FN, block = [1, 128], scale = f32>

// One id per row of A (the contiguous layout's) instead of per token.
func.func @k_grouped_ids_shape(%a: !ka, %b: !kb, %ids: tensor<64xi32>) {
  // expected-error @+1 {{'fp8.grouped_scaled_matmul' op group_ids must be [T] = [512], got [64]}}
  %d = fp8.grouped_scaled_matmul k_grouped %a, %b group_ids(%ids : tensor<64xi32>) : !ka, !kb -> tensor<2x64x96xf32>
  return
}

// -----

!ka = !fp8.scaled<64x512xf8E4M3FN, block = [1, 128], scale = f32>
!kb = !fp8.scaled<96x512xf8E4M3FN, block = [1, 128], scale = f32>

func.func @k_grouped_counts(%a: !ka, %b: !kb, %n: tensor<2xi32>, %ids: tensor<512xi32>) {
  // expected-error @+1 {{'fp8.grouped_scaled_matmul' op counts belongs to the masked layout; the k_grouped layout takes per-token group_ids}}
  %d = fp8.grouped_scaled_matmul k_grouped %a, %b counts(%n : tensor<2xi32>) group_ids(%ids : tensor<512xi32>) : !ka, !kb -> tensor<2x64x96xf32>
  return
}

// -----

!ka = !fp8.scaled<64x512xf8E4M3FN, block = [1, 128], scale = f32>
!kb = !fp8.scaled<96x512xf8E4M3FN, block = [1, 128], scale = f32>

// A run of 64 tokens could start inside a K block.
func.func @k_grouped_alignment(%a: !ka, %b: !kb, %ids: tensor<512xi32>) {
  // expected-error @+1 {{'fp8.grouped_scaled_matmul' op m_alignment must be a positive multiple of 128 (the K block) in the k_grouped layout, got 64}}
  %d = fp8.grouped_scaled_matmul k_grouped %a, %b group_ids(%ids : tensor<512xi32>) {m_alignment = 64} : !ka, !kb -> tensor<2x64x96xf32>
  return
}

// -----

!ka = !fp8.scaled<64x512xf8E4M3FN, block = [1, 128], scale = f32>
!kb = !fp8.scaled<96x512xf8E4M3FN, block = [1, 128], scale = f32>

// The contiguous layout's [M, N] result: no G.
func.func @k_grouped_result_rank2(%a: !ka, %b: !kb, %ids: tensor<512xi32>) {
  // expected-error @+1 {{'fp8.grouped_scaled_matmul' op result must be [G, M, N] with a static G in the k_grouped layout, got [64, 96]}}
  %d = fp8.grouped_scaled_matmul k_grouped %a, %b group_ids(%ids : tensor<512xi32>) : !ka, !kb -> tensor<64x96xf32>
  return
}

// -----

!ka = !fp8.scaled<64x512xf8E4M3FN, block = [1, 128], scale = f32>
!kb = !fp8.scaled<96x512xf8E4M3FN, block = [1, 128], scale = f32>

func.func @k_grouped_dynamic_g(%a: !ka, %b: !kb, %ids: tensor<512xi32>) {
  // expected-error @+1 {{'fp8.grouped_scaled_matmul' op result must be [G, M, N] with a static G in the k_grouped layout, got [?, 64, 96]}}
  %d = fp8.grouped_scaled_matmul k_grouped %a, %b group_ids(%ids : tensor<512xi32>) : !ka, !kb -> tensor<?x64x96xf32>
  return
}

// -----

!ka = !fp8.scaled<64x512xf8E4M3FN, block = [1, 128], scale = f32>
!kb = !fp8.scaled<96x512xf8E4M3FN, block = [1, 128], scale = f32>

func.func @k_grouped_result_shape(%a: !ka, %b: !kb, %ids: tensor<512xi32>) {
  // expected-error @+1 {{'fp8.grouped_scaled_matmul' op result must be [G, M, N] = [2, 64, 96], got [2, 96, 64]}}
  %d = fp8.grouped_scaled_matmul k_grouped %a, %b group_ids(%ids : tensor<512xi32>) : !ka, !kb -> tensor<2x96x64xf32>
  return
}

// -----

!ka = !fp8.scaled<64x512xf8E4M3FN, block = [1, 128], scale = f32>
!kb = !fp8.scaled<96x512xf8E4M3FN, block = [1, 128], scale = f32>

func.func @k_grouped_c_shape(%a: !ka, %b: !kb, %ids: tensor<512xi32>, %c: tensor<3x64x96xf32>) {
  // expected-error @+1 {{'fp8.grouped_scaled_matmul' op accumulator C must be [G, M, N] = [2, 64, 96], got [3, 64, 96]}}
  %d = fp8.grouped_scaled_matmul k_grouped %a, %b group_ids(%ids : tensor<512xi32>) acc(%c : tensor<3x64x96xf32>) : !ka, !kb -> tensor<2x64x96xf32>
  return
}
