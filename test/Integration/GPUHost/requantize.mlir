// fp8.requantize on the GPU: the transpose-requantize kernel (dequantize the
// forward's [T, F] codes with their 1x128 scales, transpose, requantize in
// 1x128 tiles along the T tokens; DeepSeek-V3 §3.5.2) in the compiled host
// program on the emulated mgpu* runtime, bit-exact against the same graph
// through fp8-cpu-pipeline (the op's CPU lowering, the oracle). Each function
// returns the requantized tensor dequantized (so a wrong code or scale is a
// mismatch) and its scales [F, ceil(T / 128)]. host_check's inputs give each
// token row its own magnitude and about one element in 97 an outlier, so a
// tile's amax depends on which 128 tokens it covers: an amax or scale taken
// along the wrong axis or from the wrong tile changes the result.
//   e4m3: T = 272 (two full 128-token tiles and a 16-wide one), F = 300 (the
//     input's scale tiles: two full and a 44-wide one); T % 4 == 0: the
//     kernel stores 4-byte code words;
//   e5m2: T = 130 (T % 4 != 0: byte stores, a 2-token tail tile), F = 200,
//     e5m2 in and out (the hybrid policy's gradients);
//   mixed: e4m3 codes requantized to e5m2 with pow2 scales.
// Three scheduler seeds (FP8_EMU_SEED) for each.
//
// REQUIRES: clang
// RUN: %clang -O1 %S/Inputs/host_check.c -o %t.check -ldl
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=llvm target=emulator" 2> %t.remarks | mlir-translate --mlir-to-llvmir -o %t.gpu.ll
// RUN: FileCheck %s --check-prefix=REMARK --allow-empty < %t.remarks
// RUN: %clang %t.gpu.ll -o %t.gpu.so %emu_host_link
// RUN: fp8-opt %s --fp8-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.cpu.ll
// RUN: %clang %t.cpu.ll -o %t.cpu.so %cpu_host_link
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so e4m3 1 f32:300x272,f32:300x3 f32:272x300 2>&1 | FileCheck %s --check-prefix=E4M3
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so e4m3 2 f32:300x272,f32:300x3 f32:272x300 2>&1 | FileCheck %s --check-prefix=E4M3
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so e4m3 3 f32:300x272,f32:300x3 f32:272x300 2>&1 | FileCheck %s --check-prefix=E4M3
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so e5m2 4 f32:200x130,f32:200x2 bf16:130x200 2>&1 | FileCheck %s --check-prefix=E5M2
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so e5m2 5 f32:200x130,f32:200x2 bf16:130x200 2>&1 | FileCheck %s --check-prefix=E5M2
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so e5m2 6 f32:200x130,f32:200x2 bf16:130x200 2>&1 | FileCheck %s --check-prefix=E5M2
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so mixed 7 f32:256x384,f32:256x3 f32:384x256 2>&1 | FileCheck %s --check-prefix=MIXED
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so mixed 8 f32:256x384,f32:256x3 f32:384x256 2>&1 | FileCheck %s --check-prefix=MIXED

// Every requantize is a kernel: no op stays on the host.
// REMARK-NOT: stays on the host

// The grids by hand: a 1x128 tile per warp, 8 per CTA of 256 threads, F *
// ceil(T / 128) tiles: 300 * 3 = 900 -> 113 CTAs; 200 * 2 = 400 -> 50;
// 256 * 3 = 768 -> 96. Five parameters (x, q, scales, rows, x scales).
// E4M3: launch fp8_requantize_t_300x272_1x128_e4m3_e4m3 grid 113 block 256 smem 0 params 5
// E4M3: host-check: PASS e4m3#0: 300x272, 81600 outputs bit-exact
// E4M3: host-check: PASS e4m3#1: 300x3, 900 outputs bit-exact (900 non-zero)
// E5M2: launch fp8_requantize_t_200x130_1x128_e5m2_e5m2 grid 50 block 256 smem 0 params 5
// E5M2: host-check: PASS e5m2#0: 200x130, 26000 outputs bit-exact
// E5M2: host-check: PASS e5m2#1: 200x2, 400 outputs bit-exact (400 non-zero)
// MIXED: launch fp8_requantize_t_256x384_1x128_e4m3_e5m2_pow2 grid 96 block 256 smem 0 params 5
// MIXED: host-check: PASS mixed#0: 256x384, 98304 outputs bit-exact
// MIXED: host-check: PASS mixed#1: 256x3, 768 outputs bit-exact (768 non-zero)

func.func @e4m3(%x: tensor<272x300xf32>) -> (tensor<300x272xf32>, tensor<300x3xf32>) attributes {llvm.emit_c_interface} {
  %a = fp8.quantize %x : tensor<272x300xf32> -> !fp8.scaled<272x300xf8E4M3FN, block = [1, 128], scale = f32>
  %t = fp8.requantize %a {permutation = array<i64: 1, 0>} : !fp8.scaled<272x300xf8E4M3FN, block = [1, 128], scale = f32> -> !fp8.scaled<300x272xf8E4M3FN, block = [1, 128], scale = f32>
  %codes, %scales = fp8.disassemble %t : !fp8.scaled<300x272xf8E4M3FN, block = [1, 128], scale = f32>
  %d = fp8.dequantize %t : !fp8.scaled<300x272xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<300x272xf32>
  return %d, %scales : tensor<300x272xf32>, tensor<300x3xf32>
}

func.func @e5m2(%x: tensor<130x200xbf16>) -> (tensor<200x130xf32>, tensor<200x2xf32>) attributes {llvm.emit_c_interface} {
  %a = fp8.quantize %x : tensor<130x200xbf16> -> !fp8.scaled<130x200xf8E5M2, block = [1, 128], scale = f32>
  %t = fp8.requantize %a {permutation = array<i64: 1, 0>} : !fp8.scaled<130x200xf8E5M2, block = [1, 128], scale = f32> -> !fp8.scaled<200x130xf8E5M2, block = [1, 128], scale = f32>
  %codes, %scales = fp8.disassemble %t : !fp8.scaled<200x130xf8E5M2, block = [1, 128], scale = f32>
  %d = fp8.dequantize %t : !fp8.scaled<200x130xf8E5M2, block = [1, 128], scale = f32> -> tensor<200x130xf32>
  return %d, %scales : tensor<200x130xf32>, tensor<200x2xf32>
}

func.func @mixed(%x: tensor<384x256xf32>) -> (tensor<256x384xf32>, tensor<256x3xf32>) attributes {llvm.emit_c_interface} {
  %a = fp8.quantize %x : tensor<384x256xf32> -> !fp8.scaled<384x256xf8E4M3FN, block = [1, 128], scale = f32>
  %t = fp8.requantize %a {permutation = array<i64: 1, 0>, scale_mode = #fp8.scale_mode<pow2>} : !fp8.scaled<384x256xf8E4M3FN, block = [1, 128], scale = f32> -> !fp8.scaled<256x384xf8E5M2, block = [1, 128], scale = f32>
  %codes, %scales = fp8.disassemble %t : !fp8.scaled<256x384xf8E5M2, block = [1, 128], scale = f32>
  %d = fp8.dequantize %t : !fp8.scaled<256x384xf8E5M2, block = [1, 128], scale = f32> -> tensor<256x384xf32>
  return %d, %scales : tensor<256x384xf32>, tensor<256x3xf32>
}
