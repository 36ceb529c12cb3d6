// The BF16 kernel's operand majors through ptxas (docs/gpu-kernel.md, "The
// BF16 variant"): wgmma's last two immediates are imm-trans-a and
// imm-trans-b (PTX ISA, wgmma.mma_async): 1, 0 for an MN-major A with a
// K-major B (_am_bk), 0, 0 for both K-major (_bk), 1, 1 for an MN-major A
// with the default MN-major B (_am); the default kernel's 0, 1 is
// bf16-gemm-ptx.mlir's. The A boxes of an MN-major A are 2-D TMA loads as
// B's (the batch kernel's 3-D). 0 spills for the 128 x 128 tile with two
// consumers (M 200, N 136, K 72: every tail) and the 64 x 128 tile with
// one (M 64, K 136), and the batch kernel.
// config=fixed: the shapes' default tiles.
// REQUIRES: ptxas
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=none config=fixed" | fp8-translate --fp8-extract-gpu-object > %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS

// CHECK-LABEL: .entry fp8_matmul_200x136x72_bf16_bf16_f32_accf32_am_bk(
// CHECK: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{.*}}, p, 1, {{ *}}1, 1, {{ *}}0;
// CHECK-NOT: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{.*}}, p, 1, {{ *}}1, {{[01]}}, {{ *}}1;
// CHECK-LABEL: .entry fp8_matmul_64x128x136_bf16_bf16_f32_accf32_bk(
// CHECK: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{.*}}, p, 1, {{ *}}1, 0, {{ *}}0;
// CHECK-NOT: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{.*}}, p, 1, {{ *}}1, 1, {{ *}}{{[01]}};
// CHECK-LABEL: .entry fp8_matmul_64x128x136_bf16_bf16_f32_accf32_am(
// CHECK: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{.*}}, p, 1, {{ *}}1, 1, {{ *}}1;
// CHECK-LABEL: .entry fp8_batch_matmul_2x200x136x72_bf16_bf16_f32_accf32_am_bk(
// CHECK: cp.async.bulk.tensor.3d.shared::cluster.global.{{.*}}mbarrier::complete_tx::bytes
// CHECK: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{.*}}, p, 1, {{ *}}1, 1, {{ *}}0;

// PTXAS-NOT: {{warning|[1-9][0-9]* bytes spill}}
// PTXAS-COUNT-4: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: {{warning|[1-9][0-9]* bytes spill}}

func.func @mk(%at: tensor<72x200xbf16>, %bt: tensor<136x72xbf16>, %c: tensor<200x136xf32>) -> tensor<200x136xf32> {
  %ea = tensor.empty() : tensor<200x72xbf16>
  %a = linalg.transpose ins(%at : tensor<72x200xbf16>) outs(%ea : tensor<200x72xbf16>) permutation = [1, 0]
  %eb = tensor.empty() : tensor<72x136xbf16>
  %b = linalg.transpose ins(%bt : tensor<136x72xbf16>) outs(%eb : tensor<72x136xbf16>) permutation = [1, 0]
  %y = linalg.matmul ins(%a, %b : tensor<200x72xbf16>, tensor<72x136xbf16>) outs(%c : tensor<200x136xf32>) -> tensor<200x136xf32>
  return %y : tensor<200x136xf32>
}

func.func @kk64(%a: tensor<64x136xbf16>, %bt: tensor<128x136xbf16>, %c: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %eb = tensor.empty() : tensor<136x128xbf16>
  %b = linalg.transpose ins(%bt : tensor<128x136xbf16>) outs(%eb : tensor<136x128xbf16>) permutation = [1, 0]
  %y = linalg.matmul ins(%a, %b : tensor<64x136xbf16>, tensor<136x128xbf16>) outs(%c : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %y : tensor<64x128xf32>
}

func.func @mn64(%at: tensor<136x64xbf16>, %b: tensor<136x128xbf16>, %c: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %ea = tensor.empty() : tensor<64x136xbf16>
  %a = linalg.transpose ins(%at : tensor<136x64xbf16>) outs(%ea : tensor<64x136xbf16>) permutation = [1, 0]
  %y = linalg.matmul ins(%a, %b : tensor<64x136xbf16>, tensor<136x128xbf16>) outs(%c : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %y : tensor<64x128xf32>
}

func.func @batch(%at: tensor<2x72x200xbf16>, %bt: tensor<2x136x72xbf16>, %c: tensor<2x200x136xf32>) -> tensor<2x200x136xf32> {
  %ea = tensor.empty() : tensor<2x200x72xbf16>
  %a = linalg.transpose ins(%at : tensor<2x72x200xbf16>) outs(%ea : tensor<2x200x72xbf16>) permutation = [0, 2, 1]
  %eb = tensor.empty() : tensor<2x72x136xbf16>
  %b = linalg.transpose ins(%bt : tensor<2x136x72xbf16>) outs(%eb : tensor<2x72x136xbf16>) permutation = [0, 2, 1]
  %y = linalg.batch_matmul ins(%a, %b : tensor<2x200x72xbf16>, tensor<2x72x136xbf16>) outs(%c : tensor<2x200x136xf32>) -> tensor<2x200x136xf32>
  return %y : tensor<2x200x136xf32>
}
