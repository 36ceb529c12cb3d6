// RUN: fp8-opt %s -split-input-file -fp8-assign-precision -fp8-insert-quant 2>/dev/null | FileCheck %s
// RUN: fp8-opt %s -split-input-file -fp8-assign-precision -fp8-insert-quant -verify-diagnostics -o /dev/null
// RUN: fp8-opt %s -split-input-file -fp8-assign-precision -fp8-insert-quant -fp8-report -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=REPORT
// RUN: fp8-opt %s -split-input-file -fp8-assign-precision -fp8-insert-quant -fp8-report=tokens=1000 -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=TOKENS
// RUN: not fp8-opt %s -fp8-report=tokens=-1 -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADTOKENS

// Linears with a dynamic token dimension are rewritten: M (batch and
// sequence collapsed into it) is a run-time value, N and K (the weight's
// shape) are static. The report counts their FLOPs per token (2*N*K per row
// of M) or at tokens=T.

// CHECK-LABEL: func.func @batch_and_sequence_dynamic
// CHECK-SAME: (%[[X:.*]]: tensor<?x?x1024xbf16>
// CHECK: %[[C:.*]] = tensor.collapse_shape %[[X]] {{\[\[}}0, 1], [2]] : tensor<?x?x1024xbf16> into tensor<?x1024xbf16>
// CHECK: fp8.quantize %[[C]] : tensor<?x1024xbf16> -> !fp8.scaled<?x1024xf8E4M3FN, block = [1, 128], scale = f32>
// CHECK: fp8.quantize %{{.*}} : tensor<2048x1024xbf16> -> !fp8.scaled<2048x1024xf8E4M3FN, block = [128, 128], scale = f32>
// CHECK: %[[Y:.*]] = fp8.scaled_matmul {{.*}} -> tensor<?x2048xf32>
// CHECK: tensor.expand_shape %[[Y]] {{\[\[}}0, 1], [2]] output_shape [%{{.*}}, %{{.*}}, 2048] : tensor<?x2048xf32> into tensor<?x?x2048xf32>
// REPORT: fp8.scaled_matmul {{.*}} linear fp8 ?x2048x1024 4.19 MFLOP/tok
// REPORT: matmul FLOPs: 0 FLOP + 4.19 MFLOP per token
// REPORT: in FP8: 0 FLOP + 4.19 MFLOP per token (100.0% of the per-token FLOPs)
// TOKENS: fp8.scaled_matmul {{.*}} linear fp8 ?x2048x1024 4.19 GFLOP
// TOKENS: matmul FLOPs: 4.19 GFLOP
// TOKENS: in FP8: 4.19 GFLOP (100.0%)
// BADTOKENS: fp8-report: option tokens=-1 is negative (expected a token count, or 0 for per-token FLOPs)
func.func @batch_and_sequence_dynamic(%x: tensor<?x?x1024xbf16>, %w: tensor<1024x2048xbf16>) -> tensor<?x?x2048xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b = tensor.dim %x, %c0 : tensor<?x?x1024xbf16>
  %s = tensor.dim %x, %c1 : tensor<?x?x1024xbf16>
  %e = tensor.empty(%b, %s) : tensor<?x?x2048xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<?x?x2048xf32>) -> tensor<?x?x2048xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(b, s, n, k) -> (b, s, k)>, affine_map<(b, s, n, k) -> (k, n)>, affine_map<(b, s, n, k) -> (b, s, n)>],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<?x?x1024xbf16>, tensor<1024x2048xbf16>) outs(%f : tensor<?x?x2048xf32>) {
  ^bb0(%a: bf16, %bb: bf16, %o: f32):
    %ae = arith.extf %a : bf16 to f32
    %be = arith.extf %bb : bf16 to f32
    %m = arith.mulf %ae, %be : f32
    %r = arith.addf %o, %m : f32
    linalg.yield %r : f32
  } -> tensor<?x?x2048xf32>
  return %y : tensor<?x?x2048xf32>
}

// -----

// A dynamic K (a weight whose shape is not known): left in high precision,
// with a remark, and its attributes say so (the report never counts it FP8).
// CHECK-LABEL: func.func @dynamic_k
// CHECK: linalg.matmul {fp8.precision = #fp8.precision<f32>, fp8.reason = "heuristic: contraction with a weight (function argument); fp8 not applied: dynamic N or K (only the token dimensions may be dynamic)", fp8.role = #fp8.role<linear>}
// REPORT: linalg.matmul {{.*}} linear f32 16x512x?
func.func @dynamic_k(%x: tensor<16x?xf32>, %w: tensor<?x512xf32>, %init: tensor<16x512xf32>) -> tensor<16x512xf32> {
  // expected-remark @+1 {{fp8-insert-quant: linear left in high precision: dynamic N or K}}
  %y = linalg.matmul ins(%x, %w : tensor<16x?xf32>, tensor<?x512xf32>) outs(%init : tensor<16x512xf32>) -> tensor<16x512xf32>
  return %y : tensor<16x512xf32>
}

// -----

// torch-mlir's BERT linear with a run-time batch and sequence: [B, S, K]
// times one static [K, N] weight broadcast to [B, K, N] (a copy generic). B
// is a token dimension like S: the linear is one [B * S, K] x [N, K] GEMM,
// its result viewed back as [B, S, N] from the init's sizes. Only the
// broadcast weight must be static, not the [B, K, N] operand.
// CHECK-LABEL: func.func @broadcast_weight_dynamic_batch
// CHECK: %[[X:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2]] : tensor<?x?x256xf32> into tensor<?x256xf32>
// CHECK: %[[QX:.*]] = fp8.quantize %[[X]] : tensor<?x256xf32> -> !fp8.scaled<?x256xf8E4M3FN, block = [1, 128], scale = f32>
// CHECK: %[[WT:.*]] = linalg.transpose ins(%{{.*}} : tensor<256x512xf32>)
// CHECK: %[[QW:.*]] = fp8.quantize %[[WT]] : tensor<512x256xf32> -> !fp8.scaled<512x256xf8E4M3FN, block = [128, 128], scale = f32>
// CHECK: %[[D:.*]] = fp8.scaled_matmul %[[QX]], %[[QW]] {{.*}} -> tensor<?x512xf32>
// CHECK: tensor.expand_shape %[[D]] {{\[\[}}0, 1], [2]] output_shape [%{{.*}}, %{{.*}}, 512] : tensor<?x512xf32> into tensor<?x?x512xf32>
// CHECK-NOT: linalg.batch_matmul
// REPORT: fp8.scaled_matmul {{.*}} linear fp8 ?x512x256
func.func @broadcast_weight_dynamic_batch(%x: tensor<?x?x256xf32>, %w: tensor<256x512xf32>) -> tensor<?x?x512xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %b = tensor.dim %x, %c0 : tensor<?x?x256xf32>
  %s = tensor.dim %x, %c1 : tensor<?x?x256xf32>
  %ew = tensor.empty(%b) : tensor<?x256x512xf32>
  %wb = linalg.generic {indexing_maps = [affine_map<(g, k, n) -> (k, n)>, affine_map<(g, k, n) -> (g, k, n)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w : tensor<256x512xf32>) outs(%ew : tensor<?x256x512xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<?x256x512xf32>
  %e = tensor.empty(%b, %s) : tensor<?x?x512xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?x512xf32>) -> tensor<?x?x512xf32>
  %y = linalg.batch_matmul ins(%x, %wb : tensor<?x?x256xf32>, tensor<?x256x512xf32>) outs(%f : tensor<?x?x512xf32>) -> tensor<?x?x512xf32>
  return %y : tensor<?x?x512xf32>
}

// -----

// The same with the batch static (B = 2) and the sequence dynamic: the
// batch loop is a token dimension too.
// CHECK-LABEL: func.func @broadcast_weight_dynamic_sequence
// CHECK: fp8.scaled_matmul {{.*}} -> tensor<?x512xf32>
// CHECK: tensor.expand_shape {{.*}} into tensor<2x?x512xf32>
// CHECK-NOT: linalg.batch_matmul
func.func @broadcast_weight_dynamic_sequence(%x: tensor<2x?x256xf32>, %w: tensor<256x512xf32>) -> tensor<2x?x512xf32> {
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %s = tensor.dim %x, %c1 : tensor<2x?x256xf32>
  %ew = tensor.empty() : tensor<2x256x512xf32>
  %wb = linalg.broadcast ins(%w : tensor<256x512xf32>) outs(%ew : tensor<2x256x512xf32>) dimensions = [0]
  %e = tensor.empty(%s) : tensor<2x?x512xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x?x512xf32>) -> tensor<2x?x512xf32>
  %y = linalg.batch_matmul ins(%x, %wb : tensor<2x?x256xf32>, tensor<2x256x512xf32>) outs(%f : tensor<2x?x512xf32>) -> tensor<2x?x512xf32>
  return %y : tensor<2x?x512xf32>
}

// -----

// Per-batch operands [B, K, N] passed as an argument, with a dynamic B: not
// one broadcast weight (ambiguous with a KV cache), so not a linear over
// B * S tokens; left in high precision.
// CHECK-LABEL: func.func @per_batch_weights_dynamic
// CHECK: linalg.batch_matmul
// CHECK-NOT: fp8.scaled_matmul
func.func @per_batch_weights_dynamic(%x: tensor<?x?x256xf32>, %w: tensor<?x256x512xf32>, %init: tensor<?x?x512xf32>) -> tensor<?x?x512xf32> {
  %y = linalg.batch_matmul ins(%x, %w : tensor<?x?x256xf32>, tensor<?x256x512xf32>) outs(%init : tensor<?x?x512xf32>) -> tensor<?x?x512xf32>
  return %y : tensor<?x?x512xf32>
}
