// RUN: fp8-opt %s -split-input-file -fp8-assign-precision | FileCheck %s

// Graphs in which one heuristic of the role analysis decides the outcome
// (docs/testing.md, blind mutation round of 2026-12-06): each case fails
// when that rule is dropped or loosened. The expected roles are derived by
// hand from the rules of docs/policies.md, not from the pass's output.

// A state carried through a loop (a recurrent or linear-attention state,
// a decode loop's KV cache) is an activation, not a weight: only block
// arguments of a function's entry block are parameters. Inside the loop,
// h * W is a linear (W is a function argument) and y * S contracts two
// activations (S is the loop's iter_arg): attention, kept in bf16.
#id = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @loop_carried_state
// CHECK: scf.for
// CHECK: linalg.matmul {fp8.precision = #fp8.precision<fp8>, fp8.reason = "heuristic: contraction with a weight (function argument)", fp8.role = #fp8.role<linear>}
// CHECK: linalg.matmul {fp8.precision = #fp8.precision<bf16>, fp8.reason = "heuristic: contraction of two activations", fp8.role = #fp8.role<attention>}
func.func @loop_carried_state(%x: tensor<16x64xf32>, %s0: tensor<64x64xf32>, %w: tensor<64x64xf32>) -> tensor<16x64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %r:2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%h = %x, %s = %s0) -> (tensor<16x64xf32>, tensor<64x64xf32>) {
    %e = tensor.empty() : tensor<16x64xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
    %y = linalg.matmul ins(%h, %w : tensor<16x64xf32>, tensor<64x64xf32>) outs(%f : tensor<16x64xf32>) -> tensor<16x64xf32>
    %z = linalg.matmul ins(%y, %s : tensor<16x64xf32>, tensor<64x64xf32>) outs(%f : tensor<16x64xf32>) -> tensor<16x64xf32>
    %es = tensor.empty() : tensor<64x64xf32>
    %decayed = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<64x64xf32>) outs(%es : tensor<64x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      %half = arith.constant 0.5 : f32
      %m = arith.mulf %in, %half : f32
      linalg.yield %m : f32
    } -> tensor<64x64xf32>
    scf.yield %z, %decayed : tensor<16x64xf32>, tensor<64x64xf32>
  }
  return %r#0 : tensor<16x64xf32>
}

// -----

// A classifier: 20 classes from a 64-wide hidden state, into a softmax.
// N = 20 is a plausible expert count, but a router reads a hidden state
// at least 4x wider than its expert count (K = 64 < 4 * 20 = 80): an
// ordinary linear, FP8. (A router, N = 8 from K = 256: gating-through-ops.)
#id = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @classifier_softmax
// CHECK: linalg.matmul {fp8.precision = #fp8.precision<fp8>, fp8.reason = "heuristic: contraction with a weight (function argument)", fp8.role = #fp8.role<linear>}
func.func @classifier_softmax(%x: tensor<16x64xf32>, %w: tensor<64x20xf32>) -> tensor<16x20xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x20xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x20xf32>) -> tensor<16x20xf32>
  %logits = linalg.matmul ins(%x, %w : tensor<16x64xf32>, tensor<64x20xf32>) outs(%f : tensor<16x20xf32>) -> tensor<16x20xf32>
  %p = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%logits : tensor<16x20xf32>) outs(%e : tensor<16x20xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x2 = math.exp %in : f32
    linalg.yield %x2 : f32
  } -> tensor<16x20xf32>
  return %p : tensor<16x20xf32>
}

// -----

// The same classifier with K = 4 * N exactly (80 from 20): the bound is
// inclusive, the router's shape, kept in high precision.
#id = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @router_at_bound
// CHECK: linalg.matmul {fp8.precision = #fp8.precision<bf16>, fp8.reason = "heuristic: expert-count linear (N = 20) feeding softmax/sigmoid/top-k", fp8.role = #fp8.role<gating>}
func.func @router_at_bound(%x: tensor<16x80xf32>, %w: tensor<80x20xf32>) -> tensor<16x20xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x20xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x20xf32>) -> tensor<16x20xf32>
  %logits = linalg.matmul ins(%x, %w : tensor<16x80xf32>, tensor<80x20xf32>) outs(%f : tensor<16x20xf32>) -> tensor<16x20xf32>
  %p = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%logits : tensor<16x20xf32>) outs(%e : tensor<16x20xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x2 = math.exp %in : f32
    linalg.yield %x2 : f32
  } -> tensor<16x20xf32>
  return %p : tensor<16x20xf32>
}

// -----

// A router whose sigmoid is a named op with no math.exp in a body to find
// (tosa.sigmoid, DeepSeek-V3's sigmoid gating, when only the matmuls were
// lowered to linalg): softmax-like by its name, so the router is gating.
// CHECK-LABEL: func.func @router_named_sigmoid
// CHECK: linalg.matmul {fp8.precision = #fp8.precision<bf16>, fp8.reason = "heuristic: expert-count linear (N = 8) feeding softmax/sigmoid/top-k", fp8.role = #fp8.role<gating>}
func.func @router_named_sigmoid(%x: tensor<16x256xf32>, %w: tensor<256x8xf32>) -> tensor<16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %logits = linalg.matmul ins(%x, %w : tensor<16x256xf32>, tensor<256x8xf32>) outs(%f : tensor<16x8xf32>) -> tensor<16x8xf32>
  %p = tosa.sigmoid %logits : (tensor<16x8xf32>) -> tensor<16x8xf32>
  return %p : tensor<16x8xf32>
}

// -----

// A router whose top-k is a call (a custom op exported as a function): the
// callee returns integer [T, k] indices (k = 2 <= E = 8) of its [T, E]
// float input's last dim, a selection over the experts, so the router is
// gating (by the signature, not by the name).
// CHECK-LABEL: func.func @router_topk_call
// CHECK: linalg.matmul {fp8.precision = #fp8.precision<bf16>, fp8.reason = "heuristic: expert-count linear (N = 8) feeding softmax/sigmoid/top-k", fp8.role = #fp8.role<gating>}
func.func private @moe_topk(tensor<16x8xf32>) -> tensor<16x2xi64>
func.func @router_topk_call(%x: tensor<16x256xf32>, %w: tensor<256x8xf32>) -> tensor<16x2xi64> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %logits = linalg.matmul ins(%x, %w : tensor<16x256xf32>, tensor<256x8xf32>) outs(%f : tensor<16x8xf32>) -> tensor<16x8xf32>
  %k = func.call @moe_topk(%logits) : (tensor<16x8xf32>) -> tensor<16x2xi64>
  return %k : tensor<16x2xi64>
}

// -----

// The same with a callee whose name says nothing (torch's topk as a library
// routine returning values and indices): the [16, 2] i64 indices over the
// experts make it a top-k, so the router is gating.
// CHECK-LABEL: func.func @router_select_call
// CHECK: linalg.matmul {fp8.precision = #fp8.precision<bf16>, fp8.reason = "heuristic: expert-count linear (N = 8) feeding softmax/sigmoid/top-k", fp8.role = #fp8.role<gating>}
func.func private @select_experts(tensor<16x8xf32>) -> (tensor<16x2xf32>, tensor<16x2xi64>)
func.func @router_select_call(%x: tensor<16x256xf32>, %w: tensor<256x8xf32>) -> tensor<16x2xi64> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %logits = linalg.matmul ins(%x, %w : tensor<16x256xf32>, tensor<256x8xf32>) outs(%f : tensor<16x8xf32>) -> tensor<16x8xf32>
  %v, %k = func.call @select_experts(%logits) : (tensor<16x8xf32>) -> (tensor<16x2xf32>, tensor<16x2xi64>)
  return %k : tensor<16x2xi64>
}

// -----

// A callee whose name says top-k but which returns its [T, E] logits'
// shape in f32 (a statistics hook): nothing is selected, so the [256, 8]
// projection is an FP8 linear, not a router.
// CHECK-LABEL: func.func @router_topk_named_hook
// CHECK: linalg.matmul {fp8.precision = #fp8.precision<fp8>, fp8.reason = "heuristic: contraction with a weight (function argument)", fp8.role = #fp8.role<linear>}
func.func private @topk_stats_hook(tensor<16x8xf32>) -> tensor<16x8xf32>
func.func @router_topk_named_hook(%x: tensor<16x256xf32>, %w: tensor<256x8xf32>) -> tensor<16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %logits = linalg.matmul ins(%x, %w : tensor<16x256xf32>, tensor<256x8xf32>) outs(%f : tensor<16x8xf32>) -> tensor<16x8xf32>
  %s = func.call @topk_stats_hook(%logits) : (tensor<16x8xf32>) -> tensor<16x8xf32>
  return %s : tensor<16x8xf32>
}

// -----

// A router whose softmax is a function of the module (an exporter that
// outlines it): the callee's body computes exp, so the router is gating.
// CHECK-LABEL: func.func @router_softmax_callee
// CHECK: linalg.matmul {fp8.precision = #fp8.precision<bf16>, fp8.reason = "heuristic: expert-count linear (N = 8) feeding softmax/sigmoid/top-k", fp8.role = #fp8.role<gating>}
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func private @route_probs(%l: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %e = tensor.empty() : tensor<16x8xf32>
  %p = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%l : tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x2 = math.exp %in : f32
    linalg.yield %x2 : f32
  } -> tensor<16x8xf32>
  return %p : tensor<16x8xf32>
}
func.func @router_softmax_callee(%x: tensor<16x256xf32>, %w: tensor<256x8xf32>) -> tensor<16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %logits = linalg.matmul ins(%x, %w : tensor<16x256xf32>, tensor<256x8xf32>) outs(%f : tensor<16x8xf32>) -> tensor<16x8xf32>
  %p = func.call @route_probs(%logits) : (tensor<16x8xf32>) -> tensor<16x8xf32>
  return %p : tensor<16x8xf32>
}

// -----

// Attention with a padding mask: the scores q * k^T get a per-key [S] mask
// (a function argument broadcast over the queries) added before the
// softmax. The add reads a contraction and a broadcast parameter, the shape
// of a linear's bias add, but the contraction is attention's: the add is
// part of the attention region. (After a projection, the same add is the
// linear's bias: assign-precision.mlir.)
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-LABEL: func.func @attention_padding_mask
// CHECK-COUNT-3: fp8.role = #fp8.role<linear>
// CHECK: linalg.generic
// CHECK-SAME: fp8.role = #fp8.role<attention>
// CHECK: linalg.matmul {fp8.precision = #fp8.precision<bf16>, fp8.reason = "heuristic: contraction of two activations", fp8.role = #fp8.role<attention>}
// CHECK: linalg.generic
// CHECK-SAME: fp8.reason = "heuristic: between contractions feeding attention (softmax, scale, mask, RoPE, head reshapes)", fp8.role = #fp8.role<attention>
// CHECK: linalg.generic
// CHECK-SAME: fp8.role = #fp8.role<attention>
// CHECK: linalg.matmul {fp8.precision = #fp8.precision<bf16>, fp8.reason = "heuristic: contraction of two activations", fp8.role = #fp8.role<attention>}
func.func @attention_padding_mask(%x: tensor<16x64xf32>, %wq: tensor<64x64xf32>, %wk: tensor<64x64xf32>, %wv: tensor<64x64xf32>, %mask: tensor<16xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %q = linalg.matmul ins(%x, %wq : tensor<16x64xf32>, tensor<64x64xf32>) outs(%f : tensor<16x64xf32>) -> tensor<16x64xf32>
  %k = linalg.matmul ins(%x, %wk : tensor<16x64xf32>, tensor<64x64xf32>) outs(%f : tensor<16x64xf32>) -> tensor<16x64xf32>
  %v = linalg.matmul ins(%x, %wv : tensor<16x64xf32>, tensor<64x64xf32>) outs(%f : tensor<16x64xf32>) -> tensor<16x64xf32>
  %et = tensor.empty() : tensor<64x16xf32>
  %kt = linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]} ins(%k : tensor<16x64xf32>) outs(%et : tensor<64x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<64x16xf32>
  %es = tensor.empty() : tensor<16x16xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%es : tensor<16x16xf32>) -> tensor<16x16xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<16x64xf32>, tensor<64x16xf32>) outs(%fs : tensor<16x16xf32>) -> tensor<16x16xf32>
  %masked = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %mask : tensor<16x16xf32>, tensor<16xf32>) outs(%es : tensor<16x16xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %a = arith.addf %in, %m : f32
    linalg.yield %a : f32
  } -> tensor<16x16xf32>
  %p = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%masked : tensor<16x16xf32>) outs(%es : tensor<16x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x2 = math.exp %in : f32
    linalg.yield %x2 : f32
  } -> tensor<16x16xf32>
  %o = linalg.matmul ins(%p, %v : tensor<16x16xf32>, tensor<16x64xf32>) outs(%f : tensor<16x64xf32>) -> tensor<16x64xf32>
  return %o : tensor<16x64xf32>
}

// -----

// A joint training step under autocast: the weight gradient reads dYᵀ
// through one generic that transposes dY and rounds it to bf16 (torch-mlir
// fuses `.t()` and `.to(bf16)` into one linalg.generic), and x through a
// bf16 cast. A transposing cast is a transpose: dW = dYᵀ x contracts both
// operands along the tokens, the weight gradient (docs/training.md), not a
// linear of the argument x.
#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-LABEL: func.func @autocast_transposing_cast
// CHECK: linalg.matmul {fp8.gemm = #fp8.gemm<fprop>{{.*}}-> tensor<256x384xf32>
// CHECK: linalg.matmul {fp8.gemm = #fp8.gemm<dgrad>{{.*}}-> tensor<256x128xf32>
// CHECK: linalg.matmul {fp8.gemm = #fp8.gemm<wgrad>{{.*}}-> tensor<384x128xf32>
func.func @autocast_transposing_cast(%x: tensor<256x128xf32>, %w: tensor<384x128xf32>, %dy: tensor<256x384xf32>)
    -> (tensor<256x384xf32>, tensor<256x128xf32>, tensor<384x128xf32>) {
  %c0 = arith.constant 0.0 : f32
  %ewt = tensor.empty() : tensor<128x384xf32>
  %wt = linalg.transpose ins(%w : tensor<384x128xf32>) outs(%ewt : tensor<128x384xf32>) permutation = [1, 0]
  %ey = tensor.empty() : tensor<256x384xf32>
  %zy = linalg.fill ins(%c0 : f32) outs(%ey : tensor<256x384xf32>) -> tensor<256x384xf32>
  %y = linalg.matmul ins(%x, %wt : tensor<256x128xf32>, tensor<128x384xf32>) outs(%zy : tensor<256x384xf32>) -> tensor<256x384xf32>
  %edx = tensor.empty() : tensor<256x128xf32>
  %zdx = linalg.fill ins(%c0 : f32) outs(%edx : tensor<256x128xf32>) -> tensor<256x128xf32>
  %dx = linalg.matmul ins(%dy, %w : tensor<256x384xf32>, tensor<384x128xf32>) outs(%zdx : tensor<256x128xf32>) -> tensor<256x128xf32>
  %edyt = tensor.empty() : tensor<384x256xbf16>
  %dyt = linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]} ins(%dy : tensor<256x384xf32>) outs(%edyt : tensor<384x256xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %t = arith.truncf %in : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<384x256xbf16>
  %exb = tensor.empty() : tensor<256x128xbf16>
  %xb = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<256x128xf32>) outs(%exb : tensor<256x128xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %t = arith.truncf %in : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<256x128xbf16>
  %edw = tensor.empty() : tensor<384x128xf32>
  %zdw = linalg.fill ins(%c0 : f32) outs(%edw : tensor<384x128xf32>) -> tensor<384x128xf32>
  %dw = linalg.matmul ins(%dyt, %xb : tensor<384x256xbf16>, tensor<256x128xbf16>) outs(%zdw : tensor<384x128xf32>) -> tensor<384x128xf32>
  return %y, %dx, %dw : tensor<256x384xf32>, tensor<256x128xf32>, tensor<384x128xf32>
}
