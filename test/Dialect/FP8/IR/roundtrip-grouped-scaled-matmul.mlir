// RUN: fp8-opt %s -split-input-file | fp8-opt -split-input-file | FileCheck %s
// RUN: fp8-opt %s -split-input-file -mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// Masked layout (decode): with and without counts, with an accumulator.
// CHECK-LABEL: func.func @masked
// CHECK: fp8.grouped_scaled_matmul masked %{{.*}}, %{{.*}} : !fp8.scaled<8x64x256xf8E4M3FN, block = [1, 1, 128], scale = f32>, !fp8.scaled<8x96x256xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<8x64x96xbf16>
// CHECK: fp8.grouped_scaled_matmul masked %{{.*}}, %{{.*}} counts(%{{.*}} : tensor<8xi32>) acc(%{{.*}} : tensor<8x64x96xf32>) : {{.*}} -> tensor<8x64x96xf32>
// GENERIC-LABEL: sym_name = "masked"
// GENERIC: "fp8.grouped_scaled_matmul"(%{{.*}}, %{{.*}}) <{layout = #fp8<group_layout masked>, m_alignment = 128 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>, promote_interval = 128 : i64}>
// GENERIC: "fp8.grouped_scaled_matmul"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{layout = #fp8<group_layout masked>, m_alignment = 128 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 1>, promote_interval = 128 : i64}>
func.func @masked(%a: !fp8.scaled<8x64x256xf8E4M3FN, block = [1, 1, 128], scale = f32>,
                  %b: !fp8.scaled<8x96x256xf8E4M3FN, block = [1, 128, 128], scale = f32>,
                  %n: tensor<8xi32>, %c: tensor<8x64x96xf32>) -> (tensor<8x64x96xbf16>, tensor<8x64x96xf32>) {
  %d = fp8.grouped_scaled_matmul masked %a, %b : !fp8.scaled<8x64x256xf8E4M3FN, block = [1, 1, 128], scale = f32>, !fp8.scaled<8x96x256xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<8x64x96xbf16>
  %e = fp8.grouped_scaled_matmul masked %a, %b counts(%n : tensor<8xi32>) acc(%c : tensor<8x64x96xf32>) : !fp8.scaled<8x64x256xf8E4M3FN, block = [1, 1, 128], scale = f32>, !fp8.scaled<8x96x256xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<8x64x96xf32>
  return %d, %e : tensor<8x64x96xbf16>, tensor<8x64x96xf32>
}

// -----

// Contiguous layout (prefill/training): default and explicit m_alignment,
// dynamic M, a promotion interval of 32 with mxfp8-style blocks.
// CHECK-LABEL: func.func @contiguous
// CHECK: fp8.grouped_scaled_matmul contiguous %{{.*}}, %{{.*}} group_ids(%{{.*}} : tensor<512xi32>) : !fp8.scaled<512x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<4x96x256xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<512x96xbf16>
// CHECK: fp8.grouped_scaled_matmul contiguous %{{.*}}, %{{.*}} group_ids(%{{.*}} : tensor<?xi32>) acc(%{{.*}} : tensor<?x96xf32>) {m_alignment = 64 : i64} : {{.*}} -> tensor<?x96xf32>
// CHECK: fp8.grouped_scaled_matmul contiguous {{.*}} {m_alignment = 1 : i64, promote_interval = 32 : i64} : !fp8.scaled<100x64xf8E4M3FN, block = [1, 32], scale = f8E8M0FNU>, !fp8.scaled<3x16x64xf8E5M2, block = [1, 1, 32], scale = f8E8M0FNU> -> tensor<100x16xf32>
// GENERIC-LABEL: sym_name = "contiguous"
// GENERIC: "fp8.grouped_scaled_matmul"(%{{.*}}, %{{.*}}, %{{.*}}) <{layout = #fp8<group_layout contiguous>, m_alignment = 128 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 1, 0>, promote_interval = 128 : i64}>
func.func @contiguous(%a: !fp8.scaled<512x256xf8E4M3FN, block = [1, 128], scale = f32>,
                      %b: !fp8.scaled<4x96x256xf8E4M3FN, block = [1, 128, 128], scale = f32>,
                      %ids: tensor<512xi32>,
                      %da: !fp8.scaled<?x256xf8E4M3FN, block = [1, 128], scale = f32>,
                      %dids: tensor<?xi32>, %dc: tensor<?x96xf32>,
                      %ma: !fp8.scaled<100x64xf8E4M3FN, block = [1, 32], scale = f8E8M0FNU>,
                      %mb: !fp8.scaled<3x16x64xf8E5M2, block = [1, 1, 32], scale = f8E8M0FNU>,
                      %mids: tensor<100xi32>) {
  %d = fp8.grouped_scaled_matmul contiguous %a, %b group_ids(%ids : tensor<512xi32>) : !fp8.scaled<512x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<4x96x256xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<512x96xbf16>
  %e = fp8.grouped_scaled_matmul contiguous %da, %b group_ids(%dids : tensor<?xi32>) acc(%dc : tensor<?x96xf32>) {m_alignment = 64} : !fp8.scaled<?x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<4x96x256xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<?x96xf32>
  %f = fp8.grouped_scaled_matmul contiguous %ma, %mb group_ids(%mids : tensor<100xi32>) {promote_interval = 32, m_alignment = 1} : !fp8.scaled<100x64xf8E4M3FN, block = [1, 32], scale = f8E8M0FNU>, !fp8.scaled<3x16x64xf8E5M2, block = [1, 1, 32], scale = f8E8M0FNU> -> tensor<100x16xf32>
  return
}

// -----

// The training passes' GEMM kind is valid on the grouped op.
// CHECK-LABEL: func.func @gemm_kind
// CHECK: fp8.grouped_scaled_matmul masked {{.*}} {fp8.gemm = #fp8.gemm<fprop>}
func.func @gemm_kind(%a: !fp8.scaled<2x4x128xf8E4M3FN, block = [1, 1, 128], scale = f32>,
                     %b: !fp8.scaled<2x8x128xf8E4M3FN, block = [1, 128, 128], scale = f32>) -> tensor<2x4x8xf32> {
  %d = fp8.grouped_scaled_matmul masked %a, %b {fp8.gemm = #fp8.gemm<fprop>} : !fp8.scaled<2x4x128xf8E4M3FN, block = [1, 1, 128], scale = f32>, !fp8.scaled<2x8x128xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<2x4x8xf32>
  return %d : tensor<2x4x8xf32>
}

// -----

// K-grouped layout (the MoE Wgrad): a [M, T], b [N, T] in [1, 128] blocks,
// the result and C [G, M, N]; a run-time T, m_alignment 256, a bf16 C.
// CHECK-LABEL: func.func @k_grouped
// CHECK: fp8.grouped_scaled_matmul k_grouped %{{.*}}, %{{.*}} group_ids(%{{.*}} : tensor<512xi32>) {fp8.gemm = #fp8.gemm<wgrad>} : !fp8.scaled<64x512xf8E5M2, block = [1, 128], scale = f32>, !fp8.scaled<96x512xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<3x64x96xf32>
// CHECK: fp8.grouped_scaled_matmul k_grouped %{{.*}}, %{{.*}} group_ids(%{{.*}} : tensor<?xi32>) acc(%{{.*}} : tensor<3x64x96xbf16>) {m_alignment = 256 : i64} : !fp8.scaled<64x?xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<96x?xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<3x64x96xbf16>
// GENERIC-LABEL: sym_name = "k_grouped"
// GENERIC: "fp8.grouped_scaled_matmul"(%{{.*}}, %{{.*}}, %{{.*}}) <{layout = #fp8<group_layout k_grouped>, m_alignment = 128 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 1, 0>, promote_interval = 128 : i64}>
func.func @k_grouped(%a: !fp8.scaled<64x512xf8E5M2, block = [1, 128], scale = f32>,
                     %b: !fp8.scaled<96x512xf8E4M3FN, block = [1, 128], scale = f32>,
                     %ids: tensor<512xi32>,
                     %da: !fp8.scaled<64x?xf8E4M3FN, block = [1, 128], scale = f32>,
                     %db: !fp8.scaled<96x?xf8E4M3FN, block = [1, 128], scale = f32>,
                     %dids: tensor<?xi32>, %c: tensor<3x64x96xbf16>) {
  %d = fp8.grouped_scaled_matmul k_grouped %a, %b group_ids(%ids : tensor<512xi32>) {fp8.gemm = #fp8.gemm<wgrad>} : !fp8.scaled<64x512xf8E5M2, block = [1, 128], scale = f32>, !fp8.scaled<96x512xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<3x64x96xf32>
  %e = fp8.grouped_scaled_matmul k_grouped %da, %db group_ids(%dids : tensor<?xi32>) acc(%c : tensor<3x64x96xbf16>) {m_alignment = 256} : !fp8.scaled<64x?xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<96x?xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<3x64x96xbf16>
  return
}
