// E8M0 (UE8M0, f8E8M0FNU: power-of-two) scales, as DeepSeek-V3.1-style
// checkpoints ship them, for the GEMM kernels: each scale is widened to
// f32 (2^(code - 127), the contract's createF32FromE8M0: exact) on the
// device, by the transpose kernel's widening variant (the A scales on
// their way to the [KB, Mpad] layout, the B block scales in place), and
// the kernel runs as with f32 scales, so the compiled host program on
// the emulated mgpu* runtime is bit-exact against the same functions
// through fp8-cpu-pipeline (the reference lowering), under three scheduler
// seeds (FP8_EMU_SEED). The E8M0 quantize ops of 1x128 and 128x128 blocks
// run on the quantize kernel, which stores each scale as one byte (the
// biased exponent of the pow2 scale), rowwise ([1, K]) ones on the rowwise
// kernel. host_check gives each input row its own magnitude
// 2^e, so the blocks' scales differ: a scale code taken as a value, or the
// wrong block's, is a mismatch.
//   dsv3: DeepSeek-V3 blocks ([1, 128] activations, [128, 128] weights),
//     run-time M (200, 65), N = 300, K = 400 (tails);
//   wgrad: [1, 128] blocks on both (the per-column B-scale kernel), e5m2 A;
//   rowwise: [1, K] E8M0 blocks (the rowwise quantize kernel, the
//     whole-K-scales GEMM kernel, scale_k = k), run-time M = 130;
//   grouped: a masked grouped GEMM (G = 2, M = 130, N = 200, K = 272) with
//     E8M0 scales on both operands (its 3-D quantize ops stay on the host);
//   rq_e8m0: fp8.requantize (the Wgrad operand: transpose, 1x128 tiles
//     along the T = 272 tokens) E8M0 in and out: the input scales widened
//     on the device, the kernel stores the output's as bytes;
//   rq_to_e8m0: f32 scales in, E8M0 out, e5m2, T = 130 (byte code stores,
//     a 2-token tail tile); rq_from_e8m0: E8M0 in, f32 scales out.
// The requantize functions return the result dequantized, so a wrong code
// or scale is a mismatch. No scale visits the host: the bytes each call
// moves (FP8_EMU_TRANSFERS) are its arguments and results (for the
// requantize functions, the result's codes and scales, dequantized on the
// host).
//
// REQUIRES: clang
// RUN: %clang -O1 %S/Inputs/host_check.c -o %t.check -ldl
// RUN: fp8-opt %s --fp8-gpu-pipeline="config=fixed chip=sm_90a host=llvm target=emulator" 2> %t.remarks | mlir-translate --mlir-to-llvmir -o %t.gpu.ll
// RUN: FileCheck %s --check-prefix=REMARKS < %t.remarks
// RUN: %clang %t.gpu.ll -o %t.gpu.so %emu_host_link
// RUN: fp8-opt %s --fp8-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.cpu.ll
// RUN: %clang %t.cpu.ll -o %t.cpu.so %cpu_host_link
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_TRANSFERS=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so dsv3 1 bf16:200x300 f32:200x400 f32:300x400 2>&1 | FileCheck %s --check-prefix=DSV3
// Launch by launch (resident=false): each launcher copies its operands in
// and its results out, the widening ones too (the E8M0 codes in, f32 out).
// RUN: fp8-opt %s --fp8-gpu-pipeline="config=fixed chip=sm_90a host=llvm target=emulator resident=false" | mlir-translate --mlir-to-llvmir -o %t.copy.ll
// RUN: %clang %t.copy.ll -o %t.copy.so %emu_host_link
// RUN: env FP8_EMU_SEED=2 %t.check %t.copy.so %t.cpu.so dsv3 17 bf16:200x300 f32:200x400 f32:300x400 2>&1 | FileCheck %s --check-prefix=DSV3-200
// RUN: env FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so dsv3 2 bf16:65x300 f32:65x400 f32:300x400 2>&1 | FileCheck %s --check-prefix=DSV3-65
// RUN: env FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so dsv3 3 bf16:200x300 f32:200x400 f32:300x400 2>&1 | FileCheck %s --check-prefix=DSV3-200
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so wgrad 4 f32:200x300 f32:200x400 f32:300x400 2>&1 | FileCheck %s --check-prefix=WGRAD
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so wgrad 5 f32:200x300 f32:200x400 f32:300x400 2>&1 | FileCheck %s --check-prefix=WGRAD
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so rowwise 6 bf16:130x300 f32:130x400 f32:300x400 2>&1 | FileCheck %s --check-prefixes=ROW,ROW-TRACE
// RUN: env FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so rowwise 7 bf16:130x300 f32:130x400 f32:300x400 2>&1 | FileCheck %s --check-prefix=ROW
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so grouped 8 bf16:260x200 f32:260x272 bf16:400x272 2>&1 | FileCheck %s --check-prefix=GROUPED
// RUN: env FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so grouped 9 bf16:260x200 f32:260x272 bf16:400x272 2>&1 | FileCheck %s --check-prefix=GROUPED
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_TRANSFERS=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so rq_e8m0 10 f32:300x272 f32:272x300 2>&1 | FileCheck %s --check-prefixes=RQ,RQ-TRACE
// RUN: env FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so rq_e8m0 11 f32:300x272 f32:272x300 2>&1 | FileCheck %s --check-prefix=RQ
// RUN: env FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so rq_e8m0 12 f32:300x272 f32:272x300 2>&1 | FileCheck %s --check-prefix=RQ
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so rq_to_e8m0 13 f32:200x130 bf16:130x200 2>&1 | FileCheck %s --check-prefixes=RQ-TO,RQ-TO-TRACE
// RUN: env FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so rq_to_e8m0 14 f32:200x130 bf16:130x200 2>&1 | FileCheck %s --check-prefix=RQ-TO
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so rq_from_e8m0 15 f32:256x384 f32:384x256 2>&1 | FileCheck %s --check-prefixes=RQ-FROM,RQ-FROM-TRACE
// RUN: env FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so rq_from_e8m0 16 f32:256x384 f32:384x256 2>&1 | FileCheck %s --check-prefix=RQ-FROM

// Every GEMM, requantize and rank-2 quantize (1x128, 128x128, rowwise) is a
// kernel; only the grouped GEMM's 3-D quantize ops stay on the host.
// REMARKS-NOT: no GPU
// REMARKS-COUNT-2: no GPU quantize kernel (needs a rank-2 input
// REMARKS-NOT: no GPU

// DSV3: fp8-emu-mgpu: launch fp8_quantize_dynx400_1x128_f32_e4m3{{.*}}_ue8m0 grid 100 block 256
// DSV3: fp8-emu-mgpu: launch fp8_quantize_300x400_128x128_f32_e4m3{{.*}}_ue8m0 grid 12 block 256
// The B block scales [3, 4] widened in place (1 CTA), the A scales
// [200, 4] -> [4, 200] (one thread per output element: 4 CTAs of 256).
// DSV3: fp8-emu-mgpu: launch fp8_transpose_b8_e8m0f32 grid 1 block 256
// DSV3: fp8-emu-mgpu: launch fp8_transpose_b8_e8m0f32 grid 4 block 256
// DSV3: fp8-emu-mgpu: launch fp8_scaled_matmul_dynx300x400_e4m3_e4m3_bf16 grid 6 block 384
// x (200 x 400 f32) and w (300 x 400 f32) in, D (200 x 300 bf16) out.
// DSV3: host-check: transfers dsv3: 800000 bytes to the device, 120000 to the host
// DSV3: host-check: PASS dsv3: 200x300, 60000 outputs bit-exact (60000 non-zero)
// DSV3-65: host-check: PASS dsv3: 65x300, 19500 outputs bit-exact
// DSV3-200: host-check: PASS dsv3: 200x300, 60000 outputs bit-exact
// WGRAD: fp8-emu-mgpu: launch fp8_quantize_200x400_1x128_f32_e5m2{{.*}}_ue8m0 grid 100 block 256
// WGRAD: fp8-emu-mgpu: launch fp8_quantize_300x400_1x128_f32_e4m3{{.*}}_ue8m0 grid 150 block 256
// WGRAD: fp8-emu-mgpu: launch fp8_scaled_matmul_200x300x400_e5m2_e4m3_f32_b1x128 grid 6 block 384
// WGRAD: host-check: PASS wgrad: 200x300, 60000 outputs bit-exact
// ROW-TRACE: fp8-emu-mgpu: launch fp8_quantize_dynx400_1x400_f32_e4m3_pow2_ue8m0 grid 17 block 256
// ROW-TRACE: fp8-emu-mgpu: launch fp8_quantize_300x400_1x400_f32_e4m3_pow2_ue8m0 grid 38 block 256
// ROW: host-check: PASS rowwise: 130x300, 39000 outputs bit-exact
// GROUPED: host-check: PASS grouped: 260x200, 52000 outputs bit-exact
// Grids by hand, 8 tiles per CTA: the quantize 272 * ceil(300 / 128) = 816
// -> 102; the requantize F * ceil(T / 128): 300 * 3 -> 113,
// 200 * 2 -> 50, 256 * 3 -> 96.
// RQ-TRACE: fp8-emu-mgpu: launch fp8_quantize_272x300_1x128_f32_e4m3_pow2_ue8m0 grid 102 block 256
// The input scales [272, 3] widened in place: ceil(816 / 256) = 4 CTAs.
// RQ-TRACE: fp8-emu-mgpu: launch fp8_transpose_b8_e8m0f32 grid 4 block 256
// RQ-TRACE: fp8-emu-mgpu: launch fp8_requantize_t_300x272_1x128_e4m3_e4m3_pow2_ue8m0 grid 113 block 256
// x (272 x 300 f32) in; the result's codes (300 x 272) and E8M0 scales
// (300 x 3) out.
// RQ-TRACE: host-check: transfers rq_e8m0: 326400 bytes to the device, 82500 to the host
// RQ: host-check: PASS rq_e8m0: 300x272, 81600 outputs bit-exact
// RQ-TO-TRACE: fp8-emu-mgpu: launch fp8_requantize_t_200x130_1x128_e5m2_e5m2_pow2_ue8m0 grid 50 block 256
// RQ-TO: host-check: PASS rq_to_e8m0: 200x130, 26000 outputs bit-exact
// RQ-FROM-TRACE: fp8-emu-mgpu: launch fp8_requantize_t_256x384_1x128_e4m3_e4m3 grid 96 block 256
// RQ-FROM: host-check: PASS rq_from_e8m0: 256x384, 98304 outputs bit-exact

func.func @dsv3(%x: tensor<?x400xf32>, %w: tensor<300x400xf32>) -> tensor<?x300xbf16> attributes {llvm.emit_c_interface} {
  %qx = fp8.quantize %x {scale_mode = #fp8.scale_mode<pow2>} : tensor<?x400xf32> -> !fp8.scaled<?x400xf8E4M3FN, block = [1, 128], scale = f8E8M0FNU>
  %qw = fp8.quantize %w {scale_mode = #fp8.scale_mode<pow2>} : tensor<300x400xf32> -> !fp8.scaled<300x400xf8E4M3FN, block = [128, 128], scale = f8E8M0FNU>
  %d = fp8.scaled_matmul %qx, %qw : !fp8.scaled<?x400xf8E4M3FN, block = [1, 128], scale = f8E8M0FNU>, !fp8.scaled<300x400xf8E4M3FN, block = [128, 128], scale = f8E8M0FNU> -> tensor<?x300xbf16>
  return %d : tensor<?x300xbf16>
}

func.func @wgrad(%x: tensor<200x400xf32>, %w: tensor<300x400xf32>) -> tensor<200x300xf32> attributes {llvm.emit_c_interface} {
  %qx = fp8.quantize %x {scale_mode = #fp8.scale_mode<pow2>} : tensor<200x400xf32> -> !fp8.scaled<200x400xf8E5M2, block = [1, 128], scale = f8E8M0FNU>
  %qw = fp8.quantize %w {scale_mode = #fp8.scale_mode<pow2>} : tensor<300x400xf32> -> !fp8.scaled<300x400xf8E4M3FN, block = [1, 128], scale = f8E8M0FNU>
  %d = fp8.scaled_matmul %qx, %qw : !fp8.scaled<200x400xf8E5M2, block = [1, 128], scale = f8E8M0FNU>, !fp8.scaled<300x400xf8E4M3FN, block = [1, 128], scale = f8E8M0FNU> -> tensor<200x300xf32>
  return %d : tensor<200x300xf32>
}

func.func @rowwise(%x: tensor<?x400xf32>, %w: tensor<300x400xf32>) -> tensor<?x300xbf16> attributes {llvm.emit_c_interface} {
  %qx = fp8.quantize %x {scale_mode = #fp8.scale_mode<pow2>} : tensor<?x400xf32> -> !fp8.scaled<?x400xf8E4M3FN, block = [1, 400], scale = f8E8M0FNU>
  %qw = fp8.quantize %w {scale_mode = #fp8.scale_mode<pow2>} : tensor<300x400xf32> -> !fp8.scaled<300x400xf8E4M3FN, block = [1, 400], scale = f8E8M0FNU>
  %d = fp8.scaled_matmul %qx, %qw : !fp8.scaled<?x400xf8E4M3FN, block = [1, 400], scale = f8E8M0FNU>, !fp8.scaled<300x400xf8E4M3FN, block = [1, 400], scale = f8E8M0FNU> -> tensor<?x300xbf16>
  return %d : tensor<?x300xbf16>
}

func.func @grouped(%x: tensor<260x272xf32>, %w: tensor<400x272xbf16>) -> tensor<260x200xbf16> attributes {llvm.emit_c_interface} {
  %x3 = tensor.expand_shape %x [[0, 1], [2]] output_shape [2, 130, 272] : tensor<260x272xf32> into tensor<2x130x272xf32>
  %w3 = tensor.expand_shape %w [[0, 1], [2]] output_shape [2, 200, 272] : tensor<400x272xbf16> into tensor<2x200x272xbf16>
  %a = fp8.quantize %x3 {scale_mode = #fp8.scale_mode<pow2>} : tensor<2x130x272xf32> -> !fp8.scaled<2x130x272xf8E4M3FN, block = [1, 1, 128], scale = f8E8M0FNU>
  %b = fp8.quantize %w3 {scale_mode = #fp8.scale_mode<pow2>} : tensor<2x200x272xbf16> -> !fp8.scaled<2x200x272xf8E4M3FN, block = [1, 128, 128], scale = f8E8M0FNU>
  %d = fp8.grouped_scaled_matmul masked %a, %b : !fp8.scaled<2x130x272xf8E4M3FN, block = [1, 1, 128], scale = f8E8M0FNU>, !fp8.scaled<2x200x272xf8E4M3FN, block = [1, 128, 128], scale = f8E8M0FNU> -> tensor<2x130x200xbf16>
  %d2 = tensor.collapse_shape %d [[0, 1], [2]] : tensor<2x130x200xbf16> into tensor<260x200xbf16>
  return %d2 : tensor<260x200xbf16>
}

func.func @rq_e8m0(%x: tensor<272x300xf32>) -> tensor<300x272xf32> attributes {llvm.emit_c_interface} {
  %a = fp8.quantize %x {scale_mode = #fp8.scale_mode<pow2>} : tensor<272x300xf32> -> !fp8.scaled<272x300xf8E4M3FN, block = [1, 128], scale = f8E8M0FNU>
  %t = fp8.requantize %a {permutation = array<i64: 1, 0>, scale_mode = #fp8.scale_mode<pow2>} : !fp8.scaled<272x300xf8E4M3FN, block = [1, 128], scale = f8E8M0FNU> -> !fp8.scaled<300x272xf8E4M3FN, block = [1, 128], scale = f8E8M0FNU>
  %d = fp8.dequantize %t : !fp8.scaled<300x272xf8E4M3FN, block = [1, 128], scale = f8E8M0FNU> -> tensor<300x272xf32>
  return %d : tensor<300x272xf32>
}

func.func @rq_to_e8m0(%x: tensor<130x200xbf16>) -> tensor<200x130xf32> attributes {llvm.emit_c_interface} {
  %a = fp8.quantize %x : tensor<130x200xbf16> -> !fp8.scaled<130x200xf8E5M2, block = [1, 128], scale = f32>
  %t = fp8.requantize %a {permutation = array<i64: 1, 0>, scale_mode = #fp8.scale_mode<pow2>} : !fp8.scaled<130x200xf8E5M2, block = [1, 128], scale = f32> -> !fp8.scaled<200x130xf8E5M2, block = [1, 128], scale = f8E8M0FNU>
  %d = fp8.dequantize %t : !fp8.scaled<200x130xf8E5M2, block = [1, 128], scale = f8E8M0FNU> -> tensor<200x130xf32>
  return %d : tensor<200x130xf32>
}

func.func @rq_from_e8m0(%x: tensor<384x256xf32>) -> tensor<256x384xf32> attributes {llvm.emit_c_interface} {
  %a = fp8.quantize %x {scale_mode = #fp8.scale_mode<pow2>} : tensor<384x256xf32> -> !fp8.scaled<384x256xf8E4M3FN, block = [1, 128], scale = f8E8M0FNU>
  %t = fp8.requantize %a {permutation = array<i64: 1, 0>} : !fp8.scaled<384x256xf8E4M3FN, block = [1, 128], scale = f8E8M0FNU> -> !fp8.scaled<256x384xf8E4M3FN, block = [1, 128], scale = f32>
  %d = fp8.dequantize %t : !fp8.scaled<256x384xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<256x384xf32>
  return %d : tensor<256x384xf32>
}
