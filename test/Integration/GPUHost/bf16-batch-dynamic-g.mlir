// The BF16 batch kernel with a run-time batch count (docs/gpu-kernel.md, "The
// BF16 variant"): a linalg.batch_matmul [?, M, K] x [?, K, N] (real exports
// fold batch x heads into a dynamic G) gets one kernel
// fp8_batch_matmul_dynx... for every G, G its last i32 parameter, the grid's
// tile count G x ceil(M / BM) x ceil(N / BN) computed on the device. As the
// compiled host program on the emulated mgpu runtime, bit for bit against
// fp8-cpu-pipeline (whose batch_matmul sums acc += a * b in k order from the
// init, as the kernel's chained k16 wgmma do from C in the emulator's exact
// accumulation; under Hopper's k16 accumulation both sides' sm90 models).
// The functions take 2-D operands (host_check's) and expand them, each
// operand's G from its own rows, so A's, B's and C's batch counts are
// separate run-time values that the launcher's cf.assert compares:
// - bmmg: M 100, N 72, K 40 with a non-zero C (every tail: a 100-row box, a
//   72-column one, a K tail whose B box rows 40..63 must be zero fill, not
//   the next batch's first K rows); G 3, 1, 7 (one tile per batch; with
//   FP8_EMU_SM_COUNT=2 the two persistent CTAs walk batches 0, 2, 4, 6 and
//   1, 3, 5: a tile count of 1 or 2 batches' tiles would leave the others
//   unwritten) and 0 (nothing launched, an empty result).
// - bmmgm: G and M both at run time (B [G * 520, 200] gives G, A [M, G *
//   520] M), N 200, K 520 (nine K blocks through the ring), zero
//   init: G 2 M 70, G 3 M 130 (two row tiles, the second of 2 rows), G 5
//   M 1.
// - bmmgdirect: bmmgm's problem with A in the direct form [G * M, 520]
//   viewed as [G, M, 520] (two run-time sizes in one expand_shape group):
//   G 2 M 70, G 3 M 130.
// Grids by hand: min(G * ceil(M / 128) * ceil(N / 128), SMs). The trace
// shows the run-time-G kernel launched and no host kernel. A B of another
// G than A's stops the program before the launch (the launcher's cf.assert;
// the message names the extent and the operands).
//
// config=fixed: the shapes' default tiles.
// REQUIRES: clang, stdbuf
// RUN: %clang -O1 %S/Inputs/host_check.c -o %t.check -ldl
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=llvm target=emulator config=fixed" | mlir-translate --mlir-to-llvmir -o %t.gpu.ll
// RUN: %clang %t.gpu.ll -o %t.gpu.so %emu_host_link
// RUN: fp8-opt %s --fp8-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.cpu.ll
// RUN: %clang %t.cpu.ll -o %t.cpu.so %cpu_host_link
// RUN: fp8-opt %s --fp8-cpu-pipeline=accumulator=sm90 | mlir-translate --mlir-to-llvmir -o %t.cpu90.ll
// RUN: %clang %t.cpu90.ll -o %t.cpu90.so %cpu_host_link
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so bmmg 1 f32:300x72 bf16:300x40 bf16:120x72 f32:300x72 2>&1 | FileCheck %s --check-prefix=G3
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so bmmg 2 f32:300x72 bf16:300x40 bf16:120x72 f32:300x72 | FileCheck %s --check-prefix=G3-PASS
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so bmmg 3 f32:100x72 bf16:100x40 bf16:40x72 f32:100x72 2>&1 | FileCheck %s --check-prefix=G1
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so bmmg 4 f32:700x72 bf16:700x40 bf16:280x72 f32:700x72 2>&1 | FileCheck %s --check-prefix=G7
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SM_COUNT=2 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so bmmg 5 f32:700x72 bf16:700x40 bf16:280x72 f32:700x72 2>&1 | FileCheck %s --check-prefix=G7-SM2
// RUN: env FP8_EMU_SM_COUNT=2 FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so bmmg 6 f32:700x72 bf16:700x40 bf16:280x72 f32:700x72 | FileCheck %s --check-prefix=G7-PASS
// RUN: env FP8_EMU_ACCUMULATOR=sm90 FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu90.so bmmg 7 f32:700x72 bf16:700x40 bf16:280x72 f32:700x72 | FileCheck %s --check-prefix=G7-PASS
// RUN: env FP8_EMU_TRACE=1 %t.check %t.gpu.so %t.cpu.so bmmg 8 f32:0x72 bf16:0x40 bf16:0x72 f32:0x72 2>&1 | FileCheck %s --check-prefix=G0
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so bmmgm 9 f32:70x400 bf16:70x1040 bf16:1040x200 2>&1 | FileCheck %s --check-prefix=GM2
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so bmmgm 10 f32:130x600 bf16:130x1560 bf16:1560x200 2>&1 | FileCheck %s --check-prefix=GM3
// RUN: env FP8_EMU_SM_COUNT=5 FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so bmmgm 11 f32:130x600 bf16:130x1560 bf16:1560x200 | FileCheck %s --check-prefix=GM3-PASS
// RUN: env FP8_EMU_ACCUMULATOR=sm90 FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu90.so bmmgm 12 f32:130x600 bf16:130x1560 bf16:1560x200 | FileCheck %s --check-prefix=GM3-PASS
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so bmmgm 13 f32:1x1000 bf16:1x2600 bf16:2600x200 2>&1 | FileCheck %s --check-prefix=GM5
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so bmmgdirect 15 f32:140x200 bf16:140x520 bf16:1040x200 2>&1 | FileCheck %s --check-prefix=GD2
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so bmmgdirect 16 f32:390x200 bf16:390x520 bf16:1560x200 2>&1 | FileCheck %s --check-prefix=GD3
// RUN: env FP8_EMU_SM_COUNT=5 FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so bmmgdirect 17 f32:390x200 bf16:390x520 bf16:1560x200 | FileCheck %s --check-prefix=GD3-PASS
// RUN: env FP8_EMU_ACCUMULATOR=sm90 FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu90.so bmmgdirect 18 f32:390x200 bf16:390x520 bf16:1560x200 | FileCheck %s --check-prefix=GD3-PASS
// RUN: not --crash stdbuf -o0 %t.check %t.gpu.so %t.gpu.so bmmg 14 f32:300x72 bf16:300x40 bf16:80x72 f32:300x72 2>&1 | FileCheck %s --check-prefix=MIS

// G3-NOT: fp8-emu-mgpu: launch fp8_host
// G3: fp8-emu-mgpu: launch fp8_batch_matmul_dynx100x72x40_bf16_bf16_f32_accf32 grid 3 block 384
// G3-NOT: fp8-emu-mgpu: launch fp8_host
// G3: host-check: PASS bmmg: 300x72, 21600 outputs bit-exact
// G3-PASS: host-check: PASS bmmg: 300x72, 21600 outputs bit-exact
// G1: fp8-emu-mgpu: launch fp8_batch_matmul_dynx100x72x40_bf16_bf16_f32_accf32 grid 1 block 384
// G1: host-check: PASS bmmg: 100x72, 7200 outputs bit-exact
// G7: fp8-emu-mgpu: launch fp8_batch_matmul_dynx100x72x40_bf16_bf16_f32_accf32 grid 7 block 384
// G7: host-check: PASS bmmg: 700x72, 50400 outputs bit-exact
// G7-SM2: fp8-emu-mgpu: launch fp8_batch_matmul_dynx100x72x40_bf16_bf16_f32_accf32 grid 2 block 384
// G7-SM2: host-check: PASS bmmg: 700x72, 50400 outputs bit-exact
// G7-PASS: host-check: PASS bmmg: 700x72, 50400 outputs bit-exact
// G0-NOT: fp8-emu-mgpu: launch
// G0: host-check: PASS bmmg: 0x72, 0 outputs bit-exact
// GM2-NOT: fp8-emu-mgpu: launch fp8_host
// GM2: fp8-emu-mgpu: launch fp8_batch_matmul_dynxdynx200x520_bf16_bf16_f32_init0 grid 4 block 384
// GM2-NOT: fp8-emu-mgpu: launch fp8_host
// GM2: host-check: PASS bmmgm: 70x400, 28000 outputs bit-exact
// GM3: fp8-emu-mgpu: launch fp8_batch_matmul_dynxdynx200x520_bf16_bf16_f32_init0 grid 12 block 384
// GM3: host-check: PASS bmmgm: 130x600, 78000 outputs bit-exact
// GM3-PASS: host-check: PASS bmmgm: 130x600, 78000 outputs bit-exact
// GM5: fp8-emu-mgpu: launch fp8_batch_matmul_dynxdynx200x520_bf16_bf16_f32_init0 grid 10 block 384
// GM5: host-check: PASS bmmgm: 1x1000, 1000 outputs bit-exact
// GD2-NOT: fp8-emu-mgpu: launch fp8_host
// GD2: fp8-emu-mgpu: launch fp8_batch_matmul_dynxdynx200x520_bf16_bf16_f32_init0 grid 4 block 384
// GD2: host-check: PASS bmmgdirect: 140x200, 28000 outputs bit-exact
// GD3-NOT: fp8-emu-mgpu: launch fp8_host
// GD3: fp8-emu-mgpu: launch fp8_batch_matmul_dynxdynx200x520_bf16_bf16_f32_init0 grid 12 block 384
// GD3: host-check: PASS bmmgdirect: 390x200, 78000 outputs bit-exact
// GD3-PASS: host-check: PASS bmmgdirect: 390x200, 78000 outputs bit-exact
// MIS: linalg.batch_matmul: the batch of A (dimension 0) and of B (dimension 0) differ at run time; the bf16 kernel computes A's batch count and M rows with its compiled-in N and K
// MIS-NOT: host-check: PASS

// A [G * 100, 40], B [G * 40, 72], C [G * 100, 72]: each operand's G from
// its own rows.
func.func @bmmg(%a2: tensor<?x40xbf16>, %b2: tensor<?x72xbf16>, %c2: tensor<?x72xf32>) -> tensor<?x72xf32> attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c40 = arith.constant 40 : index
  %c100 = arith.constant 100 : index
  %arows = tensor.dim %a2, %c0 : tensor<?x40xbf16>
  %brows = tensor.dim %b2, %c0 : tensor<?x72xbf16>
  %crows = tensor.dim %c2, %c0 : tensor<?x72xf32>
  %ga = arith.divui %arows, %c100 : index
  %gb = arith.divui %brows, %c40 : index
  %gc = arith.divui %crows, %c100 : index
  %a = tensor.expand_shape %a2 [[0, 1], [2]] output_shape [%ga, 100, 40] : tensor<?x40xbf16> into tensor<?x100x40xbf16>
  %b = tensor.expand_shape %b2 [[0, 1], [2]] output_shape [%gb, 40, 72] : tensor<?x72xbf16> into tensor<?x40x72xbf16>
  %c = tensor.expand_shape %c2 [[0, 1], [2]] output_shape [%gc, 100, 72] : tensor<?x72xf32> into tensor<?x100x72xf32>
  %y = linalg.batch_matmul ins(%a, %b : tensor<?x100x40xbf16>, tensor<?x40x72xbf16>) outs(%c : tensor<?x100x72xf32>) -> tensor<?x100x72xf32>
  %y2 = tensor.collapse_shape %y [[0, 1], [2]] : tensor<?x100x72xf32> into tensor<?x72xf32>
  return %y2 : tensor<?x72xf32>
}

// B [G * 520, 200] gives G; A comes as [M, G * 520] (its batches side by
// side: MLIR 22's expand-strided-metadata crashes on a memref.expand_shape
// of two dynamic sizes in one group, [G * M] -> [G, M]), expanded to [M, G,
// 520] and transposed to [G, M, 520]; the result [G, M, 200] likewise
// returned as [M, G * 200]; a zero init.
func.func @bmmgm(%a2: tensor<?x?xbf16>, %b2: tensor<?x200xbf16>) -> tensor<?x?xf32> attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c520 = arith.constant 520 : index
  %m = tensor.dim %a2, %c0 : tensor<?x?xbf16>
  %brows = tensor.dim %b2, %c0 : tensor<?x200xbf16>
  %g = arith.divui %brows, %c520 : index
  %a3 = tensor.expand_shape %a2 [[0], [1, 2]] output_shape [%m, %g, 520] : tensor<?x?xbf16> into tensor<?x?x520xbf16>
  %ae = tensor.empty(%g, %m) : tensor<?x?x520xbf16>
  %a = linalg.transpose ins(%a3 : tensor<?x?x520xbf16>) outs(%ae : tensor<?x?x520xbf16>) permutation = [1, 0, 2]
  %b = tensor.expand_shape %b2 [[0, 1], [2]] output_shape [%g, 520, 200] : tensor<?x200xbf16> into tensor<?x520x200xbf16>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%g, %m) : tensor<?x?x200xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?x200xf32>) -> tensor<?x?x200xf32>
  %y = linalg.batch_matmul ins(%a, %b : tensor<?x?x520xbf16>, tensor<?x520x200xbf16>) outs(%z : tensor<?x?x200xf32>) -> tensor<?x?x200xf32>
  %ye = tensor.empty(%m, %g) : tensor<?x?x200xf32>
  %yt = linalg.transpose ins(%y : tensor<?x?x200xf32>) outs(%ye : tensor<?x?x200xf32>) permutation = [1, 0, 2]
  %y2 = tensor.collapse_shape %yt [[0], [1, 2]] : tensor<?x?x200xf32> into tensor<?x?xf32>
  return %y2 : tensor<?x?xf32>
}

// The direct form of bmmgm: A [G * M, 520] viewed as [G, M, 520] (an
// expand_shape with two run-time sizes in one group, G from B's rows and M
// = A's rows / G: fp8-resolve-expand-shapes writes it as a
// memref.reinterpret_cast on both pipelines), the result [G, M, 200]
// collapsed back to [G * M, 200]; a zero init.
func.func @bmmgdirect(%a2: tensor<?x520xbf16>, %b2: tensor<?x200xbf16>) -> tensor<?x200xf32> attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c520 = arith.constant 520 : index
  %arows = tensor.dim %a2, %c0 : tensor<?x520xbf16>
  %brows = tensor.dim %b2, %c0 : tensor<?x200xbf16>
  %g = arith.divui %brows, %c520 : index
  %m = arith.divui %arows, %g : index
  %a = tensor.expand_shape %a2 [[0, 1], [2]] output_shape [%g, %m, 520] : tensor<?x520xbf16> into tensor<?x?x520xbf16>
  %b = tensor.expand_shape %b2 [[0, 1], [2]] output_shape [%g, 520, 200] : tensor<?x200xbf16> into tensor<?x520x200xbf16>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%g, %m) : tensor<?x?x200xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?x200xf32>) -> tensor<?x?x200xf32>
  %y = linalg.batch_matmul ins(%a, %b : tensor<?x?x520xbf16>, tensor<?x520x200xbf16>) outs(%z : tensor<?x?x200xf32>) -> tensor<?x?x200xf32>
  %y2 = tensor.collapse_shape %y [[0, 1], [2]] : tensor<?x?x200xf32> into tensor<?x200xf32>
  return %y2 : tensor<?x200xf32>
}
