// target=emulator: the gpu.binary holds the kernels' gpu.module as MLIR text
// (a `bin` object, loaded with mgpuModuleLoad(text, size)); the host code is
// the same as for PTX. The extracted text parses on its own.
// RUN: fp8-opt %s --fp8-gpu-pipeline="config=fixed chip=sm_90a target=emulator" -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: fp8-translate --fp8-extract-gpu-object %t.mlir -o %t.kernels.mlir
// RUN: fp8-opt %t.kernels.mlir | FileCheck %s --check-prefix=TEXT
// RUN: fp8-opt %s --fp8-gpu-pipeline="config=fixed chip=sm_90a target=emulator host=llvm" | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=LOAD

// CHECK: gpu.binary @fp8_kernels  [#gpu.object<#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80">, bin = "gpu.module @fp8_kernels
// CHECK-NOT: gpu.module
// CHECK: gpu.launch_func async [%{{.*}}] @fp8_kernels::@fp8_scaled_matmul_64x256x384_e4m3_e4m3_bf16

// TEXT: gpu.module @fp8_kernels [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80">]
// TEXT: llvm.func @fp8_scaled_matmul_64x256x384_e4m3_e4m3_bf16(
// TEXT-SAME: gpu.kernel, nvvm.kernel
// TEXT: wgmma.mma_async

// LOAD-DAG: call ptr @mgpuModuleLoad(ptr @fp8_kernels_binary, i64 {{[0-9]+}})
// LOAD-DAG: call void @mgpuLaunchKernel(

func.func @gemm(%a: !fp8.scaled<64x384xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<256x384xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<64x256xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<64x384xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<256x384xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<64x256xbf16>
  return %d : tensor<64x256xbf16>
}
