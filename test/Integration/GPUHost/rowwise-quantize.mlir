// The rowwise quantize kernel (blocks [1, cols]: one scale per row, the
// `rowwise` preset; #fp8.quantize_kernel<..., block_cols = cols>) in the
// compiled host program on the emulated mgpu* runtime, bit-exact against
// the same functions through fp8-cpu-pipeline (the op's CPU lowering, the
// oracle) under several scheduler seeds (FP8_EMU_SEED). Each function
// returns the quantized tensor dequantized, so a wrong code or a wrong
// row's scale is a mismatch; host_check gives each row its own magnitude
// and about one element in 97 an outlier, so a row's amax depends on every
// chunk of it.
//   odd: bf16 [130, 301] into e5m2 with f32 scales: cols % 4 != 0 (byte
//     loads and stores), 3 chunks of 128 columns (the last 45 wide);
//   wide: f32 [?, 2100] into e4m3 with pow2 scales, run-time rows 40 and 9:
//     17 chunks (the last 52 wide), 16-byte loads and 4-byte code stores.
//
// REQUIRES: clang
// RUN: %clang -O1 %S/Inputs/host_check.c -o %t.check -ldl
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=llvm target=emulator" 2> %t.remarks | mlir-translate --mlir-to-llvmir -o %t.gpu.ll
// RUN: FileCheck %s --check-prefix=REMARK --allow-empty < %t.remarks
// RUN: %clang %t.gpu.ll -o %t.gpu.so %emu_host_link
// RUN: fp8-opt %s --fp8-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.cpu.ll
// RUN: %clang %t.cpu.ll -o %t.cpu.so %cpu_host_link
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so odd 1 f32:130x301 bf16:130x301 2>&1 | FileCheck %s --check-prefixes=ODD,ODD-TRACE
// RUN: env FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so odd 2 f32:130x301 bf16:130x301 2>&1 | FileCheck %s --check-prefix=ODD
// RUN: env FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so odd 3 f32:130x301 bf16:130x301 2>&1 | FileCheck %s --check-prefix=ODD
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so wide 4 f32:40x2100 f32:40x2100 2>&1 | FileCheck %s --check-prefixes=WIDE40,WIDE40-TRACE
// RUN: env FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so wide 5 f32:40x2100 f32:40x2100 2>&1 | FileCheck %s --check-prefix=WIDE40
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so wide 6 f32:9x2100 f32:9x2100 2>&1 | FileCheck %s --check-prefixes=WIDE9,WIDE9-TRACE

// Every quantize is a kernel.
// REMARK-NOT: stays on the host

// Grids by hand: a warp per row, 8 rows per CTA of 256 threads: 130 -> 17,
// 40 -> 5, 9 -> 2. Four parameters (x, q, scales, rows).
// ODD-TRACE: launch fp8_quantize_130x301_1x301_bf16_e5m2 grid 17 block 256 smem 0 params 4
// ODD: host-check: PASS odd: 130x301, 39130 outputs bit-exact
// WIDE40-TRACE: launch fp8_quantize_dynx2100_1x2100_f32_e4m3_pow2 grid 5 block 256 smem 0 params 4
// WIDE40: host-check: PASS wide: 40x2100, 84000 outputs bit-exact
// WIDE9-TRACE: launch fp8_quantize_dynx2100_1x2100_f32_e4m3_pow2 grid 2 block 256 smem 0 params 4
// WIDE9: host-check: PASS wide: 9x2100, 18900 outputs bit-exact

func.func @odd(%x: tensor<130x301xbf16>) -> tensor<130x301xf32> attributes {llvm.emit_c_interface} {
  %q = fp8.quantize %x : tensor<130x301xbf16> -> !fp8.scaled<130x301xf8E5M2, block = [1, 301], scale = f32>
  %d = fp8.dequantize %q : !fp8.scaled<130x301xf8E5M2, block = [1, 301], scale = f32> -> tensor<130x301xf32>
  return %d : tensor<130x301xf32>
}

func.func @wide(%x: tensor<?x2100xf32>) -> tensor<?x2100xf32> attributes {llvm.emit_c_interface} {
  %q = fp8.quantize %x {scale_mode = #fp8.scale_mode<pow2>} : tensor<?x2100xf32> -> !fp8.scaled<?x2100xf8E4M3FN, block = [1, 2100], scale = f32>
  %d = fp8.dequantize %q : !fp8.scaled<?x2100xf8E4M3FN, block = [1, 2100], scale = f32> -> tensor<?x2100xf32>
  return %d : tensor<?x2100xf32>
}
