// RUN: fp8-opt %s -split-input-file -verify-diagnostics

func.func @shape_mismatch(%q: !fp8.scaled<32x4096xf8E4M3FN, block = [1, 128], scale = f32>) {
  // expected-error @+1 {{'fp8.dequantize' op result shape [4096, 32] differs from input shape [32, 4096]}}
  %x = fp8.dequantize %q : !fp8.scaled<32x4096xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<4096x32xf32>
  return
}

// -----

func.func @fp8_result(%q: !fp8.scaled<32x128xf8E4M3FN, block = [1, 128], scale = f32>) {
  // expected-error @+1 {{'fp8.dequantize' op result #0 must be ranked tensor of 32-bit float or bfloat16 type or 16-bit float values, but got 'tensor<32x128xf8E5M2>'}}
  %x = fp8.dequantize %q : !fp8.scaled<32x128xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<32x128xf8E5M2>
  return
}

// -----

// In the generic form (the custom form only parses an !fp8.scaled type here).
func.func @plain_tensor_input(%q: tensor<32x128xf8E4M3FN>) {
  // expected-error @+1 {{'fp8.dequantize' op operand #0 must be block-scaled FP8 tensor, but got 'tensor<32x128xf8E4M3FN>'}}
  %x = "fp8.dequantize"(%q) : (tensor<32x128xf8E4M3FN>) -> tensor<32x128xf32>
  return
}

// -----

// The same in the custom form.
func.func @custom_form_plain_tensor(%q: tensor<32x128xf8E4M3FN>) {
  // expected-error @+1 {{'fp8.dequantize' op operand #0 must be block-scaled FP8 tensor, but got 'tensor<32x128xf8E4M3FN>'}}
  %x = fp8.dequantize %q : tensor<32x128xf8E4M3FN> -> tensor<32x128xf32>
  return
}
