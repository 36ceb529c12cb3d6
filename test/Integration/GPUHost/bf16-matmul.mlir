// The BF16 variant of the GEMM kernel (docs/gpu-kernel.md, "The BF16
// variant"): linalg.matmul with bf16 operands and an f32 result, as the
// compiled host program on the emulated mgpu runtime, bit for bit against
// fp8-cpu-pipeline (whose matmul sums acc += a * b in k order from the
// init, as the kernel's chained k16 wgmma do from C in the emulator's exact
// accumulation). Shapes: 128x128x128 (one tile, two K blocks, zero init:
// the _init0 kernel, whose accumulators start at the fill's +0.0);
// M 100, N 72, K 40 (every tail: a 40-row box, a 72-column one, a K tail of
// three k16 steps) with a non-zero C (an input); a dynamic M (1, 100, 260)
// with N 200 and K 520 (a zero fill too: _init0; nine K blocks through the seven-slot ring, the
// last of one k16 step). Two scheduler seeds and the lockstep schedule.
// The trace shows the bf16 kernels launched (their grids by hand:
// min(ceil(M / BM) * ceil(N / 128), SMs), BM 128 with two consumers, 64
// with one for M <= 64) and no host kernel for the matmuls.
//
// config=fixed: the shapes' default tiles (config=auto's BF16 cost model
// tiles: bf16-matmul-tiles.mlir).
// REQUIRES: clang
// RUN: %clang -O1 %S/Inputs/host_check.c -o %t.check -ldl
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=llvm target=emulator config=fixed" | mlir-translate --mlir-to-llvmir -o %t.gpu.ll
// RUN: %clang %t.gpu.ll -o %t.gpu.so %emu_host_link
// RUN: fp8-opt %s --fp8-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.cpu.ll
// RUN: %clang %t.cpu.ll -o %t.cpu.so %cpu_host_link
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so mm128 1 f32:128x128 bf16:128x128 bf16:128x128 2>&1 | FileCheck %s --check-prefix=MM128
// RUN: env FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so mm128 2 f32:128x128 bf16:128x128 bf16:128x128 | FileCheck %s --check-prefix=MM128-PASS
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so mmtail 3 f32:100x72 bf16:100x40 bf16:40x72 f32:100x72 2>&1 | FileCheck %s --check-prefix=TAIL
// RUN: env FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so mmtail 4 f32:100x72 bf16:100x40 bf16:40x72 f32:100x72 | FileCheck %s --check-prefix=TAIL-PASS
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so mmtail 5 f32:100x72 bf16:100x40 bf16:40x72 f32:100x72 | FileCheck %s --check-prefix=TAIL-PASS
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so mmdyn 6 f32:260x200 bf16:260x520 bf16:520x200 2>&1 | FileCheck %s --check-prefix=DYN260
// RUN: env FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so mmdyn 7 f32:100x200 bf16:100x520 bf16:520x200 | FileCheck %s --check-prefix=DYN100
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so mmdyn 8 f32:1x200 bf16:1x520 bf16:520x200 | FileCheck %s --check-prefix=DYN1

// MM128-NOT: fp8-emu-mgpu: launch fp8_host
// MM128: fp8-emu-mgpu: launch fp8_matmul_128x128x128_bf16_bf16_f32_init0 grid 1 block 384
// MM128-NOT: fp8-emu-mgpu: launch fp8_host
// MM128: host-check: PASS mm128: 128x128, 16384 outputs bit-exact
// MM128-PASS: host-check: PASS mm128: 128x128, 16384 outputs bit-exact
// TAIL-NOT: fp8-emu-mgpu: launch fp8_host
// TAIL: fp8-emu-mgpu: launch fp8_matmul_100x72x40_bf16_bf16_f32_accf32 grid 1 block 384
// TAIL-NOT: fp8-emu-mgpu: launch fp8_host
// TAIL: host-check: PASS mmtail: 100x72, 7200 outputs bit-exact
// TAIL-PASS: host-check: PASS mmtail: 100x72, 7200 outputs bit-exact
// DYN260-NOT: fp8-emu-mgpu: launch fp8_host
// DYN260: fp8-emu-mgpu: launch fp8_matmul_dynx200x520_bf16_bf16_f32_init0 grid 6 block 384
// DYN260-NOT: fp8-emu-mgpu: launch fp8_host
// DYN260: host-check: PASS mmdyn: 260x200, 52000 outputs bit-exact
// DYN100: host-check: PASS mmdyn: 100x200, 20000 outputs bit-exact
// DYN1: host-check: PASS mmdyn: 1x200, 200 outputs bit-exact

func.func @mm128(%a: tensor<128x128xbf16>, %b: tensor<128x128xbf16>) -> tensor<128x128xf32> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x128xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<128x128xf32>) -> tensor<128x128xf32>
  %y = linalg.matmul ins(%a, %b : tensor<128x128xbf16>, tensor<128x128xbf16>) outs(%z : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %y : tensor<128x128xf32>
}

func.func @mmtail(%a: tensor<100x40xbf16>, %b: tensor<40x72xbf16>, %c: tensor<100x72xf32>) -> tensor<100x72xf32> attributes {llvm.emit_c_interface} {
  %y = linalg.matmul ins(%a, %b : tensor<100x40xbf16>, tensor<40x72xbf16>) outs(%c : tensor<100x72xf32>) -> tensor<100x72xf32>
  return %y : tensor<100x72xf32>
}

func.func @mmdyn(%a: tensor<?x520xbf16>, %b: tensor<520x200xbf16>) -> tensor<?x200xf32> attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %rows = tensor.dim %a, %c0 : tensor<?x520xbf16>
  %e = tensor.empty(%rows) : tensor<?x200xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<?x200xf32>) -> tensor<?x200xf32>
  %y = linalg.matmul ins(%a, %b : tensor<?x520xbf16>, tensor<520x200xbf16>) outs(%z : tensor<?x200xf32>) -> tensor<?x200xf32>
  return %y : tensor<?x200xf32>
}
