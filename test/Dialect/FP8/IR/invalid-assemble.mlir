// RUN: fp8-opt %s -split-input-file -verify-diagnostics

func.func @data_type(%d: tensor<256x512xf8E5M2>, %s: tensor<2x4xf32>) {
  // expected-error @+1 {{'fp8.assemble' op data type 'tensor<256x512xf8E5M2>' differs from 'tensor<256x512xf8E4M3FN>' implied by the result type}}
  %a = fp8.assemble %d, %s : tensor<256x512xf8E5M2>, tensor<2x4xf32> -> !fp8.scaled<256x512xf8E4M3FN, block = [128, 128], scale = f32>
  return
}

// -----

// The scale shape is ceil(shape / block): 200x129 in 128x128 blocks is 2x2, not 1x1.
func.func @scale_shape(%d: tensor<200x129xf8E4M3FN>, %s: tensor<1x1xf32>) {
  // expected-error @+1 {{'fp8.assemble' op scales type 'tensor<1x1xf32>' differs from 'tensor<2x2xf32>' implied by the result type (ceil(shape / block) of the scale type)}}
  %a = fp8.assemble %d, %s : tensor<200x129xf8E4M3FN>, tensor<1x1xf32> -> !fp8.scaled<200x129xf8E4M3FN, block = [128, 128], scale = f32>
  return
}

// -----

func.func @scale_elem(%d: tensor<256x512xf8E4M3FN>, %s: tensor<2x4xf8E8M0FNU>) {
  // expected-error @+1 {{'fp8.assemble' op scales type 'tensor<2x4xf8E8M0FNU>' differs from 'tensor<2x4xf32>' implied by the result type}}
  %a = fp8.assemble %d, %s : tensor<256x512xf8E4M3FN>, tensor<2x4xf8E8M0FNU> -> !fp8.scaled<256x512xf8E4M3FN, block = [128, 128], scale = f32>
  return
}

// -----

func.func @data_not_fp8(%d: tensor<256x512xi8>, %s: tensor<2x4xf32>) {
  // expected-error @+1 {{'fp8.assemble' op operand #0 must be ranked tensor of f8E4M3FN type or f8E5M2 type values, but got 'tensor<256x512xi8>'}}
  %a = fp8.assemble %d, %s : tensor<256x512xi8>, tensor<2x4xf32> -> !fp8.scaled<256x512xf8E4M3FN, block = [128, 128], scale = f32>
  return
}

// -----

func.func @scales_bf16(%d: tensor<256x512xf8E4M3FN>, %s: tensor<2x4xbf16>) {
  // expected-error @+1 {{'fp8.assemble' op operand #1 must be ranked tensor of 32-bit float or f8E8M0FNU type values, but got 'tensor<2x4xbf16>'}}
  %a = fp8.assemble %d, %s : tensor<256x512xf8E4M3FN>, tensor<2x4xbf16> -> !fp8.scaled<256x512xf8E4M3FN, block = [128, 128], scale = f32>
  return
}

// -----

// disassemble's result types follow from its operand; stated ones must agree.
func.func @disassemble_results(%q: !fp8.scaled<256x512xf8E4M3FN, block = [128, 128], scale = f32>) {
  // expected-error @+2 {{'fp8.disassemble' op failed to infer returned types}}
  // expected-error @+1 {{'fp8.disassemble' op inferred type(s) 'tensor<256x512xf8E4M3FN>', 'tensor<2x4xf32>' are incompatible with return type(s) of operation 'tensor<256x512xf8E4M3FN>', 'tensor<4x2xf32>'}}
  %d:2 = "fp8.disassemble"(%q) : (!fp8.scaled<256x512xf8E4M3FN, block = [128, 128], scale = f32>) -> (tensor<256x512xf8E4M3FN>, tensor<4x2xf32>)
  return
}
