// RUN: fp8-opt %s -split-input-file -fp8-cache-activations -verify-diagnostics | FileCheck %s

// FP8 activation caching (fp8-cache-activations) on the output of
// fp8-insert-quant: a split step whose forward quantizes X 1x128 for its
// Fprop and returns X, and whose backward quantizes the argument X 128x1
// for its Wgrad. The forward returns the Fprop's codes and scales instead
// and the backward requantizes them into the Wgrad's layout.

// CHECK-LABEL: func.func @forward
// CHECK-SAME: -> (tensor<128x128xf32>, tensor<128x256xf8E4M3FN> {fp8.cached = tensor<128x256xf32>}, tensor<128x2xf32>)
// CHECK: %[[QX:.*]] = fp8.quantize %arg0 : tensor<128x256xf32> -> !fp8.scaled<128x256xf8E4M3FN, block = [1, 128], scale = f32>
// CHECK: %[[Y:.*]] = fp8.scaled_matmul %[[QX]]
// CHECK: %[[CODES:.*]], %[[SCALES:.*]] = fp8.disassemble %[[QX]]
// CHECK: return %[[Y]], %[[CODES]], %[[SCALES]] : tensor<128x128xf32>, tensor<128x256xf8E4M3FN>, tensor<128x2xf32>
// CHECK-LABEL: func.func @backward
// CHECK-SAME: (%[[C:.*]]: tensor<128x256xf8E4M3FN> {fp8.cached = tensor<128x256xf32>}, %[[S:.*]]: tensor<128x2xf32>, %[[DY:.*]]: tensor<128x128xf32>)
// CHECK: %[[A:.*]] = fp8.assemble %[[C]], %[[S]] : tensor<128x256xf8E4M3FN>, tensor<128x2xf32> -> !fp8.scaled<128x256xf8E4M3FN, block = [1, 128], scale = f32>
// CHECK-NOT: fp8.quantize %[[C]]
// CHECK: %[[R:.*]] = fp8.requantize %[[A]] : !fp8.scaled<128x256xf8E4M3FN, block = [1, 128], scale = f32> -> !fp8.scaled<128x256xf8E4M3FN, block = [128, 1], scale = f32>
// CHECK: fp8.disassemble %[[R]]
// CHECK-LABEL: func.func @step
// CHECK: %[[F:.*]]:3 = call @forward(%arg0, %arg1) : (tensor<128x256xf32>, tensor<128x256xf32>) -> (tensor<128x128xf32>, tensor<128x256xf8E4M3FN>, tensor<128x2xf32>)
// CHECK: %[[B:.*]] = call @backward(%[[F]]#1, %[[F]]#2, %arg2) : (tensor<128x256xf8E4M3FN>, tensor<128x2xf32>, tensor<128x128xf32>) -> tensor<128x256xf32>
// CHECK: return %[[F]]#0, %[[B]]
func.func @forward(%x: tensor<128x256xf32>, %w: tensor<128x256xf32>) -> (tensor<128x128xf32>, tensor<128x256xf32>) {
  %qx = fp8.quantize %x : tensor<128x256xf32> -> !fp8.scaled<128x256xf8E4M3FN, block = [1, 128], scale = f32>
  %qw = fp8.quantize %w : tensor<128x256xf32> -> !fp8.scaled<128x256xf8E4M3FN, block = [128, 128], scale = f32>
  %y = fp8.scaled_matmul %qx, %qw : !fp8.scaled<128x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<128x256xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<128x128xf32>
  return %y, %x : tensor<128x128xf32>, tensor<128x256xf32>
}
func.func @backward(%x: tensor<128x256xf32>, %dy: tensor<128x128xf32>) -> tensor<128x256xf32> {
  %q = fp8.quantize %x {eps = 1.0e-4 : f32} : tensor<128x256xf32> -> !fp8.scaled<128x256xf8E4M3FN, block = [128, 1], scale = f32>
  %d, %s = fp8.disassemble %q : !fp8.scaled<128x256xf8E4M3FN, block = [128, 1], scale = f32>
  %e0 = tensor.empty() : tensor<256x128xf8E4M3FN>
  %dt = linalg.transpose ins(%d : tensor<128x256xf8E4M3FN>) outs(%e0 : tensor<256x128xf8E4M3FN>) permutation = [1, 0]
  %e1 = tensor.empty() : tensor<256x1xf32>
  %st = linalg.transpose ins(%s : tensor<1x256xf32>) outs(%e1 : tensor<256x1xf32>) permutation = [1, 0]
  %xt = fp8.assemble %dt, %st : tensor<256x128xf8E4M3FN>, tensor<256x1xf32> -> !fp8.scaled<256x128xf8E4M3FN, block = [1, 128], scale = f32>
  %qdy = fp8.quantize %dy : tensor<128x128xf32> -> !fp8.scaled<128x128xf8E4M3FN, block = [1, 128], scale = f32>
  %dw = fp8.scaled_matmul %xt, %qdy : !fp8.scaled<256x128xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<128x128xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<256x128xf32>
  %e2 = tensor.empty() : tensor<128x256xf32>
  %dwt = linalg.transpose ins(%dw : tensor<256x128xf32>) outs(%e2 : tensor<128x256xf32>) permutation = [1, 0]
  return %dwt : tensor<128x256xf32>
}
func.func @step(%x: tensor<128x256xf32>, %w: tensor<128x256xf32>, %dy: tensor<128x128xf32>) -> (tensor<128x128xf32>, tensor<128x256xf32>) {
  %r:2 = call @forward(%x, %w) : (tensor<128x256xf32>, tensor<128x256xf32>) -> (tensor<128x128xf32>, tensor<128x256xf32>)
  %g = call @backward(%r#1, %dy) : (tensor<128x256xf32>, tensor<128x128xf32>) -> tensor<128x256xf32>
  return %r#0, %g : tensor<128x128xf32>, tensor<128x256xf32>
}

// -----

// Without a caller: the `fp8.saved` names link result 1 of @fwd to
// argument 0 of @bwd. Argument 1 (a norm statistic, read in high
// precision, no Wgrad's X) is linked too and left alone, without a remark.
// CHECK-LABEL: func.func @fwd
// CHECK-SAME: -> (tensor<128x256xf8E4M3FN> {fp8.cached = tensor<128x256xf32>}, tensor<128x2xf32>, tensor<128xf32> {fp8.saved = "rstd"})
// CHECK: %[[CODES:.*]], %[[SCALES:.*]] = fp8.disassemble
// CHECK: return %[[CODES]], %[[SCALES]], %arg1
// CHECK-LABEL: func.func @bwd
// CHECK-SAME: (%{{.*}}: tensor<128x256xf8E4M3FN> {fp8.cached = tensor<128x256xf32>}, %{{.*}}: tensor<128x2xf32>, %[[R:.*]]: tensor<128xf32> {fp8.saved = "rstd"})
// CHECK: fp8.requantize
// CHECK-NOT: fp8.quantize
func.func @fwd(%x: tensor<128x256xf32>, %rstd: tensor<128xf32>) -> (tensor<128x256xf32> {fp8.saved = "x"}, tensor<128xf32> {fp8.saved = "rstd"}) {
  %qx = fp8.quantize %x : tensor<128x256xf32> -> !fp8.scaled<128x256xf8E4M3FN, block = [1, 128], scale = f32>
  %y = fp8.dequantize %qx : !fp8.scaled<128x256xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<128x256xf32>
  return %x, %rstd : tensor<128x256xf32>, tensor<128xf32>
}
func.func @bwd(%x: tensor<128x256xf32> {fp8.saved = "x"}, %rstd: tensor<128xf32> {fp8.saved = "rstd"}) -> (tensor<128x256xf32>, tensor<128xf32>) {
  %q = fp8.quantize %x : tensor<128x256xf32> -> !fp8.scaled<128x256xf8E4M3FN, block = [128, 1], scale = f32>
  %d = fp8.dequantize %q : !fp8.scaled<128x256xf8E4M3FN, block = [128, 1], scale = f32> -> tensor<128x256xf32>
  %n = arith.negf %rstd : tensor<128xf32>
  return %d, %n : tensor<128x256xf32>, tensor<128xf32>
}

// -----

// The backward also reads X in high precision (as a ReLU mask would): the
// exact values are needed, X stays high.
// CHECK-LABEL: func.func @fwd_mask
// CHECK-SAME: -> (tensor<128x128xf32>, tensor<128x128xf32>)
// CHECK-NOT: fp8.disassemble
// CHECK-LABEL: func.func @bwd_mask
// CHECK-SAME: (%{{.*}}: tensor<128x128xf32>)
// CHECK: fp8.quantize
// CHECK-NOT: fp8.requantize
func.func @fwd_mask(%x: tensor<128x128xf32>) -> (tensor<128x128xf32>, tensor<128x128xf32>) {
  %qx = fp8.quantize %x : tensor<128x128xf32> -> !fp8.scaled<128x128xf8E4M3FN, block = [1, 128], scale = f32>
  %y = fp8.dequantize %qx : !fp8.scaled<128x128xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<128x128xf32>
  // expected-remark @below {{fp8-cache-activations: result 1 of @fwd_mask stays in high precision: the backward also reads it in high precision (arith.negf)}}
  return %y, %x : tensor<128x128xf32>, tensor<128x128xf32>
}
func.func @bwd_mask(%x: tensor<128x128xf32>) -> (tensor<128x128xf32>, tensor<128x128xf32>) {
  %q = fp8.quantize %x : tensor<128x128xf32> -> !fp8.scaled<128x128xf8E4M3FN, block = [128, 1], scale = f32>
  %d = fp8.dequantize %q : !fp8.scaled<128x128xf8E4M3FN, block = [128, 1], scale = f32> -> tensor<128x128xf32>
  %n = arith.negf %x : tensor<128x128xf32>
  return %d, %n : tensor<128x128xf32>, tensor<128x128xf32>
}
func.func @step_mask(%x: tensor<128x128xf32>) -> (tensor<128x128xf32>, tensor<128x128xf32>) {
  %r:2 = call @fwd_mask(%x) : (tensor<128x128xf32>) -> (tensor<128x128xf32>, tensor<128x128xf32>)
  %g:2 = call @bwd_mask(%r#1) : (tensor<128x128xf32>) -> (tensor<128x128xf32>, tensor<128x128xf32>)
  return %g#0, %g#1 : tensor<128x128xf32>, tensor<128x128xf32>
}

// -----

// The forward never quantizes the value it returns (its Fprop read another
// tensor): there are no FP8 codes to return.
// CHECK-LABEL: func.func @fwd_unquantized
// CHECK-SAME: -> tensor<128x128xf32>
// CHECK-LABEL: func.func @bwd_unquantized
// CHECK-SAME: (%{{.*}}: tensor<128x128xf32>)
func.func @fwd_unquantized(%x: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %h = arith.negf %x : tensor<128x128xf32>
  // expected-remark @below {{fp8-cache-activations: result 0 of @fwd_unquantized stays in high precision: the forward does not quantize it (no fp8.quantize of the returned value)}}
  return %h : tensor<128x128xf32>
}
func.func @bwd_unquantized(%h: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %q = fp8.quantize %h : tensor<128x128xf32> -> !fp8.scaled<128x128xf8E4M3FN, block = [128, 1], scale = f32>
  %d = fp8.dequantize %q : !fp8.scaled<128x128xf8E4M3FN, block = [128, 1], scale = f32> -> tensor<128x128xf32>
  return %d : tensor<128x128xf32>
}
func.func @step_unquantized(%x: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %r = call @fwd_unquantized(%x) : (tensor<128x128xf32>) -> tensor<128x128xf32>
  %g = call @bwd_unquantized(%r) : (tensor<128x128xf32>) -> tensor<128x128xf32>
  return %g : tensor<128x128xf32>
}

// -----

// The caller also returns X: it must stay a high-precision result.
// CHECK-LABEL: func.func @fwd_escapes
// CHECK-SAME: -> tensor<128x128xf32>
// CHECK-LABEL: func.func @step_escapes
// CHECK: call @bwd_escapes(%{{.*}}) : (tensor<128x128xf32>)
func.func @fwd_escapes(%x: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %qx = fp8.quantize %x : tensor<128x128xf32> -> !fp8.scaled<128x128xf8E4M3FN, block = [1, 128], scale = f32>
  %y = fp8.dequantize %qx : !fp8.scaled<128x128xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<128x128xf32>
  // expected-remark @below {{fp8-cache-activations: result 0 of @fwd_escapes stays in high precision: a call of the forward or the backward does not pass it straight from one to the other}}
  return %x : tensor<128x128xf32>
}
func.func @bwd_escapes(%x: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %q = fp8.quantize %x : tensor<128x128xf32> -> !fp8.scaled<128x128xf8E4M3FN, block = [128, 1], scale = f32>
  %d = fp8.dequantize %q : !fp8.scaled<128x128xf8E4M3FN, block = [128, 1], scale = f32> -> tensor<128x128xf32>
  return %d : tensor<128x128xf32>
}
func.func @step_escapes(%x: tensor<128x128xf32>) -> (tensor<128x128xf32>, tensor<128x128xf32>) {
  %r = call @fwd_escapes(%x) : (tensor<128x128xf32>) -> tensor<128x128xf32>
  %g = call @bwd_escapes(%r) : (tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r, %g : tensor<128x128xf32>, tensor<128x128xf32>
}

// -----

// A backward without a body (a declaration) named by `fp8.saved`: nothing
// to rewrite, both signatures stay.
// CHECK-LABEL: func.func @fwd_to_decl
// CHECK-SAME: -> (tensor<128x128xf32> {fp8.saved = "x"})
// CHECK-NOT: fp8.disassemble
// CHECK-LABEL: func.func private @bwd_decl
// CHECK-SAME: (tensor<128x128xf32> {fp8.saved = "x"})
func.func @fwd_to_decl(%x: tensor<128x128xf32>) -> (tensor<128x128xf32> {fp8.saved = "x"}) {
  %qx = fp8.quantize %x : tensor<128x128xf32> -> !fp8.scaled<128x128xf8E4M3FN, block = [1, 128], scale = f32>
  %y = fp8.dequantize %qx : !fp8.scaled<128x128xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<128x128xf32>
  return %x : tensor<128x128xf32>
}
func.func private @bwd_decl(tensor<128x128xf32> {fp8.saved = "x"}) -> tensor<128x128xf32>
