// The forms no sm_90a GEMM kernel implements are not errors: fp8-lower-to-nvvm
// leaves the op on the host (whose lowering, the CPU reference, computes it)
// with a remark naming the op and what is missing, and generates no kernel
// for it (CHECK-NOT below); fp8-launch-kernels leaves it alone.
// RUN: fp8-opt %s --fp8-lower-to-nvvm=config=fixed -split-input-file -verify-diagnostics
// RUN: fp8-opt %s --fp8-lower-to-nvvm=config=fixed --fp8-launch-kernels -split-input-file 2>/dev/null | FileCheck %s
// CHECK-NOT: fp8.kernel_ref
// CHECK-NOT: llvm.func @fp8_scaled_matmul
// CHECK-NOT: fp8_launch

// A dynamic N: M and K may be dynamic (a dynamic K: the Wgrad over a
// run-time token count, test/Integration/GPUHost/dynamic-k-wgrad.mlir).
func.func @dynamic_n(%a: !fp8.scaled<128x256xf8E4M3FN, block = [1, 128], scale = f32>,
                     %b: !fp8.scaled<?x256xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<128x?xbf16> {
  // expected-remark @+1 {{fp8-lower-to-nvvm: no GPU GEMM kernel for 'fp8.scaled_matmul' (needs a static N (M and K may be dynamic)}}
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<128x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<?x256xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<128x?xbf16>
  return %d : tensor<128x?xbf16>
}

// -----

// A dynamic K with an accumulator C of another type than the result: a
// run-time K of 0 copies C to the result on the device (no conversion).
func.func @dynamic_k_acc_type(%a: !fp8.scaled<128x?xf8E4M3FN, block = [1, 128], scale = f32>,
                              %b: !fp8.scaled<128x?xf8E4M3FN, block = [1, 128], scale = f32>,
                              %c: tensor<128x128xf32>) -> tensor<128x128xbf16> {
  // expected-remark @+1 {{no GPU GEMM kernel for 'fp8.scaled_matmul' (a dynamic K needs an accumulator C of the result's element type}}
  %d = fp8.scaled_matmul %a, %b acc(%c : tensor<128x128xf32>) : !fp8.scaled<128x?xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<128x?xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<128x128xbf16>
  return %d : tensor<128x128xbf16>
}

// -----

// b blocks other than [128, 128] (weights) and [1, 128] (Wgrad activations).
func.func @tall_b(%a: !fp8.scaled<128x256xf8E4M3FN, block = [1, 128], scale = f32>,
                  %b: !fp8.scaled<128x256xf8E4M3FN, block = [32, 128], scale = f32>) -> tensor<128x128xbf16> {
  // expected-remark @+1 {{no GPU GEMM kernel for 'fp8.scaled_matmul' (implements the DeepSeek-V3 blocks (a: [1, 128], b: [128, 128] or, for the Wgrad GEMM, [1, 128])}}
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<128x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<128x256xf8E4M3FN, block = [32, 128], scale = f32> -> tensor<128x128xbf16>
  return %d : tensor<128x128xbf16>
}

// -----

// M of 2^31 rows: the kernel's M parameter and TMA coordinates are signed
// 32-bit (a dynamic M is checked at run time, launch-kernels-checks.mlir).
func.func @m_2p31(%a: !fp8.scaled<2147483648x256xf8E4M3FN, block = [1, 128], scale = f32>,
                  %b: !fp8.scaled<128x256xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<2147483648x128xbf16> {
  // expected-remark @+1 {{(needs every size below 2^31 (the kernels' TMA coordinates and row counts are signed 32-bit), got 2147483648}}
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<2147483648x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<128x256xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<2147483648x128xbf16>
  return %d : tensor<2147483648x128xbf16>
}

// -----

// The same for the contiguous grouped GEMM's M (the routed token count).
func.func @grouped_m_2p31(%a: !fp8.scaled<2147483648x256xf8E4M3FN, block = [1, 128], scale = f32>, %b: !fp8.scaled<2x128x256xf8E4M3FN, block = [1, 128, 128], scale = f32>, %ids: tensor<2147483648xi32>) -> tensor<2147483648x128xbf16> {
  // expected-remark @+1 {{no GPU GEMM kernel for 'fp8.grouped_scaled_matmul' (needs every size below 2^31 (the kernels' TMA coordinates and row counts are signed 32-bit), got 2147483648}}
  %d = fp8.grouped_scaled_matmul contiguous %a, %b group_ids(%ids : tensor<2147483648xi32>) : !fp8.scaled<2147483648x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<2x128x256xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<2147483648x128xbf16>
  return %d : tensor<2147483648x128xbf16>
}
