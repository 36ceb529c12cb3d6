// Every option of the fp8 dialect's transforms, given a bad value, is a
// clear error naming the option, the bad value and what is expected; never a
// crash and never silently accepted. (fp8-assign-precision's policy and
// override syntax: assign-precision-invalid.mlir.)

// fp8-assign-precision: a precision that is not one of fp8, bf16, f32.
// RUN: not fp8-opt %s -fp8-assign-precision='overrides=lm_head:fp16' 2>&1 | FileCheck %s --check-prefix=PREC
// PREC: fp8-assign-precision: malformed override 'lm_head:fp16': unknown value 'fp16' (expected PATTERN:VALUE, VALUE a role: linear, embedding, output_head, gating, normalization, attention, other, dispatch; a precision: fp8, bf16, f32; or a GEMM kind: fprop, dgrad, wgrad)
// An empty entry in the list.
// RUN: not fp8-opt %s -fp8-assign-precision='overrides=a:fp8,,b:bf16' 2>&1 | FileCheck %s --check-prefix=EMPTYENTRY
// EMPTYENTRY: fp8-assign-precision: malformed override '': missing ':'

// fp8-assign-precision / fp8-pipeline: promotion, not one of policy, none;
// none with a policy whose K-blocks carry their own scales.
// RUN: not fp8-opt %s -fp8-assign-precision='promotion=never' 2>&1 | FileCheck %s --check-prefix=PROMO
// RUN: not fp8-opt %s -fp8-pipeline='promotion=never' 2>&1 | FileCheck %s --check-prefix=PROMO
// PROMO: for the --promotion option: Cannot find option named 'never'!
// RUN: not fp8-opt %s -fp8-pipeline='policy=deepseek-v3 promotion=none' 2>&1 | FileCheck %s --check-prefix=PROMO-BLOCKS
// RUN: not fp8-opt %s -fp8-assign-precision='policy=mxfp8 promotion=none' 2>&1 | FileCheck %s --check-prefix=PROMO-MX
// PROMO-BLOCKS: fp8-assign-precision: promotion=none with policy 'deepseek-v3': policy promote_interval = ? (one promotion per GEMM, at the end of K) needs K-blocks that span the whole K (?), but the activation_block K-block is 128, each with its own scale
// PROMO-MX: fp8-assign-precision: promotion=none with policy 'mxfp8': {{.*}}the activation_block K-block is 32
// The bf16 baseline has no FP8 GEMM to promote (it used to be told about
// the K-blocks of FP8 fields it does not use).
// RUN: not fp8-opt %s -fp8-pipeline='policy=bf16 promotion=none' 2>&1 | FileCheck %s --check-prefix=PROMO-BF16
// PROMO-BF16: fp8-assign-precision: promotion=none with policy 'bf16': policy promote_interval = ? (one promotion per GEMM, at the end of K) is for FP8 GEMMs, but keep_high holds every role a GEMM can be FP8 in: each GEMM stays in high precision, accumulating in FP32 without promotion intervals (the bf16 baseline); expected a policy with FP8 GEMMs and whole-K blocks (per-tensor, rowwise)
// PROMO-BF16-NOT: K-block

// fp8-insert-quant
// RUN: not fp8-opt %s -fp8-insert-quant='strict=maybe' 2>&1 | FileCheck %s --check-prefix=IQ-STRICT
// IQ-STRICT: for the --strict option: 'maybe' is invalid value for boolean argument
// fp8-report: a bad format, an empty and an unwritable output file.
// RUN: not fp8-opt %s -fp8-report=format=xml 2>&1 | FileCheck %s --check-prefix=RP-FMT
// RP-FMT: fp8-report: unknown format 'xml' in option format (expected table or json)
// RUN: not fp8-opt %s -fp8-report=output= 2>&1 | FileCheck %s --check-prefix=RP-EMPTY
// RP-EMPTY: fp8-report: option output is empty (expected a file name, or '-' for stdout)
// RUN: not fp8-opt %s -fp8-report=output=%t.missing-dir/report.json 2>&1 | FileCheck %s --check-prefix=RP-OPEN
// RP-OPEN: fp8-report: option output: cannot write the report to '{{.*}}missing-dir/report.json': {{.*}}
// RP-OPEN-NOT: see current operation

// Passes without options reject one.
// RUN: not fp8-opt %s -fp8-convert-tosa='strict=true' 2>&1 | FileCheck %s --check-prefix=NOOPT
// RUN: not fp8-opt %s -fp8-strip-annotations='strict=true' 2>&1 | FileCheck %s --check-prefix=NOOPT
// NOOPT: no such option strict

// fp8-expand-arith
// RUN: not fp8-opt %s -fp8-expand-arith='saturate=maybe' 2>&1 | FileCheck %s --check-prefix=SAT
// SAT: for the --saturate option: 'maybe' is invalid value for boolean argument
// RUN: not fp8-opt %s -fp8-expand-arith='strict=2' 2>&1 | FileCheck %s --check-prefix=EA-STRICT
// EA-STRICT: for the --strict option: '2' is invalid value for boolean argument

// fp8-constant-globals: alignment is memref.global's, none (0) or a power
// of two; 3 gave globals that failed to verify after the pass.
// RUN: not fp8-opt %s -fp8-constant-globals='alignment=3' 2>&1 | FileCheck %s --check-prefix=CG-ALIGN
// CG-ALIGN: fp8-constant-globals: option alignment=3 is invalid: expected 0 (no alignment) or a power of two up to 2^62 (bytes, one-shot-bufferize's buffer-alignment)
// RUN: not fp8-opt %s -fp8-constant-globals='alignment=18446744073709551615' 2>&1 | FileCheck %s --check-prefix=CG-HUGE
// CG-HUGE: fp8-constant-globals: option alignment=18446744073709551615 is invalid
// RUN: fp8-opt %s -fp8-constant-globals='alignment=4096' -o /dev/null

// fp8-fold-constant-weights: max-elements.
// RUN: not fp8-opt %s -fp8-fold-constant-weights='max-elements=-1' 2>&1 | FileCheck %s --check-prefix=FOLD-NEG
// FOLD-NEG: fp8-fold-constant-weights: option max-elements=-1 is negative (expected a number of elements >= 0)
// FOLD-NEG-NOT: see current operation
// RUN: not fp8-opt %s -fp8-fold-constant-weights='max-elements=many' 2>&1 | FileCheck %s --check-prefix=FOLD-ABC
// FOLD-ABC: for the --max-elements option: 'many' value invalid for long argument!
// RUN: fp8-opt %s -fp8-fold-constant-weights='max-elements=0' -o /dev/null

func.func @f(%x: tensor<16x256xf32>, %w: tensor<256x512xf32>, %init: tensor<16x512xf32>) -> tensor<16x512xf32> {
  %y = linalg.matmul ins(%x, %w : tensor<16x256xf32>, tensor<256x512xf32>) outs(%init : tensor<16x512xf32>) -> tensor<16x512xf32>
  return %y : tensor<16x512xf32>
}
