// The BF16 batch kernel's head views (docs/gpu-kernel.md, "The BF16
// variant", head views): fp8-lower-to-nvvm gives a linalg.batch_matmul
// whose operand is attention's head permutation of a [B, S, H, D] source
// (linalg.transpose [0, 2, 1, 3], then tensor.collapse_shape [[0, 1], [2],
// [3]]: G = B x H; bf16, or f32 then arith.truncf; alone or under the
// [0, 2, 1] swap of a major) the kernel that reads the source in place
// (a_heads / b_heads = H, _ah<H> / _bh<H>): its TMA loads take the rank-4
// coordinates (col, row, g % H, g / H). Not taken: another permutation
// ([2, 0, 1, 3], [0, 2, 3, 1]), another collapse, a 2-D matmul.
// fp8-launch-kernels passes the sources [B, S, H, D] (an f32 one through
// one truncf, shared by the GEMMs reading it) and erases the permutations
// no other op reads; the launcher maps the source through its
// memref.transpose (B, H, S, D) with a box of one batch and head.
// config=fixed: the shapes' default tiles.
// RUN: fp8-opt %s --fp8-lower-to-nvvm=config=fixed 2>/dev/null | FileCheck %s
// RUN: fp8-opt %s --fp8-lower-to-nvvm=config=fixed --fp8-launch-kernels 2>/dev/null | FileCheck %s --check-prefix=HOST

// CHECK-LABEL: func.func @attention(
// CHECK: linalg.batch_matmul {fp8.kernel_ref = @fp8_kernels::@fp8_batch_matmul_4x128x128x64_bf16_bf16_f32_init0_bk_ah2_bh2}
// CHECK: linalg.batch_matmul {fp8.kernel_ref = @fp8_kernels::@fp8_batch_matmul_4x128x64x128_bf16_bf16_f32_init0_bh2}
// CHECK-LABEL: func.func @otherperm(
// CHECK: linalg.batch_matmul {fp8.kernel_ref = @fp8_kernels::@fp8_batch_matmul_4x128x64x128_bf16_bf16_f32_init0}
// CHECK-LABEL: func.func @colsmove(
// CHECK: linalg.batch_matmul {fp8.kernel_ref = @fp8_kernels::@fp8_batch_matmul_4x128x64x128_bf16_bf16_f32_init0}
// CHECK-LABEL: func.func @othercollapse(
// CHECK: linalg.batch_matmul {fp8.kernel_ref = @fp8_kernels::@fp8_batch_matmul_2x128x64x256_bf16_bf16_f32_init0}
// A batch of one ([S, H, D] -> [H, S, D], no collapse): the same views.
// CHECK-LABEL: func.func @attention1(
// CHECK: linalg.batch_matmul {fp8.kernel_ref = @fp8_kernels::@fp8_batch_matmul_2x128x128x64_bf16_bf16_f32_init0_bk_ah2_bh2}

// QK^T: A (Q) K-major through its head view, B (K) K-major through its.
// CHECK-LABEL: llvm.func @fp8_batch_matmul_4x128x128x64_bf16_bf16_f32_init0_bk_ah2_bh2(
// CHECK-SAME: fp8.kernel = #fp8.gemm_kernel<m = 128, n = 128, k = 64, a = bf16, b = bf16, b_major = k, a_heads = 2, b_heads = 2, d = f32, acc_init = 0.000000e+00 : f32,
// CHECK: %[[K0:.*]] = arith.muli %{{.*}}, %c64_i32 : i32
// CHECK: %[[AH:.*]] = arith.remui %[[G:.*]], %c2_i32{{.*}} : i32
// CHECK: %[[AB:.*]] = arith.divui %[[G]], %c2_i32{{.*}} : i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg0, %{{.*}}, box[%[[K0]], %{{.*}}, %[[AH]], %[[AB]]]
// CHECK: %[[BH:.*]] = arith.remui %[[G]], %c2_i32{{.*}} : i32
// CHECK: %[[BB:.*]] = arith.divui %[[G]], %c2_i32{{.*}} : i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg1, %{{.*}}, box[%[[K0]], %{{.*}}, %[[BH]], %[[BB]]]
// CHECK-NOT: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK: llvm.return

// PV: A (P) packed, rank 3; B (V) MN-major through its head view: one box
// of 64 columns x 64 K rows per 64 columns of the 128-column tile.
// CHECK-LABEL: llvm.func @fp8_batch_matmul_4x128x64x128_bf16_bf16_f32_init0_bh2(
// CHECK-SAME: b_heads = 2,
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg0, %{{.*}}, box[%{{.*}}, %{{.*}}, %[[PG:.*]]]
// CHECK: %[[VH:.*]] = arith.remui %[[PG]], %c2_i32{{.*}} : i32
// CHECK: %[[VB:.*]] = arith.divui %[[PG]], %c2_i32{{.*}} : i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg1, %{{.*}}, box[%{{.*}}, %{{.*}}, %[[VH]], %[[VB]]]
// The tile's second 64 columns (past N = 64: zero fill, never the next
// head's columns, as the map's innermost extent is D).
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg1, %{{.*}}, box[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}]
// CHECK-NOT: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK: llvm.return

// The launches: the sources [B, S, H, D]; V converted once for both
// readers (PV's B and, through the swap, dP's), the permutations gone.
// HOST-LABEL: func.func @attention(
// HOST-NOT: linalg.transpose
// HOST: call @fp8_launch_fp8_batch_matmul_4x128x128x64_bf16_bf16_f32_init0_bk_ah2_bh2(%{{.*}}, %{{.*}}, %{{.*}}) : (memref<2x128x2x64xbf16>, memref<2x128x2x64xbf16>, memref<4x128x128xf32>) -> ()
// HOST-NOT: linalg.transpose
// HOST: %[[V4:.*]] = tensor.expand_shape %arg2 {{\[}}[0, 1], [2, 3]] output_shape [2, 128, 2, 64]
// HOST: %[[V:.*]] = arith.truncf %[[V4]] : tensor<2x128x2x64xf32> to tensor<2x128x2x64xbf16>
// HOST: bufferization.to_buffer %[[V]]
// HOST: call @fp8_launch_fp8_batch_matmul_4x128x64x128_bf16_bf16_f32_init0_bh2(%{{.*}}, %{{.*}}, %{{.*}}) : (memref<4x128x128xbf16>, memref<2x128x2x64xbf16>, memref<4x128x64xf32>) -> ()
// HOST-NOT: linalg.transpose
// HOST-NOT: arith.truncf
// HOST: bufferization.to_buffer %[[V]]
// HOST: call @fp8_launch_fp8_batch_matmul_4x128x128x64_bf16_bf16_f32_init0_bk_ah2_bh2(%{{.*}}, %{{.*}}, %{{.*}}) : (memref<2x128x2x64xbf16>, memref<2x128x2x64xbf16>, memref<4x128x128xf32>) -> ()
// HOST-NOT: linalg.transpose
// HOST: return
// HOST-LABEL: func.func @otherperm(
// HOST: linalg.transpose ins(%{{.*}} : tensor<2x128x2x64xbf16>) outs(%{{.*}} : tensor<2x2x128x64xbf16>) permutation = [2, 0, 1, 3]
// HOST-LABEL: func.func @colsmove(
// HOST: permutation = [0, 2, 3, 1]
// The batch of one's sources [S, H, D] passed as [1, S, H, D].
// HOST-LABEL: func.func @attention1(
// HOST-NOT: linalg.transpose
// HOST: tensor.expand_shape %{{.*}} {{\[}}[0, 1], [2], [3]] output_shape [1, 128, 2, 64] : tensor<128x2x64xbf16> into tensor<1x128x2x64xbf16>
// HOST: call @fp8_launch_fp8_batch_matmul_2x128x128x64_bf16_bf16_f32_init0_bk_ah2_bh2(%{{.*}}, %{{.*}}, %{{.*}}) : (memref<1x128x2x64xbf16>, memref<1x128x2x64xbf16>, memref<2x128x128xf32>) -> ()
// HOST-NOT: linalg.transpose
// HOST: return
// The launcher: (B, S, H, D) viewed (B, H, S, D) with the source's
// strides; boxes of one batch and head.
// HOST-LABEL: func.func private @fp8_launch_fp8_batch_matmul_4x128x128x64_bf16_bf16_f32_init0_bk_ah2_bh2(
// HOST: memref.transpose %{{.*}} (d0, d1, d2, d3) -> (d0, d2, d1, d3) : memref<2x128x2x64xbf16> to memref<2x2x128x64xbf16, strided<[16384, 64, 128, 1]>>
// HOST: memref.transpose %{{.*}} (d0, d1, d2, d3) -> (d0, d2, d1, d3) : memref<2x128x2x64xbf16> to memref<2x2x128x64xbf16, strided<[16384, 64, 128, 1]>>
// HOST: nvgpu.tma.create.descriptor %{{.*}} box[%c1{{.*}}, %c1{{.*}}, %c128{{.*}}, %c64{{.*}}]
// HOST: nvgpu.tma.create.descriptor %{{.*}} box[%c1{{.*}}, %c1{{.*}}, %c128{{.*}}, %c64{{.*}}]
// HOST: gpu.launch_func
// HOST-LABEL: func.func private @fp8_launch_fp8_batch_matmul_4x128x64x128_bf16_bf16_f32_init0_bh2(
// HOST: memref.transpose
// HOST: nvgpu.tma.create.descriptor %{{.*}} box[%c1{{.*}}, %c128{{.*}}, %c64{{.*}}]
// HOST: nvgpu.tma.create.descriptor %{{.*}} box[%c1{{.*}}, %c1{{.*}}, %c64{{.*}}, %c64{{.*}}]

// Attention with B = 2 sequences of S = 128, H = 2 heads of D = 64: the
// scores Q K^T and the context P V of bf16 Q and K and of an f32 V, and
// dP = dO V^T's V^T read from V with the other major (here dO = Q).
func.func @attention(%q2: tensor<256x128xbf16>, %k2: tensor<256x128xbf16>, %v2: tensor<256x128xf32>, %p: tensor<4x128x128xbf16>) -> (tensor<4x128x128xf32>, tensor<4x128x64xf32>, tensor<4x128x128xf32>) {
  %zero = arith.constant 0.0 : f32
  %e4 = tensor.empty() : tensor<2x2x128x64xbf16>
  %q4 = tensor.expand_shape %q2 [[0, 1], [2, 3]] output_shape [2, 128, 2, 64] : tensor<256x128xbf16> into tensor<2x128x2x64xbf16>
  %qt = linalg.transpose ins(%q4 : tensor<2x128x2x64xbf16>) outs(%e4 : tensor<2x2x128x64xbf16>) permutation = [0, 2, 1, 3]
  %q = tensor.collapse_shape %qt [[0, 1], [2], [3]] : tensor<2x2x128x64xbf16> into tensor<4x128x64xbf16>
  %k4 = tensor.expand_shape %k2 [[0, 1], [2, 3]] output_shape [2, 128, 2, 64] : tensor<256x128xbf16> into tensor<2x128x2x64xbf16>
  %kt4 = linalg.transpose ins(%k4 : tensor<2x128x2x64xbf16>) outs(%e4 : tensor<2x2x128x64xbf16>) permutation = [0, 2, 1, 3]
  %kg = tensor.collapse_shape %kt4 [[0, 1], [2], [3]] : tensor<2x2x128x64xbf16> into tensor<4x128x64xbf16>
  %ek = tensor.empty() : tensor<4x64x128xbf16>
  %kt = linalg.transpose ins(%kg : tensor<4x128x64xbf16>) outs(%ek : tensor<4x64x128xbf16>) permutation = [0, 2, 1]
  %es = tensor.empty() : tensor<4x128x128xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x128x128xf32>) -> tensor<4x128x128xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x128x64xbf16>, tensor<4x64x128xbf16>) outs(%zs : tensor<4x128x128xf32>) -> tensor<4x128x128xf32>
  %ev = tensor.empty() : tensor<2x2x128x64xf32>
  %v4 = tensor.expand_shape %v2 [[0, 1], [2, 3]] output_shape [2, 128, 2, 64] : tensor<256x128xf32> into tensor<2x128x2x64xf32>
  %vt4 = linalg.transpose ins(%v4 : tensor<2x128x2x64xf32>) outs(%ev : tensor<2x2x128x64xf32>) permutation = [0, 2, 1, 3]
  %vg = tensor.collapse_shape %vt4 [[0, 1], [2], [3]] : tensor<2x2x128x64xf32> into tensor<4x128x64xf32>
  %v = arith.truncf %vg : tensor<4x128x64xf32> to tensor<4x128x64xbf16>
  %eo = tensor.empty() : tensor<4x128x64xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x128x64xf32>) -> tensor<4x128x64xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x128x128xbf16>, tensor<4x128x64xbf16>) outs(%zo : tensor<4x128x64xf32>) -> tensor<4x128x64xf32>
  %evt = tensor.empty() : tensor<4x64x128xf32>
  %vt32 = linalg.transpose ins(%vg : tensor<4x128x64xf32>) outs(%evt : tensor<4x64x128xf32>) permutation = [0, 2, 1]
  %vt = arith.truncf %vt32 : tensor<4x64x128xf32> to tensor<4x64x128xbf16>
  %dp = linalg.batch_matmul ins(%q, %vt : tensor<4x128x64xbf16>, tensor<4x64x128xbf16>) outs(%zs : tensor<4x128x128xf32>) -> tensor<4x128x128xf32>
  return %s, %o, %dp : tensor<4x128x128xf32>, tensor<4x128x64xf32>, tensor<4x128x128xf32>
}

// [B, S, H, D] -> [H, B, S, D]: batch g = h x B + b, not a head view.
func.func @otherperm(%v2: tensor<256x128xbf16>, %p: tensor<4x128x128xbf16>) -> tensor<4x128x64xf32> {
  %zero = arith.constant 0.0 : f32
  %v4 = tensor.expand_shape %v2 [[0, 1], [2, 3]] output_shape [2, 128, 2, 64] : tensor<256x128xbf16> into tensor<2x128x2x64xbf16>
  %ev = tensor.empty() : tensor<2x2x128x64xbf16>
  %vt4 = linalg.transpose ins(%v4 : tensor<2x128x2x64xbf16>) outs(%ev : tensor<2x2x128x64xbf16>) permutation = [2, 0, 1, 3]
  %v = tensor.collapse_shape %vt4 [[0, 1], [2], [3]] : tensor<2x2x128x64xbf16> into tensor<4x128x64xbf16>
  %eo = tensor.empty() : tensor<4x128x64xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x128x64xf32>) -> tensor<4x128x64xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x128x128xbf16>, tensor<4x128x64xbf16>) outs(%zo : tensor<4x128x64xf32>) -> tensor<4x128x64xf32>
  return %o : tensor<4x128x64xf32>
}

// [B, D, H, S] -> [B, H, S, D]: the columns would be strided, not a TMA
// map's contiguous innermost dimension.
func.func @colsmove(%v4: tensor<2x64x2x128xbf16>, %p: tensor<4x128x128xbf16>) -> tensor<4x128x64xf32> {
  %zero = arith.constant 0.0 : f32
  %ev = tensor.empty() : tensor<2x2x128x64xbf16>
  %vt4 = linalg.transpose ins(%v4 : tensor<2x64x2x128xbf16>) outs(%ev : tensor<2x2x128x64xbf16>) permutation = [0, 2, 3, 1]
  %v = tensor.collapse_shape %vt4 [[0, 1], [2], [3]] : tensor<2x2x128x64xbf16> into tensor<4x128x64xbf16>
  %eo = tensor.empty() : tensor<4x128x64xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x128x64xf32>) -> tensor<4x128x64xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x128x128xbf16>, tensor<4x128x64xbf16>) outs(%zo : tensor<4x128x64xf32>) -> tensor<4x128x64xf32>
  return %o : tensor<4x128x64xf32>
}

// [B, S, H, D] -> [B, H, S, D] collapsed [[0], [1, 2], [3]]: the heads
// join the rows, not the batch.
func.func @othercollapse(%v2: tensor<256x128xbf16>, %p: tensor<2x128x256xbf16>) -> tensor<2x128x64xf32> {
  %zero = arith.constant 0.0 : f32
  %v4 = tensor.expand_shape %v2 [[0, 1], [2, 3]] output_shape [2, 128, 2, 64] : tensor<256x128xbf16> into tensor<2x128x2x64xbf16>
  %ev = tensor.empty() : tensor<2x2x128x64xbf16>
  %vt4 = linalg.transpose ins(%v4 : tensor<2x128x2x64xbf16>) outs(%ev : tensor<2x2x128x64xbf16>) permutation = [0, 2, 1, 3]
  %v = tensor.collapse_shape %vt4 [[0], [1, 2], [3]] : tensor<2x2x128x64xbf16> into tensor<2x256x64xbf16>
  %eo = tensor.empty() : tensor<2x128x64xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x128x64xf32>) -> tensor<2x128x64xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x128x256xbf16>, tensor<2x256x64xbf16>) outs(%zo : tensor<2x128x64xf32>) -> tensor<2x128x64xf32>
  return %o : tensor<2x128x64xf32>
}

// Q K^T of one sequence: Q [128, 2, 64] permuted [1, 0, 2] as A, K's same
// view through the [0, 2, 1] swap as B.
func.func @attention1(%q3: tensor<128x2x64xbf16>, %k3: tensor<128x2x64xbf16>) -> tensor<2x128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e3 = tensor.empty() : tensor<2x128x64xbf16>
  %q = linalg.transpose ins(%q3 : tensor<128x2x64xbf16>) outs(%e3 : tensor<2x128x64xbf16>) permutation = [1, 0, 2]
  %kg = linalg.transpose ins(%k3 : tensor<128x2x64xbf16>) outs(%e3 : tensor<2x128x64xbf16>) permutation = [1, 0, 2]
  %ek = tensor.empty() : tensor<2x64x128xbf16>
  %k = linalg.transpose ins(%kg : tensor<2x128x64xbf16>) outs(%ek : tensor<2x64x128xbf16>) permutation = [0, 2, 1]
  %es = tensor.empty() : tensor<2x128x128xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x128x128xf32>) -> tensor<2x128x128xf32>
  %s = linalg.batch_matmul ins(%q, %k : tensor<2x128x64xbf16>, tensor<2x64x128xbf16>) outs(%zs : tensor<2x128x128xf32>) -> tensor<2x128x128xf32>
  return %s : tensor<2x128x128xf32>
}
