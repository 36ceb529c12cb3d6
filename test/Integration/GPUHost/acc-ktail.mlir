// The accumulator operand C and K = 136 through the compiled host program
// (fp8-gpu-pipeline{host=llvm target=emulator}, emulated mgpu* runtime),
// bit-exact against fp8-cpu-pipeline: x [M, 136] f32 and a weight [200, 136]
// bf16 quantized by the quantize kernels, C [M, 200] f32 added by the GEMM
// (acc starts at C), bf16 out; M = 130 and 1 at run time. The launcher pads
// the codes' rows to 144 with zero codes (TMA global strides are multiples
// of 16 bytes); C is uploaded and passed as the kernel's last parameter.
//
// REQUIRES: clang
// RUN: %clang -O1 %S/Inputs/host_check.c -o %t.check -ldl
// RUN: fp8-opt %s --fp8-gpu-pipeline="config=fixed chip=sm_90a host=llvm target=emulator" | mlir-translate --mlir-to-llvmir -o %t.gpu.ll
// RUN: %clang %t.gpu.ll -o %t.gpu.so %emu_host_link
// RUN: fp8-opt %s --fp8-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.cpu.ll
// RUN: %clang %t.cpu.ll -o %t.cpu.so %cpu_host_link
// RUN: env FP8_EMU_TRACE=1 %t.check %t.gpu.so %t.cpu.so linear_acc 5 bf16:130x200 f32:130x136 bf16:200x136 f32:130x200 2>&1 | FileCheck %s
// RUN: %t.check %t.gpu.so %t.cpu.so linear_acc 6 bf16:1x200 f32:1x136 bf16:200x136 f32:1x200 | FileCheck %s --check-prefix=M1
// The same with BLOCK_M 64 x BLOCK_N 256 tiles (two consumers splitting the
// columns; the launcher reads the configuration from the kernel name):
// grid ceil(130/64) x ceil(200/256) = 3, 384 threads.
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=llvm target=emulator block-m=64 block-n=256" | mlir-translate --mlir-to-llvmir -o %t.n256.ll
// RUN: %clang %t.n256.ll -o %t.n256.so %emu_host_link
// RUN: env FP8_EMU_TRACE=1 %t.check %t.n256.so %t.cpu.so linear_acc 7 bf16:130x200 f32:130x136 bf16:200x136 f32:130x200 2>&1 | FileCheck %s --check-prefix=N256

// CHECK: launch fp8_quantize_dynx136_1x128_f32_e4m3 grid 33 block 256 smem 0 params 4
// CHECK: launch fp8_quantize_200x136_128x128_bf16_e4m3 grid 4 block 256 smem 0 params 4
// CHECK: launch fp8_scaled_matmul_dynx200x136_e4m3_e4m3_bf16_accf32 grid 4 block 384 smem {{[0-9]+}} params 7
// CHECK: host-check: PASS linear_acc: 130x200, 26000 outputs bit-exact (26000 non-zero)
// M1: host-check: PASS linear_acc: 1x200, 200 outputs bit-exact
// N256: launch fp8_scaled_matmul_dynx200x136_e4m3_e4m3_bf16_accf32_t64x256s5c2 grid 3 block 384 smem {{[0-9]+}} params 7
// N256: host-check: PASS linear_acc: 130x200, 26000 outputs bit-exact (26000 non-zero)

func.func @linear_acc(%x: tensor<?x136xf32>, %w: tensor<200x136xbf16>, %c: tensor<?x200xf32>) -> tensor<?x200xbf16> attributes {llvm.emit_c_interface} {
  %a = fp8.quantize %x : tensor<?x136xf32> -> !fp8.scaled<?x136xf8E4M3FN, block = [1, 128], scale = f32>
  %b = fp8.quantize %w : tensor<200x136xbf16> -> !fp8.scaled<200x136xf8E4M3FN, block = [128, 128], scale = f32>
  %d = fp8.scaled_matmul %a, %b acc(%c : tensor<?x200xf32>) : !fp8.scaled<?x136xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<200x136xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<?x200xbf16>
  return %d : tensor<?x200xbf16>
}
