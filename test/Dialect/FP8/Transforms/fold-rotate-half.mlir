// RUN: fp8-opt %s --split-input-file --fp8-fold-rotate-half | FileCheck %s

// RoPE's forward rotate_half, cat(-x[..., 4:], x[..., :4]): one generic
// over the whole tensor reading x at (d + 4) mod 8, the negation for the
// low half, x itself for the high half.

#id = affine_map<(i, j, k) -> (i, j, k)>
// CHECK-DAG: #[[ROT:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, (d2 + 4) mod 8)>
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @forward
// CHECK-SAME:    (%[[X:.*]]: tensor<2x3x8xf32>)
// CHECK-NOT:     tensor.extract_slice
// CHECK-NOT:     tensor.insert_slice
// CHECK:         %[[C4:.*]] = arith.constant 4 : index
// CHECK:         %[[R:.*]] = linalg.generic {indexing_maps = [#[[ROT]], #[[ID]]]
// CHECK-SAME:      ins(%[[X]] : tensor<2x3x8xf32>)
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      %[[I:.*]] = linalg.index 2 : index
// CHECK-NEXT:      %[[LOW:.*]] = arith.cmpi ult, %[[I]], %[[C4]] : index
// CHECK-NEXT:      %[[N:.*]] = arith.negf %[[IN]] : f32
// CHECK-NEXT:      %[[S:.*]] = arith.select %[[LOW]], %[[N]], %[[IN]] : f32
// CHECK-NEXT:      linalg.yield %[[S]] : f32
// CHECK-NOT:     tensor.insert_slice
// CHECK:         return %[[R]]
func.func @forward(%x: tensor<2x3x8xf32>) -> tensor<2x3x8xf32> {
  %lo = tensor.extract_slice %x[0, 0, 0] [2, 3, 4] [1, 1, 1] : tensor<2x3x8xf32> to tensor<2x3x4xf32>
  %hi = tensor.extract_slice %x[0, 0, 4] [2, 3, 4] [1, 1, 1] : tensor<2x3x8xf32> to tensor<2x3x4xf32>
  %e = tensor.empty() : tensor<2x3x4xf32>
  %n = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%hi : tensor<2x3x4xf32>) outs(%e : tensor<2x3x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.negf %a : f32
    linalg.yield %r : f32
  } -> tensor<2x3x4xf32>
  %full = tensor.empty() : tensor<2x3x8xf32>
  %i0 = tensor.insert_slice %n into %full[0, 0, 0] [2, 3, 4] [1, 1, 1] : tensor<2x3x4xf32> into tensor<2x3x8xf32>
  %i1 = tensor.insert_slice %lo into %i0[0, 0, 4] [2, 3, 4] [1, 1, 1] : tensor<2x3x4xf32> into tensor<2x3x8xf32>
  return %i1 : tensor<2x3x8xf32>
}

// -----

// The backward's transpose, cat(u[..., 4:], -u[..., :4]), inserted high
// half first: the negation now belongs to the high half, the plain element
// to the low half.

#id = affine_map<(i, j) -> (i, j)>
// CHECK-DAG: #[[ROT:.*]] = affine_map<(d0, d1) -> (d0, (d1 + 4) mod 8)>
// CHECK-LABEL: func.func @backward
// CHECK:         linalg.generic {indexing_maps = [#[[ROT]], #{{.*}}]
// CHECK:           %[[LOW:.*]] = arith.cmpi ult
// CHECK-NEXT:      %[[N:.*]] = arith.negf %[[IN:.*]] : f32
// CHECK-NEXT:      arith.select %[[LOW]], %[[IN]], %[[N]] : f32
func.func @backward(%u: tensor<3x8xf32>, %d: tensor<3x8xf32>) -> tensor<3x8xf32> {
  %lo = tensor.extract_slice %u[0, 0] [3, 4] [1, 1] : tensor<3x8xf32> to tensor<3x4xf32>
  %hi = tensor.extract_slice %u[0, 4] [3, 4] [1, 1] : tensor<3x8xf32> to tensor<3x4xf32>
  %e = tensor.empty() : tensor<3x4xf32>
  %n = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%lo : tensor<3x4xf32>) outs(%e : tensor<3x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.negf %a : f32
    linalg.yield %r : f32
  } -> tensor<3x4xf32>
  %i0 = tensor.insert_slice %n into %d[0, 4] [3, 4] [1, 1] : tensor<3x4xf32> into tensor<3x8xf32>
  %i1 = tensor.insert_slice %hi into %i0[0, 0] [3, 4] [1, 1] : tensor<3x4xf32> into tensor<3x8xf32>
  return %i1 : tensor<3x8xf32>
}

// -----

// Not a rotation: the halves are inserted where they were (a copy, not a
// swap).

// CHECK-LABEL: func.func @not_swapped
// CHECK-NOT:     linalg.generic
// CHECK-COUNT-2: tensor.insert_slice
func.func @not_swapped(%x: tensor<3x8xf32>) -> tensor<3x8xf32> {
  %lo = tensor.extract_slice %x[0, 0] [3, 4] [1, 1] : tensor<3x8xf32> to tensor<3x4xf32>
  %hi = tensor.extract_slice %x[0, 4] [3, 4] [1, 1] : tensor<3x8xf32> to tensor<3x4xf32>
  %full = tensor.empty() : tensor<3x8xf32>
  %i0 = tensor.insert_slice %lo into %full[0, 0] [3, 4] [1, 1] : tensor<3x4xf32> into tensor<3x8xf32>
  %i1 = tensor.insert_slice %hi into %i0[0, 4] [3, 4] [1, 1] : tensor<3x4xf32> into tensor<3x8xf32>
  return %i1 : tensor<3x8xf32>
}

// -----

// Not one source: the halves are slices of two tensors.

// CHECK-LABEL: func.func @two_sources
// CHECK-NOT:     linalg.generic
// CHECK-COUNT-2: tensor.insert_slice
func.func @two_sources(%x: tensor<3x8xf32>, %y: tensor<3x8xf32>) -> tensor<3x8xf32> {
  %lo = tensor.extract_slice %x[0, 0] [3, 4] [1, 1] : tensor<3x8xf32> to tensor<3x4xf32>
  %hi = tensor.extract_slice %y[0, 4] [3, 4] [1, 1] : tensor<3x8xf32> to tensor<3x4xf32>
  %full = tensor.empty() : tensor<3x8xf32>
  %i0 = tensor.insert_slice %hi into %full[0, 0] [3, 4] [1, 1] : tensor<3x4xf32> into tensor<3x8xf32>
  %i1 = tensor.insert_slice %lo into %i0[0, 4] [3, 4] [1, 1] : tensor<3x4xf32> into tensor<3x8xf32>
  return %i1 : tensor<3x8xf32>
}

// -----

// Not halves: the slices are 3 and 5 wide (a concatenation, but no
// rotation by half the dimension).

// CHECK-LABEL: func.func @unequal_sizes
// CHECK-NOT:     linalg.generic
// CHECK-COUNT-2: tensor.insert_slice
func.func @unequal_sizes(%x: tensor<3x8xf32>) -> tensor<3x8xf32> {
  %lo = tensor.extract_slice %x[0, 0] [3, 3] [1, 1] : tensor<3x8xf32> to tensor<3x3xf32>
  %hi = tensor.extract_slice %x[0, 3] [3, 5] [1, 1] : tensor<3x8xf32> to tensor<3x5xf32>
  %full = tensor.empty() : tensor<3x8xf32>
  %i0 = tensor.insert_slice %hi into %full[0, 0] [3, 5] [1, 1] : tensor<3x5xf32> into tensor<3x8xf32>
  %i1 = tensor.insert_slice %lo into %i0[0, 5] [3, 3] [1, 1] : tensor<3x3xf32> into tensor<3x8xf32>
  return %i1 : tensor<3x8xf32>
}

// -----

// Not offsets 0 and D/2: quarters of a tensor of 16 (two inserts that
// leave half of the destination as it was).

// CHECK-LABEL: func.func @quarters
// CHECK-NOT:     linalg.generic
// CHECK-COUNT-2: tensor.insert_slice
func.func @quarters(%x: tensor<3x16xf32>, %d: tensor<3x16xf32>) -> tensor<3x16xf32> {
  %a = tensor.extract_slice %x[0, 0] [3, 4] [1, 1] : tensor<3x16xf32> to tensor<3x4xf32>
  %b = tensor.extract_slice %x[0, 4] [3, 4] [1, 1] : tensor<3x16xf32> to tensor<3x4xf32>
  %i0 = tensor.insert_slice %b into %d[0, 0] [3, 4] [1, 1] : tensor<3x4xf32> into tensor<3x16xf32>
  %i1 = tensor.insert_slice %a into %i0[0, 4] [3, 4] [1, 1] : tensor<3x4xf32> into tensor<3x16xf32>
  return %i1 : tensor<3x16xf32>
}

// -----

// Not a rotation of the result: the source is wider than the result
// (halves of 8 taken from a tensor of 16).

// CHECK-LABEL: func.func @wider_source
// CHECK-NOT:     linalg.generic
// CHECK-COUNT-2: tensor.insert_slice
func.func @wider_source(%x: tensor<3x16xf32>) -> tensor<3x8xf32> {
  %lo = tensor.extract_slice %x[0, 0] [3, 4] [1, 1] : tensor<3x16xf32> to tensor<3x4xf32>
  %hi = tensor.extract_slice %x[0, 4] [3, 4] [1, 1] : tensor<3x16xf32> to tensor<3x4xf32>
  %full = tensor.empty() : tensor<3x8xf32>
  %i0 = tensor.insert_slice %hi into %full[0, 0] [3, 4] [1, 1] : tensor<3x4xf32> into tensor<3x8xf32>
  %i1 = tensor.insert_slice %lo into %i0[0, 4] [3, 4] [1, 1] : tensor<3x4xf32> into tensor<3x8xf32>
  return %i1 : tensor<3x8xf32>
}

// -----

// Not a rotation along the last dimension: the halves are of the first
// dimension (offsets along another dimension than the last).

// CHECK-LABEL: func.func @leading_dimension
// CHECK-NOT:     linalg.generic
// CHECK-COUNT-2: tensor.insert_slice
func.func @leading_dimension(%x: tensor<8x3xf32>) -> tensor<8x3xf32> {
  %lo = tensor.extract_slice %x[0, 0] [4, 3] [1, 1] : tensor<8x3xf32> to tensor<4x3xf32>
  %hi = tensor.extract_slice %x[4, 0] [4, 3] [1, 1] : tensor<8x3xf32> to tensor<4x3xf32>
  %full = tensor.empty() : tensor<8x3xf32>
  %i0 = tensor.insert_slice %hi into %full[0, 0] [4, 3] [1, 1] : tensor<4x3xf32> into tensor<8x3xf32>
  %i1 = tensor.insert_slice %lo into %i0[4, 0] [4, 3] [1, 1] : tensor<4x3xf32> into tensor<8x3xf32>
  return %i1 : tensor<8x3xf32>
}

// -----

// Not element-wise: the op on a half reads its output (an accumulation),
// which the rotation cannot apply per element.

#id = affine_map<(i, j) -> (i, j)>
// CHECK-LABEL: func.func @reads_output
// CHECK-COUNT-2: tensor.insert_slice
func.func @reads_output(%x: tensor<3x8xf32>, %acc: tensor<3x4xf32>) -> tensor<3x8xf32> {
  %lo = tensor.extract_slice %x[0, 0] [3, 4] [1, 1] : tensor<3x8xf32> to tensor<3x4xf32>
  %hi = tensor.extract_slice %x[0, 4] [3, 4] [1, 1] : tensor<3x8xf32> to tensor<3x4xf32>
  %n = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%hi : tensor<3x4xf32>) outs(%acc : tensor<3x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<3x4xf32>
  %full = tensor.empty() : tensor<3x8xf32>
  %i0 = tensor.insert_slice %n into %full[0, 0] [3, 4] [1, 1] : tensor<3x4xf32> into tensor<3x8xf32>
  %i1 = tensor.insert_slice %lo into %i0[0, 4] [3, 4] [1, 1] : tensor<3x4xf32> into tensor<3x8xf32>
  return %i1 : tensor<3x8xf32>
}

// -----

// Not static: a dynamic leading dimension (the rotation's generic needs
// the whole shape) is left alone.

// CHECK-LABEL: func.func @dynamic_rows
// CHECK-NOT:     linalg.generic
// CHECK-COUNT-2: tensor.insert_slice
func.func @dynamic_rows(%x: tensor<?x8xf32>, %n: index) -> tensor<?x8xf32> {
  %lo = tensor.extract_slice %x[0, 0] [%n, 4] [1, 1] : tensor<?x8xf32> to tensor<?x4xf32>
  %hi = tensor.extract_slice %x[0, 4] [%n, 4] [1, 1] : tensor<?x8xf32> to tensor<?x4xf32>
  %full = tensor.empty(%n) : tensor<?x8xf32>
  %i0 = tensor.insert_slice %hi into %full[0, 0] [%n, 4] [1, 1] : tensor<?x4xf32> into tensor<?x8xf32>
  %i1 = tensor.insert_slice %lo into %i0[0, 4] [%n, 4] [1, 1] : tensor<?x4xf32> into tensor<?x8xf32>
  return %i1 : tensor<?x8xf32>
}
