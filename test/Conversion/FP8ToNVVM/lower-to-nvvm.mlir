// The kernel fp8-lower-to-nvvm generates, at the NVVM level (no CUDA
// toolkit needed): the gpu.module with its target, the launch attributes the
// kernel ABI (GemmKernelConfig.h) fixes, and the ops of each role.
// RUN: fp8-opt %s --fp8-lower-to-nvvm=config=fixed | FileCheck %s
// RUN: fp8-opt %s --fp8-lower-to-nvvm="config=fixed chip=sm_90a features=+ptx83" | FileCheck %s --check-prefix=OPTS

// CHECK: module attributes {gpu.container_module}
// CHECK: func.func @two_gemms
// CHECK-COUNT-3: fp8.scaled_matmul
// CHECK: gpu.module @fp8_kernels [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80">]
// OPTS: gpu.module @fp8_kernels [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx83">]

// 128 x 7168 x 16384: two consumer warpgroups (384 threads); one kernel even
// though the shape appears twice.
// CHECK-LABEL: llvm.func @fp8_scaled_matmul_128x7168x16384_e4m3_e4m3_bf16(
// CHECK-SAME: %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i32)
// CHECK-SAME: nvvm.kernel, nvvm.maxntid = array<i32: 384, 1, 1>, nvvm.minctasm = 1 : i32
// 6 stages x (full, empty) barriers; empty counts the 256 consumer threads.
// CHECK-COUNT-6: nvvm.mbarrier.init
// CHECK: nvvm.fence.mbarrier.init
// CHECK: nvvm.barrier0
// CHECK: nvvm.setmaxregister decrease 40
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %{{.*}} : !llvm.ptr<3>, i32
// CHECK-COUNT-3: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK: nvvm.setmaxregister increase 232
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 128, k = 32>, D[<f32>, <zero>], A[<e4m3>, <one>, <row>], B[<e4m3>, <one>, <col>]
// CHECK-COUNT-3: nvvm.wgmma.mma_async {{.*}} D[<f32>, <one>]
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: nvvm.mbarrier.arrive
// CHECK-COUNT-64: llvm.intr.fma
// CHECK: llvm.store {{.*}} : vector<2xbf16>, !llvm.ptr<1>

// 64 x 2112 x 7168: one consumer warpgroup (256 threads), 8 stages.
// CHECK-LABEL: llvm.func @fp8_scaled_matmul_64x2112x7168_e4m3_e5m2_f32(
// CHECK-SAME: nvvm.maxntid = array<i32: 256, 1, 1>
// CHECK-COUNT-8: nvvm.mbarrier.init
// CHECK: nvvm.wgmma.mma_async {{.*}} A[<e4m3>, <one>, <row>], B[<e5m2>, <one>, <col>]
// CHECK: llvm.store {{.*}} : vector<2xf32>, !llvm.ptr<1>

// The dynamic shared memory the ring lives in.
// CHECK: llvm.mlir.global external @fp8_dynamic_smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>

func.func @two_gemms(%a: !fp8.scaled<128x16384xf8E4M3FN, block = [1, 128], scale = f32>,
                     %b: !fp8.scaled<7168x16384xf8E4M3FN, block = [128, 128], scale = f32>,
                     %x: !fp8.scaled<64x7168xf8E4M3FN, block = [1, 128], scale = f32>,
                     %w: !fp8.scaled<2112x7168xf8E5M2, block = [128, 128], scale = f32>)
    -> (tensor<128x7168xbf16>, tensor<128x7168xbf16>, tensor<64x2112xf32>) {
  %0 = fp8.scaled_matmul %a, %b : !fp8.scaled<128x16384xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<7168x16384xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<128x7168xbf16>
  %1 = fp8.scaled_matmul %a, %b : !fp8.scaled<128x16384xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<7168x16384xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<128x7168xbf16>
  %2 = fp8.scaled_matmul %x, %w : !fp8.scaled<64x7168xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<2112x7168xf8E5M2, block = [128, 128], scale = f32> -> tensor<64x2112xf32>
  return %0, %1, %2 : tensor<128x7168xbf16>, tensor<128x7168xbf16>, tensor<64x2112xf32>
}
