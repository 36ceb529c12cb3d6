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
// A run-time M (attention over a run-time token count): one kernel
// fp8_batch_matmul_<G>xdynx... for every M, M its i32 parameter, batch g's
// rows of C and D at g * M. bmmdyn4: G 4, N 72, K 40 with a non-zero C, M
// 100 (a tail), 130 (two row tiles, the second of 2 rows), 50 and 1 (below
// 64: the same 128-row tile, 78 and 127 rows of zero fill that are not the
// next batch's rows) and 0 (nothing launched, an empty result); bmmdyn2: G
// 2, N 200, K 520 (nine K blocks) with a zero init, M 70 and 300. Grids by
// hand: min(G * ceil(M / 128) * ceil(N / 128), SMs). A C whose M is not
// A's stops the program before the launch (the launcher's cf.assert; the
// message names the operands).
//
// config=fixed: the shapes' default tiles (config=auto's BF16 cost model
// tiles: bf16-matmul-tiles.mlir).
// REQUIRES: clang, stdbuf
// RUN: %clang -O1 %S/Inputs/host_check.c -o %t.check -ldl
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=llvm target=emulator config=fixed" | mlir-translate --mlir-to-llvmir -o %t.gpu.ll
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
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so bmmdyn4 11 f32:400x72 bf16:400x40 bf16:160x72 f32:400x72 2>&1 | FileCheck %s --check-prefix=D100
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so bmmdyn4 12 f32:520x72 bf16:520x40 bf16:160x72 f32:520x72 2>&1 | FileCheck %s --check-prefix=D130
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so bmmdyn4 13 f32:520x72 bf16:520x40 bf16:160x72 f32:520x72 | FileCheck %s --check-prefix=D130-PASS
// RUN: env FP8_EMU_SM_COUNT=3 FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so bmmdyn4 14 f32:520x72 bf16:520x40 bf16:160x72 f32:520x72 | FileCheck %s --check-prefix=D130-PASS
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so bmmdyn4 15 f32:200x72 bf16:200x40 bf16:160x72 f32:200x72 2>&1 | FileCheck %s --check-prefix=D50
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so bmmdyn4 16 f32:4x72 bf16:4x40 bf16:160x72 f32:4x72 | FileCheck %s --check-prefix=D1
// RUN: env FP8_EMU_TRACE=1 %t.check %t.gpu.so %t.cpu.so bmmdyn4 17 f32:0x72 bf16:0x40 bf16:160x72 f32:0x72 2>&1 | FileCheck %s --check-prefix=D0
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so bmmdyn2 18 f32:140x200 bf16:140x520 bf16:1040x200 2>&1 | FileCheck %s --check-prefix=E70
// RUN: env FP8_EMU_SM_COUNT=5 FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so bmmdyn2 19 f32:600x200 bf16:600x520 bf16:1040x200 | FileCheck %s --check-prefix=E300
// RUN: env FP8_EMU_ACCUMULATOR=sm90 FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu90.so bmmdyn2 20 f32:600x200 bf16:600x520 bf16:1040x200 | FileCheck %s --check-prefix=E300
// RUN: not --crash stdbuf -o0 %t.check %t.gpu.so %t.gpu.so bmmdynmis 21 f32:400x72 bf16:400x40 bf16:160x72 f32:300x72 2>&1 | FileCheck %s --check-prefix=MIS

// B1-NOT: fp8-emu-mgpu: launch fp8_host
// B1: fp8-emu-mgpu: launch fp8_batch_matmul_1x128x128x128_bf16_bf16_f32_init0 grid 1 block 384
// B1-NOT: fp8-emu-mgpu: launch fp8_host
// B1: host-check: PASS bmm1: 128x128, 16384 outputs bit-exact
// B1-PASS: host-check: PASS bmm1: 128x128, 16384 outputs bit-exact
// B3-NOT: fp8-emu-mgpu: launch fp8_host
// B3: fp8-emu-mgpu: launch fp8_batch_matmul_3x100x72x40_bf16_bf16_f32_accf32 grid 3 block 384
// B3-NOT: fp8-emu-mgpu: launch fp8_host
// B3: host-check: PASS bmm3: 300x72, 21600 outputs bit-exact
// B3-PASS: host-check: PASS bmm3: 300x72, 21600 outputs bit-exact
// B8-NOT: fp8-emu-mgpu: launch fp8_host
// B8: fp8-emu-mgpu: launch fp8_batch_matmul_8x64x200x520_bf16_bf16_f32_init0 grid 16 block 256
// B8-NOT: fp8-emu-mgpu: launch fp8_host
// B8: host-check: PASS bmm8: 512x200, 102400 outputs bit-exact
// B8-SM5: fp8-emu-mgpu: launch fp8_batch_matmul_8x64x200x520_bf16_bf16_f32_init0 grid 5 block 256
// B8-SM5: host-check: PASS bmm8: 512x200, 102400 outputs bit-exact
// B8-PASS: host-check: PASS bmm8: 512x200, 102400 outputs bit-exact
// B8-DIFF: host-check: FAIL bmm8: {{[1-9][0-9]*}} of 102400 outputs differ
// D100-NOT: fp8-emu-mgpu: launch fp8_host
// D100: fp8-emu-mgpu: launch fp8_batch_matmul_4xdynx72x40_bf16_bf16_f32_accf32 grid 4 block 384
// D100-NOT: fp8-emu-mgpu: launch fp8_host
// D100: host-check: PASS bmmdyn4: 400x72, 28800 outputs bit-exact
// D130: fp8-emu-mgpu: launch fp8_batch_matmul_4xdynx72x40_bf16_bf16_f32_accf32 grid 8 block 384
// D130: host-check: PASS bmmdyn4: 520x72, 37440 outputs bit-exact
// D130-PASS: host-check: PASS bmmdyn4: 520x72, 37440 outputs bit-exact
// D50: fp8-emu-mgpu: launch fp8_batch_matmul_4xdynx72x40_bf16_bf16_f32_accf32 grid 4 block 384
// D50: host-check: PASS bmmdyn4: 200x72, 14400 outputs bit-exact
// D1: host-check: PASS bmmdyn4: 4x72, 288 outputs bit-exact
// D0-NOT: fp8-emu-mgpu: launch
// D0: host-check: PASS bmmdyn4: 0x72, 0 outputs bit-exact
// E70-NOT: fp8-emu-mgpu: launch fp8_host
// E70: fp8-emu-mgpu: launch fp8_batch_matmul_2xdynx200x520_bf16_bf16_f32_init0 grid 4 block 384
// E70: host-check: PASS bmmdyn2: 140x200, 28000 outputs bit-exact
// E300: host-check: PASS bmmdyn2: 600x200, 120000 outputs bit-exact
// MIS: linalg.batch_matmul: the M of A (dimension 1) and of C (dimension 1) differ at run time
// MIS-NOT: host-check: PASS

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

// A run-time M: A [G * M, K] and C [G * M, N] expanded with M = rows / G.
func.func @bmmdyn4(%a2: tensor<?x40xbf16>, %b2: tensor<160x72xbf16>, %c2: tensor<?x72xf32>) -> tensor<?x72xf32> attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %rows = tensor.dim %a2, %c0 : tensor<?x40xbf16>
  %m = arith.divui %rows, %c4 : index
  %a = tensor.expand_shape %a2 [[0, 1], [2]] output_shape [4, %m, 40] : tensor<?x40xbf16> into tensor<4x?x40xbf16>
  %b = tensor.expand_shape %b2 [[0, 1], [2]] output_shape [4, 40, 72] : tensor<160x72xbf16> into tensor<4x40x72xbf16>
  %c = tensor.expand_shape %c2 [[0, 1], [2]] output_shape [4, %m, 72] : tensor<?x72xf32> into tensor<4x?x72xf32>
  %y = linalg.batch_matmul ins(%a, %b : tensor<4x?x40xbf16>, tensor<4x40x72xbf16>) outs(%c : tensor<4x?x72xf32>) -> tensor<4x?x72xf32>
  %y2 = tensor.collapse_shape %y [[0, 1], [2]] : tensor<4x?x72xf32> into tensor<?x72xf32>
  return %y2 : tensor<?x72xf32>
}

func.func @bmmdyn2(%a2: tensor<?x520xbf16>, %b2: tensor<1040x200xbf16>) -> tensor<?x200xf32> attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %rows = tensor.dim %a2, %c0 : tensor<?x520xbf16>
  %m = arith.divui %rows, %c2 : index
  %a = tensor.expand_shape %a2 [[0, 1], [2]] output_shape [2, %m, 520] : tensor<?x520xbf16> into tensor<2x?x520xbf16>
  %b = tensor.expand_shape %b2 [[0, 1], [2]] output_shape [2, 520, 200] : tensor<1040x200xbf16> into tensor<2x520x200xbf16>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%m) : tensor<2x?x200xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x?x200xf32>) -> tensor<2x?x200xf32>
  %y = linalg.batch_matmul ins(%a, %b : tensor<2x?x520xbf16>, tensor<2x520x200xbf16>) outs(%z : tensor<2x?x200xf32>) -> tensor<2x?x200xf32>
  %y2 = tensor.collapse_shape %y [[0, 1], [2]] : tensor<2x?x200xf32> into tensor<?x200xf32>
  return %y2 : tensor<?x200xf32>
}

// C's M (its rows / 4) taken apart from A's: a C of another M than A's.
func.func @bmmdynmis(%a2: tensor<?x40xbf16>, %b2: tensor<160x72xbf16>, %c2: tensor<?x72xf32>) -> tensor<?x72xf32> attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %rows = tensor.dim %a2, %c0 : tensor<?x40xbf16>
  %m = arith.divui %rows, %c4 : index
  %crows = tensor.dim %c2, %c0 : tensor<?x72xf32>
  %cm = arith.divui %crows, %c4 : index
  %a = tensor.expand_shape %a2 [[0, 1], [2]] output_shape [4, %m, 40] : tensor<?x40xbf16> into tensor<4x?x40xbf16>
  %b = tensor.expand_shape %b2 [[0, 1], [2]] output_shape [4, 40, 72] : tensor<160x72xbf16> into tensor<4x40x72xbf16>
  %c = tensor.expand_shape %c2 [[0, 1], [2]] output_shape [4, %cm, 72] : tensor<?x72xf32> into tensor<4x?x72xf32>
  %y = linalg.batch_matmul ins(%a, %b : tensor<4x?x40xbf16>, tensor<4x40x72xbf16>) outs(%c : tensor<4x?x72xf32>) -> tensor<4x?x72xf32>
  %y2 = tensor.collapse_shape %y [[0, 1], [2]] : tensor<4x?x72xf32> into tensor<?x72xf32>
  return %y2 : tensor<?x72xf32>
}
