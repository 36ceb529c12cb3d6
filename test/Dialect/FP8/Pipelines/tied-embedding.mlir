// RUN: fp8-opt %s -split-input-file --fp8-pipeline="report=false" | FileCheck %s
// RUN: fp8-opt %s -split-input-file --fp8-pipeline -o /dev/null | FileCheck %s --check-prefix=REPORT

// Tied embeddings: one table is gathered (the embedding) and, transposed,
// is the weight of the final vocabulary projection (the output head). Both
// uses are sensitive roles and stay in high precision, the table is never
// quantized, whatever the table's rank (TOSA gathers from a [1, V, H]
// reshape) and however small the vocabulary (no 32000 threshold).

// The TOSA form (converted by fp8-convert-tosa inside the pipeline).
// CHECK-LABEL: func.func @tied_tosa
// CHECK-NOT: fp8.quantize
// CHECK: linalg.batch_matmul {fp8.precision = #fp8.precision<bf16>, fp8.reason = "heuristic: linear with the embedding table as its weight (tied output head)", fp8.role = #fp8.role<output_head>}
// REPORT: output_head  bf16  16x512x64 {{.*}}(tied output head)
// REPORT: embedding {{.*}}gather from a 1x512x64 table
func.func @tied_tosa(%ids: tensor<1x16xi32>, %table: tensor<512x64xf32>) -> tensor<1x16x512xf32> {
  %s3 = tosa.const_shape {values = dense<[1, 512, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %t3 = tosa.reshape %table, %s3 : (tensor<512x64xf32>, !tosa.shape<3>) -> tensor<1x512x64xf32>
  %h = tosa.gather %t3, %ids : (tensor<1x512x64xf32>, tensor<1x16xi32>) -> tensor<1x16x64xf32>
  %tt = tosa.transpose %t3 {perms = array<i32: 0, 2, 1>} : (tensor<1x512x64xf32>) -> tensor<1x64x512xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %logits = tosa.matmul %h, %tt, %zp, %zp : (tensor<1x16x64xf32>, tensor<1x64x512xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x512xf32>
  return %logits : tensor<1x16x512xf32>
}

// -----

#ids = affine_map<(d0, d1) -> (d0)>
#out = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>

// The linalg form: a rank-2 table, the head's weight a transpose generic of
// the same table, a linear in between. The middle linear (its own weight)
// is FP8; the head and the gather stay high.
// CHECK-LABEL: func.func @tied_linalg
// CHECK-COUNT-2: fp8.quantize
// CHECK-NOT: fp8.quantize
// CHECK: fp8.scaled_matmul {{.*}}fp8.role = #fp8.role<linear>
// CHECK: linalg.matmul {{.*}}fp8.role = #fp8.role<output_head>
func.func @tied_linalg(%ids: tensor<16xi64>, %table: tensor<1000x128xf32>, %w: tensor<128x128xf32>) -> tensor<16x1000xf32> {
  %e = tensor.empty() : tensor<16x128xf32>
  %h = linalg.generic {indexing_maps = [#ids, #out], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<16xi64>) outs(%e : tensor<16x128xf32>) {
  ^bb0(%id: i64, %o: f32):
    %row = arith.index_cast %id : i64 to index
    %col = linalg.index 1 : index
    %v = tensor.extract %table[%row, %col] : tensor<1000x128xf32>
    linalg.yield %v : f32
  } -> tensor<16x128xf32>
  %c0 = arith.constant 0.0 : f32
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<16x128xf32>) -> tensor<16x128xf32>
  %x = linalg.matmul ins(%h, %w : tensor<16x128xf32>, tensor<128x128xf32>) outs(%z : tensor<16x128xf32>) -> tensor<16x128xf32>
  %et = tensor.empty() : tensor<128x1000xf32>
  %tt = linalg.generic {indexing_maps = [#tr, #out], iterator_types = ["parallel", "parallel"]}
      ins(%table : tensor<1000x128xf32>) outs(%et : tensor<128x1000xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<128x1000xf32>
  %eo = tensor.empty() : tensor<16x1000xf32>
  %zo = linalg.fill ins(%c0 : f32) outs(%eo : tensor<16x1000xf32>) -> tensor<16x1000xf32>
  %logits = linalg.matmul ins(%x, %tt : tensor<16x128xf32>, tensor<128x1000xf32>) outs(%zo : tensor<16x1000xf32>) -> tensor<16x1000xf32>
  return %logits : tensor<16x1000xf32>
}

// -----

#ids = affine_map<(d0, d1) -> (d0)>
#out = affine_map<(d0, d1) -> (d0, d1)>

// Not tied: hidden states passed as an argument are gathered from and are
// the activation of a linear. Only the operand taken as the weight can tie a
// linear to a table: this one is an FP8 linear.
// CHECK-LABEL: func.func @gathered_activation
// CHECK: fp8.scaled_matmul {{.*}}fp8.role = #fp8.role<linear>
func.func @gathered_activation(%x: tensor<16x64xf32>, %idx: tensor<4xi64>, %w: tensor<64x128xf32>, %init: tensor<16x128xf32>) -> (tensor<4x64xf32>, tensor<16x128xf32>) {
  %e = tensor.empty() : tensor<4x64xf32>
  %g = linalg.generic {indexing_maps = [#ids, #out], iterator_types = ["parallel", "parallel"]}
      ins(%idx : tensor<4xi64>) outs(%e : tensor<4x64xf32>) {
  ^bb0(%id: i64, %o: f32):
    %row = arith.index_cast %id : i64 to index
    %col = linalg.index 1 : index
    %v = tensor.extract %x[%row, %col] : tensor<16x64xf32>
    linalg.yield %v : f32
  } -> tensor<4x64xf32>
  %y = linalg.matmul ins(%x, %w : tensor<16x64xf32>, tensor<64x128xf32>) outs(%init : tensor<16x128xf32>) -> tensor<16x128xf32>
  return %g, %y : tensor<4x64xf32>, tensor<16x128xf32>
}
