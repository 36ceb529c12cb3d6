// RUN: fp8-opt %s -split-input-file -fp8-guard-gathers -verify-diagnostics | FileCheck %s
// Idempotent: a second run changes nothing.
// RUN: fp8-opt %s -split-input-file -fp8-guard-gathers -verify-diagnostics > %t.once
// RUN: fp8-opt %t.once -split-input-file -fp8-guard-gathers -verify-diagnostics > %t.twice
// RUN: diff %t.once %t.twice

// An embedding as torch-mlir lowers aten.embedding: the row index is the
// token id (a block argument) cast to index; the column is linalg.index.
// The row is compared unsigned with the 16 rows, clamped to 0, and the
// element becomes NaN where the id was out of range.

#map0 = affine_map<(d0, d1) -> (d0)>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @embedding
// CHECK-SAME: (%[[IDS:.*]]: tensor<4xi64>, %[[TABLE:.*]]: tensor<16x8xf32>)
func.func @embedding(%ids: tensor<4xi64>, %table: tensor<16x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  // CHECK: linalg.generic
  // CHECK: ^bb0(%[[ID:.*]]: i64, %{{.*}}: f32):
  // CHECK: %[[I:.*]] = arith.index_cast %[[ID]] : i64 to index
  // CHECK: %[[J:.*]] = linalg.index 1 : index
  // CHECK: %[[ROWS:.*]] = arith.constant 16 : index
  // CHECK: %[[OK:.*]] = arith.cmpi ult, %[[I]], %[[ROWS]] : index
  // CHECK: %[[C0:.*]] = arith.constant 0 : index
  // CHECK: %[[SAFE:.*]] = arith.select %[[OK]], %[[I]], %[[C0]] : index
  // CHECK: %[[V:.*]] = tensor.extract %[[TABLE]][%[[SAFE]], %[[J]]] : tensor<16x8xf32>
  // CHECK: %[[NAN:.*]] = arith.constant 0x7FFFFFFF : f32
  // CHECK: %[[R:.*]] = arith.select %[[OK]], %[[V]], %[[NAN]] : f32
  // CHECK: linalg.yield %[[R]] : f32
  %r = linalg.generic {indexing_maps = [#map0, #map1], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<4xi64>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%id: i64, %out: f32):
    %i = arith.index_cast %id : i64 to index
    %j = linalg.index 1 : index
    %v = tensor.extract %table[%i, %j] : tensor<16x8xf32>
    linalg.yield %v : f32
  }
  -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// The cross-entropy's target pick as fp8_mlir.training.lm_graph writes it:
// the column is the target cast to index, the row the generic's own index.
// The column is compared unsigned with the 32 columns and clamped, and the
// logit becomes NaN before the pick's add of +0.0 (NaN + 0.0 is NaN).

#mapp = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @pick
// CHECK: ^bb0(%[[T:.*]]: i64, %{{.*}}: f32):
// CHECK: %[[ROW:.*]] = linalg.index 0 : index
// CHECK: %[[COL:.*]] = arith.index_cast %[[T]] : i64 to index
// CHECK: %[[N:.*]] = arith.constant 32 : index
// CHECK: %[[OK:.*]] = arith.cmpi ult, %[[COL]], %[[N]] : index
// CHECK: %[[SAFE:.*]] = arith.select %[[OK]], %[[COL]], %{{.*}} : index
// CHECK: %[[Z:.*]] = tensor.extract %{{.*}}[%[[ROW]], %[[SAFE]]] : tensor<4x32xf32>
// CHECK: %[[G:.*]] = arith.select %[[OK]], %[[Z]], %{{.*}} : f32
// CHECK: %[[P:.*]] = arith.addf %{{.*}}, %[[G]] : f32
// CHECK: linalg.yield %[[P]] : f32
func.func @pick(%t: tensor<4xi64>, %logits: tensor<4x32xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#mapp, #mapp], iterator_types = ["parallel"]}
      ins(%t : tensor<4xi64>) outs(%e : tensor<4xf32>) {
  ^bb0(%b0: i64, %out: f32):
    %row = linalg.index 0 : index
    %col = arith.index_cast %b0 : i64 to index
    %z = tensor.extract %logits[%row, %col] : tensor<4x32xf32>
    %zero = arith.constant 0.0 : f32
    %p = arith.addf %zero, %z : f32
    linalg.yield %p : f32
  }
  -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// A gather guarded by hand (as the cross-entropy's target pick of
// fp8_mlir.training once was): its column is a select of an unsigned
// compare with the vocabulary. Left alone.

#map0 = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @pick_already_guarded
// CHECK: %[[OK:.*]] = arith.cmpi ult
// CHECK: %[[SAFE:.*]] = arith.select %[[OK]]
// CHECK: %[[COL:.*]] = arith.index_cast %[[SAFE]] : i64 to index
// CHECK-NEXT: %[[Z:.*]] = tensor.extract %{{.*}}[%{{.*}}, %[[COL]]] : tensor<4x32xf32>
// CHECK-NEXT: arith.constant 0.0
// CHECK-NEXT: arith.addf %{{.*}}, %[[Z]] : f32
// CHECK-NOT: arith.cmpi
// CHECK: linalg.yield
func.func @pick_already_guarded(%t: tensor<4xi64>, %logits: tensor<4x32xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#map0, #map0], iterator_types = ["parallel"]}
      ins(%t : tensor<4xi64>) outs(%e : tensor<4xf32>) {
  ^bb0(%b0: i64, %out: f32):
    %row = linalg.index 0 : index
    %vocab = arith.constant 32 : i64
    %ok = arith.cmpi ult, %b0, %vocab : i64
    %c0 = arith.constant 0 : i64
    %safe = arith.select %ok, %b0, %c0 : i64
    %col = arith.index_cast %safe : i64 to index
    %z = tensor.extract %logits[%row, %col] : tensor<4x32xf32>
    %zero = arith.constant 0.0 : f32
    %p = arith.addf %zero, %z : f32
    %nan = arith.constant 0x7FC00000 : f32
    %s = arith.select %ok, %p, %nan : f32
    linalg.yield %s : f32
  }
  -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Indices from linalg.index, constants and their arithmetic (a rotary
// table read at the position within a sequence) are the program's own:
// left alone.

#map1 = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @loop_index
// CHECK-NOT: arith.cmpi
// CHECK-NOT: arith.select
// CHECK: return
func.func @loop_index(%table: tensor<8x4xf32>) -> tensor<16x4xf32> {
  %e = tensor.empty() : tensor<16x4xf32>
  %r = linalg.generic {indexing_maps = [#map1], iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<16x4xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %seq = arith.constant 8 : index
    %p = arith.remui %i, %seq : index
    %j = linalg.index 1 : index
    %v = tensor.extract %table[%p, %j] : tensor<8x4xf32>
    linalg.yield %v : f32
  }
  -> tensor<16x4xf32>
  return %r : tensor<16x4xf32>
}

// -----

// An integer result has no NaN: the index is clamped (an out-of-range id
// reads element 0) and a remark says so. A dynamic table: its size is a
// tensor.dim before the generic (the table is captured); a negative id (index_castui of an i32) is out of range too.

#map0 = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @integer_clamped
// CHECK-SAME: (%[[IDS:.*]]: tensor<4xi32>, %[[TABLE:.*]]: tensor<?xi32>)
// CHECK: %[[C0D:.*]] = arith.constant 0 : index
// CHECK: %[[ROWS:.*]] = tensor.dim %[[TABLE]], %[[C0D]] : tensor<?xi32>
// CHECK: linalg.generic
// CHECK: ^bb0(%[[ID:.*]]: i32, %{{.*}}: i32):
// CHECK: %[[I:.*]] = arith.index_castui %[[ID]] : i32 to index
// CHECK: %[[OK:.*]] = arith.cmpi ult, %[[I]], %[[ROWS]] : index
// CHECK: %[[SAFE:.*]] = arith.select %[[OK]], %[[I]], %{{.*}} : index
// CHECK: %[[V:.*]] = tensor.extract %[[TABLE]][%[[SAFE]]] : tensor<?xi32>
// CHECK-NEXT: linalg.yield %[[V]] : i32
func.func @integer_clamped(%ids: tensor<4xi32>, %table: tensor<?xi32>) -> tensor<4xi32> {
  %e = tensor.empty() : tensor<4xi32>
  %r = linalg.generic {indexing_maps = [#map0, #map0], iterator_types = ["parallel"]}
      ins(%ids : tensor<4xi32>) outs(%e : tensor<4xi32>) {
  ^bb0(%id: i32, %out: i32):
    %i = arith.index_castui %id : i32 to index
    // expected-remark @+1 {{fp8-guard-gathers: an out-of-range index of this gather reads element 0 (its 'i32' result has no NaN)}}
    %v = tensor.extract %table[%i] : tensor<?xi32>
    linalg.yield %v : i32
  }
  -> tensor<4xi32>
  return %r : tensor<4xi32>
}

// -----

// Two data-dependent indices (a row and a column read from the inputs):
// both clamped, NaN unless both are in range.

#map0 = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @two_indices
// CHECK: %[[OKR:.*]] = arith.cmpi ult, %{{.*}}, %{{.*}} : index
// CHECK: %[[OKC:.*]] = arith.cmpi ult, %{{.*}}, %{{.*}} : index
// CHECK: %[[V:.*]] = tensor.extract
// CHECK: %[[ALL:.*]] = arith.andi %[[OKR]], %[[OKC]] : i1
// CHECK: %[[NAN:.*]] = arith.constant 0x7FFF : bf16
// CHECK: arith.select %[[ALL]], %[[V]], %[[NAN]] : bf16
func.func @two_indices(%rows: tensor<4xindex>, %cols: tensor<4xindex>, %table: tensor<6x5xbf16>) -> tensor<4xbf16> {
  %e = tensor.empty() : tensor<4xbf16>
  %r = linalg.generic {indexing_maps = [#map0, #map0, #map0], iterator_types = ["parallel"]}
      ins(%rows, %cols : tensor<4xindex>, tensor<4xindex>) outs(%e : tensor<4xbf16>) {
  ^bb0(%i: index, %j: index, %out: bf16):
    %v = tensor.extract %table[%i, %j] : tensor<6x5xbf16>
    linalg.yield %v : bf16
  }
  -> tensor<4xbf16>
  return %r : tensor<4xbf16>
}

// -----

// The ids read inside the body from a captured tensor (tensor.extract is
// pure, but it loads data): the row read from the table is guarded as an
// id from an input is.

#map1 = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @ids_read_in_body
// CHECK: %[[ID:.*]] = tensor.extract %{{.*}}[%{{.*}}] : tensor<4xi64>
// CHECK: %[[I:.*]] = arith.index_cast %[[ID]] : i64 to index
// CHECK: %[[OK:.*]] = arith.cmpi ult, %[[I]], %{{.*}} : index
// CHECK: %[[SAFE:.*]] = arith.select %[[OK]], %[[I]], %{{.*}} : index
// CHECK: %[[V:.*]] = tensor.extract %{{.*}}[%[[SAFE]], %{{.*}}] : tensor<16x8xf32>
// CHECK: arith.select %[[OK]], %[[V]], %{{.*}} : f32
func.func @ids_read_in_body(%ids: tensor<4xi64>, %table: tensor<16x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [#map1], iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<4x8xf32>) {
  ^bb0(%out: f32):
    %t = linalg.index 0 : index
    %id = tensor.extract %ids[%t] : tensor<4xi64>
    %i = arith.index_cast %id : i64 to index
    %j = linalg.index 1 : index
    %v = tensor.extract %table[%i, %j] : tensor<16x8xf32>
    linalg.yield %v : f32
  }
  -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// One id extracted before the generic (a loaded value captured by the
// body): guarded. A row from the function's own index argument or from a
// tensor.dim is the program's own: left alone.

#map1 = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @id_read_outside
// CHECK: linalg.generic
// CHECK: arith.cmpi ult
// CHECK: arith.select
// CHECK: tensor.extract
// CHECK: arith.select
// CHECK: linalg.yield
func.func @id_read_outside(%ids: tensor<4xi64>, %table: tensor<16x8xf32>) -> tensor<2x8xf32> {
  %c0 = arith.constant 0 : index
  %id = tensor.extract %ids[%c0] : tensor<4xi64>
  %i = arith.index_cast %id : i64 to index
  %e = tensor.empty() : tensor<2x8xf32>
  %r = linalg.generic {indexing_maps = [#map1], iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<2x8xf32>) {
  ^bb0(%out: f32):
    %j = linalg.index 1 : index
    %v = tensor.extract %table[%i, %j] : tensor<16x8xf32>
    linalg.yield %v : f32
  }
  -> tensor<2x8xf32>
  return %r : tensor<2x8xf32>
}

// CHECK-LABEL: func.func @program_rows
// CHECK-NOT: arith.cmpi
// CHECK: return
func.func @program_rows(%row: index, %table: tensor<16x8xf32>) -> tensor<2x8xf32> {
  %c1 = arith.constant 1 : index
  %n = tensor.dim %table, %c1 : tensor<16x8xf32>
  %e = tensor.empty() : tensor<2x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<2x8xf32>) {
  ^bb0(%out: f32):
    %j = linalg.index 1 : index
    %k = arith.remui %j, %n : index
    %v = tensor.extract %table[%row, %k] : tensor<16x8xf32>
    linalg.yield %v : f32
  }
  -> tensor<2x8xf32>
  return %r : tensor<2x8xf32>
}
