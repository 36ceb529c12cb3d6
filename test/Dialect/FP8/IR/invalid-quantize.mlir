// RUN: fp8-opt %s -split-input-file -verify-diagnostics

func.func @shape_mismatch(%x: tensor<32x4097xf32>) {
  // expected-error @+1 {{'fp8.quantize' op result shape [32, 4096] differs from input shape [32, 4097]}}
  %q = fp8.quantize %x : tensor<32x4097xf32> -> !fp8.scaled<32x4096xf8E4M3FN, block = [1, 128], scale = f32>
  return
}

// -----

func.func @rank_mismatch(%x: tensor<32x4096xf32>) {
  // expected-error @+1 {{'fp8.quantize' op result shape [131072] differs from input shape [32, 4096]}}
  %q = fp8.quantize %x : tensor<32x4096xf32> -> !fp8.scaled<131072xf8E4M3FN, block = [128], scale = f32>
  return
}

// -----

func.func @fp8_input(%x: tensor<32x128xf8E4M3FN>) {
  // expected-error @+1 {{'fp8.quantize' op operand #0 must be ranked tensor of 32-bit float or bfloat16 type or 16-bit float values, but got 'tensor<32x128xf8E4M3FN>'}}
  %q = fp8.quantize %x : tensor<32x128xf8E4M3FN> -> !fp8.scaled<32x128xf8E4M3FN, block = [1, 128], scale = f32>
  return
}

// -----

func.func @negative_eps(%x: tensor<32x128xf32>) {
  // expected-error @+1 {{'fp8.quantize' op eps must be finite and >= 0, got -1.000000e+00 : f32}}
  %q = fp8.quantize %x {eps = -1.0 : f32} : tensor<32x128xf32> -> !fp8.scaled<32x128xf8E4M3FN, block = [1, 128], scale = f32>
  return
}

// -----

func.func @nan_eps(%x: tensor<32x128xf32>) {
  // expected-error @+1 {{'fp8.quantize' op eps must be finite and >= 0, got 0x7FC00000 : f32}}
  %q = fp8.quantize %x {eps = 0x7FC00000 : f32} : tensor<32x128xf32> -> !fp8.scaled<32x128xf8E4M3FN, block = [1, 128], scale = f32>
  return
}

// -----

func.func @e8m0_needs_pow2(%x: tensor<32x128xf32>) {
  // expected-error @+1 {{'fp8.quantize' op result scale type f8E8M0FNU holds only powers of two; set scale_mode = #fp8.scale_mode<pow2>}}
  %q = fp8.quantize %x : tensor<32x128xf32> -> !fp8.scaled<32x128xf8E4M3FN, block = [1, 32], scale = f8E8M0FNU>
  return
}

// -----

// In the generic form (the custom form only parses an !fp8.scaled type here).
func.func @result_not_scaled(%x: tensor<32x128xf32>) {
  // expected-error @+1 {{'fp8.quantize' op result #0 must be block-scaled FP8 tensor, but got 'tensor<32x128xf8E4M3FN>'}}
  %q = "fp8.quantize"(%x) : (tensor<32x128xf32>) -> tensor<32x128xf8E4M3FN>
  return
}
