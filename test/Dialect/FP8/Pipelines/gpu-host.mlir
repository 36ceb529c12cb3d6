// A model graph through fp8-pipeline and fp8-gpu-pipeline: the host function
// launches the quantize and GEMM kernels (host=launch, the default); with
// host=llvm it is lowered to the LLVM dialect with a C interface, translates
// to LLVM IR and links into a shared library that exports the
// _mlir_ciface_ entry and needs only the mgpu* runtime ABI (and libc).
// REQUIRES: clang
// RUN: fp8-opt %s --fp8-pipeline="report=false" --fp8-gpu-pipeline="config=fixed chip=sm_90a" | FileCheck %s
// RUN: fp8-opt %s --fp8-pipeline="report=false" --fp8-gpu-pipeline="config=fixed chip=sm_90a host=llvm" -o %t.llvm.mlir
// RUN: FileCheck %s --check-prefix=LLVM < %t.llvm.mlir
// RUN: mlir-translate --mlir-to-llvmir %t.llvm.mlir -o %t.ll
// RUN: %clang -Wno-override-module -shared -fPIC %t.ll -o %t.so
// RUN: llvm-nm -D --defined-only %t.so | FileCheck %s --check-prefix=EXPORTS
// RUN: llvm-nm -D --undefined-only %t.so | FileCheck %s --check-prefix=IMPORTS
// RUN: not fp8-opt %s --fp8-gpu-pipeline="config=fixed host=cpu" 2>&1 | FileCheck %s --check-prefix=BADHOST
// RUN: not fp8-opt %s --fp8-gpu-pipeline="config=fixed target=sass" 2>&1 | FileCheck %s --check-prefix=BADTARGET

// CHECK-LABEL: func.func @forward(
// CHECK: call @fp8_launch_fp8_quantize_200x384_1x128_f32_e4m3(
// CHECK: call @fp8_launch_fp8_quantize_256x384_128x128_f32_e4m3(
// CHECK: call @fp8_launch_fp8_scaled_matmul_200x256x384_e4m3_e4m3_f32(
// CHECK-NOT: fp8.scaled_matmul
// CHECK: gpu.binary @fp8_kernels
// CHECK: func.func private @fp8_launch_fp8_quantize_200x384_1x128_f32_e4m3(
// CHECK: gpu.launch_func async
// CHECK: func.func private @fp8_launch_fp8_scaled_matmul_200x256x384_e4m3_e4m3_f32(
// CHECK-COUNT-3: nvgpu.tma.create.descriptor
// CHECK: gpu.launch_func async [%{{.*}}] @fp8_kernels::@fp8_scaled_matmul_200x256x384_e4m3_e4m3_f32

// LLVM: llvm.func @forward(
// LLVM: llvm.func @_mlir_ciface_forward(
// LLVM: gpu.binary @fp8_kernels
// LLVM: llvm.func internal @fp8_launch_fp8_scaled_matmul_200x256x384_e4m3_e4m3_f32(
// LLVM-COUNT-3: llvm.call @mgpuTensorMapEncodeTiledMemref(
// LLVM: gpu.launch_func <%{{.*}} : !llvm.ptr> @fp8_kernels::@fp8_scaled_matmul_200x256x384_e4m3_e4m3_f32 {{.*}} args(%{{.*}} : !llvm.ptr, %{{.*}} : !llvm.ptr, %{{.*}} : !llvm.ptr, %{{.*}} : !llvm.ptr, %{{.*}} : !llvm.ptr, %{{.*}} : i32)
// LLVM-NOT: builtin.unrealized_conversion_cast
// LLVM-NOT: memref.

// EXPORTS: T _mlir_ciface_forward
// EXPORTS: T forward
// IMPORTS-NOT: mlir
// IMPORTS: mgpuLaunchKernel
// IMPORTS: mgpuMemAlloc
// IMPORTS: mgpuMemFree
// IMPORTS: mgpuMemcpy
// IMPORTS: mgpuModuleGetFunction
// IMPORTS: mgpuModuleLoadJIT
// IMPORTS: mgpuModuleUnload
// IMPORTS: mgpuStreamCreate
// IMPORTS: mgpuStreamDestroy
// IMPORTS: mgpuStreamSynchronize
// IMPORTS: mgpuTensorMapEncodeTiledMemref

// BADHOST: fp8-gpu-pipeline: option host='cpu' is invalid (expected launch, llvm or none)
// BADTARGET: fp8-gpu-pipeline: option target='sass' is invalid (expected ptx or emulator)

#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
func.func @forward(%x: tensor<200x384xf32>, %w: tensor<256x384xf32>) -> tensor<200x256xf32> {
  %e0 = tensor.empty() : tensor<384x256xf32>
  %wt = linalg.generic {indexing_maps = [#id, #tr], iterator_types = ["parallel", "parallel"]} ins(%w : tensor<256x384xf32>) outs(%e0 : tensor<384x256xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<384x256xf32>
  %cst = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<200x256xf32>
  %f = linalg.fill ins(%cst : f32) outs(%init : tensor<200x256xf32>) -> tensor<200x256xf32>
  %y = linalg.matmul ins(%x, %wt : tensor<200x384xf32>, tensor<384x256xf32>) outs(%f : tensor<200x256xf32>) -> tensor<200x256xf32>
  return %y : tensor<200x256xf32>
}
