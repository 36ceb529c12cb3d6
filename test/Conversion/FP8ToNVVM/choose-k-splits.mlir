// fp8-choose-k-splits (Passes.td; docs/gpu-kernel.md "Split-K"): the cost
// model's split-K written on the op, for both pipelines. A decode GEMM
// whose unsplit kernel runs one wave of tiles (64 x 2112 x 7168: at most
// 132 tiles on 132 SMs, each CTA running all 56 K blocks) gets k_splits >
// 1; a prefill GEMM of several waves (4096 x 7168 x 16384) keeps 1; a hand-written split stays; a run-time M,
// a result only a 1x128 quantize reads (the quantize epilogue) and a
// per-tensor scale keep 1. The GPU lowering then builds the split kernel
// the op names (suffix k<S>), with the tile the model prices for that S.
// RUN: fp8-opt %s -split-input-file --fp8-choose-k-splits | FileCheck %s
// RUN: fp8-opt %s -split-input-file --fp8-choose-k-splits=device=h100-sxm | FileCheck %s
// RUN: fp8-opt %s -split-input-file --fp8-choose-k-splits --fp8-lower-to-nvvm | FileCheck %s --check-prefix=NVVM
// RUN: not fp8-opt %s --fp8-choose-k-splits=device=b200 2>&1 | FileCheck %s --check-prefix=BAD

// BAD: fp8-choose-k-splits: option device='b200' is unknown: expected one of h100-sxm, h200

// CHECK-LABEL: func.func @decode
// CHECK: fp8.scaled_matmul %{{.*}}, %{{.*}} {k_splits = {{[2-8]}} : i64}
// NVVM-LABEL: llvm.func @fp8_scaled_matmul_64x2112x7168_e4m3_e4m3_bf16_t{{[0-9x]+}}s{{[0-9]+}}{{.*}}k{{[2-8]}}(
func.func @decode(%a: !fp8.scaled<64x7168xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<2112x7168xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<64x2112xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<64x7168xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<2112x7168xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<64x2112xbf16>
  return %d : tensor<64x2112xbf16>
}

// -----

// CHECK-LABEL: func.func @prefill
// CHECK-NOT: k_splits
// CHECK: return
func.func @prefill(%a: !fp8.scaled<4096x16384xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<7168x16384xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<4096x7168xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<4096x16384xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<7168x16384xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<4096x7168xbf16>
  return %d : tensor<4096x7168xbf16>
}

// -----

// CHECK-LABEL: func.func @by_hand
// CHECK: fp8.scaled_matmul %{{.*}}, %{{.*}} {k_splits = 3 : i64}
func.func @by_hand(%a: !fp8.scaled<64x7168xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<2112x7168xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<64x2112xbf16> {
  %d = fp8.scaled_matmul %a, %b {k_splits = 3 : i64} : !fp8.scaled<64x7168xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<2112x7168xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<64x2112xbf16>
  return %d : tensor<64x2112xbf16>
}

// -----

// CHECK-LABEL: func.func @dynamic_m
// CHECK-NOT: k_splits
// CHECK: return
func.func @dynamic_m(%a: !fp8.scaled<?x7168xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<2112x7168xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<?x2112xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<?x7168xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<2112x7168xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<?x2112xbf16>
  return %d : tensor<?x2112xbf16>
}

// -----

// CHECK-LABEL: func.func @quantized_result
// CHECK-NOT: k_splits
// CHECK: return
func.func @quantized_result(%a: !fp8.scaled<64x7168xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<2112x7168xf8E4M3FN, block = [128, 128], scale = f32>) -> !fp8.scaled<64x2112xf8E4M3FN, block = [1, 128], scale = f32> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<64x7168xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<2112x7168xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<64x2112xbf16>
  %q = fp8.quantize %d : tensor<64x2112xbf16> -> !fp8.scaled<64x2112xf8E4M3FN, block = [1, 128], scale = f32>
  return %q : !fp8.scaled<64x2112xf8E4M3FN, block = [1, 128], scale = f32>
}

// -----

// CHECK-LABEL: func.func @per_tensor
// CHECK-NOT: k_splits
// CHECK: return
func.func @per_tensor(%a: !fp8.scaled<64x7168xf8E4M3FN, block = [64, 7168], scale = f32>,
    %b: !fp8.scaled<2112x7168xf8E4M3FN, block = [2112, 7168], scale = f32>) -> tensor<64x2112xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<64x7168xf8E4M3FN, block = [64, 7168], scale = f32>,
    !fp8.scaled<2112x7168xf8E4M3FN, block = [2112, 7168], scale = f32> -> tensor<64x2112xbf16>
  return %d : tensor<64x2112xbf16>
}
