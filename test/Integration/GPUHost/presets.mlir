// A linear under each preset through fp8-gpu-pipeline{host=llvm
// target=emulator}, bit-exact against the same graph through
// fp8-cpu-pipeline (the reference lowering), on three scheduler seeds
// (FP8_EMU_SEED) each: the compiled host program runs the ops a kernel
// implements on the emulated device: under every preset, its quantize ops
// and its GEMM. M = 200, N = 300, K = 400: M, N and K tails for every block
// size.
//
// REQUIRES: clang
// RUN: %clang -O1 %S/Inputs/host_check.c -o %t.check -ldl
// RUN: fp8-opt %s --fp8-pipeline="policy=per-tensor report=false" --fp8-gpu-pipeline="config=fixed chip=sm_90a host=llvm target=emulator" 2> %t.tensor.remarks | mlir-translate --mlir-to-llvmir -o %t.tensor.gpu.ll
// RUN: FileCheck %s --check-prefix=TENSOR-REMARKS --allow-empty < %t.tensor.remarks
// RUN: %clang %t.tensor.gpu.ll -o %t.tensor.gpu.so %emu_host_link
// RUN: fp8-opt %s --fp8-pipeline="policy=per-tensor report=false" --fp8-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.tensor.cpu.ll
// RUN: %clang %t.tensor.cpu.ll -o %t.tensor.cpu.so %cpu_host_link
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.tensor.gpu.so %t.tensor.cpu.so linear 1 bf16:200x300 f32:200x400 f32:300x400 2>&1 | FileCheck %s --check-prefix=TENSOR
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=2 %t.check %t.tensor.gpu.so %t.tensor.cpu.so linear 2 bf16:200x300 f32:200x400 f32:300x400 2>&1 | FileCheck %s --check-prefix=TENSOR
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=3 %t.check %t.tensor.gpu.so %t.tensor.cpu.so linear 3 bf16:200x300 f32:200x400 f32:300x400 2>&1 | FileCheck %s --check-prefix=TENSOR
// RUN: fp8-opt %s --fp8-pipeline="policy=rowwise report=false" --fp8-gpu-pipeline="config=fixed chip=sm_90a host=llvm target=emulator" 2> %t.row.remarks | mlir-translate --mlir-to-llvmir -o %t.row.gpu.ll
// RUN: FileCheck %s --check-prefix=ROW-REMARKS --allow-empty < %t.row.remarks
// RUN: %clang %t.row.gpu.ll -o %t.row.gpu.so %emu_host_link
// RUN: fp8-opt %s --fp8-pipeline="policy=rowwise report=false" --fp8-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.row.cpu.ll
// RUN: %clang %t.row.cpu.ll -o %t.row.cpu.so %cpu_host_link
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.row.gpu.so %t.row.cpu.so linear 4 bf16:200x300 f32:200x400 f32:300x400 2>&1 | FileCheck %s --check-prefix=ROW
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=2 %t.check %t.row.gpu.so %t.row.cpu.so linear 5 bf16:200x300 f32:200x400 f32:300x400 2>&1 | FileCheck %s --check-prefix=ROW
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=3 %t.check %t.row.gpu.so %t.row.cpu.so linear 6 bf16:200x300 f32:200x400 f32:300x400 2>&1 | FileCheck %s --check-prefix=ROW
// RUN: fp8-opt %s --fp8-pipeline="policy=mxfp8 report=false" --fp8-gpu-pipeline="config=fixed chip=sm_90a host=llvm target=emulator" 2> %t.mx.remarks | mlir-translate --mlir-to-llvmir -o %t.mx.gpu.ll
// RUN: FileCheck %s --check-prefix=MX-REMARKS --allow-empty < %t.mx.remarks
// RUN: %clang %t.mx.gpu.ll -o %t.mx.gpu.so %emu_host_link
// RUN: fp8-opt %s --fp8-pipeline="policy=mxfp8 report=false" --fp8-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.mx.cpu.ll
// RUN: %clang %t.mx.cpu.ll -o %t.mx.cpu.so %cpu_host_link
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.mx.gpu.so %t.mx.cpu.so linear 7 bf16:200x300 f32:200x400 f32:300x400 2>&1 | FileCheck %s --check-prefix=MX
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=2 %t.check %t.mx.gpu.so %t.mx.cpu.so linear 8 bf16:200x300 f32:200x400 f32:300x400 2>&1 | FileCheck %s --check-prefix=MX
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=3 %t.check %t.mx.gpu.so %t.mx.cpu.so linear 9 bf16:200x300 f32:200x400 f32:300x400 2>&1 | FileCheck %s --check-prefix=MX
// The comparison can fail: deepseek-v3's GPU program (1x128 and 128x128
// blocks) against the per-tensor CPU program.
// RUN: fp8-opt %s --fp8-pipeline="policy=deepseek-v3 report=false" --fp8-gpu-pipeline="config=fixed chip=sm_90a host=llvm target=emulator" | mlir-translate --mlir-to-llvmir -o %t.dsv3.gpu.ll
// RUN: %clang %t.dsv3.gpu.ll -o %t.dsv3.gpu.so %emu_host_link
// RUN: not %t.check %t.dsv3.gpu.so %t.tensor.cpu.so linear 1 bf16:200x300 f32:200x400 f32:300x400 2>&1 | FileCheck %s --check-prefix=DIFF

// per-tensor: the quantize ops on the per-tensor kernel, launched twice
// each (the amax pass, then the scale and codes), its warps on 1x128 tiles,
// 8 per CTA: 200 * ceil(400 / 128) = 800 tiles -> 100 CTAs, 300 * 4 = 1200
// -> 150.
// TENSOR-REMARKS-NOT: no GPU
// TENSOR-REMARKS-NOT: error
// TENSOR: fp8-emu-mgpu: launch fp8_quantize_200x400_tensor_f32_e4m3 grid 100 block 256 smem 0 params 6
// TENSOR-NEXT: fp8-emu-mgpu: launch fp8_quantize_200x400_tensor_f32_e4m3 grid 100 block 256 smem 0 params 6
// TENSOR-NEXT: fp8-emu-mgpu: launch fp8_quantize_300x400_tensor_f32_e4m3 grid 150 block 256 smem 0 params 6
// TENSOR-NEXT: fp8-emu-mgpu: launch fp8_quantize_300x400_tensor_f32_e4m3 grid 150 block 256 smem 0 params 6
// TENSOR: fp8-emu-mgpu: launch fp8_scaled_matmul_200x300x400_e4m3_e4m3_bf16_b1x128_sk grid 6 block 384
// TENSOR: host-check: PASS linear: 200x300, 60000 outputs bit-exact

// rowwise: the quantize ops on the rowwise kernel too (a warp per row, 8
// rows per CTA: 200 / 8 = 25 and ceil(300 / 8) = 38 CTAs).
// ROW-REMARKS-NOT: no GPU
// ROW-REMARKS-NOT: error
// ROW: fp8-emu-mgpu: launch fp8_quantize_200x400_1x400_f32_e4m3_pow2 grid 25 block 256
// ROW: fp8-emu-mgpu: launch fp8_quantize_300x400_1x400_f32_e4m3_pow2 grid 38 block 256
// ROW: fp8-emu-mgpu: launch fp8_scaled_matmul_200x300x400_e4m3_e4m3_bf16_b1x128_sk grid 6 block 384
// ROW: host-check: PASS linear: 200x300, 60000 outputs bit-exact

// mxfp8: the quantize ops on the MX kernel (a warp per 1x32 block, 8 per
// CTA: 200 * ceil(400 / 32) = 2600 blocks -> 325 CTAs, 300 * 13 = 3900 ->
// 488), the scales transposed and widened from E8M0 on the device (A's
// [200, 13] -> [13, 200]:
// 2600 elements, 256 per CTA -> 11 CTAs; B's [300, 13] -> [13, 5 * 64]:
// 4160 -> 17), the mxfp8 GEMM (promotion every 32 K) with the fixed
// 128 x 64 tile: 2 * 5 = 10 CTAs; K = 400 = 3 * 128 + 16, so its last K
// block runs one k32 step (the other three skipped, not promoted as zeros).
// Its 8 stages of 16384 + 8192 + 4 * 128 * 4 bytes and 1024 bytes of
// barriers: 214016 bytes of shared memory.
// MX-REMARKS-NOT: no GPU
// MX-REMARKS-NOT: error
// MX: fp8-emu-mgpu: launch fp8_quantize_200x400_1x32_f32_e4m3_pow2_ue8m0 grid 325 block 256
// MX-NEXT: fp8-emu-mgpu: launch fp8_quantize_300x400_1x32_f32_e4m3_pow2_ue8m0 grid 488 block 256
// MX-NEXT: fp8-emu-mgpu: launch fp8_transpose_b8_e8m0f32 grid 11 block 256
// MX-NEXT: fp8-emu-mgpu: launch fp8_transpose_b8_e8m0f32 grid 17 block 256
// MX-NEXT: fp8-emu-mgpu: launch fp8_scaled_matmul_200x300x400_e4m3_e4m3_bf16_b1x128_mx32_t128x64s8 grid 10 block 384 smem 214016
// MX-NOT: fp8-emu-mgpu: launch
// MX: host-check: PASS linear: 200x300, 60000 outputs bit-exact

// DIFF: host-check: FAIL linear: {{[0-9]+}} of 60000 outputs differ

func.func @linear(%x: tensor<200x400xf32>, %w: tensor<300x400xf32>) -> tensor<200x300xbf16> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<200x300xbf16>
  %z = linalg.fill ins(%zero : bf16) outs(%e : tensor<200x300xbf16>) -> tensor<200x300xbf16>
  %y = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : tensor<200x400xf32>, tensor<300x400xf32>) outs(%z : tensor<200x300xbf16>) -> tensor<200x300xbf16>
  return %y : tensor<200x300xbf16>
}
