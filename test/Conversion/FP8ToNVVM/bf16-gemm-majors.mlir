// The BF16 kernel's operand majors (docs/gpu-kernel.md, "The BF16 variant"):
// fp8-lower-to-nvvm gives a linalg.matmul or batch_matmul whose operand is
// a transpose of the two matrix dimensions (linalg.transpose, bf16 or f32
// then arith.truncf) the kernel that reads the transpose's source: A [K, M]
// MN-major (a_major = mn, _am: the TMA boxes of 64 M columns x 64 K rows,
// one per 64 rows of the tile, the MN-major descriptor with LBO 8192 and
// SBO 1024, +128 per k16 step, layout col = imm-trans-a 1), B [N, K]
// K-major (b_major = k, _bk: one box of block_n rows x 64 K, the K-major
// descriptor, +2 per step, layout col = imm-trans-b 0). Not taken: a
// batch-dimension permutation ([2, 0, 1]; [1, 0, 2] is a batch of one's
// head view, bf16-gemm-heads.mlir), an A whose M is not a multiple
// of 8 or dynamic (its [K, M] rows would not be TMA strides).
// fp8-launch-kernels passes the
// sources (the truncf applied to the source untransposed, one per source:
// an existing one is reused) and erases the transposes no other op reads.
// config=fixed: the shapes' default tiles.
// RUN: fp8-opt %s --fp8-lower-to-nvvm=config=fixed 2>/dev/null | FileCheck %s
// RUN: fp8-opt %s --fp8-lower-to-nvvm=config=fixed --fp8-launch-kernels 2>/dev/null | FileCheck %s --check-prefix=HOST

// Descriptor constants (WgmmaFragment.h, hand-derived): K-major SW128
// (64 << 32) | (1 << 62) = 4611686293305294848; MN-major SW128 with LBO
// 8192: that | (512 << 16) = 4611686293338849280.

// CHECK-LABEL: func.func @mk(
// CHECK: linalg.matmul {fp8.kernel_ref = @fp8_kernels::@fp8_matmul_200x136x72_bf16_bf16_f32_accf32_am_bk}
// CHECK-LABEL: func.func @f32(
// CHECK: linalg.matmul {fp8.kernel_ref = @fp8_kernels::@fp8_matmul_200x136x72_bf16_bf16_f32_init0_am_bk}
// M = 100: A stays K-major (its transpose a host kernel), B K-major.
// CHECK-LABEL: func.func @m100(
// CHECK: linalg.matmul {fp8.kernel_ref = @fp8_kernels::@fp8_matmul_100x136x72_bf16_bf16_f32_accf32_bk}
// CHECK-LABEL: func.func @mdyn(
// CHECK: linalg.matmul {fp8.kernel_ref = @fp8_kernels::@fp8_matmul_dynx136x72_bf16_bf16_f32_accf32}
// CHECK-LABEL: func.func @batch(
// CHECK: linalg.batch_matmul {fp8.kernel_ref = @fp8_kernels::@fp8_batch_matmul_2x200x136x72_bf16_bf16_f32_accf32_am_bk}
// CHECK-LABEL: func.func @batchperm(
// CHECK: linalg.batch_matmul {fp8.kernel_ref = @fp8_kernels::@fp8_batch_matmul_2x200x136x72_bf16_bf16_f32_accf32}
// CHECK-LABEL: func.func @shared(

// CHECK-LABEL: llvm.func @fp8_matmul_200x136x72_bf16_bf16_f32_accf32_am_bk(
// CHECK-SAME: fp8.kernel = #fp8.gemm_kernel<m = 200, n = 136, k = 72, a = bf16, b = bf16, a_major = mn, b_major = k, d = f32, c = f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 64, stages = 7, consumers = 2>
// Producer: A's two MN-major boxes (rows row0 and row0 + 64, K row k0),
// then B's one K-major box (K column k0, rows col0).
// CHECK: %[[K0:.*]] = arith.muli %{{.*}}, %c64_i32 : i32
// CHECK: %[[R0:.*]] = arith.addi %[[ROW:.*]], %c0_i32{{.*}} : i32
// CHECK: %[[S0:.*]] = arith.addi %[[SLOT:.*]], %c0_i32{{.*}} : i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg0, %{{.*}}, box[%[[R0]], %[[K0]]]
// CHECK: %[[R1:.*]] = arith.addi %[[ROW]], %c64_i32{{.*}} : i32
// CHECK: %[[S1:.*]] = arith.addi %[[SLOT]], %c8192_i32 : i32
// CHECK: %[[P1:.*]] = llvm.getelementptr %{{.*}}[%[[S1]]]
// CHECK: %[[D1:.*]] = llvm.addrspacecast %[[P1]]
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[D1]], %arg0, %{{.*}}, box[%[[R1]], %[[K0]]]
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg1, %{{.*}}, box[%[[K0]], %{{.*}}]
// CHECK-NOT: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK: scf.yield
// Consumer: both descriptors, A MN-major, B K-major.
// CHECK: %[[DA:.*]] = arith.ori %{{.*}}, %c4611686293338849280_i64 : i64
// CHECK: %[[DB:.*]] = arith.ori %{{.*}}, %c4611686293305294848_i64 : i64
// CHECK: %[[W0:.*]] = nvvm.wgmma.mma_async %[[DA]], %[[DB]], %{{.*}}, <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <col>], B[<bf16>, <one>, <col>]
// CHECK: %[[A1:.*]] = arith.addi %[[DA]], %c128_i64
// CHECK: %[[B1:.*]] = arith.addi %[[DB]], %c2_i64
// CHECK: nvvm.wgmma.mma_async %[[A1]], %[[B1]], %[[W0]], <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <col>], B[<bf16>, <one>, <col>]
// CHECK: llvm.return

// The batch kernel: rank-3 boxes, the batch the third coordinate.
// CHECK-LABEL: llvm.func @fp8_batch_matmul_2x200x136x72_bf16_bf16_f32_accf32_am_bk(
// CHECK-SAME: a_major = mn, b_major = k,
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg0, %{{.*}}, box[%[[BR0:.*]], %[[BK0:.*]], %[[G:.*]]]
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg0, %{{.*}}, box[%{{.*}}, %[[BK0]], %[[G]]]
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg1, %{{.*}}, box[%[[BK0]], %{{.*}}, %[[G]]]
// CHECK-NOT: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK: llvm.return

// The launches: the sources, untransposed; their maps' boxes.
// HOST-LABEL: func.func @mk(
// HOST-NOT: linalg.transpose
// HOST: call @fp8_launch_fp8_matmul_200x136x72_bf16_bf16_f32_accf32_am_bk(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (memref<72x200xbf16>, memref<136x72xbf16>, memref<200x136xf32>, memref<200x136xf32>) -> ()
// HOST-NOT: linalg.transpose
// HOST: return
// The conversions after the transposes, now before them: untransposed.
// HOST-LABEL: func.func @f32(
// HOST-DAG: %[[TA:.*]] = arith.truncf %arg0 : tensor<72x200xf32> to tensor<72x200xbf16>
// HOST-DAG: %[[TB:.*]] = arith.truncf %arg1 : tensor<136x72xf32> to tensor<136x72xbf16>
// HOST-NOT: linalg.transpose
// HOST-NOT: arith.truncf
// HOST: bufferization.to_buffer %[[TA]]
// HOST: bufferization.to_buffer %[[TB]]
// HOST: call @fp8_launch_fp8_matmul_200x136x72_bf16_bf16_f32_init0_am_bk(%{{.*}}, %{{.*}}, %{{.*}}) : (memref<72x200xbf16>, memref<136x72xbf16>, memref<200x136xf32>) -> ()
// HOST-NOT: linalg.transpose
// HOST: return
// A not taken: its transpose stays.
// HOST-LABEL: func.func @m100(
// HOST: linalg.transpose ins(%arg0 : tensor<72x100xbf16>)
// HOST-NOT: linalg.transpose
// HOST: call @fp8_launch_fp8_matmul_100x136x72_bf16_bf16_f32_accf32_bk(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (memref<100x72xbf16>, memref<136x72xbf16>,
// HOST-LABEL: func.func @batch(
// HOST-NOT: linalg.transpose
// HOST: call @fp8_launch_fp8_batch_matmul_2x200x136x72_bf16_bf16_f32_accf32_am_bk(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (memref<2x72x200xbf16>, memref<2x136x72xbf16>,
// HOST-LABEL: func.func @batchperm(
// HOST: linalg.transpose ins(%arg0 : tensor<200x72x2xbf16>) outs(%{{.*}} : tensor<2x200x72xbf16>) permutation = [2, 0, 1]
// HOST: call @fp8_launch_fp8_batch_matmul_2x200x136x72_bf16_bf16_f32_accf32(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (memref<2x200x72xbf16>, memref<2x72x136xbf16>,
// One conversion of the weight for both GEMMs: the second's, moved up.
// HOST-LABEL: func.func @shared(
// HOST: %[[W:.*]] = arith.truncf %arg1 : tensor<256x128xf32> to tensor<256x128xbf16>
// HOST-NOT: arith.truncf %arg1
// HOST-NOT: linalg.transpose
// HOST: bufferization.to_buffer %[[W]]
// HOST: call @fp8_launch_fp8_matmul_128x256x128_bf16_bf16_f32_init0_bk(
// HOST: bufferization.to_buffer %[[W]]
// HOST: call @fp8_launch_fp8_matmul_128x128x256_bf16_bf16_f32_init0(
// HOST-NOT: arith.truncf %arg1
// HOST: return
// The launchers' maps: A [K, M] in boxes of 64 K rows x 64 columns, B
// [N, K] in boxes of 128 rows x 64 K.
// HOST-LABEL: func.func private @fp8_launch_fp8_matmul_200x136x72_bf16_bf16_f32_accf32_am_bk(
// HOST: nvgpu.tma.create.descriptor %{{.*}} box[%c64{{.*}}, %c64{{.*}}]
// HOST-SAME: memref<64x64xbf16, 3>, swizzle = swizzle_128b
// HOST: nvgpu.tma.create.descriptor %{{.*}} box[%c128{{.*}}, %c64{{.*}}]
// HOST-SAME: memref<128x64xbf16, 3>, swizzle = swizzle_128b
// HOST-NOT: nvgpu.tma.create.descriptor
// HOST: gpu.launch_func
// HOST-LABEL: func.func private @fp8_launch_fp8_batch_matmul_2x200x136x72_bf16_bf16_f32_accf32_am_bk(
// HOST: nvgpu.tma.create.descriptor %{{.*}} box[%c1{{.*}}, %c64{{.*}}, %c64{{.*}}]
// HOST: nvgpu.tma.create.descriptor %{{.*}} box[%c1{{.*}}, %c128{{.*}}, %c64{{.*}}]

func.func @mk(%at: tensor<72x200xbf16>, %bt: tensor<136x72xbf16>, %c: tensor<200x136xf32>) -> tensor<200x136xf32> {
  %ea = tensor.empty() : tensor<200x72xbf16>
  %a = linalg.transpose ins(%at : tensor<72x200xbf16>) outs(%ea : tensor<200x72xbf16>) permutation = [1, 0]
  %eb = tensor.empty() : tensor<72x136xbf16>
  %b = linalg.transpose ins(%bt : tensor<136x72xbf16>) outs(%eb : tensor<72x136xbf16>) permutation = [1, 0]
  %y = linalg.matmul ins(%a, %b : tensor<200x72xbf16>, tensor<72x136xbf16>) outs(%c : tensor<200x136xf32>) -> tensor<200x136xf32>
  return %y : tensor<200x136xf32>
}

func.func @f32(%at: tensor<72x200xf32>, %bt: tensor<136x72xf32>) -> tensor<200x136xf32> {
  %zero = arith.constant 0.0 : f32
  %ea = tensor.empty() : tensor<200x72xf32>
  %a32 = linalg.transpose ins(%at : tensor<72x200xf32>) outs(%ea : tensor<200x72xf32>) permutation = [1, 0]
  %eb = tensor.empty() : tensor<72x136xf32>
  %b32 = linalg.transpose ins(%bt : tensor<136x72xf32>) outs(%eb : tensor<72x136xf32>) permutation = [1, 0]
  %a = arith.truncf %a32 : tensor<200x72xf32> to tensor<200x72xbf16>
  %b = arith.truncf %b32 : tensor<72x136xf32> to tensor<72x136xbf16>
  %ce = tensor.empty() : tensor<200x136xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<200x136xf32>) -> tensor<200x136xf32>
  %y = linalg.matmul ins(%a, %b : tensor<200x72xbf16>, tensor<72x136xbf16>) outs(%z : tensor<200x136xf32>) -> tensor<200x136xf32>
  return %y : tensor<200x136xf32>
}

func.func @m100(%at: tensor<72x100xbf16>, %bt: tensor<136x72xbf16>, %c: tensor<100x136xf32>) -> tensor<100x136xf32> {
  %ea = tensor.empty() : tensor<100x72xbf16>
  %a = linalg.transpose ins(%at : tensor<72x100xbf16>) outs(%ea : tensor<100x72xbf16>) permutation = [1, 0]
  %eb = tensor.empty() : tensor<72x136xbf16>
  %b = linalg.transpose ins(%bt : tensor<136x72xbf16>) outs(%eb : tensor<72x136xbf16>) permutation = [1, 0]
  %y = linalg.matmul ins(%a, %b : tensor<100x72xbf16>, tensor<72x136xbf16>) outs(%c : tensor<100x136xf32>) -> tensor<100x136xf32>
  return %y : tensor<100x136xf32>
}

func.func @mdyn(%at: tensor<72x?xbf16>, %b: tensor<72x136xbf16>, %c: tensor<?x136xf32>) -> tensor<?x136xf32> {
  %c1 = arith.constant 1 : index
  %m = tensor.dim %at, %c1 : tensor<72x?xbf16>
  %ea = tensor.empty(%m) : tensor<?x72xbf16>
  %a = linalg.transpose ins(%at : tensor<72x?xbf16>) outs(%ea : tensor<?x72xbf16>) permutation = [1, 0]
  %y = linalg.matmul ins(%a, %b : tensor<?x72xbf16>, tensor<72x136xbf16>) outs(%c : tensor<?x136xf32>) -> tensor<?x136xf32>
  return %y : tensor<?x136xf32>
}

func.func @batch(%at: tensor<2x72x200xbf16>, %bt: tensor<2x136x72xbf16>, %c: tensor<2x200x136xf32>) -> tensor<2x200x136xf32> {
  %ea = tensor.empty() : tensor<2x200x72xbf16>
  %a = linalg.transpose ins(%at : tensor<2x72x200xbf16>) outs(%ea : tensor<2x200x72xbf16>) permutation = [0, 2, 1]
  %eb = tensor.empty() : tensor<2x72x136xbf16>
  %b = linalg.transpose ins(%bt : tensor<2x136x72xbf16>) outs(%eb : tensor<2x72x136xbf16>) permutation = [0, 2, 1]
  %y = linalg.batch_matmul ins(%a, %b : tensor<2x200x72xbf16>, tensor<2x72x136xbf16>) outs(%c : tensor<2x200x136xf32>) -> tensor<2x200x136xf32>
  return %y : tensor<2x200x136xf32>
}

func.func @batchperm(%as: tensor<200x72x2xbf16>, %b: tensor<2x72x136xbf16>, %c: tensor<2x200x136xf32>) -> tensor<2x200x136xf32> {
  %ea = tensor.empty() : tensor<2x200x72xbf16>
  %a = linalg.transpose ins(%as : tensor<200x72x2xbf16>) outs(%ea : tensor<2x200x72xbf16>) permutation = [2, 0, 1]
  %y = linalg.batch_matmul ins(%a, %b : tensor<2x200x72xbf16>, tensor<2x72x136xbf16>) outs(%c : tensor<2x200x136xf32>) -> tensor<2x200x136xf32>
  return %y : tensor<2x200x136xf32>
}

// The output head's two GEMMs of one weight W [V, H] (f32): the logits X
// W^T (W transposed, then converted) and the input gradient dY W (W
// converted). Both read one conversion of W.
func.func @shared(%x: tensor<128x128xbf16>, %w: tensor<256x128xf32>, %dy: tensor<128x256xbf16>) -> (tensor<128x256xf32>, tensor<128x128xf32>) {
  %zero = arith.constant 0.0 : f32
  %et = tensor.empty() : tensor<128x256xf32>
  %wt = linalg.transpose ins(%w : tensor<256x128xf32>) outs(%et : tensor<128x256xf32>) permutation = [1, 0]
  %wt16 = arith.truncf %wt : tensor<128x256xf32> to tensor<128x256xbf16>
  %z1 = linalg.fill ins(%zero : f32) outs(%et : tensor<128x256xf32>) -> tensor<128x256xf32>
  %logits = linalg.matmul ins(%x, %wt16 : tensor<128x128xbf16>, tensor<128x256xbf16>) outs(%z1 : tensor<128x256xf32>) -> tensor<128x256xf32>
  %w16 = arith.truncf %w : tensor<256x128xf32> to tensor<256x128xbf16>
  %ed = tensor.empty() : tensor<128x128xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%ed : tensor<128x128xf32>) -> tensor<128x128xf32>
  %dx = linalg.matmul ins(%dy, %w16 : tensor<128x256xbf16>, tensor<256x128xbf16>) outs(%z2 : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %logits, %dx : tensor<128x256xf32>, tensor<128x128xf32>
}
