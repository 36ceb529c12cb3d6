// Every option of every fp8 pass and pipeline, given a bad value, is a clear
// error naming the option, the bad value and what is expected; never a crash
// and never silently accepted. (fp8-assign-precision's policy and override
// syntax: test/Transforms/assign-precision-invalid.mlir; fp8-report's format
// option: test/Transforms/report.mlir; fp8-pipeline's policy:
// test/Transforms/pipeline.mlir.)

// fp8-assign-precision: a precision that is not one of fp8, bf16, f32.
// RUN: not fp8-opt %s -fp8-assign-precision='overrides=lm_head:fp16' 2>&1 | FileCheck %s --check-prefix=PREC
// PREC: fp8-assign-precision: malformed override 'lm_head:fp16': unknown value 'fp16' (expected PATTERN:VALUE, VALUE a role: linear, embedding, output_head, gating, normalization, attention, other; or a precision: fp8, bf16, f32)
// An empty entry in the list.
// RUN: not fp8-opt %s -fp8-assign-precision='overrides=a:fp8,,b:bf16' 2>&1 | FileCheck %s --check-prefix=EMPTYENTRY
// EMPTYENTRY: fp8-assign-precision: malformed override '': missing ':'

// fp8-insert-quant
// RUN: not fp8-opt %s -fp8-insert-quant='strict=maybe' 2>&1 | FileCheck %s --check-prefix=IQ-STRICT
// IQ-STRICT: for the --strict option: 'maybe' is invalid value for boolean argument

// fp8-report: the tool-wide default format flag, an empty and an unwritable
// output file.
// RUN: not fp8-opt %s -fp8-report-format=xml -fp8-report 2>&1 | FileCheck %s --check-prefix=RP-GLOBAL
// RP-GLOBAL: fp8-report: unknown format 'xml' in --fp8-report-format (expected table or json)
// RUN: not fp8-opt %s -fp8-report=output= 2>&1 | FileCheck %s --check-prefix=RP-EMPTY
// RP-EMPTY: fp8-report: option output is empty (expected a file name, or '-' for stdout)
// RUN: not fp8-opt %s -fp8-report=output=%t.missing-dir/report.json 2>&1 | FileCheck %s --check-prefix=RP-OPEN
// RP-OPEN: fp8-report: option output: cannot write the report to '{{.*}}missing-dir/report.json': {{.*}}
// RP-OPEN-NOT: see current operation

// fp8-pipeline: every option.
// RUN: not fp8-opt %s --fp8-pipeline='overrides=proj' 2>&1 | FileCheck %s --check-prefix=PL-OVR
// PL-OVR: fp8-assign-precision: malformed override 'proj': missing ':'
// RUN: not fp8-opt %s --fp8-pipeline='overrides=proj:head' 2>&1 | FileCheck %s --check-prefix=PL-OVR-VALUE
// PL-OVR-VALUE: fp8-assign-precision: malformed override 'proj:head': unknown value 'head'
// RUN: not fp8-opt %s --fp8-pipeline='report-format=xml' 2>&1 | FileCheck %s --check-prefix=PL-FMT
// PL-FMT: fp8-report: unknown format 'xml' in option format (expected table or json)
// RUN: not fp8-opt %s --fp8-pipeline='report-output=%t.missing-dir/r.txt' 2>&1 | FileCheck %s --check-prefix=PL-OUT
// PL-OUT: fp8-report: option output: cannot write the report to '{{.*}}missing-dir/r.txt'
// RUN: not fp8-opt %s --fp8-pipeline='report=maybe' 2>&1 | FileCheck %s --check-prefix=PL-REPORT
// PL-REPORT: for the --report option: 'maybe' is invalid value for boolean argument
// RUN: not fp8-opt %s --fp8-pipeline='strict=maybe' 2>&1 | FileCheck %s --check-prefix=PL-STRICT
// PL-STRICT: for the --strict option: 'maybe' is invalid value for boolean argument
// RUN: not fp8-opt %s --fp8-pipeline='polcy=rowwise' 2>&1 | FileCheck %s --check-prefix=PL-UNKNOWN
// PL-UNKNOWN: no such option polcy

// Passes without options reject one.
// RUN: not fp8-opt %s -fp8-decompose='strict=true' 2>&1 | FileCheck %s --check-prefix=NOOPT
// RUN: not fp8-opt %s -fp8-convert-tosa='strict=true' 2>&1 | FileCheck %s --check-prefix=NOOPT
// RUN: not fp8-opt %s -fp8-strip-annotations='strict=true' 2>&1 | FileCheck %s --check-prefix=NOOPT
// NOOPT: no such option strict

// fp8-lower-to-linalg / fp8-cpu-pipeline: accumulator-bits.
// RUN: not fp8-opt %s -fp8-lower-to-linalg='accumulator-bits=99' 2>&1 | FileCheck %s --check-prefix=ACC
// RUN: not fp8-opt %s -fp8-cpu-pipeline='accumulator-bits=99' 2>&1 | FileCheck %s --check-prefix=ACC
// ACC: fp8-lower-to-linalg: option accumulator-bits=99 is out of range: expected 0 (exact f32 sums) or 1..24 (the emulated significand must fit an f32)
// ACC-NOT: see current operation
// RUN: not fp8-opt %s -fp8-lower-to-linalg='accumulator-bits=-1' 2>&1 | FileCheck %s --check-prefix=ACC-NEG
// ACC-NEG: for the --accumulator-bits option: '-1' value invalid for uint argument!
// RUN: not fp8-opt %s -fp8-cpu-pipeline='accumulator-bits=abc' 2>&1 | FileCheck %s --check-prefix=ACC-ABC
// ACC-ABC: for the --accumulator-bits option: 'abc' value invalid for uint argument!
// RUN: not fp8-opt %s -fp8-cpu-pipeline='deallocate=maybe' 2>&1 | FileCheck %s --check-prefix=DEALLOC
// DEALLOC: for the --deallocate option: 'maybe' is invalid value for boolean argument

// fp8-expand-arith
// RUN: not fp8-opt %s -fp8-expand-arith='saturate=maybe' 2>&1 | FileCheck %s --check-prefix=SAT
// SAT: for the --saturate option: 'maybe' is invalid value for boolean argument
// RUN: not fp8-opt %s -fp8-expand-arith='strict=2' 2>&1 | FileCheck %s --check-prefix=EA-STRICT
// EA-STRICT: for the --strict option: '2' is invalid value for boolean argument

// fp8-lower-to-nvvm / fp8-gpu-pipeline: chip, features, format. Checked
// even when the module has no fp8.scaled_matmul (a typo never goes unseen).
// RUN: not fp8-opt %s -fp8-lower-to-nvvm='chip=sm_80' 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not fp8-opt %s -fp8-gpu-pipeline='chip=sm_80' 2>&1 | FileCheck %s --check-prefix=CHIP
// CHIP: fp8-lower-to-nvvm: option chip='sm_80' is not supported: expected sm_90a (the kernel uses wgmma and setmaxnreg, which need the architecture-specific 'a' target of Hopper)
// RUN: not fp8-opt %s -fp8-lower-to-nvvm='chip=sm_90' 2>&1 | FileCheck %s --check-prefix=CHIP90
// CHIP90: option chip='sm_90' is not supported: expected sm_90a
// RUN: not fp8-opt %s -fp8-lower-to-nvvm='features=ptx80' 2>&1 | FileCheck %s --check-prefix=FEAT
// FEAT: fp8-lower-to-nvvm: option features='ptx80': cannot parse 'ptx80' (expected a comma-separated list of +ptxNN, e.g. +ptx80)
// RUN: not fp8-opt %s -fp8-gpu-pipeline='features=+ptx78' 2>&1 | FileCheck %s --check-prefix=FEAT-OLD
// FEAT-OLD: fp8-lower-to-nvvm: option features='+ptx78': PTX ISA 7.8 is too old (expected +ptx80 or newer: wgmma needs PTX 8.0)
// RUN: not fp8-opt %s -fp8-lower-to-nvvm='features=' 2>&1 | FileCheck %s --check-prefix=FEATNONE
// FEATNONE: fp8-lower-to-nvvm: option features is empty (expected +ptxNN with NN >= 80, e.g. +ptx80)
// RUN: not fp8-opt %s -fp8-gpu-pipeline='format=ptx' 2>&1 | FileCheck %s --check-prefix=FORMAT
// FORMAT: fp8-gpu-pipeline: option format='ptx' is not a gpu-module-to-binary format (expected isa (PTX), bin (cubin), fatbin or llvm)

// fp8-tile-scaled-matmul: block-m, block-n.
// RUN: not fp8-opt %s -fp8-tile-scaled-matmul='block-n=-16' 2>&1 | FileCheck %s --check-prefix=TILE-N
// TILE-N: fp8-tile-scaled-matmul: option block-n=-16 is invalid: expected a positive tile width
// TILE-N-NOT: see current operation
// RUN: not fp8-opt %s -fp8-tile-scaled-matmul='block-m=-1' 2>&1 | FileCheck %s --check-prefix=TILE-M
// TILE-M: fp8-tile-scaled-matmul: option block-m=-1 is invalid: expected 0 (the GPU kernel's choice) or a positive tile height
// RUN: not fp8-opt %s -fp8-tile-scaled-matmul='block-n=wide' 2>&1 | FileCheck %s --check-prefix=TILE-ABC
// TILE-ABC: for the --block-n option: 'wide' value invalid for long argument!

// The valid spellings still pass (no fp8.scaled_matmul here: nothing to do).
// RUN: fp8-opt %s -fp8-lower-to-nvvm='chip=sm_90a features=+ptx84' -o /dev/null
// RUN: fp8-opt %s -fp8-gpu-pipeline='format=isa' -o /dev/null
// RUN: fp8-opt %s -fp8-lower-to-linalg='accumulator-bits=24' -o /dev/null

func.func @f(%x: tensor<16x256xf32>, %w: tensor<256x512xf32>, %init: tensor<16x512xf32>) -> tensor<16x512xf32> {
  %y = linalg.matmul ins(%x, %w : tensor<16x256xf32>, tensor<256x512xf32>) outs(%init : tensor<16x512xf32>) -> tensor<16x512xf32>
  return %y : tensor<16x512xf32>
}
