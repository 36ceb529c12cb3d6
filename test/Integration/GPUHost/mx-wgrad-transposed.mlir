// A weight gradient under the `mxfp8` preset whose operands are stored
// with the tokens first (dW [M, N] = X^T dY, X [K, M] and dY [K, N]: a
// linalg.matmul with the maps (k, m), (k, n)): fp8-pipeline quantizes X
// and dY along the tokens in [32, 1] blocks (E8M0 scales, on the host: no
// GPU kernel quantizes [32, 1] blocks, remarked) and transposes codes and
// scales into the GEMM's K-major [1, 32] form. fp8-launch-kernels moves
// those transposes to the device; the E8M0 scales stay E8M0 there (the
// GEMM's operand preparation widens them to f32 itself). Before, the
// graph's transpose of the scales came back as f32 and the fp8.assemble
// reading it failed to verify ("scales type 'tensor<136x8xf32>' differs").
// Bit-exact against fp8-cpu-pipeline under two scheduler seeds, with a
// K tail (K = 272 = 8 x 32 + 16) and M, N tails of the 128 x 128 tile.
//
// REQUIRES: clang
// RUN: %clang -O1 %S/Inputs/host_check.c -o %t.check -ldl
// RUN: fp8-opt %s --fp8-pipeline="policy=mxfp8 report=false" --fp8-gpu-pipeline="chip=sm_90a host=llvm target=emulator" 2> %t.remarks | mlir-translate --mlir-to-llvmir -o %t.gpu.ll
// RUN: FileCheck %s --check-prefix=REMARKS < %t.remarks
// RUN: %clang %t.gpu.ll -o %t.gpu.so %emu_host_link
// RUN: fp8-opt %s --fp8-pipeline="policy=mxfp8 report=false" --fp8-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.cpu.ll
// RUN: %clang %t.cpu.ll -o %t.cpu.so %cpu_host_link
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so wgrad 1 f32:136x200 f32:272x136 f32:272x200 2>&1 | FileCheck %s
// RUN: env FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so wgrad 2 f32:136x200 f32:272x136 f32:272x200 | FileCheck %s --check-prefix=PASS

// REMARKS: no GPU quantize kernel {{.*}} got [32, 1]
// REMARKS-NOT: error

// The graph's four transposes (codes and E8M0 scales of X and dY) move 8
// bits (no `e8m0f32` widening); then the GEMM's operand preparation
// transposes and widens the two scales to f32.
// CHECK-COUNT-4: launch fp8_transpose_b8 grid
// CHECK-COUNT-2: launch fp8_transpose_b8_e8m0f32 grid
// CHECK: launch fp8_scaled_matmul_136x200x272_e4m3_e4m3_f32_{{.*}}mx32
// CHECK: host-check: PASS wgrad: 136x200, 27200 outputs bit-exact
// PASS: host-check: PASS wgrad: 136x200, 27200 outputs bit-exact

func.func @wgrad(%xt: tensor<272x136xf32>, %dy: tensor<272x200xf32>) -> tensor<136x200xf32> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<136x200xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<136x200xf32>) -> tensor<136x200xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%xt, %dy : tensor<272x136xf32>, tensor<272x200xf32>) outs(%z : tensor<136x200xf32>) -> tensor<136x200xf32>
  return %r : tensor<136x200xf32>
}
