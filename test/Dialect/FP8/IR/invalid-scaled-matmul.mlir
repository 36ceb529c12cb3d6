// RUN: fp8-opt %s -split-input-file -verify-diagnostics

func.func @k_mismatch(%a: !fp8.scaled<128x7168xf8E4M3FN, block = [1, 128], scale = f32>,
                      %b: !fp8.scaled<2112x7680xf8E4M3FN, block = [128, 128], scale = f32>) {
  // expected-error @+1 {{'fp8.scaled_matmul' op K of A is 7168, K of B is 7680 (B is [N, K], NT layout)}}
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<128x7168xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<2112x7680xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<128x2112xbf16>
  return
}

// -----

// A weight stored [K, N] (as linalg.matmul's B) must be transposed to NT first.
func.func @nn_layout(%a: !fp8.scaled<128x7168xf8E4M3FN, block = [1, 128], scale = f32>,
                     %b: !fp8.scaled<7168x2112xf8E4M3FN, block = [128, 128], scale = f32>) {
  // expected-error @+1 {{'fp8.scaled_matmul' op K of A is 7168, K of B is 2112 (B is [N, K], NT layout)}}
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<128x7168xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<7168x2112xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<128x7168xbf16>
  return
}

// -----

func.func @a_rank3(%a: !fp8.scaled<4x32x256xf8E4M3FN, block = [1, 1, 128], scale = f32>,
                   %b: !fp8.scaled<64x256xf8E4M3FN, block = [128, 128], scale = f32>) {
  // expected-error @+1 {{'fp8.scaled_matmul' op operand A must be rank 2 [M, K], got shape [4, 32, 256]}}
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<4x32x256xf8E4M3FN, block = [1, 1, 128], scale = f32>, !fp8.scaled<64x256xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<128x64xbf16>
  return
}

// -----

func.func @b_rank1(%a: !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>,
                   %b: !fp8.scaled<256xf8E4M3FN, block = [128], scale = f32>) {
  // expected-error @+1 {{'fp8.scaled_matmul' op operand B must be rank 2 [N, K] (NT layout), got shape [256]}}
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<256xf8E4M3FN, block = [128], scale = f32> -> tensor<32x1xbf16>
  return
}

// -----

// 128x1 tiles run along M (the Wgrad layout): they need a requantize first.
func.func @a_blocks_along_m(%a: !fp8.scaled<256x512xf8E4M3FN, block = [128, 1], scale = f32>,
                            %b: !fp8.scaled<64x512xf8E4M3FN, block = [128, 128], scale = f32>) {
  // expected-error @+1 {{'fp8.scaled_matmul' op block [128, 1] of A runs along M, not along the contraction dimension K; quantize A with a block such as [1, 128] (or requantize it)}}
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<256x512xf8E4M3FN, block = [128, 1], scale = f32>, !fp8.scaled<64x512xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<256x64xbf16>
  return
}

// -----

func.func @b_blocks_along_n(%a: !fp8.scaled<256x512xf8E4M3FN, block = [1, 128], scale = f32>,
                            %b: !fp8.scaled<64x512xf8E4M3FN, block = [64, 1], scale = f32>) {
  // expected-error @+1 {{'fp8.scaled_matmul' op block [64, 1] of B runs along N, not along the contraction dimension K}}
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<256x512xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<64x512xf8E4M3FN, block = [64, 1], scale = f32> -> tensor<256x64xbf16>
  return
}

// -----

func.func @interval_not_multiple_of_32(%a: !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>,
                                       %b: !fp8.scaled<64x256xf8E4M3FN, block = [128, 128], scale = f32>) {
  // expected-error @+1 {{'fp8.scaled_matmul' op promote_interval must be a positive multiple of 32 (the FP8 wgmma K), got 100}}
  %d = fp8.scaled_matmul %a, %b {promote_interval = 100} : !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<64x256xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<32x64xbf16>
  return
}

// -----

func.func @interval_zero(%a: !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>,
                         %b: !fp8.scaled<64x256xf8E4M3FN, block = [128, 128], scale = f32>) {
  // expected-error @+1 {{'fp8.scaled_matmul' op promote_interval must be a positive multiple of 32 (the FP8 wgmma K), got 0}}
  %d = fp8.scaled_matmul %a, %b {promote_interval = 0} : !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<64x256xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<32x64xbf16>
  return
}

// -----

func.func @interval_negative(%a: !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>,
                             %b: !fp8.scaled<64x256xf8E4M3FN, block = [128, 128], scale = f32>) {
  // expected-error @+1 {{'fp8.scaled_matmul' op promote_interval must be a positive multiple of 32 (the FP8 wgmma K), got -128}}
  %d = fp8.scaled_matmul %a, %b {promote_interval = -128} : !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<64x256xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<32x64xbf16>
  return
}

// -----

// A 1x100 block: the promotion interval 128 straddles two scales of a row.
func.func @k_block_not_multiple(%a: !fp8.scaled<32x400xf8E4M3FN, block = [1, 100], scale = f32>,
                                %b: !fp8.scaled<64x400xf8E4M3FN, block = [128, 400], scale = f32>) {
  // expected-error @+1 {{'fp8.scaled_matmul' op K-block 100 of A (block [1, 100]) is not a multiple of promote_interval 128; each promotion interval must see one scale per row}}
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<32x400xf8E4M3FN, block = [1, 100], scale = f32>, !fp8.scaled<64x400xf8E4M3FN, block = [128, 400], scale = f32> -> tensor<32x64xbf16>
  return
}

// -----

// mxfp8's 1x32 blocks with the default interval of 128.
func.func @mx_blocks_default_interval(%a: !fp8.scaled<32x256xf8E4M3FN, block = [1, 32], scale = f8E8M0FNU>,
                                      %b: !fp8.scaled<64x256xf8E4M3FN, block = [1, 32], scale = f8E8M0FNU>) {
  // expected-error @+1 {{'fp8.scaled_matmul' op K-block 32 of A (block [1, 32]) is not a multiple of promote_interval 128}}
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<32x256xf8E4M3FN, block = [1, 32], scale = f8E8M0FNU>, !fp8.scaled<64x256xf8E4M3FN, block = [1, 32], scale = f8E8M0FNU> -> tensor<32x64xf32>
  return
}

// -----

func.func @b_k_block(%a: !fp8.scaled<32x512xf8E4M3FN, block = [1, 256], scale = f32>,
                     %b: !fp8.scaled<64x512xf8E4M3FN, block = [128, 64], scale = f32>) {
  // expected-error @+1 {{'fp8.scaled_matmul' op K-block 64 of B (block [128, 64]) is not a multiple of promote_interval 128; each promotion interval must see one scale per column}}
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<32x512xf8E4M3FN, block = [1, 256], scale = f32>, !fp8.scaled<64x512xf8E4M3FN, block = [128, 64], scale = f32> -> tensor<32x64xf32>
  return
}

// -----

func.func @result_shape(%a: !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>,
                        %b: !fp8.scaled<64x256xf8E4M3FN, block = [128, 128], scale = f32>) {
  // expected-error @+1 {{'fp8.scaled_matmul' op result shape must be [M, N] = [32, 64], got [64, 32]}}
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<64x256xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<64x32xbf16>
  return
}

// -----

func.func @acc_shape(%a: !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>,
                     %b: !fp8.scaled<64x256xf8E4M3FN, block = [128, 128], scale = f32>, %c: tensor<32x65xf32>) {
  // expected-error @+1 {{'fp8.scaled_matmul' op accumulator C must be [M, N] = [32, 64], got [32, 65]}}
  %d = fp8.scaled_matmul %a, %b acc(%c : tensor<32x65xf32>) : !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<64x256xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<32x64xf32>
  return
}

// -----

func.func @f16_result(%a: !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>,
                      %b: !fp8.scaled<64x256xf8E4M3FN, block = [128, 128], scale = f32>) {
  // expected-error @+1 {{'fp8.scaled_matmul' op result #0 must be ranked tensor of 32-bit float or bfloat16 type values, but got 'tensor<32x64xf16>'}}
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<64x256xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<32x64xf16>
  return
}

// -----

// Split-K: S below 1.
func.func @k_splits_zero(%a: !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>,
                         %b: !fp8.scaled<64x256xf8E4M3FN, block = [128, 128], scale = f32>) {
  // expected-error @+1 {{'fp8.scaled_matmul' op k_splits must be at least 1, got 0}}
  %d = fp8.scaled_matmul %a, %b {k_splits = 0 : i64} : !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<64x256xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<32x64xf32>
  return
}

// -----

// Split-K: K = 257 has ceil(257 / 128) = 3 promotion intervals, so at most
// 3 splits.
func.func @k_splits_above_intervals(%a: !fp8.scaled<32x257xf8E4M3FN, block = [1, 128], scale = f32>,
                                    %b: !fp8.scaled<64x257xf8E4M3FN, block = [128, 128], scale = f32>) {
  // expected-error @+1 {{'fp8.scaled_matmul' op k_splits = 4 exceeds the 3 promotion intervals of K = 257 (promote_interval = 128): every split needs at least one}}
  %d = fp8.scaled_matmul %a, %b {k_splits = 4 : i64} : !fp8.scaled<32x257xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<64x257xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<32x64xf32>
  return
}

// -----

// Split-K: the intervals are counted in promote_interval (64 here: 4 of
// them in K = 256).
func.func @k_splits_interval(%a: !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>,
                             %b: !fp8.scaled<64x256xf8E4M3FN, block = [128, 128], scale = f32>) {
  // expected-error @+1 {{'fp8.scaled_matmul' op k_splits = 5 exceeds the 4 promotion intervals of K = 256 (promote_interval = 64): every split needs at least one}}
  %d = fp8.scaled_matmul %a, %b {promote_interval = 64 : i64, k_splits = 5 : i64} : !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<64x256xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<32x64xf32>
  return
}

// -----

// Split-K: the splits' ranges need a K known at compile time.
func.func @k_splits_dynamic_k(%a: !fp8.scaled<32x?xf8E4M3FN, block = [1, 128], scale = f32>,
                              %b: !fp8.scaled<64x?xf8E4M3FN, block = [128, 128], scale = f32>) {
  // expected-error @+1 {{'fp8.scaled_matmul' op k_splits = 2 needs a static K (the splits' K ranges are fixed at compile time)}}
  %d = fp8.scaled_matmul %a, %b {k_splits = 2 : i64} : !fp8.scaled<32x?xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<64x?xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<32x64xf32>
  return
}
