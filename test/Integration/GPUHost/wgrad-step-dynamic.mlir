// One linear's training step over a run-time token count (issue 28 item
// 4): wgrad-step.mlir's graph with a dynamic batch, through fp8-pipeline
// and the compiled host program (fp8-gpu-pipeline{host=llvm
// target=emulator}) on the emulated mgpu* runtime. All three GEMMs run as
// kernels: Fprop and Dgrad take M at run time (`dynx`), the Wgrad takes K
// at run time (`xdyn`, dynamic-k-wgrad.mlir); the results are bit-exact
// against fp8-cpu-pipeline for 272, 256, 1 and 0 tokens (0: Y and dX empty,
// dW +0.0 with no GEMM launched). The two requantize ops (a run-time token
// count) stay on the host.
//
// REQUIRES: clang
// RUN: %clang -O1 %S/Inputs/host_check.c -o %t.check -ldl
// RUN: fp8-opt %s --fp8-pipeline=report=false --fp8-gpu-pipeline="chip=sm_90a host=llvm target=emulator" 2> %t.remarks | mlir-translate --mlir-to-llvmir -o %t.gpu.ll
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %clang %t.gpu.ll -o %t.gpu.so %emu_host_link
// RUN: fp8-opt %s --fp8-pipeline=report=false --fp8-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.cpu.ll
// RUN: %clang %t.cpu.ll -o %t.cpu.so %cpu_host_link
// RUN: env FP8_EMU_TRACE=1 %t.check %t.gpu.so %t.cpu.so joint 1 f32:272x300,f32:272x400,f32:300x400 f32:272x400 f32:300x400 f32:272x300 2>&1 | FileCheck %s
// RUN: env FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so joint 2 f32:256x300,f32:256x400,f32:300x400 f32:256x400 f32:300x400 f32:256x300 | FileCheck %s --check-prefix=T256
// RUN: env FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so joint 3 f32:1x300,f32:1x400,f32:300x400 f32:1x400 f32:300x400 f32:1x300 | FileCheck %s --check-prefix=T1
// RUN: env FP8_EMU_TRACE=1 %t.check %t.gpu.so %t.cpu.so joint 4 f32:0x300,f32:0x400,f32:300x400=zero f32:0x400 f32:300x400 f32:0x300 2>&1 | FileCheck %s --check-prefix=T0
// RUN: fp8-opt %s --fp8-pipeline=report=false --fp8-gpu-pipeline="config=fixed chip=sm_90a host=llvm target=emulator" 2>/dev/null | mlir-translate --mlir-to-llvmir -o %t.fixed.ll
// RUN: %clang %t.fixed.ll -o %t.fixed.so %emu_host_link
// RUN: env FP8_EMU_SEED=4 %t.check %t.fixed.so %t.cpu.so joint 5 f32:272x300,f32:272x400,f32:300x400 f32:272x400 f32:300x400 f32:272x300 | FileCheck %s --check-prefix=T272

// REMARK-COUNT-2: no GPU requantize kernel (needs a static rank-2 input
// REMARK-NOT: no GPU GEMM kernel
// REMARK-NOT: left in high precision

// CHECK-DAG: fp8-emu-mgpu: launch fp8_scaled_matmul_dynx300x400_e4m3_e4m3_f32 grid {{[0-9]+}} block 384 smem {{[0-9]+}} params 6
// CHECK-DAG: fp8-emu-mgpu: launch fp8_scaled_matmul_dynx400x300_e4m3_e4m3_f32 grid {{[0-9]+}} block 384 smem {{[0-9]+}} params 6
// CHECK-DAG: fp8-emu-mgpu: launch fp8_scaled_matmul_300x400xdyn_e4m3_e4m3_f32_b1x128{{(_t[0-9]+x[0-9]+s[0-9]+(c[0-9])?(g[0-9]+)?)?}} grid {{[0-9]+}} block {{[0-9]+}} smem {{[0-9]+}} params 7
// CHECK-DAG: host-check: PASS joint#0: 272x300, 81600 outputs bit-exact (81600 non-zero)
// CHECK-DAG: host-check: PASS joint#1: 272x400, 108800 outputs bit-exact (108800 non-zero)
// CHECK-DAG: host-check: PASS joint#2: 300x400, 120000 outputs bit-exact (120000 non-zero)
// T256: host-check: PASS joint#2: 300x400, 120000 outputs bit-exact
// T1: host-check: PASS joint#0: 1x300, 300 outputs bit-exact
// T1: host-check: PASS joint#2: 300x400, 120000 outputs bit-exact
// T0-NOT: launch fp8_scaled_matmul
// T0: host-check: PASS joint#0: 0x300, 0 outputs bit-exact
// T0: host-check: PASS joint#1: 0x400, 0 outputs bit-exact
// T0: host-check: PASS joint#2: 300x400, 120000 outputs bit-exact (0 non-zero)
// T0: host-check: joint#2 tested: every element +0.0
// T272: host-check: PASS joint#2: 300x400, 120000 outputs bit-exact

func.func @joint(%x: tensor<?x400xf32>, %w: tensor<300x400xf32>, %dy: tensor<?x300xf32>) -> (tensor<?x300xf32>, tensor<?x400xf32>, tensor<300x400xf32>) attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %t = tensor.dim %x, %c0 : tensor<?x400xf32>
  %e0 = tensor.empty() : tensor<400x300xf32>
  %wt = linalg.transpose ins(%w : tensor<300x400xf32>) outs(%e0 : tensor<400x300xf32>) permutation = [1, 0]
  %e1 = tensor.empty(%t) : tensor<?x300xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<?x300xf32>) -> tensor<?x300xf32>
  %y = linalg.matmul ins(%x, %wt : tensor<?x400xf32>, tensor<400x300xf32>) outs(%f1 : tensor<?x300xf32>) -> tensor<?x300xf32>
  %e2 = tensor.empty(%t) : tensor<?x400xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<?x400xf32>) -> tensor<?x400xf32>
  %dx = linalg.matmul ins(%dy, %w : tensor<?x300xf32>, tensor<300x400xf32>) outs(%f2 : tensor<?x400xf32>) -> tensor<?x400xf32>
  %e3 = tensor.empty(%t) : tensor<300x?xf32>
  %dyt = linalg.transpose ins(%dy : tensor<?x300xf32>) outs(%e3 : tensor<300x?xf32>) permutation = [1, 0]
  %e4 = tensor.empty() : tensor<300x400xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<300x400xf32>) -> tensor<300x400xf32>
  %dw = linalg.matmul ins(%dyt, %x : tensor<300x?xf32>, tensor<?x400xf32>) outs(%f4 : tensor<300x400xf32>) -> tensor<300x400xf32>
  return %y, %dx, %dw : tensor<?x300xf32>, tensor<?x400xf32>, tensor<300x400xf32>
}
