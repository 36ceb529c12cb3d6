// RUN: fp8-opt %s -split-input-file -fp8-assign-precision | FileCheck %s
// RUN: fp8-opt %s -split-input-file --fp8-pipeline=report=false | FileCheck %s --check-prefix=PIPE

// A router whose logits pass through a scale (1/temperature) and a bias
// (DeepSeek-V3's aux-loss-free balancing bias) before the sigmoid: still the
// gating, kept in high precision (DeepSeek-V3 §3.3.1), not an FP8 linear.
// The search for the softmax/sigmoid follows elementwise users, not only
// the router's direct ones.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @router_scale_bias_sigmoid
// PIPE-LABEL: func.func @router_scale_bias_sigmoid
// PIPE-NOT: fp8.quantize
// PIPE: linalg.matmul {{.*}}fp8.role = #fp8.role<gating>
// PIPE-NOT: fp8.scaled_matmul
// PIPE: return
// CHECK: linalg.matmul {fp8.precision = #fp8.precision<bf16>, fp8.reason = "heuristic: expert-count linear (N = 8) feeding softmax/sigmoid/top-k", fp8.role = #fp8.role<gating>}
func.func @router_scale_bias_sigmoid(%x: tensor<16x256xf32>, %wg: tensor<256x8xf32>, %bias: tensor<8xf32>) -> tensor<16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %logits = linalg.matmul ins(%x, %wg : tensor<16x256xf32>, tensor<256x8xf32>) outs(%init : tensor<16x8xf32>) -> tensor<16x8xf32>
  %scaled = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%logits : tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = arith.constant 0.5 : f32
    %s = arith.mulf %in, %t : f32
    linalg.yield %s : f32
  } -> tensor<16x8xf32>
  %biased = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%scaled, %bias : tensor<16x8xf32>, tensor<8xf32>) outs(%e : tensor<16x8xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %s = arith.addf %in, %b : f32
    linalg.yield %s : f32
  } -> tensor<16x8xf32>
  %p = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%biased : tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %one = arith.constant 1.0 : f32
    %n = arith.negf %in : f32
    %x2 = math.exp %n : f32
    %d = arith.addf %one, %x2 : f32
    %r = arith.divf %one, %d : f32
    linalg.yield %r : f32
  } -> tensor<16x8xf32>
  return %p : tensor<16x8xf32>
}

// -----

// The same router shape whose logits only pass through a scale and a bias
// and are returned (no softmax/sigmoid/top-k anywhere): an ordinary linear.
#id2 = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @small_linear_scaled
// PIPE-LABEL: func.func @small_linear_scaled
// PIPE: fp8.quantize
// PIPE: fp8.scaled_matmul
// CHECK: linalg.matmul {fp8.precision = #fp8.precision<fp8>, fp8.reason = "heuristic: contraction with a weight (function argument)", fp8.role = #fp8.role<linear>}
func.func @small_linear_scaled(%x: tensor<16x256xf32>, %wg: tensor<256x8xf32>) -> tensor<16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %logits = linalg.matmul ins(%x, %wg : tensor<16x256xf32>, tensor<256x8xf32>) outs(%init : tensor<16x8xf32>) -> tensor<16x8xf32>
  %scaled = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%logits : tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = arith.constant 0.5 : f32
    %s = arith.mulf %in, %t : f32
    linalg.yield %s : f32
  } -> tensor<16x8xf32>
  return %scaled : tensor<16x8xf32>
}
