// linalg.softmax (the named op) handed straight to the lowering pipelines,
// without fp8-pipeline: fp8-decompose-softmax, first in both, decomposes it
// (it stayed a linalg.softmax on memrefs in the "lowered" module before), so
// fp8-gpu-pipeline{host=llvm target=emulator} computes the same bits as
// fp8-cpu-pipeline, two scheduler seeds, rows of 200 (not a multiple of the
// row kernels' lanes). The decomposition's row max is arith.maximumf, so
// the whole softmax is one fused row kernel (one warp per row: 64 rows, 8
// CTAs of 8 warps); with upstream's arith.maxnumf the max was one thread
// per row and the rest launches of their own.
//
// REQUIRES: clang
// RUN: %clang -O1 %S/Inputs/host_check.c -o %t.check -ldl
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=llvm target=emulator" | mlir-translate --mlir-to-llvmir -o %t.gpu.ll
// RUN: %clang %t.gpu.ll -o %t.gpu.so %emu_host_link
// RUN: fp8-opt %s --fp8-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.cpu.ll
// RUN: %clang %t.cpu.ll -o %t.cpu.so %cpu_host_link
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so softmax 1 f32:64x200 f32:64x200/4 2>&1 | FileCheck %s --check-prefixes=CHECK,TRACE
// RUN: env FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so softmax 2 f32:64x200 f32:64x200/4 2>&1 | FileCheck %s
// RUN: fp8-opt %s --fp8-cpu-pipeline | FileCheck %s --check-prefix=LOWERED

// TRACE-NOT: launch softmax_
// TRACE: launch softmax_row_max_fused{{.*}} grid 8 block 256
// TRACE-NOT: launch softmax_
// CHECK: host-check: PASS softmax: 64x200, 12800 outputs bit-exact
// LOWERED-NOT: linalg.softmax
// LOWERED: llvm.func @softmax

func.func @softmax(%x: tensor<64x200xf32>) -> tensor<64x200xf32> attributes {llvm.emit_c_interface} {
  %e = tensor.empty() : tensor<64x200xf32>
  %p = linalg.softmax dimension(1) ins(%x : tensor<64x200xf32>) outs(%e : tensor<64x200xf32>) -> tensor<64x200xf32>
  return %p : tensor<64x200xf32>
}
