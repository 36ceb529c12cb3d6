// The BF16 variant of the GEMM kernel through ptxas (docs/gpu-kernel.md,
// "The BF16 variant"): the k16 bf16 wgmma with B transposed (the last
// immediate, imm-trans-b, 1; imm-trans-a 0), no promotion FMA between the
// chain and the wait, and 0 spills for the 128x128 tile with two consumers
// (M 100, N 72, K 40: the tail block) and the 64x128 tile with one (M 64,
// K 136: full blocks and a tail); the batch kernel of a batch_matmul (G 3,
// M 100, N 72, K 40: rank-3 TMA loads, the batch the third coordinate)
// and its kernel of a run-time batch count and M (G its last parameter).
// config=fixed: the shapes' default tiles (config=auto's BF16 cost model
// chooses others: bf16-gemm-options.mlir).
// REQUIRES: ptxas
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=none config=fixed" | fp8-translate --fp8-extract-gpu-object > %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS

// CHECK-LABEL: .entry fp8_matmul_100x72x40_bf16_bf16_f32_accf32(
// CHECK: wgmma.fence.sync.aligned;
// CHECK: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{.*}}, p, 1, {{ *}}1, 0, {{ *}}1;
// CHECK-NOT: fma.rn.f32
// CHECK: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{.*}}, p, 1, {{ *}}1, 0, {{ *}}1;
// CHECK-NOT: fma.rn.f32
// CHECK: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{.*}}, p, 1, {{ *}}1, 0, {{ *}}1;
// CHECK: wgmma.commit_group.sync.aligned;
// CHECK-NEXT: wgmma.wait_group.sync.aligned {{[[:space:]]*}}0;
// CHECK-NOT: fma.rn.f32
// CHECK-LABEL: .entry fp8_matmul_64x128x136_bf16_bf16_f32_accf32(
// CHECK-LABEL: .entry fp8_batch_matmul_3x100x72x40_bf16_bf16_f32_accf32(
// CHECK: cp.async.bulk.tensor.3d.shared::cluster.global.{{.*}}mbarrier::complete_tx::bytes
// CHECK: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{.*}}, p, 1, {{ *}}1, 0, {{ *}}1;
// CHECK-LABEL: .entry fp8_batch_matmul_dynxdynx72x40_bf16_bf16_f32_accf32(
// CHECK: .param .u32 fp8_batch_matmul_dynxdynx72x40_bf16_bf16_f32_accf32_param_7
// CHECK: cp.async.bulk.tensor.3d.shared::cluster.global.{{.*}}mbarrier::complete_tx::bytes
// CHECK: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{.*}}, p, 1, {{ *}}1, 0, {{ *}}1;

// PTXAS-NOT: {{warning|[1-9][0-9]* bytes spill}}
// PTXAS-COUNT-3: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: {{warning|[1-9][0-9]* bytes spill}}

func.func @tail(%a: tensor<100x40xbf16>, %b: tensor<40x72xbf16>, %c: tensor<100x72xf32>) -> tensor<100x72xf32> {
  %y = linalg.matmul ins(%a, %b : tensor<100x40xbf16>, tensor<40x72xbf16>) outs(%c : tensor<100x72xf32>) -> tensor<100x72xf32>
  return %y : tensor<100x72xf32>
}

func.func @m64(%a: tensor<64x136xbf16>, %b: tensor<136x128xbf16>, %c: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %y = linalg.matmul ins(%a, %b : tensor<64x136xbf16>, tensor<136x128xbf16>) outs(%c : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %y : tensor<64x128xf32>
}

func.func @bmm3(%a: tensor<3x100x40xbf16>, %b: tensor<3x40x72xbf16>, %c: tensor<3x100x72xf32>) -> tensor<3x100x72xf32> {
  %y = linalg.batch_matmul ins(%a, %b : tensor<3x100x40xbf16>, tensor<3x40x72xbf16>) outs(%c : tensor<3x100x72xf32>) -> tensor<3x100x72xf32>
  return %y : tensor<3x100x72xf32>
}

func.func @bmmgm(%a: tensor<?x?x40xbf16>, %b: tensor<?x40x72xbf16>, %c: tensor<?x?x72xf32>) -> tensor<?x?x72xf32> {
  %y = linalg.batch_matmul ins(%a, %b : tensor<?x?x40xbf16>, tensor<?x40x72xbf16>) outs(%c : tensor<?x?x72xf32>) -> tensor<?x?x72xf32>
  return %y : tensor<?x?x72xf32>
}
