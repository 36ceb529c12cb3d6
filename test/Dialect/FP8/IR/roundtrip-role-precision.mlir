// RUN: fp8-opt %s | fp8-opt | FileCheck %s
// RUN: fp8-opt %s --mlir-print-op-generic | fp8-opt | FileCheck %s

// The analysis annotations, as discardable attributes on upstream ops.
// CHECK-LABEL: func.func @annotated
func.func @annotated(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %o: tensor<4x16xf32>) -> tensor<4x16xf32> {
  // CHECK: linalg.matmul {fp8.precision = #fp8.precision<fp8>, fp8.reason = "heuristic: contraction with a weight operand", fp8.role = #fp8.role<linear>}
  %0 = linalg.matmul {fp8.role = #fp8.role<linear>, fp8.precision = #fp8.precision<fp8>,
                      fp8.reason = "heuristic: contraction with a weight operand"}
       ins(%x, %w : tensor<4x8xf32>, tensor<8x16xf32>) outs(%o : tensor<4x16xf32>) -> tensor<4x16xf32>
  // CHECK: arith.addf {{.*}} {fp8.precision = #fp8.precision<bf16>, fp8.role = #fp8.role<gating>}
  %1 = arith.addf %0, %0 {fp8.role = #fp8.role<gating>, fp8.precision = #fp8.precision<bf16>} : tensor<4x16xf32>
  // CHECK: arith.mulf {{.*}} {fp8.precision = #fp8.precision<f32>, fp8.role = #fp8.role<normalization>}
  %2 = arith.mulf %1, %1 {fp8.role = #fp8.role<normalization>, fp8.precision = #fp8.precision<f32>} : tensor<4x16xf32>
  return %2 : tensor<4x16xf32>
}

// Every role and precision value parses and prints.
// CHECK-LABEL: func.func @all_values
// CHECK-SAME: modes = [#fp8.scale_mode<f32>, #fp8.scale_mode<pow2>]
// CHECK-SAME: precisions = [#fp8.precision<fp8>, #fp8.precision<bf16>, #fp8.precision<f32>]
// CHECK-SAME: roles = [#fp8.role<linear>, #fp8.role<embedding>, #fp8.role<output_head>, #fp8.role<gating>, #fp8.role<normalization>, #fp8.role<attention>, #fp8.role<other>]
func.func @all_values() attributes {
    roles = [#fp8.role<linear>, #fp8.role<embedding>, #fp8.role<output_head>, #fp8.role<gating>,
             #fp8.role<normalization>, #fp8.role<attention>, #fp8.role<other>],
    precisions = [#fp8.precision<fp8>, #fp8.precision<bf16>, #fp8.precision<f32>],
    modes = [#fp8.scale_mode<f32>, #fp8.scale_mode<pow2>]} {
  return
}
