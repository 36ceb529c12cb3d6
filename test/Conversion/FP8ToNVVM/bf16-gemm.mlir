// The BF16 variant of the GEMM kernel (docs/gpu-kernel.md, "The BF16
// variant"): a linalg.matmul bf16 x bf16 -> f32 gets a kernel of the GEMM
// generator with bf16 operands (block_k 64: 64 K elements = 128 bytes per
// stage row). The producer loads A and two 64-column MN-major B boxes per
// stage and no A scales. Per K block the consumer waits for its slot,
// packs its accumulators into wgmma's D and chains wgmma .m64n128k16 bf16
// onto it with scale-d one (the accumulator itself, from C: no promotion
// FMA), A K-major (layout row), B MN-major (layout row: wgmma's transpose
// of B); the A descriptor (K-major, SBO 1024, 128B swizzle) advances 32
// bytes (+2) per step, the B descriptor (MN-major: LBO 8192 = the next
// 64-column box, SBO 1024) 16 K rows of 128 bytes (+128). K = 40: one
// K block of ceil(40 / 16) = 3 steps (no loop of full blocks). K = 136:
// two full blocks of 4 steps, then a tail block of 1. The launcher takes
// (a, b, d, c). Ops it does not take stay host kernels with a remark.
// A run-time M (@ktail136, @ktailc with a C of [?, ?], @cstatic with a C
// of [128, 64]): cf.asserts before the launch that A's and C's M (and B's
// and C's N where C's is dynamic) agree, that M is below 2^31 and the
// ceil(M / 128) x ceil(N / 128) tiles too; C and D cast to the launcher's
// [?, N], one declaration for all three.
// config=fixed: the shapes' default tiles (config=auto's BF16 cost model
// chooses others: bf16-gemm-options.mlir).
// RUN: fp8-opt %s --fp8-lower-to-nvvm=config=fixed 2> %t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: fp8-opt %s --fp8-lower-to-nvvm=config=fixed --fp8-launch-kernels 2>/dev/null | FileCheck %s --check-prefix=HOST

// Descriptor constants (WgmmaFragment.h, hand-derived): K-major SW128
// (64 << 32) | (1 << 62) = 4611686293305294848; MN-major SW128 with LBO
// 8192: that | (512 << 16) = 4611686293338849280.

// CHECK-LABEL: func.func @tail(
// CHECK: linalg.matmul {fp8.kernel_ref = @fp8_kernels::@fp8_matmul_100x72x40_bf16_bf16_f32_accf32}
// CHECK-LABEL: func.func @ktail136(
// CHECK: linalg.matmul {fp8.kernel_ref = @fp8_kernels::@fp8_matmul_dynx64x136_bf16_bf16_f32_accf32}
// The ops without a kernel keep no reference.
// CHECK-LABEL: func.func @n36(
// CHECK-NOT: fp8.kernel_ref
// CHECK-LABEL: func.func @f32_operands(
// CHECK-NOT: fp8.kernel_ref
// CHECK: return

// CHECK-LABEL: llvm.func @fp8_matmul_100x72x40_bf16_bf16_f32_accf32(
// CHECK-SAME: %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i32, %[[C:.*]]: !llvm.ptr)
// CHECK-SAME: fp8.kernel = #fp8.gemm_kernel<m = 100, n = 72, k = 40, a = bf16, b = bf16, d = f32, c = f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 64, stages = 7, consumers = 2>
// CHECK: %[[CG:.*]] = llvm.addrspacecast %[[C]] : !llvm.ptr to !llvm.ptr<1>
// CHECK: nvvm.prefetch tensormap, %arg0
// CHECK-NEXT: nvvm.prefetch tensormap, %arg1
// CHECK-NEXT: }
// Producer: A, then B's two boxes (columns col0 and col0 + 64, K row k0).
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg0, %{{.*}}, box[%{{.*}}, %{{.*}}]
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg1, %{{.*}}, box[%{{.*}}, %[[K0:.*]]]
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg1, %{{.*}}, box[%{{.*}}, %[[K0]]]
// CHECK-NOT: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK: scf.yield
// Consumer: C loaded into the accumulators (64 per thread).
// CHECK-COUNT-64: llvm.getelementptr %[[CG]][%{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NOT: nvvm.wgmma.mma_async
// CHECK: scf.for
// CHECK: %[[DA:.*]] = arith.ori %{{.*}}, %c4611686293305294848_i64 : i64
// CHECK: %[[DB:.*]] = arith.ori %{{.*}}, %c4611686293338849280_i64 : i64
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK: llvm.insertvalue %{{.*}}[63]
// CHECK-NEXT: nvvm.wgmma.fence.aligned
// CHECK: %[[W0:.*]] = nvvm.wgmma.mma_async %[[DA]], %[[DB]], %{{.*}}, <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <row>]
// CHECK: %[[A1:.*]] = arith.addi %[[DA]], %c2_i64
// CHECK: %[[B1:.*]] = arith.addi %[[DB]], %c128_i64
// CHECK: %[[W1:.*]] = nvvm.wgmma.mma_async %[[A1]], %[[B1]], %[[W0]], <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <row>]
// CHECK: %[[A2:.*]] = arith.addi %[[DA]], %c4_i64
// CHECK: %[[B2:.*]] = arith.addi %[[DB]], %c256_i64
// CHECK: nvvm.wgmma.mma_async %[[A2]], %[[B2]], %[[W1]], <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <row>]
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NOT: llvm.intr.fma
// CHECK-NOT: nvvm.wgmma.mma_async
// CHECK: llvm.return

// K = 136: the loop of two full blocks (4 steps each), then the tail's.
// CHECK-LABEL: llvm.func @fp8_matmul_dynx64x136_bf16_bf16_f32_accf32(
// CHECK-SAME: block_k = 64, stages = 7, consumers = 2>
// CHECK: scf.for %{{.*}} = %{{.*}} to %c2_i32
// CHECK-COUNT-4: nvvm.wgmma.mma_async
// CHECK-NOT: nvvm.wgmma.mma_async
// CHECK: scf.yield
// CHECK: scf.for %{{.*}} = %c2_i32{{.*}} to %c3_i32
// CHECK: nvvm.wgmma.mma_async
// CHECK-NOT: nvvm.wgmma.mma_async
// CHECK: llvm.return

// REMARK: remark: fp8-lower-to-nvvm: no GPU GEMM kernel for 'linalg.matmul' (the bf16 kernel needs N and K multiples of 8 (the TMA maps' row strides of A [M, K] and B [K, N] are multiples of 16 bytes), got N = 36, K = 64); it stays a host kernel
// REMARK-NOT: remark

// The launcher: (a, b, d, c); TMA maps of A (box 128 rows x 64) and B
// (box 64 K rows x 64 columns); parameters 2 and 3 are A's map and A.
// HOST-LABEL: func.func @tail(
// HOST: call @fp8_launch_fp8_matmul_100x72x40_bf16_bf16_f32_accf32(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (memref<100x40xbf16>, memref<40x72xbf16>, memref<100x72xf32>, memref<100x72xf32>) -> ()
// HOST-NOT: linalg.matmul {
// HOST-LABEL: func.func @ktail136(
// HOST: %[[AM:.*]] = tensor.dim %arg0, %c0{{.*}} : tensor<?x136xbf16>
// HOST: %[[CM:.*]] = tensor.dim %arg2, %c0{{.*}} : tensor<?x64xf32>
// HOST: %[[SAME:.*]] = arith.cmpi eq, %[[AM]], %[[CM]] : index
// HOST: cf.assert %[[SAME]], "linalg.matmul: the M of A (dimension 0) and of C (dimension 0) differ at run time; the bf16 kernel computes A's M rows with its compiled-in batch, N and K"
// HOST-NOT: differ at run time
// HOST: cf.assert %{{.*}}, "linalg.matmul: 2^31 rows or more (M) at run time
// HOST-NOT: G x M rows
// HOST: %[[MT:.*]] = arith.ceildivui %{{.*}}, %c128 : index
// HOST: %[[GMT:.*]] = arith.muli %c1{{.*}}, %[[MT]] : index
// HOST: %[[T:.*]] = arith.muli %[[GMT]], %c1{{.*}} : index
// HOST: arith.cmpi ult, %[[T]], %{{.*}} : index
// HOST: cf.assert %{{.*}}, "linalg.matmul: 2^31 tiles or more (G x ceil(M / 128) x ceil(N / 128)) at run time; the bf16 kernel's tile index is signed 32-bit"
// HOST: call @fp8_launch_fp8_matmul_dynx64x136_bf16_bf16_f32_accf32(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (memref<?x136xbf16>, memref<136x64xbf16>, memref<?x64xf32>, memref<?x64xf32>) -> ()
// HOST-LABEL: func.func @ktailc(
// HOST: cf.assert %{{.*}}, "linalg.matmul: the M of A (dimension 0) and of C (dimension 0) differ at run time
// HOST: cf.assert %{{.*}}, "linalg.matmul: the N of B (dimension 1) and of C (dimension 1) differ at run time
// HOST-NOT: differ at run time
// HOST: tensor.cast %arg2 : tensor<?x?xf32> to tensor<?x64xf32>
// HOST: call @fp8_launch_fp8_matmul_dynx64x136_bf16_bf16_f32_accf32(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (memref<?x136xbf16>, memref<136x64xbf16>, memref<?x64xf32>, memref<?x64xf32>) -> ()
// HOST: tensor.cast %{{.*}} : tensor<?x64xf32> to tensor<?x?xf32>
// A dynamic M with a static C: C's 128 rows are compared with A's at run
// time as well (the first extent dynamic, the other static).
// HOST-LABEL: func.func @cstatic(
// HOST: %[[AM:.*]] = tensor.dim %arg0, %c0{{.*}} : tensor<?x136xbf16>
// HOST: %[[CM:.*]] = tensor.dim %arg2, %c0{{.*}} : tensor<128x64xf32>
// HOST: %[[SAME:.*]] = arith.cmpi eq, %[[AM]], %[[CM]] : index
// HOST: cf.assert %[[SAME]], "linalg.matmul: the M of A (dimension 0) and of C (dimension 0) differ at run time
// HOST-NOT: differ at run time
// HOST: call @fp8_launch_fp8_matmul_dynx64x136_bf16_bf16_f32_accf32(
// HOST-LABEL: func.func @n36(
// HOST: linalg.matmul
// HOST-LABEL: func.func private @fp8_launch_fp8_matmul_100x72x40_bf16_bf16_f32_accf32(
// HOST: nvgpu.tma.create.descriptor %{{.*}} box[%c128, %c64]
// HOST-SAME: memref<128x64xbf16, 3>, swizzle = swizzle_128b
// HOST: nvgpu.tma.create.descriptor %{{.*}} box[%c64{{.*}}, %c64{{.*}}]
// HOST-SAME: memref<64x64xbf16, 3>, swizzle = swizzle_128b
// HOST: gpu.launch_func async [%{{.*}}] @fp8_kernels::@fp8_matmul_100x72x40_bf16_bf16_f32_accf32 {{.*}} threads in (%c384{{.*}}, %{{.*}}, %{{.*}}) dynamic_shared_memory_size %{{.*}} args(%[[TA:.*]] : !llvm.ptr, %{{.*}} : !llvm.ptr, %[[TA]] : !llvm.ptr, %{{.*}} : memref<100x40xbf16>, %{{.*}} : memref<100x72xf32>, %{{.*}} : i32, %{{.*}} : memref<100x72xf32>)

func.func @tail(%a: tensor<100x40xbf16>, %b: tensor<40x72xbf16>, %c: tensor<100x72xf32>) -> tensor<100x72xf32> {
  %y = linalg.matmul ins(%a, %b : tensor<100x40xbf16>, tensor<40x72xbf16>) outs(%c : tensor<100x72xf32>) -> tensor<100x72xf32>
  return %y : tensor<100x72xf32>
}

func.func @ktail136(%a: tensor<?x136xbf16>, %b: tensor<136x64xbf16>, %c: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %y = linalg.matmul ins(%a, %b : tensor<?x136xbf16>, tensor<136x64xbf16>) outs(%c : tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

func.func @ktailc(%a: tensor<?x136xbf16>, %b: tensor<136x64xbf16>, %c: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %y = linalg.matmul ins(%a, %b : tensor<?x136xbf16>, tensor<136x64xbf16>) outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

func.func @cstatic(%a: tensor<?x136xbf16>, %b: tensor<136x64xbf16>, %c: tensor<128x64xf32>) -> tensor<128x64xf32> {
  %y = linalg.matmul ins(%a, %b : tensor<?x136xbf16>, tensor<136x64xbf16>) outs(%c : tensor<128x64xf32>) -> tensor<128x64xf32>
  return %y : tensor<128x64xf32>
}

func.func @n36(%a: tensor<16x64xbf16>, %b: tensor<64x36xbf16>, %c: tensor<16x36xf32>) -> tensor<16x36xf32> {
  %y = linalg.matmul ins(%a, %b : tensor<16x64xbf16>, tensor<64x36xbf16>) outs(%c : tensor<16x36xf32>) -> tensor<16x36xf32>
  return %y : tensor<16x36xf32>
}

// Not a candidate (f32 operands): no kernel, no remark.
func.func @f32_operands(%a: tensor<16x64xf32>, %b: tensor<64x32xf32>, %c: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %y = linalg.matmul ins(%a, %b : tensor<16x64xf32>, tensor<64x32xf32>) outs(%c : tensor<16x32xf32>) -> tensor<16x32xf32>
  return %y : tensor<16x32xf32>
}
