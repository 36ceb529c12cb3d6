// The column-block quantize kernel (blocks [128, 1]: one scale per column
// and 128 rows, the `wgrad-operands=fresh` Wgrad operands' form;
// #fp8.quantize_kernel<..., block_rows = 128, block_cols = 1>: a CTA per
// region of 128 rows x 128 columns, the column amax through shared memory)
// in the compiled host program on the emulated mgpu* runtime, bit-exact
// against the same functions through fp8-cpu-pipeline (the op's CPU
// lowering, the oracle) under several scheduler seeds (FP8_EMU_SEED). Each
// function returns the quantized tensor dequantized, so a wrong code or a
// wrong column's scale is a mismatch; host_check gives each row its own
// magnitude and about one element in 97 an outlier, so the columns' scales
// differ.
//   vec: bf16 [300, 200] into e4m3, f32 scales: 3 row blocks (the last 44
//     rows), 2 regions of columns (the last 72 wide), vector loads;
//   dyn: f32 [?, 272] into e5m2, pow2 f32 scales, run-time rows 130 and 7;
//   e8m0: f32 [130, 201] into e4m3 with E8M0 scales: 201 columns, element
//     loads and byte stores.
//
// REQUIRES: clang
// RUN: %clang -O1 %S/Inputs/host_check.c -o %t.check -ldl
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=llvm target=emulator" 2> %t.remarks | mlir-translate --mlir-to-llvmir -o %t.gpu.ll
// RUN: FileCheck %s --check-prefix=REMARK --allow-empty < %t.remarks
// RUN: %clang %t.gpu.ll -o %t.gpu.so %emu_host_link
// RUN: fp8-opt %s --fp8-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.cpu.ll
// RUN: %clang %t.cpu.ll -o %t.cpu.so %cpu_host_link
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so vec 1 f32:300x200 bf16:300x200 2>&1 | FileCheck %s --check-prefixes=VEC,VEC-TRACE
// RUN: env FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so vec 2 f32:300x200 bf16:300x200 2>&1 | FileCheck %s --check-prefix=VEC
// RUN: env FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so vec 3 f32:300x200 bf16:300x200 2>&1 | FileCheck %s --check-prefix=VEC
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so dyn 4 f32:130x272 f32:130x272 2>&1 | FileCheck %s --check-prefixes=DYN130,DYN130-TRACE
// RUN: env FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so dyn 5 f32:130x272 f32:130x272 2>&1 | FileCheck %s --check-prefix=DYN130
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so dyn 6 f32:7x272 f32:7x272 2>&1 | FileCheck %s --check-prefixes=DYN7,DYN7-TRACE
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so e8m0 7 f32:130x201 f32:130x201 2>&1 | FileCheck %s --check-prefixes=E8M0,E8M0-TRACE
// RUN: env FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so e8m0 8 f32:130x201 f32:130x201 2>&1 | FileCheck %s --check-prefix=E8M0

// Every quantize is a kernel.
// REMARK-NOT: stays on the host

// Grids by hand: a CTA per 128-row x 128-column region,
// ceil(rows / 128) * ceil(cols / 128): 3 * 2 = 6, 2 * 3 = 6, 1 * 3 = 3,
// 2 * 2 = 4.
// VEC-TRACE: launch fp8_quantize_300x200_128x1_bf16_e4m3 grid 6 block 256 smem 0 params 4
// VEC: host-check: PASS vec: 300x200, 60000 outputs bit-exact
// DYN130-TRACE: launch fp8_quantize_dynx272_128x1_f32_e5m2_pow2 grid 6 block 256 smem 0 params 4
// DYN130: host-check: PASS dyn: 130x272, 35360 outputs bit-exact
// DYN7-TRACE: launch fp8_quantize_dynx272_128x1_f32_e5m2_pow2 grid 3 block 256 smem 0 params 4
// DYN7: host-check: PASS dyn: 7x272, 1904 outputs bit-exact
// E8M0-TRACE: launch fp8_quantize_130x201_128x1_f32_e4m3_pow2_ue8m0 grid 4 block 256 smem 0 params 4
// E8M0: host-check: PASS e8m0: 130x201, 26130 outputs bit-exact

func.func @vec(%x: tensor<300x200xbf16>) -> tensor<300x200xf32> attributes {llvm.emit_c_interface} {
  %q = fp8.quantize %x : tensor<300x200xbf16> -> !fp8.scaled<300x200xf8E4M3FN, block = [128, 1], scale = f32>
  %d = fp8.dequantize %q : !fp8.scaled<300x200xf8E4M3FN, block = [128, 1], scale = f32> -> tensor<300x200xf32>
  return %d : tensor<300x200xf32>
}

func.func @dyn(%x: tensor<?x272xf32>) -> tensor<?x272xf32> attributes {llvm.emit_c_interface} {
  %q = fp8.quantize %x {scale_mode = #fp8.scale_mode<pow2>} : tensor<?x272xf32> -> !fp8.scaled<?x272xf8E5M2, block = [128, 1], scale = f32>
  %d = fp8.dequantize %q : !fp8.scaled<?x272xf8E5M2, block = [128, 1], scale = f32> -> tensor<?x272xf32>
  return %d : tensor<?x272xf32>
}

func.func @e8m0(%x: tensor<130x201xf32>) -> tensor<130x201xf32> attributes {llvm.emit_c_interface} {
  %q = fp8.quantize %x {scale_mode = #fp8.scale_mode<pow2>} : tensor<130x201xf32> -> !fp8.scaled<130x201xf8E4M3FN, block = [128, 1], scale = f8E8M0FNU>
  %d = fp8.dequantize %q : !fp8.scaled<130x201xf8E4M3FN, block = [128, 1], scale = f8E8M0FNU> -> tensor<130x201xf32>
  return %d : tensor<130x201xf32>
}
