// RUN: fp8-opt %s -split-input-file -fp8-assign-precision | FileCheck %s

// What makes a vocabulary-sized linear the output head is the data flow,
// not its size: its logits reach a function result (returned, or the loss)
// and flow into no contraction but the head's own gradients. A linear as
// wide as the vocabulary (V = 64 here: hidden or SwiGLU width = V, as with
// byte tokens) whose result also reaches a result (a returned hidden state,
// a split forward's saved activation, a joint graph's norm-weight gradient)
// feeds the next layer first: a linear, in FP8.

#id = affine_map<(d0, d1) -> (d0, d1)>
#ids = affine_map<(d0, d1) -> (d0)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>

// Inference returning the logits and the last hidden state (HF's
// output_hidden_states): the residual-stream linear reaches a result too.
// CHECK-LABEL: func.func @inference_hidden_state
// CHECK: linalg.matmul {fp8.precision = #fp8.precision<fp8>, fp8.reason = "heuristic: contraction with a weight (function argument)", fp8.role = #fp8.role<linear>}
// CHECK: linalg.matmul {fp8.precision = #fp8.precision<bf16>, fp8.reason = "heuristic: vocabulary-sized linear (N = 64) reaching a function result", fp8.role = #fp8.role<output_head>}
func.func @inference_hidden_state(%tok: tensor<8xi64>, %table: tensor<64x64xf32>, %w: tensor<64x64xf32>, %head: tensor<64x64xf32>) -> (tensor<8x64xf32>, tensor<8x64xf32>) {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x64xf32>
  %x = linalg.generic {indexing_maps = [#ids, #id], iterator_types = ["parallel", "parallel"]}
      ins(%tok : tensor<8xi64>) outs(%e : tensor<8x64xf32>) {
  ^bb0(%t: i64, %o: f32):
    %r = arith.index_cast %t : i64 to index
    %c = linalg.index 1 : index
    %v = tensor.extract %table[%r, %c] : tensor<64x64xf32>
    linalg.yield %v : f32
  } -> tensor<8x64xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<8x64xf32>) -> tensor<8x64xf32>
  %h = linalg.matmul ins(%x, %w : tensor<8x64xf32>, tensor<64x64xf32>) outs(%z : tensor<8x64xf32>) -> tensor<8x64xf32>
  %res = linalg.add ins(%x, %h : tensor<8x64xf32>, tensor<8x64xf32>) outs(%e : tensor<8x64xf32>) -> tensor<8x64xf32>
  %logits = linalg.matmul ins(%res, %head : tensor<8x64xf32>, tensor<64x64xf32>) outs(%z : tensor<8x64xf32>) -> tensor<8x64xf32>
  return %logits, %res : tensor<8x64xf32>, tensor<8x64xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#ids = affine_map<(d0, d1) -> (d0)>
#sum = affine_map<(d0, d1) -> ()>

// A split forward (aot_autograd's partition) returns the loss and the
// activations the backward saves, the MLP's vocabulary-wide hidden h among
// them: h and the projection after it are linears; the head, whose logits
// feed the loss (a sum over exp(logits), the log-sum-exp's shape), is the
// output head.
// CHECK-LABEL: func.func @split_forward
// CHECK: linalg.matmul {fp8.precision = #fp8.precision<fp8>, fp8.reason = "heuristic: contraction with a weight (function argument)", fp8.role = #fp8.role<linear>}
// CHECK: linalg.matmul {fp8.precision = #fp8.precision<fp8>, fp8.reason = "heuristic: contraction with a weight (function argument)", fp8.role = #fp8.role<linear>}
// CHECK: linalg.matmul {fp8.precision = #fp8.precision<bf16>, fp8.reason = "heuristic: vocabulary-sized linear (N = 64) reaching a function result", fp8.role = #fp8.role<output_head>}
func.func @split_forward(%tok: tensor<8xi64>, %table: tensor<64x32xf32>, %w1: tensor<32x64xf32>, %w2: tensor<64x32xf32>, %head: tensor<32x64xf32>) -> (tensor<f32>, tensor<8x32xf32>, tensor<8x64xf32>, tensor<8x32xf32>) {
  %c0 = arith.constant 0.0 : f32
  %e32 = tensor.empty() : tensor<8x32xf32>
  %e64 = tensor.empty() : tensor<8x64xf32>
  %x = linalg.generic {indexing_maps = [#ids, #id], iterator_types = ["parallel", "parallel"]}
      ins(%tok : tensor<8xi64>) outs(%e32 : tensor<8x32xf32>) {
  ^bb0(%t: i64, %o: f32):
    %r = arith.index_cast %t : i64 to index
    %c = linalg.index 1 : index
    %v = tensor.extract %table[%r, %c] : tensor<64x32xf32>
    linalg.yield %v : f32
  } -> tensor<8x32xf32>
  %z64 = linalg.fill ins(%c0 : f32) outs(%e64 : tensor<8x64xf32>) -> tensor<8x64xf32>
  %z32 = linalg.fill ins(%c0 : f32) outs(%e32 : tensor<8x32xf32>) -> tensor<8x32xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<8x32xf32>, tensor<32x64xf32>) outs(%z64 : tensor<8x64xf32>) -> tensor<8x64xf32>
  %a = linalg.max ins(%h, %z64 : tensor<8x64xf32>, tensor<8x64xf32>) outs(%e64 : tensor<8x64xf32>) -> tensor<8x64xf32>
  %y = linalg.matmul ins(%a, %w2 : tensor<8x64xf32>, tensor<64x32xf32>) outs(%z32 : tensor<8x32xf32>) -> tensor<8x32xf32>
  %logits = linalg.matmul ins(%y, %head : tensor<8x32xf32>, tensor<32x64xf32>) outs(%z64 : tensor<8x64xf32>) -> tensor<8x64xf32>
  %s0 = tensor.empty() : tensor<f32>
  %sz = linalg.fill ins(%c0 : f32) outs(%s0 : tensor<f32>) -> tensor<f32>
  %loss = linalg.generic {indexing_maps = [#id, #sum], iterator_types = ["reduction", "reduction"]}
      ins(%logits : tensor<8x64xf32>) outs(%sz : tensor<f32>) {
  ^bb0(%l: f32, %acc: f32):
    %ex = math.exp %l : f32
    %s = arith.addf %acc, %ex : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %loss, %x, %h, %y : tensor<f32>, tensor<8x32xf32>, tensor<8x64xf32>, tensor<8x32xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#ids = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
#sum = affine_map<(d0, d1) -> ()>

// A joint training step (forward, loss gradient, backward in one graph) with
// hidden = V = 64: x = embed(tok), r = x + x W1, n = r * g (a per-channel
// norm weight), logits = n Wh, loss = sum(exp(logits)). The residual
// linear's result reaches the returned dg = sum_t(dn * r) through no
// contraction, as every block's output reaches the norm weights' gradients
// of a Llama step. Its Fprop, Dgrad and Wgrad are linears; the head's three
// GEMMs (logits into the loss; dlogits into its own Dgrad and Wgrad) stay
// high.
// CHECK-LABEL: func.func @joint_step
// CHECK: linalg.matmul {fp8.gemm = #fp8.gemm<fprop>, fp8.precision = #fp8.precision<fp8>, fp8.reason = "heuristic: contraction with a weight (function argument)", fp8.role = #fp8.role<linear>}
// CHECK: linalg.matmul {fp8.gemm = #fp8.gemm<fprop>, fp8.precision = #fp8.precision<bf16>, fp8.reason = "heuristic: vocabulary-sized linear (N = 64) reaching a function result", fp8.role = #fp8.role<output_head>}
// CHECK: linalg.matmul {fp8.gemm = #fp8.gemm<dgrad>, fp8.precision = #fp8.precision<bf16>, fp8.reason = "heuristic: activation gradient of the output_head linear sharing its weight", fp8.role = #fp8.role<output_head>}
// CHECK: linalg.matmul {fp8.gemm = #fp8.gemm<wgrad>, fp8.precision = #fp8.precision<bf16>, fp8.reason = "heuristic: weight gradient of a vocabulary-sized linear (64x64)", fp8.role = #fp8.role<output_head>}
// CHECK: linalg.matmul {fp8.gemm = #fp8.gemm<wgrad>, fp8.precision = #fp8.precision<fp8>, fp8.reason = "heuristic: weight gradient dW = dY^T * X (contraction over the 8 tokens)", fp8.role = #fp8.role<linear>}
// CHECK: linalg.matmul {fp8.gemm = #fp8.gemm<dgrad>, fp8.precision = #fp8.precision<fp8>, fp8.reason = "heuristic: activation gradient dX = dY * W of a linear (weight: function argument)", fp8.role = #fp8.role<linear>}
func.func @joint_step(%tok: tensor<8xi64>, %table: tensor<64x64xf32>, %w1: tensor<64x64xf32>, %g: tensor<64xf32>, %head: tensor<64x64xf32>) -> (tensor<f32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64x64xf32>, tensor<8x64xf32>) {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x64xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<8x64xf32>) -> tensor<8x64xf32>
  %ew = tensor.empty() : tensor<64x64xf32>
  %zw = linalg.fill ins(%c0 : f32) outs(%ew : tensor<64x64xf32>) -> tensor<64x64xf32>
  %x = linalg.generic {indexing_maps = [#ids, #id], iterator_types = ["parallel", "parallel"]}
      ins(%tok : tensor<8xi64>) outs(%e : tensor<8x64xf32>) {
  ^bb0(%t: i64, %o: f32):
    %r = arith.index_cast %t : i64 to index
    %c = linalg.index 1 : index
    %v = tensor.extract %table[%r, %c] : tensor<64x64xf32>
    linalg.yield %v : f32
  } -> tensor<8x64xf32>
  // Forward.
  %w1t = linalg.transpose ins(%w1 : tensor<64x64xf32>) outs(%ew : tensor<64x64xf32>) permutation = [1, 0]
  %h = linalg.matmul ins(%x, %w1t : tensor<8x64xf32>, tensor<64x64xf32>) outs(%z : tensor<8x64xf32>) -> tensor<8x64xf32>
  %res = linalg.add ins(%x, %h : tensor<8x64xf32>, tensor<8x64xf32>) outs(%e : tensor<8x64xf32>) -> tensor<8x64xf32>
  %n = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%res, %g : tensor<8x64xf32>, tensor<64xf32>) outs(%e : tensor<8x64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<8x64xf32>
  %ht = linalg.transpose ins(%head : tensor<64x64xf32>) outs(%ew : tensor<64x64xf32>) permutation = [1, 0]
  %logits = linalg.matmul ins(%n, %ht : tensor<8x64xf32>, tensor<64x64xf32>) outs(%z : tensor<8x64xf32>) -> tensor<8x64xf32>
  %s0 = tensor.empty() : tensor<f32>
  %sz = linalg.fill ins(%c0 : f32) outs(%s0 : tensor<f32>) -> tensor<f32>
  %loss = linalg.generic {indexing_maps = [#id, #sum], iterator_types = ["reduction", "reduction"]}
      ins(%logits : tensor<8x64xf32>) outs(%sz : tensor<f32>) {
  ^bb0(%l: f32, %acc: f32):
    %ex = math.exp %l : f32
    %s = arith.addf %acc, %ex : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  // The loss gradient and the backward.
  %dlogits = linalg.exp ins(%logits : tensor<8x64xf32>) outs(%e : tensor<8x64xf32>) -> tensor<8x64xf32>
  %dn = linalg.matmul ins(%dlogits, %head : tensor<8x64xf32>, tensor<64x64xf32>) outs(%z : tensor<8x64xf32>) -> tensor<8x64xf32>
  %et = tensor.empty() : tensor<64x8xf32>
  %dlt = linalg.transpose ins(%dlogits : tensor<8x64xf32>) outs(%et : tensor<64x8xf32>) permutation = [1, 0]
  %dhead = linalg.matmul ins(%dlt, %n : tensor<64x8xf32>, tensor<8x64xf32>) outs(%zw : tensor<64x64xf32>) -> tensor<64x64xf32>
  %eg = tensor.empty() : tensor<64xf32>
  %zg = linalg.fill ins(%c0 : f32) outs(%eg : tensor<64xf32>) -> tensor<64xf32>
  %dg = linalg.generic {indexing_maps = [#id, #id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%dn, %res : tensor<8x64xf32>, tensor<8x64xf32>) outs(%zg : tensor<64xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  %dres = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dn, %g : tensor<8x64xf32>, tensor<64xf32>) outs(%e : tensor<8x64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<8x64xf32>
  %drt = linalg.transpose ins(%dres : tensor<8x64xf32>) outs(%et : tensor<64x8xf32>) permutation = [1, 0]
  %dw1 = linalg.matmul ins(%drt, %x : tensor<64x8xf32>, tensor<8x64xf32>) outs(%zw : tensor<64x64xf32>) -> tensor<64x64xf32>
  %dxh = linalg.matmul ins(%dres, %w1 : tensor<8x64xf32>, tensor<64x64xf32>) outs(%z : tensor<8x64xf32>) -> tensor<8x64xf32>
  %dx = linalg.add ins(%dxh, %dres : tensor<8x64xf32>, tensor<8x64xf32>) outs(%e : tensor<8x64xf32>) -> tensor<8x64xf32>
  return %loss, %dhead, %dg, %dw1, %dx : tensor<f32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64x64xf32>, tensor<8x64xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// A split backward (no Fprop to pair with) of y = relu(x W1ᵀ) W2ᵀ with a
// 32000-wide hidden layer (>= 32000: vocabulary-sized without an embedding
// in the graph). W1's Dgrad contracts over the 32000 and both Wgrads have a
// 32000 dimension, but dY of W1's GEMMs comes through W2's Dgrad, and W2's
// Wgrad shares its dY with W2's Dgrad, a linear: all four are linears.
// CHECK-LABEL: func.func @split_backward
// CHECK: linalg.matmul {fp8.gemm = #fp8.gemm<dgrad>, fp8.precision = #fp8.precision<fp8>, fp8.reason = "heuristic: activation gradient dX = dY * W of a linear (weight: function argument)", fp8.role = #fp8.role<linear>}
// CHECK: linalg.matmul {fp8.gemm = #fp8.gemm<wgrad>, fp8.precision = #fp8.precision<fp8>, fp8.reason = "heuristic: weight gradient dW = dY^T * X (contraction over the 8 tokens)", fp8.role = #fp8.role<linear>}
// CHECK: linalg.matmul {fp8.gemm = #fp8.gemm<dgrad>, fp8.precision = #fp8.precision<fp8>, fp8.reason = "heuristic: activation gradient dX = dY * W of a linear (weight: function argument)", fp8.role = #fp8.role<linear>}
// CHECK: linalg.matmul {fp8.gemm = #fp8.gemm<wgrad>, fp8.precision = #fp8.precision<fp8>, fp8.reason = "heuristic: weight gradient dW = dY^T * X (contraction over the 8 tokens)", fp8.role = #fp8.role<linear>}
// CHECK-NOT: role<output_head>
func.func @split_backward(%x: tensor<8x64xf32>, %a: tensor<8x32000xf32>, %w1: tensor<32000x64xf32>, %w2: tensor<64x32000xf32>, %dy: tensor<8x64xf32>) -> (tensor<64x32000xf32>, tensor<32000x64xf32>, tensor<8x64xf32>) {
  %c0 = arith.constant 0.0 : f32
  %eh = tensor.empty() : tensor<8x32000xf32>
  %zh = linalg.fill ins(%c0 : f32) outs(%eh : tensor<8x32000xf32>) -> tensor<8x32000xf32>
  %da = linalg.matmul ins(%dy, %w2 : tensor<8x64xf32>, tensor<64x32000xf32>) outs(%zh : tensor<8x32000xf32>) -> tensor<8x32000xf32>
  %e1 = tensor.empty() : tensor<64x8xf32>
  %dyt = linalg.transpose ins(%dy : tensor<8x64xf32>) outs(%e1 : tensor<64x8xf32>) permutation = [1, 0]
  %ew2 = tensor.empty() : tensor<64x32000xf32>
  %zw2 = linalg.fill ins(%c0 : f32) outs(%ew2 : tensor<64x32000xf32>) -> tensor<64x32000xf32>
  %dw2 = linalg.matmul ins(%dyt, %a : tensor<64x8xf32>, tensor<8x32000xf32>) outs(%zw2 : tensor<64x32000xf32>) -> tensor<64x32000xf32>
  // relu'(h) as the mask a > 0.
  %dh = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%da, %a : tensor<8x32000xf32>, tensor<8x32000xf32>) outs(%eh : tensor<8x32000xf32>) {
  ^bb0(%g: f32, %v: f32, %o: f32):
    %pos = arith.cmpf ogt, %v, %c0 : f32
    %r = arith.select %pos, %g, %c0 : f32
    linalg.yield %r : f32
  } -> tensor<8x32000xf32>
  %ex = tensor.empty() : tensor<8x64xf32>
  %zx = linalg.fill ins(%c0 : f32) outs(%ex : tensor<8x64xf32>) -> tensor<8x64xf32>
  %dx = linalg.matmul ins(%dh, %w1 : tensor<8x32000xf32>, tensor<32000x64xf32>) outs(%zx : tensor<8x64xf32>) -> tensor<8x64xf32>
  %e2 = tensor.empty() : tensor<32000x8xf32>
  %dht = linalg.transpose ins(%dh : tensor<8x32000xf32>) outs(%e2 : tensor<32000x8xf32>) permutation = [1, 0]
  %ew1 = tensor.empty() : tensor<32000x64xf32>
  %zw1 = linalg.fill ins(%c0 : f32) outs(%ew1 : tensor<32000x64xf32>) -> tensor<32000x64xf32>
  %dw1 = linalg.matmul ins(%dht, %x : tensor<32000x8xf32>, tensor<8x64xf32>) outs(%zw1 : tensor<32000x64xf32>) -> tensor<32000x64xf32>
  return %dw2, %dw1, %dx : tensor<64x32000xf32>, tensor<32000x64xf32>, tensor<8x64xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#ids = affine_map<(d0, d1) -> (d0)>

// Destination-passing form (results written into memref arguments, the
// function returns nothing): the logits materialized into the caller's
// buffer reach a function result as a returned value would, so the head
// stays high precision. (A returned-value-only rule classified this head
// as an FP8 linear.)
// CHECK-LABEL: func.func @destination_passing_logits
// CHECK: linalg.matmul {fp8.precision = #fp8.precision<bf16>, fp8.reason = "heuristic: vocabulary-sized linear (N = 64) reaching a function result", fp8.role = #fp8.role<output_head>}
func.func @destination_passing_logits(%tokm: memref<8xi64>, %tablem: memref<64x32xf32>, %headm: memref<32x64xf32>, %out: memref<8x64xf32>) {
  %tok = bufferization.to_tensor %tokm restrict : memref<8xi64> to tensor<8xi64>
  %table = bufferization.to_tensor %tablem restrict : memref<64x32xf32> to tensor<64x32xf32>
  %head = bufferization.to_tensor %headm restrict : memref<32x64xf32> to tensor<32x64xf32>
  %c0 = arith.constant 0.0 : f32
  %e32 = tensor.empty() : tensor<8x32xf32>
  %e64 = tensor.empty() : tensor<8x64xf32>
  %x = linalg.generic {indexing_maps = [#ids, #id], iterator_types = ["parallel", "parallel"]}
      ins(%tok : tensor<8xi64>) outs(%e32 : tensor<8x32xf32>) {
  ^bb0(%t: i64, %o: f32):
    %r = arith.index_cast %t : i64 to index
    %c = linalg.index 1 : index
    %v = tensor.extract %table[%r, %c] : tensor<64x32xf32>
    linalg.yield %v : f32
  } -> tensor<8x32xf32>
  %z64 = linalg.fill ins(%c0 : f32) outs(%e64 : tensor<8x64xf32>) -> tensor<8x64xf32>
  %logits = linalg.matmul ins(%x, %head : tensor<8x32xf32>, tensor<32x64xf32>) outs(%z64 : tensor<8x64xf32>) -> tensor<8x64xf32>
  bufferization.materialize_in_destination %logits in restrict writable %out : (tensor<8x64xf32>, memref<8x64xf32>) -> ()
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#ids = affine_map<(d0, d1) -> (d0)>
#sum = affine_map<(d0, d1) -> (0)>

// The loss copied (memref.copy) into a view of the caller's buffer: a view
// of an argument is the caller's memory too.
// CHECK-LABEL: func.func @destination_passing_loss_view
// CHECK: linalg.matmul {fp8.precision = #fp8.precision<bf16>, fp8.reason = "heuristic: vocabulary-sized linear (N = 64) reaching a function result", fp8.role = #fp8.role<output_head>}
func.func @destination_passing_loss_view(%tokm: memref<8xi64>, %tablem: memref<64x32xf32>, %headm: memref<32x64xf32>, %out: memref<4xf32>) {
  %tok = bufferization.to_tensor %tokm restrict : memref<8xi64> to tensor<8xi64>
  %table = bufferization.to_tensor %tablem restrict : memref<64x32xf32> to tensor<64x32xf32>
  %head = bufferization.to_tensor %headm restrict : memref<32x64xf32> to tensor<32x64xf32>
  %c0 = arith.constant 0.0 : f32
  %e32 = tensor.empty() : tensor<8x32xf32>
  %e64 = tensor.empty() : tensor<8x64xf32>
  %x = linalg.generic {indexing_maps = [#ids, #id], iterator_types = ["parallel", "parallel"]}
      ins(%tok : tensor<8xi64>) outs(%e32 : tensor<8x32xf32>) {
  ^bb0(%t: i64, %o: f32):
    %r = arith.index_cast %t : i64 to index
    %c = linalg.index 1 : index
    %v = tensor.extract %table[%r, %c] : tensor<64x32xf32>
    linalg.yield %v : f32
  } -> tensor<8x32xf32>
  %z64 = linalg.fill ins(%c0 : f32) outs(%e64 : tensor<8x64xf32>) -> tensor<8x64xf32>
  %logits = linalg.matmul ins(%x, %head : tensor<8x32xf32>, tensor<32x64xf32>) outs(%z64 : tensor<8x64xf32>) -> tensor<8x64xf32>
  %s0 = tensor.empty() : tensor<1xf32>
  %sz = linalg.fill ins(%c0 : f32) outs(%s0 : tensor<1xf32>) -> tensor<1xf32>
  %loss = linalg.generic {indexing_maps = [#id, #sum], iterator_types = ["reduction", "reduction"]}
      ins(%logits : tensor<8x64xf32>) outs(%sz : tensor<1xf32>) {
  ^bb0(%l: f32, %acc: f32):
    %ex = math.exp %l : f32
    %s = arith.addf %acc, %ex : f32
    linalg.yield %s : f32
  } -> tensor<1xf32>
  %buf = bufferization.to_buffer %loss : tensor<1xf32> to memref<1xf32>
  %view = memref.subview %out[1] [1] [1] : memref<4xf32> to memref<1xf32, strided<[1], offset: 1>>
  memref.copy %buf, %view : memref<1xf32> to memref<1xf32, strided<[1], offset: 1>>
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#ids = affine_map<(d0, d1) -> (d0)>

// Written only into a buffer the function allocates itself: not the
// caller's memory, so nothing reaches a result and the vocabulary-wide
// linear is no head.
// CHECK-LABEL: func.func @local_buffer_only
// CHECK: linalg.matmul {fp8.precision = #fp8.precision<fp8>, fp8.reason = "heuristic: contraction with a weight (global)", fp8.role = #fp8.role<linear>}
func.func @local_buffer_only(%tokm: memref<8xi64>, %tablem: memref<64x32xf32>, %headm: memref<32x64xf32>) {
  %tok = bufferization.to_tensor %tokm restrict : memref<8xi64> to tensor<8xi64>
  %table = bufferization.to_tensor %tablem restrict : memref<64x32xf32> to tensor<64x32xf32>
  %head = bufferization.to_tensor %headm restrict : memref<32x64xf32> to tensor<32x64xf32>
  %c0 = arith.constant 0.0 : f32
  %e32 = tensor.empty() : tensor<8x32xf32>
  %e64 = tensor.empty() : tensor<8x64xf32>
  %x = linalg.generic {indexing_maps = [#ids, #id], iterator_types = ["parallel", "parallel"]}
      ins(%tok : tensor<8xi64>) outs(%e32 : tensor<8x32xf32>) {
  ^bb0(%t: i64, %o: f32):
    %r = arith.index_cast %t : i64 to index
    %c = linalg.index 1 : index
    %v = tensor.extract %table[%r, %c] : tensor<64x32xf32>
    linalg.yield %v : f32
  } -> tensor<8x32xf32>
  %z64 = linalg.fill ins(%c0 : f32) outs(%e64 : tensor<8x64xf32>) -> tensor<8x64xf32>
  %logits = linalg.matmul ins(%x, %head : tensor<8x32xf32>, tensor<32x64xf32>) outs(%z64 : tensor<8x64xf32>) -> tensor<8x64xf32>
  %local = memref.alloc() : memref<8x64xf32>
  bufferization.materialize_in_destination %logits in restrict writable %local : (tensor<8x64xf32>, memref<8x64xf32>) -> ()
  return
}
