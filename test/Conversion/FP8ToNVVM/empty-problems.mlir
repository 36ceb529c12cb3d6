// Zero-size problems on the GPU path: a GEMM or quantize whose result has a
// static dimension of 0 (M = 0, an empty masked slab) or a GEMM with K = 0
// gets no kernel and no launch; it stays on the host with a remark, and the
// host lowering computes it (an empty result; C or +0.0 for K = 0), so the
// whole pipeline compiles and the host program launches nothing.
// (swap-ab=never: the launches below are the plain GEMM's.)
// RUN: fp8-opt %s -split-input-file -verify-diagnostics --fp8-lower-to-nvvm=swap-ab=never --fp8-launch-kernels | FileCheck %s
// RUN: fp8-opt %s -split-input-file --fp8-gpu-pipeline="host=llvm target=emulator swap-ab=never" 2>/dev/null | FileCheck %s --check-prefix=HOST

// CHECK-LABEL: func.func @m0
// CHECK-NOT: gpu.module
// CHECK-NOT: call @fp8_launch
// CHECK: fp8.quantize
// CHECK: fp8.scaled_matmul
// HOST-LABEL: llvm.func @m0
// HOST-NOT: mgpuLaunchKernel
// HOST-NOT: mgpuMemAlloc
// HOST-NOT: mgpuTensorMapEncodeTiledMemref
// HOST: llvm.return
func.func @m0(%x: tensor<0x256xf32>, %w: !fp8.scaled<40x256xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<0x40xbf16> {
  // expected-remark @+1 {{fp8-lower-to-nvvm: no GPU quantize kernel (the result is empty); the op stays on the host}}
  %q = fp8.quantize %x : tensor<0x256xf32> -> !fp8.scaled<0x256xf8E4M3FN, block = [1, 128], scale = f32>
  // expected-remark @+1 {{fp8-lower-to-nvvm: no kernel (the result is empty); the op stays on the host, which launches nothing for it}}
  %d = fp8.scaled_matmul %q, %w : !fp8.scaled<0x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<40x256xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<0x40xbf16>
  return %d : tensor<0x40xbf16>
}

// -----

// K = 0 with C: D = C on the host.
// CHECK-LABEL: func.func @k0
// CHECK-NOT: gpu.module
// CHECK: fp8.scaled_matmul
// HOST-LABEL: llvm.func @k0
// HOST-NOT: mgpuLaunchKernel
// HOST: llvm.return
func.func @k0(%a: !fp8.scaled<64x0xf8E4M3FN, block = [1, 128], scale = f32>, %w: !fp8.scaled<40x0xf8E4M3FN, block = [128, 128], scale = f32>, %c: tensor<64x40xf32>) -> tensor<64x40xf32> {
  // expected-remark @+1 {{fp8-lower-to-nvvm: no kernel (K = 0: the result is C, or +0.0); the op stays on the host}}
  %d = fp8.scaled_matmul %a, %w acc(%c : tensor<64x40xf32>) : !fp8.scaled<64x0xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<40x0xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<64x40xf32>
  return %d : tensor<64x40xf32>
}

// -----

// Masked grouped, static M = 0 (the "offset 1 is out-of-bounds" of the
// launcher's A-scale buffer before), and contiguous with K = 0.
// CHECK-LABEL: func.func @grouped
// CHECK-NOT: gpu.module
// CHECK: fp8.grouped_scaled_matmul masked
// CHECK: fp8.grouped_scaled_matmul contiguous
// HOST-LABEL: llvm.func @grouped
// HOST-NOT: mgpuLaunchKernel
// HOST: llvm.return
func.func @grouped(%a: !fp8.scaled<4x0x256xf8E4M3FN, block = [1, 1, 128], scale = f32>,
                   %w: !fp8.scaled<4x40x256xf8E4M3FN, block = [1, 128, 128], scale = f32>,
                   %n: tensor<4xi32>,
                   %ak: !fp8.scaled<128x0xf8E4M3FN, block = [1, 128], scale = f32>,
                   %wk: !fp8.scaled<4x40x0xf8E4M3FN, block = [1, 128, 128], scale = f32>,
                   %ids: tensor<128xi32>) -> (tensor<4x0x40xbf16>, tensor<128x40xf32>) {
  // expected-remark @+1 {{fp8-lower-to-nvvm: no kernel (the result is empty)}}
  %d = fp8.grouped_scaled_matmul masked %a, %w counts(%n : tensor<4xi32>) : !fp8.scaled<4x0x256xf8E4M3FN, block = [1, 1, 128], scale = f32>, !fp8.scaled<4x40x256xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<4x0x40xbf16>
  // expected-remark @+1 {{fp8-lower-to-nvvm: no kernel (K = 0: the result is C, or +0.0)}}
  %e = fp8.grouped_scaled_matmul contiguous %ak, %wk group_ids(%ids : tensor<128xi32>) : !fp8.scaled<128x0xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<4x40x0xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<128x40xf32>
  return %d, %e : tensor<4x0x40xbf16>, tensor<128x40xf32>
}

// -----

// Beside a GEMM that has a kernel: that one is launched, the empty one is
// not (no launcher for a kernel that was never built). The launched one's A
// scales go to its layout first (the transpose kernel).
// CHECK-LABEL: func.func @mixed
// CHECK: call @fp8_launch_fp8_transpose_b32_64x2_to_2x64(
// CHECK: call @fp8_launch_fp8_scaled_matmul_64x40x256_
// CHECK-NOT: call @fp8_launch_
// CHECK: fp8.scaled_matmul {{.*}} -> tensor<0x40xf32>
// CHECK-NOT: call @fp8_launch_
// CHECK: return
// HOST-LABEL: llvm.func @mixed
// HOST-COUNT-2: llvm.call @fp8_launch_
// HOST-NOT: llvm.call @fp8_launch_
// HOST: llvm.return
func.func @mixed(%a: !fp8.scaled<64x256xf8E4M3FN, block = [1, 128], scale = f32>,
                 %a0: !fp8.scaled<0x256xf8E4M3FN, block = [1, 128], scale = f32>,
                 %w: !fp8.scaled<40x256xf8E4M3FN, block = [128, 128], scale = f32>) -> (tensor<64x40xf32>, tensor<0x40xf32>) {
  %d = fp8.scaled_matmul %a, %w : !fp8.scaled<64x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<40x256xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<64x40xf32>
  // expected-remark @+1 {{fp8-lower-to-nvvm: no kernel (the result is empty)}}
  %e = fp8.scaled_matmul %a0, %w : !fp8.scaled<0x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<40x256xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<0x40xf32>
  return %d, %e : tensor<64x40xf32>, tensor<0x40xf32>
}
