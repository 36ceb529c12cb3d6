// The per-tensor quantize kernel (one block over the whole tensor, one
// scale: the `per-tensor` preset; #fp8.quantize_kernel<..., per_tensor =
// true>) in the compiled host program on the emulated mgpu* runtime,
// bit-exact against the same functions through fp8-cpu-pipeline (the op's
// CPU lowering, the oracle) under several scheduler seeds (FP8_EMU_SEED).
// Each function returns the quantized tensor dequantized, so a wrong code
// or a wrong scale is a mismatch; host_check gives each row its own
// magnitude and about one element in 97 an outlier, so the tensor's amax
// is one CTA's: an amax of any other CTA (or of a CTA's own tiles only)
// gives another scale.
//   odd: bf16 [130, 301] into e5m2 with f32 scales: cols % 4 != 0 (byte
//     loads and stores), 130 * 3 = 390 tiles of 1x128 -> 49 CTAs, the
//     last with 6 tiles (2 warps past the tensor in the amax pass's
//     barrier);
//   wide: f32 [40, 2100] into e4m3 with pow2 scales: 40 * 17 = 680 tiles
//     -> 85 CTAs, 16-byte loads and 4-byte code stores;
//   e8m0: f32 [64, 256] into e4m3 with an E8M0 scale (pow2): 64 * 2 = 128
//     tiles -> 16 CTAs, the scale stored as one byte.
// Each kernel is launched twice (the amax pass, then the codes pass), with
// six parameters (x, q, scales, rows, amax, pass).
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
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so wide 4 f32:40x2100 f32:40x2100 2>&1 | FileCheck %s --check-prefixes=WIDE,WIDE-TRACE
// RUN: env FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so wide 5 f32:40x2100 f32:40x2100 2>&1 | FileCheck %s --check-prefix=WIDE
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so e8m0 6 f32:64x256 f32:64x256 2>&1 | FileCheck %s --check-prefixes=E8M0,E8M0-TRACE
// RUN: env FP8_EMU_SEED=4 %t.check %t.gpu.so %t.cpu.so e8m0 7 f32:64x256 f32:64x256 2>&1 | FileCheck %s --check-prefix=E8M0

// Every quantize is a kernel.
// REMARK-NOT: stays on the host

// ODD-TRACE: launch fp8_quantize_130x301_tensor_bf16_e5m2 grid 49 block 256 smem 0 params 6
// ODD-TRACE-NEXT: launch fp8_quantize_130x301_tensor_bf16_e5m2 grid 49 block 256 smem 0 params 6
// ODD-TRACE-NOT: launch
// ODD: host-check: PASS odd: 130x301, 39130 outputs bit-exact
// WIDE-TRACE: launch fp8_quantize_40x2100_tensor_f32_e4m3_pow2 grid 85 block 256 smem 0 params 6
// WIDE-TRACE-NEXT: launch fp8_quantize_40x2100_tensor_f32_e4m3_pow2 grid 85 block 256 smem 0 params 6
// WIDE: host-check: PASS wide: 40x2100, 84000 outputs bit-exact
// E8M0-TRACE: launch fp8_quantize_64x256_tensor_f32_e4m3_pow2_ue8m0 grid 16 block 256 smem 0 params 6
// E8M0-TRACE-NEXT: launch fp8_quantize_64x256_tensor_f32_e4m3_pow2_ue8m0 grid 16 block 256 smem 0 params 6
// E8M0: host-check: PASS e8m0: 64x256, 16384 outputs bit-exact

func.func @odd(%x: tensor<130x301xbf16>) -> tensor<130x301xf32> attributes {llvm.emit_c_interface} {
  %q = fp8.quantize %x : tensor<130x301xbf16> -> !fp8.scaled<130x301xf8E5M2, block = [130, 301], scale = f32>
  %d = fp8.dequantize %q : !fp8.scaled<130x301xf8E5M2, block = [130, 301], scale = f32> -> tensor<130x301xf32>
  return %d : tensor<130x301xf32>
}

func.func @wide(%x: tensor<40x2100xf32>) -> tensor<40x2100xf32> attributes {llvm.emit_c_interface} {
  %q = fp8.quantize %x {scale_mode = #fp8.scale_mode<pow2>} : tensor<40x2100xf32> -> !fp8.scaled<40x2100xf8E4M3FN, block = [40, 2100], scale = f32>
  %d = fp8.dequantize %q : !fp8.scaled<40x2100xf8E4M3FN, block = [40, 2100], scale = f32> -> tensor<40x2100xf32>
  return %d : tensor<40x2100xf32>
}

func.func @e8m0(%x: tensor<64x256xf32>) -> tensor<64x256xf32> attributes {llvm.emit_c_interface} {
  %q = fp8.quantize %x {scale_mode = #fp8.scale_mode<pow2>} : tensor<64x256xf32> -> !fp8.scaled<64x256xf8E4M3FN, block = [64, 256], scale = f8E8M0FNU>
  %d = fp8.dequantize %q : !fp8.scaled<64x256xf8E4M3FN, block = [64, 256], scale = f8E8M0FNU> -> tensor<64x256xf32>
  return %d : tensor<64x256xf32>
}
