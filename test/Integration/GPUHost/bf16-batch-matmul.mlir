// The BF16 variant's batch kernel (docs/gpu-kernel.md, "The BF16
// variant"): linalg.batch_matmul [G, M, K] x [G, K, N] -> [G, M, N] with bf16
// operands and an f32 result (attention's QK^T and PV), as the compiled host
// program on the emulated mgpu runtime, bit for bit against fp8-cpu-pipeline
// (whose batch_matmul sums acc += a * b in k order from the init, as the
// kernel's chained k16 wgmma do from C in the emulator's exact
// accumulation). The functions take 2-D operands (host_check's) and expand
// them: A [G * M, K], B [G * K, N], C [G * M, N]. Shapes: G 1, 128x128x128
// (one tile, zero init); G 3, M 100, N 72, K 40 with a non-zero C (every
// tail: a 100-row box, a 72-column one, a K tail of three k16 steps whose
// B box rows 40..63 must be zero fill, not the next batch's first K rows;
// rows 100..127 of A's box not the next batch's rows); G 8, M 64 (one
// consumer), N 200, K 520 (nine K blocks through the seven-slot ring, the
// last of one k16 step). Two scheduler seeds and the lockstep schedule;
// with FP8_EMU_SM_COUNT=5 the persistent CTAs walk tiles of several
// batches. The trace shows the batch kernels launched (grids by hand:
// min(G * ceil(M / BM) * ceil(N / 128), SMs)) and no host kernel. Under
// Hopper's k16 accumulation (FP8_EMU_ACCUMULATOR=sm90 against
// accumulator=sm90) the two stay bit-exact.
//
// REQUIRES: clang
// RUN: %clang -O1 %S/Inputs/host_check.c -o %t.check -ldl
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=llvm target=emulator" | mlir-translate --mlir-to-llvmir -o %t.gpu.ll
// RUN: %clang %t.gpu.ll -o %t.gpu.so %emu_host_link
// RUN: fp8-opt %s --fp8-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.cpu.ll
// RUN: %clang %t.cpu.ll -o %t.cpu.so %cpu_host_link
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so bmm1 1 f32:128x128 bf16:128x128 bf16:128x128 2>&1 | FileCheck %s --check-prefix=B1
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so bmm1 2 f32:128x128 bf16:128x128 bf16:128x128 | FileCheck %s --check-prefix=B1-PASS
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so bmm3 3 f32:300x72 bf16:300x40 bf16:120x72 f32:300x72 2>&1 | FileCheck %s --check-prefix=B3
// RUN: env FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so bmm3 4 f32:300x72 bf16:300x40 bf16:120x72 f32:300x72 | FileCheck %s --check-prefix=B3-PASS
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so bmm3 5 f32:300x72 bf16:300x40 bf16:120x72 f32:300x72 | FileCheck %s --check-prefix=B3-PASS
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so bmm8 6 f32:512x200 bf16:512x520 bf16:4160x200 2>&1 | FileCheck %s --check-prefix=B8
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SM_COUNT=5 FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so bmm8 7 f32:512x200 bf16:512x520 bf16:4160x200 2>&1 | FileCheck %s --check-prefix=B8-SM5
// RUN: env FP8_EMU_SM_COUNT=5 FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so bmm3 8 f32:300x72 bf16:300x40 bf16:120x72 f32:300x72 | FileCheck %s --check-prefix=B3-PASS
// Hopper's k16 accumulation: the emulator's wgmma under
// FP8_EMU_ACCUMULATOR=sm90 against fp8-cpu-pipeline{accumulator=sm90}
// (WideMatmulAccumulation's batch_matmul chain): bit-exact; against the
// exact CPU sums the same device run differs (the models do differ on
// these inputs).
// RUN: fp8-opt %s --fp8-cpu-pipeline=accumulator=sm90 | mlir-translate --mlir-to-llvmir -o %t.cpu90.ll
// RUN: %clang %t.cpu90.ll -o %t.cpu90.so %cpu_host_link
// RUN: env FP8_EMU_ACCUMULATOR=sm90 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu90.so bmm3 9 f32:300x72 bf16:300x40 bf16:120x72 f32:300x72 | FileCheck %s --check-prefix=B3-PASS
// RUN: env FP8_EMU_ACCUMULATOR=sm90 FP8_EMU_SM_COUNT=5 %t.check %t.gpu.so %t.cpu90.so bmm8 10 f32:512x200 bf16:512x520 bf16:4160x200 | FileCheck %s --check-prefix=B8-PASS
// RUN: env FP8_EMU_ACCUMULATOR=sm90 not %t.check %t.gpu.so %t.cpu.so bmm8 10 f32:512x200 bf16:512x520 bf16:4160x200 | FileCheck %s --check-prefix=B8-DIFF

// B1-NOT: fp8-emu-mgpu: launch fp8_host
// B1: fp8-emu-mgpu: launch fp8_batch_matmul_1x128x128x128_bf16_bf16_f32_accf32 grid 1 block 384
// B1-NOT: fp8-emu-mgpu: launch fp8_host
// B1: host-check: PASS bmm1: 128x128, 16384 outputs bit-exact
// B1-PASS: host-check: PASS bmm1: 128x128, 16384 outputs bit-exact
// B3-NOT: fp8-emu-mgpu: launch fp8_host
// B3: fp8-emu-mgpu: launch fp8_batch_matmul_3x100x72x40_bf16_bf16_f32_accf32 grid 3 block 384
// B3-NOT: fp8-emu-mgpu: launch fp8_host
// B3: host-check: PASS bmm3: 300x72, 21600 outputs bit-exact
// B3-PASS: host-check: PASS bmm3: 300x72, 21600 outputs bit-exact
// B8-NOT: fp8-emu-mgpu: launch fp8_host
// B8: fp8-emu-mgpu: launch fp8_batch_matmul_8x64x200x520_bf16_bf16_f32_accf32 grid 16 block 256
// B8-NOT: fp8-emu-mgpu: launch fp8_host
// B8: host-check: PASS bmm8: 512x200, 102400 outputs bit-exact
// B8-SM5: fp8-emu-mgpu: launch fp8_batch_matmul_8x64x200x520_bf16_bf16_f32_accf32 grid 5 block 256
// B8-SM5: host-check: PASS bmm8: 512x200, 102400 outputs bit-exact
// B8-PASS: host-check: PASS bmm8: 512x200, 102400 outputs bit-exact
// B8-DIFF: host-check: FAIL bmm8: {{[1-9][0-9]*}} of 102400 outputs differ

func.func @bmm1(%a2: tensor<128x128xbf16>, %b2: tensor<128x128xbf16>) -> tensor<128x128xf32> attributes {llvm.emit_c_interface} {
  %a = tensor.expand_shape %a2 [[0, 1], [2]] output_shape [1, 128, 128] : tensor<128x128xbf16> into tensor<1x128x128xbf16>
  %b = tensor.expand_shape %b2 [[0, 1], [2]] output_shape [1, 128, 128] : tensor<128x128xbf16> into tensor<1x128x128xbf16>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x128x128xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x128x128xf32>) -> tensor<1x128x128xf32>
  %y = linalg.batch_matmul ins(%a, %b : tensor<1x128x128xbf16>, tensor<1x128x128xbf16>) outs(%z : tensor<1x128x128xf32>) -> tensor<1x128x128xf32>
  %y2 = tensor.collapse_shape %y [[0, 1], [2]] : tensor<1x128x128xf32> into tensor<128x128xf32>
  return %y2 : tensor<128x128xf32>
}

func.func @bmm3(%a2: tensor<300x40xbf16>, %b2: tensor<120x72xbf16>, %c2: tensor<300x72xf32>) -> tensor<300x72xf32> attributes {llvm.emit_c_interface} {
  %a = tensor.expand_shape %a2 [[0, 1], [2]] output_shape [3, 100, 40] : tensor<300x40xbf16> into tensor<3x100x40xbf16>
  %b = tensor.expand_shape %b2 [[0, 1], [2]] output_shape [3, 40, 72] : tensor<120x72xbf16> into tensor<3x40x72xbf16>
  %c = tensor.expand_shape %c2 [[0, 1], [2]] output_shape [3, 100, 72] : tensor<300x72xf32> into tensor<3x100x72xf32>
  %y = linalg.batch_matmul ins(%a, %b : tensor<3x100x40xbf16>, tensor<3x40x72xbf16>) outs(%c : tensor<3x100x72xf32>) -> tensor<3x100x72xf32>
  %y2 = tensor.collapse_shape %y [[0, 1], [2]] : tensor<3x100x72xf32> into tensor<300x72xf32>
  return %y2 : tensor<300x72xf32>
}

func.func @bmm8(%a2: tensor<512x520xbf16>, %b2: tensor<4160x200xbf16>) -> tensor<512x200xf32> attributes {llvm.emit_c_interface} {
  %a = tensor.expand_shape %a2 [[0, 1], [2]] output_shape [8, 64, 520] : tensor<512x520xbf16> into tensor<8x64x520xbf16>
  %b = tensor.expand_shape %b2 [[0, 1], [2]] output_shape [8, 520, 200] : tensor<4160x200xbf16> into tensor<8x520x200xbf16>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x64x200xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x64x200xf32>) -> tensor<8x64x200xf32>
  %y = linalg.batch_matmul ins(%a, %b : tensor<8x64x520xbf16>, tensor<8x520x200xbf16>) outs(%z : tensor<8x64x200xf32>) -> tensor<8x64x200xf32>
  %y2 = tensor.collapse_shape %y [[0, 1], [2]] : tensor<8x64x200xf32> into tensor<512x200xf32>
  return %y2 : tensor<512x200xf32>
}
