// Swap-AB (issue 28 item 6): fp8-lower-to-nvvm{swap-ab=always} gives a
// small-M GEMM in the DeepSeek-V3 blocks the kernel of D^T = B A^T (its m x n
// the op's N x M, per-column B scales: #fp8.gemm_kernel<..., swap_ab =
// true>), and fp8-launch-kernels hands it B's codes as A, B's 128x128 block
// scales one per row (transpose kernel with repeat_rows = 128), A's codes as
// B, A's per-row scales per column, and transposes D^T into D; every layout
// change on the device. Bit-exactness: Integration/GPUHost/swap-ab.mlir.
// RUN: fp8-opt %s -split-input-file -fp8-lower-to-nvvm="config=fixed swap-ab=always" -fp8-launch-kernels -canonicalize -cse | FileCheck %s
// RUN: fp8-opt %s -split-input-file -fp8-lower-to-nvvm | FileCheck %s --check-prefix=AUTO
// RUN: not fp8-opt %s -split-input-file -fp8-lower-to-nvvm=swap-ab=sometimes 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: %if ptxas %{ fp8-opt %s -split-input-file --fp8-gpu-pipeline="config=fixed swap-ab=always" | fp8-translate --fp8-extract-gpu-object > %t.ptx %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin > %t.ptxas 2>&1 %}
// RUN: %if ptxas %{ FileCheck %s --check-prefix=PTXAS < %t.ptxas %}

// OPTION: fp8-lower-to-nvvm: option swap-ab='sometimes' is invalid (expected auto, always or never)
// A swapped kernel has no cluster: cluster=2 with swap-ab=always is an error
// naming both (the cluster was dropped silently); cluster=1 is no cluster.
// RUN: not fp8-opt %s -split-input-file -fp8-lower-to-nvvm="cluster=2 swap-ab=always" 2>&1 | FileCheck %s --check-prefix=CLUSTER
// RUN: fp8-opt %s -split-input-file -fp8-lower-to-nvvm="config=fixed cluster=1 swap-ab=always" -o /dev/null
// CLUSTER: fp8-lower-to-nvvm: options cluster=2 and swap-ab=always contradict: a swap-AB kernel has no cluster (the CTAs of a cluster share the B tile, and the swapped kernel's B is the activation); give cluster=0 or 1 with swap-ab=always, or swap-ab=auto or never with cluster=2

// 16 x 300 x 400: the kernel is 300 x 16 x 400 with per-column B scales
// (config=fixed: 128 x 128 tiles, so the B scales' columns are padded to
// Np = 128). B's scales [3, 4] become the A scales [4, roundUp(300, 4) =
// 300], each block scale written for its 128 rows; A's scales [16, 4] the B
// scales [4, 128]; D^T [300, 16] bf16 goes back to D [16, 300].
// CHECK-LABEL: func.func @small(
// CHECK: %[[SA:.*]] = memref.alloc() : memref<4x300xf32>
// CHECK: call @fp8_launch_fp8_transpose_b32_r128_3x4_to_4x300(%{{.*}}, %[[SA]]) : (memref<3x4xf32>, memref<4x300xf32>) -> ()
// CHECK: %[[SB:.*]] = memref.alloc() : memref<4x128xf32>
// CHECK: call @fp8_launch_fp8_transpose_b32_16x4_to_4x128(%{{.*}}, %[[SB]]) : (memref<16x4xf32>, memref<4x128xf32>) -> ()
// CHECK: %[[DT:.*]] = memref.alloc() : memref<300x16xbf16>
// CHECK: call @fp8_launch_fp8_scaled_matmul_300x16x400_e4m3_e4m3_bf16_b1x128_swapab(%{{.*}}, %{{.*}}, %[[SA]], %[[SB]], %[[DT]]) : (memref<300x400xf8E4M3FN>, memref<16x400xf8E4M3FN>, memref<4x300xf32>, memref<4x128xf32>, memref<300x16xbf16>) -> ()
// CHECK: %[[D:.*]] = memref.alloc() : memref<16x300xbf16>
// CHECK: call @fp8_launch_fp8_transpose_b16_300x16_to_16x300(%[[DT]], %[[D]]) : (memref<300x16xbf16>, memref<16x300xbf16>) -> ()
// CHECK: bufferization.to_tensor %[[D]]
// The kernels: the swapped GEMM's record, and the repeat (r / 128) before
// the row check of the block-scale transpose.
// CHECK: llvm.func @fp8_scaled_matmul_300x16x400_e4m3_e4m3_bf16_b1x128_swapab(
// CHECK-SAME: fp8.kernel = #fp8.gemm_kernel<m = 300, n = 16, k = 400, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 1, block_m = 128, block_n = 128, block_k = 128, stages = 6, consumers = 2, swap_ab = true>
// CHECK: llvm.func @fp8_transpose_b32_r128(
// CHECK-SAME: fp8.kernel = #fp8.transpose_kernel<bits = 32, repeat_rows = 128>
// CHECK: %[[ROW:.*]] = arith.remui
// CHECK: %[[IN:.*]] = arith.divui %[[ROW]], %c128_i32 : i32
// CHECK: arith.cmpi ult, %[[IN]], %{{.*}} : i32
// CHECK: llvm.func @fp8_transpose_b16(
// CHECK-SAME: fp8.kernel = #fp8.transpose_kernel<bits = 16>
// CHECK: llvm.load %{{.*}} {alignment = 2 : i64} : !llvm.ptr<1> -> i16

// The GEMM's grid: min(ceil(300 / 128) * ceil(16 / 128), SMs) = 3 tiles;
// the block-scale transpose: ceil(4 * 300 / 256) = 5 CTAs, D: ceil(16 *
// 300 / 256) = 19.
// CHECK-LABEL: func.func private @fp8_launch_fp8_transpose_b32_r128_3x4_to_4x300(
// CHECK: gpu.launch_func {{.*}}@fp8_kernels::@fp8_transpose_b32_r128 blocks in (%c5, %c1, %c1) threads in (%c256, %c1, %c1)
// CHECK-LABEL: func.func private @fp8_launch_fp8_scaled_matmul_300x16x400_e4m3_e4m3_bf16_b1x128_swapab(
// CHECK: %[[T:.*]] = arith.minui %{{.*}}, %c3 : index
// CHECK: gpu.launch_func {{.*}}@fp8_kernels::@fp8_scaled_matmul_300x16x400_e4m3_e4m3_bf16_b1x128_swapab blocks in (%[[T]], %c1, %c1)
// CHECK-LABEL: func.func private @fp8_launch_fp8_transpose_b16_300x16_to_16x300(
// CHECK: gpu.launch_func {{.*}}@fp8_kernels::@fp8_transpose_b16 blocks in (%c19, %c1, %c1) threads in (%c256, %c1, %c1)
// Under config=auto the cost model keeps 16 x 300 x 400 unswapped: a
// BLOCK_N of 16 already spreads the plain kernel's tiles over the SMs, and
// the swapped tiles read 4x the weight rows each (docs/gpu-kernel.md,
// "Swap-AB").
// AUTO-LABEL: llvm.func @fp8_scaled_matmul_16x300x400_e4m3_e4m3_bf16
// AUTO-NOT: swap_ab

// PTXAS-NOT: {{warning|[1-9][0-9]* bytes spill}}
// PTXAS: Compiling entry function 'fp8_scaled_matmul_300x16x400_e4m3_e4m3_bf16_b1x128_swapab' for 'sm_90a'

func.func @small(%a: !fp8.scaled<16x400xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<300x400xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<16x300xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<16x400xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<300x400xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<16x300xbf16>
  return %d : tensor<16x300xbf16>
}
