// RUN: fp8-opt %s -split-input-file --fp8-lower-to-linalg -verify-diagnostics
// RUN: fp8-opt %s -split-input-file --fp8-lower-to-linalg='accumulator-bits=24' -verify-diagnostics
// RUN: fp8-opt %s -split-input-file --fp8-decompose -verify-diagnostics
// RUN: not fp8-opt %s --fp8-lower-to-linalg='accumulator-bits=25' 2>&1 | FileCheck %s --check-prefix=ACC

// Where fp8-lower-to-linalg and fp8-decompose refuse their input.
//
// accumulator-bits is checked once, before the IR is touched
// (FP8LowerToLinalgPass::initialize): 0 and 1..24 are accepted (the
// emulated significand must fit an f32), 25 is an error naming the option,
// the value and the range, without an IR dump.
// ACC: error: fp8-lower-to-linalg: option accumulator-bits=25 is out of range: expected 0 (exact f32 sums) or 1..24 (the emulated significand must fit an f32)
// ACC-NOT: see current operation
//
// The boundary conversion covers func.func/call/return and the scf
// structural ops; an !fp8.scaled value carried by an unstructured branch
// (a cf block argument) is not converted: an error naming the block
// argument and its type, before anything is converted (it was the dialect
// conversion driver's "failed to legalize operation 'func.func'", which
// named neither).

// expected-error @+1 {{argument #0 of a block other than the entry block has type '!fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>': not supported (a !fp8.scaled value passed by a branch, cf.br or cf.cond_br; structured control flow, scf.if and scf.for, carries one)}}
func.func @cf_block_argument(%x: tensor<32x256xf32>) -> tensor<32x256xf32> {
  %q = fp8.quantize %x : tensor<32x256xf32> -> !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>
  cf.br ^bb1(%q : !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>)
^bb1(%r: !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>):
  %d = fp8.dequantize %r : !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<32x256xf32>
  return %d : tensor<32x256xf32>
}

// -----

// expected-error @+1 {{argument #0 of a block other than the entry block has type '!fp8.scaled<64x128xf8E5M2, block = [1, 32], scale = f8E8M0FNU>'}}
func.func @cond_br_scaled_argument(%c: i1, %p: !fp8.scaled<64x128xf8E5M2, block = [1, 32], scale = f8E8M0FNU>,
                                   %q: !fp8.scaled<64x128xf8E5M2, block = [1, 32], scale = f8E8M0FNU>) -> tensor<64x128xbf16> {
  cf.cond_br %c, ^bb1(%p : !fp8.scaled<64x128xf8E5M2, block = [1, 32], scale = f8E8M0FNU>),
                 ^bb1(%q : !fp8.scaled<64x128xf8E5M2, block = [1, 32], scale = f8E8M0FNU>)
^bb1(%r: !fp8.scaled<64x128xf8E5M2, block = [1, 32], scale = f8E8M0FNU>):
  %d = fp8.dequantize %r : !fp8.scaled<64x128xf8E5M2, block = [1, 32], scale = f8E8M0FNU> -> tensor<64x128xbf16>
  return %d : tensor<64x128xbf16>
}
