// RUN: fp8-opt %s -split-input-file -fp8-assign-precision='policy=per-tensor promotion=none' -fp8-insert-quant | FileCheck %s
// RUN: fp8-opt %s -split-input-file -fp8-pipeline='policy=rowwise promotion=none report=false' | FileCheck %s --check-prefix=PIPE
// RUN: fp8-opt %s -split-input-file -fp8-assign-precision='policy=per-tensor promotion=policy' -fp8-insert-quant | FileCheck %s --check-prefix=POLICY

// Option `promotion=none` (DeepSeek-V3 §3.3.2's experiment without
// promotion): the policy on the module records promote_interval = ?, and
// every FP8 GEMM promotes its tensor-core partial sum into FP32 once, at the
// end of its own K. The three GEMMs of one linear have three different K
// (X [160 tokens, 64], W [96, 64], dY [160, 96]): Fprop Y = X W^T sums over
// the 64 inputs, Dgrad dX = dY W over the 96 outputs, Wgrad dW = dY^T X over
// the 160 tokens. With promotion=policy every GEMM keeps the preset's 128.

// CHECK: module attributes {fp8.policy = #fp8.policy<name = "per-tensor", {{.*}}promote_interval = ?,
// CHECK-LABEL: func.func @joint
// CHECK: fp8.scaled_matmul {{.*}}{fp8.gemm = #fp8.gemm<fprop>, {{.*}}promote_interval = 64 : i64} : !fp8.scaled<160x64xf8E4M3FN, block = [160, 64]{{.*}} -> tensor<160x96xf32>
// CHECK: fp8.scaled_matmul {{.*}}{fp8.gemm = #fp8.gemm<dgrad>, {{.*}}promote_interval = 96 : i64} : !fp8.scaled<160x96xf8E5M2, block = [160, 96]{{.*}} -> tensor<160x64xf32>
// CHECK: fp8.scaled_matmul {{.*}}{fp8.gemm = #fp8.gemm<wgrad>, {{.*}}promote_interval = 160 : i64} : !fp8.scaled<96x160xf8E5M2, block = [96, 160]{{.*}} -> tensor<96x64xf32>

// rowwise through fp8-pipeline: blocks [1, K], the same intervals.
// PIPE: module attributes {fp8.policy = #fp8.policy<name = "rowwise", {{.*}}promote_interval = ?,
// PIPE-LABEL: func.func @joint
// PIPE: fp8.scaled_matmul {{.*}}promote_interval = 64 : i64} : !fp8.scaled<160x64xf8E4M3FN, block = [1, 64]{{.*}} -> tensor<160x96xf32>
// PIPE: fp8.scaled_matmul {{.*}}promote_interval = 96 : i64} : !fp8.scaled<160x96xf8E4M3FN, block = [1, 96]{{.*}} -> tensor<160x64xf32>
// PIPE: fp8.scaled_matmul {{.*}}promote_interval = 160 : i64} : !fp8.scaled<96x160xf8E4M3FN, block = [1, 160]{{.*}} -> tensor<96x64xf32>

// POLICY: module attributes {fp8.policy = #fp8.policy<name = "per-tensor", {{.*}}promote_interval = 128,
// POLICY-LABEL: func.func @joint
// POLICY-COUNT-3: fp8.scaled_matmul
// POLICY-NOT: promote_interval = {{[0-9]+}}
// POLICY: return
func.func @joint(%x: tensor<160x64xf32>, %w: tensor<96x64xf32>, %dy: tensor<160x96xf32>) -> (tensor<160x96xf32>, tensor<160x64xf32>, tensor<96x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<64x96xf32>
  %wt = linalg.transpose ins(%w : tensor<96x64xf32>) outs(%e0 : tensor<64x96xf32>) permutation = [1, 0]
  %e1 = tensor.empty() : tensor<160x96xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<160x96xf32>) -> tensor<160x96xf32>
  %y = linalg.matmul ins(%x, %wt : tensor<160x64xf32>, tensor<64x96xf32>) outs(%f1 : tensor<160x96xf32>) -> tensor<160x96xf32>
  %e2 = tensor.empty() : tensor<160x64xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<160x64xf32>) -> tensor<160x64xf32>
  %dx = linalg.matmul ins(%dy, %w : tensor<160x96xf32>, tensor<96x64xf32>) outs(%f2 : tensor<160x64xf32>) -> tensor<160x64xf32>
  %e3 = tensor.empty() : tensor<96x160xf32>
  %dyt = linalg.transpose ins(%dy : tensor<160x96xf32>) outs(%e3 : tensor<96x160xf32>) permutation = [1, 0]
  %e4 = tensor.empty() : tensor<96x64xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<96x64xf32>) -> tensor<96x64xf32>
  %dw = linalg.matmul ins(%dyt, %x : tensor<96x160xf32>, tensor<160x64xf32>) outs(%f4 : tensor<96x64xf32>) -> tensor<96x64xf32>
  return %y, %dx, %dw : tensor<160x96xf32>, tensor<160x64xf32>, tensor<96x64xf32>
}

// -----

// A K that is not a whole number of wgmma K steps (70): the interval is K
// rounded up to a multiple of 32 (96), still one promotion at the end of K.
// CHECK-LABEL: func.func @odd_k
// CHECK: fp8.scaled_matmul {{.*}}promote_interval = 96 : i64} : !fp8.scaled<64x70xf8E4M3FN
// PIPE-LABEL: func.func @odd_k
// PIPE: fp8.scaled_matmul {{.*}}promote_interval = 96 : i64} : !fp8.scaled<64x70xf8E4M3FN
func.func @odd_k(%x: tensor<64x70xf32>, %w: tensor<70x32xf32>) -> tensor<64x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x32xf32>) -> tensor<64x32xf32>
  %y = linalg.matmul ins(%x, %w : tensor<64x70xf32>, tensor<70x32xf32>) outs(%f : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %y : tensor<64x32xf32>
}

// -----

// MoE routed experts (per-expert weights [E, N, K], K = 192; the linear
// named by its attributes, as no router is in the graph): the one grouped
// GEMM promotes once per expert's K as well.
#g_in = affine_map<(e, k, n) -> (e, n, k)>
#g_out = affine_map<(e, k, n) -> (e, k, n)>
// CHECK-LABEL: func.func @grouped_experts
// CHECK: fp8.grouped_scaled_matmul masked {{.*}}promote_interval = 192 : i64} : !fp8.scaled<2x16x192xf8E4M3FN
// POLICY-LABEL: func.func @grouped_experts
// POLICY: fp8.grouped_scaled_matmul
// POLICY-NOT: promote_interval = {{[0-9]+}}
// POLICY: return
func.func @grouped_experts(%x: tensor<2x16x192xf32>, %w: tensor<2x64x192xf32>) -> tensor<2x16x64xf32> {
  %e0 = tensor.empty() : tensor<2x192x64xf32>
  %wt = linalg.generic {indexing_maps = [#g_in, #g_out], iterator_types = ["parallel", "parallel", "parallel"]} ins(%w : tensor<2x64x192xf32>) outs(%e0 : tensor<2x192x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x192x64xf32>
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x16x64xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
  %y = linalg.batch_matmul {fp8.role = #fp8.role<linear>, fp8.precision = #fp8.precision<fp8>} ins(%x, %wt : tensor<2x16x192xf32>, tensor<2x192x64xf32>) outs(%f : tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
  return %y : tensor<2x16x64xf32>
}
