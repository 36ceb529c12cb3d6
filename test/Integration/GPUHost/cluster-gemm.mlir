// The GEMM kernel in clusters of 2 CTAs sharing the B tile by TMA multicast
// (cluster=2, `..._cl2`): the CTAs of a cluster compute vertically adjacent
// tiles (cluster tile (mt', nt) is tile (2 mt' + rank, nt)), each producer
// loads its rank's BLOCK_N / 2 rows of the B tile into the same ring slot of
// both CTAs (ctaMask 0b11), the empty barriers count both CTAs' consumer
// warps (the peer's by a remote arrive through mapa), and the CTAs sync as
// a cluster after the barrier init and before exit. Compiled with
// fp8-gpu-pipeline{host=llvm target=emulator}, the CTAs of a cluster run
// interleaved on the emulator, bit-exact against fp8-cpu-pipeline under
// three scheduler seeds:
// - @linear: M = 600 (5 tile rows of 128: the third cluster tile's rank 1
//   computes rows 640..767, past M: zero fill, nothing stored), N = 300,
//   K = 400, on 4 and 5 emulated SMs (2 clusters, each running several
//   cluster tiles, the ring wrapping) and 132 (9 clusters, one cluster
//   tile each);
// - @grouped_order: the same with group-m = 2 (groups of 2 rows of
//   cluster tiles);
// - @dyn: a run-time M of 1, 130 and 600.
// Grids by hand: ceil(600 / 256) * ceil(300 / 128) = 3 * 3 = 9 cluster
// tiles; min(9, floor(SMs / 2)) clusters of 2 CTAs: 4 CTAs on 4 and 5 SMs,
// 18 on 132.
//
// REQUIRES: clang
// RUN: %clang -O1 %S/Inputs/host_check.c -o %t.check -ldl
// RUN: fp8-opt %s --fp8-pipeline="policy=deepseek-v3 report=false" --fp8-gpu-pipeline="config=fixed cluster=2 chip=sm_90a host=llvm target=emulator" 2> %t.remarks | mlir-translate --mlir-to-llvmir -o %t.gpu.ll
// RUN: FileCheck %s --check-prefix=REMARKS --allow-empty < %t.remarks
// RUN: %clang %t.gpu.ll -o %t.gpu.so %emu_host_link
// RUN: fp8-opt %s --fp8-pipeline="policy=deepseek-v3 report=false" --fp8-gpu-pipeline="config=fixed cluster=2 group-m=2 chip=sm_90a host=llvm target=emulator" | mlir-translate --mlir-to-llvmir -o %t.g2.ll
// RUN: %clang %t.g2.ll -o %t.g2.so %emu_host_link
// RUN: fp8-opt %s --fp8-pipeline="policy=deepseek-v3 report=false" --fp8-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.cpu.ll
// RUN: %clang %t.cpu.ll -o %t.cpu.so %cpu_host_link
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SM_COUNT=4 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so linear 1 bf16:600x300 f32:600x400 f32:300x400 2>&1 | FileCheck %s --check-prefix=SM4
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SM_COUNT=5 FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so linear 2 bf16:600x300 f32:600x400 f32:300x400 2>&1 | FileCheck %s --check-prefix=SM4
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so linear 3 bf16:600x300 f32:600x400 f32:300x400 2>&1 | FileCheck %s --check-prefix=SM132
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SM_COUNT=4 FP8_EMU_SEED=4 %t.check %t.g2.so %t.cpu.so linear 4 bf16:600x300 f32:600x400 f32:300x400 2>&1 | FileCheck %s --check-prefix=G2
// RUN: env FP8_EMU_SM_COUNT=4 FP8_EMU_SEED=5 %t.check %t.gpu.so %t.cpu.so dyn 5 bf16:600x300 f32:600x400 f32:300x400 | FileCheck %s --check-prefix=DYN600
// RUN: env FP8_EMU_SM_COUNT=4 FP8_EMU_SEED=6 %t.check %t.gpu.so %t.cpu.so dyn 6 bf16:130x300 f32:130x400 f32:300x400 | FileCheck %s --check-prefix=DYN130
// RUN: env FP8_EMU_SM_COUNT=4 FP8_EMU_SEED=7 %t.check %t.gpu.so %t.cpu.so dyn 7 bf16:1x300 f32:1x400 f32:300x400 | FileCheck %s --check-prefix=DYN1
// The comparison can fail: the same graph's CPU program with the sm90
// accumulation model.
// RUN: fp8-opt %s --fp8-pipeline="policy=deepseek-v3 report=false" --fp8-cpu-pipeline="accumulator=sm90" | mlir-translate --mlir-to-llvmir -o %t.sm90.ll
// RUN: %clang %t.sm90.ll -o %t.sm90.so %cpu_host_link
// RUN: not %t.check %t.gpu.so %t.sm90.so linear 1 bf16:600x300 f32:600x400 f32:300x400 2>&1 | FileCheck %s --check-prefix=DIFF

// REMARKS-NOT: no GPU
// REMARKS-NOT: error

// SM4: launch fp8_scaled_matmul_600x300x400_e4m3_e4m3_bf16_t128x128s6cl2 grid 4 block 384 smem {{[0-9]+}} params 6 cluster 2
// SM4: host-check: PASS linear: 600x300, 180000 outputs bit-exact
// SM132: launch fp8_scaled_matmul_600x300x400_e4m3_e4m3_bf16_t128x128s6cl2 grid 18 block 384 smem {{[0-9]+}} params 6 cluster 2
// SM132: host-check: PASS linear: 600x300, 180000 outputs bit-exact
// G2: launch fp8_scaled_matmul_600x300x400_e4m3_e4m3_bf16_t128x128s6g2cl2 grid 4 block 384 smem {{[0-9]+}} params 6 cluster 2
// G2: host-check: PASS linear: 600x300, 180000 outputs bit-exact
// DYN600: host-check: PASS dyn: 600x300, 180000 outputs bit-exact
// DYN130: host-check: PASS dyn: 130x300, 39000 outputs bit-exact
// DYN1: host-check: PASS dyn: 1x300, 300 outputs bit-exact
// DIFF: host-check: FAIL linear: {{[0-9]+}} of 180000 outputs differ

func.func @linear(%x: tensor<600x400xf32>, %w: tensor<300x400xf32>) -> tensor<600x300xbf16> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<600x300xbf16>
  %z = linalg.fill ins(%zero : bf16) outs(%e : tensor<600x300xbf16>) -> tensor<600x300xbf16>
  %y = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : tensor<600x400xf32>, tensor<300x400xf32>) outs(%z : tensor<600x300xbf16>) -> tensor<600x300xbf16>
  return %y : tensor<600x300xbf16>
}

func.func @dyn(%x: tensor<?x400xf32>, %w: tensor<300x400xf32>) -> tensor<?x300xbf16> attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x400xf32>
  %zero = arith.constant 0.0 : bf16
  %e = tensor.empty(%m) : tensor<?x300xbf16>
  %z = linalg.fill ins(%zero : bf16) outs(%e : tensor<?x300xbf16>) -> tensor<?x300xbf16>
  %y = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : tensor<?x400xf32>, tensor<300x400xf32>) outs(%z : tensor<?x300xbf16>) -> tensor<?x300xbf16>
  return %y : tensor<?x300xbf16>
}
