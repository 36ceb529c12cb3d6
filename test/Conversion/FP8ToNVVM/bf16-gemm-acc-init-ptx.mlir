// The BF16 variant's folded fills through ptxas (docs/gpu-kernel.md, "The
// BF16 variant", acc_init): the kernels whose accumulators start at the
// fill's constant have no C parameter (six, or seven with a run-time batch
// count: G is parameter 6), move the constant's bits into the accumulator
// registers (1069547520 = 0x3FC00000, 1.5; -2147483648 = 0x80000000, -0.0)
// and chain the k16 wgmma onto them (scale-d 1); 0 spills, no warning and
// no C7519 (the copies of the constant are made before the K loop: no
// warpgroup.arrive injected before the first wgmma)
// for the 128x128 tile with two consumers (M 100, N 72, K 40: every tail),
// the 64x128 tile with one (M 64, K 136), and the batch kernel of a
// run-time batch count and M.
// config=fixed: the shapes' default tiles.
// REQUIRES: ptxas
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=none config=fixed" | fp8-translate --fp8-extract-gpu-object > %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS

// CHECK-LABEL: .entry fp8_matmul_100x72x40_bf16_bf16_f32_init3fc00000(
// CHECK: .param .u32 fp8_matmul_100x72x40_bf16_bf16_f32_init3fc00000_param_5
// CHECK-NEXT: )
// CHECK: mov.b32 {{.*}}, 1069547520;
// CHECK: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{.*}}, p, 1, {{ *}}1, 0, {{ *}}1;
// CHECK-LABEL: .entry fp8_matmul_64x128x136_bf16_bf16_f32_init80000000(
// CHECK: .param .u32 fp8_matmul_64x128x136_bf16_bf16_f32_init80000000_param_5
// CHECK-NEXT: )
// CHECK: mov.b32 {{.*}}, -2147483648;
// CHECK: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// CHECK-LABEL: .entry fp8_batch_matmul_dynxdynx72x40_bf16_bf16_f32_init0(
// CHECK: .param .u32 fp8_batch_matmul_dynxdynx72x40_bf16_bf16_f32_init0_param_6
// CHECK-NEXT: )
// CHECK: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16

// PTXAS-NOT: {{warning|[1-9][0-9]* bytes spill|C7519}}
// PTXAS-COUNT-3: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: {{warning|[1-9][0-9]* bytes spill|C7519}}

func.func @tail(%a: tensor<100x40xbf16>, %b: tensor<40x72xbf16>) -> tensor<100x72xf32> {
  %c = arith.constant 1.5 : f32
  %e = tensor.empty() : tensor<100x72xf32>
  %z = linalg.fill ins(%c : f32) outs(%e : tensor<100x72xf32>) -> tensor<100x72xf32>
  %y = linalg.matmul ins(%a, %b : tensor<100x40xbf16>, tensor<40x72xbf16>) outs(%z : tensor<100x72xf32>) -> tensor<100x72xf32>
  return %y : tensor<100x72xf32>
}

func.func @m64(%a: tensor<64x136xbf16>, %b: tensor<136x128xbf16>) -> tensor<64x128xf32> {
  %c = arith.constant -0.0 : f32
  %e = tensor.empty() : tensor<64x128xf32>
  %z = linalg.fill ins(%c : f32) outs(%e : tensor<64x128xf32>) -> tensor<64x128xf32>
  %y = linalg.matmul ins(%a, %b : tensor<64x136xbf16>, tensor<136x128xbf16>) outs(%z : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %y : tensor<64x128xf32>
}

func.func @bmmgm(%a: tensor<?x?x40xbf16>, %b: tensor<?x40x72xbf16>) -> tensor<?x?x72xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %g = tensor.dim %a, %c0 : tensor<?x?x40xbf16>
  %m = tensor.dim %a, %c1 : tensor<?x?x40xbf16>
  %e = tensor.empty(%g, %m) : tensor<?x?x72xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?x72xf32>) -> tensor<?x?x72xf32>
  %y = linalg.batch_matmul ins(%a, %b : tensor<?x?x40xbf16>, tensor<?x40x72xbf16>) outs(%z : tensor<?x?x72xf32>) -> tensor<?x?x72xf32>
  return %y : tensor<?x?x72xf32>
}
