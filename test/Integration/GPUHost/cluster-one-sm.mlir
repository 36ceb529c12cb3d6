// The GEMM kernel in clusters of 2 CTAs on fewer SMs than a cluster has
// CTAs: the persistent grid is min(cluster tiles, max(SMs / 2, 1)) whole
// clusters, at least one. With SMs / 2 alone, sm-count=1 (compiled in) or
// a device reporting 1 SM (FP8_EMU_SM_COUNT=1, also the runtime query's
// fallback) gave a grid of 0 CTAs: the launch is rejected (CUDA too:
// CUDA_ERROR_INVALID_VALUE) and the result is never written. Here one
// cluster (grid 2) computes both cluster tiles (by hand: ceil(200 / 256) = 1
// cluster row, ceil(200 / 128) = 2 tile columns), bit-exact against
// fp8-cpu-pipeline.
//
// REQUIRES: clang
// RUN: %clang -O1 %S/Inputs/host_check.c -o %t.check -ldl
// RUN: fp8-opt %s --fp8-pipeline="policy=deepseek-v3 report=false" --fp8-gpu-pipeline="config=fixed cluster=2 chip=sm_90a host=llvm target=emulator" | mlir-translate --mlir-to-llvmir -o %t.gpu.ll
// RUN: %clang %t.gpu.ll -o %t.gpu.so %emu_host_link
// RUN: fp8-opt %s --fp8-pipeline="policy=deepseek-v3 report=false" --fp8-gpu-pipeline="config=fixed cluster=2 sm-count=1 chip=sm_90a host=llvm target=emulator" | mlir-translate --mlir-to-llvmir -o %t.sm1.ll
// RUN: %clang %t.sm1.ll -o %t.sm1.so %emu_host_link
// RUN: fp8-opt %s --fp8-pipeline="policy=deepseek-v3 report=false" --fp8-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.cpu.ll
// RUN: %clang %t.cpu.ll -o %t.cpu.so %cpu_host_link
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SM_COUNT=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so linear 1 bf16:200x200 f32:200x256 f32:200x256 2>&1 | FileCheck %s
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=2 %t.check %t.sm1.so %t.cpu.so linear 2 bf16:200x200 f32:200x256 f32:200x256 2>&1 | FileCheck %s

// CHECK: launch fp8_scaled_matmul_200x200x256_e4m3_e4m3_bf16_t128x128s{{[0-9]+}}cl2 grid 2 block 384 smem {{[0-9]+}} params 6 cluster 2
// CHECK: host-check: PASS linear: 200x200, 40000 outputs bit-exact

func.func @linear(%x: tensor<200x256xf32>, %w: tensor<200x256xf32>) -> tensor<200x200xbf16> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<200x200xbf16>
  %z = linalg.fill ins(%zero : bf16) outs(%e : tensor<200x200xbf16>) -> tensor<200x200xbf16>
  %y = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : tensor<200x256xf32>, tensor<200x256xf32>) outs(%z : tensor<200x200xbf16>) -> tensor<200x200xbf16>
  return %y : tensor<200x200xbf16>
}
