// The BF16 kernels with tile options (docs/gpu-kernel.md, "The BF16
// variant"): the compiled host program on the emulated mgpu runtime, bit
// for bit against fp8-cpu-pipeline, for three non-default tiles: 64x128
// with a 3-stage ring (nine K blocks of K = 520 wrap it three times),
// 128x64 in the grouped tile order of 2 rows of tiles (one B box per
// consumer), and 64x256 with two consumers splitting the columns (two B
// boxes each; N = 200 a tail of the one column tile). Shapes: a dynamic M
// (1, 100, 260) with N 200 and K 520 from a zero init; a batch of 3 with M
// 100, N 72, K 40 and a non-zero C (every tail). Seeds and the lockstep
// schedule; the trace shows each tile's kernel name and grid (by hand:
// min(G * ceil(M / BM) * ceil(N / BN), SMs)). config=auto: the BF16 cost
// model's tile for the batch (64x64 with 8 stages: 3 x 2 x 2 = 12 CTAs; a
// dynamic M keeps the default tile).
//
// REQUIRES: clang
// RUN: %clang -O1 %S/Inputs/host_check.c -o %t.check -ldl
// RUN: fp8-opt %s --fp8-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.cpu.ll
// RUN: %clang %t.cpu.ll -o %t.cpu.so %cpu_host_link
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=llvm target=emulator block-m=64 stages=3" | mlir-translate --mlir-to-llvmir -o %t.t64.ll
// RUN: %clang %t.t64.ll -o %t.t64.so %emu_host_link
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=llvm target=emulator block-n=64 group-m=2" | mlir-translate --mlir-to-llvmir -o %t.n64.ll
// RUN: %clang %t.n64.ll -o %t.n64.so %emu_host_link
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=llvm target=emulator block-m=64 block-n=256" | mlir-translate --mlir-to-llvmir -o %t.n256.ll
// RUN: %clang %t.n256.ll -o %t.n256.so %emu_host_link
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=llvm target=emulator" | mlir-translate --mlir-to-llvmir -o %t.auto.ll
// RUN: %clang %t.auto.ll -o %t.auto.so %emu_host_link
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.t64.so %t.cpu.so mmdyn 1 f32:260x200 bf16:260x520 bf16:520x200 2>&1 | FileCheck %s --check-prefix=T64
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.t64.so %t.cpu.so mmdyn 2 f32:1x200 bf16:1x520 bf16:520x200 | FileCheck %s --check-prefix=DYN1
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=2 %t.check %t.t64.so %t.cpu.so bmm3 3 f32:300x72 bf16:300x40 bf16:120x72 f32:300x72 2>&1 | FileCheck %s --check-prefix=T64-B3
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=3 %t.check %t.n64.so %t.cpu.so mmdyn 4 f32:260x200 bf16:260x520 bf16:520x200 2>&1 | FileCheck %s --check-prefix=N64
// RUN: env FP8_EMU_SCHEDULE=lockstep FP8_EMU_SM_COUNT=3 %t.check %t.n64.so %t.cpu.so mmdyn 5 f32:100x200 bf16:100x520 bf16:520x200 | FileCheck %s --check-prefix=DYN100
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.n64.so %t.cpu.so bmm3 6 f32:300x72 bf16:300x40 bf16:120x72 f32:300x72 2>&1 | FileCheck %s --check-prefix=N64-B3
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=2 %t.check %t.n256.so %t.cpu.so mmdyn 7 f32:260x200 bf16:260x520 bf16:520x200 2>&1 | FileCheck %s --check-prefix=N256
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.n256.so %t.cpu.so bmm3 8 f32:300x72 bf16:300x40 bf16:120x72 f32:300x72 | FileCheck %s --check-prefix=B3
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=3 %t.check %t.auto.so %t.cpu.so bmm3 9 f32:300x72 bf16:300x40 bf16:120x72 f32:300x72 2>&1 | FileCheck %s --check-prefix=AUTO
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.auto.so %t.cpu.so bmm3 10 f32:300x72 bf16:300x40 bf16:120x72 f32:300x72 | FileCheck %s --check-prefix=B3

// T64-NOT: fp8-emu-mgpu: launch fp8_host
// T64: fp8-emu-mgpu: launch fp8_matmul_dynx200x520_bf16_bf16_f32_init0_t64x128s3 grid 10 block 256
// T64: host-check: PASS mmdyn: 260x200, 52000 outputs bit-exact
// DYN1: host-check: PASS mmdyn: 1x200, 200 outputs bit-exact
// T64-B3: fp8-emu-mgpu: launch fp8_batch_matmul_3x100x72x40_bf16_bf16_f32_accf32_t64x128s3 grid 6 block 256
// T64-B3: host-check: PASS bmm3: 300x72, 21600 outputs bit-exact
// N64: fp8-emu-mgpu: launch fp8_matmul_dynx200x520_bf16_bf16_f32_init0_t128x64s{{[0-9]+}}g2 grid 12 block 384
// N64: host-check: PASS mmdyn: 260x200, 52000 outputs bit-exact
// DYN100: host-check: PASS mmdyn: 100x200, 20000 outputs bit-exact
// N64-B3: fp8-emu-mgpu: launch fp8_batch_matmul_3x100x72x40_bf16_bf16_f32_accf32_t128x64s{{[0-9]+}}g2 grid 6 block 384
// N64-B3: host-check: PASS bmm3: 300x72, 21600 outputs bit-exact
// N256: fp8-emu-mgpu: launch fp8_matmul_dynx200x520_bf16_bf16_f32_init0_t64x256s{{[0-9]+}}c2 grid 5 block 384
// N256: host-check: PASS mmdyn: 260x200, 52000 outputs bit-exact
// B3: host-check: PASS bmm3: 300x72, 21600 outputs bit-exact
// AUTO: fp8-emu-mgpu: launch fp8_batch_matmul_3x100x72x40_bf16_bf16_f32_accf32_t64x64s8 grid 12 block 256
// AUTO: host-check: PASS bmm3: 300x72, 21600 outputs bit-exact

func.func @mmdyn(%a: tensor<?x520xbf16>, %b: tensor<520x200xbf16>) -> tensor<?x200xf32> attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %rows = tensor.dim %a, %c0 : tensor<?x520xbf16>
  %e = tensor.empty(%rows) : tensor<?x200xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<?x200xf32>) -> tensor<?x200xf32>
  %y = linalg.matmul ins(%a, %b : tensor<?x520xbf16>, tensor<520x200xbf16>) outs(%z : tensor<?x200xf32>) -> tensor<?x200xf32>
  return %y : tensor<?x200xf32>
}

func.func @bmm3(%a2: tensor<300x40xbf16>, %b2: tensor<120x72xbf16>, %c2: tensor<300x72xf32>) -> tensor<300x72xf32> attributes {llvm.emit_c_interface} {
  %a = tensor.expand_shape %a2 [[0, 1], [2]] output_shape [3, 100, 40] : tensor<300x40xbf16> into tensor<3x100x40xbf16>
  %b = tensor.expand_shape %b2 [[0, 1], [2]] output_shape [3, 40, 72] : tensor<120x72xbf16> into tensor<3x40x72xbf16>
  %c = tensor.expand_shape %c2 [[0, 1], [2]] output_shape [3, 100, 72] : tensor<300x72xf32> into tensor<3x100x72xf32>
  %y = linalg.batch_matmul ins(%a, %b : tensor<3x100x40xbf16>, tensor<3x40x72xbf16>) outs(%c : tensor<3x100x72xf32>) -> tensor<3x100x72xf32>
  %y2 = tensor.collapse_shape %y [[0, 1], [2]] : tensor<3x100x72xf32> into tensor<300x72xf32>
  return %y2 : tensor<300x72xf32>
}
