// RUN: fp8-opt %s | fp8-opt | FileCheck %s
// RUN: fp8-opt %s --mlir-print-op-generic | fp8-opt | FileCheck %s

// CHECK-LABEL: func.func @activation_tile
// CHECK-SAME: !fp8.scaled<32x4096xf8E4M3FN, block = [1, 128], scale = f32>
func.func @activation_tile(%a: !fp8.scaled<32x4096xf8E4M3FN, block = [1, 128], scale = f32>)
    -> !fp8.scaled<32x4096xf8E4M3FN, block = [1, 128], scale = f32> {
  return %a : !fp8.scaled<32x4096xf8E4M3FN, block = [1, 128], scale = f32>
}

// CHECK-LABEL: func.func @weight_block_e5m2_e8m0
// CHECK-SAME: !fp8.scaled<7168x2112xf8E5M2, block = [128, 128], scale = f8E8M0FNU>
func.func @weight_block_e5m2_e8m0(%w: !fp8.scaled<7168x2112xf8E5M2, block = [128, 128], scale = f8E8M0FNU>) {
  return
}

// CHECK-LABEL: func.func @dynamic_and_rank3
// CHECK-SAME: !fp8.scaled<?x40x1536xf8E4M3FN, block = [1, 1, 128], scale = f32>
func.func @dynamic_and_rank3(%x: !fp8.scaled<?x40x1536xf8E4M3FN, block = [1, 1, 128], scale = f32>) {
  return
}

// A block larger than the tensor (one block per dimension), rank 0 and rank 1.
// CHECK-LABEL: func.func @edge_shapes
// CHECK-SAME: !fp8.scaled<7x3xf8E4M3FN, block = [1024, 1024], scale = f32>
// CHECK-SAME: !fp8.scaled<f8E4M3FN, block = [], scale = f32>
// CHECK-SAME: !fp8.scaled<200xf8E5M2, block = [128], scale = f32>
func.func @edge_shapes(%a: !fp8.scaled<7x3xf8E4M3FN, block = [1024, 1024], scale = f32>,
                       %b: !fp8.scaled<f8E4M3FN, block = [], scale = f32>,
                       %c: !fp8.scaled<200xf8E5M2, block = [128], scale = f32>) {
  return
}
