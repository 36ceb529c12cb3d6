// Both pipelines' host lowering expands the transcendental math ops
// (fp8-expand-math, before bufferization): what fp8-cpu-pipeline and
// fp8-gpu-pipeline{host=llvm} produce for softmax-, SiLU- and RMSNorm-like
// host code calls no libm function and no LLVM exp/log intrinsic (each
// would give the target's own bits), only llvm.intr.fma and sqrt.
// RUN: fp8-opt %s --fp8-cpu-pipeline | FileCheck %s --implicit-check-not=math. --implicit-check-not=llvm.intr.exp --implicit-check-not=llvm.intr.log --implicit-check-not=expf --implicit-check-not=logf --implicit-check-not=tanhf
// The GPU pipeline's host lowering without host kernels (with them, these
// ops are kernels: test/Integration/GPUHost/host-kernels.mlir).
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=llvm host-kernels=false" | FileCheck %s --implicit-check-not=math. --implicit-check-not=llvm.intr.exp --implicit-check-not=llvm.intr.log --implicit-check-not=expf --implicit-check-not=logf --implicit-check-not=tanhf

// CHECK-LABEL: llvm.func @high_precision(
// CHECK: llvm.intr.fma
// CHECK: llvm.intr.sqrt
// CHECK: llvm.return
func.func @high_precision(%x: tensor<4xf32>, %b: tensor<4xbf16>)
    -> (tensor<4xf32>, tensor<4xf32>, tensor<4xbf16>) {
  %e = math.exp %x : tensor<4xf32>
  %l = math.log %e : tensor<4xf32>
  %t = math.tanh %l : tensor<4xf32>
  %r = math.rsqrt %t : tensor<4xf32>
  %eb = math.exp %b : tensor<4xbf16>
  return %l, %r, %eb : tensor<4xf32>, tensor<4xf32>, tensor<4xbf16>
}
