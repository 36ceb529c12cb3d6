// RUN: fp8-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{element type must be f8E4M3FN or f8E5M2, got 'f16'}}
func.func @not_fp8(%a: !fp8.scaled<4x128xf16, block = [1, 128], scale = f32>)

// -----

// f8E4M3FNUZ (AMD's variant, bias 8, no negative zero) is not an FP8 type of this dialect.
// expected-error @+1 {{element type must be f8E4M3FN or f8E5M2, got 'f8E4M3FNUZ'}}
func.func @fnuz(%a: !fp8.scaled<4x128xf8E4M3FNUZ, block = [1, 128], scale = f32>)

// -----

// expected-error @+1 {{block rank 1 differs from tensor rank 2}}
func.func @block_rank(%a: !fp8.scaled<4x128xf8E4M3FN, block = [128], scale = f32>)

// -----

// expected-error @+1 {{block rank 3 differs from tensor rank 2}}
func.func @block_rank_high(%a: !fp8.scaled<4x128xf8E4M3FN, block = [1, 1, 128], scale = f32>)

// -----

// expected-error @+1 {{block size at dimension 1 must be positive, got 0}}
func.func @zero_block(%a: !fp8.scaled<4x128xf8E4M3FN, block = [1, 0], scale = f32>)

// -----

// expected-error @+1 {{block size at dimension 0 must be positive, got -128}}
func.func @negative_block(%a: !fp8.scaled<4x128xf8E4M3FN, block = [-128, 1], scale = f32>)

// -----

// expected-error @+1 {{scale type must be f32 or f8E8M0FNU, got 'bf16'}}
func.func @bf16_scale(%a: !fp8.scaled<4x128xf8E4M3FN, block = [1, 128], scale = bf16>)

// -----

// expected-error @+1 {{scale type must be f32 or f8E8M0FNU, got 'f8E4M3FN'}}
func.func @fp8_scale(%a: !fp8.scaled<4x128xf8E4M3FN, block = [1, 128], scale = f8E4M3FN>)

// -----

// expected-error @+1 {{expected 'block'}}
func.func @missing_block(%a: !fp8.scaled<4x128xf8E4M3FN, scale = f32>)

// -----

// A dynamic block size is not a block: `?` means "whole dimension" only in a policy.
// expected-error @+1 {{expected integer value}}
func.func @dynamic_block(%a: !fp8.scaled<4x128xf8E4M3FN, block = [1, ?], scale = f32>)
