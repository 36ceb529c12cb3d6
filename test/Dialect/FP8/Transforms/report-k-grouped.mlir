// The report of a k_grouped fp8.grouped_scaled_matmul (the experts' Wgrads
// in one op): one row "4 groups x 64x96x512 (K grouped)" whose FLOPs are
// one 64 x 96 x 512 GEMM's, 2 * 64 * 96 * 512 = 6291456 = 6.29 M (every token
// belongs to one group), no weight bytes (both operands are activations).
// Rows are the ops with an fp8.role.
// RUN: fp8-opt %s -fp8-report -o /dev/null | FileCheck %s

// CHECK: Matmuls (M x N x K)
// CHECK-NEXT: #
// CHECK-NEXT: 1 {{ *}}fp8.grouped_scaled_matmul {{.*}} 4 groups x 64x96x512 (K grouped) {{ *}}6.29 MFLOP
// CHECK: in FP8: {{ *}}6.29 MFLOP (100.0%)

!a = !fp8.scaled<64x512xf8E4M3FN, block = [1, 128], scale = f32>
!b = !fp8.scaled<96x512xf8E4M3FN, block = [1, 128], scale = f32>

func.func @wgrad(%a: !a, %b: !b, %ids: tensor<512xi32>) -> tensor<4x64x96xf32> {
  %d = fp8.grouped_scaled_matmul k_grouped %a, %b group_ids(%ids : tensor<512xi32>) {fp8.role = #fp8.role<linear>, fp8.gemm = #fp8.gemm<wgrad>} : !a, !b -> tensor<4x64x96xf32>
  return %d : tensor<4x64x96xf32>
}
