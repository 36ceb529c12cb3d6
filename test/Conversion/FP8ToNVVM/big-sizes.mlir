// Sizes whose products pass 2^31 where a kernel computes them in signed 32
// bits (docs/robustness.md, "Sizes past 32 bits"): every size below 2^31
// is not enough. The masked grouped GEMM's row index g * M + row of C and
// D, the scale tensors the GEMM kernels index (B's scales at an i32 element
// index; A's and the per-column B's transposed by the transpose kernel,
// whose element index is i32) and the quantize kernels' block index and
// count. Each such op stays on the host with a remark naming the product
// and the limit (before: a kernel whose index wrapped, writing D's rows of
// group g over another group's, or a quantize kernel whose block count was
// 2^33 truncated to 0, quantizing nothing). Static sizes only: compiled,
// never run.
// RUN: fp8-opt %s --fp8-lower-to-nvvm=config=fixed -split-input-file -verify-diagnostics | FileCheck %s

// G x M = 2^32 (each below 2^31).
// CHECK-LABEL: func.func @masked_rows
// CHECK: fp8.grouped_scaled_matmul
// CHECK-NOT: llvm.func @fp8_grouped_matmul
func.func @masked_rows(%a: !fp8.scaled<4x1073741824x128xf8E4M3FN, block = [1, 1, 128], scale = f32>, %b: !fp8.scaled<4x256x128xf8E4M3FN, block = [1, 128, 128], scale = f32>) -> tensor<4x1073741824x256xbf16> {
  // expected-remark @+1 {{no GPU GEMM kernel for 'fp8.grouped_scaled_matmul' (the masked layout needs G x M below 2^31 (the kernel's row index g * M + row of C and D is signed 32-bit), got G = 4, M = 1073741824)}}
  %d = fp8.grouped_scaled_matmul masked %a, %b : !fp8.scaled<4x1073741824x128xf8E4M3FN, block = [1, 1, 128], scale = f32>, !fp8.scaled<4x256x128xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<4x1073741824x256xbf16>
  return %d : tensor<4x1073741824x256xbf16>
}

// -----

// A MoE layer's [G = 8, 65536, 7168] tokens per expert: G x M = 2^19, well
// below; the kernel is built (its D offsets are 64-bit: zext of the row,
// times N).
// CHECK-LABEL: llvm.func @fp8_grouped_matmul_masked_8x65536x4096x7168_e4m3_e4m3_bf16(
// CHECK: arith.muli %{{.*}}, %c65536_i32 : i32
// CHECK: arith.muli %{{.*}}, %c4096_i64 : i64
func.func @moe_rows(%a: !fp8.scaled<8x65536x7168xf8E4M3FN, block = [1, 1, 128], scale = f32>, %b: !fp8.scaled<8x4096x7168xf8E4M3FN, block = [1, 128, 128], scale = f32>) -> tensor<8x65536x4096xbf16> {
  %d = fp8.grouped_scaled_matmul masked %a, %b : !fp8.scaled<8x65536x7168xf8E4M3FN, block = [1, 1, 128], scale = f32>, !fp8.scaled<8x4096x7168xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<8x65536x4096xbf16>
  return %d : tensor<8x65536x4096xbf16>
}

// -----

// B's block scales [2^17, 2^14] (N = 2^24, K = 2^21).
// CHECK-LABEL: func.func @b_block_scales
// CHECK-NOT: llvm.func @fp8_scaled_matmul
func.func @b_block_scales(%a: !fp8.scaled<128x2097152xf8E4M3FN, block = [1, 128], scale = f32>, %b: !fp8.scaled<16777216x2097152xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<128x16777216xbf16> {
  // expected-remark @+1 {{no GPU GEMM kernel for 'fp8.scaled_matmul' (needs fewer than 2^31 B scales (the kernels index them with signed 32-bit values), got 131072 x 16384)}}
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<128x2097152xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<16777216x2097152xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<128x16777216xbf16>
  return %d : tensor<128x16777216xbf16>
}

// -----

// The Wgrad's per-column B scales [N, KB] = [131072, 16384] (a 128k
// vocabulary over 2^21 tokens), read transposed: 2^31 elements.
// CHECK-LABEL: func.func @b_column_scales
// CHECK-NOT: llvm.func @fp8_scaled_matmul
func.func @b_column_scales(%a: !fp8.scaled<64x2097152xf8E4M3FN, block = [1, 128], scale = f32>, %b: !fp8.scaled<131072x2097152xf8E4M3FN, block = [1, 128], scale = f32>) -> tensor<64x131072xbf16> {
  // expected-remark @+1 {{(needs fewer than 2^31 B scales (the kernels index them with signed 32-bit values), got 131072 x 16384)}}
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<64x2097152xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<131072x2097152xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<64x131072xbf16>
  return %d : tensor<64x131072xbf16>
}

// -----

// A's scales [M, KB] = [2^24, 128], transposed on the device: 2^31.
// CHECK-LABEL: func.func @a_scales
// CHECK-NOT: llvm.func @fp8_scaled_matmul
func.func @a_scales(%a: !fp8.scaled<16777216x16384xf8E4M3FN, block = [1, 128], scale = f32>, %b: !fp8.scaled<128x16384xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<16777216x128xbf16> {
  // expected-remark @+1 {{(needs fewer than 2^31 A scales (the kernels index them with signed 32-bit values), got 16777216 x 128)}}
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<16777216x16384xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<128x16384xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<16777216x128xbf16>
  return %d : tensor<16777216x128xbf16>
}

// -----

// 2^20 x 2^20 elements in 1x128 tiles: 2^33 blocks.
// CHECK-LABEL: func.func @quantize_blocks
// CHECK: fp8.quantize
// CHECK-NOT: llvm.func @fp8_quantize
func.func @quantize_blocks(%x: tensor<1048576x1048576xf32>) -> !fp8.scaled<1048576x1048576xf8E4M3FN, block = [1, 128], scale = f32> {
  // expected-remark @+1 {{fp8-lower-to-nvvm: no GPU quantize kernel (needs fewer than 2^31 blocks (its block index is signed 32-bit), got 1048576 x 8192); the op stays on the host}}
  %q = fp8.quantize %x : tensor<1048576x1048576xf32> -> !fp8.scaled<1048576x1048576xf8E4M3FN, block = [1, 128], scale = f32>
  return %q : !fp8.scaled<1048576x1048576xf8E4M3FN, block = [1, 128], scale = f32>
}

// -----

// Just below the limit: 16777215 rows x 128 tiles = 2^31 - 128 blocks,
// the kernel is built.
// CHECK-LABEL: llvm.func @fp8_quantize_16777215x16384_1x128_f32_e4m3(
func.func @quantize_below(%x: tensor<16777215x16384xf32>) -> !fp8.scaled<16777215x16384xf8E4M3FN, block = [1, 128], scale = f32> {
  %q = fp8.quantize %x : tensor<16777215x16384xf32> -> !fp8.scaled<16777215x16384xf8E4M3FN, block = [1, 128], scale = f32>
  return %q : !fp8.scaled<16777215x16384xf8E4M3FN, block = [1, 128], scale = f32>
}

// -----

// The requantize of [T, F] = [2^18, 2^20] codes: [F, T] in 1x128 tiles,
// 2^20 x 2^11 blocks.
// CHECK-LABEL: func.func @requantize_blocks
// CHECK-NOT: llvm.func @fp8_requantize
func.func @requantize_blocks(%x: !fp8.scaled<262144x1048576xf8E4M3FN, block = [1, 128], scale = f32>) -> !fp8.scaled<1048576x262144xf8E4M3FN, block = [1, 128], scale = f32> {
  // expected-remark @+1 {{no GPU requantize kernel (needs fewer than 2^31 blocks (its block index is signed 32-bit), got 1048576 x 2048)}}
  %t = fp8.requantize %x {permutation = array<i64: 1, 0>} : !fp8.scaled<262144x1048576xf8E4M3FN, block = [1, 128], scale = f32> -> !fp8.scaled<1048576x262144xf8E4M3FN, block = [1, 128], scale = f32>
  return %t : !fp8.scaled<1048576x262144xf8E4M3FN, block = [1, 128], scale = f32>
}
