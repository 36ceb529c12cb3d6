// Special values through the GPU kernels: inputs with about one element in
// 50 (one in 500 for the GEMM) replaced by NaN of either sign, +-Inf, -0.0,
// the smallest f32 subnormal, bf16 max or -1.75 * 2^100
// (HOST_CHECK_SPECIALS, Inputs/host_check.c), through every quantize kernel
// (1x128 e4m3 and e5m2, 128x128, per-tensor, rowwise, 1x32 E8M0, 128x1
// column blocks) and a DeepSeek-V3 linear (quantize + GEMM; f32, and bf16
// with a bf16 C: linear_bf16), each compiled
// with fp8-gpu-pipeline{host=llvm target=emulator} and compared bit for bit,
// NaN outputs included, against fp8-cpu-pipeline (the reference lowering,
// whose conversions match cuda_fp8.h) under two scheduler seeds. The numerics
// contract (docs/numerics.md): amax propagates NaN and a NaN or Inf amax
// gives the scale 1; NaN stays NaN; +-Inf saturates to the format's max.
// So every result holds NaN outputs (the NaN inputs; checked: a non-zero
// NaN count). Inf outputs come from dequantizing: a bf16-max block's code
// rounded up to the next power of two (e5m2, or a pow2 / E8M0 scale) times
// its scale passes f32 max. A kernel whose amax drops NaN (maxnum instead
// of max.NaN: mutants K70-K72, K77) gives a NaN block a finite scale and
// fails the comparison.
//
// REQUIRES: clang
// RUN: %clang -O1 %S/Inputs/host_check.c -o %t.check -ldl
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=llvm target=emulator" 2> %t.remarks | mlir-translate --mlir-to-llvmir -o %t.gpu.ll
// RUN: FileCheck %s --check-prefix=REMARKS --allow-empty < %t.remarks
// RUN: %clang %t.gpu.ll -o %t.gpu.so %emu_host_link
// RUN: fp8-opt %s --fp8-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.cpu.ll
// RUN: %clang %t.cpu.ll -o %t.cpu.so %cpu_host_link
// RUN: env HOST_CHECK_SPECIALS=50 FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so act 1 f32:130x300 f32:130x300 2>&1 | FileCheck %s --check-prefix=ACT
// RUN: env HOST_CHECK_SPECIALS=50 FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so act 2 f32:130x300 f32:130x300 | FileCheck %s --check-prefix=ACT-PASS
// RUN: env HOST_CHECK_SPECIALS=50 FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so act_e5m2 3 f32:130x300 bf16:130x300 2>&1 | FileCheck %s --check-prefix=E5M2
// RUN: env HOST_CHECK_SPECIALS=50 FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so act_e5m2 4 f32:130x300 bf16:130x300 | FileCheck %s --check-prefix=E5M2-PASS
// RUN: env HOST_CHECK_SPECIALS=50 FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so weight 5 f32:300x260 f32:300x260 2>&1 | FileCheck %s --check-prefix=WEIGHT
// RUN: env HOST_CHECK_SPECIALS=50 FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so weight 6 f32:300x260 f32:300x260 | FileCheck %s --check-prefix=WEIGHT-PASS
// RUN: env HOST_CHECK_SPECIALS=50 FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so tensor 7 f32:130x300 f32:130x300 2>&1 | FileCheck %s --check-prefix=TENSOR
// RUN: env HOST_CHECK_SPECIALS=50 FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so tensor 8 f32:130x300 f32:130x300 | FileCheck %s --check-prefix=TENSOR-PASS
// RUN: env HOST_CHECK_SPECIALS=50 FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so rowwise 9 f32:130x300 bf16:130x300 2>&1 | FileCheck %s --check-prefix=ROW
// RUN: env HOST_CHECK_SPECIALS=50 FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so rowwise 10 f32:130x300 bf16:130x300 | FileCheck %s --check-prefix=ROW-PASS
// RUN: env HOST_CHECK_SPECIALS=50 FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so mx 11 f32:130x300 f32:130x300 2>&1 | FileCheck %s --check-prefix=MX
// RUN: env HOST_CHECK_SPECIALS=50 FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so mx 12 f32:130x300 f32:130x300 | FileCheck %s --check-prefix=MX-PASS
// RUN: env HOST_CHECK_SPECIALS=50 FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so columns 15 f32:300x260 f32:300x260 2>&1 | FileCheck %s --check-prefix=COL
// RUN: env HOST_CHECK_SPECIALS=50 FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so columns 16 f32:300x260 f32:300x260 | FileCheck %s --check-prefix=COL-PASS
// RUN: env HOST_CHECK_SPECIALS=500 FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so linear 13 f32:130x300 f32:130x400 f32:300x400 2>&1 | FileCheck %s --check-prefix=LINEAR
// RUN: env HOST_CHECK_SPECIALS=500 FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so linear 14 f32:130x300 f32:130x400 f32:300x400 | FileCheck %s --check-prefix=LINEAR-PASS
// RUN: env HOST_CHECK_SPECIALS=500 FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so linear_bf16 17 bf16:130x300 f32:130x400 f32:300x400 bf16:130x300 2>&1 | FileCheck %s --check-prefix=LINBF
// RUN: env HOST_CHECK_SPECIALS=500 FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so linear_bf16 18 bf16:130x300 f32:130x400 f32:300x400 bf16:130x300 | FileCheck %s --check-prefix=LINBF-PASS

// REMARKS-NOT: no GPU
// REMARKS-NOT: error

// ACT: launch fp8_quantize_130x300_1x128_f32_e4m3 grid 49
// ACT: host-check: PASS act: 130x300, 39000 outputs bit-exact ({{[0-9]+}} non-zero, {{[1-9][0-9]*}} NaN, 0 Inf)
// ACT-PASS: host-check: PASS act: 130x300, 39000 outputs bit-exact ({{[0-9]+}} non-zero, {{[1-9][0-9]*}} NaN, 0 Inf)
// E5M2: launch fp8_quantize_130x300_1x128_bf16_e5m2_pow2 grid 49
// E5M2: host-check: PASS act_e5m2: 130x300, 39000 outputs bit-exact ({{[0-9]+}} non-zero, {{[1-9][0-9]*}} NaN, {{[0-9]+}} Inf)
// E5M2-PASS: host-check: PASS act_e5m2: 130x300, 39000 outputs bit-exact ({{[0-9]+}} non-zero, {{[1-9][0-9]*}} NaN,
// WEIGHT: launch fp8_quantize_300x260_128x128_f32_e4m3 grid 9
// WEIGHT: host-check: PASS weight: 300x260, 78000 outputs bit-exact ({{[0-9]+}} non-zero, {{[1-9][0-9]*}} NaN, 0 Inf)
// WEIGHT-PASS: host-check: PASS weight: 300x260, 78000 outputs bit-exact ({{[0-9]+}} non-zero, {{[1-9][0-9]*}} NaN, 0 Inf)
// TENSOR: launch fp8_quantize_130x300_tensor_f32_e4m3 grid 49
// TENSOR-NEXT: launch fp8_quantize_130x300_tensor_f32_e4m3 grid 49
// TENSOR: host-check: PASS tensor: 130x300, 39000 outputs bit-exact ({{[0-9]+}} non-zero, {{[1-9][0-9]*}} NaN, 0 Inf)
// TENSOR-PASS: host-check: PASS tensor: 130x300, 39000 outputs bit-exact ({{[0-9]+}} non-zero, {{[1-9][0-9]*}} NaN, 0 Inf)
// ROW: launch fp8_quantize_130x300_1x300_bf16_e4m3 grid 17
// ROW: host-check: PASS rowwise: 130x300, 39000 outputs bit-exact ({{[0-9]+}} non-zero, {{[1-9][0-9]*}} NaN, 0 Inf)
// ROW-PASS: host-check: PASS rowwise: 130x300, 39000 outputs bit-exact ({{[0-9]+}} non-zero, {{[1-9][0-9]*}} NaN, 0 Inf)
// MX: launch fp8_quantize_130x300_1x32_f32_e4m3_pow2_ue8m0 grid 163
// MX: host-check: PASS mx: 130x300, 39000 outputs bit-exact ({{[0-9]+}} non-zero, {{[1-9][0-9]*}} NaN, {{[0-9]+}} Inf)
// MX-PASS: host-check: PASS mx: 130x300, 39000 outputs bit-exact ({{[0-9]+}} non-zero, {{[1-9][0-9]*}} NaN,
// Column blocks [128, 1]: a CTA per 128 x 128 region, ceil(300 / 128) *
// ceil(260 / 128) = 3 * 3 = 9.
// COL: launch fp8_quantize_300x260_128x1_f32_e4m3 grid 9
// COL: host-check: PASS columns: 300x260, 78000 outputs bit-exact ({{[0-9]+}} non-zero, {{[1-9][0-9]*}} NaN, 0 Inf)
// COL-PASS: host-check: PASS columns: 300x260, 78000 outputs bit-exact ({{[0-9]+}} non-zero, {{[1-9][0-9]*}} NaN, 0 Inf)
// LINEAR: launch fp8_quantize_130x400_1x128_f32_e4m3
// LINEAR: launch fp8_quantize_300x400_128x128_f32_e4m3
// LINEAR: launch fp8_scaled_matmul_130x300x400_e4m3_e4m3_f32
// LINEAR: host-check: PASS linear: 130x300, 39000 outputs bit-exact (39000 non-zero, {{[1-9][0-9]*}} NaN,
// LINEAR-PASS: host-check: PASS linear: 130x300, 39000 outputs bit-exact (39000 non-zero, {{[1-9][0-9]*}} NaN,
// NaN GEMM results are the GPU's canonical NaNs (docs/numerics.md, "NaN
// encodings"): f32 0x7FFFFFFF from the promotion FMA (measured on an H200),
// bf16 0x7FFF from cvt.rn.bf16x2.f32, on the emulator and in the CPU
// reference alike (the bits themselves: Integration/CPU/nan-encodings.mlir).
// linear_bf16 adds a bf16 C with specials (NaN 0x7FC0 / 0xFFC0, +-Inf)
// and a bf16 result.
// LINBF: launch fp8_scaled_matmul_130x300x400_e4m3_e4m3_bf16
// LINBF: host-check: PASS linear_bf16: 130x300, 39000 outputs bit-exact ({{[0-9]+}} non-zero, {{[1-9][0-9]*}} NaN,
// LINBF-PASS: host-check: PASS linear_bf16: 130x300, 39000 outputs bit-exact ({{[0-9]+}} non-zero, {{[1-9][0-9]*}} NaN,

func.func @act(%x: tensor<130x300xf32>) -> tensor<130x300xf32> attributes {llvm.emit_c_interface} {
  %q = fp8.quantize %x : tensor<130x300xf32> -> !fp8.scaled<130x300xf8E4M3FN, block = [1, 128], scale = f32>
  %d = fp8.dequantize %q : !fp8.scaled<130x300xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<130x300xf32>
  return %d : tensor<130x300xf32>
}

func.func @act_e5m2(%x: tensor<130x300xbf16>) -> tensor<130x300xf32> attributes {llvm.emit_c_interface} {
  %q = fp8.quantize %x {scale_mode = #fp8.scale_mode<pow2>} : tensor<130x300xbf16> -> !fp8.scaled<130x300xf8E5M2, block = [1, 128], scale = f32>
  %d = fp8.dequantize %q : !fp8.scaled<130x300xf8E5M2, block = [1, 128], scale = f32> -> tensor<130x300xf32>
  return %d : tensor<130x300xf32>
}

func.func @weight(%x: tensor<300x260xf32>) -> tensor<300x260xf32> attributes {llvm.emit_c_interface} {
  %q = fp8.quantize %x : tensor<300x260xf32> -> !fp8.scaled<300x260xf8E4M3FN, block = [128, 128], scale = f32>
  %d = fp8.dequantize %q : !fp8.scaled<300x260xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<300x260xf32>
  return %d : tensor<300x260xf32>
}

func.func @tensor(%x: tensor<130x300xf32>) -> tensor<130x300xf32> attributes {llvm.emit_c_interface} {
  %q = fp8.quantize %x : tensor<130x300xf32> -> !fp8.scaled<130x300xf8E4M3FN, block = [130, 300], scale = f32>
  %d = fp8.dequantize %q : !fp8.scaled<130x300xf8E4M3FN, block = [130, 300], scale = f32> -> tensor<130x300xf32>
  return %d : tensor<130x300xf32>
}

func.func @rowwise(%x: tensor<130x300xbf16>) -> tensor<130x300xf32> attributes {llvm.emit_c_interface} {
  %q = fp8.quantize %x : tensor<130x300xbf16> -> !fp8.scaled<130x300xf8E4M3FN, block = [1, 300], scale = f32>
  %d = fp8.dequantize %q : !fp8.scaled<130x300xf8E4M3FN, block = [1, 300], scale = f32> -> tensor<130x300xf32>
  return %d : tensor<130x300xf32>
}

func.func @mx(%x: tensor<130x300xf32>) -> tensor<130x300xf32> attributes {llvm.emit_c_interface} {
  %q = fp8.quantize %x {scale_mode = #fp8.scale_mode<pow2>} : tensor<130x300xf32> -> !fp8.scaled<130x300xf8E4M3FN, block = [1, 32], scale = f8E8M0FNU>
  %d = fp8.dequantize %q : !fp8.scaled<130x300xf8E4M3FN, block = [1, 32], scale = f8E8M0FNU> -> tensor<130x300xf32>
  return %d : tensor<130x300xf32>
}

func.func @columns(%x: tensor<300x260xf32>) -> tensor<300x260xf32> attributes {llvm.emit_c_interface} {
  %q = fp8.quantize %x : tensor<300x260xf32> -> !fp8.scaled<300x260xf8E4M3FN, block = [128, 1], scale = f32>
  %d = fp8.dequantize %q : !fp8.scaled<300x260xf8E4M3FN, block = [128, 1], scale = f32> -> tensor<300x260xf32>
  return %d : tensor<300x260xf32>
}

func.func @linear(%x: tensor<130x400xf32>, %w: tensor<300x400xf32>) -> tensor<130x300xf32> attributes {llvm.emit_c_interface} {
  %a = fp8.quantize %x : tensor<130x400xf32> -> !fp8.scaled<130x400xf8E4M3FN, block = [1, 128], scale = f32>
  %b = fp8.quantize %w : tensor<300x400xf32> -> !fp8.scaled<300x400xf8E4M3FN, block = [128, 128], scale = f32>
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<130x400xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<300x400xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<130x300xf32>
  return %d : tensor<130x300xf32>
}

func.func @linear_bf16(%x: tensor<130x400xf32>, %w: tensor<300x400xf32>, %c: tensor<130x300xbf16>) -> tensor<130x300xbf16> attributes {llvm.emit_c_interface} {
  %a = fp8.quantize %x : tensor<130x400xf32> -> !fp8.scaled<130x400xf8E4M3FN, block = [1, 128], scale = f32>
  %b = fp8.quantize %w : tensor<300x400xf32> -> !fp8.scaled<300x400xf8E4M3FN, block = [128, 128], scale = f32>
  %d = fp8.scaled_matmul %a, %b acc(%c : tensor<130x300xbf16>) : !fp8.scaled<130x400xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<300x400xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<130x300xbf16>
  return %d : tensor<130x300xbf16>
}
