// Quantize forms the GPU kernel does not implement stay on the host with a
// remark naming why (robustness: a pass leaves what it cannot handle); the
// module is still lowered.
// RUN: fp8-opt %s --fp8-lower-to-nvvm=config=fixed -split-input-file -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @other_blocks
// CHECK: fp8.quantize
// CHECK-NOT: llvm.func @fp8_quantize
func.func @other_blocks(%x: tensor<64x256xf32>) -> !fp8.scaled<64x256xf8E4M3FN, block = [1, 64], scale = f32> {
  // expected-remark @+1 {{fp8-lower-to-nvvm: no GPU quantize kernel (implements blocks [1, 128], [128, 128], [1, 32] (MX), [128, 1] (per column), [1, cols] (rowwise) and the whole tensor (per-tensor, static rows), got [1, 64]); the op stays on the host}}
  %q = fp8.quantize %x : tensor<64x256xf32> -> !fp8.scaled<64x256xf8E4M3FN, block = [1, 64], scale = f32>
  return %q : !fp8.scaled<64x256xf8E4M3FN, block = [1, 64], scale = f32>
}

// -----

// One block over a run-time row count: the per-tensor kernel needs the
// static rows of its block (a [4096, 400] block covers a tensor of up to
// 4096 rows only).
func.func @per_tensor_dynamic_rows(%x: tensor<?x400xf32>) -> !fp8.scaled<?x400xf8E4M3FN, block = [4096, 400], scale = f32> {
  // expected-remark @+1 {{fp8-lower-to-nvvm: no GPU quantize kernel (implements blocks [1, 128], [128, 128], [1, 32] (MX), [128, 1] (per column), [1, cols] (rowwise) and the whole tensor (per-tensor, static rows), got [4096, 400]); the op stays on the host}}
  %q = fp8.quantize %x : tensor<?x400xf32> -> !fp8.scaled<?x400xf8E4M3FN, block = [4096, 400], scale = f32>
  return %q : !fp8.scaled<?x400xf8E4M3FN, block = [4096, 400], scale = f32>
}

// -----

// E8M0 scales (scale_mode pow2, as the op requires) have a kernel: no remark.
// CHECK-LABEL: func.func @e8m0
// CHECK: fp8.quantize {{.*}}fp8.kernel_ref = @fp8_kernels::@fp8_quantize_64x256_1x128_f32_e4m3_pow2_ue8m0
// CHECK: llvm.func @fp8_quantize_64x256_1x128_f32_e4m3_pow2_ue8m0(
func.func @e8m0(%x: tensor<64x256xf32>) -> !fp8.scaled<64x256xf8E4M3FN, block = [1, 128], scale = f8E8M0FNU> {
  %q = fp8.quantize %x {scale_mode = #fp8.scale_mode<pow2>} : tensor<64x256xf32> -> !fp8.scaled<64x256xf8E4M3FN, block = [1, 128], scale = f8E8M0FNU>
  return %q : !fp8.scaled<64x256xf8E4M3FN, block = [1, 128], scale = f8E8M0FNU>
}

// -----

func.func @no_saturate(%x: tensor<64x256xf32>) -> !fp8.scaled<64x256xf8E4M3FN, block = [1, 128], scale = f32> {
  // expected-remark @+1 {{the hardware conversion cvt.rn.satfinite needs saturate = true}}
  %q = fp8.quantize %x {saturate = false} : tensor<64x256xf32> -> !fp8.scaled<64x256xf8E4M3FN, block = [1, 128], scale = f32>
  return %q : !fp8.scaled<64x256xf8E4M3FN, block = [1, 128], scale = f32>
}

// -----

func.func @dynamic_columns(%x: tensor<16x?xf32>) -> !fp8.scaled<16x?xf8E4M3FN, block = [1, 128], scale = f32> {
  // expected-remark @+1 {{needs a rank-2 input with static columns (rows may be dynamic), got 'tensor<16x?xf32>'}}
  %q = fp8.quantize %x : tensor<16x?xf32> -> !fp8.scaled<16x?xf8E4M3FN, block = [1, 128], scale = f32>
  return %q : !fp8.scaled<16x?xf8E4M3FN, block = [1, 128], scale = f32>
}

// -----

func.func @rank3(%x: tensor<2x64x256xf32>) -> !fp8.scaled<2x64x256xf8E4M3FN, block = [1, 1, 128], scale = f32> {
  // expected-remark @+1 {{needs a rank-2 input with static columns (rows may be dynamic), got 'tensor<2x64x256xf32>'}}
  %q = fp8.quantize %x : tensor<2x64x256xf32> -> !fp8.scaled<2x64x256xf8E4M3FN, block = [1, 1, 128], scale = f32>
  return %q : !fp8.scaled<2x64x256xf8E4M3FN, block = [1, 1, 128], scale = f32>
}

// -----

func.func @f16_input(%x: tensor<64x256xf16>) -> !fp8.scaled<64x256xf8E4M3FN, block = [1, 128], scale = f32> {
  // expected-remark @+1 {{needs an f32 or bf16 input, got 'f16'}}
  %q = fp8.quantize %x : tensor<64x256xf16> -> !fp8.scaled<64x256xf8E4M3FN, block = [1, 128], scale = f32>
  return %q : !fp8.scaled<64x256xf8E4M3FN, block = [1, 128], scale = f32>
}

// -----

// 2^31 rows: the kernel's row count and coordinates are signed 32-bit.
// CHECK-LABEL: func.func @rows_2p31
// CHECK: fp8.quantize
func.func @rows_2p31(%x: tensor<2147483648x128xf32>) -> !fp8.scaled<2147483648x128xf8E4M3FN, block = [1, 128], scale = f32> {
  // expected-remark @+1 {{needs fewer than 2^31 rows and columns (its coordinates and row count are signed 32-bit), got 'tensor<2147483648x128xf32>'}}
  %q = fp8.quantize %x : tensor<2147483648x128xf32> -> !fp8.scaled<2147483648x128xf8E4M3FN, block = [1, 128], scale = f32>
  return %q : !fp8.scaled<2147483648x128xf8E4M3FN, block = [1, 128], scale = f32>
}
