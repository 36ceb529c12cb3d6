// config=auto (the default): the GEMM cost model (GemmCostModel.h,
// docs/gpu-kernel.md) chooses each kernel's tiles and stages for its shape
// on `device`; explicit block-m / block-n / stages / consumers override it;
// config=fixed keeps the shape's default. Every GEMM kernel records its
// configuration in `fp8.kernel` (#fp8.gemm_kernel) and the model's figures
// beside it in `fp8.kernel_model` (#fp8.kernel_model); a non-default
// configuration is also in the kernel name (`_t<BM>x<BN>s<S>`, for humans:
// nothing parses it); fp8-launch-kernels and the emulator read the
// configuration.
// RUN: fp8-opt %s --fp8-lower-to-nvvm | FileCheck %s --check-prefix=AUTO
// RUN: fp8-opt %s --fp8-lower-to-nvvm=config=fixed | FileCheck %s --check-prefix=FIXED
// RUN: fp8-opt %s --fp8-lower-to-nvvm="block-n=64" | FileCheck %s --check-prefix=OVERRIDE
// RUN: fp8-opt %s --fp8-lower-to-nvvm=device=h100-sxm | FileCheck %s --check-prefix=H100
// RUN: fp8-opt %s --fp8-lower-to-nvvm --fp8-launch-kernels | FileCheck %s --check-prefix=LAUNCH
// RUN: not fp8-opt %s --fp8-lower-to-nvvm=config=best 2>&1 | FileCheck %s --check-prefix=BADCFG
// RUN: not fp8-opt %s --fp8-lower-to-nvvm=device=b200 2>&1 | FileCheck %s --check-prefix=BADDEV
// The grouped tile order: the model's group, or the option group-m.
// RUN: fp8-opt %s --fp8-lower-to-nvvm=group-m=1 | FileCheck %s --check-prefix=ROWMAJOR
// RUN: fp8-opt %s --fp8-lower-to-nvvm="block-m=128 block-n=128 group-m=3" | FileCheck %s --check-prefix=GROUP3
// RUN: not fp8-opt %s --fp8-lower-to-nvvm=group-m=-1 2>&1 | FileCheck %s --check-prefix=BADGROUP

// 128x2112x7168 (DeepSeek-V3 decode): 64x32 tiles, 2 x ceil(2112 / 32) =
// 132 CTAs (one per SM), 8 stages (the cap; 8 x 12544 B fit in 227 KB); no
// clusters (the model does not choose them: they ran at half the speed on
// an H200).
// AUTO-LABEL: llvm.func @fp8_scaled_matmul_128x2112x7168_e4m3_e4m3_bf16_t64x32s8(
// AUTO-SAME: fp8.kernel = #fp8.gemm_kernel<m = 128, n = 2112, k = 7168, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 64, block_n = 32, block_k = 128, stages = 8, consumers = 1>, fp8.kernel_model = #fp8.kernel_model<chip = "h200", ctas = 132, modelled_us = {{[0-9.e+-]+}} : f64, modelled_tflops = {{[0-9.e+-]+}} : f64>
// A dynamic M keeps the default (M is unknown to the model): no time.
// AUTO-LABEL: llvm.func @fp8_scaled_matmul_dynx2112x7168_e4m3_e4m3_bf16(
// AUTO-SAME: fp8.kernel = #fp8.gemm_kernel<m = ?, n = 2112, k = 7168, a = f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 128, stages = 6, consumers = 2>, fp8.kernel_model = #fp8.kernel_model<chip = "h200">

// 128x128 tiles: ceil(2112 / 128) = 17 CTAs.
// FIXED-LABEL: llvm.func @fp8_scaled_matmul_128x2112x7168_e4m3_e4m3_bf16(
// FIXED-SAME: block_m = 128, block_n = 128, block_k = 128, stages = 6, {{.*}} ctas = 17,

// 128x64 tiles: ceil(2112 / 64) = 33 CTAs; 8 stages (the cap: 9 of
// 16384 + 8192 + 512 = 25088 B would fit in 227 KB - 1 KB).
// OVERRIDE-LABEL: llvm.func @fp8_scaled_matmul_128x2112x7168_e4m3_e4m3_bf16_t128x64s8(
// OVERRIDE-SAME: block_m = 128, block_n = 64, {{.*}} ctas = 33,

// H100-LABEL: llvm.func @fp8_scaled_matmul_128x2112x7168_e4m3_e4m3_bf16_t64x32s8(
// H100-SAME: chip = "h100-sxm"

// LAUNCH: call @fp8_launch_fp8_scaled_matmul_128x2112x7168_e4m3_e4m3_bf16_t64x32s8(
// LAUNCH: func.func private @fp8_launch_fp8_scaled_matmul_128x2112x7168_e4m3_e4m3_bf16_t64x32s8(

// BADCFG: fp8-lower-to-nvvm: option config='best' is invalid: expected auto (the cost model chooses per shape) or fixed (the shape's default: 128x128, 64x128 for M <= 64)
// BADDEV: fp8-lower-to-nvvm: option device='b200' is unknown: expected one of h100-sxm, h200

func.func @decode(%a: !fp8.scaled<128x7168xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<2112x7168xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<128x2112xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<128x7168xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<2112x7168xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<128x2112xbf16>
  return %d : tensor<128x2112xbf16>
}

func.func @any_tokens(%a: !fp8.scaled<?x7168xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<2112x7168xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<?x2112xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<?x7168xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<2112x7168xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<?x2112xbf16>
  return %d : tensor<?x2112xbf16>
}

// 4096x7168x16384 (A 64 MiB + B 112 MiB, far over half the 50 MB L2): the
// model's 128x128 tiles overlapped by 8 K blocks (32 x 56 = 1792 tiles; the
// overlapped promotion hides 112 of the 128 K blocks' promotions, so the
// model has it faster than 128x192 in lock-step, the measured fastest
// lock-step tile on an H200; the overlap itself is not timed yet) in groups
// of 16 tile rows; row-major, every wave would stream all of B from HBM
// (GemmCostModelTest.cpp derives the bytes).
// AUTO-LABEL: llvm.func @fp8_scaled_matmul_4096x7168x16384_e4m3_e4m3_bf16_t128x128s6g16o8(
// AUTO-SAME: consumers = 2, group_m = 16, overlap = 8>, fp8.kernel_model = #fp8.kernel_model<chip = "h200", ctas = 132,
// The grouped order computes the group of tile t (t / (16 x 56) with 56
// column tiles), the group's height min(16, 32 - first row) and the tile's
// row and column inside it.
// AUTO: arith.constant 896 : i32
// AUTO: arith.divui %{{.*}}, %{{.*}} : i32
// AUTO: arith.minui %{{.*}}, %{{.*}} : i32
// The default (config=fixed) and explicit tiles keep the row-major order.
// FIXED-LABEL: llvm.func @fp8_scaled_matmul_4096x7168x16384_e4m3_e4m3_bf16(
// FIXED-SAME: consumers = 2>, fp8.kernel_model = #fp8.kernel_model<chip = "h200"
// OVERRIDE-LABEL: llvm.func @fp8_scaled_matmul_4096x7168x16384_e4m3_e4m3_bf16_t128x64s8(
// OVERRIDE-SAME: consumers = 2>, fp8.kernel_model = #fp8.kernel_model<chip = "h200"
// ROWMAJOR-LABEL: llvm.func @fp8_scaled_matmul_4096x7168x16384_e4m3_e4m3_bf16_t128x128s6o8(
// ROWMAJOR-SAME: consumers = 2, overlap = 8>, fp8.kernel_model = #fp8.kernel_model<chip = "h200"
// GROUP3-LABEL: llvm.func @fp8_scaled_matmul_4096x7168x16384_e4m3_e4m3_bf16_t128x128s6g3(
// GROUP3-SAME: consumers = 2, group_m = 3>, fp8.kernel_model = #fp8.kernel_model<chip = "h200"
// The launcher follows the kernel (fp8.kernel): grid min(32 x 56, SMs)
// (ceil(7168 / 128) = 56 column tiles), shared memory 6 x (128 x 128 +
// 128 x 128 + 512) + 1024 = 200704 bytes, no clusters.
// LAUNCH: func.func private @fp8_launch_fp8_scaled_matmul_4096x7168x16384_e4m3_e4m3_bf16_t128x128s6g16o8(
// LAUNCH: arith.constant 56 : index
// LAUNCH: arith.constant 200704 : i32
// LAUNCH-NOT: clusters in
// LAUNCH: return
// BADGROUP: fp8-lower-to-nvvm: option group-m=-1 is invalid: expected 0 (the cost model's choice under config=auto, else 1) or 1..4096 rows of tiles per group (1: row-major)

func.func @prefill(%a: !fp8.scaled<4096x16384xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<7168x16384xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<4096x7168xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<4096x16384xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<7168x16384xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<4096x7168xbf16>
  return %d : tensor<4096x7168xbf16>
}
