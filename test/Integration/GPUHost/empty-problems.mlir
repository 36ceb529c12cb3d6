// Empty problems through the compiled host program
// (fp8-gpu-pipeline{host=llvm target=emulator}, emulated mgpu* runtime),
// against fp8-cpu-pipeline and against values derived by hand:
// - a dynamic M of 0 at run time: the launchers of the quantize kernel and
//   the GEMM return before any device work (a grid of 0 CTAs and a tensor
//   map over an empty extent are invalid in CUDA; the emulated runtime
//   stops the process on either), so only the weight's quantize kernel
//   runs and the result is 0 x N;
// - K = 0 (static): no FP8 kernel; the result is C, bit for bit, or +0.0
//   (that +0.0 is a linalg.fill: a host kernel, docs/gpu-kernel.md "Host
//   kernels").
//
// REQUIRES: clang
// RUN: %clang -O1 %S/Inputs/host_check.c -o %t.check -ldl
// RUN: fp8-opt %s --fp8-gpu-pipeline="config=fixed chip=sm_90a host=llvm target=emulator" 2>/dev/null | mlir-translate --mlir-to-llvmir -o %t.gpu.ll
// RUN: %clang %t.gpu.ll -o %t.gpu.so %emu_host_link
// RUN: fp8-opt %s --fp8-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.cpu.ll
// RUN: %clang %t.cpu.ll -o %t.cpu.so %cpu_host_link
// RUN: env FP8_EMU_TRACE=1 %t.check %t.gpu.so %t.cpu.so linear_acc 1 bf16:0x200 f32:0x136 bf16:200x136 f32:0x200 2>&1 | FileCheck %s --check-prefix=M0
// RUN: env FP8_EMU_TRACE=1 %t.check %t.gpu.so %t.cpu.so linear_acc 2 bf16:3x200 f32:3x136 bf16:200x136 f32:3x200 2>&1 | FileCheck %s --check-prefix=M3
// RUN: env FP8_EMU_TRACE=1 %t.check %t.gpu.so %t.cpu.so k0_acc 3 f32:5x40=in3 f32:5x0 f32:40x0 f32:5x40 2>&1 | FileCheck %s --check-prefix=K0ACC
// RUN: env FP8_EMU_TRACE=1 %t.check %t.gpu.so %t.cpu.so k0_acc 4 f32:0x40=in3 f32:0x0 f32:40x0 f32:0x40 2>&1 | FileCheck %s --check-prefix=K0M0
// RUN: env FP8_EMU_TRACE=1 %t.check %t.gpu.so %t.cpu.so k0 5 bf16:7x40=zero f32:7x0 f32:40x0 2>&1 | FileCheck %s --check-prefix=K0
// The expectations can fail: C is not +0.0.
// RUN: not %t.check %t.gpu.so %t.cpu.so k0_acc 3 f32:5x40=zero f32:5x0 f32:40x0 f32:5x40 2>&1 | FileCheck %s --check-prefix=NOTZERO

// Only the weight's quantize kernel runs (its grid: ceil(200/128) x
// ceil(136/128) = 2 x 2 blocks, one per CTA).
// M0-NOT: launch fp8_quantize_dyn
// M0-NOT: launch fp8_scaled_matmul
// M0: launch fp8_quantize_200x136_128x128_bf16_e4m3 grid 4 block 256
// M0-NOT: launch fp8_quantize_dyn
// M0-NOT: launch fp8_scaled_matmul
// M0: host-check: PASS linear_acc: 0x200, 0 outputs bit-exact
// The same program with rows launches both (1 quantize CTA for 3 x 2
// blocks of 1x128, 2 GEMM tiles of 128 x 128 over N = 200).
// M3: launch fp8_quantize_dynx136_1x128_f32_e4m3 grid 1 block 256
// M3: launch fp8_scaled_matmul_dynx200x136_e4m3_e4m3_bf16_accf32 grid 2 block 384
// M3: host-check: PASS linear_acc: 3x200, 600 outputs bit-exact (600 non-zero)

// K0ACC-NOT: launch
// K0ACC: host-check: PASS k0_acc: 5x40, 200 outputs bit-exact (200 non-zero)
// K0ACC: host-check: k0_acc tested: the bits of input 3
// K0ACC: host-check: k0_acc oracle: the bits of input 3
// K0M0-NOT: launch
// K0M0: host-check: PASS k0_acc: 0x40, 0 outputs bit-exact
// K0-NOT: launch fp8_
// K0: launch k0_fill grid 2 block 256
// K0-NOT: launch fp8_
// K0: host-check: PASS k0: 7x40, 280 outputs bit-exact (0 non-zero)
// K0: host-check: k0 tested: every element +0.0
// K0: host-check: k0 oracle: every element +0.0
// NOTZERO: host-check: FAIL k0_acc: tested [0, 0] is 0x{{[0-9a-f]+}}, expected 0x00000000

func.func @linear_acc(%x: tensor<?x136xf32>, %w: tensor<200x136xbf16>, %c: tensor<?x200xf32>) -> tensor<?x200xbf16> attributes {llvm.emit_c_interface} {
  %a = fp8.quantize %x : tensor<?x136xf32> -> !fp8.scaled<?x136xf8E4M3FN, block = [1, 128], scale = f32>
  %b = fp8.quantize %w : tensor<200x136xbf16> -> !fp8.scaled<200x136xf8E4M3FN, block = [128, 128], scale = f32>
  %d = fp8.scaled_matmul %a, %b acc(%c : tensor<?x200xf32>) : !fp8.scaled<?x136xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<200x136xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<?x200xbf16>
  return %d : tensor<?x200xbf16>
}

func.func @k0_acc(%x: tensor<?x0xf32>, %w: tensor<40x0xf32>, %c: tensor<?x40xf32>) -> tensor<?x40xf32> attributes {llvm.emit_c_interface} {
  %a = fp8.quantize %x : tensor<?x0xf32> -> !fp8.scaled<?x0xf8E4M3FN, block = [1, 128], scale = f32>
  %b = fp8.quantize %w : tensor<40x0xf32> -> !fp8.scaled<40x0xf8E4M3FN, block = [128, 128], scale = f32>
  %d = fp8.scaled_matmul %a, %b acc(%c : tensor<?x40xf32>) : !fp8.scaled<?x0xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<40x0xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<?x40xf32>
  return %d : tensor<?x40xf32>
}

func.func @k0(%x: tensor<7x0xf32>, %w: tensor<40x0xf32>) -> tensor<7x40xbf16> attributes {llvm.emit_c_interface} {
  %a = fp8.quantize %x : tensor<7x0xf32> -> !fp8.scaled<7x0xf8E4M3FN, block = [1, 128], scale = f32>
  %b = fp8.quantize %w : tensor<40x0xf32> -> !fp8.scaled<40x0xf8E4M3FN, block = [128, 128], scale = f32>
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<7x0xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<40x0xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<7x40xbf16>
  return %d : tensor<7x40xbf16>
}
