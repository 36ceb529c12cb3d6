// Swap-AB (issue 28 item 6): a GEMM of small M computed as D^T = B A^T by
// the per-column-B-scale kernel (its rows the op's N, its columns the op's
// M), B's 128x128 block scales reaching it as one per row and A's per-row
// scales as per-column ones, C and D transposed on the device
// (swap-ab=always; the cost model's choice: Conversion/FP8ToNVVM/swap-ab.mlir).
// The products and the promotion's scale products commute, so the results
// are bit for bit the CPU reference's (fp8-cpu-pipeline), under three
// scheduler seeds. M = 16, 3 (with an accumulator C) and 64; N and K
// tails.
//
// REQUIRES: clang
// RUN: %clang -O1 %S/Inputs/host_check.c -o %t.check -ldl
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=llvm target=emulator swap-ab=always" | mlir-translate --mlir-to-llvmir -o %t.gpu.ll
// RUN: %clang %t.gpu.ll -o %t.gpu.so %emu_host_link
// RUN: fp8-opt %s --fp8-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.cpu.ll
// RUN: %clang %t.cpu.ll -o %t.cpu.so %cpu_host_link
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_TRANSFERS=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so small 1 bf16:16x300 f32:16x400 f32:300x400 2>&1 | FileCheck %s --check-prefix=SMALL
// RUN: env FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so small 2 bf16:16x300 f32:16x400 f32:300x400 | FileCheck %s --check-prefix=SMALL-PASS
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so rows3_acc 3 bf16:3x200 f32:3x136 bf16:200x136 f32:3x200 2>&1 | FileCheck %s --check-prefix=ACC
// RUN: env FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so rows64 4 f32:64x520 f32:64x256 f32:520x256 | FileCheck %s --check-prefix=ROWS64
// RUN: env FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so rows64 5 f32:64x520 f32:64x256 f32:520x256 | FileCheck %s --check-prefix=ROWS64
// N % 4 != 0: the kernel's A scales (B's block scales, one per row) are
// [KB, roundUp(N, 4)] so that TMA's row pitch is a multiple of 16 bytes.
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so odd_n 6 bf16:5x131 f32:5x136 f32:131x136 2>&1 | FileCheck %s --check-prefix=ODDN
// The comparison can fail: the plain kernel against the CPU pipeline under
// Hopper's accumulation model (accumulator=sm90), which rounds differently.
// RUN: fp8-opt %s --fp8-cpu-pipeline=accumulator=sm90 | mlir-translate --mlir-to-llvmir -o %t.sm90.ll
// RUN: %clang %t.sm90.ll -o %t.sm90.so %cpu_host_link
// RUN: not %t.check %t.gpu.so %t.sm90.so small 1 bf16:16x300 f32:16x400 f32:300x400 2>&1 | FileCheck %s --check-prefix=DIFF

// Grids by hand: B's block scales [3, 4] to [4, 300], ceil(1200 / 256) =
// 5 CTAs; D^T [300, 16] bf16 to D, ceil(4800 / 256) = 19. Bytes: x 16x400
// and w 300x400 f32 in (505600), y 16x300 bf16 out (9600); nothing else.
// SMALL: launch fp8_quantize_16x400_1x128_f32_e4m3
// SMALL: launch fp8_quantize_300x400_128x128_f32_e4m3
// SMALL: launch fp8_transpose_b32_r128 grid 5 block 256
// SMALL: launch fp8_transpose_b32 grid {{[0-9]+}} block 256
// SMALL: launch fp8_scaled_matmul_300x16x400_e4m3_e4m3_bf16_b1x128_swapab
// SMALL: launch fp8_transpose_b16 grid 19 block 256
// SMALL: host-check: transfers small: 505600 bytes to the device, 9600 to the host
// SMALL: host-check: PASS small: 16x300, 4800 outputs bit-exact
// SMALL-PASS: host-check: PASS small: 16x300, 4800 outputs bit-exact
// ACC: launch fp8_transpose_b32
// C [3, 200] f32 goes to the kernel as C^T [200, 3] (a transpose launch).
// ACC: launch fp8_transpose_b32
// ACC: launch fp8_scaled_matmul_200x3x136_e4m3_e4m3_bf16_accf32_b1x128_swapab
// ACC: launch fp8_transpose_b16
// ACC: host-check: PASS rows3_acc: 3x200, 600 outputs bit-exact
// ROWS64: host-check: PASS rows64: 64x520, 33280 outputs bit-exact
// ODDN: launch fp8_transpose_b32_r128
// ODDN: launch fp8_scaled_matmul_131x5x136_e4m3_e4m3_bf16_b1x128_swapab
// ODDN: host-check: PASS odd_n: 5x131, 655 outputs bit-exact
// DIFF: host-check: FAIL small: {{[0-9]+}} of 4800 outputs differ

func.func @small(%x: tensor<16x400xf32>, %w: tensor<300x400xf32>) -> tensor<16x300xbf16> attributes {llvm.emit_c_interface} {
  %a = fp8.quantize %x : tensor<16x400xf32> -> !fp8.scaled<16x400xf8E4M3FN, block = [1, 128], scale = f32>
  %b = fp8.quantize %w : tensor<300x400xf32> -> !fp8.scaled<300x400xf8E4M3FN, block = [128, 128], scale = f32>
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<16x400xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<300x400xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<16x300xbf16>
  return %d : tensor<16x300xbf16>
}

func.func @rows3_acc(%x: tensor<3x136xf32>, %w: tensor<200x136xbf16>, %c: tensor<3x200xf32>) -> tensor<3x200xbf16> attributes {llvm.emit_c_interface} {
  %a = fp8.quantize %x : tensor<3x136xf32> -> !fp8.scaled<3x136xf8E4M3FN, block = [1, 128], scale = f32>
  %b = fp8.quantize %w : tensor<200x136xbf16> -> !fp8.scaled<200x136xf8E4M3FN, block = [128, 128], scale = f32>
  %d = fp8.scaled_matmul %a, %b acc(%c : tensor<3x200xf32>) : !fp8.scaled<3x136xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<200x136xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<3x200xbf16>
  return %d : tensor<3x200xbf16>
}

func.func @rows64(%x: tensor<64x256xf32>, %w: tensor<520x256xf32>) -> tensor<64x520xf32> attributes {llvm.emit_c_interface} {
  %a = fp8.quantize %x : tensor<64x256xf32> -> !fp8.scaled<64x256xf8E4M3FN, block = [1, 128], scale = f32>
  %b = fp8.quantize %w : tensor<520x256xf32> -> !fp8.scaled<520x256xf8E4M3FN, block = [128, 128], scale = f32>
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<64x256xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<520x256xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<64x520xf32>
  return %d : tensor<64x520xf32>
}

func.func @odd_n(%x: tensor<5x136xf32>, %w: tensor<131x136xf32>) -> tensor<5x131xbf16> attributes {llvm.emit_c_interface} {
  %a = fp8.quantize %x : tensor<5x136xf32> -> !fp8.scaled<5x136xf8E4M3FN, block = [1, 128], scale = f32>
  %b = fp8.quantize %w : tensor<131x136xf32> -> !fp8.scaled<131x136xf8E4M3FN, block = [128, 128], scale = f32>
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<5x136xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<131x136xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<5x131xbf16>
  return %d : tensor<5x131xbf16>
}
