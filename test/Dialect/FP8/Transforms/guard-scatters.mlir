// RUN: fp8-opt %s -split-input-file -fp8-guard-gathers -verify-diagnostics | FileCheck %s
// Idempotent: a second run changes nothing.
// RUN: fp8-opt %s -split-input-file -fp8-guard-gathers -verify-diagnostics > %t.once
// RUN: fp8-opt %t.once -split-input-file -fp8-guard-gathers -verify-diagnostics > %t.twice
// RUN: diff %t.once %t.twice

// fp8-guard-gathers outside linalg bodies: writes and reads at offsets
// computed from loaded data (GuardSlices.cpp).

// The language model's embedding gradient (lm_graph._embedding_backward):
// a loop over the tokens scatter-adding each token's gradient row into the
// table row of its id. The offset is compared unsigned with 16 - 1 (the
// last row a one-row slice fits at), the read and the write use the
// clamped offset, and the update keeps the old row where the id was out of
// range: the write puts back what the read took, so it is dropped.

#map = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @embedding_gradient
// CHECK-SAME: (%[[TOKENS:.*]]: tensor<4xi64>, %[[DX:.*]]: tensor<4x8xf32>
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}})
// CHECK: %[[TOK:.*]] = tensor.extract %[[TOKENS]][%[[I]]] : tensor<4xi64>
// CHECK: %[[ROW:.*]] = arith.index_cast %[[TOK]] : i64 to index
// CHECK: %[[LAST:.*]] = arith.constant 15 : index
// CHECK: %[[OK:.*]] = arith.cmpi ule, %[[ROW]], %[[LAST]] : index
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[SAFE:.*]] = arith.select %[[OK]], %[[ROW]], %[[C0]] : index
// CHECK: %[[CUR:.*]] = tensor.extract_slice %[[ACC]][%[[SAFE]], 0] [1, 8] [1, 1]
// CHECK: %[[DROW:.*]] = tensor.extract_slice %[[DX]][%[[I]], 0] [1, 8] [1, 1]
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} ins(%[[DROW]] : tensor<8xf32>) outs(%[[CUR]] : tensor<8xf32>)
// CHECK: ^bb0(%[[IN:.*]]: f32, %[[OUT:.*]]: f32):
// CHECK: %[[ADD:.*]] = arith.addf %[[OUT]], %[[IN]] : f32
// CHECK: %[[KEEP:.*]] = arith.select %[[OK]], %[[ADD]], %[[OUT]] : f32
// CHECK: linalg.yield %[[KEEP]] : f32
// CHECK: %[[NEW:.*]] = tensor.insert_slice %[[SUM]] into %[[ACC]][%[[SAFE]], 0] [1, 8] [1, 1]
// CHECK: scf.yield %[[NEW]]
func.func @embedding_gradient(%tokens: tensor<4xi64>, %dx: tensor<4x8xf32>, %zero: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> (tensor<16x8xf32>) {
    %tok = tensor.extract %tokens[%i] : tensor<4xi64>
    %row = arith.index_cast %tok : i64 to index
    %cur = tensor.extract_slice %acc[%row, 0] [1, 8] [1, 1] : tensor<16x8xf32> to tensor<8xf32>
    %drow = tensor.extract_slice %dx[%i, 0] [1, 8] [1, 1] : tensor<4x8xf32> to tensor<8xf32>
    %sum = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
        ins(%drow : tensor<8xf32>) outs(%cur : tensor<8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %a = arith.addf %out, %in : f32
      linalg.yield %a : f32
    } -> tensor<8xf32>
    %new = tensor.insert_slice %sum into %acc[%row, 0] [1, 8] [1, 1] : tensor<8xf32> into tensor<16x8xf32>
    scf.yield %new : tensor<16x8xf32>
  }
  return %r : tensor<16x8xf32>
}

// -----

// Offsets from the loop's induction variable, constants and tensor.dim are
// the program's own: left alone.

// CHECK-LABEL: func.func @loop_offsets
// CHECK-NOT: arith.cmpi
// CHECK-NOT: arith.select
// CHECK-NOT: scf.if
// CHECK: return
func.func @loop_offsets(%src: tensor<4x8xf32>, %init: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %init) -> (tensor<8x8xf32>) {
    %n = tensor.dim %src, %c0 : tensor<4x8xf32>
    %j = arith.addi %i, %n : index
    %row = tensor.extract_slice %src[%i, 0] [1, 8] [1, 1] : tensor<4x8xf32> to tensor<1x8xf32>
    %new = tensor.insert_slice %row into %acc[%j, 0] [1, 8] [1, 1] : tensor<1x8xf32> into tensor<8x8xf32>
    scf.yield %new : tensor<8x8xf32>
  }
  return %r : tensor<8x8xf32>
}

// -----

// A write of a two-row slice at an offset read from a tensor, not a
// read-modify-write: it runs under an scf.if. The last offset a two-row
// slice fits at in ten rows is 10 - 2 = 8 (unsigned: -1 is out of range).

// CHECK-LABEL: func.func @insert_two_rows
// CHECK-SAME: (%[[OFFS:.*]]: tensor<2xindex>, %[[UPD:.*]]: tensor<2x4xf32>, %[[DEST:.*]]: tensor<10x4xf32>)
// CHECK: %[[OFF:.*]] = tensor.extract %[[OFFS]]
// CHECK: %[[LAST:.*]] = arith.constant 8 : index
// CHECK: %[[OK:.*]] = arith.cmpi ule, %[[OFF]], %[[LAST]] : index
// CHECK: %[[SAFE:.*]] = arith.select %[[OK]], %[[OFF]], %{{.*}} : index
// CHECK: %[[R:.*]] = scf.if %[[OK]] -> (tensor<10x4xf32>) {
// CHECK-NEXT: %[[INS:.*]] = tensor.insert_slice %[[UPD]] into %[[DEST]][%[[SAFE]], 0] [2, 4] [1, 1]
// CHECK-NEXT: scf.yield %[[INS]]
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[DEST]]
// CHECK: return %[[R]]
func.func @insert_two_rows(%offs: tensor<2xindex>, %upd: tensor<2x4xf32>, %dest: tensor<10x4xf32>) -> tensor<10x4xf32> {
  %c1 = arith.constant 1 : index
  %off = tensor.extract %offs[%c1] : tensor<2xindex>
  %r = tensor.insert_slice %upd into %dest[%off, 0] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<10x4xf32>
  return %r : tensor<10x4xf32>
}

// -----

// A strided slice: three elements two apart span 4 more, so the last
// offset is 10 - 1 - 4 = 5. A dynamic dimension: the offset is below
// `size - 1` where the slice fits (`1 < size`), below 0 (never) otherwise.

// CHECK-LABEL: func.func @strided_and_dynamic
// CHECK: %[[LAST:.*]] = arith.constant 5 : index
// CHECK: arith.cmpi ule, %{{.*}}, %[[LAST]] : index
// CHECK: tensor.extract_slice %{{.*}}[%{{.*}}] [3] [2] : tensor<10xf32> to tensor<3xf32>
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[SIZE:.*]] = tensor.dim %{{.*}}, %[[C0]] : tensor<?x4xf32>
// CHECK: %[[SPAN:.*]] = arith.constant 1 : index
// CHECK: %[[FITS:.*]] = arith.cmpi ult, %[[SPAN]], %[[SIZE]] : index
// CHECK: %[[REST:.*]] = arith.subi %[[SIZE]], %[[SPAN]] : index
// CHECK: %[[BOUND:.*]] = arith.select %[[FITS]], %[[REST]], %{{.*}} : index
// CHECK: %[[OK:.*]] = arith.cmpi ult, %{{.*}}, %[[BOUND]] : index
// CHECK: scf.if %[[OK]]
func.func @strided_and_dynamic(%offs: tensor<2xindex>, %v: tensor<10xf32>, %upd: tensor<2x4xf32>, %dest: tensor<?x4xf32>) -> (tensor<3xf32>, tensor<?x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %o0 = tensor.extract %offs[%c0] : tensor<2xindex>
  %o1 = tensor.extract %offs[%c1] : tensor<2xindex>
  // expected-remark @+1 {{fp8-guard-gathers: an out-of-range offset of this slice reads at offset 0 (a slice is not filled with NaN)}}
  %s = tensor.extract_slice %v[%o0] [3] [2] : tensor<10xf32> to tensor<3xf32>
  %r = tensor.insert_slice %upd into %dest[%o1, 0] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<?x4xf32>
  return %s, %r : tensor<3xf32>, tensor<?x4xf32>
}

// -----

// One element written at an index read from a tensor: the element at the
// clamped index is written back where the index is out of range. One read
// at such an index outside a linalg body: NaN, as a gather's.

// CHECK-LABEL: func.func @element_write_and_read
// CHECK-SAME: (%[[IDS:.*]]: tensor<2xi32>, %[[V:.*]]: f32, %[[T:.*]]: tensor<6xf32>)
// CHECK: %[[W:.*]] = arith.index_castui
// CHECK: %[[LAST:.*]] = arith.constant 5 : index
// CHECK: %[[OKW:.*]] = arith.cmpi ule, %[[W]], %[[LAST]] : index
// CHECK: %[[SW:.*]] = arith.select %[[OKW]], %[[W]], %{{.*}} : index
// CHECK: %[[OLD:.*]] = tensor.extract %[[T]][%[[SW]]] : tensor<6xf32>
// CHECK: %[[NEWV:.*]] = arith.select %[[OKW]], %[[V]], %[[OLD]] : f32
// CHECK: %[[T2:.*]] = tensor.insert %[[NEWV]] into %[[T]][%[[SW]]] : tensor<6xf32>
// CHECK: %[[R:.*]] = arith.index_cast
// CHECK: %[[OKR:.*]] = arith.cmpi ule, %[[R]], %{{.*}} : index
// CHECK: %[[SR:.*]] = arith.select %[[OKR]], %[[R]], %{{.*}} : index
// CHECK: %[[X:.*]] = tensor.extract %[[T2]][%[[SR]]] : tensor<6xf32>
// CHECK: %[[NAN:.*]] = arith.constant 0x7FFFFFFF : f32
// CHECK: %[[XR:.*]] = arith.select %[[OKR]], %[[X]], %[[NAN]] : f32
// CHECK: return %[[T2]], %[[XR]]
func.func @element_write_and_read(%ids: tensor<2xi32>, %v: f32, %t: tensor<6xf32>) -> (tensor<6xf32>, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = tensor.extract %ids[%c0] : tensor<2xi32>
  %w = arith.index_castui %a : i32 to index
  %t2 = tensor.insert %v into %t[%w] : tensor<6xf32>
  %b = tensor.extract %ids[%c1] : tensor<2xi32>
  %r = arith.index_cast %b : i32 to index
  %x = tensor.extract %t2[%r] : tensor<6xf32>
  return %t2, %x : tensor<6xf32>, f32
}

// -----

// An offset clamped by hand (`select(x ult 16, x, 0)`, the target pick's
// form) is in bounds already: left alone (an out-of-range id then writes
// row 0, as the program says).

// CHECK-LABEL: func.func @already_clamped
// CHECK: arith.cmpi ult
// CHECK-NOT: arith.cmpi
// CHECK-NOT: scf.if
// CHECK: tensor.insert_slice
func.func @already_clamped(%ids: tensor<1xi64>, %upd: tensor<1x8xf32>, %dest: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %c0 = arith.constant 0 : index
  %id = tensor.extract %ids[%c0] : tensor<1xi64>
  %n = arith.constant 16 : i64
  %ok = arith.cmpi ult, %id, %n : i64
  %z = arith.constant 0 : i64
  %safe = arith.select %ok, %id, %z : i64
  %row = arith.index_cast %safe : i64 to index
  %r = tensor.insert_slice %upd into %dest[%row, 0] [1, 8] [1, 1] : tensor<1x8xf32> into tensor<16x8xf32>
  return %r : tensor<16x8xf32>
}
