// The BF16 kernel's K tail (docs/gpu-kernel.md, "The BF16 variant", Tails):
// with K = 40 the K block runs three k16 steps, the last one 8 products of
// A and B and 8 of TMA's zero fill, +0.0 * +0.0 = +0.0. Every real product
// here is -0.0 (A's squares, never -0.0, times a B of -0.0) and every
// accumulator starts at -0.0, so the outputs are zero sums whose sign only
// the fill decides: the kernel's +0.0 products make them +0.0 (-0.0 + +0.0
// under `exact`; a zero sum of a step is +0.0 under `sm90`), and so must
// fp8-cpu-pipeline, which pads the tail group with the same +0.0 products
// (docs/numerics.md). `=zero` is that hand-derived expectation: every
// output +0.0 in both libraries. Functions: @fill, the init a linalg.fill
// of -0.0 (the acc_init kernel, `_init80000000`); @cop, a C operand of
// -0.0 computed at run time (the `_acc` kernel that loads C); @fill24, K = 24
// (one full step and a tail of 8) under the same fill. Default accumulation
// and FP8_EMU_ACCUMULATOR=sm90 against fp8-cpu-pipeline{accumulator=sm90},
// two scheduler seeds and the lockstep schedule.
//
// REQUIRES: clang
// RUN: %clang -O1 %S/Inputs/host_check.c -o %t.check -ldl
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=llvm target=emulator config=fixed" | mlir-translate --mlir-to-llvmir -o %t.gpu.ll
// RUN: %clang %t.gpu.ll -o %t.gpu.so %emu_host_link
// RUN: fp8-opt %s --fp8-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.cpu.ll
// RUN: %clang %t.cpu.ll -o %t.cpu.so %cpu_host_link
// RUN: fp8-opt %s --fp8-cpu-pipeline=accumulator=sm90 | mlir-translate --mlir-to-llvmir -o %t.cpu90.ll
// RUN: %clang %t.cpu90.ll -o %t.cpu90.so %cpu_host_link
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so fill 1 f32:64x72=zero bf16:64x40 2>&1 | FileCheck %s --check-prefix=FILL
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so fill 2 f32:64x72=zero bf16:64x40 | FileCheck %s --check-prefix=FILL-PASS
// RUN: env FP8_EMU_ACCUMULATOR=sm90 FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu90.so fill 3 f32:64x72=zero bf16:64x40 | FileCheck %s --check-prefix=FILL-PASS
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so cop 4 f32:64x72=zero bf16:64x40 f32:64x72 2>&1 | FileCheck %s --check-prefix=COP
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so cop 5 f32:64x72=zero bf16:64x40 f32:64x72 | FileCheck %s --check-prefix=COP-PASS
// RUN: env FP8_EMU_ACCUMULATOR=sm90 FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu90.so cop 6 f32:64x72=zero bf16:64x40 f32:64x72 | FileCheck %s --check-prefix=COP-PASS
// RUN: env FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so fill24 7 f32:64x72=zero bf16:64x24 | FileCheck %s --check-prefix=FILL24-PASS
// RUN: env FP8_EMU_ACCUMULATOR=sm90 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu90.so fill24 8 f32:64x72=zero bf16:64x24 | FileCheck %s --check-prefix=FILL24-PASS

// FILL: fp8-emu-mgpu: launch fp8_matmul_64x72x40_bf16_bf16_f32_init80000000
// FILL: host-check: PASS fill: 64x72, 4608 outputs bit-exact
// FILL-PASS: host-check: PASS fill: 64x72, 4608 outputs bit-exact
// COP: fp8-emu-mgpu: launch fp8_matmul_64x72x40_bf16_bf16_f32_acc
// COP: host-check: PASS cop: 64x72, 4608 outputs bit-exact
// COP-PASS: host-check: PASS cop: 64x72, 4608 outputs bit-exact
// FILL24-PASS: host-check: PASS fill24: 64x72, 4608 outputs bit-exact

func.func @fill(%a: tensor<64x40xbf16>) -> tensor<64x72xf32> attributes {llvm.emit_c_interface} {
  %neg = arith.constant -0.0 : f32
  %bneg = arith.constant dense<-0.0> : tensor<40x72xbf16>
  %sq = arith.mulf %a, %a : tensor<64x40xbf16>
  %e = tensor.empty() : tensor<64x72xf32>
  %z = linalg.fill ins(%neg : f32) outs(%e : tensor<64x72xf32>) -> tensor<64x72xf32>
  %y = linalg.matmul ins(%sq, %bneg : tensor<64x40xbf16>, tensor<40x72xbf16>) outs(%z : tensor<64x72xf32>) -> tensor<64x72xf32>
  return %y : tensor<64x72xf32>
}

// C = -(c * c * 0.0): -0.0 everywhere, computed at run time (not a fill).
func.func @cop(%a: tensor<64x40xbf16>, %c: tensor<64x72xf32>) -> tensor<64x72xf32> attributes {llvm.emit_c_interface} {
  %bneg = arith.constant dense<-0.0> : tensor<40x72xbf16>
  %zeros = arith.constant dense<0.0> : tensor<64x72xf32>
  %sq = arith.mulf %a, %a : tensor<64x40xbf16>
  %csq = arith.mulf %c, %c : tensor<64x72xf32>
  %cz = arith.mulf %csq, %zeros : tensor<64x72xf32>
  %cneg = arith.negf %cz : tensor<64x72xf32>
  %y = linalg.matmul ins(%sq, %bneg : tensor<64x40xbf16>, tensor<40x72xbf16>) outs(%cneg : tensor<64x72xf32>) -> tensor<64x72xf32>
  return %y : tensor<64x72xf32>
}

func.func @fill24(%a: tensor<64x24xbf16>) -> tensor<64x72xf32> attributes {llvm.emit_c_interface} {
  %neg = arith.constant -0.0 : f32
  %bneg = arith.constant dense<-0.0> : tensor<24x72xbf16>
  %sq = arith.mulf %a, %a : tensor<64x24xbf16>
  %e = tensor.empty() : tensor<64x72xf32>
  %z = linalg.fill ins(%neg : f32) outs(%e : tensor<64x72xf32>) -> tensor<64x72xf32>
  %y = linalg.matmul ins(%sq, %bneg : tensor<64x24xbf16>, tensor<24x72xbf16>) outs(%z : tensor<64x72xf32>) -> tensor<64x72xf32>
  return %y : tensor<64x72xf32>
}
