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
// vector-lanes of the tiled kernel: 8 or 16 (fp8-cpu-pipeline: 0 = the host's).
// RUN: not fp8-opt %s -fp8-lower-to-linalg='tiled=1 vector-lanes=4' 2>&1 | FileCheck %s --check-prefix=LANES
// LANES: fp8-lower-to-linalg: option vector-lanes=4 is not supported: expected 8 (AVX2) or 16 (AVX-512)
// RUN: not fp8-opt %s -fp8-cpu-pipeline='vector-lanes=32' 2>&1 | FileCheck %s --check-prefix=LANES32
// LANES32: fp8-lower-to-linalg: option vector-lanes=32 is not supported
// threads: at most 1024 (OpenMP's num_threads is an i32: 2^32 - 1 became
// -1 silently; a team past the cores aborts in libomp at run time).
// RUN: not fp8-opt %s -fp8-cpu-pipeline='threads=4294967295' 2>&1 | FileCheck %s --check-prefix=THREADS
// THREADS: fp8-cpu-pipeline: option threads=4294967295 is invalid (expected 0 = OpenMP's default, 1 = sequential, or at most 1024 threads)
// RUN: not fp8-opt %s -fp8-cpu-pipeline='threads=1025' 2>&1 | FileCheck %s --check-prefix=THREADS1025
// THREADS1025: option threads=1025 is invalid
// RUN: fp8-opt %s -fp8-cpu-pipeline='threads=1024' -o /dev/null
// accumulator: one of exact, sm90, sm89; the generic accumulator-bits=N
// cannot be combined with a hardware model nor with an explicit exact.
// RUN: not fp8-opt %s -fp8-lower-to-linalg='accumulator=sm100' 2>&1 | FileCheck %s --check-prefix=MODEL
// MODEL: for the --accumulator option: Cannot find option named 'sm100'!
// RUN: not fp8-opt %s -fp8-lower-to-linalg='accumulator=sm90 accumulator-bits=14' 2>&1 | FileCheck %s --check-prefix=SM90-BITS
// SM90-BITS: fp8-lower-to-linalg: options accumulator=sm90 and accumulator-bits=14 contradict: accumulator-bits=N is the generic N-bit model, accumulator=exact|sm90|sm89 the exact sums and the hardware models; give one of them
// SM90-BITS-NOT: see current operation
// RUN: not fp8-opt %s -fp8-lower-to-linalg='accumulator=sm89 accumulator-bits=24' 2>&1 | FileCheck %s --check-prefix=SM89-BITS
// SM89-BITS: fp8-lower-to-linalg: options accumulator=sm89 and accumulator-bits=24 contradict
// RUN: not fp8-opt %s -fp8-lower-to-linalg='accumulator=exact accumulator-bits=14' 2>&1 | FileCheck %s --check-prefix=EXACT-BITS
// EXACT-BITS: fp8-lower-to-linalg: options accumulator=exact and accumulator-bits=14 contradict
// RUN: fp8-opt %s -fp8-lower-to-linalg='accumulator=exact' -o /dev/null
// RUN: fp8-opt %s -fp8-lower-to-linalg='accumulator=sm90' -o /dev/null
// RUN: fp8-opt %s -fp8-lower-to-linalg='accumulator=sm89 accumulator-bits=0' -o /dev/null

func.func @f(%x: tensor<16x256xf32>, %w: tensor<256x512xf32>, %init: tensor<16x512xf32>) -> tensor<16x512xf32> {
  %y = linalg.matmul ins(%x, %w : tensor<16x256xf32>, tensor<256x512xf32>) outs(%init : tensor<16x512xf32>) -> tensor<16x512xf32>
  return %y : tensor<16x512xf32>
}
