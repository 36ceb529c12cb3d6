// require-kernels: an fp8 op no GPU kernel implements is an error (the
// remark's message, ending in "which require-kernels forbids") and the pass
// fails, instead of a remark and the op left on the host. Every such op of
// the module is reported; ops with kernels are no error. fp8-gpu-pipeline
// forwards the option. Without it, the same ops are remarks and the pass
// succeeds (REMARK).
// RUN: fp8-opt %s -split-input-file -verify-diagnostics --fp8-lower-to-nvvm="config=fixed require-kernels=true" | FileCheck %s
// RUN: fp8-opt %s -split-input-file -verify-diagnostics --fp8-gpu-pipeline="config=fixed host=llvm target=emulator require-kernels=true" | FileCheck %s --check-prefix=PIPE
// RUN: fp8-opt %s -split-input-file --fp8-lower-to-nvvm=config=fixed -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// A GEMM in 1x64 blocks (a scale per 64 K): no kernel implements it.
// REMARK: remark: fp8-lower-to-nvvm: no GPU GEMM kernel for 'fp8.scaled_matmul' (implements the DeepSeek-V3 blocks {{.*}}); the op stays on the host, whose lowering computes it
// REMARK-NOT: error: fp8-lower-to-nvvm
func.func @gemm_1x64(%a: !fp8.scaled<128x256xf8E4M3FN, block = [1, 64], scale = f32>,
                     %b: !fp8.scaled<256x256xf8E4M3FN, block = [1, 64], scale = f32>) -> tensor<128x256xbf16> {
  // expected-error @+1 {{fp8-lower-to-nvvm: no GPU GEMM kernel for 'fp8.scaled_matmul' (implements the DeepSeek-V3 blocks (a: [1, 128], b: [128, 128] or, for the Wgrad GEMM, [1, 128]), scales along the whole K (one per row or per tensor of each operand) and mxfp8's [1, 32] blocks, got a: !fp8.scaled<128x256xf8E4M3FN, block = [1, 64], scale = f32>, b: !fp8.scaled<256x256xf8E4M3FN, block = [1, 64], scale = f32>); the op would stay on the host, which require-kernels forbids}}
  %d = fp8.scaled_matmul %a, %b {promote_interval = 64 : i64} : !fp8.scaled<128x256xf8E4M3FN, block = [1, 64], scale = f32>, !fp8.scaled<256x256xf8E4M3FN, block = [1, 64], scale = f32> -> tensor<128x256xbf16>
  return %d : tensor<128x256xbf16>
}

// -----

// A quantize into [1, 64] blocks.
// REMARK: remark: fp8-lower-to-nvvm: no GPU quantize kernel ({{.*}} got [1, 64]); the op stays on the host ('fp8.quantize' of 'tensor<64x256xf32>')
// REMARK-NOT: error: fp8-lower-to-nvvm
func.func @quantize_1x64(%x: tensor<64x256xf32>) -> !fp8.scaled<64x256xf8E4M3FN, block = [1, 64], scale = f32> {
  // expected-error @+1 {{fp8-lower-to-nvvm: no GPU quantize kernel (implements blocks [1, 128], [128, 128], [1, 32] (MX), [128, 1] (per column), [1, cols] (rowwise) and the whole tensor (per-tensor, static rows), got [1, 64]); the op would stay on the host ('fp8.quantize' of 'tensor<64x256xf32>'), which require-kernels forbids}}
  %q = fp8.quantize %x : tensor<64x256xf32> -> !fp8.scaled<64x256xf8E4M3FN, block = [1, 64], scale = f32>
  return %q : !fp8.scaled<64x256xf8E4M3FN, block = [1, 64], scale = f32>
}

// -----

// A quantize kernel next to one that does not saturate and a requantize of
// a dynamic token count: the two without a kernel are reported.
// REMARK: remark: fp8-lower-to-nvvm: no GPU quantize kernel (the hardware conversion cvt.rn.satfinite needs saturate = true); the op stays on the host
// REMARK: remark: fp8-lower-to-nvvm: no GPU requantize kernel (needs a static rank-2 input, got {{.*}}); the op stays on the host
// REMARK-NOT: error: fp8-lower-to-nvvm
func.func @two_of_three(%x: tensor<64x256xf32>, %y: !fp8.scaled<?x256xf8E4M3FN, block = [1, 128], scale = f32>)
    -> (!fp8.scaled<64x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<64x256xf8E4M3FN, block = [1, 128], scale = f32>,
        !fp8.scaled<256x?xf8E4M3FN, block = [1, 128], scale = f32>) {
  %q = fp8.quantize %x : tensor<64x256xf32> -> !fp8.scaled<64x256xf8E4M3FN, block = [1, 128], scale = f32>
  // expected-error @+1 {{fp8-lower-to-nvvm: no GPU quantize kernel (the hardware conversion cvt.rn.satfinite needs saturate = true); the op would stay on the host ('fp8.quantize' of 'tensor<64x256xf32>'), which require-kernels forbids}}
  %n = fp8.quantize %x {saturate = false} : tensor<64x256xf32> -> !fp8.scaled<64x256xf8E4M3FN, block = [1, 128], scale = f32>
  // expected-error @+1 {{fp8-lower-to-nvvm: no GPU requantize kernel (needs a static rank-2 input, got !fp8.scaled<?x256xf8E4M3FN, block = [1, 128], scale = f32>); the op would stay on the host}}
  %t = fp8.requantize %y {permutation = array<i64: 1, 0>} : !fp8.scaled<?x256xf8E4M3FN, block = [1, 128], scale = f32> -> !fp8.scaled<256x?xf8E4M3FN, block = [1, 128], scale = f32>
  return %q, %n, %t : !fp8.scaled<64x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<64x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<256x?xf8E4M3FN, block = [1, 128], scale = f32>
}

// -----

// An empty problem launches nothing: it, too, would stay on the host.
// REMARK: remark: fp8-lower-to-nvvm: no kernel (the result is empty); the op stays on the host, which launches nothing for it
// REMARK-NOT: error: fp8-lower-to-nvvm
func.func @empty(%a: !fp8.scaled<0x256xf8E4M3FN, block = [1, 128], scale = f32>,
                 %w: !fp8.scaled<40x256xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<0x40xbf16> {
  // expected-error @+1 {{fp8-lower-to-nvvm: no kernel (the result is empty); the op would stay on the host, which require-kernels forbids}}
  %d = fp8.scaled_matmul %a, %w : !fp8.scaled<0x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<40x256xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<0x40xbf16>
  return %d : tensor<0x40xbf16>
}

// -----

// Every op has a kernel: no diagnostic, the kernels and their launches.
// CHECK-LABEL: func.func @all_kernels
// CHECK: fp8.quantize {{.*}}fp8.kernel_ref = @fp8_kernels::@fp8_quantize_128x256_1x128_f32_e4m3
// CHECK: fp8.scaled_matmul {{.*}}fp8.kernel_ref = @fp8_kernels::@fp8_scaled_matmul_128x256x256_e4m3_e4m3_bf16
// CHECK: gpu.module @fp8_kernels
// PIPE-LABEL: llvm.func @all_kernels
// PIPE: llvm.call @fp8_launch_fp8_quantize_128x256_1x128_f32_e4m3(
// PIPE: llvm.call @fp8_launch_fp8_scaled_matmul_128x256x256_e4m3_e4m3_bf16(
// PIPE: gpu.binary @fp8_kernels
func.func @all_kernels(%x: tensor<128x256xf32>, %w: !fp8.scaled<256x256xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<128x256xbf16> {
  %q = fp8.quantize %x : tensor<128x256xf32> -> !fp8.scaled<128x256xf8E4M3FN, block = [1, 128], scale = f32>
  %d = fp8.scaled_matmul %q, %w : !fp8.scaled<128x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<256x256xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<128x256xbf16>
  return %d : tensor<128x256xbf16>
}
