// RUN: fp8-opt %s -split-input-file --fp8-pipeline="report=false" | FileCheck %s

// docs/regression-cases.md case 21 in TOSA form: an f32 weight argument ->
// tosa.cast to bf16 -> tosa.transpose -> tosa.reshape -> tosa.matmul, the
// activation also an argument. After fp8-convert-tosa the weight is found
// through the cast, transpose and reshape: [N, K] = [512, 256] with 128x128
// blocks, the activation 1x128 tiles, no requantize.
// CHECK-LABEL: func.func @case21_tosa
// CHECK-DAG: fp8.quantize %{{.*}} : tensor<16x256xbf16> -> !fp8.scaled<16x256xf8E4M3FN, block = [1, 128], scale = f32>
// CHECK-DAG: fp8.quantize %{{.*}} : tensor<512x256xbf16> -> !fp8.scaled<512x256xf8E4M3FN, block = [128, 128], scale = f32>
// CHECK-NOT: fp8.requantize
// CHECK: fp8.scaled_matmul {{.*}}fp8.reason = "heuristic: contraction with a weight (function argument)", fp8.role = #fp8.role<linear>
func.func @case21_tosa(%x: tensor<1x16x256xbf16>, %w: tensor<512x256xf32>) -> tensor<1x16x512xf32> {
  %wb = tosa.cast %w : (tensor<512x256xf32>) -> tensor<512x256xbf16>
  %wt = tosa.transpose %wb {perms = array<i32: 1, 0>} : (tensor<512x256xbf16>) -> tensor<256x512xbf16>
  %s3 = tosa.const_shape {values = dense<[1, 256, 512]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %w3 = tosa.reshape %wt, %s3 : (tensor<256x512xbf16>, !tosa.shape<3>) -> tensor<1x256x512xbf16>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xbf16>}> : () -> tensor<1xbf16>
  %y = tosa.matmul %x, %w3, %zp, %zp : (tensor<1x16x256xbf16>, tensor<1x256x512xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<1x16x512xf32>
  return %y : tensor<1x16x512xf32>
}

// -----

// docs/regression-cases.md case 22 in TOSA form: a router computed in f32
// (tosa.cast of the bf16 activation and weight, the weight transposed and
// reshaped) feeding tosa.sigmoid: gating, kept high, not attention.
// CHECK-LABEL: func.func @case22_tosa
// CHECK-NOT: fp8.quantize
// CHECK: linalg.batch_matmul {fp8.precision = #fp8.precision<bf16>, fp8.reason = "heuristic: expert-count linear (N = 8) feeding softmax/sigmoid/top-k", fp8.role = #fp8.role<gating>}
func.func @case22_tosa(%x: tensor<1x16x256xbf16>, %w: tensor<8x256xbf16>) -> tensor<1x16x8xf32> {
  %xf = tosa.cast %x : (tensor<1x16x256xbf16>) -> tensor<1x16x256xf32>
  %wf = tosa.cast %w : (tensor<8x256xbf16>) -> tensor<8x256xf32>
  %wt = tosa.transpose %wf {perms = array<i32: 1, 0>} : (tensor<8x256xf32>) -> tensor<256x8xf32>
  %s3 = tosa.const_shape {values = dense<[1, 256, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %w3 = tosa.reshape %wt, %s3 : (tensor<256x8xf32>, !tosa.shape<3>) -> tensor<1x256x8xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %logits = tosa.matmul %xf, %w3, %zp, %zp : (tensor<1x16x256xf32>, tensor<1x256x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x8xf32>
  %p = tosa.sigmoid %logits : (tensor<1x16x8xf32>) -> tensor<1x16x8xf32>
  return %p : tensor<1x16x8xf32>
}

// -----

// The router of case 22 with DeepSeek-V3's balancing bias added to the
// logits before the sigmoid (tosa.add of a [1, 1, 8] bias): still gating,
// kept high; the softmax/sigmoid is searched through elementwise users.
// CHECK-LABEL: func.func @router_bias_tosa
// CHECK-NOT: fp8.quantize
// CHECK: linalg.batch_matmul {fp8.precision = #fp8.precision<bf16>, fp8.reason = "heuristic: expert-count linear (N = 8) feeding softmax/sigmoid/top-k", fp8.role = #fp8.role<gating>}
// CHECK-NOT: fp8.scaled_matmul
// CHECK: return
func.func @router_bias_tosa(%x: tensor<1x16x256xf32>, %w: tensor<1x256x8xf32>, %bias: tensor<1x1x8xf32>) -> tensor<1x16x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %logits = tosa.matmul %x, %w, %zp, %zp : (tensor<1x16x256xf32>, tensor<1x256x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x8xf32>
  %biased = tosa.add %logits, %bias : (tensor<1x16x8xf32>, tensor<1x1x8xf32>) -> tensor<1x16x8xf32>
  %p = tosa.sigmoid %biased : (tensor<1x16x8xf32>) -> tensor<1x16x8xf32>
  return %p : tensor<1x16x8xf32>
}
