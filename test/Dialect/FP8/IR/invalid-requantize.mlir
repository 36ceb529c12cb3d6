// RUN: fp8-opt %s -split-input-file -verify-diagnostics

func.func @not_permuted(%g: !fp8.scaled<4096x7168xf8E4M3FN, block = [128, 1], scale = f32>) {
  // expected-error @+1 {{'fp8.requantize' op result shape [4096, 7168] must be the permuted input shape [7168, 4096]}}
  %t = fp8.requantize %g {permutation = array<i64: 1, 0>} : !fp8.scaled<4096x7168xf8E4M3FN, block = [128, 1], scale = f32> -> !fp8.scaled<4096x7168xf8E4M3FN, block = [1, 128], scale = f32>
  return
}

// -----

func.func @shape_changed(%g: !fp8.scaled<256x256xf8E4M3FN, block = [1, 128], scale = f32>) {
  // expected-error @+1 {{'fp8.requantize' op result shape [256, 128] must be the permuted input shape [256, 256]}}
  %t = fp8.requantize %g : !fp8.scaled<256x256xf8E4M3FN, block = [1, 128], scale = f32> -> !fp8.scaled<256x128xf8E4M3FN, block = [1, 128], scale = f32>
  return
}

// -----

func.func @perm_length(%g: !fp8.scaled<256x256xf8E4M3FN, block = [1, 128], scale = f32>) {
  // expected-error @+1 {{'fp8.requantize' op permutation has 3 entries, the input has rank 2}}
  %t = fp8.requantize %g {permutation = array<i64: 2, 1, 0>} : !fp8.scaled<256x256xf8E4M3FN, block = [1, 128], scale = f32> -> !fp8.scaled<256x256xf8E4M3FN, block = [1, 128], scale = f32>
  return
}

// -----

func.func @perm_repeat(%g: !fp8.scaled<256x256xf8E4M3FN, block = [1, 128], scale = f32>) {
  // expected-error @+1 {{'fp8.requantize' op permutation [0, 0] is not a permutation of [0, 2)}}
  %t = fp8.requantize %g {permutation = array<i64: 0, 0>} : !fp8.scaled<256x256xf8E4M3FN, block = [1, 128], scale = f32> -> !fp8.scaled<256x256xf8E4M3FN, block = [1, 128], scale = f32>
  return
}

// -----

func.func @perm_range(%g: !fp8.scaled<256x256xf8E4M3FN, block = [1, 128], scale = f32>) {
  // expected-error @+1 {{'fp8.requantize' op permutation [0, 2] is not a permutation of [0, 2)}}
  %t = fp8.requantize %g {permutation = array<i64: 0, 2>} : !fp8.scaled<256x256xf8E4M3FN, block = [1, 128], scale = f32> -> !fp8.scaled<256x256xf8E4M3FN, block = [1, 128], scale = f32>
  return
}

// -----

func.func @e8m0_needs_pow2(%g: !fp8.scaled<256x256xf8E4M3FN, block = [1, 128], scale = f32>) {
  // expected-error @+1 {{'fp8.requantize' op result scale type f8E8M0FNU holds only powers of two; set scale_mode = #fp8.scale_mode<pow2>}}
  %t = fp8.requantize %g : !fp8.scaled<256x256xf8E4M3FN, block = [1, 128], scale = f32> -> !fp8.scaled<256x256xf8E4M3FN, block = [1, 32], scale = f8E8M0FNU>
  return
}

// -----

func.func @eps_inf(%g: !fp8.scaled<256x256xf8E4M3FN, block = [1, 128], scale = f32>) {
  // expected-error @+1 {{'fp8.requantize' op eps must be finite and >= 0, got 0x7F800000 : f32}}
  %t = fp8.requantize %g {eps = 0x7F800000 : f32} : !fp8.scaled<256x256xf8E4M3FN, block = [1, 128], scale = f32> -> !fp8.scaled<256x256xf8E4M3FN, block = [128, 128], scale = f32>
  return
}
