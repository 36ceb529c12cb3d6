// The BF16 kernels' folded fills (docs/gpu-kernel.md, "The BF16 variant",
// acc_init): a linalg.matmul / batch_matmul whose f32 init a linalg.fill of
// a constant wrote gets the kernel variant whose accumulators start at the
// constant (no C operand, no fill launch), as the compiled host program on
// the emulated mgpu runtime, bit for bit against fp8-cpu-pipeline (whose
// matmul sums acc += a * b in k order from the filled init). Functions:
// @negzero, -0.0 (a kernel of its own, not +0.0's): A's squares (never
// -0.0) times a B of -0.0, so every product is -0.0 and so is every output
// that starts at -0.0 (-0.0 + -0.0), where +0.0 would give +0.0; @onehalf,
// 1.5 with random operands and every tail (M 100, N 72, K 40); @batch, the
// batch kernel [2, 64, 64] x [2, 64, 72] from 1.5; @dynm, a run-time M
// (260, 100, 1) from -0.0; @shared, a fill of 1.5 the matmul starts at and
// an add also reads (the fill stays, a host kernel launch, and the kernel
// still starts at 1.5). Two scheduler seeds and the lockstep schedule. The
// trace shows the variants launched (_init<f32 bits>) and no fill launched
// except @shared's.
//
// REQUIRES: clang
// RUN: %clang -O1 %S/Inputs/host_check.c -o %t.check -ldl
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=llvm target=emulator config=fixed" | mlir-translate --mlir-to-llvmir -o %t.gpu.ll
// RUN: %clang %t.gpu.ll -o %t.gpu.so %emu_host_link
// RUN: fp8-opt %s --fp8-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.cpu.ll
// RUN: %clang %t.cpu.ll -o %t.cpu.so %cpu_host_link
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so negzero 1 f32:64x72 bf16:64x64 2>&1 | FileCheck %s --check-prefix=NEGZERO
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so negzero 2 f32:64x72 bf16:64x64 | FileCheck %s --check-prefix=NEGZERO-PASS
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so onehalf 3 f32:100x72 bf16:100x40 bf16:40x72 2>&1 | FileCheck %s --check-prefix=ONEHALF
// RUN: env FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so onehalf 4 f32:100x72 bf16:100x40 bf16:40x72 | FileCheck %s --check-prefix=ONEHALF-PASS
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so onehalf 5 f32:100x72 bf16:100x40 bf16:40x72 | FileCheck %s --check-prefix=ONEHALF-PASS
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so batch 6 f32:128x72 bf16:128x64 bf16:128x72 2>&1 | FileCheck %s --check-prefix=BATCH
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so batch 7 f32:128x72 bf16:128x64 bf16:128x72 | FileCheck %s --check-prefix=BATCH-PASS
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so dynm 8 f32:260x200 bf16:260x520 bf16:520x200 2>&1 | FileCheck %s --check-prefix=DYN260
// RUN: env FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so dynm 9 f32:100x200 bf16:100x520 bf16:520x200 | FileCheck %s --check-prefix=DYN100
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so dynm 10 f32:1x200 bf16:1x520 bf16:520x200 | FileCheck %s --check-prefix=DYN1
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so shared 11 f32:100x72 bf16:100x40 bf16:40x72 2>&1 | FileCheck %s --check-prefix=SHARED
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so shared 12 f32:100x72 bf16:100x40 bf16:40x72 | FileCheck %s --check-prefix=SHARED-PASS

// NEGZERO-NOT: launch {{.*}}fill
// NEGZERO: fp8-emu-mgpu: launch fp8_matmul_64x72x64_bf16_bf16_f32_init80000000 grid 1 block 256
// NEGZERO-NOT: launch {{.*}}fill
// NEGZERO: host-check: PASS negzero: 64x72, 4608 outputs bit-exact
// NEGZERO-PASS: host-check: PASS negzero: 64x72, 4608 outputs bit-exact
// ONEHALF-NOT: fp8-emu-mgpu: launch fp8_host
// ONEHALF: fp8-emu-mgpu: launch fp8_matmul_100x72x40_bf16_bf16_f32_init3fc00000 grid 1 block 384
// ONEHALF-NOT: fp8-emu-mgpu: launch fp8_host
// ONEHALF: host-check: PASS onehalf: 100x72, 7200 outputs bit-exact
// ONEHALF-PASS: host-check: PASS onehalf: 100x72, 7200 outputs bit-exact
// BATCH-NOT: launch {{.*}}fill
// BATCH: fp8-emu-mgpu: launch fp8_batch_matmul_2x64x72x64_bf16_bf16_f32_init3fc00000 grid 2 block 256
// BATCH-NOT: launch {{.*}}fill
// BATCH: host-check: PASS batch: 128x72, 9216 outputs bit-exact
// BATCH-PASS: host-check: PASS batch: 128x72, 9216 outputs bit-exact
// DYN260-NOT: launch {{.*}}fill
// DYN260: fp8-emu-mgpu: launch fp8_matmul_dynx200x520_bf16_bf16_f32_init80000000 grid 6 block 384
// DYN260-NOT: launch {{.*}}fill
// DYN260: host-check: PASS dynm: 260x200, 52000 outputs bit-exact
// DYN100: host-check: PASS dynm: 100x200, 20000 outputs bit-exact
// DYN1: host-check: PASS dynm: 1x200, 200 outputs bit-exact
// The fill the add reads stays (a host kernel), before the matmul's kernel.
// SHARED: fp8-emu-mgpu: launch {{.*}}fill
// SHARED: fp8-emu-mgpu: launch fp8_matmul_100x72x40_bf16_bf16_f32_init3fc00000 grid 1 block 384
// SHARED: host-check: PASS shared: 100x72, 7200 outputs bit-exact
// SHARED-PASS: host-check: PASS shared: 100x72, 7200 outputs bit-exact

func.func @negzero(%a: tensor<64x64xbf16>) -> tensor<64x72xf32> attributes {llvm.emit_c_interface} {
  %neg = arith.constant -0.0 : f32
  %bneg = arith.constant dense<-0.0> : tensor<64x72xbf16>
  %sq = arith.mulf %a, %a : tensor<64x64xbf16>
  %e = tensor.empty() : tensor<64x72xf32>
  %z = linalg.fill ins(%neg : f32) outs(%e : tensor<64x72xf32>) -> tensor<64x72xf32>
  %y = linalg.matmul ins(%sq, %bneg : tensor<64x64xbf16>, tensor<64x72xbf16>) outs(%z : tensor<64x72xf32>) -> tensor<64x72xf32>
  return %y : tensor<64x72xf32>
}

func.func @onehalf(%a: tensor<100x40xbf16>, %b: tensor<40x72xbf16>) -> tensor<100x72xf32> attributes {llvm.emit_c_interface} {
  %c = arith.constant 1.5 : f32
  %e = tensor.empty() : tensor<100x72xf32>
  %z = linalg.fill ins(%c : f32) outs(%e : tensor<100x72xf32>) -> tensor<100x72xf32>
  %y = linalg.matmul ins(%a, %b : tensor<100x40xbf16>, tensor<40x72xbf16>) outs(%z : tensor<100x72xf32>) -> tensor<100x72xf32>
  return %y : tensor<100x72xf32>
}

// The two batches as one [128, K] host buffer each (host_check's operands
// are 2-D), reshaped to [2, 64, K].
func.func @batch(%a2: tensor<128x64xbf16>, %b2: tensor<128x72xbf16>) -> tensor<128x72xf32> attributes {llvm.emit_c_interface} {
  %c = arith.constant 1.5 : f32
  %a = tensor.expand_shape %a2 [[0, 1], [2]] output_shape [2, 64, 64] : tensor<128x64xbf16> into tensor<2x64x64xbf16>
  %b = tensor.expand_shape %b2 [[0, 1], [2]] output_shape [2, 64, 72] : tensor<128x72xbf16> into tensor<2x64x72xbf16>
  %e = tensor.empty() : tensor<2x64x72xf32>
  %z = linalg.fill ins(%c : f32) outs(%e : tensor<2x64x72xf32>) -> tensor<2x64x72xf32>
  %y = linalg.batch_matmul ins(%a, %b : tensor<2x64x64xbf16>, tensor<2x64x72xbf16>) outs(%z : tensor<2x64x72xf32>) -> tensor<2x64x72xf32>
  %y2 = tensor.collapse_shape %y [[0, 1], [2]] : tensor<2x64x72xf32> into tensor<128x72xf32>
  return %y2 : tensor<128x72xf32>
}

func.func @dynm(%a: tensor<?x520xbf16>, %b: tensor<520x200xbf16>) -> tensor<?x200xf32> attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %neg = arith.constant -0.0 : f32
  %rows = tensor.dim %a, %c0 : tensor<?x520xbf16>
  %e = tensor.empty(%rows) : tensor<?x200xf32>
  %z = linalg.fill ins(%neg : f32) outs(%e : tensor<?x200xf32>) -> tensor<?x200xf32>
  %y = linalg.matmul ins(%a, %b : tensor<?x520xbf16>, tensor<520x200xbf16>) outs(%z : tensor<?x200xf32>) -> tensor<?x200xf32>
  return %y : tensor<?x200xf32>
}

func.func @shared(%a: tensor<100x40xbf16>, %b: tensor<40x72xbf16>) -> tensor<100x72xf32> attributes {llvm.emit_c_interface} {
  %c = arith.constant 1.5 : f32
  %e = tensor.empty() : tensor<100x72xf32>
  %z = linalg.fill ins(%c : f32) outs(%e : tensor<100x72xf32>) -> tensor<100x72xf32>
  %y = linalg.matmul ins(%a, %b : tensor<100x40xbf16>, tensor<40x72xbf16>) outs(%z : tensor<100x72xf32>) -> tensor<100x72xf32>
  %e2 = tensor.empty() : tensor<100x72xf32>
  %s = linalg.add ins(%y, %z : tensor<100x72xf32>, tensor<100x72xf32>) outs(%e2 : tensor<100x72xf32>) -> tensor<100x72xf32>
  return %s : tensor<100x72xf32>
}
