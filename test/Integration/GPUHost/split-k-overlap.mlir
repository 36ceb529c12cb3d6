// Split-K (k_splits = S) with the overlapped promotion
// (promotion-schedule=overlap8 at 128x128, overlap4 at 128x64;
// docs/gpu-kernel.md "Split-K", "The overlapped promotion") through the
// compiled host program (fp8-gpu-pipeline{host=llvm target=emulator}),
// bit-exact against fp8-cpu-pipeline, which sums the same splits in the
// same order. Each work unit's overlapped K loop runs over its own range
// [start, start + n) (KSplit.h): trips of U from the unit's start block,
// then its n mod U blocks in lock-step. K blocks per unit:
//   o8_s2: K = 2400, KB = 19, S = 2: 10 and 9 (a trip of 8, then 2 and 1)
//   o8_s3: K = 2500, KB = 20, S = 3: 7, 7, 6 (no trip: fewer blocks than U)
//   o8_s3c: K = 3200, KB = 25, S = 3: 9, 8, 8 (a trip and 1; whole trips),
//     an f32 C, f32 D
//   o4_s2: K = 1400, KB = 11, S = 2: 6 and 5 (a trip of 4, then 2 and 1)
//   o4_s3: K = 1152, KB = 9, S = 3: 3, 3, 3 (no trip)
// with M tails (130: two tile rows; 3) and N tails (136, 200), on 2 or 3
// emulated SMs so each CTA runs several units and the ring wraps across
// them. Seeds 1-3, the lockstep schedule, and Hopper's accumulation model
// on both sides (FP8_EMU_ACCUMULATOR=sm90 against
// fp8-cpu-pipeline{accumulator=sm90}).
//
// REQUIRES: clang
// RUN: %clang -O1 %S/Inputs/host_check.c -o %t.check -ldl
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=llvm target=emulator block-m=128 block-n=128 promotion-schedule=overlap8" | mlir-translate --mlir-to-llvmir -o %t.o8.ll
// RUN: %clang %t.o8.ll -o %t.o8.so %emu_host_link
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=llvm target=emulator block-m=128 block-n=64 promotion-schedule=overlap4" | mlir-translate --mlir-to-llvmir -o %t.o4.ll
// RUN: %clang %t.o4.ll -o %t.o4.so %emu_host_link
// RUN: fp8-opt %s --fp8-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.cpu.ll
// RUN: %clang %t.cpu.ll -o %t.cpu.so %cpu_host_link
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 FP8_EMU_SM_COUNT=2 %t.check %t.o8.so %t.cpu.so o8_s2 1 bf16:130x200 f32:130x2400 bf16:200x2400 2>&1 | FileCheck %s --check-prefix=O8S2
// RUN: env FP8_EMU_SEED=2 FP8_EMU_SM_COUNT=3 %t.check %t.o8.so %t.cpu.so o8_s2 2 bf16:130x200 f32:130x2400 bf16:200x2400 | FileCheck %s --check-prefix=O8S2-PASS
// RUN: env FP8_EMU_SCHEDULE=lockstep FP8_EMU_SM_COUNT=2 %t.check %t.o8.so %t.cpu.so o8_s2 3 bf16:130x200 f32:130x2400 bf16:200x2400 | FileCheck %s --check-prefix=O8S2-PASS
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=3 FP8_EMU_SM_COUNT=2 %t.check %t.o8.so %t.cpu.so o8_s3 4 bf16:3x136 f32:3x2500 f32:136x2500 2>&1 | FileCheck %s --check-prefix=O8S3
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.o8.so %t.cpu.so o8_s3 5 bf16:3x136 f32:3x2500 f32:136x2500 | FileCheck %s --check-prefix=O8S3-PASS
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 FP8_EMU_SM_COUNT=3 %t.check %t.o8.so %t.cpu.so o8_s3c 6 f32:130x136 f32:130x3200 f32:136x3200 f32:130x136 2>&1 | FileCheck %s --check-prefix=O8S3C
// RUN: env FP8_EMU_SEED=2 FP8_EMU_SM_COUNT=2 %t.check %t.o8.so %t.cpu.so o8_s3c 7 f32:130x136 f32:130x3200 f32:136x3200 f32:130x136 | FileCheck %s --check-prefix=O8S3C-PASS
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.o8.so %t.cpu.so o8_s3c 8 f32:130x136 f32:130x3200 f32:136x3200 f32:130x136 | FileCheck %s --check-prefix=O8S3C-PASS
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=2 FP8_EMU_SM_COUNT=2 %t.check %t.o4.so %t.cpu.so o4_s2 9 f32:130x136 f32:130x1400 bf16:136x1400 2>&1 | FileCheck %s --check-prefix=O4S2
// RUN: env FP8_EMU_SEED=3 FP8_EMU_SM_COUNT=3 %t.check %t.o4.so %t.cpu.so o4_s2 10 f32:130x136 f32:130x1400 bf16:136x1400 | FileCheck %s --check-prefix=O4S2-PASS
// RUN: env FP8_EMU_SCHEDULE=lockstep FP8_EMU_SM_COUNT=2 %t.check %t.o4.so %t.cpu.so o4_s2 11 f32:130x136 f32:130x1400 bf16:136x1400 | FileCheck %s --check-prefix=O4S2-PASS
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 FP8_EMU_SM_COUNT=2 %t.check %t.o4.so %t.cpu.so o4_s3 12 bf16:3x136 f32:3x1152 f32:136x1152 2>&1 | FileCheck %s --check-prefix=O4S3
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.o4.so %t.cpu.so o4_s3 13 bf16:3x136 f32:3x1152 f32:136x1152 | FileCheck %s --check-prefix=O4S3-PASS
// Hopper's accumulation model on both sides.
// RUN: fp8-opt %s --fp8-cpu-pipeline=accumulator=sm90 | mlir-translate --mlir-to-llvmir -o %t.sm90.ll
// RUN: %clang %t.sm90.ll -o %t.sm90.so %cpu_host_link
// RUN: env FP8_EMU_ACCUMULATOR=sm90 FP8_EMU_SEED=3 FP8_EMU_SM_COUNT=2 %t.check %t.o8.so %t.sm90.so o8_s3c 14 f32:130x136 f32:130x3200 f32:136x3200 f32:130x136 | FileCheck %s --check-prefix=O8S3C-PASS
// RUN: env FP8_EMU_ACCUMULATOR=sm90 FP8_EMU_SEED=1 FP8_EMU_SM_COUNT=3 %t.check %t.o4.so %t.sm90.so o4_s2 15 f32:130x136 f32:130x1400 bf16:136x1400 | FileCheck %s --check-prefix=O4S2-PASS

// O8S2: launch fp8_scaled_matmul_130x200x2400_e4m3_e4m3_bf16_t128x128s{{[0-9]+}}o8k2 grid 2 block 384
// O8S2: host-check: PASS o8_s2: 130x200, 26000 outputs bit-exact
// O8S2-PASS: host-check: PASS o8_s2: 130x200, 26000 outputs bit-exact
// O8S3: launch fp8_scaled_matmul_3x136x2500_e4m3_e4m3_bf16_t128x128s{{[0-9]+}}o8k3 grid 2 block 384
// O8S3: host-check: PASS o8_s3: 3x136, 408 outputs bit-exact
// O8S3-PASS: host-check: PASS o8_s3: 3x136, 408 outputs bit-exact
// O8S3C: launch fp8_scaled_matmul_130x136x3200_e4m3_e4m3_f32_accf32_t128x128s{{[0-9]+}}o8k3 grid 3 block 384
// O8S3C: host-check: PASS o8_s3c: 130x136, 17680 outputs bit-exact
// O8S3C-PASS: host-check: PASS o8_s3c: 130x136, 17680 outputs bit-exact
// O4S2: launch fp8_scaled_matmul_130x136x1400_e4m3_e4m3_f32_t128x64s{{[0-9]+}}o4k2 grid 2 block 384
// O4S2: host-check: PASS o4_s2: 130x136, 17680 outputs bit-exact
// O4S2-PASS: host-check: PASS o4_s2: 130x136, 17680 outputs bit-exact
// O4S3: launch fp8_scaled_matmul_3x136x1152_e4m3_e4m3_bf16_t128x64s{{[0-9]+}}o4k3 grid 2 block 384
// O4S3: host-check: PASS o4_s3: 3x136, 408 outputs bit-exact
// O4S3-PASS: host-check: PASS o4_s3: 3x136, 408 outputs bit-exact

!x130a = !fp8.scaled<130x2400xf8E4M3FN, block = [1, 128], scale = f32>
!w200 = !fp8.scaled<200x2400xf8E4M3FN, block = [128, 128], scale = f32>
func.func @o8_s2(%x: tensor<130x2400xf32>, %w: tensor<200x2400xbf16>) -> tensor<130x200xbf16> attributes {llvm.emit_c_interface} {
  %a = fp8.quantize %x : tensor<130x2400xf32> -> !x130a
  %b = fp8.quantize %w : tensor<200x2400xbf16> -> !w200
  %d = fp8.scaled_matmul %a, %b {k_splits = 2 : i64} : !x130a, !w200 -> tensor<130x200xbf16>
  return %d : tensor<130x200xbf16>
}

!x3a = !fp8.scaled<3x2500xf8E4M3FN, block = [1, 128], scale = f32>
!w136a = !fp8.scaled<136x2500xf8E4M3FN, block = [128, 128], scale = f32>
func.func @o8_s3(%x: tensor<3x2500xf32>, %w: tensor<136x2500xf32>) -> tensor<3x136xbf16> attributes {llvm.emit_c_interface} {
  %a = fp8.quantize %x : tensor<3x2500xf32> -> !x3a
  %b = fp8.quantize %w : tensor<136x2500xf32> -> !w136a
  %d = fp8.scaled_matmul %a, %b {k_splits = 3 : i64} : !x3a, !w136a -> tensor<3x136xbf16>
  return %d : tensor<3x136xbf16>
}

!x130b = !fp8.scaled<130x3200xf8E4M3FN, block = [1, 128], scale = f32>
!w136b = !fp8.scaled<136x3200xf8E4M3FN, block = [128, 128], scale = f32>
func.func @o8_s3c(%x: tensor<130x3200xf32>, %w: tensor<136x3200xf32>, %c: tensor<130x136xf32>) -> tensor<130x136xf32> attributes {llvm.emit_c_interface} {
  %a = fp8.quantize %x : tensor<130x3200xf32> -> !x130b
  %b = fp8.quantize %w : tensor<136x3200xf32> -> !w136b
  %d = fp8.scaled_matmul %a, %b acc(%c : tensor<130x136xf32>) {k_splits = 3 : i64} : !x130b, !w136b -> tensor<130x136xf32>
  return %d : tensor<130x136xf32>
}

!x130c = !fp8.scaled<130x1400xf8E4M3FN, block = [1, 128], scale = f32>
!w136c = !fp8.scaled<136x1400xf8E4M3FN, block = [128, 128], scale = f32>
func.func @o4_s2(%x: tensor<130x1400xf32>, %w: tensor<136x1400xbf16>) -> tensor<130x136xf32> attributes {llvm.emit_c_interface} {
  %a = fp8.quantize %x : tensor<130x1400xf32> -> !x130c
  %b = fp8.quantize %w : tensor<136x1400xbf16> -> !w136c
  %d = fp8.scaled_matmul %a, %b {k_splits = 2 : i64} : !x130c, !w136c -> tensor<130x136xf32>
  return %d : tensor<130x136xf32>
}

!x3b = !fp8.scaled<3x1152xf8E4M3FN, block = [1, 128], scale = f32>
!w136d = !fp8.scaled<136x1152xf8E4M3FN, block = [128, 128], scale = f32>
func.func @o4_s3(%x: tensor<3x1152xf32>, %w: tensor<136x1152xf32>) -> tensor<3x136xbf16> attributes {llvm.emit_c_interface} {
  %a = fp8.quantize %x : tensor<3x1152xf32> -> !x3b
  %b = fp8.quantize %w : tensor<136x1152xf32> -> !w136d
  %d = fp8.scaled_matmul %a, %b {k_splits = 3 : i64} : !x3b, !w136d -> tensor<3x136xbf16>
  return %d : tensor<3x136xbf16>
}
