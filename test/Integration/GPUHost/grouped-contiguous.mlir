// The contiguous grouped GEMM (fp8.grouped_scaled_matmul contiguous: tokens
// sorted by expert, a group index per row) through the compiled host program
// (fp8-gpu-pipeline{host=llvm target=emulator}, emulated mgpu* runtime):
// the A quantize kernel and then ONE grouped GEMM launch per op, every output
// bit-exact against Inputs/grouped-contiguous-oracle.mlir through
// fp8-cpu-pipeline: one fp8.scaled_matmul per run of a group on its rows and
// the group's weight, padding rows (-1) left +0.0 (the op's contract, written
// without the grouped op).
//   contiguous_acc: G = 8, M = 640, N = 200, K = 136 (K tail), m_alignment
//     128: rows [0, 100) group 2 (its tile's last 28 rows padding), row 128
//     group 5 (a single-row group), [256, 384) group 0 (a full tile), [384,
//     451) group 7, rows [512, 640) padding (a tile with no group: no K
//     block, +0.0 stored); groups 1, 3, 4, 6 empty. C f32, bf16 out:
//     296 rows x 200 = 59200 non-zero outputs.
//   contiguous_g1: G = 1, M = 256, N = 128, K = 256, m_alignment 64 (BLOCK_M
//     must divide it: 64 also for config=fixed and block-n=96, whose default
//     is 128), rows [0, 200) group 0, no C, f32 out: 200 x 128 = 25600.
// Configurations: the cost model's (64x16), the fixed default (128x128),
// BLOCK_N 96 (tiles straddling B-scale blocks), 64x256 (split columns).
// The emulated device memory starts as 0xFF bytes: a row the kernel did not
// store is a mismatch. BLOCK_M 256 does not divide m_alignment 128 (an
// error: test/Conversion/FP8ToNVVM/grouped-gemm-invalid.mlir).
//
// REQUIRES: clang
// RUN: %clang -O1 %S/Inputs/host_check.c -o %t.check -ldl
// RUN: fp8-opt %S/Inputs/grouped-contiguous-oracle.mlir --fp8-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.cpu.ll
// RUN: %clang %t.cpu.ll -o %t.cpu.so %cpu_host_link
// The grouped op's own CPU lowering (fp8-lower-to-linalg) as a second oracle:
// RUN: fp8-opt %s --fp8-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.cpuop.ll
// RUN: %clang %t.cpuop.ll -o %t.cpuop.so %cpu_host_link
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=llvm target=emulator" | mlir-translate --mlir-to-llvmir -o %t.auto.ll
// RUN: %clang %t.auto.ll -o %t.auto.so %emu_host_link
// RUN: %t.check %t.auto.so %t.cpuop.so contiguous_acc 3 bf16:640x200 f32:640x136 bf16:1600x136 f32:640x200 | FileCheck %s --check-prefix=OP-ACC
// RUN: %t.check %t.auto.so %t.cpuop.so contiguous_g1 4 f32:256x128 f32:256x256 bf16:128x256 | FileCheck %s --check-prefix=OP-G1
// RUN: env FP8_EMU_TRACE=1 %t.check %t.auto.so %t.cpu.so contiguous_acc 3 bf16:640x200 f32:640x136 bf16:1600x136 f32:640x200 2>&1 | FileCheck %s --check-prefix=AUTO-ACC
// RUN: env FP8_EMU_TRACE=1 %t.check %t.auto.so %t.cpu.so contiguous_g1 4 f32:256x128 f32:256x256 bf16:128x256 2>&1 | FileCheck %s --check-prefix=AUTO-G1
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=llvm target=emulator config=fixed" | mlir-translate --mlir-to-llvmir -o %t.fix.ll
// RUN: %clang %t.fix.ll -o %t.fix.so %emu_host_link
// RUN: env FP8_EMU_TRACE=1 %t.check %t.fix.so %t.cpu.so contiguous_acc 3 bf16:640x200 f32:640x136 bf16:1600x136 f32:640x200 2>&1 | FileCheck %s --check-prefix=FIX-ACC
// RUN: env FP8_EMU_TRACE=1 %t.check %t.fix.so %t.cpu.so contiguous_g1 4 f32:256x128 f32:256x256 bf16:128x256 2>&1 | FileCheck %s --check-prefix=FIX-G1
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=llvm target=emulator block-n=96" | mlir-translate --mlir-to-llvmir -o %t.n96.ll
// RUN: %clang %t.n96.ll -o %t.n96.so %emu_host_link
// RUN: env FP8_EMU_TRACE=1 %t.check %t.n96.so %t.cpu.so contiguous_acc 3 bf16:640x200 f32:640x136 bf16:1600x136 f32:640x200 2>&1 | FileCheck %s --check-prefix=N96-ACC
// RUN: env FP8_EMU_TRACE=1 %t.check %t.n96.so %t.cpu.so contiguous_g1 4 f32:256x128 f32:256x256 bf16:128x256 2>&1 | FileCheck %s --check-prefix=N96-G1
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=llvm target=emulator block-m=64 block-n=256" | mlir-translate --mlir-to-llvmir -o %t.n256.ll
// RUN: %clang %t.n256.ll -o %t.n256.so %emu_host_link
// RUN: env FP8_EMU_TRACE=1 %t.check %t.n256.so %t.cpu.so contiguous_acc 3 bf16:640x200 f32:640x136 bf16:1600x136 f32:640x200 2>&1 | FileCheck %s --check-prefix=N256-ACC
// RUN: env FP8_EMU_TRACE=1 %t.check %t.n256.so %t.cpu.so contiguous_g1 4 f32:256x128 f32:256x256 bf16:128x256 2>&1 | FileCheck %s --check-prefix=N256-G1

// AUTO-ACC: launch fp8_grouped_matmul_contiguous_8x640x200x136_e4m3_e4m3_bf16_accf32_t64x16s8 grid 130 block 256
// AUTO-ACC-NEXT: host-check: PASS contiguous_acc: {{.*}}(59200 non-zero)
// AUTO-G1: launch fp8_grouped_matmul_contiguous_1x256x128x256_e4m3_e4m3_f32_t64x16s8 grid 32 block 256
// AUTO-G1-NEXT: host-check: PASS contiguous_g1: {{.*}}(25600 non-zero)
// FIX-ACC: launch fp8_grouped_matmul_contiguous_8x640x200x136_e4m3_e4m3_bf16_accf32 grid 10 block 384
// FIX-ACC-NEXT: host-check: PASS contiguous_acc:
// FIX-G1: launch fp8_grouped_matmul_contiguous_1x256x128x256_e4m3_e4m3_f32_t64x128s8 grid 4 block 256
// FIX-G1-NEXT: host-check: PASS contiguous_g1:
// N96-ACC: launch {{.*}}_accf32_t128x96s7 grid 15 block 384
// N96-ACC-NEXT: host-check: PASS contiguous_acc:
// N96-G1: launch {{.*}}_f32_t64x96s8 grid 8 block 256
// N96-G1-NEXT: host-check: PASS contiguous_g1:
// N256-ACC: launch {{.*}}_accf32_t64x256s5c2 grid 10 block 384
// N256-ACC-NEXT: host-check: PASS contiguous_acc:
// N256-G1: launch {{.*}}_f32_t64x256s5c2 grid 4 block 384
// N256-G1-NEXT: host-check: PASS contiguous_g1:

// OP-ACC: host-check: PASS contiguous_acc:
// OP-G1: host-check: PASS contiguous_g1:

func.func @contiguous_acc(%x: tensor<640x136xf32>, %w: tensor<1600x136xbf16>, %c: tensor<640x200xf32>) -> tensor<640x200xbf16> attributes {llvm.emit_c_interface} {
  %w3 = tensor.expand_shape %w [[0, 1], [2]] output_shape [8, 200, 136] : tensor<1600x136xbf16> into tensor<8x200x136xbf16>
  %a = fp8.quantize %x : tensor<640x136xf32> -> !fp8.scaled<640x136xf8E4M3FN, block = [1, 128], scale = f32>
  %b = fp8.quantize %w3 : tensor<8x200x136xbf16> -> !fp8.scaled<8x200x136xf8E4M3FN, block = [1, 128, 128], scale = f32>
  // group ids: rows [0, 100) -> 2, rows [128, 129) -> 5, rows [256, 384) -> 0, rows [384, 451) -> 7, all others -1
  %ids = arith.constant dense<[2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 5, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1]> : tensor<640xi32>
  %d = fp8.grouped_scaled_matmul contiguous %a, %b group_ids(%ids : tensor<640xi32>) acc(%c : tensor<640x200xf32>) : !fp8.scaled<640x136xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<8x200x136xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<640x200xbf16>
  return %d : tensor<640x200xbf16>
}

func.func @contiguous_g1(%x: tensor<256x256xf32>, %w: tensor<128x256xbf16>) -> tensor<256x128xf32> attributes {llvm.emit_c_interface} {
  %w3 = tensor.expand_shape %w [[0, 1], [2]] output_shape [1, 128, 256] : tensor<128x256xbf16> into tensor<1x128x256xbf16>
  %a = fp8.quantize %x : tensor<256x256xf32> -> !fp8.scaled<256x256xf8E4M3FN, block = [1, 128], scale = f32>
  %b = fp8.quantize %w3 : tensor<1x128x256xbf16> -> !fp8.scaled<1x128x256xf8E4M3FN, block = [1, 128, 128], scale = f32>
  // group ids: rows [0, 200) -> 0, all others -1
  %ids = arith.constant dense<[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1]> : tensor<256xi32>
  %d = fp8.grouped_scaled_matmul contiguous %a, %b group_ids(%ids : tensor<256xi32>) {m_alignment = 64 : i64} : !fp8.scaled<256x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<1x128x256xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<256x128xf32>
  return %d : tensor<256x128xf32>
}
