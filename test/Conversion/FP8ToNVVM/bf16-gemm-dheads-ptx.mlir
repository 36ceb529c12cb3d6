// The BF16 batch kernel's D through a head view, through ptxas
// (docs/gpu-kernel.md, "The BF16 variant", head views): D is stored from
// the registers as before (st.global.v2.b32 of f32 pairs, masked), at the rows of
// [B, S, H, D]. 0 spills for attention's context P V (V through a head
// view; B = 2, S = 200, H = 3, D = 64), dV = P^T dO (A MN-major, dO
// through a head view) and packed operands at D = 128.
// config=fixed: the shapes' default tiles.
// REQUIRES: ptxas
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=none config=fixed" | fp8-translate --fp8-extract-gpu-object > %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS

// CHECK-LABEL: .entry fp8_batch_matmul_6x200x64x200_bf16_bf16_f32_init0_bh3_dh3(
// CHECK: cp.async.bulk.tensor.4d.shared::cluster.global.{{.*}}mbarrier::complete_tx::bytes
// CHECK: st.global.v2.b32
// CHECK-LABEL: .entry fp8_batch_matmul_6x200x128x64_bf16_bf16_f32_init0_dh3(
// CHECK-NOT: cp.async.bulk.tensor.4d
// CHECK: st.global.v2.b32
// CHECK-LABEL: .entry fp8_batch_matmul_6x200x64x200_bf16_bf16_f32_init0_am_bh3_dh3(
// CHECK: wgmma.mma_async.sync.aligned.m64n{{[0-9]+}}k16.f32.bf16.bf16 {{.*}}, p, 1, {{ *}}1, 1, {{ *}}1;
// CHECK: st.global.v2.b32

// PTXAS-NOT: {{warning|[1-9][0-9]* bytes spill}}
// PTXAS-COUNT-3: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: {{warning|[1-9][0-9]* bytes spill}}

func.func @ctx(%p: tensor<6x200x200xbf16>, %v2: tensor<400x192xbf16>) -> tensor<2x200x3x64xf32> {
  %zero = arith.constant 0.0 : f32
  %v4 = tensor.expand_shape %v2 [[0, 1], [2, 3]] output_shape [2, 200, 3, 64] : tensor<400x192xbf16> into tensor<2x200x3x64xbf16>
  %ev = tensor.empty() : tensor<2x3x200x64xbf16>
  %vt = linalg.transpose ins(%v4 : tensor<2x200x3x64xbf16>) outs(%ev : tensor<2x3x200x64xbf16>) permutation = [0, 2, 1, 3]
  %v = tensor.collapse_shape %vt [[0, 1], [2], [3]] : tensor<2x3x200x64xbf16> into tensor<6x200x64xbf16>
  %ce = tensor.empty() : tensor<6x200x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<6x200x64xf32>) -> tensor<6x200x64xf32>
  %y = linalg.batch_matmul ins(%p, %v : tensor<6x200x200xbf16>, tensor<6x200x64xbf16>) outs(%z : tensor<6x200x64xf32>) -> tensor<6x200x64xf32>
  %y4 = tensor.expand_shape %y [[0, 1], [2], [3]] output_shape [2, 3, 200, 64] : tensor<6x200x64xf32> into tensor<2x3x200x64xf32>
  %ey = tensor.empty() : tensor<2x200x3x64xf32>
  %yt = linalg.transpose ins(%y4 : tensor<2x3x200x64xf32>) outs(%ey : tensor<2x200x3x64xf32>) permutation = [0, 2, 1, 3]
  return %yt : tensor<2x200x3x64xf32>
}

func.func @packed(%a: tensor<6x200x64xbf16>, %b: tensor<6x64x128xbf16>) -> tensor<2x200x3x128xf32> {
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<6x200x128xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<6x200x128xf32>) -> tensor<6x200x128xf32>
  %y = linalg.batch_matmul ins(%a, %b : tensor<6x200x64xbf16>, tensor<6x64x128xbf16>) outs(%z : tensor<6x200x128xf32>) -> tensor<6x200x128xf32>
  %y4 = tensor.expand_shape %y [[0, 1], [2], [3]] output_shape [2, 3, 200, 128] : tensor<6x200x128xf32> into tensor<2x3x200x128xf32>
  %ey = tensor.empty() : tensor<2x200x3x128xf32>
  %yt = linalg.transpose ins(%y4 : tensor<2x3x200x128xf32>) outs(%ey : tensor<2x200x3x128xf32>) permutation = [0, 2, 1, 3]
  return %yt : tensor<2x200x3x128xf32>
}

func.func @dv(%do2: tensor<400x192xbf16>, %p: tensor<6x200x200xbf16>) -> tensor<2x200x3x64xf32> {
  %zero = arith.constant 0.0 : f32
  %ep = tensor.empty() : tensor<6x200x200xbf16>
  %a = linalg.transpose ins(%p : tensor<6x200x200xbf16>) outs(%ep : tensor<6x200x200xbf16>) permutation = [0, 2, 1]
  %do4 = tensor.expand_shape %do2 [[0, 1], [2, 3]] output_shape [2, 200, 3, 64] : tensor<400x192xbf16> into tensor<2x200x3x64xbf16>
  %ed = tensor.empty() : tensor<2x3x200x64xbf16>
  %dot = linalg.transpose ins(%do4 : tensor<2x200x3x64xbf16>) outs(%ed : tensor<2x3x200x64xbf16>) permutation = [0, 2, 1, 3]
  %b = tensor.collapse_shape %dot [[0, 1], [2], [3]] : tensor<2x3x200x64xbf16> into tensor<6x200x64xbf16>
  %ce = tensor.empty() : tensor<6x200x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ce : tensor<6x200x64xf32>) -> tensor<6x200x64xf32>
  %y = linalg.batch_matmul ins(%a, %b : tensor<6x200x200xbf16>, tensor<6x200x64xbf16>) outs(%z : tensor<6x200x64xf32>) -> tensor<6x200x64xf32>
  %y4 = tensor.expand_shape %y [[0, 1], [2], [3]] output_shape [2, 3, 200, 64] : tensor<6x200x64xf32> into tensor<2x3x200x64xf32>
  %ey = tensor.empty() : tensor<2x200x3x64xf32>
  %yt = linalg.transpose ins(%y4 : tensor<2x3x200x64xf32>) outs(%ey : tensor<2x200x3x64xf32>) permutation = [0, 2, 1, 3]
  return %yt : tensor<2x200x3x64xf32>
}
