// The BF16 batch kernel's D written through a head view (docs/gpu-kernel.md,
// "The BF16 variant", head views): fp8-lower-to-nvvm gives a
// linalg.batch_matmul without C whose result's only reader is attention's
// permutation back (tensor.expand_shape [[0, 1], [2], [3]] of [G, S, D] to
// [B, H, S, D], then linalg.transpose [0, 2, 1, 3] to [B, S, H, D]) the
// kernel that writes D as [B, S, H, D] (d_heads = H, _dh<H>): batch g's
// row r at row (g / H x S + r) x H + g % H of [B x S x H, D]. Not taken:
// another permutation ([2, 0, 1, 3], [0, 2, 3, 1]), another expand, a
// result with another reader, a kernel with C. A batch of one sequence
// (no expand: the [H, S, D] result's linalg.transpose [1, 0, 2] to [S, H,
// D], as the python models' unbatched attention) is the view with B = 1.
// fp8-launch-kernels passes D [B, S, H, D] in the permutation's place and
// erases the permutation and the expand.
// config=fixed: the shapes' default tiles.
// RUN: fp8-opt %s --fp8-lower-to-nvvm=config=fixed 2>/dev/null | FileCheck %s
// RUN: fp8-opt %s --fp8-lower-to-nvvm=config=fixed --fp8-launch-kernels 2>/dev/null | FileCheck %s --check-prefix=HOST

// CHECK-LABEL: func.func @context(
// CHECK: linalg.batch_matmul {fp8.kernel_ref = @fp8_kernels::@fp8_batch_matmul_6x200x64x128_bf16_bf16_f32_init0_dh3}
// CHECK-LABEL: func.func @context_heads(
// CHECK: linalg.batch_matmul {fp8.kernel_ref = @fp8_kernels::@fp8_batch_matmul_6x200x64x128_bf16_bf16_f32_init0_bh3_dh3}
// CHECK-LABEL: func.func @otherperm(
// CHECK: linalg.batch_matmul {fp8.kernel_ref = @fp8_kernels::@fp8_batch_matmul_6x200x64x128_bf16_bf16_f32_init0}
// CHECK-LABEL: func.func @colsmove(
// CHECK: linalg.batch_matmul {fp8.kernel_ref = @fp8_kernels::@fp8_batch_matmul_6x200x64x128_bf16_bf16_f32_init0}
// CHECK-LABEL: func.func @otherexpand(
// CHECK: linalg.batch_matmul {fp8.kernel_ref = @fp8_kernels::@fp8_batch_matmul_6x200x64x128_bf16_bf16_f32_init0}
// CHECK-LABEL: func.func @tworeaders(
// CHECK: linalg.batch_matmul {fp8.kernel_ref = @fp8_kernels::@fp8_batch_matmul_6x200x64x128_bf16_bf16_f32_init0}
// CHECK-LABEL: func.func @expandreaders(
// CHECK: linalg.batch_matmul {fp8.kernel_ref = @fp8_kernels::@fp8_batch_matmul_6x200x64x128_bf16_bf16_f32_init0}
// CHECK-LABEL: func.func @unbatched(
// CHECK: linalg.batch_matmul {fp8.kernel_ref = @fp8_kernels::@fp8_batch_matmul_3x200x64x128_bf16_bf16_f32_init0_dh3}
// CHECK-LABEL: func.func @unbatched_swap(
// CHECK: linalg.batch_matmul {fp8.kernel_ref = @fp8_kernels::@fp8_batch_matmul_3x200x64x128_bf16_bf16_f32_init0}
// CHECK-LABEL: func.func @withc(
// CHECK: linalg.batch_matmul {fp8.kernel_ref = @fp8_kernels::@fp8_batch_matmul_6x200x64x128_bf16_bf16_f32_accf32}

// D's rows: the group's first row (g / 3) x 200 x 3 + g % 3, then 3 rows
// per row of the batch, masked to the 200 rows (the M tail's rows 200..255
// of the last tile are not stored: they would be the next sequence's).
// CHECK-LABEL: llvm.func @fp8_batch_matmul_6x200x64x128_bf16_bf16_f32_init0_dh3(
// CHECK-SAME: fp8.kernel = #fp8.gemm_kernel<m = 200, n = 64, k = 128, a = bf16, b = bf16, d_heads = 3, d = f32, acc_init = 0.000000e+00 : f32,
// CHECK: %[[SEQ:.*]] = arith.divui %[[G:.*]], %c3_i32{{.*}} : i32
// CHECK: %[[HEAD:.*]] = arith.remui %[[G]], %c3_i32{{.*}} : i32
// CHECK: %[[SROWS:.*]] = arith.muli %{{.*}}, %c3_i32{{.*}} : i32
// CHECK: %[[SEQ0:.*]] = arith.muli %[[SEQ]], %[[SROWS]] : i32
// CHECK: %[[ROW0:.*]] = arith.addi %[[SEQ0]], %[[HEAD]] : i32
// CHECK: %[[OK:.*]] = arith.cmpi ult, %[[R:.*]], %{{.*}} : i32
// CHECK: %[[RH:.*]] = arith.muli %[[R]], %c3_i32{{.*}} : i32
// CHECK: %[[GR:.*]] = arith.addi %[[ROW0]], %[[RH]] : i32
// CHECK: %[[GR64:.*]] = arith.extui %[[GR]] : i32 to i64
// CHECK: arith.muli %[[GR64]], %c64_i64 : i64
// CHECK: llvm.return

// The launches: D [B, S, H, D] in the permutation's place.
// HOST-LABEL: func.func @context(
// HOST-NOT: linalg.transpose
// HOST: %[[D:.*]] = memref.alloc() {{.*}}: memref<2x200x3x64xf32>
// HOST: call @fp8_launch_fp8_batch_matmul_6x200x64x128_bf16_bf16_f32_init0_dh3(%{{.*}}, %{{.*}}, %[[D]]) : (memref<6x200x128xbf16>, memref<6x128x64xbf16>, memref<2x200x3x64xf32>) -> ()
// HOST-NOT: linalg.transpose
// HOST: %[[T:.*]] = bufferization.to_tensor %[[D]]
// HOST: %[[C:.*]] = tensor.collapse_shape %[[T]] {{\[}}[0, 1], [2, 3]] : tensor<2x200x3x64xf32> into tensor<400x192xf32>
// HOST: return %[[C]]
// HOST-LABEL: func.func @context_heads(
// HOST-NOT: linalg.transpose
// HOST: call @fp8_launch_fp8_batch_matmul_6x200x64x128_bf16_bf16_f32_init0_bh3_dh3(%{{.*}}, %{{.*}}, %{{.*}}) : (memref<6x200x128xbf16>, memref<2x128x3x64xbf16>, memref<2x200x3x64xf32>) -> ()
// HOST-NOT: linalg.transpose
// HOST: return
// HOST-LABEL: func.func @otherperm(
// HOST: permutation = [2, 0, 1, 3]
// HOST-LABEL: func.func @colsmove(
// HOST: permutation = [0, 2, 3, 1]
// HOST-LABEL: func.func @otherexpand(
// HOST: permutation = [0, 2, 1, 3]
// HOST-LABEL: func.func @tworeaders(
// HOST: permutation = [0, 2, 1, 3]
// HOST-LABEL: func.func @expandreaders(
// HOST: permutation = [0, 2, 1, 3]
// HOST-LABEL: func.func @unbatched(
// HOST-NOT: linalg.transpose
// HOST: call @fp8_launch_fp8_batch_matmul_3x200x64x128_bf16_bf16_f32_init0_dh3(%{{.*}}, %{{.*}}, %{{.*}}) : (memref<3x200x128xbf16>, memref<3x128x64xbf16>, memref<200x3x64xf32>) -> ()
// HOST-NOT: linalg.transpose
// HOST: return
// HOST-LABEL: func.func @unbatched_swap(
// HOST: permutation = [0, 2, 1]
// HOST-LABEL: func.func @withc(
// HOST: permutation = [0, 2, 1, 3]
// The launcher passes D's pointer; the kernel addresses it.
// HOST-LABEL: func.func private @fp8_launch_fp8_batch_matmul_6x200x64x128_bf16_bf16_f32_init0_dh3(
// HOST-SAME: %{{.*}}: memref<2x200x3x64xf32>
// HOST-NOT: memref.transpose
// HOST: gpu.launch_func

// The context P V of B = 2 sequences of S = 200, H = 3 heads of D = 64,
// back to [B, S, H x D] for o_proj.
func.func @context(%p: tensor<6x200x128xbf16>, %v: tensor<6x128x64xbf16>) -> tensor<400x192xf32> {
  %zero = arith.constant 0.0 : f32
  %eo = tensor.empty() : tensor<6x200x64xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<6x200x64xf32>) -> tensor<6x200x64xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<6x200x128xbf16>, tensor<6x128x64xbf16>) outs(%zo : tensor<6x200x64xf32>) -> tensor<6x200x64xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [2, 3, 200, 64] : tensor<6x200x64xf32> into tensor<2x3x200x64xf32>
  %et = tensor.empty() : tensor<2x200x3x64xf32>
  %ot = linalg.transpose ins(%o4 : tensor<2x3x200x64xf32>) outs(%et : tensor<2x200x3x64xf32>) permutation = [0, 2, 1, 3]
  %o2 = tensor.collapse_shape %ot [[0, 1], [2, 3]] : tensor<2x200x3x64xf32> into tensor<400x192xf32>
  return %o2 : tensor<400x192xf32>
}

// V read through its head view too ([B, S_kv, H, D] -> [B, H, S_kv, D]).
func.func @context_heads(%p: tensor<6x200x128xbf16>, %v2: tensor<256x192xbf16>) -> tensor<2x200x3x64xf32> {
  %zero = arith.constant 0.0 : f32
  %v4 = tensor.expand_shape %v2 [[0, 1], [2, 3]] output_shape [2, 128, 3, 64] : tensor<256x192xbf16> into tensor<2x128x3x64xbf16>
  %ev = tensor.empty() : tensor<2x3x128x64xbf16>
  %vt4 = linalg.transpose ins(%v4 : tensor<2x128x3x64xbf16>) outs(%ev : tensor<2x3x128x64xbf16>) permutation = [0, 2, 1, 3]
  %v = tensor.collapse_shape %vt4 [[0, 1], [2], [3]] : tensor<2x3x128x64xbf16> into tensor<6x128x64xbf16>
  %eo = tensor.empty() : tensor<6x200x64xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<6x200x64xf32>) -> tensor<6x200x64xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<6x200x128xbf16>, tensor<6x128x64xbf16>) outs(%zo : tensor<6x200x64xf32>) -> tensor<6x200x64xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [2, 3, 200, 64] : tensor<6x200x64xf32> into tensor<2x3x200x64xf32>
  %et = tensor.empty() : tensor<2x200x3x64xf32>
  %ot = linalg.transpose ins(%o4 : tensor<2x3x200x64xf32>) outs(%et : tensor<2x200x3x64xf32>) permutation = [0, 2, 1, 3]
  return %ot : tensor<2x200x3x64xf32>
}

// [B, H, S, D] -> [S, B, H, D]: the rows move outermost, not a head view
// of D's rows.
func.func @otherperm(%p: tensor<6x200x128xbf16>, %v: tensor<6x128x64xbf16>) -> tensor<200x2x3x64xf32> {
  %zero = arith.constant 0.0 : f32
  %eo = tensor.empty() : tensor<6x200x64xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<6x200x64xf32>) -> tensor<6x200x64xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<6x200x128xbf16>, tensor<6x128x64xbf16>) outs(%zo : tensor<6x200x64xf32>) -> tensor<6x200x64xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [2, 3, 200, 64] : tensor<6x200x64xf32> into tensor<2x3x200x64xf32>
  %et = tensor.empty() : tensor<200x2x3x64xf32>
  %ot = linalg.transpose ins(%o4 : tensor<2x3x200x64xf32>) outs(%et : tensor<200x2x3x64xf32>) permutation = [2, 0, 1, 3]
  return %ot : tensor<200x2x3x64xf32>
}

// [B, H, S, D] -> [B, H, D, S]... as [0, 2, 3, 1]: the columns would be
// strided.
func.func @colsmove(%p: tensor<6x200x128xbf16>, %v: tensor<6x128x64xbf16>) -> tensor<2x200x64x3xf32> {
  %zero = arith.constant 0.0 : f32
  %eo = tensor.empty() : tensor<6x200x64xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<6x200x64xf32>) -> tensor<6x200x64xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<6x200x128xbf16>, tensor<6x128x64xbf16>) outs(%zo : tensor<6x200x64xf32>) -> tensor<6x200x64xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [2, 3, 200, 64] : tensor<6x200x64xf32> into tensor<2x3x200x64xf32>
  %et = tensor.empty() : tensor<2x200x64x3xf32>
  %ot = linalg.transpose ins(%o4 : tensor<2x3x200x64xf32>) outs(%et : tensor<2x200x64x3xf32>) permutation = [0, 2, 3, 1]
  return %ot : tensor<2x200x64x3xf32>
}

// The rows split ([[0], [1, 2], [3]]): not the batch's heads.
func.func @otherexpand(%p: tensor<6x200x128xbf16>, %v: tensor<6x128x64xbf16>) -> tensor<6x100x2x64xf32> {
  %zero = arith.constant 0.0 : f32
  %eo = tensor.empty() : tensor<6x200x64xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<6x200x64xf32>) -> tensor<6x200x64xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<6x200x128xbf16>, tensor<6x128x64xbf16>) outs(%zo : tensor<6x200x64xf32>) -> tensor<6x200x64xf32>
  %o4 = tensor.expand_shape %o [[0], [1, 2], [3]] output_shape [6, 2, 100, 64] : tensor<6x200x64xf32> into tensor<6x2x100x64xf32>
  %et = tensor.empty() : tensor<6x100x2x64xf32>
  %ot = linalg.transpose ins(%o4 : tensor<6x2x100x64xf32>) outs(%et : tensor<6x100x2x64xf32>) permutation = [0, 2, 1, 3]
  return %ot : tensor<6x100x2x64xf32>
}

// The packed result has another reader (before the permutation: the
// first reader of the use list is then the expand), or the expand has: they
// stay packed.
func.func @tworeaders(%p: tensor<6x200x128xbf16>, %v: tensor<6x128x64xbf16>) -> (tensor<2x200x3x64xf32>, tensor<1200x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %eo = tensor.empty() : tensor<6x200x64xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<6x200x64xf32>) -> tensor<6x200x64xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<6x200x128xbf16>, tensor<6x128x64xbf16>) outs(%zo : tensor<6x200x64xf32>) -> tensor<6x200x64xf32>
  %o2 = tensor.collapse_shape %o [[0, 1], [2]] : tensor<6x200x64xf32> into tensor<1200x64xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [2, 3, 200, 64] : tensor<6x200x64xf32> into tensor<2x3x200x64xf32>
  %et = tensor.empty() : tensor<2x200x3x64xf32>
  %ot = linalg.transpose ins(%o4 : tensor<2x3x200x64xf32>) outs(%et : tensor<2x200x3x64xf32>) permutation = [0, 2, 1, 3]
  return %ot, %o2 : tensor<2x200x3x64xf32>, tensor<1200x64xf32>
}

func.func @expandreaders(%p: tensor<6x200x128xbf16>, %v: tensor<6x128x64xbf16>) -> (tensor<2x200x3x64xf32>, tensor<2x3x12800xf32>) {
  %zero = arith.constant 0.0 : f32
  %eo = tensor.empty() : tensor<6x200x64xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<6x200x64xf32>) -> tensor<6x200x64xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<6x200x128xbf16>, tensor<6x128x64xbf16>) outs(%zo : tensor<6x200x64xf32>) -> tensor<6x200x64xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [2, 3, 200, 64] : tensor<6x200x64xf32> into tensor<2x3x200x64xf32>
  %o3 = tensor.collapse_shape %o4 [[0], [1], [2, 3]] : tensor<2x3x200x64xf32> into tensor<2x3x12800xf32>
  %et = tensor.empty() : tensor<2x200x3x64xf32>
  %ot = linalg.transpose ins(%o4 : tensor<2x3x200x64xf32>) outs(%et : tensor<2x200x3x64xf32>) permutation = [0, 2, 1, 3]
  return %ot, %o3 : tensor<2x200x3x64xf32>, tensor<2x3x12800xf32>
}

// One sequence of S = 200, H = 3 heads: [H, S, D] -> [S, H, D], B = 1.
func.func @unbatched(%p: tensor<3x200x128xbf16>, %v: tensor<3x128x64xbf16>) -> tensor<200x3x64xf32> {
  %zero = arith.constant 0.0 : f32
  %eo = tensor.empty() : tensor<3x200x64xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<3x200x64xf32>) -> tensor<3x200x64xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<3x200x128xbf16>, tensor<3x128x64xbf16>) outs(%zo : tensor<3x200x64xf32>) -> tensor<3x200x64xf32>
  %et = tensor.empty() : tensor<200x3x64xf32>
  %ot = linalg.transpose ins(%o : tensor<3x200x64xf32>) outs(%et : tensor<200x3x64xf32>) permutation = [1, 0, 2]
  return %ot : tensor<200x3x64xf32>
}

// A batch's matrix swap ([0, 2, 1]): not a head view.
func.func @unbatched_swap(%p: tensor<3x200x128xbf16>, %v: tensor<3x128x64xbf16>) -> tensor<3x64x200xf32> {
  %zero = arith.constant 0.0 : f32
  %eo = tensor.empty() : tensor<3x200x64xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<3x200x64xf32>) -> tensor<3x200x64xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<3x200x128xbf16>, tensor<3x128x64xbf16>) outs(%zo : tensor<3x200x64xf32>) -> tensor<3x200x64xf32>
  %et = tensor.empty() : tensor<3x64x200xf32>
  %ot = linalg.transpose ins(%o : tensor<3x200x64xf32>) outs(%et : tensor<3x64x200xf32>) permutation = [0, 2, 1]
  return %ot : tensor<3x64x200xf32>
}

// C (the init not a fill): packed [G, M, N], D stays packed.
func.func @withc(%p: tensor<6x200x128xbf16>, %v: tensor<6x128x64xbf16>, %c: tensor<6x200x64xf32>) -> tensor<2x200x3x64xf32> {
  %o = linalg.batch_matmul ins(%p, %v : tensor<6x200x128xbf16>, tensor<6x128x64xbf16>) outs(%c : tensor<6x200x64xf32>) -> tensor<6x200x64xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [2, 3, 200, 64] : tensor<6x200x64xf32> into tensor<2x3x200x64xf32>
  %et = tensor.empty() : tensor<2x200x3x64xf32>
  %ot = linalg.transpose ins(%o4 : tensor<2x3x200x64xf32>) outs(%et : tensor<2x200x3x64xf32>) permutation = [0, 2, 1, 3]
  return %ot : tensor<2x200x3x64xf32>
}
