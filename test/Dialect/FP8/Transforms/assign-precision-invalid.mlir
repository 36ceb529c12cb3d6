// Invalid options are clear errors, never crashes.
// RUN: not fp8-opt %s -fp8-assign-precision='policy=fp4' 2>&1 | FileCheck %s --check-prefix=POLICY
// RUN: not fp8-opt %s -fp8-assign-precision='overrides=lm_head' 2>&1 | FileCheck %s --check-prefix=COLON
// RUN: not fp8-opt %s -fp8-assign-precision='overrides=lm_head:head' 2>&1 | FileCheck %s --check-prefix=VALUE
// RUN: not fp8-opt %s -fp8-assign-precision='overrides=:gating' 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not fp8-opt %s -fp8-assign-precision='overrides=[a:gating' 2>&1 | FileCheck %s --check-prefix=GLOB
// RUN: not fp8-opt %s -fp8-assign-precision='strict=maybe' 2>&1 | FileCheck %s --check-prefix=BOOL

// POLICY: fp8-assign-precision: unknown policy 'fp4' (known: deepseek-v3, hybrid, per-tensor, rowwise, mxfp8, bf16)
// COLON: fp8-assign-precision: malformed override 'lm_head': missing ':'
// VALUE: fp8-assign-precision: malformed override 'lm_head:head': unknown value 'head'
// EMPTY: fp8-assign-precision: malformed override ':gating': empty pattern
// GLOB: fp8-assign-precision: malformed override '[a:gating': invalid glob pattern
// BOOL: for the --strict option: 'maybe' is invalid value for boolean argument

func.func @f(%x: tensor<16x256xf32>, %w: tensor<256x512xf32>, %init: tensor<16x512xf32>) -> tensor<16x512xf32> {
  %y = linalg.matmul ins(%x, %w : tensor<16x256xf32>, tensor<256x512xf32>) outs(%init : tensor<16x512xf32>) -> tensor<16x512xf32>
  return %y : tensor<16x512xf32>
}
