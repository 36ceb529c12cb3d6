// E8M0 (UE8M0, f8E8M0FNU: power-of-two) scales, as DeepSeek-V3.1-style
// checkpoints ship them, for the GEMM kernels: the launcher widens each
// scale to f32 (2^(code - 127), the contract's createF32FromE8M0: exact)
// and the kernel runs as with f32 scales, so the compiled host program on
// the emulated mgpu* runtime is bit-exact against the same functions
// through fp8-cpu-pipeline (the reference lowering), under three scheduler
// seeds (FP8_EMU_SEED). The E8M0 quantize ops of 1x128 and 128x128 blocks
// run on the quantize kernel, which stores each scale as one byte (the
// biased exponent of the pow2 scale); rowwise ([1, K]) ones stay on the
// host. host_check gives each input row its own magnitude
// 2^e, so the blocks' scales differ: a scale code taken as a value, or the
// wrong block's, is a mismatch.
//   dsv3: DeepSeek-V3 blocks ([1, 128] activations, [128, 128] weights),
//     run-time M (200, 65), N = 300, K = 400 (tails);
//   wgrad: [1, 128] blocks on both (the per-column B-scale kernel), e5m2 A;
//   rowwise: [1, K] E8M0 blocks (the whole-K-scales kernel, scale_k = k).
//
// REQUIRES: clang
// RUN: %clang -O1 %S/Inputs/host_check.c -o %t.check -ldl
// RUN: fp8-opt %s --fp8-gpu-pipeline="config=fixed chip=sm_90a host=llvm target=emulator" 2> %t.remarks | mlir-translate --mlir-to-llvmir -o %t.gpu.ll
// RUN: FileCheck %s --check-prefix=REMARKS < %t.remarks
// RUN: %clang %t.gpu.ll -o %t.gpu.so %emu_host_link
// RUN: fp8-opt %s --fp8-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.cpu.ll
// RUN: %clang %t.cpu.ll -o %t.cpu.so %cpu_host_link
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so dsv3 1 bf16:200x300 f32:200x400 f32:300x400 2>&1 | FileCheck %s --check-prefix=DSV3
// RUN: env FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so dsv3 2 bf16:65x300 f32:65x400 f32:300x400 2>&1 | FileCheck %s --check-prefix=DSV3-65
// RUN: env FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so dsv3 3 bf16:200x300 f32:200x400 f32:300x400 2>&1 | FileCheck %s --check-prefix=DSV3-200
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so wgrad 4 f32:200x300 f32:200x400 f32:300x400 2>&1 | FileCheck %s --check-prefix=WGRAD
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so wgrad 5 f32:200x300 f32:200x400 f32:300x400 2>&1 | FileCheck %s --check-prefix=WGRAD
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so rowwise 6 bf16:130x300 f32:130x400 f32:300x400 2>&1 | FileCheck %s --check-prefix=ROW
// RUN: env FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so rowwise 7 bf16:130x300 f32:130x400 f32:300x400 2>&1 | FileCheck %s --check-prefix=ROW

// Every GEMM and every 1x128 / 128x128 quantize is a kernel; only the
// rowwise quantize ops stay on the host.
// REMARKS-NOT: no GPU
// REMARKS-COUNT-2: no GPU quantize kernel (implements blocks [1, 128] and [128, 128], got [1, 400])
// REMARKS-NOT: no GPU

// DSV3: fp8-emu-mgpu: launch fp8_quantize_dynx400_1x128_f32_e4m3{{.*}}_ue8m0 grid 100 block 256
// DSV3: fp8-emu-mgpu: launch fp8_quantize_300x400_128x128_f32_e4m3{{.*}}_ue8m0 grid 12 block 256
// DSV3: fp8-emu-mgpu: launch fp8_scaled_matmul_dynx300x400_e4m3_e4m3_bf16 grid 6 block 384
// DSV3: host-check: PASS dsv3: 200x300, 60000 outputs bit-exact (60000 non-zero)
// DSV3-65: host-check: PASS dsv3: 65x300, 19500 outputs bit-exact
// DSV3-200: host-check: PASS dsv3: 200x300, 60000 outputs bit-exact
// WGRAD: fp8-emu-mgpu: launch fp8_quantize_200x400_1x128_f32_e5m2{{.*}}_ue8m0 grid 100 block 256
// WGRAD: fp8-emu-mgpu: launch fp8_quantize_300x400_1x128_f32_e4m3{{.*}}_ue8m0 grid 150 block 256
// WGRAD: fp8-emu-mgpu: launch fp8_scaled_matmul_200x300x400_e5m2_e4m3_f32_b1x128 grid 6 block 384
// WGRAD: host-check: PASS wgrad: 200x300, 60000 outputs bit-exact
// ROW: host-check: PASS rowwise: 130x300, 39000 outputs bit-exact

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
