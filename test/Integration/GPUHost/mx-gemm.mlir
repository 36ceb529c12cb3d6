// The mxfp8 GEMM kernel (scale_k = 32, symbol `_mx32`): both operands in
// 1x32 blocks (a scale per row and 32 K; mxfp8's E8M0 scales widened to f32
// on the way), the consumers promoting after every wgmma k32 step with that
// step's scales (acc = fma(partial, sa * sb, acc), the reference's
// promotion every 32 K), the A scales TMA-loaded as a K block's four rows
// of [K / 32, roundUp(M, 4)]. Bit-exact against fp8-cpu-pipeline under
// two or three scheduler seeds: a linear under the `mxfp8` preset (K =
// 384), direct ops with f32 scales and an accumulator (K = 256), a long K
// and a K tail (K = 224).
//
// REQUIRES: clang
// RUN: %clang -O1 %S/Inputs/host_check.c -o %t.check -ldl
// RUN: fp8-opt %s --fp8-pipeline="policy=mxfp8 report=false" --fp8-gpu-pipeline="chip=sm_90a host=llvm target=emulator" 2> %t.remarks | mlir-translate --mlir-to-llvmir -o %t.gpu.ll
// RUN: FileCheck %s --check-prefix=REMARKS --allow-empty < %t.remarks
// RUN: %clang %t.gpu.ll -o %t.gpu.so %emu_host_link
// RUN: fp8-opt %s --fp8-pipeline="policy=mxfp8 report=false" --fp8-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.cpu.ll
// RUN: %clang %t.cpu.ll -o %t.cpu.so %cpu_host_link
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so linear 1 bf16:200x300 f32:200x384 f32:300x384 2>&1 | FileCheck %s --check-prefix=LINEAR
// RUN: env FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so linear 2 bf16:200x300 f32:200x384 f32:300x384 | FileCheck %s --check-prefix=LINEAR-PASS
// RUN: env FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so linear 3 bf16:200x300 f32:200x384 f32:300x384 | FileCheck %s --check-prefix=LINEAR-PASS
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so mx_acc 4 f32:130x136 f32:130x256 f32:136x256 f32:130x136 2>&1 | FileCheck %s --check-prefix=ACC
// RUN: env FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so mx_acc 5 f32:130x136 f32:130x256 f32:136x256 f32:130x136 | FileCheck %s --check-prefix=ACC-PASS
// A K of 10 blocks, more than the ring's stages: slots are refilled while
// the consumers work (a slot handed back before its last k32 step is
// overwritten under it).
// RUN: env FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so mx_long_k 6 f32:64x72 f32:64x1280 f32:72x1280 | FileCheck %s --check-prefix=LONGK
// RUN: env FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so mx_long_k 7 f32:64x72 f32:64x1280 f32:72x1280 | FileCheck %s --check-prefix=LONGK
// A K tail: K = 224 = 128 + 96, so the last K block runs three k32 steps
// and skips the fourth (which would read B-scale row 7 of 7 and promote a
// zero partial), with an f32 accumulator.
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so mx_tail 8 f32:70x72 f32:70x224 f32:72x224 f32:70x72 2>&1 | FileCheck %s --check-prefix=TAIL
// RUN: env FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so mx_tail 9 f32:70x72 f32:70x224 f32:72x224 f32:70x72 | FileCheck %s --check-prefix=TAIL-PASS
// The comparison can fail: the same graph's DeepSeek-V3 form (a promotion
// every 128 K) on the CPU.
// RUN: fp8-opt %s --fp8-pipeline="policy=deepseek-v3 report=false" --fp8-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.dsv3.ll
// RUN: %clang %t.dsv3.ll -o %t.dsv3.so %cpu_host_link
// RUN: not %t.check %t.gpu.so %t.dsv3.so linear 1 bf16:200x300 f32:200x384 f32:300x384 2>&1 | FileCheck %s --check-prefix=DIFF

// REMARKS-NOT: no GPU
// REMARKS-NOT: error

// MX quantize kernels (a warp per 1x32 block, 8 per CTA: 200 * 12 / 8 =
// 300 and 300 * 12 / 8 = 450 CTAs), the A scales [12, 200] and B scales
// [12, Np] transposed and widened from E8M0 on the device, the mxfp8 GEMM.
// LINEAR: launch fp8_quantize_200x384_1x32_f32_e4m3_pow2_ue8m0 grid 300 block 256
// LINEAR: launch fp8_quantize_300x384_1x32_f32_e4m3_pow2_ue8m0 grid 450 block 256
// LINEAR: launch fp8_transpose_b8_e8m0f32
// LINEAR: launch fp8_transpose_b8_e8m0f32
// LINEAR: launch fp8_scaled_matmul_200x300x384_e4m3_e4m3_bf16_b1x128_mx32
// LINEAR: host-check: PASS linear: 200x300, 60000 outputs bit-exact
// LINEAR-PASS: host-check: PASS linear: 200x300, 60000 outputs bit-exact
// ACC: launch fp8_scaled_matmul_130x136x256_e4m3_e4m3_f32_accf32_b1x128_mx32
// ACC: host-check: PASS mx_acc: 130x136, 17680 outputs bit-exact
// ACC-PASS: host-check: PASS mx_acc: 130x136, 17680 outputs bit-exact
// LONGK: host-check: PASS mx_long_k: 64x72, 4608 outputs bit-exact
// TAIL: launch fp8_scaled_matmul_70x72x224_e4m3_e4m3_f32_accf32_b1x128_mx32
// TAIL: host-check: PASS mx_tail: 70x72, 5040 outputs bit-exact
// TAIL-PASS: host-check: PASS mx_tail: 70x72, 5040 outputs bit-exact
// DIFF: host-check: FAIL linear: {{[0-9]+}} of 60000 outputs differ

func.func @linear(%x: tensor<200x384xf32>, %w: tensor<300x384xf32>) -> tensor<200x300xbf16> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<200x300xbf16>
  %z = linalg.fill ins(%zero : bf16) outs(%e : tensor<200x300xbf16>) -> tensor<200x300xbf16>
  %y = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : tensor<200x384xf32>, tensor<300x384xf32>) outs(%z : tensor<200x300xbf16>) -> tensor<200x300xbf16>
  return %y : tensor<200x300xbf16>
}

func.func @mx_acc(%x: tensor<130x256xf32>, %w: tensor<136x256xf32>, %c: tensor<130x136xf32>) -> tensor<130x136xf32> attributes {llvm.emit_c_interface} {
  %a = fp8.quantize %x : tensor<130x256xf32> -> !fp8.scaled<130x256xf8E4M3FN, block = [1, 32], scale = f32>
  %b = fp8.quantize %w : tensor<136x256xf32> -> !fp8.scaled<136x256xf8E4M3FN, block = [1, 32], scale = f32>
  %d = fp8.scaled_matmul %a, %b acc(%c : tensor<130x136xf32>) {promote_interval = 32 : i64} : !fp8.scaled<130x256xf8E4M3FN, block = [1, 32], scale = f32>,
    !fp8.scaled<136x256xf8E4M3FN, block = [1, 32], scale = f32> -> tensor<130x136xf32>
  return %d : tensor<130x136xf32>
}

func.func @mx_long_k(%x: tensor<64x1280xf32>, %w: tensor<72x1280xf32>) -> tensor<64x72xf32> attributes {llvm.emit_c_interface} {
  %a = fp8.quantize %x : tensor<64x1280xf32> -> !fp8.scaled<64x1280xf8E4M3FN, block = [1, 32], scale = f32>
  %b = fp8.quantize %w : tensor<72x1280xf32> -> !fp8.scaled<72x1280xf8E4M3FN, block = [1, 32], scale = f32>
  %d = fp8.scaled_matmul %a, %b {promote_interval = 32 : i64} : !fp8.scaled<64x1280xf8E4M3FN, block = [1, 32], scale = f32>,
    !fp8.scaled<72x1280xf8E4M3FN, block = [1, 32], scale = f32> -> tensor<64x72xf32>
  return %d : tensor<64x72xf32>
}

func.func @mx_tail(%x: tensor<70x224xf32>, %w: tensor<72x224xf32>, %c: tensor<70x72xf32>) -> tensor<70x72xf32> attributes {llvm.emit_c_interface} {
  %a = fp8.quantize %x : tensor<70x224xf32> -> !fp8.scaled<70x224xf8E4M3FN, block = [1, 32], scale = f32>
  %b = fp8.quantize %w : tensor<72x224xf32> -> !fp8.scaled<72x224xf8E4M3FN, block = [1, 32], scale = f32>
  %d = fp8.scaled_matmul %a, %b acc(%c : tensor<70x72xf32>) {promote_interval = 32 : i64} : !fp8.scaled<70x224xf8E4M3FN, block = [1, 32], scale = f32>,
    !fp8.scaled<72x224xf8E4M3FN, block = [1, 32], scale = f32> -> tensor<70x72xf32>
  return %d : tensor<70x72xf32>
}
