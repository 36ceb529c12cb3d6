// RUN: fp8-opt %s -split-input-file -fp8-assign-precision -fp8-insert-quant | FileCheck %s

// A weight is found through any chain of value-preserving ops, in any order:
// elementwise casts (a linalg.generic that only extf/truncf's its input, a
// tensor-level arith.truncf), linalg.transpose, copy/transpose generics,
// tensor reshapes. The weight then gets 128x128 blocks in NT layout and the
// activation 1x128 tiles, whichever operand is a function argument.

#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>

// docs/regression-cases.md case 21: autocast linear, f32 weight argument ->
// truncf generic -> linalg.transpose -> linalg.matmul, the activation also a
// function argument. The right operand is the weight: [N, K] = [512, 256]
// with 128x128 blocks, no 128x1 tiles, no requantize.
// CHECK-LABEL: func.func @case21_activation_argument
// CHECK-SAME: (%[[X:.*]]: tensor<16x256xbf16>, %[[W:.*]]: tensor<512x256xf32>)
// CHECK: %[[WB:.*]] = linalg.generic
// CHECK-SAME: ins(%[[W]] : tensor<512x256xf32>)
// CHECK-DAG: %[[QX:.*]] = fp8.quantize %[[X]] : tensor<16x256xbf16> -> !fp8.scaled<16x256xf8E4M3FN, block = [1, 128], scale = f32>
// CHECK-DAG: %[[QW:.*]] = fp8.quantize %[[WB]] : tensor<512x256xbf16> -> !fp8.scaled<512x256xf8E4M3FN, block = [128, 128], scale = f32>
// CHECK-NOT: fp8.requantize
// CHECK: fp8.scaled_matmul %[[QX]], %[[QW]] {fp8.precision = #fp8.precision<fp8>, fp8.reason = "heuristic: contraction with a weight (function argument)", fp8.role = #fp8.role<linear>}
func.func @case21_activation_argument(%x: tensor<16x256xbf16>, %w: tensor<512x256xf32>) -> tensor<16x512xf32> {
  %e = tensor.empty() : tensor<512x256xbf16>
  %wb = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%w : tensor<512x256xf32>) outs(%e : tensor<512x256xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %t = arith.truncf %in : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<512x256xbf16>
  %et = tensor.empty() : tensor<256x512xbf16>
  %wt = linalg.transpose ins(%wb : tensor<512x256xbf16>) outs(%et : tensor<256x512xbf16>) permutation = [1, 0]
  %c0 = arith.constant 0.0 : f32
  %eo = tensor.empty() : tensor<16x512xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%eo : tensor<16x512xf32>) -> tensor<16x512xf32>
  %y = linalg.matmul ins(%x, %wt : tensor<16x256xbf16>, tensor<256x512xbf16>) outs(%z : tensor<16x512xf32>) -> tensor<16x512xf32>
  return %y : tensor<16x512xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// Case 21 with the activation computed (a residual add): still a linear in
// FP8, not attention.
// CHECK-LABEL: func.func @case21_activation_computed
// CHECK: fp8.quantize %{{.*}} : tensor<16x256xbf16> -> !fp8.scaled<16x256xf8E4M3FN, block = [1, 128], scale = f32>
// CHECK: fp8.quantize %{{.*}} : tensor<512x256xbf16> -> !fp8.scaled<512x256xf8E4M3FN, block = [128, 128], scale = f32>
// CHECK: fp8.scaled_matmul {{.*}}fp8.role = #fp8.role<linear>
func.func @case21_activation_computed(%x: tensor<16x256xbf16>, %r: tensor<16x256xbf16>, %w: tensor<512x256xf32>) -> tensor<16x512xf32> {
  %ea = tensor.empty() : tensor<16x256xbf16>
  %h = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %r : tensor<16x256xbf16>, tensor<16x256xbf16>) outs(%ea : tensor<16x256xbf16>) {
  ^bb0(%a: bf16, %b: bf16, %out: bf16):
    %s = arith.addf %a, %b : bf16
    linalg.yield %s : bf16
  } -> tensor<16x256xbf16>
  %e = tensor.empty() : tensor<512x256xbf16>
  %wb = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%w : tensor<512x256xf32>) outs(%e : tensor<512x256xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %t = arith.truncf %in : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<512x256xbf16>
  %et = tensor.empty() : tensor<256x512xbf16>
  %wt = linalg.transpose ins(%wb : tensor<512x256xbf16>) outs(%et : tensor<256x512xbf16>) permutation = [1, 0]
  %c0 = arith.constant 0.0 : f32
  %eo = tensor.empty() : tensor<16x512xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%eo : tensor<16x512xf32>) -> tensor<16x512xf32>
  %y = linalg.matmul ins(%h, %wt : tensor<16x256xbf16>, tensor<256x512xbf16>) outs(%z : tensor<16x512xf32>) -> tensor<16x512xf32>
  return %y : tensor<16x512xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>

// The other order: transpose first, then a cast generic that itself
// transposes back ([K, N] bf16 -> [N, K] f32 -> the matmul's NT form is
// the B operand stored [N, K]).
// CHECK-LABEL: func.func @transpose_then_cast
// CHECK: fp8.quantize %{{.*}} -> !fp8.scaled<512x256xf8E4M3FN, block = [128, 128], scale = f32>
// CHECK-NOT: fp8.requantize
// CHECK: fp8.scaled_matmul {{.*}}fp8.reason = "heuristic: contraction with a weight (function argument)", fp8.role = #fp8.role<linear>
func.func @transpose_then_cast(%x: tensor<16x256xf32>, %w: tensor<512x256xbf16>) -> tensor<16x512xf32> {
  %et = tensor.empty() : tensor<256x512xbf16>
  %wt = linalg.transpose ins(%w : tensor<512x256xbf16>) outs(%et : tensor<256x512xbf16>) permutation = [1, 0]
  %e = tensor.empty() : tensor<512x256xf32>
  %wf = linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]}
      ins(%wt : tensor<256x512xbf16>) outs(%e : tensor<512x256xf32>) {
  ^bb0(%in: bf16, %out: f32):
    %t = arith.extf %in : bf16 to f32
    linalg.yield %t : f32
  } -> tensor<512x256xf32>
  %c0 = arith.constant 0.0 : f32
  %eo = tensor.empty() : tensor<16x512xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%eo : tensor<16x512xf32>) -> tensor<16x512xf32>
  %y = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%x, %wf : tensor<16x256xf32>, tensor<512x256xf32>) outs(%z : tensor<16x512xf32>) -> tensor<16x512xf32>
  return %y : tensor<16x512xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>

// A global weight stored [1, N, K]: collapse_shape, tensor-level truncf,
// then a copy generic that transposes.
// CHECK-LABEL: func.func @reshape_cast_copy
// CHECK: fp8.quantize %{{.*}} -> !fp8.scaled<512x256xf8E4M3FN, block = [128, 128], scale = f32>
// CHECK: fp8.scaled_matmul {{.*}}fp8.reason = "heuristic: contraction with a weight (constant)", fp8.role = #fp8.role<linear>
func.func @reshape_cast_copy(%x: tensor<16x256xbf16>) -> tensor<16x512xf32> {
  %w = arith.constant dense<0.5> : tensor<1x512x256xf32>
  %w2 = tensor.collapse_shape %w [[0, 1], [2]] : tensor<1x512x256xf32> into tensor<512x256xf32>
  %wb = arith.truncf %w2 : tensor<512x256xf32> to tensor<512x256xbf16>
  %et = tensor.empty() : tensor<256x512xbf16>
  %wt = linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]}
      ins(%wb : tensor<512x256xbf16>) outs(%et : tensor<256x512xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    linalg.yield %in : bf16
  } -> tensor<256x512xbf16>
  %c0 = arith.constant 0.0 : f32
  %eo = tensor.empty() : tensor<16x512xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%eo : tensor<16x512xf32>) -> tensor<16x512xf32>
  %y = linalg.matmul ins(%x, %wt : tensor<16x256xbf16>, tensor<256x512xbf16>) outs(%z : tensor<16x512xf32>) -> tensor<16x512xf32>
  return %y : tensor<16x512xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>

// docs/regression-cases.md case 22: a router computed in f32 (HF
// DeepSeek-V3: linear(x.float(), w.float())): x bf16 [16, 256] extf to
// f32, gate weight [8, 256] extf + transpose, matmul -> [16, 8] f32 ->
// sigmoid. Gating, kept in high precision: no quantize.
// CHECK-LABEL: func.func @case22_router_f32
// CHECK-NOT: fp8.quantize
// CHECK: linalg.matmul {fp8.precision = #fp8.precision<bf16>, fp8.reason = "heuristic: expert-count linear (N = 8) feeding softmax/sigmoid/top-k", fp8.role = #fp8.role<gating>}
func.func @case22_router_f32(%x: tensor<16x256xbf16>, %w: tensor<8x256xbf16>) -> tensor<16x8xf32> {
  %ex = tensor.empty() : tensor<16x256xf32>
  %xf = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<16x256xbf16>) outs(%ex : tensor<16x256xf32>) {
  ^bb0(%in: bf16, %out: f32):
    %t = arith.extf %in : bf16 to f32
    linalg.yield %t : f32
  } -> tensor<16x256xf32>
  %ew = tensor.empty() : tensor<256x8xf32>
  %wt = linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]}
      ins(%w : tensor<8x256xbf16>) outs(%ew : tensor<256x8xf32>) {
  ^bb0(%in: bf16, %out: f32):
    %t = arith.extf %in : bf16 to f32
    linalg.yield %t : f32
  } -> tensor<256x8xf32>
  %c0 = arith.constant 0.0 : f32
  %eo = tensor.empty() : tensor<16x8xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%eo : tensor<16x8xf32>) -> tensor<16x8xf32>
  %logits = linalg.matmul ins(%xf, %wt : tensor<16x256xf32>, tensor<256x8xf32>) outs(%z : tensor<16x8xf32>) -> tensor<16x8xf32>
  %one = arith.constant 1.0 : f32
  %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%logits : tensor<16x8xf32>) outs(%eo : tensor<16x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    %e = math.exp %n : f32
    %d = arith.addf %e, %one : f32
    %r = arith.divf %one, %d : f32
    linalg.yield %r : f32
  } -> tensor<16x8xf32>
  return %s : tensor<16x8xf32>
}
