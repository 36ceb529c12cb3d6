// A GEMM with per-column B scales (b blocks [1, 128]: the Wgrad GEMM's
// form, DeepSeek-V3's 1x128 tiles on both operands) through the compiled
// host program (fp8-gpu-pipeline{host=llvm target=emulator}, emulated mgpu*
// runtime), bit-exact against fp8-cpu-pipeline: x [M, 272] and w [200, 272]
// quantized by the quantize kernels in 1x128 tiles, bf16 out. The launcher
// transposes the B scales to [KB, Np] and zero-pads them to every column a
// tile covers (Np = 256 for BLOCK_N 128, 240 for BLOCK_N 48), the row
// stride the kernel reads with; a stride of roundUp(N, 4) = 200 reads the
// wrong K block's scales. A second host program of this kernel beside
// wgrad-step.mlir (which reaches it through a training step).
//
// REQUIRES: clang
// RUN: %clang -O1 %S/Inputs/host_check.c -o %t.check -ldl
// RUN: fp8-opt %s --fp8-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.cpu.ll
// RUN: %clang %t.cpu.ll -o %t.cpu.so %cpu_host_link
// RUN: fp8-opt %s --fp8-gpu-pipeline="config=fixed chip=sm_90a host=llvm target=emulator" | mlir-translate --mlir-to-llvmir -o %t.gpu.ll
// RUN: %clang %t.gpu.ll -o %t.gpu.so %emu_host_link
// RUN: env FP8_EMU_TRACE=1 %t.check %t.gpu.so %t.cpu.so wgrad_linear 8 bf16:130x200 f32:130x272 f32:200x272 2>&1 | FileCheck %s
// RUN: fp8-opt %s --fp8-gpu-pipeline="block-n=48 stages=3 chip=sm_90a host=llvm target=emulator" | mlir-translate --mlir-to-llvmir -o %t.n48.ll
// RUN: %clang %t.n48.ll -o %t.n48.so %emu_host_link
// RUN: env FP8_EMU_TRACE=1 %t.check %t.n48.so %t.cpu.so wgrad_linear 9 bf16:65x200 f32:65x272 f32:200x272 2>&1 | FileCheck %s --check-prefix=N48

// CHECK: launch fp8_scaled_matmul_dynx200x272_e4m3_e4m3_bf16_b1x128 grid 4 block 384
// CHECK: host-check: PASS wgrad_linear: 130x200, 26000 outputs bit-exact
// N48: launch fp8_scaled_matmul_dynx200x272_e4m3_e4m3_bf16_b1x128_t128x48s3 grid 5 block 384
// N48: host-check: PASS wgrad_linear: 65x200, 13000 outputs bit-exact

func.func @wgrad_linear(%x: tensor<?x272xf32>, %w: tensor<200x272xf32>) -> tensor<?x200xbf16> attributes {llvm.emit_c_interface} {
  %a = fp8.quantize %x : tensor<?x272xf32> -> !fp8.scaled<?x272xf8E4M3FN, block = [1, 128], scale = f32>
  %b = fp8.quantize %w : tensor<200x272xf32> -> !fp8.scaled<200x272xf8E4M3FN, block = [1, 128], scale = f32>
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<?x272xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<200x272xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<?x200xbf16>
  return %d : tensor<?x200xbf16>
}
