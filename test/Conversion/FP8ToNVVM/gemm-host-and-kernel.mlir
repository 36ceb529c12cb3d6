// One module with a GEMM a kernel implements (DeepSeek-V3 blocks) and one no
// kernel implements (1x64 blocks on both operands: a scale per 64 K): the
// first is launched, the second stays an fp8.scaled_matmul on the host (a remark), and
// fp8-launch-kernels leaves it alone instead of stopping at it.
// RUN: fp8-opt %s --fp8-lower-to-nvvm=config=fixed -verify-diagnostics -o /dev/null
// RUN: fp8-opt %s --fp8-lower-to-nvvm=config=fixed --fp8-launch-kernels 2>/dev/null | FileCheck %s

// CHECK-LABEL: func.func @mixed(
// CHECK: call @fp8_launch_fp8_scaled_matmul_128x256x256_e4m3_e4m3_bf16(
// CHECK: fp8.scaled_matmul {{.*}} block = [1, 64], scale = f32>
// CHECK-NOT: call @fp8_launch
// CHECK: return
func.func @mixed(%a: !fp8.scaled<128x256xf8E4M3FN, block = [1, 128], scale = f32>,
                 %b: !fp8.scaled<256x256xf8E4M3FN, block = [128, 128], scale = f32>,
                 %c: !fp8.scaled<128x200xf8E4M3FN, block = [1, 64], scale = f32>,
                 %d: !fp8.scaled<256x200xf8E4M3FN, block = [1, 64], scale = f32>) -> (tensor<128x256xbf16>, tensor<128x256xbf16>) {
  %0 = fp8.scaled_matmul %a, %b : !fp8.scaled<128x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<256x256xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<128x256xbf16>
  // expected-remark @+1 {{fp8-lower-to-nvvm: no GPU GEMM kernel for 'fp8.scaled_matmul' (implements the DeepSeek-V3 blocks (a: [1, 128], b: [128, 128] or, for the Wgrad GEMM, [1, 128]), scales along the whole K (one per row or per tensor of each operand) and mxfp8's [1, 32] blocks, got a: !fp8.scaled<128x200xf8E4M3FN, block = [1, 64], scale = f32>, b: !fp8.scaled<256x200xf8E4M3FN, block = [1, 64], scale = f32>); the op stays on the host}}
  %1 = fp8.scaled_matmul %c, %d {promote_interval = 64 : i64} : !fp8.scaled<128x200xf8E4M3FN, block = [1, 64], scale = f32>, !fp8.scaled<256x200xf8E4M3FN, block = [1, 64], scale = f32> -> tensor<128x256xbf16>
  return %0, %1 : tensor<128x256xbf16>, tensor<128x256xbf16>
}
