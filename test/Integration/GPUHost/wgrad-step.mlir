// One linear's training step (forward and backward in one function, the
// form aot_autograd exports: Y = X W^T, dX = dY W, dW = dY^T X; DeepSeek-V3
// §3.3) as the compiled host program on the emulated mgpu* runtime, its
// three results bit-exact against the same graph through fp8-cpu-pipeline
// (the reference lowering). The Wgrad GEMM (dW, a: dY^T and b: X^T, both
// in [1, 128] tiles along the 272 tokens) runs on the kernel with
// per-column B scales (`_b1x128`); the two fp8.requantize ops that produce
// its operands (dequantize, transpose, quantize along the tokens) run on the
// transpose-requantize kernel (no op stays on the host), so dW is exact only
// if their codes and scales are the CPU lowering's.
// Tails everywhere: 272 tokens (the Wgrad's K: two 128-blocks and a 16-wide
// one), 300 outputs (M), 400 inputs (N).
//
// REQUIRES: clang
// RUN: %clang -O1 %S/Inputs/host_check.c -o %t.check -ldl
// RUN: fp8-opt %s --fp8-pipeline=report=false --fp8-gpu-pipeline="chip=sm_90a host=llvm target=emulator" 2> %t.remarks | mlir-translate --mlir-to-llvmir -o %t.gpu.ll
// RUN: FileCheck %s --check-prefix=REMARK --allow-empty < %t.remarks
// RUN: %clang %t.gpu.ll -o %t.gpu.so %emu_host_link
// RUN: fp8-opt %s --fp8-pipeline=report=false --fp8-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.cpu.ll
// RUN: %clang %t.cpu.ll -o %t.cpu.so %cpu_host_link
// RUN: env FP8_EMU_TRACE=1 %t.check %t.gpu.so %t.cpu.so joint 1 f32:272x300,f32:272x400,f32:300x400 f32:272x400 f32:300x400 f32:272x300 2>&1 | FileCheck %s
// RUN: %t.check %t.gpu.so %t.cpu.so joint 2 f32:272x300,f32:272x400,f32:300x400 f32:272x400 f32:300x400 f32:272x300 | FileCheck %s --check-prefix=SEED2
// A fixed configuration (128x128 tiles: the B-scale rows padded to 512
// columns) and a narrow one (BLOCK_N 48, tiles straddling 128 columns).
// RUN: fp8-opt %s --fp8-pipeline=report=false --fp8-gpu-pipeline="config=fixed chip=sm_90a host=llvm target=emulator" 2>/dev/null | mlir-translate --mlir-to-llvmir -o %t.fixed.ll
// RUN: %clang %t.fixed.ll -o %t.fixed.so %emu_host_link
// RUN: env FP8_EMU_TRACE=1 %t.check %t.fixed.so %t.cpu.so joint 3 f32:272x300,f32:272x400,f32:300x400 f32:272x400 f32:300x400 f32:272x300 2>&1 | FileCheck %s --check-prefix=FIXED
// RUN: fp8-opt %s --fp8-pipeline=report=false --fp8-gpu-pipeline="block-n=48 stages=3 chip=sm_90a host=llvm target=emulator" 2>/dev/null | mlir-translate --mlir-to-llvmir -o %t.n48.ll
// RUN: %clang %t.n48.ll -o %t.n48.so %emu_host_link
// RUN: %t.check %t.n48.so %t.cpu.so joint 4 f32:272x300,f32:272x400,f32:300x400 f32:272x400 f32:300x400 f32:272x300 | FileCheck %s --check-prefix=SEED4
// The comparison can fail: the CPU pipeline with Hopper's accumulation model
// rounds differently from the exact k-order sum.
// RUN: fp8-opt %s --fp8-pipeline=report=false --fp8-cpu-pipeline=accumulator=sm90 | mlir-translate --mlir-to-llvmir -o %t.sm90.ll
// RUN: %clang %t.sm90.ll -o %t.sm90.so %cpu_host_link
// RUN: not %t.check %t.gpu.so %t.sm90.so joint 1 f32:272x300,f32:272x400,f32:300x400 f32:272x400 f32:300x400 f32:272x300 2>&1 | FileCheck %s --check-prefix=DIFF

// REMARK-NOT: stays on the host
// REMARK-NOT: error

// The requantize grids by hand: a warp per 1x128 tile, 8 per CTA; dY^T
// [300, 272]: 300 * 3 tiles -> 113 CTAs; X^T [400, 272]: 400 * 3 -> 150.
// CHECK-DAG: fp8-emu-mgpu: launch fp8_requantize_t_300x272_1x128_e4m3_e4m3 grid 113 block 256 smem 0 params 5
// CHECK-DAG: fp8-emu-mgpu: launch fp8_requantize_t_400x272_1x128_e4m3_e4m3 grid 150 block 256 smem 0 params 5

// CHECK-DAG: fp8-emu-mgpu: launch fp8_scaled_matmul_300x400x272_e4m3_e4m3_f32_b1x128{{(_t[0-9]+x[0-9]+s[0-9]+(c[0-9])?(g[0-9]+)?)?}} grid {{[0-9]+}} block {{[0-9]+}} smem {{[0-9]+}} params 6
// CHECK-DAG: host-check: PASS joint#0: 272x300, 81600 outputs bit-exact (81600 non-zero)
// CHECK-DAG: host-check: PASS joint#1: 272x400, 108800 outputs bit-exact (108800 non-zero)
// CHECK-DAG: host-check: PASS joint#2: 300x400, 120000 outputs bit-exact (120000 non-zero)
// SEED2: host-check: PASS joint#2: 300x400, 120000 outputs bit-exact
// By hand (config=fixed: 128 x 128 tiles): grid ceil(300/128) *
// ceil(400/128) = 3 * 4 = 12 tiles, 384 threads (two consumers and the
// producer); stages floor((227 KiB - 1 KiB) / (128*128 + 128*128 + 4*128))
// = floor(231424 / 33280) = 6, shared memory 6 * 33280 + 1024 = 200704.
// FIXED: fp8-emu-mgpu: launch fp8_scaled_matmul_300x400x272_e4m3_e4m3_f32_b1x128 grid 12 block 384 smem 200704 params 6
// FIXED: host-check: PASS joint#2: 300x400, 120000 outputs bit-exact
// SEED4: host-check: PASS joint#2: 300x400, 120000 outputs bit-exact
// DIFF: host-check: FAIL joint#2: {{[0-9]+}} of 120000 outputs differ

func.func @joint(%x: tensor<272x400xf32>, %w: tensor<300x400xf32>, %dy: tensor<272x300xf32>) -> (tensor<272x300xf32>, tensor<272x400xf32>, tensor<300x400xf32>) attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<400x300xf32>
  %wt = linalg.transpose ins(%w : tensor<300x400xf32>) outs(%e0 : tensor<400x300xf32>) permutation = [1, 0]
  %e1 = tensor.empty() : tensor<272x300xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<272x300xf32>) -> tensor<272x300xf32>
  %y = linalg.matmul ins(%x, %wt : tensor<272x400xf32>, tensor<400x300xf32>) outs(%f1 : tensor<272x300xf32>) -> tensor<272x300xf32>
  %e2 = tensor.empty() : tensor<272x400xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<272x400xf32>) -> tensor<272x400xf32>
  %dx = linalg.matmul ins(%dy, %w : tensor<272x300xf32>, tensor<300x400xf32>) outs(%f2 : tensor<272x400xf32>) -> tensor<272x400xf32>
  %e3 = tensor.empty() : tensor<300x272xf32>
  %dyt = linalg.transpose ins(%dy : tensor<272x300xf32>) outs(%e3 : tensor<300x272xf32>) permutation = [1, 0]
  %e4 = tensor.empty() : tensor<300x400xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<300x400xf32>) -> tensor<300x400xf32>
  %dw = linalg.matmul ins(%dyt, %x : tensor<300x272xf32>, tensor<272x400xf32>) outs(%f4 : tensor<300x400xf32>) -> tensor<300x400xf32>
  return %y, %dx, %dw : tensor<272x300xf32>, tensor<272x400xf32>, tensor<300x400xf32>
}
