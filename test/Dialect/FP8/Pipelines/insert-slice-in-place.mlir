// Both pipelines run `eliminate-empty-tensors` before one-shot
// bufferization: an op whose result is inserted into a larger tensor (a
// concatenation, here cat(-x2, y1)) writes into the destination's view,
// not into a buffer of its own copied there afterwards. Only the slice of
// an existing tensor (y1) is copied. With host kernels that is one copy
// launch, not two, and the negation's kernel writes the view. RoPE's
// rotate_half, cat(-x2, x1), was the case in point; fp8-fold-rotate-half
// now makes it one element-wise op reading x at (d + 64) mod 128, which
// writes its whole result: one launch, no copy, in both pipelines
// (@rotate_half below).
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=llvm target=emulator" --mlir-print-ir-after=fp8-outline-host-kernels -o /dev/null 2>&1 | FileCheck %s
// RUN: fp8-opt %s --fp8-cpu-pipeline --mlir-print-ir-after=convert-bufferization-to-memref -o /dev/null 2>&1 | FileCheck %s --check-prefix=CPU

// CHECK-LABEL: func.func @concat
// CHECK: %[[OUT:.*]] = memref.alloc() {{.*}} : memref<4x128xf32>
// CHECK: %[[HI:.*]] = memref.subview %[[OUT]][0, 0] [4, 64] [1, 1]
// CHECK: gpu.launch_func @fp8_host_kernels::@concat_generic {{.*}} args(%{{.*}} : memref<4x64xf32, strided<[128, 1], offset: 64>>, %[[HI]] :
// CHECK: gpu.launch_func @fp8_host_kernels::@concat_copy
// CHECK-NOT: gpu.launch_func

// CPU-LABEL: func.func @concat
// CPU-COUNT-1: memref.copy
// CPU-NOT: memref.copy
func.func @concat(%x: tensor<4x128xf32>, %y: tensor<4x128xf32>) -> tensor<4x128xf32> {
  %lo = tensor.extract_slice %y[0, 0] [4, 64] [1, 1] : tensor<4x128xf32> to tensor<4x64xf32>
  %hi = tensor.extract_slice %x[0, 64] [4, 64] [1, 1] : tensor<4x128xf32> to tensor<4x64xf32>
  %e = tensor.empty() : tensor<4x64xf32>
  %neg = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%hi : tensor<4x64xf32>) outs(%e : tensor<4x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  } -> tensor<4x64xf32>
  %full = tensor.empty() : tensor<4x128xf32>
  %r0 = tensor.insert_slice %neg into %full[0, 0] [4, 64] [1, 1] : tensor<4x64xf32> into tensor<4x128xf32>
  %r1 = tensor.insert_slice %lo into %r0[0, 64] [4, 64] [1, 1] : tensor<4x64xf32> into tensor<4x128xf32>
  return %r1 : tensor<4x128xf32>
}

// CHECK-LABEL: func.func @rotate_half
// CHECK: gpu.launch_func @fp8_host_kernels::@rotate_half_generic
// CHECK-NOT: gpu.launch_func
// CHECK-LABEL: gpu.module @fp8_host_kernels

// CPU-LABEL: func.func @rotate_half
// CPU-NOT: memref.copy
// CPU: return
func.func @rotate_half(%x: tensor<4x128xf32>) -> tensor<4x128xf32> {
  %lo = tensor.extract_slice %x[0, 0] [4, 64] [1, 1] : tensor<4x128xf32> to tensor<4x64xf32>
  %hi = tensor.extract_slice %x[0, 64] [4, 64] [1, 1] : tensor<4x128xf32> to tensor<4x64xf32>
  %e = tensor.empty() : tensor<4x64xf32>
  %neg = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%hi : tensor<4x64xf32>) outs(%e : tensor<4x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  } -> tensor<4x64xf32>
  %full = tensor.empty() : tensor<4x128xf32>
  %r0 = tensor.insert_slice %neg into %full[0, 0] [4, 64] [1, 1] : tensor<4x64xf32> into tensor<4x128xf32>
  %r1 = tensor.insert_slice %lo into %r0[0, 64] [4, 64] [1, 1] : tensor<4x64xf32> into tensor<4x128xf32>
  return %r1 : tensor<4x128xf32>
}
