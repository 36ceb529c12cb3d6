// RUN: fp8-opt %s -split-input-file -fp8-insert-quant -verify-diagnostics | FileCheck %s

// fp8-insert-quant on ops already annotated (as fp8-assign-precision
// would); the policy comes from the module (deepseek-v3 when absent).

// A weight stored [K, N] (linalg.matmul's B) is transposed to NT [N, K]
// before quantization: FP8 wgmma has no transpose (docs/regression-cases.md case 16).
// The zero-filled init the matmul no longer needs is erased with its
// tensor.empty (the fp8 op starts from +0.0).
// CHECK-LABEL: func.func @weight_kn
// CHECK-SAME: (%[[X:.*]]: tensor<16x256xf32>, %[[W:.*]]: tensor<256x512xf32>)
// CHECK-NOT: linalg.fill
// CHECK-NOT: tensor.empty() : tensor<16x512xf32>
// CHECK: %[[QA:.*]] = fp8.quantize %[[X]] : tensor<16x256xf32> -> !fp8.scaled<16x256xf8E4M3FN, block = [1, 128], scale = f32>
// CHECK: %[[E:.*]] = tensor.empty() : tensor<512x256xf32>
// CHECK: %[[T:.*]] = linalg.transpose ins(%[[W]] : tensor<256x512xf32>) outs(%[[E]] : tensor<512x256xf32>) permutation = [1, 0]
// CHECK: %[[QB:.*]] = fp8.quantize %[[T]] : tensor<512x256xf32> -> !fp8.scaled<512x256xf8E4M3FN, block = [128, 128], scale = f32>
// CHECK: %[[D:.*]] = fp8.scaled_matmul %[[QA]], %[[QB]] {fp8.precision = #fp8.precision<fp8>, fp8.role = #fp8.role<linear>} : !fp8.scaled<16x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<512x256xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<16x512xf32>
// CHECK-NOT: linalg.matmul
// CHECK: return %[[D]]
func.func @weight_kn(%x: tensor<16x256xf32>, %w: tensor<256x512xf32>) -> tensor<16x512xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x512xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<16x512xf32>) -> tensor<16x512xf32>
  %y = linalg.matmul {fp8.role = #fp8.role<linear>, fp8.precision = #fp8.precision<fp8>} ins(%x, %w : tensor<16x256xf32>, tensor<256x512xf32>) outs(%f : tensor<16x512xf32>) -> tensor<16x512xf32>
  return %y : tensor<16x512xf32>
}

// -----

// Behind a transpose generic (torch-mlir's aten.t), the [N, K] source is
// quantized directly; the bf16 result stays bf16; a non-zero init becomes
// the accumulator.
#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-LABEL: func.func @behind_transpose
// CHECK-SAME: (%[[X:.*]]: tensor<16x256xbf16>, %[[W:.*]]: tensor<512x256xbf16>, %[[C:.*]]: tensor<16x512xbf16>)
// CHECK: %[[QA:.*]] = fp8.quantize %[[X]] : tensor<16x256xbf16> -> !fp8.scaled<16x256xf8E4M3FN, block = [1, 128], scale = f32>
// CHECK: %[[QB:.*]] = fp8.quantize %[[W]] : tensor<512x256xbf16> -> !fp8.scaled<512x256xf8E4M3FN, block = [128, 128], scale = f32>
// CHECK: fp8.scaled_matmul %[[QA]], %[[QB]] acc(%[[C]] : tensor<16x512xbf16>)
// CHECK-SAME: -> tensor<16x512xbf16>
func.func @behind_transpose(%x: tensor<16x256xbf16>, %w: tensor<512x256xbf16>, %c: tensor<16x512xbf16>) -> tensor<16x512xbf16> {
  %e0 = tensor.empty() : tensor<256x512xbf16>
  %wt = linalg.generic {indexing_maps = [#id, #tr], iterator_types = ["parallel", "parallel"]} ins(%w : tensor<512x256xbf16>) outs(%e0 : tensor<256x512xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    linalg.yield %in : bf16
  } -> tensor<256x512xbf16>
  %y = linalg.matmul {fp8.precision = #fp8.precision<fp8>} ins(%x, %wt : tensor<16x256xbf16>, tensor<256x512xbf16>) outs(%c : tensor<16x512xbf16>) -> tensor<16x512xbf16>
  return %y : tensor<16x512xbf16>
}

// -----

// batch_matmul against a broadcast weight (BERT): the batch folds into M
// (collapse_shape), the broadcast's 2-D source is the weight, the result is
// expanded back.
#m2 = affine_map<(d0, d1, d2) -> (d1, d2)>
#m3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @batch_broadcast
// CHECK-SAME: (%[[X:.*]]: tensor<4x128x256xf32>, %[[W:.*]]: tensor<256x384xf32>)
// CHECK: %[[CA:.*]] = tensor.collapse_shape %[[X]] {{\[\[}}0, 1], [2]] : tensor<4x128x256xf32> into tensor<512x256xf32>
// CHECK: %[[QA:.*]] = fp8.quantize %[[CA]] : tensor<512x256xf32> -> !fp8.scaled<512x256xf8E4M3FN, block = [1, 128], scale = f32>
// CHECK: %[[T:.*]] = linalg.transpose ins(%[[W]] : tensor<256x384xf32>)
// CHECK: %[[QB:.*]] = fp8.quantize %[[T]] : tensor<384x256xf32> -> !fp8.scaled<384x256xf8E4M3FN, block = [128, 128], scale = f32>
// CHECK: %[[D:.*]] = fp8.scaled_matmul %[[QA]], %[[QB]]
// CHECK-SAME: -> tensor<512x384xf32>
// CHECK: %[[R:.*]] = tensor.expand_shape %[[D]] {{\[\[}}0, 1], [2]] output_shape [4, 128, 384] : tensor<512x384xf32> into tensor<4x128x384xf32>
// CHECK: return %[[R]]
func.func @batch_broadcast(%x: tensor<4x128x256xf32>, %w: tensor<256x384xf32>) -> tensor<4x128x384xf32> {
  %e0 = tensor.empty() : tensor<4x256x384xf32>
  %wb = linalg.generic {indexing_maps = [#m2, #m3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%w : tensor<256x384xf32>) outs(%e0 : tensor<4x256x384xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x256x384xf32>
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x128x384xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<4x128x384xf32>) -> tensor<4x128x384xf32>
  %y = linalg.batch_matmul {fp8.precision = #fp8.precision<fp8>} ins(%x, %wb : tensor<4x128x256xf32>, tensor<4x256x384xf32>) outs(%f : tensor<4x128x384xf32>) -> tensor<4x128x384xf32>
  return %y : tensor<4x128x384xf32>
}

// -----

// A contraction-shaped generic, NT already: y[b, s, n] = x[b, s, k] w[n, k],
// in f16: the matmul produces f32 and a truncf gives back f16. Whole-dim
// blocks (per-tensor policy, `?`) become the actual sizes.
#x = affine_map<(b, s, n, k) -> (b, s, k)>
#w = affine_map<(b, s, n, k) -> (n, k)>
#y = affine_map<(b, s, n, k) -> (b, s, n)>
// CHECK-LABEL: func.func @generic_nt_f16_per_tensor
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2]] : tensor<2x8x256xf16> into tensor<16x256xf16>
// CHECK: fp8.quantize %{{.*}} : tensor<16x256xf16> -> !fp8.scaled<16x256xf8E4M3FN, block = [16, 256], scale = f32>
// CHECK: fp8.quantize %{{.*}} : tensor<384x256xf16> -> !fp8.scaled<384x256xf8E4M3FN, block = [384, 256], scale = f32>
// CHECK: %[[D:.*]] = fp8.scaled_matmul
// CHECK-SAME: -> tensor<16x384xf32>
// CHECK: %[[H:.*]] = arith.truncf %[[D]] : tensor<16x384xf32> to tensor<16x384xf16>
// CHECK: tensor.expand_shape %[[H]] {{\[\[}}0, 1], [2]] output_shape [2, 8, 384]
module attributes {fp8.policy = #fp8.policy<"per-tensor">} {
  func.func @generic_nt_f16_per_tensor(%x: tensor<2x8x256xf16>, %w: tensor<384x256xf16>, %init: tensor<2x8x384xf16>) -> tensor<2x8x384xf16> {
    %cst = arith.constant 0.0 : f16
    %f = linalg.fill ins(%cst : f16) outs(%init : tensor<2x8x384xf16>) -> tensor<2x8x384xf16>
    %y = linalg.generic {indexing_maps = [#x, #w, #y], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%x, %w : tensor<2x8x256xf16>, tensor<384x256xf16>) outs(%f : tensor<2x8x384xf16>) attrs = {fp8.precision = #fp8.precision<fp8>} {
    ^bb0(%a: f16, %b: f16, %c: f16):
      %p = arith.mulf %a, %b : f16
      %s = arith.addf %c, %p : f16
      linalg.yield %s : f16
    } -> tensor<2x8x384xf16>
    return %y : tensor<2x8x384xf16>
  }
}

// -----

// rowwise (1x?, pow2 scales), on a linalg.matmul with explicit NT maps
// (matmul_transpose_b): the [N, K] weight is used as stored.
// CHECK-LABEL: func.func @rowwise
// CHECK: fp8.quantize %{{.*}} {scale_mode = #fp8.scale_mode<pow2>} : tensor<16x256xf32> -> !fp8.scaled<16x256xf8E4M3FN, block = [1, 256], scale = f32>
// CHECK: fp8.quantize %{{.*}} {scale_mode = #fp8.scale_mode<pow2>} : tensor<512x256xf32> -> !fp8.scaled<512x256xf8E4M3FN, block = [1, 256], scale = f32>
module attributes {fp8.policy = #fp8.policy<"rowwise">} {
  func.func @rowwise(%x: tensor<16x256xf32>, %w: tensor<512x256xf32>, %c: tensor<16x512xf32>) -> tensor<16x512xf32> {
    %y = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] {fp8.precision = #fp8.precision<fp8>} ins(%x, %w : tensor<16x256xf32>, tensor<512x256xf32>) outs(%c : tensor<16x512xf32>) -> tensor<16x512xf32>
    return %y : tensor<16x512xf32>
  }
}

// -----

// mxfp8: 1x32 blocks, E8M0 scales, promotion every 32.
// CHECK-LABEL: func.func @mxfp8
// CHECK: fp8.quantize %{{.*}} {scale_mode = #fp8.scale_mode<pow2>} : tensor<16x256xf32> -> !fp8.scaled<16x256xf8E4M3FN, block = [1, 32], scale = f8E8M0FNU>
// CHECK: fp8.quantize %{{.*}} {scale_mode = #fp8.scale_mode<pow2>} : tensor<512x256xf32> -> !fp8.scaled<512x256xf8E4M3FN, block = [1, 32], scale = f8E8M0FNU>
// CHECK: fp8.scaled_matmul {{.*}}promote_interval = 32 : i64
module attributes {fp8.policy = #fp8.policy<"mxfp8">} {
  func.func @mxfp8(%x: tensor<16x256xf32>, %w: tensor<256x512xf32>, %c: tensor<16x512xf32>) -> tensor<16x512xf32> {
    %y = linalg.matmul {fp8.precision = #fp8.precision<fp8>} ins(%x, %w : tensor<16x256xf32>, tensor<256x512xf32>) outs(%c : tensor<16x512xf32>) -> tensor<16x512xf32>
    return %y : tensor<16x512xf32>
  }
}

// -----

// A contraction over tokens (weight gradient dW[n, k] = sum_t dY[t, n] X[t, k]):
// both operands are stored with the reduced (token) dimension first. They
// get 128x1 tiles of their stored layout and are requantized transposed, so
// the matmul stays NT with 1x128 tiles along K (DeepSeek-V3 §3.5.2).
#ta = affine_map<(n, k, t) -> (t, n)>
#tb = affine_map<(n, k, t) -> (t, k)>
#tc = affine_map<(n, k, t) -> (n, k)>
// CHECK-LABEL: func.func @weight_gradient
// CHECK-SAME: (%[[DY0:.*]]: tensor<256x64xbf16>, %[[X0:.*]]: tensor<256x96xbf16>
// CHECK: %[[DY:.*]] = arith.addf %[[DY0]]
// CHECK: %[[X:.*]] = arith.addf %[[X0]]
// CHECK: %[[QA:.*]] = fp8.quantize %[[DY]] : tensor<256x64xbf16> -> !fp8.scaled<256x64xf8E4M3FN, block = [128, 1], scale = f32>
// CHECK: %[[RA:.*]] = fp8.requantize %[[QA]] {permutation = array<i64: 1, 0>} : !fp8.scaled<256x64xf8E4M3FN, block = [128, 1], scale = f32> -> !fp8.scaled<64x256xf8E4M3FN, block = [1, 128], scale = f32>
// CHECK: %[[QB:.*]] = fp8.quantize %[[X]] : tensor<256x96xbf16> -> !fp8.scaled<256x96xf8E4M3FN, block = [128, 1], scale = f32>
// CHECK: %[[RB:.*]] = fp8.requantize %[[QB]] {permutation = array<i64: 1, 0>} : !fp8.scaled<256x96xf8E4M3FN, block = [128, 1], scale = f32> -> !fp8.scaled<96x256xf8E4M3FN, block = [1, 128], scale = f32>
// CHECK: fp8.scaled_matmul %[[RA]], %[[RB]]
// CHECK-SAME: -> tensor<64x96xf32>
func.func @weight_gradient(%dy: tensor<256x64xbf16>, %x: tensor<256x96xbf16>) -> tensor<64x96xf32> {
  %dyc = arith.addf %dy, %dy : tensor<256x64xbf16>
  %xc = arith.addf %x, %x : tensor<256x96xbf16>
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x96xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<64x96xf32>) -> tensor<64x96xf32>
  %dw = linalg.generic {indexing_maps = [#ta, #tb, #tc], iterator_types = ["parallel", "parallel", "reduction"]} ins(%dyc, %xc : tensor<256x64xbf16>, tensor<256x96xbf16>) outs(%f : tensor<64x96xf32>) attrs = {fp8.role = #fp8.role<linear>, fp8.precision = #fp8.precision<fp8>} {
  ^bb0(%a: bf16, %b: bf16, %c: f32):
    %a32 = arith.extf %a : bf16 to f32
    %b32 = arith.extf %b : bf16 to f32
    %p = arith.mulf %a32, %b32 : f32
    %s = arith.addf %c, %p : f32
    linalg.yield %s : f32
  } -> tensor<64x96xf32>
  return %dw : tensor<64x96xf32>
}

// -----

// Attention kept in bf16 in an f32 graph: operands cast to bf16, f32
// accumulation and result.
// CHECK-LABEL: func.func @attention_cast
// CHECK-SAME: (%[[Q:.*]]: tensor<12x40x64xf32>, %[[K:.*]]: tensor<12x64x40xf32>
// CHECK: %[[QH:.*]] = arith.truncf %[[Q]] : tensor<12x40x64xf32> to tensor<12x40x64xbf16>
// CHECK: %[[KH:.*]] = arith.truncf %[[K]] : tensor<12x64x40xf32> to tensor<12x64x40xbf16>
// CHECK: linalg.batch_matmul {fp8.precision = #fp8.precision<bf16>, fp8.role = #fp8.role<attention>} ins(%[[QH]], %[[KH]] : tensor<12x40x64xbf16>, tensor<12x64x40xbf16>) outs(%{{.*}} : tensor<12x40x40xf32>) -> tensor<12x40x40xf32>
func.func @attention_cast(%q: tensor<12x40x64xf32>, %kt: tensor<12x64x40xf32>, %init: tensor<12x40x40xf32>) -> tensor<12x40x40xf32> {
  %s = linalg.batch_matmul {fp8.role = #fp8.role<attention>, fp8.precision = #fp8.precision<bf16>} ins(%q, %kt : tensor<12x40x64xf32>, tensor<12x64x40xf32>) outs(%init : tensor<12x40x40xf32>) -> tensor<12x40x40xf32>
  return %s : tensor<12x40x40xf32>
}

// -----

// What the pass cannot rewrite stays as it is, with a remark.
// CHECK-LABEL: func.func @cannot
// CHECK-NOT: fp8.quantize
// CHECK-NOT: tensor.collapse_shape
// CHECK-NOT: fp8.scaled_matmul
#bb_a = affine_map<(b0, b1, m, n, k) -> (b0, b1, m, k)>
#bb_b = affine_map<(b0, b1, m, n, k) -> (b0, b1, k, n)>
#bb_c = affine_map<(b0, b1, m, n, k) -> (b0, b1, m, n)>
func.func @cannot(%x: tensor<256x?xf32>, %w: tensor<?x512xf32>, %c: tensor<256x512xf32>, %a: tensor<2x4x16x32xf32>, %b: tensor<2x4x32x8xf32>, %d: tensor<2x4x16x8xf32>) -> (tensor<256x512xf32>, tensor<2x4x16x8xf32>) {
  // expected-remark @below {{fp8-insert-quant: linear left in high precision: dynamic N or K}}
  %y = linalg.matmul {fp8.precision = #fp8.precision<fp8>} ins(%x, %w : tensor<256x?xf32>, tensor<?x512xf32>) outs(%c : tensor<256x512xf32>) -> tensor<256x512xf32>
  // expected-remark @below {{fp8-insert-quant: linear left in high precision: the right operand varies over more than one batch dim (not one broadcast weight, nor per-group weights [G, K, N])}}
  %z = linalg.generic {indexing_maps = [#bb_a, #bb_b, #bb_c], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%a, %b : tensor<2x4x16x32xf32>, tensor<2x4x32x8xf32>) outs(%d : tensor<2x4x16x8xf32>) attrs = {fp8.precision = #fp8.precision<fp8>} {
  ^bb0(%i: f32, %j: f32, %o: f32):
    %p = arith.mulf %i, %j : f32
    %q = arith.addf %o, %p : f32
    linalg.yield %q : f32
  } -> tensor<2x4x16x8xf32>
  return %y, %z : tensor<256x512xf32>, tensor<2x4x16x8xf32>
}

// -----

// A grouped linear (MoE routed experts: per-expert weights [E, N, K] as torch
// stacks them, transposed to [E, K, N] for linalg.batch_matmul): the
// stacked activations and the untransposed weights are each quantized once
// (collapsed to [E * rows, K]: the row blocks, 1 and 128, divide each
// expert's rows, so no block straddles two experts, then viewed as
// [E, rows, K] with blocks [1, b0, b1]), then ONE fp8.grouped_scaled_matmul
// (masked layout, every row valid) for all experts: never one GEMM per
// expert, and no loop (one launch on the GPU).
#g_in = affine_map<(e, k, n) -> (e, n, k)>
#g_out = affine_map<(e, k, n) -> (e, k, n)>
// CHECK-LABEL: func.func @grouped_experts
// CHECK-SAME: (%[[X:.*]]: tensor<2x16x256xf32>, %[[W:.*]]: tensor<2x512x256xf32>)
// CHECK-NOT: linalg.fill
// CHECK-NOT: tensor.empty() : tensor<2x16x512xf32>
// CHECK-NOT: scf.for
// CHECK: %[[XF:.*]] = tensor.collapse_shape %[[X]] {{\[\[}}0, 1], [2]] : tensor<2x16x256xf32> into tensor<32x256xf32>
// CHECK: %[[QX:.*]] = fp8.quantize %[[XF]] : tensor<32x256xf32> -> !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>
// CHECK: %[[XD:.*]], %[[XS:.*]] = fp8.disassemble %[[QX]]
// CHECK: %[[XD3:.*]] = tensor.expand_shape %[[XD]] {{\[\[}}0, 1], [2]] output_shape [2, 16, 256] : tensor<32x256xf8E4M3FN> into tensor<2x16x256xf8E4M3FN>
// CHECK: %[[XS3:.*]] = tensor.expand_shape %[[XS]] {{\[\[}}0, 1], [2]] output_shape [2, 16, 2] : tensor<32x2xf32> into tensor<2x16x2xf32>
// CHECK: %[[QX3:.*]] = fp8.assemble %[[XD3]], %[[XS3]] : {{.*}} -> !fp8.scaled<2x16x256xf8E4M3FN, block = [1, 1, 128], scale = f32>
// CHECK: %[[WF:.*]] = tensor.collapse_shape %[[W]] {{\[\[}}0, 1], [2]] : tensor<2x512x256xf32> into tensor<1024x256xf32>
// CHECK: %[[QW:.*]] = fp8.quantize %[[WF]] : tensor<1024x256xf32> -> !fp8.scaled<1024x256xf8E4M3FN, block = [128, 128], scale = f32>
// CHECK: %[[WD:.*]], %[[WS:.*]] = fp8.disassemble %[[QW]]
// CHECK: tensor.expand_shape %[[WD]] {{.*}} into tensor<2x512x256xf8E4M3FN>
// CHECK: tensor.expand_shape %[[WS]] {{.*}} : tensor<8x2xf32> into tensor<2x4x2xf32>
// CHECK: %[[QW3:.*]] = fp8.assemble {{.*}} -> !fp8.scaled<2x512x256xf8E4M3FN, block = [1, 128, 128], scale = f32>
// CHECK: %[[R:.*]] = fp8.grouped_scaled_matmul masked %[[QX3]], %[[QW3]] {fp8.precision = #fp8.precision<fp8>, fp8.role = #fp8.role<linear>}
// CHECK-SAME: -> tensor<2x16x512xf32>
// CHECK-NOT: fp8.scaled_matmul
// CHECK-NOT: linalg.batch_matmul
// CHECK-NOT: linalg.fill
// CHECK: return %[[R]]
func.func @grouped_experts(%x: tensor<2x16x256xf32>, %w: tensor<2x512x256xf32>) -> tensor<2x16x512xf32> {
  %e0 = tensor.empty() : tensor<2x256x512xf32>
  %wt = linalg.generic {indexing_maps = [#g_in, #g_out], iterator_types = ["parallel", "parallel", "parallel"]} ins(%w : tensor<2x512x256xf32>) outs(%e0 : tensor<2x256x512xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x256x512xf32>
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x16x512xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<2x16x512xf32>) -> tensor<2x16x512xf32>
  %y = linalg.batch_matmul {fp8.role = #fp8.role<linear>, fp8.precision = #fp8.precision<fp8>} ins(%x, %wt : tensor<2x16x256xf32>, tensor<2x256x512xf32>) outs(%f : tensor<2x16x512xf32>) -> tensor<2x16x512xf32>
  return %y : tensor<2x16x512xf32>
}

// -----

// One zero fill is the init of two grouped linears: it stays while the
// second still reads it, and is erased once both are replaced.
// CHECK-LABEL: func.func @grouped_shared_init
// CHECK-NOT: linalg.fill
// CHECK: fp8.grouped_scaled_matmul masked
// CHECK-NOT: linalg.fill
// CHECK: fp8.grouped_scaled_matmul masked
// CHECK-NOT: linalg.fill
// CHECK: return
func.func @grouped_shared_init(%x: tensor<2x8x128xf32>, %w: tensor<2x128x64xf32>, %v: tensor<2x128x64xf32>) -> (tensor<2x8x64xf32>, tensor<2x8x64xf32>) {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8x64xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
  %y = linalg.batch_matmul {fp8.role = #fp8.role<linear>, fp8.precision = #fp8.precision<fp8>} ins(%x, %w : tensor<2x8x128xf32>, tensor<2x128x64xf32>) outs(%f : tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
  %z = linalg.batch_matmul {fp8.role = #fp8.role<linear>, fp8.precision = #fp8.precision<fp8>} ins(%x, %v : tensor<2x8x128xf32>, tensor<2x128x64xf32>) outs(%f : tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
  return %y, %z : tensor<2x8x64xf32>, tensor<2x8x64xf32>
}

// -----

// Per-group weights stored [E, K, N] with no transpose to look through: the
// stacked weights are transposed to NT [E, N, K] once. N = 64 is not a
// multiple of the 128-row weight block, so the weights are quantized as
// [E, N, K] with block [1, 128, 128] (each expert's partial block apart);
// a non-zero init is the grouped op's accumulator.
// CHECK-LABEL: func.func @grouped_kn
// CHECK-SAME: (%[[X:.*]]: tensor<3x8x128xbf16>, %[[W:.*]]: tensor<3x128x64xbf16>, %[[C:.*]]: tensor<3x8x64xbf16>)
// CHECK: %[[WT:.*]] = linalg.transpose ins(%[[W]] : tensor<3x128x64xbf16>) outs(%{{.*}} : tensor<3x64x128xbf16>) permutation = [0, 2, 1]
// CHECK: fp8.quantize %{{.*}} : tensor<24x128xbf16> -> !fp8.scaled<24x128xf8E4M3FN, block = [1, 128], scale = f32>
// CHECK: %[[QW:.*]] = fp8.quantize %[[WT]] : tensor<3x64x128xbf16> -> !fp8.scaled<3x64x128xf8E4M3FN, block = [1, 128, 128], scale = f32>
// CHECK: fp8.grouped_scaled_matmul masked %{{.*}}, %[[QW]] acc(%[[C]] : tensor<3x8x64xbf16>)
// CHECK-SAME: -> tensor<3x8x64xbf16>
// CHECK-NOT: fp8.scaled_matmul
func.func @grouped_kn(%x: tensor<3x8x128xbf16>, %w: tensor<3x128x64xbf16>, %c: tensor<3x8x64xbf16>) -> tensor<3x8x64xbf16> {
  %y = linalg.batch_matmul {fp8.role = #fp8.role<linear>, fp8.precision = #fp8.precision<fp8>} ins(%x, %w : tensor<3x8x128xbf16>, tensor<3x128x64xbf16>) outs(%c : tensor<3x8x64xbf16>) -> tensor<3x8x64xbf16>
  return %y : tensor<3x8x64xbf16>
}

// -----

// A grouped linear in f16 with a non-zero init: the accumulator is extended
// to f32, the f32 product truncated back to f16.
// CHECK-LABEL: func.func @grouped_f16_acc
// CHECK-SAME: %{{[^:]*}}: tensor<2x8x256xf16>, %{{[^:]*}}: tensor<2x128x256xf16>, %[[C:[^:]*]]: tensor<2x8x128xf16>
// CHECK: %[[CF:.*]] = arith.extf %[[C]] : tensor<2x8x128xf16> to tensor<2x8x128xf32>
// CHECK: %[[D:.*]] = fp8.grouped_scaled_matmul masked {{.*}} acc(%[[CF]] : tensor<2x8x128xf32>) {{.*}} -> tensor<2x8x128xf32>
// CHECK: %[[H:.*]] = arith.truncf %[[D]] : tensor<2x8x128xf32> to tensor<2x8x128xf16>
// CHECK: return %[[H]]
func.func @grouped_f16_acc(%x: tensor<2x8x256xf16>, %w: tensor<2x128x256xf16>, %c: tensor<2x8x128xf16>) -> tensor<2x8x128xf16> {
  %e = tensor.empty() : tensor<2x256x128xf16>
  %wt = linalg.transpose ins(%w : tensor<2x128x256xf16>) outs(%e : tensor<2x256x128xf16>) permutation = [0, 2, 1]
  %y = linalg.batch_matmul {fp8.role = #fp8.role<linear>, fp8.precision = #fp8.precision<fp8>} ins(%x, %wt : tensor<2x8x256xf16>, tensor<2x256x128xf16>) outs(%c : tensor<2x8x128xf16>) -> tensor<2x8x128xf16>
  return %y : tensor<2x8x128xf16>
}

// -----

// Whole-dimension blocks (per-tensor policy) on a grouped linear: one scale
// per expert and operand, i.e. blocks of each expert's [M, K] and [N, K]
// (never one scale for all experts); the collapsed operands keep them apart.
// CHECK-LABEL: func.func @grouped_per_tensor
// CHECK: fp8.quantize %{{.*}} : tensor<24x256xf32> -> !fp8.scaled<24x256xf8E4M3FN, block = [8, 256], scale = f32>
// CHECK: tensor.expand_shape %{{.*}} : tensor<3x1xf32> into tensor<3x1x1xf32>
// CHECK: fp8.assemble {{.*}} -> !fp8.scaled<3x8x256xf8E4M3FN, block = [1, 8, 256], scale = f32>
// CHECK: fp8.quantize %{{.*}} : tensor<192x256xf32> -> !fp8.scaled<192x256xf8E4M3FN, block = [64, 256], scale = f32>
// CHECK: tensor.expand_shape %{{.*}} : tensor<3x1xf32> into tensor<3x1x1xf32>
// CHECK: fp8.assemble {{.*}} -> !fp8.scaled<3x64x256xf8E4M3FN, block = [1, 64, 256], scale = f32>
// CHECK: fp8.grouped_scaled_matmul masked
module attributes {fp8.policy = #fp8.policy<"per-tensor">} {
  func.func @grouped_per_tensor(%x: tensor<3x8x256xf32>, %w: tensor<3x64x256xf32>) -> tensor<3x8x64xf32> {
    %e = tensor.empty() : tensor<3x256x64xf32>
    %wt = linalg.transpose ins(%w : tensor<3x64x256xf32>) outs(%e : tensor<3x256x64xf32>) permutation = [0, 2, 1]
    %cst = arith.constant 0.0 : f32
    %o = tensor.empty() : tensor<3x8x64xf32>
    %f = linalg.fill ins(%cst : f32) outs(%o : tensor<3x8x64xf32>) -> tensor<3x8x64xf32>
    %y = linalg.batch_matmul {fp8.role = #fp8.role<linear>, fp8.precision = #fp8.precision<fp8>} ins(%x, %wt : tensor<3x8x256xf32>, tensor<3x256x64xf32>) outs(%f : tensor<3x8x64xf32>) -> tensor<3x8x64xf32>
    return %y : tensor<3x8x64xf32>
  }
}
