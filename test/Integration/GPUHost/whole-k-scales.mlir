// The whole-K-scales GEMM kernel (scale_k = k: one scale per row of A and
// per column of the output along the whole K; the rowwise and per-tensor
// presets) in the compiled host program on the emulated mgpu* runtime,
// bit-exact against the same functions through fp8-cpu-pipeline (the
// reference lowering) under three scheduler seeds (FP8_EMU_SEED). The
// rowwise quantize ops run on the rowwise quantize kernel (a warp per row),
// the per-tensor ones on the per-tensor kernel (two launches: the amax, a
// global atomic max, then the scale and codes).
// host_check gives each input row its own magnitude 2^e and about one
// element in 97 an outlier, so the rows' scales differ: a scale of another
// row, column or K block, or a per-tensor scale not broadcast, is a
// mismatch.
//   rowwise: [1, K] blocks (pow2 scales), a run-time M (1, 65, 200),
//     N = 300 (N tail), K = 400 (3 K blocks and a 16-wide one);
//   pertensor: [M, K] and [N, K] blocks, M = 200, K = 1000 (8 K blocks,
//     K % 16 = 8: the host pads the codes' rows);
//   mixed: rowwise A in e5m2, per-tensor B, an f32 accumulator C, f32
//     result, a run-time M.
//
// REQUIRES: clang
// RUN: %clang -O1 %S/Inputs/host_check.c -o %t.check -ldl
// RUN: fp8-opt %s --fp8-gpu-pipeline="config=fixed chip=sm_90a host=llvm target=emulator" 2> %t.remarks | mlir-translate --mlir-to-llvmir -o %t.gpu.ll
// RUN: FileCheck %s --check-prefix=REMARKS --allow-empty < %t.remarks
// RUN: %clang %t.gpu.ll -o %t.gpu.so %emu_host_link
// RUN: fp8-opt %s --fp8-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.cpu.ll
// RUN: %clang %t.cpu.ll -o %t.cpu.so %cpu_host_link
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so rowwise 1 bf16:200x300 f32:200x400 f32:300x400 2>&1 | FileCheck %s --check-prefix=ROW200
// RUN: env FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so rowwise 2 bf16:65x300 f32:65x400 f32:300x400 2>&1 | FileCheck %s --check-prefix=ROW65
// RUN: env FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so rowwise 3 bf16:1x300 f32:1x400 f32:300x400 2>&1 | FileCheck %s --check-prefix=ROW1
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so pertensor 4 bf16:200x300 f32:200x1000 f32:300x1000 2>&1 | FileCheck %s --check-prefixes=TENSOR-LAUNCH,TENSOR
// RUN: env FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so pertensor 5 bf16:200x300 f32:200x1000 f32:300x1000 2>&1 | FileCheck %s --check-prefix=TENSOR
// RUN: env FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so pertensor 6 bf16:200x300 f32:200x1000 f32:300x1000 2>&1 | FileCheck %s --check-prefix=TENSOR
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so mixed 7 f32:130x520 f32:130x272 f32:520x272 f32:130x520 2>&1 | FileCheck %s --check-prefixes=MIXED-LAUNCH,MIXED
// RUN: env FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so mixed 8 f32:130x520 f32:130x272 f32:520x272 f32:130x520 2>&1 | FileCheck %s --check-prefix=MIXED
// RUN: env FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so mixed 9 f32:130x520 f32:130x272 f32:520x272 f32:130x520 2>&1 | FileCheck %s --check-prefix=MIXED

// Every GEMM and quantize op is a kernel.
// REMARKS-NOT: no GPU

// Grids by hand (BLOCK_M 128, BLOCK_N 128, 384 threads): ceil(M / 128) *
// ceil(N / 128) tiles: 2 * 3 = 6 (M = 200), 1 * 3 = 3 (M = 65, 1), 2 * 5 =
// 10 (M = 130, N = 520).
// The rowwise quantize kernels: a warp per row, 8 rows per CTA.
// ROW200: fp8-emu-mgpu: launch fp8_quantize_dynx400_1x400_f32_e4m3_pow2 grid 25 block 256
// ROW200: fp8-emu-mgpu: launch fp8_quantize_300x400_1x400_f32_e4m3_pow2 grid 38 block 256
// ROW200: fp8-emu-mgpu: launch fp8_scaled_matmul_dynx300x400_e4m3_e4m3_bf16_b1x128_sk grid 6 block 384
// ROW200: host-check: PASS rowwise: 200x300, 60000 outputs bit-exact (60000 non-zero)
// ROW65: host-check: PASS rowwise: 65x300, 19500 outputs bit-exact
// ROW1: host-check: PASS rowwise: 1x300, 300 outputs bit-exact
// The per-tensor quantize kernels, two launches each, 8 1x128 tiles per
// CTA: 200 * ceil(1000 / 128) = 1600 tiles -> 200 CTAs, 300 * 8 = 2400 ->
// 300; mixed's W: 520 * ceil(272 / 128) = 1560 -> 195.
// TENSOR-LAUNCH: fp8-emu-mgpu: launch fp8_quantize_200x1000_tensor_f32_e4m3 grid 200 block 256
// TENSOR-LAUNCH-NEXT: fp8-emu-mgpu: launch fp8_quantize_200x1000_tensor_f32_e4m3 grid 200 block 256
// TENSOR-LAUNCH-NEXT: fp8-emu-mgpu: launch fp8_quantize_300x1000_tensor_f32_e4m3 grid 300 block 256
// TENSOR-LAUNCH-NEXT: fp8-emu-mgpu: launch fp8_quantize_300x1000_tensor_f32_e4m3 grid 300 block 256
// TENSOR: host-check: PASS pertensor: 200x300, 60000 outputs bit-exact
// MIXED-LAUNCH: fp8-emu-mgpu: launch fp8_quantize_520x272_tensor_f32_e4m3 grid 195 block 256
// MIXED-LAUNCH-NEXT: fp8-emu-mgpu: launch fp8_quantize_520x272_tensor_f32_e4m3 grid 195 block 256
// MIXED: host-check: PASS mixed: 130x520, 67600 outputs bit-exact

func.func @rowwise(%x: tensor<?x400xf32>, %w: tensor<300x400xf32>) -> tensor<?x300xbf16> attributes {llvm.emit_c_interface} {
  %qx = fp8.quantize %x {scale_mode = #fp8.scale_mode<pow2>} : tensor<?x400xf32> -> !fp8.scaled<?x400xf8E4M3FN, block = [1, 400], scale = f32>
  %qw = fp8.quantize %w {scale_mode = #fp8.scale_mode<pow2>} : tensor<300x400xf32> -> !fp8.scaled<300x400xf8E4M3FN, block = [1, 400], scale = f32>
  %d = fp8.scaled_matmul %qx, %qw : !fp8.scaled<?x400xf8E4M3FN, block = [1, 400], scale = f32>, !fp8.scaled<300x400xf8E4M3FN, block = [1, 400], scale = f32> -> tensor<?x300xbf16>
  return %d : tensor<?x300xbf16>
}

func.func @pertensor(%x: tensor<200x1000xf32>, %w: tensor<300x1000xf32>) -> tensor<200x300xbf16> attributes {llvm.emit_c_interface} {
  %qx = fp8.quantize %x : tensor<200x1000xf32> -> !fp8.scaled<200x1000xf8E4M3FN, block = [200, 1000], scale = f32>
  %qw = fp8.quantize %w : tensor<300x1000xf32> -> !fp8.scaled<300x1000xf8E4M3FN, block = [300, 1000], scale = f32>
  %d = fp8.scaled_matmul %qx, %qw : !fp8.scaled<200x1000xf8E4M3FN, block = [200, 1000], scale = f32>, !fp8.scaled<300x1000xf8E4M3FN, block = [300, 1000], scale = f32> -> tensor<200x300xbf16>
  return %d : tensor<200x300xbf16>
}

func.func @mixed(%x: tensor<?x272xf32>, %w: tensor<520x272xf32>, %c: tensor<?x520xf32>) -> tensor<?x520xf32> attributes {llvm.emit_c_interface} {
  %qx = fp8.quantize %x : tensor<?x272xf32> -> !fp8.scaled<?x272xf8E5M2, block = [1, 272], scale = f32>
  %qw = fp8.quantize %w : tensor<520x272xf32> -> !fp8.scaled<520x272xf8E4M3FN, block = [520, 272], scale = f32>
  %d = fp8.scaled_matmul %qx, %qw acc(%c : tensor<?x520xf32>) : !fp8.scaled<?x272xf8E5M2, block = [1, 272], scale = f32>, !fp8.scaled<520x272xf8E4M3FN, block = [520, 272], scale = f32> -> tensor<?x520xf32>
  return %d : tensor<?x520xf32>
}
