// Every option of the FP8ToLinalg conversions (fp8-decompose, fp8-lower-to-linalg), given a
// bad value, is a clear error naming the option, the bad value and what is
// expected; never a crash and never silently accepted.

// Passes without options reject one.
// RUN: not fp8-opt %s -fp8-decompose='strict=true' 2>&1 | FileCheck %s --check-prefix=NOOPT
// NOOPT: no such option strict
// fp8-lower-to-linalg / fp8-cpu-pipeline: accumulator-bits.
// RUN: not fp8-opt %s -fp8-lower-to-linalg='accumulator-bits=99' 2>&1 | FileCheck %s --check-prefix=ACC
// ACC: fp8-lower-to-linalg: option accumulator-bits=99 is out of range: expected 0 (exact f32 sums) or 1..24 (the emulated significand must fit an f32)
// ACC-NOT: see current operation
// RUN: not fp8-opt %s -fp8-lower-to-linalg='accumulator-bits=-1' 2>&1 | FileCheck %s --check-prefix=ACC-NEG
// ACC-NEG: for the --accumulator-bits option: '-1' value invalid for uint argument!
// RUN: fp8-opt %s -fp8-lower-to-linalg='accumulator-bits=24' -o /dev/null

func.func @f(%x: tensor<16x256xf32>, %w: tensor<256x512xf32>, %init: tensor<16x512xf32>) -> tensor<16x512xf32> {
  %y = linalg.matmul ins(%x, %w : tensor<16x256xf32>, tensor<256x512xf32>) outs(%init : tensor<16x512xf32>) -> tensor<16x512xf32>
  return %y : tensor<16x512xf32>
}
