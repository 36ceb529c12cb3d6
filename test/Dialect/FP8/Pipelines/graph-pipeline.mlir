// RUN: fp8-opt %s --fp8-pipeline="policy=rowwise report-format=json" -o /dev/null | FileCheck %s --check-prefix=JSON
// RUN: fp8-opt %s --fp8-pipeline="report-format=json" -o /dev/null | FileCheck %s --check-prefix=JSON-DS
// RUN: fp8-opt %s --fp8-pipeline="overrides=proj:bf16 report=false" | FileCheck %s --check-prefix=OVERRIDE
// RUN: not fp8-opt %s --fp8-pipeline="policy=fp4" 2>&1 | FileCheck %s --check-prefix=BADPOLICY
// RUN: fp8-opt %s --fp8-pipeline="report=false" | FileCheck %s

// CHECK: module attributes {fp8.policy = #fp8.policy<name = "deepseek-v3"
// CHECK: fp8.quantize %arg0 : tensor<16x256xf32> -> !fp8.scaled<16x256xf8E4M3FN, block = [1, 128], scale = f32>
// CHECK: fp8.quantize %arg1 : tensor<512x256xf32> -> !fp8.scaled<512x256xf8E4M3FN, block = [128, 128], scale = f32>
// CHECK: fp8.scaled_matmul

// JSON: "policy": "rowwise"
// JSON: "fp8_matmul_flop_share": 1
// JSON-DS: "policy": "deepseek-v3"
// OVERRIDE: linalg.matmul {{.*}}fp8.precision = #fp8.precision<bf16>
// OVERRIDE-NOT: fp8.scaled_matmul
// BADPOLICY: fp8-assign-precision: unknown policy 'fp4'

#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
func.func @f(%x: tensor<16x256xf32>, %w: tensor<512x256xf32>, %init: tensor<16x512xf32>) -> tensor<16x512xf32> {
  %e0 = tensor.empty() : tensor<256x512xf32>
  %wt = linalg.generic {indexing_maps = [#id, #tr], iterator_types = ["parallel", "parallel"]} ins(%w : tensor<512x256xf32>) outs(%e0 : tensor<256x512xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<256x512xf32>
  %cst = arith.constant 0.0 : f32
  %f = linalg.fill ins(%cst : f32) outs(%init : tensor<16x512xf32>) -> tensor<16x512xf32>
  %y = linalg.matmul ins(%x, %wt : tensor<16x256xf32>, tensor<256x512xf32>) outs(%f : tensor<16x512xf32>) -> tensor<16x512xf32> loc("model.proj")
  return %y : tensor<16x512xf32>
}
