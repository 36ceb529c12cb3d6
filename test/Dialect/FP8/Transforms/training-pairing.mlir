// RUN: fp8-opt %s -split-input-file -fp8-assign-precision | FileCheck %s --check-prefix=ROLES
// RUN: fp8-opt %s -split-input-file -fp8-assign-precision=policy=hybrid -fp8-insert-quant | FileCheck %s --check-prefix=HYBRID

// Which GEMM of a training step each contraction is follows the data flow
// (docs/training.md, "How the passes recognise them"), whatever the
// arguments' positions.

#id = affine_map<(d0, d1) -> (d0, d1)>

// The plainest joint graph: two linears, the tangent dY an argument, no
// activation function (h = x W1ᵀ, y = h W2ᵀ, dh = dY W2, dW2 = dYᵀ h,
// dx = dh W1, dW1 = dhᵀ x). dY and h are read by no other operand's
// descendants: the second layer's pairing is decided by the order of
// their readers (the fprop reads h before the dgrad reads dY).
// ROLES-LABEL: func.func @two_linears_tangent
// ROLES: linalg.matmul {fp8.gemm = #fp8.gemm<fprop>{{.*}}-> tensor<256x256xf32>
// ROLES: linalg.matmul {fp8.gemm = #fp8.gemm<fprop>{{.*}}-> tensor<256x384xf32>
// ROLES: linalg.matmul {fp8.gemm = #fp8.gemm<dgrad>{{.*}}-> tensor<256x256xf32>
// ROLES: linalg.matmul {fp8.gemm = #fp8.gemm<wgrad>{{.*}}-> tensor<384x256xf32>
// ROLES: linalg.matmul {fp8.gemm = #fp8.gemm<dgrad>{{.*}}-> tensor<256x128xf32>
// ROLES: linalg.matmul {fp8.gemm = #fp8.gemm<wgrad>{{.*}}-> tensor<256x128xf32>
// Under hybrid the activations and weights are E4M3, dY and dh E5M2, in
// the dgrads and (requantized along the tokens) in the wgrads.
// HYBRID-LABEL: func.func @two_linears_tangent
// HYBRID-SAME: (%[[X:.*]]: tensor<256x128xf32>, %{{.*}}: tensor<256x128xf32>, %{{.*}}: tensor<384x256xf32>, %[[DY:.*]]: tensor<256x384xf32>)
// HYBRID-DAG: fp8.quantize %[[DY]] : tensor<256x384xf32> -> !fp8.scaled<256x384xf8E5M2
// HYBRID-DAG: fp8.quantize %[[X]] : tensor<256x128xf32> -> !fp8.scaled<256x128xf8E4M3FN
// HYBRID: fp8.scaled_matmul {{.*}}gemm<fprop>{{.*}} : !fp8.scaled<256x128xf8E4M3FN, {{.*}}>, !fp8.scaled<256x128xf8E4M3FN, {{.*}}> -> tensor<256x256xf32>
// HYBRID: fp8.scaled_matmul {{.*}}gemm<fprop>{{.*}} : !fp8.scaled<256x256xf8E4M3FN, {{.*}}>, !fp8.scaled<384x256xf8E4M3FN, {{.*}}> -> tensor<256x384xf32>
// HYBRID: fp8.scaled_matmul {{.*}}gemm<dgrad>{{.*}} : !fp8.scaled<256x384xf8E5M2, {{.*}}>, !fp8.scaled<256x384xf8E4M3FN, {{.*}}> -> tensor<256x256xf32>
// HYBRID: fp8.scaled_matmul {{.*}}gemm<wgrad>{{.*}} : !fp8.scaled<384x256xf8E5M2, {{.*}}>, !fp8.scaled<256x256xf8E4M3FN, {{.*}}> -> tensor<384x256xf32>
// HYBRID: fp8.scaled_matmul {{.*}}gemm<dgrad>{{.*}} : !fp8.scaled<256x256xf8E5M2, {{.*}}>, !fp8.scaled<128x256xf8E4M3FN, {{.*}}> -> tensor<256x128xf32>
// HYBRID: fp8.scaled_matmul {{.*}}gemm<wgrad>{{.*}} : !fp8.scaled<256x256xf8E5M2, {{.*}}>, !fp8.scaled<128x256xf8E4M3FN, {{.*}}> -> tensor<256x128xf32>
func.func @two_linears_tangent(%x: tensor<256x128xf32>, %w1: tensor<256x128xf32>, %w2: tensor<384x256xf32>, %dy: tensor<256x384xf32>)
    -> (tensor<256x384xf32>, tensor<256x128xf32>, tensor<256x128xf32>, tensor<384x256xf32>) {
  %c0 = arith.constant 0.0 : f32
  %e1t = tensor.empty() : tensor<128x256xf32>
  %w1t = linalg.transpose ins(%w1 : tensor<256x128xf32>) outs(%e1t : tensor<128x256xf32>) permutation = [1, 0]
  %eh = tensor.empty() : tensor<256x256xf32>
  %zh = linalg.fill ins(%c0 : f32) outs(%eh : tensor<256x256xf32>) -> tensor<256x256xf32>
  %h = linalg.matmul ins(%x, %w1t : tensor<256x128xf32>, tensor<128x256xf32>) outs(%zh : tensor<256x256xf32>) -> tensor<256x256xf32>
  %e2t = tensor.empty() : tensor<256x384xf32>
  %w2t = linalg.transpose ins(%w2 : tensor<384x256xf32>) outs(%e2t : tensor<256x384xf32>) permutation = [1, 0]
  %ey = tensor.empty() : tensor<256x384xf32>
  %zy = linalg.fill ins(%c0 : f32) outs(%ey : tensor<256x384xf32>) -> tensor<256x384xf32>
  %y = linalg.matmul ins(%h, %w2t : tensor<256x256xf32>, tensor<256x384xf32>) outs(%zy : tensor<256x384xf32>) -> tensor<256x384xf32>
  %dh = linalg.matmul ins(%dy, %w2 : tensor<256x384xf32>, tensor<384x256xf32>) outs(%zh : tensor<256x256xf32>) -> tensor<256x256xf32>
  %edyt = tensor.empty() : tensor<384x256xf32>
  %dyt = linalg.transpose ins(%dy : tensor<256x384xf32>) outs(%edyt : tensor<384x256xf32>) permutation = [1, 0]
  %ew2 = tensor.empty() : tensor<384x256xf32>
  %zw2 = linalg.fill ins(%c0 : f32) outs(%ew2 : tensor<384x256xf32>) -> tensor<384x256xf32>
  %dw2 = linalg.matmul ins(%dyt, %h : tensor<384x256xf32>, tensor<256x256xf32>) outs(%zw2 : tensor<384x256xf32>) -> tensor<384x256xf32>
  %edx = tensor.empty() : tensor<256x128xf32>
  %zdx = linalg.fill ins(%c0 : f32) outs(%edx : tensor<256x128xf32>) -> tensor<256x128xf32>
  %dx = linalg.matmul ins(%dh, %w1 : tensor<256x256xf32>, tensor<256x128xf32>) outs(%zdx : tensor<256x128xf32>) -> tensor<256x128xf32>
  %edht = tensor.empty() : tensor<256x256xf32>
  %dht = linalg.transpose ins(%dh : tensor<256x256xf32>) outs(%edht : tensor<256x256xf32>) permutation = [1, 0]
  %ew1 = tensor.empty() : tensor<256x128xf32>
  %zw1 = linalg.fill ins(%c0 : f32) outs(%ew1 : tensor<256x128xf32>) -> tensor<256x128xf32>
  %dw1 = linalg.matmul ins(%dht, %x : tensor<256x256xf32>, tensor<256x128xf32>) outs(%zw1 : tensor<256x128xf32>) -> tensor<256x128xf32>
  return %y, %dx, %dw1, %dw2 : tensor<256x384xf32>, tensor<256x128xf32>, tensor<256x128xf32>, tensor<384x256xf32>
}

// -----

// The same without the input's gradient (x needs none): the first layer's
// weight gradient pairs x (an argument) with dh (computed), which no
// contraction with a weight reads and neither descends from the other:
// program order decides, entry-block arguments before ops, so x is X and
// the first layer's linear its fprop. Under hybrid dh is E5M2, x E4M3.
// ROLES-LABEL: func.func @first_layer_without_dgrad
// ROLES: linalg.matmul {fp8.gemm = #fp8.gemm<fprop>{{.*}}-> tensor<256x256xf32>
// ROLES: linalg.matmul {fp8.gemm = #fp8.gemm<fprop>{{.*}}-> tensor<256x384xf32>
// ROLES: linalg.matmul {fp8.gemm = #fp8.gemm<dgrad>{{.*}}-> tensor<256x256xf32>
// ROLES: linalg.matmul {fp8.gemm = #fp8.gemm<wgrad>{{.*}}-> tensor<384x256xf32>
// ROLES: linalg.matmul {fp8.gemm = #fp8.gemm<wgrad>{{.*}}-> tensor<256x128xf32>
// HYBRID-LABEL: func.func @first_layer_without_dgrad
// HYBRID: fp8.scaled_matmul {{.*}}gemm<fprop>{{.*}} : !fp8.scaled<256x128xf8E4M3FN, {{.*}}>, !fp8.scaled<256x128xf8E4M3FN, {{.*}}> -> tensor<256x256xf32>
// HYBRID: fp8.scaled_matmul {{.*}}gemm<wgrad>{{.*}} : !fp8.scaled<256x256xf8E5M2, {{.*}}>, !fp8.scaled<128x256xf8E4M3FN, {{.*}}> -> tensor<256x128xf32>
func.func @first_layer_without_dgrad(%x: tensor<256x128xf32>, %w1: tensor<256x128xf32>, %w2: tensor<384x256xf32>, %dy: tensor<256x384xf32>)
    -> (tensor<256x384xf32>, tensor<256x128xf32>, tensor<384x256xf32>) {
  %c0 = arith.constant 0.0 : f32
  %e1t = tensor.empty() : tensor<128x256xf32>
  %w1t = linalg.transpose ins(%w1 : tensor<256x128xf32>) outs(%e1t : tensor<128x256xf32>) permutation = [1, 0]
  %eh = tensor.empty() : tensor<256x256xf32>
  %zh = linalg.fill ins(%c0 : f32) outs(%eh : tensor<256x256xf32>) -> tensor<256x256xf32>
  %h = linalg.matmul ins(%x, %w1t : tensor<256x128xf32>, tensor<128x256xf32>) outs(%zh : tensor<256x256xf32>) -> tensor<256x256xf32>
  %e2t = tensor.empty() : tensor<256x384xf32>
  %w2t = linalg.transpose ins(%w2 : tensor<384x256xf32>) outs(%e2t : tensor<256x384xf32>) permutation = [1, 0]
  %ey = tensor.empty() : tensor<256x384xf32>
  %zy = linalg.fill ins(%c0 : f32) outs(%ey : tensor<256x384xf32>) -> tensor<256x384xf32>
  %y = linalg.matmul ins(%h, %w2t : tensor<256x256xf32>, tensor<256x384xf32>) outs(%zy : tensor<256x384xf32>) -> tensor<256x384xf32>
  %dh = linalg.matmul ins(%dy, %w2 : tensor<256x384xf32>, tensor<384x256xf32>) outs(%zh : tensor<256x256xf32>) -> tensor<256x256xf32>
  %edyt = tensor.empty() : tensor<384x256xf32>
  %dyt = linalg.transpose ins(%dy : tensor<256x384xf32>) outs(%edyt : tensor<384x256xf32>) permutation = [1, 0]
  %ew2 = tensor.empty() : tensor<384x256xf32>
  %zw2 = linalg.fill ins(%c0 : f32) outs(%ew2 : tensor<384x256xf32>) -> tensor<384x256xf32>
  %dw2 = linalg.matmul ins(%dyt, %h : tensor<384x256xf32>, tensor<256x256xf32>) outs(%zw2 : tensor<384x256xf32>) -> tensor<384x256xf32>
  %edht = tensor.empty() : tensor<256x256xf32>
  %dht = linalg.transpose ins(%dh : tensor<256x256xf32>) outs(%edht : tensor<256x256xf32>) permutation = [1, 0]
  %ew1 = tensor.empty() : tensor<256x128xf32>
  %zw1 = linalg.fill ins(%c0 : f32) outs(%ew1 : tensor<256x128xf32>) -> tensor<256x128xf32>
  %dw1 = linalg.matmul ins(%dht, %x : tensor<256x256xf32>, tensor<256x128xf32>) outs(%zw1 : tensor<256x128xf32>) -> tensor<256x128xf32>
  return %y, %dw1, %dw2 : tensor<256x384xf32>, tensor<256x128xf32>, tensor<384x256xf32>
}

// -----

// A weight gradient computed as Xᵀ dY (stored [in, out]) whose X is
// defined after dY (the tangent is the first argument): which operand is
// dY is the data flow's (dY is read by the dgrad, X by the fprop), not the
// definition order, and the gradient format lands on dY, not X.
// ROLES-LABEL: func.func @tangent_first_wgrad_transposed
// ROLES: linalg.matmul {fp8.gemm = #fp8.gemm<fprop>{{.*}}-> tensor<256x384xf32>
// ROLES: linalg.matmul {fp8.gemm = #fp8.gemm<dgrad>{{.*}}-> tensor<256x256xf32>
// ROLES: linalg.matmul {fp8.gemm = #fp8.gemm<wgrad>{{.*}}-> tensor<256x384xf32>
// HYBRID-LABEL: func.func @tangent_first_wgrad_transposed
// HYBRID: fp8.scaled_matmul {{.*}}gemm<wgrad>{{.*}} : !fp8.scaled<256x256xf8E4M3FN, {{.*}}>, !fp8.scaled<384x256xf8E5M2, {{.*}}> -> tensor<256x384xf32>
func.func @tangent_first_wgrad_transposed(%dy: tensor<256x384xf32>, %w: tensor<384x256xf32>, %x: tensor<256x256xf32>)
    -> (tensor<256x384xf32>, tensor<256x256xf32>, tensor<256x384xf32>) {
  %c0 = arith.constant 0.0 : f32
  %ewt = tensor.empty() : tensor<256x384xf32>
  %wt = linalg.transpose ins(%w : tensor<384x256xf32>) outs(%ewt : tensor<256x384xf32>) permutation = [1, 0]
  %ey = tensor.empty() : tensor<256x384xf32>
  %zy = linalg.fill ins(%c0 : f32) outs(%ey : tensor<256x384xf32>) -> tensor<256x384xf32>
  %y = linalg.matmul ins(%x, %wt : tensor<256x256xf32>, tensor<256x384xf32>) outs(%zy : tensor<256x384xf32>) -> tensor<256x384xf32>
  %edx = tensor.empty() : tensor<256x256xf32>
  %zdx = linalg.fill ins(%c0 : f32) outs(%edx : tensor<256x256xf32>) -> tensor<256x256xf32>
  %dx = linalg.matmul ins(%dy, %w : tensor<256x384xf32>, tensor<384x256xf32>) outs(%zdx : tensor<256x256xf32>) -> tensor<256x256xf32>
  %ext = tensor.empty() : tensor<256x256xf32>
  %xt = linalg.transpose ins(%x : tensor<256x256xf32>) outs(%ext : tensor<256x256xf32>) permutation = [1, 0]
  %zw = linalg.fill ins(%c0 : f32) outs(%ey : tensor<256x384xf32>) -> tensor<256x384xf32>
  %dwt = linalg.matmul ins(%xt, %dy : tensor<256x256xf32>, tensor<256x384xf32>) outs(%zw : tensor<256x384xf32>) -> tensor<256x384xf32>
  return %y, %dx, %dwt : tensor<256x384xf32>, tensor<256x256xf32>, tensor<256x384xf32>
}

// -----

// The weight gradient stored [in, out] (dWᵀ = Xᵀ dY) with the loss
// gradient computed in the graph (dY = y - t): X comes first among the
// wgrad's operands and dY descends from it, so the data-flow rule alone
// makes dY the gradient (E5M2 under hybrid) and X the activation (E4M3).
// ROLES-LABEL: func.func @wgrad_stored_in_out_loss_in_graph
// ROLES: linalg.matmul {fp8.gemm = #fp8.gemm<fprop>{{.*}}-> tensor<256x384xf32>
// ROLES: linalg.matmul {fp8.gemm = #fp8.gemm<dgrad>{{.*}}-> tensor<256x128xf32>
// ROLES: linalg.matmul {fp8.gemm = #fp8.gemm<wgrad>{{.*}}-> tensor<128x384xf32>
// HYBRID-LABEL: func.func @wgrad_stored_in_out_loss_in_graph
// HYBRID-SAME: (%[[X:.*]]: tensor<256x128xf32>,
// HYBRID-DAG: fp8.quantize %[[X]] : tensor<256x128xf32> -> !fp8.scaled<256x128xf8E4M3FN
// HYBRID-DAG: fp8.quantize %{{.*}} : tensor<256x384xf32> -> !fp8.scaled<256x384xf8E5M2
// HYBRID: fp8.scaled_matmul {{.*}}gemm<wgrad>{{.*}} : !fp8.scaled<128x256xf8E4M3FN, {{.*}}>, !fp8.scaled<384x256xf8E5M2, {{.*}}> -> tensor<128x384xf32>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @wgrad_stored_in_out_loss_in_graph(%x: tensor<256x128xf32>, %w: tensor<384x128xf32>, %t: tensor<256x384xf32>)
    -> (tensor<256x128xf32>, tensor<128x384xf32>) {
  %c0 = arith.constant 0.0 : f32
  %ewt = tensor.empty() : tensor<128x384xf32>
  %wt = linalg.transpose ins(%w : tensor<384x128xf32>) outs(%ewt : tensor<128x384xf32>) permutation = [1, 0]
  %ey = tensor.empty() : tensor<256x384xf32>
  %zy = linalg.fill ins(%c0 : f32) outs(%ey : tensor<256x384xf32>) -> tensor<256x384xf32>
  %y = linalg.matmul ins(%x, %wt : tensor<256x128xf32>, tensor<128x384xf32>) outs(%zy : tensor<256x384xf32>) -> tensor<256x384xf32>
  %dy = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y, %t : tensor<256x384xf32>, tensor<256x384xf32>) outs(%ey : tensor<256x384xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    linalg.yield %d : f32
  } -> tensor<256x384xf32>
  %edx = tensor.empty() : tensor<256x128xf32>
  %zdx = linalg.fill ins(%c0 : f32) outs(%edx : tensor<256x128xf32>) -> tensor<256x128xf32>
  %dx = linalg.matmul ins(%dy, %w : tensor<256x384xf32>, tensor<384x128xf32>) outs(%zdx : tensor<256x128xf32>) -> tensor<256x128xf32>
  %ext = tensor.empty() : tensor<128x256xf32>
  %xt = linalg.transpose ins(%x : tensor<256x128xf32>) outs(%ext : tensor<128x256xf32>) permutation = [1, 0]
  %zw = linalg.fill ins(%c0 : f32) outs(%ewt : tensor<128x384xf32>) -> tensor<128x384xf32>
  %dw = linalg.matmul ins(%xt, %dy : tensor<128x256xf32>, tensor<256x384xf32>) outs(%zw : tensor<128x384xf32>) -> tensor<128x384xf32>
  return %dx, %dw : tensor<256x128xf32>, tensor<128x384xf32>
}

// -----

// Step 1 of the pairing decides, through a region's capture: dY is
// computed from x only by a generic that reads x inside its body
// (tensor.extract of the captured %x), and the Dgrad of dY comes before
// the fprop of x, so the readers' order (step 2) would take x for dY.
// dY descends from x: the first contraction is the Dgrad, the second the
// fprop, the third the weight gradient.
// ROLES-LABEL: func.func @gradient_through_a_capture
// ROLES: linalg.matmul {fp8.gemm = #fp8.gemm<dgrad>{{.*}}-> tensor<256x128xf32>
// ROLES: linalg.matmul {fp8.gemm = #fp8.gemm<fprop>{{.*}}-> tensor<256x384xf32>
// ROLES: linalg.matmul {fp8.gemm = #fp8.gemm<wgrad>{{.*}}-> tensor<384x128xf32>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @gradient_through_a_capture(%x: tensor<256x128xf32>, %w: tensor<384x128xf32>) -> (tensor<256x384xf32>, tensor<256x128xf32>, tensor<384x128xf32>) {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x384xf32>
  %dy = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<256x384xf32>) {
  ^bb0(%o: f32):
    %t = linalg.index 0 : index
    %v = tensor.extract %x[%t, %t] : tensor<256x128xf32>
    linalg.yield %v : f32
  } -> tensor<256x384xf32>
  %edx = tensor.empty() : tensor<256x128xf32>
  %zdx = linalg.fill ins(%c0 : f32) outs(%edx : tensor<256x128xf32>) -> tensor<256x128xf32>
  %dx = linalg.matmul ins(%dy, %w : tensor<256x384xf32>, tensor<384x128xf32>) outs(%zdx : tensor<256x128xf32>) -> tensor<256x128xf32>
  %ewt = tensor.empty() : tensor<128x384xf32>
  %wt = linalg.transpose ins(%w : tensor<384x128xf32>) outs(%ewt : tensor<128x384xf32>) permutation = [1, 0]
  %ey = tensor.empty() : tensor<256x384xf32>
  %zy = linalg.fill ins(%c0 : f32) outs(%ey : tensor<256x384xf32>) -> tensor<256x384xf32>
  %y = linalg.matmul ins(%x, %wt : tensor<256x128xf32>, tensor<128x384xf32>) outs(%zy : tensor<256x384xf32>) -> tensor<256x384xf32>
  %edyt = tensor.empty() : tensor<384x256xf32>
  %dyt = linalg.transpose ins(%dy : tensor<256x384xf32>) outs(%edyt : tensor<384x256xf32>) permutation = [1, 0]
  %ew = tensor.empty() : tensor<384x128xf32>
  %zw = linalg.fill ins(%c0 : f32) outs(%ew : tensor<384x128xf32>) -> tensor<384x128xf32>
  %dw = linalg.matmul ins(%dyt, %x : tensor<384x256xf32>, tensor<256x128xf32>) outs(%zw : tensor<384x128xf32>) -> tensor<384x128xf32>
  return %y, %dx, %dw : tensor<256x384xf32>, tensor<256x128xf32>, tensor<384x128xf32>
}
