// RUN: fp8-opt %s --fp8-tile-scaled-matmul --canonicalize | FileCheck %s

// A promotion interval near INT64_MAX (per-tensor blocks allow any
// multiple of 32): one K chunk of the whole K. ceil(K / interval) computed
// as (K + interval - 1) / interval overflowed to no chunk at all, and the
// result was zeros.
// CHECK-LABEL: func.func @huge_interval
// CHECK: scf.for %{{.*}} = %c0 to %c256 step %c1 iter_args(%{{.*}} = %cst) -> (f32)
// CHECK: arith.mulf
// CHECK: arith.addf
func.func @huge_interval(%a: !fp8.scaled<4x256xf8E4M3FN, block = [4, 256], scale = f32>,
                         %b: !fp8.scaled<8x256xf8E4M3FN, block = [8, 256], scale = f32>) -> tensor<4x8xf32> {
  %d = fp8.scaled_matmul %a, %b {promote_interval = 9223372036854775776 : i64} : !fp8.scaled<4x256xf8E4M3FN, block = [4, 256], scale = f32>, !fp8.scaled<8x256xf8E4M3FN, block = [8, 256], scale = f32> -> tensor<4x8xf32>
  return %d : tensor<4x8xf32>
}
