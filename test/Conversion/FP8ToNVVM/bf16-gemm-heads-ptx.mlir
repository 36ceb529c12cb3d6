// The BF16 batch kernel's head views through ptxas (docs/gpu-kernel.md,
// "The BF16 variant", head views): an operand read through a head view is
// a 4-D TMA load (coordinates col, row, g % H, g / H), a packed one 3-D.
// 0 spills for attention's scores Q K^T (A and B through head views, B
// K-major; B = 2, S = 200, H = 3, D = 128), its context P V (B through a
// head view, MN-major; D = 64) and an MN-major A through a head view.
// config=fixed: the shapes' default tiles.
// REQUIRES: ptxas
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=none config=fixed" | fp8-translate --fp8-extract-gpu-object > %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS

// CHECK-LABEL: .entry fp8_batch_matmul_6x200x200x128_bf16_bf16_f32_accf32_bk_ah3_bh3(
// CHECK-NOT: cp.async.bulk.tensor.3d
// CHECK: cp.async.bulk.tensor.4d.shared::cluster.global.{{.*}}mbarrier::complete_tx::bytes
// CHECK: cp.async.bulk.tensor.4d.shared::cluster.global.{{.*}}mbarrier::complete_tx::bytes
// CHECK-NOT: cp.async.bulk.tensor.3d
// CHECK: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{.*}}, p, 1, {{ *}}1, 0, {{ *}}0;
// CHECK-LABEL: .entry fp8_batch_matmul_6x200x64x200_bf16_bf16_f32_init0_bh3(
// CHECK: cp.async.bulk.tensor.3d.shared::cluster.global.{{.*}}mbarrier::complete_tx::bytes
// CHECK: cp.async.bulk.tensor.4d.shared::cluster.global.{{.*}}mbarrier::complete_tx::bytes
// CHECK: wgmma.mma_async.sync.aligned.m64n{{[0-9]+}}k16.f32.bf16.bf16 {{.*}}, p, 1, {{ *}}1, 0, {{ *}}1;
// CHECK-LABEL: .entry fp8_batch_matmul_6x200x136x64_bf16_bf16_f32_init0_am_ah3(
// CHECK: cp.async.bulk.tensor.4d.shared::cluster.global.{{.*}}mbarrier::complete_tx::bytes
// CHECK: cp.async.bulk.tensor.4d.shared::cluster.global.{{.*}}mbarrier::complete_tx::bytes
// CHECK: cp.async.bulk.tensor.3d.shared::cluster.global.{{.*}}mbarrier::complete_tx::bytes
// CHECK: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{.*}}, p, 1, {{ *}}1, 1, {{ *}}1;

// PTXAS-NOT: {{warning|[1-9][0-9]* bytes spill}}
// PTXAS-COUNT-3: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: {{warning|[1-9][0-9]* bytes spill}}

func.func @qk(%q2: tensor<400x384xbf16>, %k2: tensor<400x384xbf16>, %c: tensor<6x200x200xf32>) -> tensor<6x200x200xf32> {
  %q4 = tensor.expand_shape %q2 [[0, 1], [2, 3]] output_shape [2, 200, 3, 128] : tensor<400x384xbf16> into tensor<2x200x3x128xbf16>
  %k4 = tensor.expand_shape %k2 [[0, 1], [2, 3]] output_shape [2, 200, 3, 128] : tensor<400x384xbf16> into tensor<2x200x3x128xbf16>
  %e4 = tensor.empty() : tensor<2x3x200x128xbf16>
  %qt = linalg.transpose ins(%q4 : tensor<2x200x3x128xbf16>) outs(%e4 : tensor<2x3x200x128xbf16>) permutation = [0, 2, 1, 3]
  %kt = linalg.transpose ins(%k4 : tensor<2x200x3x128xbf16>) outs(%e4 : tensor<2x3x200x128xbf16>) permutation = [0, 2, 1, 3]
  %q = tensor.collapse_shape %qt [[0, 1], [2], [3]] : tensor<2x3x200x128xbf16> into tensor<6x200x128xbf16>
  %kg = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<2x3x200x128xbf16> into tensor<6x200x128xbf16>
  %ek = tensor.empty() : tensor<6x128x200xbf16>
  %k = linalg.transpose ins(%kg : tensor<6x200x128xbf16>) outs(%ek : tensor<6x128x200xbf16>) permutation = [0, 2, 1]
  %y = linalg.batch_matmul ins(%q, %k : tensor<6x200x128xbf16>, tensor<6x128x200xbf16>) outs(%c : tensor<6x200x200xf32>) -> tensor<6x200x200xf32>
  return %y : tensor<6x200x200xf32>
}

func.func @pv(%p: tensor<6x200x200xbf16>, %v2: tensor<400x192xbf16>) -> tensor<6x200x64xf32> {
  %zero = arith.constant 0.0 : f32
  %v4 = tensor.expand_shape %v2 [[0, 1], [2, 3]] output_shape [2, 200, 3, 64] : tensor<400x192xbf16> into tensor<2x200x3x64xbf16>
  %ev = tensor.empty() : tensor<2x3x200x64xbf16>
  %vt = linalg.transpose ins(%v4 : tensor<2x200x3x64xbf16>) outs(%ev : tensor<2x3x200x64xbf16>) permutation = [0, 2, 1, 3]
  %v = tensor.collapse_shape %vt [[0, 1], [2], [3]] : tensor<2x3x200x64xbf16> into tensor<6x200x64xbf16>
  %ce = tensor.empty() : tensor<6x200x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<6x200x64xf32>) -> tensor<6x200x64xf32>
  %y = linalg.batch_matmul ins(%p, %v : tensor<6x200x200xbf16>, tensor<6x200x64xbf16>) outs(%z : tensor<6x200x64xf32>) -> tensor<6x200x64xf32>
  return %y : tensor<6x200x64xf32>
}

func.func @amn(%x4: tensor<2x64x3x200xbf16>, %b: tensor<6x64x136xbf16>) -> tensor<6x200x136xf32> {
  %zero = arith.constant 0.0 : f32
  %e4 = tensor.empty() : tensor<2x3x64x200xbf16>
  %xt = linalg.transpose ins(%x4 : tensor<2x64x3x200xbf16>) outs(%e4 : tensor<2x3x64x200xbf16>) permutation = [0, 2, 1, 3]
  %xg = tensor.collapse_shape %xt [[0, 1], [2], [3]] : tensor<2x3x64x200xbf16> into tensor<6x64x200xbf16>
  %ea = tensor.empty() : tensor<6x200x64xbf16>
  %a = linalg.transpose ins(%xg : tensor<6x64x200xbf16>) outs(%ea : tensor<6x200x64xbf16>) permutation = [0, 2, 1]
  %ce = tensor.empty() : tensor<6x200x136xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<6x200x136xf32>) -> tensor<6x200x136xf32>
  %y = linalg.batch_matmul ins(%a, %b : tensor<6x200x64xbf16>, tensor<6x64x136xbf16>) outs(%z : tensor<6x200x136xf32>) -> tensor<6x200x136xf32>
  return %y : tensor<6x200x136xf32>
}
