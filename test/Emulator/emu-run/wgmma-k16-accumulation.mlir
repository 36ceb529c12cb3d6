// FP8_EMU_ACCUMULATOR=sm90 on bf16 and f16 wgmma: every m64n64k16 step
// follows Hopper's k16 accumulation (docs/numerics.md, "Tensor-core
// accumulation models"), bit-exact against 64 measured H100 vectors per
// format (test/Integration/CPU/Inputs/hopper-accumulation/*_k16.txt).
// Inputs/wgmma_k16_case.py builds one CTA's four chained wgmma steps whose
// diagonal outputs D[v][v] are the measured steps: the first step rebuilds
// the vector's c exactly, the second is the vector, the last two add zero
// products. Without a model (exact) the k-order f32 sums get vectors wrong.
//
// RUN: %python %S/../Inputs/wgmma_k16_case.py bf16 %S/../../Integration/CPU/Inputs/hopper-accumulation/h100_bf16_k16.txt > %t.bf16.mlir
// RUN: %python %S/../Inputs/wgmma_k16_case.py f16 %S/../../Integration/CPU/Inputs/hopper-accumulation/h100_f16_k16.txt > %t.f16.mlir
// RUN: env FP8_EMU_ACCUMULATOR=sm90 fp8-emu-run %t.bf16.mlir | FileCheck %s --check-prefix=SM90
// RUN: env FP8_EMU_ACCUMULATOR=sm90 fp8-emu-run %t.f16.mlir | FileCheck %s --check-prefix=SM90
// RUN: env FP8_EMU_ACCUMULATOR=exact fp8-emu-run %t.bf16.mlir | FileCheck %s --check-prefix=EXACT
// RUN: env FP8_EMU_ACCUMULATOR=exact fp8-emu-run %t.f16.mlir | FileCheck %s --check-prefix=EXACT

// SM90-NOT: mismatch
// SM90: mismatches 0
// EXACT: mismatch: vector
// EXACT: mismatches {{[1-9][0-9]*}}
