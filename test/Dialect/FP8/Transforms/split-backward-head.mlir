// RUN: fp8-opt %s -split-input-file -fp8-assign-precision | FileCheck %s
// RUN: fp8-opt %s -split-input-file -fp8-pipeline='report=false' | FileCheck %s --check-prefix=QUANT

// The backward function of a split training step (fp8_mlir.training's form,
// reduced by hand): token embedding E [V, H], one linear W1 [H, H], the
// output head Wh [V, H], V = H = 128. It has no gather: the vocabulary comes
// from the embedding gradient, a loop over the tokens adding each row of dX
// into the table at the token's id (index_put with accumulate). With it the
// head's Dgrad (a contraction over V of the loss gradient) and Wgrad keep
// the policy's high precision by their own data flow, with no loc name. W1
// is as wide as the vocabulary, but its dY comes through the head's Dgrad:
// it is not the head, and its Dgrad and Wgrad are FP8.

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#vec = affine_map<(d0) -> (d0)>

// CHECK-LABEL: func.func @backward
// CHECK: linalg.generic {{.*}}fp8.role = #fp8.role<other>
// CHECK: linalg.matmul {fp8.gemm = #fp8.gemm<dgrad>, fp8.precision = #fp8.precision<bf16>, fp8.reason = "heuristic: activation gradient of a vocabulary-sized linear (contraction over 128)", fp8.role = #fp8.role<output_head>} ins(%[[DL:.*]], %[[WH:.*]] :
// CHECK: linalg.matmul {fp8.gemm = #fp8.gemm<wgrad>, fp8.precision = #fp8.precision<bf16>, {{.*}}fp8.role = #fp8.role<output_head>}
// CHECK: linalg.matmul {fp8.gemm = #fp8.gemm<dgrad>, fp8.precision = #fp8.precision<fp8>, {{.*}}fp8.role = #fp8.role<linear>}
// CHECK: linalg.matmul {fp8.gemm = #fp8.gemm<wgrad>, fp8.precision = #fp8.precision<fp8>, {{.*}}fp8.role = #fp8.role<linear>}
// CHECK: scf.for
// CHECK: linalg.generic {{.*}}fp8.reason = "heuristic: row update of a loop scatter-adding into a table at token ids (embedding gradient)", fp8.role = #fp8.role<embedding>}
// CHECK: scf.yield

// The head's GEMMs stay linalg.matmul on bf16 operands; W1's become FP8.
// QUANT-LABEL: func.func @backward
// QUANT-COUNT-2: linalg.matmul {{.*}}fp8.role = #fp8.role<output_head>} ins({{.*}} : tensor<128x128xbf16>, tensor<128x128xbf16>)
// QUANT-COUNT-2: fp8.scaled_matmul {{.*}}fp8.role = #fp8.role<linear>
// QUANT-NOT: linalg.matmul
// QUANT: return
func.func @backward(%tokens: tensor<128xi64>, %targets: tensor<128xi64>, %probs: tensor<128x128xf32>, %h: tensor<128x128xf32>, %x: tensor<128x128xf32>, %wh: tensor<128x128xf32>, %w1: tensor<128x128xf32>) -> (tensor<128x128xf32>, tensor<128x128xf32>, tensor<128x128xf32>) {
  %zero = arith.constant 0.0 : f32
  // dlogits = (softmax - onehot(targets)) / T
  %e0 = tensor.empty() : tensor<128x128xf32>
  %dl = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%probs, %targets : tensor<128x128xf32>, tensor<128xi64>) outs(%e0 : tensor<128x128xf32>) {
  ^bb0(%p: f32, %t: i64, %o: f32):
    %v = linalg.index 1 : index
    %ti = arith.index_cast %t : i64 to index
    %hit = arith.cmpi eq, %v, %ti : index
    %one = arith.constant 1.0 : f32
    %q = arith.subf %p, %one : f32
    %d = arith.select %hit, %q, %p : f32
    %c = arith.constant 0.0078125 : f32
    %r = arith.mulf %d, %c : f32
    linalg.yield %r : f32
  } -> tensor<128x128xf32>
  // The head: dH = dlogits Wh, dWh = dlogitsᵀ H.
  %f1 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<128x128xf32>) -> tensor<128x128xf32>
  %dh = linalg.matmul ins(%dl, %wh : tensor<128x128xf32>, tensor<128x128xf32>) outs(%f1 : tensor<128x128xf32>) -> tensor<128x128xf32>
  %e2 = tensor.empty() : tensor<128x128xf32>
  %dlt = linalg.transpose ins(%dl : tensor<128x128xf32>) outs(%e2 : tensor<128x128xf32>) permutation = [1, 0]
  %dwh = linalg.matmul ins(%dlt, %h : tensor<128x128xf32>, tensor<128x128xf32>) outs(%f1 : tensor<128x128xf32>) -> tensor<128x128xf32>
  // W1: dX = dH W1, dW1 = dHᵀ X.
  %dx = linalg.matmul ins(%dh, %w1 : tensor<128x128xf32>, tensor<128x128xf32>) outs(%f1 : tensor<128x128xf32>) -> tensor<128x128xf32>
  %e3 = tensor.empty() : tensor<128x128xf32>
  %dht = linalg.transpose ins(%dh : tensor<128x128xf32>) outs(%e3 : tensor<128x128xf32>) permutation = [1, 0]
  %dw1 = linalg.matmul ins(%dht, %x : tensor<128x128xf32>, tensor<128x128xf32>) outs(%f1 : tensor<128x128xf32>) -> tensor<128x128xf32>
  // dE[tokens[i], :] += dX[i, :]
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ct = arith.constant 128 : index
  %de = scf.for %i = %c0 to %ct step %c1 iter_args(%acc = %f1) -> (tensor<128x128xf32>) {
    %tok = tensor.extract %tokens[%i] : tensor<128xi64>
    %rowi = arith.index_cast %tok : i64 to index
    %cur = tensor.extract_slice %acc[%rowi, 0] [1, 128] [1, 1] : tensor<128x128xf32> to tensor<128xf32>
    %drow = tensor.extract_slice %dx[%i, 0] [1, 128] [1, 1] : tensor<128x128xf32> to tensor<128xf32>
    %sum = linalg.generic {indexing_maps = [#vec, #vec], iterator_types = ["parallel"]} ins(%drow : tensor<128xf32>) outs(%cur : tensor<128xf32>) {
    ^bb0(%b0: f32, %bo: f32):
      %r = arith.addf %bo, %b0 : f32
      linalg.yield %r : f32
    } -> tensor<128xf32>
    %new = tensor.insert_slice %sum into %acc[%rowi, 0] [1, 128] [1, 1] : tensor<128xf32> into tensor<128x128xf32>
    scf.yield %new : tensor<128x128xf32>
  }
  return %dwh, %dw1, %de : tensor<128x128xf32>, tensor<128x128xf32>, tensor<128x128xf32>
}

// -----

// Not an embedding gradient: the loop writes each token's row without
// reading it back (an overwrite, not an accumulation), so it says nothing
// about a vocabulary, and a 128-wide linear is an FP8 linear like any other.
#id = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @overwrite_rows
// CHECK-COUNT-2: linalg.matmul {fp8.gemm = {{.*}}, fp8.precision = #fp8.precision<fp8>, {{.*}}fp8.role = #fp8.role<linear>}
// CHECK-NOT: fp8.role = #fp8.role<embedding>
// CHECK: return
func.func @overwrite_rows(%tokens: tensor<128xi64>, %dl: tensor<128x128xf32>, %h: tensor<128x128xf32>, %wh: tensor<128x128xf32>) -> (tensor<128x128xf32>, tensor<128x128xf32>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<128x128xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<128x128xf32>) -> tensor<128x128xf32>
  %dh = linalg.matmul ins(%dl, %wh : tensor<128x128xf32>, tensor<128x128xf32>) outs(%f1 : tensor<128x128xf32>) -> tensor<128x128xf32>
  %e2 = tensor.empty() : tensor<128x128xf32>
  %dlt = linalg.transpose ins(%dl : tensor<128x128xf32>) outs(%e2 : tensor<128x128xf32>) permutation = [1, 0]
  %dwh = linalg.matmul ins(%dlt, %h : tensor<128x128xf32>, tensor<128x128xf32>) outs(%f1 : tensor<128x128xf32>) -> tensor<128x128xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ct = arith.constant 128 : index
  %de = scf.for %i = %c0 to %ct step %c1 iter_args(%acc = %f1) -> (tensor<128x128xf32>) {
    %tok = tensor.extract %tokens[%i] : tensor<128xi64>
    %rowi = arith.index_cast %tok : i64 to index
    %drow = tensor.extract_slice %dh[%i, 0] [1, 128] [1, 1] : tensor<128x128xf32> to tensor<128xf32>
    %new = tensor.insert_slice %drow into %acc[%rowi, 0] [1, 128] [1, 1] : tensor<128xf32> into tensor<128x128xf32>
    scf.yield %new : tensor<128x128xf32>
  }
  return %dwh, %de : tensor<128x128xf32>, tensor<128x128xf32>
}

// -----

// Not at token ids: the loop accumulates into row i of the carried table
// (the loop counter, not an id read from an integer tensor): no vocabulary.
#vec = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @rows_by_counter
// CHECK-COUNT-2: linalg.matmul {fp8.gemm = {{.*}}, fp8.precision = #fp8.precision<fp8>, {{.*}}fp8.role = #fp8.role<linear>}
// CHECK-NOT: fp8.role = #fp8.role<embedding>
// CHECK: return
func.func @rows_by_counter(%dl: tensor<128x128xf32>, %h: tensor<128x128xf32>, %wh: tensor<128x128xf32>) -> (tensor<128x128xf32>, tensor<128x128xf32>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<128x128xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<128x128xf32>) -> tensor<128x128xf32>
  %dh = linalg.matmul ins(%dl, %wh : tensor<128x128xf32>, tensor<128x128xf32>) outs(%f1 : tensor<128x128xf32>) -> tensor<128x128xf32>
  %e2 = tensor.empty() : tensor<128x128xf32>
  %dlt = linalg.transpose ins(%dl : tensor<128x128xf32>) outs(%e2 : tensor<128x128xf32>) permutation = [1, 0]
  %dwh = linalg.matmul ins(%dlt, %h : tensor<128x128xf32>, tensor<128x128xf32>) outs(%f1 : tensor<128x128xf32>) -> tensor<128x128xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ct = arith.constant 128 : index
  %de = scf.for %i = %c0 to %ct step %c1 iter_args(%acc = %f1) -> (tensor<128x128xf32>) {
    %cur = tensor.extract_slice %acc[%i, 0] [1, 128] [1, 1] : tensor<128x128xf32> to tensor<128xf32>
    %drow = tensor.extract_slice %dh[%i, 0] [1, 128] [1, 1] : tensor<128x128xf32> to tensor<128xf32>
    %sum = linalg.generic {indexing_maps = [#vec, #vec], iterator_types = ["parallel"]} ins(%drow : tensor<128xf32>) outs(%cur : tensor<128xf32>) {
    ^bb0(%b0: f32, %bo: f32):
      %r = arith.addf %bo, %b0 : f32
      linalg.yield %r : f32
    } -> tensor<128xf32>
    %new = tensor.insert_slice %sum into %acc[%i, 0] [1, 128] [1, 1] : tensor<128xf32> into tensor<128x128xf32>
    scf.yield %new : tensor<128x128xf32>
  }
  return %dwh, %de : tensor<128x128xf32>, tensor<128x128xf32>
}

// -----

// Not an accumulation: the loop reads each token's row and writes back its
// product with the gradient row (a multiply, not a scatter-add).
#vec = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @scaled_rows
// CHECK-COUNT-2: linalg.matmul {fp8.gemm = {{.*}}, fp8.precision = #fp8.precision<fp8>, {{.*}}fp8.role = #fp8.role<linear>}
// CHECK-NOT: fp8.role = #fp8.role<embedding>
// CHECK: return
func.func @scaled_rows(%tokens: tensor<128xi64>, %dl: tensor<128x128xf32>, %h: tensor<128x128xf32>, %wh: tensor<128x128xf32>) -> (tensor<128x128xf32>, tensor<128x128xf32>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<128x128xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<128x128xf32>) -> tensor<128x128xf32>
  %dh = linalg.matmul ins(%dl, %wh : tensor<128x128xf32>, tensor<128x128xf32>) outs(%f1 : tensor<128x128xf32>) -> tensor<128x128xf32>
  %e2 = tensor.empty() : tensor<128x128xf32>
  %dlt = linalg.transpose ins(%dl : tensor<128x128xf32>) outs(%e2 : tensor<128x128xf32>) permutation = [1, 0]
  %dwh = linalg.matmul ins(%dlt, %h : tensor<128x128xf32>, tensor<128x128xf32>) outs(%f1 : tensor<128x128xf32>) -> tensor<128x128xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ct = arith.constant 128 : index
  %de = scf.for %i = %c0 to %ct step %c1 iter_args(%acc = %f1) -> (tensor<128x128xf32>) {
    %tok = tensor.extract %tokens[%i] : tensor<128xi64>
    %rowi = arith.index_cast %tok : i64 to index
    %cur = tensor.extract_slice %acc[%rowi, 0] [1, 128] [1, 1] : tensor<128x128xf32> to tensor<128xf32>
    %drow = tensor.extract_slice %dh[%i, 0] [1, 128] [1, 1] : tensor<128x128xf32> to tensor<128xf32>
    %prod = linalg.generic {indexing_maps = [#vec, #vec], iterator_types = ["parallel"]} ins(%drow : tensor<128xf32>) outs(%cur : tensor<128xf32>) {
    ^bb0(%b0: f32, %bo: f32):
      %r = arith.mulf %bo, %b0 : f32
      linalg.yield %r : f32
    } -> tensor<128xf32>
    %new = tensor.insert_slice %prod into %acc[%rowi, 0] [1, 128] [1, 1] : tensor<128xf32> into tensor<128x128xf32>
    scf.yield %new : tensor<128x128xf32>
  }
  return %dwh, %de : tensor<128x128xf32>, tensor<128x128xf32>
}

// -----

// Not a scatter-add either: the loop inserts at the token's row the sum of
// the gradient row and another row of the table (row i, the counter's):
// each token's row is overwritten, not added into.
#vec = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @sum_of_another_row
// CHECK-COUNT-2: linalg.matmul {fp8.gemm = {{.*}}, fp8.precision = #fp8.precision<fp8>, {{.*}}fp8.role = #fp8.role<linear>}
// CHECK-NOT: fp8.role = #fp8.role<embedding>
// CHECK: return
func.func @sum_of_another_row(%tokens: tensor<128xi64>, %dl: tensor<128x128xf32>, %h: tensor<128x128xf32>, %wh: tensor<128x128xf32>) -> (tensor<128x128xf32>, tensor<128x128xf32>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<128x128xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<128x128xf32>) -> tensor<128x128xf32>
  %dh = linalg.matmul ins(%dl, %wh : tensor<128x128xf32>, tensor<128x128xf32>) outs(%f1 : tensor<128x128xf32>) -> tensor<128x128xf32>
  %e2 = tensor.empty() : tensor<128x128xf32>
  %dlt = linalg.transpose ins(%dl : tensor<128x128xf32>) outs(%e2 : tensor<128x128xf32>) permutation = [1, 0]
  %dwh = linalg.matmul ins(%dlt, %h : tensor<128x128xf32>, tensor<128x128xf32>) outs(%f1 : tensor<128x128xf32>) -> tensor<128x128xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ct = arith.constant 128 : index
  %de = scf.for %i = %c0 to %ct step %c1 iter_args(%acc = %f1) -> (tensor<128x128xf32>) {
    %tok = tensor.extract %tokens[%i] : tensor<128xi64>
    %rowi = arith.index_cast %tok : i64 to index
    %other = tensor.extract_slice %acc[%i, 0] [1, 128] [1, 1] : tensor<128x128xf32> to tensor<128xf32>
    %drow = tensor.extract_slice %dh[%i, 0] [1, 128] [1, 1] : tensor<128x128xf32> to tensor<128xf32>
    %sum = linalg.generic {indexing_maps = [#vec, #vec], iterator_types = ["parallel"]} ins(%drow : tensor<128xf32>) outs(%other : tensor<128xf32>) {
    ^bb0(%b0: f32, %bo: f32):
      %r = arith.addf %bo, %b0 : f32
      linalg.yield %r : f32
    } -> tensor<128xf32>
    %new = tensor.insert_slice %sum into %acc[%rowi, 0] [1, 128] [1, 1] : tensor<128xf32> into tensor<128x128xf32>
    scf.yield %new : tensor<128x128xf32>
  }
  return %dwh, %de : tensor<128x128xf32>, tensor<128x128xf32>
}
