// Attention scores and linalg.softmax (the named op) through
// fp8-gpu-pipeline{host=llvm target=emulator}, bit-exact against the same
// graph through fp8-cpu-pipeline (the reference lowering) on two scheduler
// seeds: fp8-normalize-forms decomposes the softmax in fp8-pipeline, so both
// programs compute its exp with fp8-expand-math's; the q and k projections
// are FP8 GEMM kernels (Integration/CPU/named-softmax.mlir has hand-derived
// values). The weights are scaled by 2^-6 so the softmax does not saturate.
//
// REQUIRES: clang
// RUN: %clang -O1 %S/Inputs/host_check.c -o %t.check -ldl
// RUN: fp8-opt %s --fp8-pipeline="report=false" --fp8-gpu-pipeline="config=fixed chip=sm_90a host=llvm target=emulator" | mlir-translate --mlir-to-llvmir -o %t.gpu.ll
// RUN: %clang %t.gpu.ll -o %t.gpu.so %emu_host_link
// RUN: fp8-opt %s --fp8-pipeline="report=false" --fp8-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.cpu.ll
// RUN: %clang %t.cpu.ll -o %t.cpu.so %cpu_host_link
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so attention 1 f32:128x128 f32:128x256 f32:256x256/6 f32:256x256/6 2>&1 | FileCheck %s
// RUN: env FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so attention 2 f32:128x128 f32:128x256 f32:256x256/6 f32:256x256/6 2>&1 | FileCheck %s --check-prefix=PASS

// CHECK: fp8-emu-mgpu: launch fp8_scaled_matmul_128x256x256
// CHECK: host-check: PASS attention: 128x128, 16384 outputs bit-exact
// PASS: host-check: PASS attention: 128x128, 16384 outputs bit-exact

func.func @attention(%x: tensor<128x256xf32>, %wq: tensor<256x256xf32>, %wk: tensor<256x256xf32>) -> tensor<128x128xf32> attributes {llvm.emit_c_interface} {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x256xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>
  %q = linalg.matmul ins(%x, %wq : tensor<128x256xf32>, tensor<256x256xf32>) outs(%f : tensor<128x256xf32>) -> tensor<128x256xf32>
  %k = linalg.matmul ins(%x, %wk : tensor<128x256xf32>, tensor<256x256xf32>) outs(%f : tensor<128x256xf32>) -> tensor<128x256xf32>
  %es = tensor.empty() : tensor<128x128xf32>
  %fs = linalg.fill ins(%z : f32) outs(%es : tensor<128x128xf32>) -> tensor<128x128xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<128x256xf32>, tensor<128x256xf32>) outs(%fs : tensor<128x128xf32>) -> tensor<128x128xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<128x128xf32>) outs(%es : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %p : tensor<128x128xf32>
}
