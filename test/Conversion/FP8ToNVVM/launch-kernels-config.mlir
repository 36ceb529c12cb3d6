// fp8-launch-kernels launches each GEMM with the kernel its op names
// (`fp8.kernel_ref`, set by fp8-lower-to-nvvm) and the configuration that
// kernel records in `fp8.kernel` (one source of truth), not one recomputed
// from options or read from the kernel name. The kernels here are
// hand-written stubs whose attribute disagrees with what the shape's
// default (and the name, which has no configuration suffix) would say.
// Launch constants are derived by hand from GemmKernelConfig.h.
// The grid's SM count is compiled in (sm-count=132), so that the grid is a
// constant; by default it is the device's, read at run time
// (launch-kernels-checks.mlir).
// RUN: fp8-opt %s -split-input-file -fp8-launch-kernels=sm-count=132 -verify-diagnostics -canonicalize -cse | FileCheck %s
// The same through declare, then define-only (the attribute travels on the
// launcher declaration: the gpu.module may be a binary by then).
// RUN: fp8-opt %s -split-input-file -fp8-launch-kernels=launchers=declare -verify-diagnostics | FileCheck %s --check-prefix=DECL
// RUN: fp8-opt %s -split-input-file -fp8-launch-kernels=launchers=declare -fp8-launch-kernels="launchers=define-only sm-count=132" -verify-diagnostics -canonicalize -cse | FileCheck %s

// 200x256x384 under the shape's default would be 128x128 tiles, 6 stages,
// 384 threads, 4 CTAs, 200704 bytes. The kernel says BLOCK_M 64, BLOCK_N 96,
// 3 stages, 1 consumer: grid min(ceil(200/64) * ceil(256/96), 132) =
// 4 * 3 = 12 CTAs of 256 threads; shared memory
// 3 x (64*128 + 96*128 + roundUp(64*4, 128)) + 1024 = 3 x 20736 + 1024 =
// 63232 bytes + the staged B scales (1 consumer x roundUp(2 blocks x 3 K
// blocks x 4, 16) = 32) = 63264 bytes; A box [64, 128], B box [96, 128], A-scale box [1, 64].
// The definition consumes the declaration's attributes (the lowered host
// program goes to upstream tools that do not know the fp8 dialect).
// CHECK-LABEL: func.func private @fp8_launch_fp8_scaled_matmul_200x256x384_e4m3_e4m3_bf16(
// CHECK-NOT: fp8.kernel
// CHECK: nvgpu.tma.create.descriptor %{{.*}} box[%c64, %c128] : memref<*xui8> -> <tensor = memref<64x128xui8, 3>
// CHECK: nvgpu.tma.create.descriptor %{{.*}} box[%c96, %c128] : memref<*xui8> -> <tensor = memref<96x128xui8, 3>
// CHECK: nvgpu.tma.create.descriptor %{{.*}} box[%c1, %c64] : memref<*xf32> -> <tensor = memref<1x64xf32, 3>
// CHECK: gpu.launch_func {{.*}}@fp8_kernels::@fp8_scaled_matmul_200x256x384_e4m3_e4m3_bf16 blocks in (%c12, %c1, %c1) threads in (%c256, %c1, %c1) dynamic_shared_memory_size %c63264_i32 args(
// DECL: func.func private @fp8_launch_fp8_scaled_matmul_200x256x384_e4m3_e4m3_bf16({{.*}}) attributes {fp8.kernel = #fp8.gemm_kernel<m = 200, n = 256, k = 384, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 64, block_n = 96, block_k = 128, stages = 3, consumers = 1>, fp8.kernel_ref = @fp8_kernels::@fp8_scaled_matmul_200x256x384_e4m3_e4m3_bf16}
module attributes {gpu.container_module} {
  gpu.module @fp8_kernels {
    llvm.func @fp8_scaled_matmul_200x256x384_e4m3_e4m3_bf16(%a: !llvm.ptr, %b: !llvm.ptr, %sa: !llvm.ptr, %sb: !llvm.ptr, %d: !llvm.ptr, %m: i32) attributes {fp8.kernel = #fp8.gemm_kernel<m = 200, n = 256, k = 384, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 64, block_n = 96, block_k = 128, stages = 3, consumers = 1>, gpu.kernel} {
      llvm.return
    }
  }
  func.func @mm(%a: !fp8.scaled<200x384xf8E4M3FN, block = [1, 128], scale = f32>,
                %b: !fp8.scaled<256x384xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<200x256xbf16> {
    %d = fp8.scaled_matmul %a, %b {fp8.kernel_ref = @fp8_kernels::@fp8_scaled_matmul_200x256x384_e4m3_e4m3_bf16} : !fp8.scaled<200x384xf8E4M3FN, block = [1, 128], scale = f32>,
      !fp8.scaled<256x384xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<200x256xbf16>
    return %d : tensor<200x256xbf16>
  }
}

// -----

// A kernel without the attribute: a clear error, no guessed configuration.
module attributes {gpu.container_module} {
  gpu.module @fp8_kernels {
    llvm.func @fp8_scaled_matmul_200x256x384_e4m3_e4m3_bf16(%a: !llvm.ptr, %b: !llvm.ptr, %sa: !llvm.ptr, %sb: !llvm.ptr, %d: !llvm.ptr, %m: i32) attributes {gpu.kernel} {
      llvm.return
    }
  }
  func.func @mm(%a: !fp8.scaled<200x384xf8E4M3FN, block = [1, 128], scale = f32>,
                %b: !fp8.scaled<256x384xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<200x256xbf16> {
    // expected-error @+1 {{fp8-launch-kernels: kernel @fp8_kernels::@fp8_scaled_matmul_200x256x384_e4m3_e4m3_bf16 has no fp8.kernel = #fp8.gemm_kernel<...>}}
    %d = fp8.scaled_matmul %a, %b {fp8.kernel_ref = @fp8_kernels::@fp8_scaled_matmul_200x256x384_e4m3_e4m3_bf16} : !fp8.scaled<200x384xf8E4M3FN, block = [1, 128], scale = f32>,
      !fp8.scaled<256x384xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<200x256xbf16>
    return %d : tensor<200x256xbf16>
  }
}

// -----

// A ring that does not fit the 227 KB of shared memory: the attribute's
// verifier rejects it.
module attributes {gpu.container_module} {
  gpu.module @fp8_kernels {
    // expected-error @+1 {{exceeds the 227 KB of shared memory}}
    llvm.func @fp8_scaled_matmul_200x256x384_e4m3_e4m3_bf16(%a: !llvm.ptr, %b: !llvm.ptr, %sa: !llvm.ptr, %sb: !llvm.ptr, %d: !llvm.ptr, %m: i32) attributes {fp8.kernel = #fp8.gemm_kernel<m = 200, n = 256, k = 384, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 128, stages = 9, consumers = 2>, gpu.kernel} {
      llvm.return
    }
  }
}

// -----

// Two configurations of one shape (the module was lowered twice): the op's
// reference decides, never a search by name.
// CHECK-LABEL: func.func private @fp8_launch_fp8_scaled_matmul_200x256x384_e4m3_e4m3_bf16_t64x96s3(
// CHECK: gpu.launch_func {{.*}}@fp8_kernels::@fp8_scaled_matmul_200x256x384_e4m3_e4m3_bf16_t64x96s3 blocks in (%c12, %c1, %c1) threads in (%c256, %c1, %c1) dynamic_shared_memory_size %c63264_i32 args(
module attributes {gpu.container_module} {
  gpu.module @fp8_kernels {
    llvm.func @fp8_scaled_matmul_200x256x384_e4m3_e4m3_bf16(%a: !llvm.ptr, %b: !llvm.ptr, %sa: !llvm.ptr, %sb: !llvm.ptr, %d: !llvm.ptr, %m: i32) attributes {fp8.kernel = #fp8.gemm_kernel<m = 200, n = 256, k = 384, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 128, stages = 6, consumers = 2>, gpu.kernel} {
      llvm.return
    }
    llvm.func @fp8_scaled_matmul_200x256x384_e4m3_e4m3_bf16_t64x96s3(%a: !llvm.ptr, %b: !llvm.ptr, %sa: !llvm.ptr, %sb: !llvm.ptr, %d: !llvm.ptr, %m: i32) attributes {fp8.kernel = #fp8.gemm_kernel<m = 200, n = 256, k = 384, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 64, block_n = 96, block_k = 128, stages = 3, consumers = 1>, gpu.kernel} {
      llvm.return
    }
  }
  func.func @mm_two(%a: !fp8.scaled<200x384xf8E4M3FN, block = [1, 128], scale = f32>,
                %b: !fp8.scaled<256x384xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<200x256xbf16> {
    %d = fp8.scaled_matmul %a, %b {fp8.kernel_ref = @fp8_kernels::@fp8_scaled_matmul_200x256x384_e4m3_e4m3_bf16_t64x96s3} : !fp8.scaled<200x384xf8E4M3FN, block = [1, 128], scale = f32>,
      !fp8.scaled<256x384xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<200x256xbf16>
    return %d : tensor<200x256xbf16>
  }
}

// -----

// An op that names no kernel (fp8-lower-to-nvvm did not run on it).
module attributes {gpu.container_module} {
  gpu.module @fp8_kernels {
    llvm.func @fp8_scaled_matmul_200x256x384_e4m3_e4m3_bf16(%a: !llvm.ptr, %b: !llvm.ptr, %sa: !llvm.ptr, %sb: !llvm.ptr, %d: !llvm.ptr, %m: i32) attributes {fp8.kernel = #fp8.gemm_kernel<m = 200, n = 256, k = 384, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 64, block_n = 96, block_k = 128, stages = 3, consumers = 1>, gpu.kernel} {
      llvm.return
    }
  }
  func.func @mm(%a: !fp8.scaled<200x384xf8E4M3FN, block = [1, 128], scale = f32>,
                %b: !fp8.scaled<256x384xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<200x256xbf16> {
    // expected-error @+1 {{fp8-launch-kernels: no fp8.kernel_ref naming the op's kernel (run fp8-lower-to-nvvm first)}}
    %d = fp8.scaled_matmul %a, %b : !fp8.scaled<200x384xf8E4M3FN, block = [1, 128], scale = f32>,
      !fp8.scaled<256x384xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<200x256xbf16>
    return %d : tensor<200x256xbf16>
  }
}

// -----

// A reference to a kernel that is not there.
module attributes {gpu.container_module} {
  gpu.module @fp8_kernels {
    llvm.func @fp8_scaled_matmul_200x256x384_e4m3_e4m3_bf16_t64x96s3(%a: !llvm.ptr, %b: !llvm.ptr, %sa: !llvm.ptr, %sb: !llvm.ptr, %d: !llvm.ptr, %m: i32) attributes {fp8.kernel = #fp8.gemm_kernel<m = 200, n = 256, k = 384, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 64, block_n = 96, block_k = 128, stages = 3, consumers = 1>, gpu.kernel} {
      llvm.return
    }
  }
  func.func @mm(%a: !fp8.scaled<200x384xf8E4M3FN, block = [1, 128], scale = f32>,
                %b: !fp8.scaled<256x384xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<200x256xbf16> {
    // expected-error @+1 {{fp8-launch-kernels: no kernel @fp8_kernels::@fp8_scaled_matmul_200x256x384_e4m3_e4m3_bf16 (run fp8-lower-to-nvvm first)}}
    %d = fp8.scaled_matmul %a, %b {fp8.kernel_ref = @fp8_kernels::@fp8_scaled_matmul_200x256x384_e4m3_e4m3_bf16} : !fp8.scaled<200x384xf8E4M3FN, block = [1, 128], scale = f32>,
      !fp8.scaled<256x384xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<200x256xbf16>
    return %d : tensor<200x256xbf16>
  }
}

// -----

// Per-column B scales (b blocks [1, 128], b_scale_rows = 1): the launcher
// passes them transposed and zero-padded to the columns of all tiles of the
// kernel's configuration: [ceil(384/128), ceil(256/96) * 96] = [3, 288],
// by the transpose kernel on the device (its padding rows zero).
// CHECK-LABEL: func.func @mm_column_scales(
// CHECK: %[[SBT:.*]] = memref.alloc() : memref<3x288xf32>
// CHECK: call @fp8_launch_fp8_transpose_b32_256x3_to_3x288(%{{.*}}, %[[SBT]]) : (memref<256x3xf32>, memref<3x288xf32>) -> ()
// CHECK: call @fp8_launch_fp8_scaled_matmul_200x256x384_e4m3_e4m3_bf16_b1x128(%{{.*}}, %{{.*}}, %{{.*}}, %[[SBT]], %{{.*}}) : (memref<200x384xf8E4M3FN>, memref<256x384xf8E4M3FN>, memref<3x200xf32>, memref<3x288xf32>, memref<200x256xbf16>) -> ()
module attributes {gpu.container_module} {
  gpu.module @fp8_kernels {
    llvm.func @fp8_scaled_matmul_200x256x384_e4m3_e4m3_bf16_b1x128(%a: !llvm.ptr, %b: !llvm.ptr, %sa: !llvm.ptr, %sb: !llvm.ptr, %d: !llvm.ptr, %m: i32) attributes {fp8.kernel = #fp8.gemm_kernel<m = 200, n = 256, k = 384, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 1, block_m = 64, block_n = 96, block_k = 128, stages = 3, consumers = 1>, gpu.kernel} {
      llvm.return
    }
  }
  func.func @mm_column_scales(%a: !fp8.scaled<200x384xf8E4M3FN, block = [1, 128], scale = f32>,
                %b: !fp8.scaled<256x384xf8E4M3FN, block = [1, 128], scale = f32>) -> tensor<200x256xbf16> {
    %d = fp8.scaled_matmul %a, %b {fp8.kernel_ref = @fp8_kernels::@fp8_scaled_matmul_200x256x384_e4m3_e4m3_bf16_b1x128} : !fp8.scaled<200x384xf8E4M3FN, block = [1, 128], scale = f32>,
      !fp8.scaled<256x384xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<200x256xbf16>
    return %d : tensor<200x256xbf16>
  }
}

// -----

// A kernel named `_b1x128` whose record says [128, 128] B blocks: the record
// decides, and it does not compute this op.
module attributes {gpu.container_module} {
  gpu.module @fp8_kernels {
    llvm.func @fp8_scaled_matmul_200x256x384_e4m3_e4m3_bf16_b1x128(%a: !llvm.ptr, %b: !llvm.ptr, %sa: !llvm.ptr, %sb: !llvm.ptr, %d: !llvm.ptr, %m: i32) attributes {fp8.kernel = #fp8.gemm_kernel<m = 200, n = 256, k = 384, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 64, block_n = 96, block_k = 128, stages = 3, consumers = 1>, gpu.kernel} {
      llvm.return
    }
  }
  func.func @mm(%a: !fp8.scaled<200x384xf8E4M3FN, block = [1, 128], scale = f32>,
                %b: !fp8.scaled<256x384xf8E4M3FN, block = [1, 128], scale = f32>) -> tensor<200x256xbf16> {
    // expected-error @+1 {{does not compute this op}}
    %d = fp8.scaled_matmul %a, %b {fp8.kernel_ref = @fp8_kernels::@fp8_scaled_matmul_200x256x384_e4m3_e4m3_bf16_b1x128} : !fp8.scaled<200x384xf8E4M3FN, block = [1, 128], scale = f32>,
      !fp8.scaled<256x384xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<200x256xbf16>
    return %d : tensor<200x256xbf16>
  }
}

// -----

// An op with [128, 128] B blocks never launches the per-column kernel.
module attributes {gpu.container_module} {
  gpu.module @fp8_kernels {
    llvm.func @fp8_scaled_matmul_200x256x384_e4m3_e4m3_bf16_b1x128(%a: !llvm.ptr, %b: !llvm.ptr, %sa: !llvm.ptr, %sb: !llvm.ptr, %d: !llvm.ptr, %m: i32) attributes {fp8.kernel = #fp8.gemm_kernel<m = 200, n = 256, k = 384, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 1, block_m = 64, block_n = 96, block_k = 128, stages = 3, consumers = 1>, gpu.kernel} {
      llvm.return
    }
  }
  func.func @mm(%a: !fp8.scaled<200x384xf8E4M3FN, block = [1, 128], scale = f32>,
                %b: !fp8.scaled<256x384xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<200x256xbf16> {
    // expected-error @+1 {{does not compute this op}}
    %d = fp8.scaled_matmul %a, %b {fp8.kernel_ref = @fp8_kernels::@fp8_scaled_matmul_200x256x384_e4m3_e4m3_bf16_b1x128} : !fp8.scaled<200x384xf8E4M3FN, block = [1, 128], scale = f32>,
      !fp8.scaled<256x384xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<200x256xbf16>
    return %d : tensor<200x256xbf16>
  }
}
