// What keeps fp8-cpu-pipeline linear in the number of same-shape layers
// (docs/compile-time.md), checked on the structure, not timed: two layers of
// the same shapes, whose lowered loop nests differ only in the values their
// bodies read from above.
//
// 1. The graph function grows by calls only: each quantization, GEMM and
//    dequantization is a call of one shared function per signature, which
//    holds the loop nests once, whatever the number of layers; and a loop
//    nest keeps a destination of its own up to bufferization: no CSE merges
//    tensor.empty ops (CSE hashes an op without its regions, so loop nests
//    of equal operands would be compared region by region, every one with
//    every earlier one).
// RUN: fp8-opt %s --mlir-disable-threading \
// RUN:   --fp8-cpu-pipeline="vector-lanes=8" \
// RUN:   --mlir-print-ir-before=fp8-unshare-destinations -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DEST
//
// 2. Every CSE of the pipeline runs on bufferized IR, whose loops write
//    memory and are never compared: no loop with tensor results is left.
// RUN: fp8-opt %s --mlir-disable-threading \
// RUN:   --fp8-cpu-pipeline="vector-lanes=8" \
// RUN:   --mlir-print-ir-before=cse -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CSE
//
// 3. The one dealloc of all the graph function's buffers (its allocations
//    and the results of its calls of the shared GEMM kernel, which returns
//    a buffer of its own) is split before the simplification, which would
//    compare its operands pairwise.
// RUN: fp8-opt %s --mlir-disable-threading \
// RUN:   --fp8-cpu-pipeline="vector-lanes=8" \
// RUN:   --mlir-print-ir-before=buffer-deallocation-simplification \
// RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEALLOC

// DEST-LABEL: IR Dump Before FP8UnshareDestinationsPass
// DEST: func.func @two_layers
// DEST-NOT: tensor.empty
// DEST-NOT: scf.for
// Layer 1: the activation and the weight quantized, the GEMM.
// DEST: call @[[QA:__quantize_tiled_tensor_4x256xf32[_A-Za-z0-9]*]](%arg0)
// DEST-NEXT: call @[[QW:__quantize_tiled_tensor_256x256xf32[_A-Za-z0-9]*]](%arg1)
// DEST-NEXT: call @[[MM:__scaled_matmul_tiled[_A-Za-z0-9]*]](
// Layer 2: the same three functions.
// DEST-NEXT: call @[[QA]](
// DEST-NEXT: call @[[QW]](%arg2)
// DEST-NEXT: call @[[MM]](
// The layers' dequantizes: one function.
// DEST-NEXT: call @[[DQ:__dequantize_tiled[_A-Za-z0-9]*]](
// DEST-NEXT: call @[[DQ]](
// DEST-NEXT: return
// One body each, with destinations of its own: the activation's codes and
// scales (4 rows, one chunk: scf.for over its block rows), the weight's (two
// chunks: scf.forall), the dequantized activation.
// DEST: func.func private @[[QA]](
// DEST: %[[A:.*]] = tensor.empty() : tensor<4x256xf8E4M3FN>
// DEST: %[[AS:.*]] = tensor.empty() : tensor<4x2xf32>
// DEST: scf.for {{.*}} iter_args(%{{.*}} = %[[A]], %{{.*}} = %[[AS]]) -> (tensor<4x256xf8E4M3FN>, tensor<4x2xf32>)
// DEST: func.func private @[[QW]](
// DEST: %[[W:.*]] = tensor.empty() : tensor<256x256xf8E4M3FN>
// DEST: %[[WS:.*]] = tensor.empty() : tensor<2x2xf32>
// DEST: scf.forall {{.*}} shared_outs(%{{.*}} = %[[W]], %{{.*}} = %[[WS]])
// DEST: func.func private @[[DQ]](
// DEST: %[[O:.*]] = tensor.empty() : tensor<4x256xf32>
// DEST: scf.for {{.*}} iter_args(%{{.*}} = %[[O]]) -> (tensor<4x256xf32>)

// CSE: IR Dump Before CSE
// CSE-NOT: -> (tensor<
// CSE-NOT: -> tensor<
// CSE-NOT: shared_outs
// CSE: memref.alloc
// CSE-NOT: -> (tensor<
// CSE-NOT: -> tensor<
// CSE-NOT: shared_outs

// DEALLOC-LABEL: IR Dump Before BufferDeallocationSimplificationPass
// DEALLOC: func.func @two_layers
// DEALLOC-NOT: bufferization.dealloc (%{{[a-z0-9_]+}},
// The base buffers of the two calls' results, each freed on its own.
// DEALLOC: bufferization.dealloc (%{{[a-z0-9_]+}} : memref<f32>)
// DEALLOC-NOT: bufferization.dealloc (%{{[a-z0-9_]+}},
// DEALLOC: bufferization.dealloc (%{{[a-z0-9_]+}} : memref<f32>)
// DEALLOC-NOT: bufferization.dealloc (%{{[a-z0-9_]+}},
// DEALLOC: return

!act = !fp8.scaled<4x256xf8E4M3FN, block = [1, 128], scale = f32>
!wgt = !fp8.scaled<256x256xf8E4M3FN, block = [128, 128], scale = f32>
func.func @two_layers(%x: tensor<4x256xf32>, %w1: tensor<256x256xf32>,
                      %w2: tensor<256x256xf32>)
    -> (tensor<4x256xf32>, tensor<4x256xf32>, tensor<4x256xf32>) {
  %qx = fp8.quantize %x : tensor<4x256xf32> -> !act
  %qw1 = fp8.quantize %w1 : tensor<256x256xf32> -> !wgt
  %h = fp8.scaled_matmul %qx, %qw1 : !act, !wgt -> tensor<4x256xf32>
  %qh = fp8.quantize %h : tensor<4x256xf32> -> !act
  %qw2 = fp8.quantize %w2 : tensor<256x256xf32> -> !wgt
  %y = fp8.scaled_matmul %qh, %qw2 : !act, !wgt -> tensor<4x256xf32>
  %dx = fp8.dequantize %qx : !act -> tensor<4x256xf32>
  %dh = fp8.dequantize %qh : !act -> tensor<4x256xf32>
  return %y, %dx, %dh : tensor<4x256xf32>, tensor<4x256xf32>, tensor<4x256xf32>
}
