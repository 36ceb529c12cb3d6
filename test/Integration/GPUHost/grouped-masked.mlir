// The masked grouped GEMM (fp8.grouped_scaled_matmul masked) through the
// compiled host program (fp8-gpu-pipeline{host=llvm target=emulator},
// emulated mgpu* runtime): ONE kernel launch per op for all groups, every
// output bit-exact against the oracle Inputs/grouped-masked-oracle.mlir,
// the same inputs through fp8-cpu-pipeline with one fp8.scaled_matmul per
// group on its 2-D slices and +0.0 in the rows at or past counts[g] (the
// op's contract, written without the grouped op).
//   masked_acc: G = 4, M = 100, N = 200, K = 136 (K tail, codes padded to
//     144), counts [0, 1, 100, 37] (an empty group, a single-row group, a
//     full one, a partial tile), C f32, bf16 out: 138 valid rows x 200 =
//     27600 non-zero outputs.
//   masked_g8: G = 8, M = 64, N = 256, K = 256, counts [64, 0, 1, 17, 64,
//     3, -5, 90] (-5 and 90 clamp to 0 and 64), no C, f32 out:
//     213 rows x 256 = 54528.
//   masked_g1: G = 1, M = 130, N = 96, K = 384, no counts, C bf16.
// The 3-D quantizes stay host ops (the quantize kernels are rank 2); the
// emulated device memory starts as 0xFF bytes, so a row the kernel did not
// store (instead of +0.0) is a mismatch. Each configuration below compiles
// the graph again: the cost model's choice (64x16 for these shapes), the
// fixed default (128x128; 64x128 for M <= 64), BLOCK_N 96 (tiles straddling
// B-scale blocks) with BLOCK_M 64 and 128, 64x256 (two consumers splitting
// the columns), 256x64 (four consumers).
//
// REQUIRES: clang
// RUN: %clang -O1 %S/Inputs/host_check.c -o %t.check -ldl
// RUN: fp8-opt %S/Inputs/grouped-masked-oracle.mlir --fp8-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.cpu.ll
// RUN: %clang %t.cpu.ll -o %t.cpu.so %cpu_host_link
// The grouped op's own CPU lowering (fp8-lower-to-linalg) as a second oracle:
// RUN: fp8-opt %s --fp8-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.cpuop.ll
// RUN: %clang %t.cpuop.ll -o %t.cpuop.so %cpu_host_link
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=llvm target=emulator" 2>/dev/null | mlir-translate --mlir-to-llvmir -o %t.auto.ll
// RUN: %clang %t.auto.ll -o %t.auto.so %emu_host_link
// RUN: %t.check %t.auto.so %t.cpuop.so masked_acc 3 bf16:400x200 f32:400x136 bf16:800x136 f32:400x200 | FileCheck %s --check-prefix=OP-ACC
// RUN: %t.check %t.auto.so %t.cpuop.so masked_g8 4 f32:512x256 f32:512x256 bf16:2048x256 | FileCheck %s --check-prefix=OP-G8
// RUN: %t.check %t.auto.so %t.cpuop.so masked_g1 5 bf16:130x96 f32:130x384 bf16:96x384 bf16:130x96 | FileCheck %s --check-prefix=OP-G1
// RUN: env FP8_EMU_TRACE=1 %t.check %t.auto.so %t.cpu.so masked_acc 3 bf16:400x200 f32:400x136 bf16:800x136 f32:400x200 2>&1 | FileCheck %s --check-prefix=ACC
// RUN: env FP8_EMU_TRACE=1 %t.check %t.auto.so %t.cpu.so masked_g8 4 f32:512x256 f32:512x256 bf16:2048x256 2>&1 | FileCheck %s --check-prefix=G8
// RUN: env FP8_EMU_TRACE=1 %t.check %t.auto.so %t.cpu.so masked_g1 5 bf16:130x96 f32:130x384 bf16:96x384 bf16:130x96 2>&1 | FileCheck %s --check-prefix=G1
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=llvm target=emulator config=fixed" 2>/dev/null | mlir-translate --mlir-to-llvmir -o %t.fix.ll
// RUN: %clang %t.fix.ll -o %t.fix.so %emu_host_link
// RUN: env FP8_EMU_TRACE=1 %t.check %t.fix.so %t.cpu.so masked_acc 3 bf16:400x200 f32:400x136 bf16:800x136 f32:400x200 2>&1 | FileCheck %s --check-prefix=FIX-ACC
// RUN: env FP8_EMU_TRACE=1 %t.check %t.fix.so %t.cpu.so masked_g8 4 f32:512x256 f32:512x256 bf16:2048x256 2>&1 | FileCheck %s --check-prefix=FIX-G8
// RUN: env FP8_EMU_TRACE=1 %t.check %t.fix.so %t.cpu.so masked_g1 5 bf16:130x96 f32:130x384 bf16:96x384 bf16:130x96 2>&1 | FileCheck %s --check-prefix=FIX-G1
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=llvm target=emulator block-m=64 block-n=96" 2>/dev/null | mlir-translate --mlir-to-llvmir -o %t.n96.ll
// RUN: %clang %t.n96.ll -o %t.n96.so %emu_host_link
// RUN: env FP8_EMU_TRACE=1 %t.check %t.n96.so %t.cpu.so masked_acc 3 bf16:400x200 f32:400x136 bf16:800x136 f32:400x200 2>&1 | FileCheck %s --check-prefix=N96-ACC
// RUN: env FP8_EMU_TRACE=1 %t.check %t.n96.so %t.cpu.so masked_g8 4 f32:512x256 f32:512x256 bf16:2048x256 2>&1 | FileCheck %s --check-prefix=N96-G8
// RUN: env FP8_EMU_TRACE=1 %t.check %t.n96.so %t.cpu.so masked_g1 5 bf16:130x96 f32:130x384 bf16:96x384 bf16:130x96 2>&1 | FileCheck %s --check-prefix=N96-G1
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=llvm target=emulator block-m=128 block-n=96" 2>/dev/null | mlir-translate --mlir-to-llvmir -o %t.m128n96.ll
// RUN: %clang %t.m128n96.ll -o %t.m128n96.so %emu_host_link
// RUN: env FP8_EMU_TRACE=1 %t.check %t.m128n96.so %t.cpu.so masked_acc 3 bf16:400x200 f32:400x136 bf16:800x136 f32:400x200 2>&1 | FileCheck %s --check-prefix=M128N96-ACC
// RUN: env FP8_EMU_TRACE=1 %t.check %t.m128n96.so %t.cpu.so masked_g8 4 f32:512x256 f32:512x256 bf16:2048x256 2>&1 | FileCheck %s --check-prefix=M128N96-G8
// RUN: env FP8_EMU_TRACE=1 %t.check %t.m128n96.so %t.cpu.so masked_g1 5 bf16:130x96 f32:130x384 bf16:96x384 bf16:130x96 2>&1 | FileCheck %s --check-prefix=M128N96-G1
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=llvm target=emulator block-m=64 block-n=256" 2>/dev/null | mlir-translate --mlir-to-llvmir -o %t.n256.ll
// RUN: %clang %t.n256.ll -o %t.n256.so %emu_host_link
// RUN: env FP8_EMU_TRACE=1 %t.check %t.n256.so %t.cpu.so masked_acc 3 bf16:400x200 f32:400x136 bf16:800x136 f32:400x200 2>&1 | FileCheck %s --check-prefix=N256-ACC
// RUN: env FP8_EMU_TRACE=1 %t.check %t.n256.so %t.cpu.so masked_g8 4 f32:512x256 f32:512x256 bf16:2048x256 2>&1 | FileCheck %s --check-prefix=N256-G8
// RUN: env FP8_EMU_TRACE=1 %t.check %t.n256.so %t.cpu.so masked_g1 5 bf16:130x96 f32:130x384 bf16:96x384 bf16:130x96 2>&1 | FileCheck %s --check-prefix=N256-G1
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=llvm target=emulator block-m=256 block-n=64" 2>/dev/null | mlir-translate --mlir-to-llvmir -o %t.m256.ll
// RUN: %clang %t.m256.ll -o %t.m256.so %emu_host_link
// RUN: env FP8_EMU_TRACE=1 %t.check %t.m256.so %t.cpu.so masked_acc 3 bf16:400x200 f32:400x136 bf16:800x136 f32:400x200 2>&1 | FileCheck %s --check-prefix=M256-ACC
// RUN: env FP8_EMU_TRACE=1 %t.check %t.m256.so %t.cpu.so masked_g8 4 f32:512x256 f32:512x256 bf16:2048x256 2>&1 | FileCheck %s --check-prefix=M256-G8
// RUN: env FP8_EMU_TRACE=1 %t.check %t.m256.so %t.cpu.so masked_g1 5 bf16:130x96 f32:130x384 bf16:96x384 bf16:130x96 2>&1 | FileCheck %s --check-prefix=M256-G1

// ACC: launch fp8_grouped_matmul_masked_4x100x200x136_e4m3_e4m3_bf16_counts_accf32_t64x16s8 grid 104 block 256 smem {{[0-9]+}} params 8
// ACC-NEXT: host-check: PASS masked_acc: 400x200, 80000 outputs bit-exact (27600 non-zero)
// G8: launch fp8_grouped_matmul_masked_8x64x256x256_e4m3_e4m3_f32_counts_t64x16s8 grid 128 block 256 smem {{[0-9]+}} params 7
// G8-NEXT: host-check: PASS masked_g8: 512x256, 131072 outputs bit-exact (54528 non-zero)
// G1: launch fp8_grouped_matmul_masked_1x130x96x384_e4m3_e4m3_bf16_accbf16_t64x16s8 grid 18 block 256 smem {{[0-9]+}} params 7
// G1-NEXT: host-check: PASS masked_g1: 130x96, 12480 outputs bit-exact (12480 non-zero)

// Fixed: 128x128 tiles (64x128 for M = 64), ceil(100/128) * 2 * 4 = 8 CTAs.
// FIX-ACC: launch fp8_grouped_matmul_masked_4x100x200x136_e4m3_e4m3_bf16_counts_accf32 grid 8 block 384
// FIX-ACC-NEXT: host-check: PASS masked_acc:
// FIX-G8: launch fp8_grouped_matmul_masked_8x64x256x256_e4m3_e4m3_f32_counts grid 16 block 256
// FIX-G8-NEXT: host-check: PASS masked_g8:
// FIX-G1: launch fp8_grouped_matmul_masked_1x130x96x384_e4m3_e4m3_bf16_accbf16 grid 2 block 384
// FIX-G1-NEXT: host-check: PASS masked_g1:
// N96-ACC: launch {{.*}}_counts_accf32_t64x96s8 grid 24 block 256
// N96-ACC-NEXT: host-check: PASS masked_acc:
// N96-G8: launch {{.*}}_counts_t64x96s8 grid 24 block 256
// N96-G8-NEXT: host-check: PASS masked_g8:
// N96-G1: launch {{.*}}_accbf16_t64x96s8 grid 3 block 256
// N96-G1-NEXT: host-check: PASS masked_g1:
// M128N96-ACC: launch {{.*}}_counts_accf32_t128x96s7 grid 12 block 384
// M128N96-ACC-NEXT: host-check: PASS masked_acc:
// M128N96-G8: launch {{.*}}_counts_t128x96s7 grid 24 block 384
// M128N96-G8-NEXT: host-check: PASS masked_g8:
// M128N96-G1: launch {{.*}}_accbf16_t128x96s7 grid 2 block 384
// M128N96-G1-NEXT: host-check: PASS masked_g1:
// N256-ACC: launch {{.*}}_counts_accf32_t64x256s5c2 grid 8 block 384
// N256-ACC-NEXT: host-check: PASS masked_acc:
// N256-G8: launch {{.*}}_counts_t64x256s5c2 grid 8 block 384
// N256-G8-NEXT: host-check: PASS masked_g8:
// N256-G1: launch {{.*}}_accbf16_t64x256s5c2 grid 3 block 384
// N256-G1-NEXT: host-check: PASS masked_g1:
// M256-ACC: launch {{.*}}_counts_accf32_t256x64s5 grid 16 block 640
// M256-ACC-NEXT: host-check: PASS masked_acc:
// M256-G8: launch {{.*}}_counts_t256x64s5 grid 32 block 640
// M256-G8-NEXT: host-check: PASS masked_g8:
// M256-G1: launch {{.*}}_accbf16_t256x64s5 grid 2 block 640
// M256-G1-NEXT: host-check: PASS masked_g1:


// OP-ACC: host-check: PASS masked_acc:
// OP-G8: host-check: PASS masked_g8:
// OP-G1: host-check: PASS masked_g1:

func.func @masked_acc(%x: tensor<400x136xf32>, %w: tensor<800x136xbf16>, %c: tensor<400x200xf32>) -> tensor<400x200xbf16> attributes {llvm.emit_c_interface} {
  %x3 = tensor.expand_shape %x [[0, 1], [2]] output_shape [4, 100, 136] : tensor<400x136xf32> into tensor<4x100x136xf32>
  %w3 = tensor.expand_shape %w [[0, 1], [2]] output_shape [4, 200, 136] : tensor<800x136xbf16> into tensor<4x200x136xbf16>
  %a = fp8.quantize %x3 : tensor<4x100x136xf32> -> !fp8.scaled<4x100x136xf8E4M3FN, block = [1, 1, 128], scale = f32>
  %b = fp8.quantize %w3 : tensor<4x200x136xbf16> -> !fp8.scaled<4x200x136xf8E4M3FN, block = [1, 128, 128], scale = f32>
  %n = arith.constant dense<[0, 1, 100, 37]> : tensor<4xi32>
  %c3 = tensor.expand_shape %c [[0, 1], [2]] output_shape [4, 100, 200] : tensor<400x200xf32> into tensor<4x100x200xf32>
  %d = fp8.grouped_scaled_matmul masked %a, %b counts(%n : tensor<4xi32>) acc(%c3 : tensor<4x100x200xf32>) : !fp8.scaled<4x100x136xf8E4M3FN, block = [1, 1, 128], scale = f32>, !fp8.scaled<4x200x136xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<4x100x200xbf16>
  %r = tensor.collapse_shape %d [[0, 1], [2]] : tensor<4x100x200xbf16> into tensor<400x200xbf16>
  return %r : tensor<400x200xbf16>
}

func.func @masked_g8(%x: tensor<512x256xf32>, %w: tensor<2048x256xbf16>) -> tensor<512x256xf32> attributes {llvm.emit_c_interface} {
  %x3 = tensor.expand_shape %x [[0, 1], [2]] output_shape [8, 64, 256] : tensor<512x256xf32> into tensor<8x64x256xf32>
  %w3 = tensor.expand_shape %w [[0, 1], [2]] output_shape [8, 256, 256] : tensor<2048x256xbf16> into tensor<8x256x256xbf16>
  %a = fp8.quantize %x3 : tensor<8x64x256xf32> -> !fp8.scaled<8x64x256xf8E4M3FN, block = [1, 1, 128], scale = f32>
  %b = fp8.quantize %w3 : tensor<8x256x256xbf16> -> !fp8.scaled<8x256x256xf8E4M3FN, block = [1, 128, 128], scale = f32>
  %n = arith.constant dense<[64, 0, 1, 17, 64, 3, -5, 90]> : tensor<8xi32>
  %d = fp8.grouped_scaled_matmul masked %a, %b counts(%n : tensor<8xi32>) : !fp8.scaled<8x64x256xf8E4M3FN, block = [1, 1, 128], scale = f32>, !fp8.scaled<8x256x256xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<8x64x256xf32>
  %r = tensor.collapse_shape %d [[0, 1], [2]] : tensor<8x64x256xf32> into tensor<512x256xf32>
  return %r : tensor<512x256xf32>
}

func.func @masked_g1(%x: tensor<130x384xf32>, %w: tensor<96x384xbf16>, %c: tensor<130x96xbf16>) -> tensor<130x96xbf16> attributes {llvm.emit_c_interface} {
  %x3 = tensor.expand_shape %x [[0, 1], [2]] output_shape [1, 130, 384] : tensor<130x384xf32> into tensor<1x130x384xf32>
  %w3 = tensor.expand_shape %w [[0, 1], [2]] output_shape [1, 96, 384] : tensor<96x384xbf16> into tensor<1x96x384xbf16>
  %a = fp8.quantize %x3 : tensor<1x130x384xf32> -> !fp8.scaled<1x130x384xf8E4M3FN, block = [1, 1, 128], scale = f32>
  %b = fp8.quantize %w3 : tensor<1x96x384xbf16> -> !fp8.scaled<1x96x384xf8E4M3FN, block = [1, 128, 128], scale = f32>
  %c3 = tensor.expand_shape %c [[0, 1], [2]] output_shape [1, 130, 96] : tensor<130x96xbf16> into tensor<1x130x96xbf16>
  %d = fp8.grouped_scaled_matmul masked %a, %b acc(%c3 : tensor<1x130x96xbf16>) : !fp8.scaled<1x130x384xf8E4M3FN, block = [1, 1, 128], scale = f32>, !fp8.scaled<1x96x384xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<1x130x96xbf16>
  %r = tensor.collapse_shape %d [[0, 1], [2]] : tensor<1x130x96xbf16> into tensor<130x96xbf16>
  return %r : tensor<130x96xbf16>
}
