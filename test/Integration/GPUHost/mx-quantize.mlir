// The MX quantize kernel (blocks [1, 32], the mxfp8 preset's OCP
// Microscaling blocks, with E8M0 or f32 scales; #fp8.quantize_kernel<...,
// block_cols = 32>: one warp per block, one column per lane) in the
// compiled host program on the emulated mgpu* runtime, bit-exact against
// the same functions through fp8-cpu-pipeline (the op's CPU lowering, the
// oracle) under several scheduler seeds (FP8_EMU_SEED). Each function
// returns the quantized tensor dequantized, so a wrong code or a wrong
// block's scale is a mismatch; host_check gives each row its own magnitude
// and about one element in 97 an outlier, so neighbouring blocks' scales
// differ.
//   odd: bf16 [130, 301] into e4m3 with E8M0 scales (pow2): 10 blocks per
//     row, the last 13 wide;
//   dyn: f32 [?, 96] into e5m2 with f32 scales, run-time rows 40 and 7.
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
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so dyn 4 f32:40x96 f32:40x96 2>&1 | FileCheck %s --check-prefixes=DYN40,DYN40-TRACE
// RUN: env FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so dyn 5 f32:40x96 f32:40x96 2>&1 | FileCheck %s --check-prefix=DYN40
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so dyn 6 f32:7x96 f32:7x96 2>&1 | FileCheck %s --check-prefixes=DYN7,DYN7-TRACE

// Every quantize is a kernel.
// REMARK-NOT: stays on the host

// Grids by hand: a warp per 1x32 block, 8 per CTA of 256 threads:
// 130 * 10 = 1300 -> 163, 40 * 3 = 120 -> 15, 7 * 3 = 21 -> 3.
// ODD-TRACE: launch fp8_quantize_130x301_1x32_bf16_e4m3_pow2_ue8m0 grid 163 block 256 smem 0 params 4
// ODD: host-check: PASS odd: 130x301, 39130 outputs bit-exact
// DYN40-TRACE: launch fp8_quantize_dynx96_1x32_f32_e5m2 grid 15 block 256 smem 0 params 4
// DYN40: host-check: PASS dyn: 40x96, 3840 outputs bit-exact
// DYN7-TRACE: launch fp8_quantize_dynx96_1x32_f32_e5m2 grid 3 block 256 smem 0 params 4
// DYN7: host-check: PASS dyn: 7x96, 672 outputs bit-exact

func.func @odd(%x: tensor<130x301xbf16>) -> tensor<130x301xf32> attributes {llvm.emit_c_interface} {
  %q = fp8.quantize %x {scale_mode = #fp8.scale_mode<pow2>} : tensor<130x301xbf16> -> !fp8.scaled<130x301xf8E4M3FN, block = [1, 32], scale = f8E8M0FNU>
  %d = fp8.dequantize %q : !fp8.scaled<130x301xf8E4M3FN, block = [1, 32], scale = f8E8M0FNU> -> tensor<130x301xf32>
  return %d : tensor<130x301xf32>
}

func.func @dyn(%x: tensor<?x96xf32>) -> tensor<?x96xf32> attributes {llvm.emit_c_interface} {
  %q = fp8.quantize %x : tensor<?x96xf32> -> !fp8.scaled<?x96xf8E5M2, block = [1, 32], scale = f32>
  %d = fp8.dequantize %q : !fp8.scaled<?x96xf8E5M2, block = [1, 32], scale = f32> -> tensor<?x96xf32>
  return %d : tensor<?x96xf32>
}
