// Every option of the FP8ToNVVM conversions (fp8-lower-to-nvvm, fp8-tile-scaled-matmul), given a
// bad value, is a clear error naming the option, the bad value and what is
// expected; never a crash and never silently accepted.

// fp8-lower-to-nvvm / fp8-gpu-pipeline: chip, features, format. Checked
// even when the module has no fp8.scaled_matmul (a typo never goes unseen).
// RUN: not fp8-opt %s -fp8-lower-to-nvvm='config=fixed chip=sm_80' 2>&1 | FileCheck %s --check-prefix=CHIP
// CHIP: fp8-lower-to-nvvm: option chip='sm_80' is not supported: expected sm_90a (the kernel uses wgmma and setmaxnreg, which need the architecture-specific 'a' target of Hopper)
// RUN: not fp8-opt %s -fp8-lower-to-nvvm='config=fixed chip=sm_90' 2>&1 | FileCheck %s --check-prefix=CHIP90
// CHIP90: option chip='sm_90' is not supported: expected sm_90a
// RUN: not fp8-opt %s -fp8-lower-to-nvvm='config=fixed features=ptx80' 2>&1 | FileCheck %s --check-prefix=FEAT
// FEAT: fp8-lower-to-nvvm: option features='ptx80': cannot parse 'ptx80' (expected a comma-separated list of +ptxNN, e.g. +ptx80)
// RUN: not fp8-opt %s -fp8-lower-to-nvvm='config=fixed features=' 2>&1 | FileCheck %s --check-prefix=FEATNONE
// FEATNONE: fp8-lower-to-nvvm: option features is empty (expected +ptxNN with NN >= 80, e.g. +ptx80)
// RUN: not fp8-opt %s -fp8-tile-scaled-matmul='block-n=-16' 2>&1 | FileCheck %s --check-prefix=TILE-N
// TILE-N: fp8-tile-scaled-matmul: option block-n=-16 is invalid: expected a positive tile width
// TILE-N-NOT: see current operation
// RUN: not fp8-opt %s -fp8-tile-scaled-matmul='block-m=-1' 2>&1 | FileCheck %s --check-prefix=TILE-M
// TILE-M: fp8-tile-scaled-matmul: option block-m=-1 is invalid: expected 0 (the GPU kernel's choice) or a positive tile height
// RUN: not fp8-opt %s -fp8-tile-scaled-matmul='block-n=wide' 2>&1 | FileCheck %s --check-prefix=TILE-ABC
// TILE-ABC: for the --block-n option: 'wide' value invalid for long argument!
// The valid spellings still pass (no fp8.scaled_matmul here: nothing to do).
// RUN: fp8-opt %s -fp8-lower-to-nvvm='config=fixed chip=sm_90a features=+ptx84' -o /dev/null

func.func @f(%x: tensor<16x256xf32>, %w: tensor<256x512xf32>, %init: tensor<16x512xf32>) -> tensor<16x512xf32> {
  %y = linalg.matmul ins(%x, %w : tensor<16x256xf32>, tensor<256x512xf32>) outs(%init : tensor<16x512xf32>) -> tensor<16x512xf32>
  return %y : tensor<16x512xf32>
}
