// RUN: fp8-opt %s -split-input-file --fp8-lower-to-linalg=tiled | FileCheck %s

// Masked with counts: one loop over the G groups, the valid rows clamped
// to [0, M], an empty group skipped, ONE call of the shared tiled 2-D kernel
// (whatever G is) on the group's dynamic-row slices, inserted into the
// +0.0-filled result.
// CHECK-LABEL: func.func @masked_counts
// CHECK: %[[ZERO:[a-z0-9_]+]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<8x5x40xf32>)
// CHECK: scf.for %[[G:[a-z0-9_]+]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:[a-z0-9_]+]] = %[[ZERO]])
// CHECK: %[[CNT:[a-z0-9_]+]] = tensor.extract %{{.*}}[%[[G]]] : tensor<8xi32>
// CHECK: arith.maxsi
// CHECK: %[[ROWS:[a-z0-9_]+]] = arith.minsi
// CHECK: scf.if
// CHECK: tensor.extract_slice %{{.*}}[%[[G]], 0, 0] [1, %[[ROWS]], 200] [1, 1, 1] : tensor<8x5x200xf8E4M3FN> to tensor<?x200xf8E4M3FN>
// CHECK: tensor.extract_slice %{{.*}}[%[[G]], 0, 0] [1, 40, 200] [1, 1, 1] : tensor<8x40x200xf8E4M3FN> to tensor<40x200xf8E4M3FN>
// CHECK: func.call @__scaled_matmul_tiled_
// CHECK-NOT: func.call @__scaled_matmul_tiled_
// CHECK: tensor.insert_slice %{{.*}} into %[[ACC]][%[[G]], 0, 0] [1, %[[ROWS]], 40]
// CHECK: } else {
// CHECK-NEXT: scf.yield %[[ACC]]
// CHECK-COUNT-1: func.func private @__scaled_matmul_tiled_
func.func @masked_counts(%qx: !fp8.scaled<8x5x200xf8E4M3FN, block = [1, 1, 128], scale = f32>,
                         %qw: !fp8.scaled<8x40x200xf8E4M3FN, block = [1, 128, 128], scale = f32>,
                         %n: tensor<8xi32>) -> tensor<8x5x40xf32> {
  %d = fp8.grouped_scaled_matmul masked %qx, %qw counts(%n : tensor<8xi32>) : !fp8.scaled<8x5x200xf8E4M3FN, block = [1, 1, 128], scale = f32>, !fp8.scaled<8x40x200xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<8x5x40xf32>
  return %d : tensor<8x5x40xf32>
}

// -----

// Masked without counts: static slices (the 2-D kernel of an ordinary
// 5x200 x 40x200 GEMM), C sliced per group, the discardable attributes
// (role, GEMM kind) carried to the 2-D product.
// CHECK-LABEL: func.func @masked_all_rows
// CHECK: scf.for %[[G:[a-z0-9_]+]] =
// CHECK-NOT: scf.if
// CHECK: tensor.extract_slice %{{.*}}[%[[G]], 0, 0] [1, 5, 40] [1, 1, 1] : tensor<4x5x40xbf16> to tensor<5x40xbf16>
// CHECK: func.call @__scaled_matmul_tiled_tensor_5x200xf8E4M3FN
// CHECK: tensor.insert_slice %{{.*}} : tensor<5x40xbf16> into tensor<4x5x40xbf16>
func.func @masked_all_rows(%qx: !fp8.scaled<4x5x200xf8E4M3FN, block = [1, 1, 128], scale = f32>,
                           %qw: !fp8.scaled<4x40x200xf8E4M3FN, block = [1, 128, 128], scale = f32>,
                           %c: tensor<4x5x40xbf16>) -> tensor<4x5x40xbf16> {
  %d = fp8.grouped_scaled_matmul masked %qx, %qw acc(%c : tensor<4x5x40xbf16>) {fp8.gemm = #fp8.gemm<fprop>} : !fp8.scaled<4x5x200xf8E4M3FN, block = [1, 1, 128], scale = f32>, !fp8.scaled<4x40x200xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<4x5x40xbf16>
  return %d : tensor<4x5x40xbf16>
}

// -----

// Contiguous: a loop over the runs of equal group index; run-time checks of
// the index range and of the alignment of a group's first row; padding runs
// (-1) keep +0.0; one kernel call for all runs.
// CHECK-LABEL: func.func @contiguous
// CHECK: scf.while (%[[R:[a-z0-9_]+]] = %{{.*}}, %[[ACC:[a-z0-9_]+]] = %{{.*}}) : (index, tensor<9x40xf32>)
// CHECK: %[[GID:[a-z0-9_]+]] = tensor.extract %{{.*}}[%[[R]]] : tensor<9xi32>
// CHECK: cf.assert %{{.*}}, "fp8.grouped_scaled_matmul: a group index in group_ids is outside [-1, G)"
// CHECK: %[[END:[a-z0-9_]+]] = scf.while
// CHECK: arith.remui %[[R]], %{{.*}}
// CHECK: cf.assert %{{.*}}, "fp8.grouped_scaled_matmul: a group's rows in group_ids start at a row that is not a multiple of m_alignment"
// CHECK: scf.if
// CHECK: tensor.extract_slice %{{.*}}[%[[R]], 0] [%{{.*}}, 200] [1, 1] : tensor<9x200xf8E4M3FN> to tensor<?x200xf8E4M3FN>
// CHECK: func.call @__scaled_matmul_tiled_
// CHECK-NOT: func.call @__scaled_matmul_tiled_
// CHECK: scf.yield %[[END]], %{{.*}} : index, tensor<9x40xf32>
func.func @contiguous(%qx: !fp8.scaled<9x200xf8E4M3FN, block = [1, 128], scale = f32>,
                      %qw: !fp8.scaled<4x40x200xf8E4M3FN, block = [1, 128, 128], scale = f32>,
                      %ids: tensor<9xi32>) -> tensor<9x40xf32> {
  %d = fp8.grouped_scaled_matmul contiguous %qx, %qw group_ids(%ids : tensor<9xi32>) {m_alignment = 2} : !fp8.scaled<9x200xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<4x40x200xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<9x40xf32>
  return %d : tensor<9x40xf32>
}
