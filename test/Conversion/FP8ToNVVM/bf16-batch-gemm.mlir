// The BF16 variant's batch kernel (docs/gpu-kernel.md, "The BF16 variant"):
// a linalg.batch_matmul [G, M, K] x [G, K, N] -> [G, M, N], bf16 x bf16 ->
// f32, gets the bf16 kernel with the batch as the tile scheduler's group
// (layout = masked, groups = G, no counts). The grid is group-major: G
// times the tiles of one batch (here 1 x 1), a tile's batch its index / the
// tiles of a batch. The producer loads A and both MN-major B boxes with the
// batch as the third (outermost) TMA coordinate, one value for the three
// loads; the consumers' C loads and D stores address row g * M + row of
// [G, M, N]. The launcher takes the rank-3 memrefs, builds rank-3 TMA maps
// with a box of one batch (1 x 128 x 64 for A, 1 x 64 x 64 for B) and a
// grid of min(ceil(M / 128) * ceil(N / 128) * G, SMs). What it does not
// take stays a host kernel with a remark: N not a multiple of 8, 2^31
// tiles or more; f16 operands are not candidates (no remark). A run-time
// M (@dynm, @dync) gets the kernel of m = ?: batch g's rows start at g * M
// with M its i32 parameter; the launch is preceded by
// cf.asserts that the operands' shared extents agree where one is dynamic
// (A's and C's M; with a C of [?, ?, ?] also B's and C's batch and N) and
// that M, the G x M rows and the G x ceil(M / 128) x ceil(N / 128) tiles
// are below 2^31; C and D are cast to the launcher's [G, M, N] (A's M):
// @dynm and @dync call one declaration. A run-time batch count (@dynbatch,
// and with a run-time M @dyngm) gets the kernel of groups = ? (`dyn` for G
// in the name, no remark): G its last i32 parameter, the tile count G x
// (the tiles of one batch) from it; the launch is preceded by the
// cf.asserts that A's, B's and C's G agree and that the G x M rows and the
// tiles are below 2^31 (a static M of 16: the same checks with its
// constant), D is allocated with A's G, and the launcher reads G from A
// (memref.dim 0) for the grid and passes it as the kernel's last argument.
// config=fixed: the shapes' default tiles (config=auto's BF16 cost model
// chooses others: bf16-gemm-options.mlir).
// RUN: fp8-opt %s --fp8-lower-to-nvvm=config=fixed 2> %t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: fp8-opt %s --fp8-lower-to-nvvm=config=fixed --fp8-launch-kernels 2>/dev/null | FileCheck %s --check-prefix=HOST

// CHECK-LABEL: func.func @bmm3(
// CHECK: linalg.batch_matmul {fp8.kernel_ref = @fp8_kernels::@fp8_batch_matmul_3x100x72x40_bf16_bf16_f32_accf32}
// CHECK-LABEL: func.func @dynbatch(
// CHECK: linalg.batch_matmul {fp8.kernel_ref = @fp8_kernels::@fp8_batch_matmul_dynx16x32x64_bf16_bf16_f32_accf32}
// CHECK-LABEL: func.func @dyngm(
// CHECK: linalg.batch_matmul {fp8.kernel_ref = @fp8_kernels::@fp8_batch_matmul_dynxdynx32x64_bf16_bf16_f32_accf32}
// CHECK-LABEL: func.func @dynm(
// CHECK: linalg.batch_matmul {fp8.kernel_ref = @fp8_kernels::@fp8_batch_matmul_2xdynx32x64_bf16_bf16_f32_accf32}
// CHECK-LABEL: func.func @dync(
// CHECK: linalg.batch_matmul {fp8.kernel_ref = @fp8_kernels::@fp8_batch_matmul_2xdynx32x64_bf16_bf16_f32_accf32}
// CHECK-LABEL: func.func @n36(
// CHECK-NOT: fp8.kernel_ref
// CHECK-LABEL: func.func @tiles(
// CHECK-NOT: fp8.kernel_ref
// CHECK-LABEL: func.func @f16(
// CHECK-NOT: fp8.kernel_ref
// CHECK: return

// CHECK-LABEL: llvm.func @fp8_batch_matmul_3x100x72x40_bf16_bf16_f32_accf32(
// CHECK-SAME: %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i32, %[[C:.*]]: !llvm.ptr)
// CHECK-SAME: fp8.kernel = #fp8.gemm_kernel<m = 100, n = 72, k = 40, a = bf16, b = bf16, d = f32, c = f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, layout = masked, groups = 3, block_m = 128, block_n = 128, block_k = 64, stages = 7, consumers = 2>
// CHECK: %[[CG:.*]] = llvm.addrspacecast %[[C]] : !llvm.ptr to !llvm.ptr<1>
// CHECK: %[[M:.*]] = arith.constant 100 : i32
// CHECK: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK: %[[G:.*]] = arith.constant 3 : i32
// CHECK: %[[TILES:.*]] = arith.muli %[[ONE]], %[[G]] : i32
// Producer: the tile's batch, then A (K, row, batch) and B's two boxes
// (column, K, batch).
// CHECK: scf.for %[[T:.*]] = %{{.*}} to %[[TILES]] step
// CHECK-NEXT: %[[PB:.*]] = arith.divui %[[T]], %[[ONE]] : i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg0, %{{.*}}, box[%[[K0:[0-9]+]], %{{[0-9]+}}, %[[PB]]]
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg1, %{{.*}}, box[%{{[0-9]+}}, %[[K0]], %[[PB]]]
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg1, %{{.*}}, box[%{{[0-9]+}}, %[[K0]], %[[PB]]]
// CHECK-NOT: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK: scf.yield
// Consumer: the batch's first row g * M in C (the loads) and D (the stores).
// CHECK: scf.for %[[CT:.*]] = %{{.*}} to %[[TILES]] step
// CHECK-NEXT: %[[CB:.*]] = arith.divui %[[CT]], %[[ONE]] : i32
// CHECK: %[[ROW0:.*]] = arith.muli %[[CB]], %[[M]] : i32
// CHECK: %[[CROW:.*]] = arith.addi %[[ROW0]], %{{.*}} : i32
// CHECK-NEXT: %[[CROW64:.*]] = arith.extui %[[CROW]] : i32 to i64
// CHECK-NEXT: %[[COFF:.*]] = arith.muli %[[CROW64]], %c72_i64 : i64
// CHECK-NEXT: %[[CIDX:.*]] = arith.addi %[[COFF]], %{{.*}} : i64
// CHECK-NEXT: llvm.getelementptr %[[CG]][%[[CIDX]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <row>]
// CHECK: arith.cmpi ult, %{{.*}}, %[[M]] : i32
// CHECK: %[[DROW:.*]] = arith.addi %[[ROW0]], %{{.*}} : i32
// CHECK-NEXT: arith.extui %[[DROW]] : i32 to i64
// CHECK: llvm.return

// The run-time batch count: G the last parameter (after C), the tile count
// the tiles of one batch (1) times G; batch g's rows start at g * 16.
// CHECK-LABEL: llvm.func @fp8_batch_matmul_dynx16x32x64_bf16_bf16_f32_accf32(
// CHECK-SAME: %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i32, %{{.*}}: !llvm.ptr, %[[GG:.*]]: i32)
// CHECK-SAME: fp8.kernel = #fp8.gemm_kernel<m = 16, n = 32, k = 64, a = bf16, b = bf16, d = f32, c = f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, layout = masked, groups = ?, block_m = 64
// CHECK: %[[GM:.*]] = arith.constant 16 : i32
// CHECK-NEXT: %[[GONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[GT:.*]] = arith.muli %[[GONE]], %[[GG]] : i32
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[GT]] step
// CHECK: scf.for %[[GCT:.*]] = %{{.*}} to %[[GT]] step
// CHECK-NEXT: %[[GCB:.*]] = arith.divui %[[GCT]], %[[GONE]] : i32
// CHECK: arith.muli %[[GCB]], %[[GM]] : i32
// CHECK: llvm.return
// G and M at run time: the tiles ceil(M / 128) x 1 times G.
// CHECK-LABEL: llvm.func @fp8_batch_matmul_dynxdynx32x64_bf16_bf16_f32_accf32(
// CHECK-SAME: %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %[[GMM:.*]]: i32, %{{.*}}: !llvm.ptr, %[[GG2:.*]]: i32)
// CHECK-SAME: fp8.kernel = #fp8.gemm_kernel<m = ?, n = 32, k = 64, a = bf16, b = bf16, d = f32, c = f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, layout = masked, groups = ?, block_m = 128
// CHECK: arith.addi %[[GMM]], %{{.*}} : i32
// CHECK: %[[GT1:.*]] = arith.muli %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: %[[GT2:.*]] = arith.muli %[[GT1]], %[[GG2]] : i32
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[GT2]] step
// CHECK: scf.for %[[GCT2:.*]] = %{{.*}} to %[[GT2]] step
// CHECK-NEXT: %[[GCB2:.*]] = arith.divui %[[GCT2]], %[[GT1]] : i32
// CHECK: arith.muli %[[GCB2]], %[[GMM]] : i32
// CHECK: llvm.return

// The run-time M: the tile count G x ceil(M / 128) x 1 and row g * M from
// the M parameter.
// CHECK-LABEL: llvm.func @fp8_batch_matmul_2xdynx32x64_bf16_bf16_f32_accf32(
// CHECK-SAME: %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %[[DM:.*]]: i32, %{{.*}}: !llvm.ptr)
// CHECK-SAME: fp8.kernel = #fp8.gemm_kernel<m = ?, n = 32, k = 64, a = bf16, b = bf16, d = f32, c = f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, layout = masked, groups = 2, block_m = 128
// CHECK: %[[DG:.*]] = arith.constant 2 : i32
// CHECK: %[[DT:.*]] = arith.muli %{{.*}}, %[[DG]] : i32
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[DT]] step
// CHECK: scf.for %[[DCT:.*]] = %{{.*}} to %[[DT]] step
// CHECK-NEXT: %[[DCB:.*]] = arith.divui %[[DCT]], %{{.*}} : i32
// CHECK: arith.muli %[[DCB]], %[[DM]] : i32
// CHECK: llvm.return

// REMARK: remark: fp8-lower-to-nvvm: no GPU GEMM kernel for 'linalg.batch_matmul' (the bf16 kernel needs N and K multiples of 8 (the TMA maps' row strides of A [M, K] and B [K, N] are multiples of 16 bytes), got N = 36, K = 64); it stays a host kernel
// REMARK: remark: fp8-lower-to-nvvm: no GPU GEMM kernel for 'linalg.batch_matmul' (the bf16 batch kernel needs fewer than 2^31 tiles (G x ceil(M / 64) x ceil(N / 128)), got G = 65536, M = 64, N = 16777216); it stays a host kernel
// REMARK-NOT: remark

// The launcher: (a, b, d, c) of rank 3; rank-3 maps with a box of one
// batch; the grid: ceil(100 / 128) * 1 tiles times 3 batches.
// HOST-LABEL: func.func @bmm3(
// HOST: call @fp8_launch_fp8_batch_matmul_3x100x72x40_bf16_bf16_f32_accf32(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (memref<3x100x40xbf16>, memref<3x40x72xbf16>, memref<3x100x72xf32>, memref<3x100x72xf32>) -> ()
// HOST-NOT: linalg.batch_matmul {
// A run-time G: A's G against B's and C's, the G x 16 rows and the G x
// ceil(16 / 64) x 1 tiles; D allocated with A's G.
// HOST-LABEL: func.func @dynbatch(
// HOST: %[[GA:.*]] = tensor.dim %arg0, %c0{{.*}} : tensor<?x16x64xbf16>
// HOST: %[[GB:.*]] = tensor.dim %arg1, %c0{{.*}} : tensor<?x64x32xbf16>
// HOST: %[[GSAME:.*]] = arith.cmpi eq, %[[GA]], %[[GB]] : index
// HOST: cf.assert %[[GSAME]], "linalg.batch_matmul: the batch of A (dimension 0) and of B (dimension 0) differ at run time; the bf16 kernel computes A's batch count and M rows with its compiled-in N and K"
// HOST: cf.assert %{{.*}}, "linalg.batch_matmul: the batch of A (dimension 0) and of C (dimension 0) differ at run time
// HOST-NOT: differ at run time
// HOST: %[[GM16:.*]] = arith.constant 16 : index
// HOST: %[[GDIM:.*]] = tensor.dim %arg0, %c0{{.*}} : tensor<?x16x64xbf16>
// HOST: %[[GROWS:.*]] = arith.muli %[[GDIM]], %[[GM16]] : index
// HOST: arith.cmpi ult, %[[GROWS]], %{{.*}} : index
// HOST: cf.assert %{{.*}}, "linalg.batch_matmul: the batch's G x M rows of C and D are 2^31 or more at run time
// HOST: %[[GMT:.*]] = arith.ceildivui %[[GM16]], %c64 : index
// HOST: %[[GGMT:.*]] = arith.muli %[[GDIM]], %[[GMT]] : index
// HOST: %[[GTILES:.*]] = arith.muli %[[GGMT]], %c1{{.*}} : index
// HOST: arith.cmpi ult, %[[GTILES]], %{{.*}} : index
// HOST: cf.assert %{{.*}}, "linalg.batch_matmul: 2^31 tiles or more (G x ceil(M / 64) x ceil(N / 128)) at run time
// HOST: %[[GD:.*]] = tensor.dim %arg0, %c0{{.*}} : tensor<?x16x64xbf16>
// HOST: memref.alloc(%[[GD]]) : memref<?x16x32xf32>
// HOST: call @fp8_launch_fp8_batch_matmul_dynx16x32x64_bf16_bf16_f32_accf32(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (memref<?x16x64xbf16>, memref<?x64x32xbf16>, memref<?x16x32xf32>, memref<?x16x32xf32>) -> ()
// HOST-NOT: linalg.batch_matmul
// G and M at run time: D allocated with A's G and M.
// HOST-LABEL: func.func @dyngm(
// HOST: cf.assert %{{.*}}, "linalg.batch_matmul: the batch of A (dimension 0) and of B (dimension 0) differ at run time
// HOST: cf.assert %{{.*}}, "linalg.batch_matmul: the batch of A (dimension 0) and of C (dimension 0) differ at run time
// HOST: cf.assert %{{.*}}, "linalg.batch_matmul: the M of A (dimension 1) and of C (dimension 1) differ at run time
// HOST: cf.assert %{{.*}}, "linalg.batch_matmul: 2^31 rows or more (M) at run time
// HOST: cf.assert %{{.*}}, "linalg.batch_matmul: the batch's G x M rows of C and D are 2^31 or more at run time
// HOST: cf.assert %{{.*}}, "linalg.batch_matmul: 2^31 tiles or more (G x ceil(M / 128) x ceil(N / 128)) at run time
// HOST: %[[GMG:.*]] = tensor.dim %arg0, %c0{{.*}} : tensor<?x?x64xbf16>
// HOST: %[[GMM:.*]] = tensor.dim %arg0, %c1{{.*}} : tensor<?x?x64xbf16>
// HOST: memref.alloc(%[[GMG]], %[[GMM]]) : memref<?x?x32xf32>
// HOST: call @fp8_launch_fp8_batch_matmul_dynxdynx32x64_bf16_bf16_f32_accf32(
// HOST-LABEL: func.func @dynm(
// HOST: %[[AM:.*]] = tensor.dim %arg0, %c1{{.*}} : tensor<2x?x64xbf16>
// HOST: %[[CM:.*]] = tensor.dim %arg2, %c1{{.*}} : tensor<2x?x32xf32>
// HOST: %[[SAME:.*]] = arith.cmpi eq, %[[AM]], %[[CM]] : index
// HOST: cf.assert %[[SAME]], "linalg.batch_matmul: the M of A (dimension 1) and of C (dimension 1) differ at run time; the bf16 kernel computes A's M rows with its compiled-in batch, N and K"
// HOST-NOT: differ at run time
// HOST: %[[M:.*]] = tensor.dim %arg0, %c1{{.*}} : tensor<2x?x64xbf16>
// HOST: arith.cmpi ult, %[[M]], %c2147483648 : index
// HOST: cf.assert %{{.*}}, "linalg.batch_matmul: 2^31 rows or more (M) at run time
// HOST: %[[ROWS:.*]] = arith.muli %c2, %[[M]] : index
// HOST: arith.cmpi ult, %[[ROWS]], %{{.*}} : index
// HOST: cf.assert %{{.*}}, "linalg.batch_matmul: the batch's G x M rows of C and D are 2^31 or more at run time
// HOST: %[[MT:.*]] = arith.ceildivui %[[M]], %c128 : index
// HOST: %[[GMT:.*]] = arith.muli %c2, %[[MT]] : index
// HOST: %[[T:.*]] = arith.muli %[[GMT]], %c1{{.*}} : index
// HOST: arith.cmpi ult, %[[T]], %{{.*}} : index
// HOST: cf.assert %{{.*}}, "linalg.batch_matmul: 2^31 tiles or more (G x ceil(M / 128) x ceil(N / 128)) at run time; the bf16 kernel's tile index is signed 32-bit"
// HOST: %[[DR:.*]] = tensor.dim %arg0, %c1{{.*}} : tensor<2x?x64xbf16>
// HOST: memref.alloc(%[[DR]]) : memref<2x?x32xf32>
// HOST: call @fp8_launch_fp8_batch_matmul_2xdynx32x64_bf16_bf16_f32_accf32(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (memref<2x?x64xbf16>, memref<2x64x32xbf16>, memref<2x?x32xf32>, memref<2x?x32xf32>) -> ()
// HOST-LABEL: func.func @dync(
// HOST: cf.assert %{{.*}}, "linalg.batch_matmul: the batch of A (dimension 0) and of C (dimension 0) differ at run time
// HOST: cf.assert %{{.*}}, "linalg.batch_matmul: the M of A (dimension 1) and of C (dimension 1) differ at run time
// HOST: cf.assert %{{.*}}, "linalg.batch_matmul: the N of B (dimension 2) and of C (dimension 2) differ at run time
// HOST-NOT: differ at run time
// HOST: %[[CC:.*]] = tensor.cast %arg2 : tensor<?x?x?xf32> to tensor<2x?x32xf32>
// HOST: memref.alloc(%{{.*}}) : memref<2x?x32xf32>
// HOST: call @fp8_launch_fp8_batch_matmul_2xdynx32x64_bf16_bf16_f32_accf32(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (memref<2x?x64xbf16>, memref<2x64x32xbf16>, memref<2x?x32xf32>, memref<2x?x32xf32>) -> ()
// HOST: tensor.cast %{{.*}} : tensor<2x?x32xf32> to tensor<?x?x?xf32>
// HOST-LABEL: func.func private @fp8_launch_fp8_batch_matmul_3x100x72x40_bf16_bf16_f32_accf32(
// HOST: %[[MDIM:.*]] = memref.dim %arg0, %c1{{.*}} : memref<3x100x40xbf16>
// HOST: nvgpu.tma.create.descriptor %{{.*}} box[%c1{{.*}}, %c128, %c64]
// HOST-SAME: memref<1x128x64xbf16, 3>, swizzle = swizzle_128b
// HOST: nvgpu.tma.create.descriptor %{{.*}} box[%c1{{.*}}, %c64{{.*}}, %c64{{.*}}]
// HOST-SAME: memref<1x64x64xbf16, 3>, swizzle = swizzle_128b
// HOST: %[[MT:.*]] = arith.ceildivui %[[MDIM]], %c128{{.*}} : index
// HOST: %[[MN:.*]] = arith.muli %[[MT]], %c1{{.*}} : index
// HOST: %[[TILES:.*]] = arith.muli %[[MN]], %c3{{.*}} : index
// HOST: arith.minui %[[TILES]], %{{.*}} : index
// HOST: gpu.launch_func async [%{{.*}}] @fp8_kernels::@fp8_batch_matmul_3x100x72x40_bf16_bf16_f32_accf32 {{.*}} threads in (%c384{{.*}}, %{{.*}}, %{{.*}}) dynamic_shared_memory_size %{{.*}} args(%[[TA:.*]] : !llvm.ptr, %{{.*}} : !llvm.ptr, %[[TA]] : !llvm.ptr, %{{.*}} : memref<3x100x40xbf16>, %{{.*}} : memref<3x100x72xf32>, %{{.*}} : i32, %{{.*}} : memref<3x100x72xf32>)
// The run-time G's launcher: the grid ceil(16 / 64) x 1 tiles times A's G
// (memref.dim 0), G the last i32 argument.
// HOST-LABEL: func.func private @fp8_launch_fp8_batch_matmul_dynx16x32x64_bf16_bf16_f32_accf32(
// HOST: %[[LM:.*]] = memref.dim %arg0, %c1{{.*}} : memref<?x16x64xbf16>
// HOST: nvgpu.tma.create.descriptor %{{.*}} box[%c1{{.*}}, %c64{{.*}}, %c64{{.*}}]
// HOST-SAME: memref<1x64x64xbf16, 3>, swizzle = swizzle_128b
// HOST: %[[LMT:.*]] = arith.ceildivui %[[LM]], %c64{{.*}} : index
// HOST: %[[LMN:.*]] = arith.muli %[[LMT]], %c1{{.*}} : index
// HOST: %[[LG:.*]] = memref.dim %arg0, %c0{{.*}} : memref<?x16x64xbf16>
// HOST: %[[LTILES:.*]] = arith.muli %[[LMN]], %[[LG]] : index
// HOST: %[[LGRID:.*]] = arith.minui %[[LTILES]], %{{.*}} : index
// HOST: %[[LM32:.*]] = arith.index_cast %[[LM]] : index to i32
// HOST: %[[LG32:.*]] = arith.index_cast %[[LG]] : index to i32
// HOST: gpu.launch_func async [%{{.*}}] @fp8_kernels::@fp8_batch_matmul_dynx16x32x64_bf16_bf16_f32_accf32 blocks in (%[[LGRID]], %{{.*}}, %{{.*}}) threads in (%c256{{.*}}, %{{.*}}, %{{.*}}) dynamic_shared_memory_size %{{.*}} args(%{{.*}} : !llvm.ptr, %{{.*}} : !llvm.ptr, %{{.*}} : !llvm.ptr, %{{.*}} : memref<?x16x64xbf16>, %{{.*}} : memref<?x16x32xf32>, %[[LM32]] : i32, %{{.*}} : memref<?x16x32xf32>, %[[LG32]] : i32)

func.func @bmm3(%a: tensor<3x100x40xbf16>, %b: tensor<3x40x72xbf16>, %c: tensor<3x100x72xf32>) -> tensor<3x100x72xf32> {
  %y = linalg.batch_matmul ins(%a, %b : tensor<3x100x40xbf16>, tensor<3x40x72xbf16>) outs(%c : tensor<3x100x72xf32>) -> tensor<3x100x72xf32>
  return %y : tensor<3x100x72xf32>
}

func.func @dynbatch(%a: tensor<?x16x64xbf16>, %b: tensor<?x64x32xbf16>, %c: tensor<?x16x32xf32>) -> tensor<?x16x32xf32> {
  %y = linalg.batch_matmul ins(%a, %b : tensor<?x16x64xbf16>, tensor<?x64x32xbf16>) outs(%c : tensor<?x16x32xf32>) -> tensor<?x16x32xf32>
  return %y : tensor<?x16x32xf32>
}

func.func @dyngm(%a: tensor<?x?x64xbf16>, %b: tensor<?x64x32xbf16>, %c: tensor<?x?x32xf32>) -> tensor<?x?x32xf32> {
  %y = linalg.batch_matmul ins(%a, %b : tensor<?x?x64xbf16>, tensor<?x64x32xbf16>) outs(%c : tensor<?x?x32xf32>) -> tensor<?x?x32xf32>
  return %y : tensor<?x?x32xf32>
}

func.func @dynm(%a: tensor<2x?x64xbf16>, %b: tensor<2x64x32xbf16>, %c: tensor<2x?x32xf32>) -> tensor<2x?x32xf32> {
  %y = linalg.batch_matmul ins(%a, %b : tensor<2x?x64xbf16>, tensor<2x64x32xbf16>) outs(%c : tensor<2x?x32xf32>) -> tensor<2x?x32xf32>
  return %y : tensor<2x?x32xf32>
}

// C [?, ?, ?]: its batch and N checked against A's and B's at run time.
func.func @dync(%a: tensor<2x?x64xbf16>, %b: tensor<2x64x32xbf16>, %c: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %y = linalg.batch_matmul ins(%a, %b : tensor<2x?x64xbf16>, tensor<2x64x32xbf16>) outs(%c : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  return %y : tensor<?x?x?xf32>
}

func.func @n36(%a: tensor<2x16x64xbf16>, %b: tensor<2x64x36xbf16>, %c: tensor<2x16x36xf32>) -> tensor<2x16x36xf32> {
  %y = linalg.batch_matmul ins(%a, %b : tensor<2x16x64xbf16>, tensor<2x64x36xbf16>) outs(%c : tensor<2x16x36xf32>) -> tensor<2x16x36xf32>
  return %y : tensor<2x16x36xf32>
}

// 2^16 batches of 2^17 column tiles: 2^33 tiles, past the kernel's 32-bit
// tile index.
func.func @tiles(%a: tensor<65536x64x64xbf16>, %b: tensor<65536x64x16777216xbf16>, %c: tensor<65536x64x16777216xf32>) -> tensor<65536x64x16777216xf32> {
  %y = linalg.batch_matmul ins(%a, %b : tensor<65536x64x64xbf16>, tensor<65536x64x16777216xbf16>) outs(%c : tensor<65536x64x16777216xf32>) -> tensor<65536x64x16777216xf32>
  return %y : tensor<65536x64x16777216xf32>
}

// Not a candidate (f16 operands): no kernel, no remark.
func.func @f16(%a: tensor<2x16x64xf16>, %b: tensor<2x64x32xf16>, %c: tensor<2x16x32xf32>) -> tensor<2x16x32xf32> {
  %y = linalg.batch_matmul ins(%a, %b : tensor<2x16x64xf16>, tensor<2x64x32xf16>) outs(%c : tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
  return %y : tensor<2x16x32xf32>
}
