// What keeps fp8-cpu-pipeline's deallocation linear in the number of layers
// of a step that returns a buffer per layer (a training step's gradients;
// docs/compile-time.md), checked on the structure, not timed. The
// ownership-based deallocation frees every buffer of the function in one
// dealloc that retains every returned buffer; split per buffer, each piece
// would still retain all of them, and lower-deallocations compares each
// freed buffer with each retained one at run time (pairwise llvm.icmp:
// quadratic in the layers). Before the simplification no dealloc retains
// more than one value, whatever the depth: a buffer allocated in the
// function is not any other allocation (here the results of the calls of
// the shared GEMM, quantize and dequantize kernels, one per layer and op).
// RUN: fp8-opt %s --mlir-disable-threading \
// RUN:   --fp8-cpu-pipeline="vector-lanes=8" \
// RUN:   --mlir-print-ir-before=buffer-deallocation-simplification \
// RUN:   -o /dev/null 2>&1 | FileCheck %s

// CHECK-LABEL: IR Dump Before BufferDeallocationSimplificationPass
// CHECK: func.func @three_layers
// CHECK-NOT: retain (%{{[^ ,]+}},
// Each layer's GEMM result (a call's result) is retained by the dealloc of
// its own base buffer only.
// CHECK: bufferization.dealloc (%{{[a-z0-9_]+}} : memref<f32>) if (%{{[a-z0-9_]+}}) retain (%[[H1:[0-9]+]] : memref<4x256xf32>)
// CHECK-NOT: retain (%{{[^ ,]+}},
// CHECK: bufferization.dealloc (%{{[a-z0-9_]+}} : memref<f32>) if (%{{[a-z0-9_]+}}) retain (%[[H2:[0-9]+]] : memref<4x256xf32>)
// CHECK-NOT: retain (%{{[^ ,]+}},
// CHECK: bufferization.dealloc (%{{[a-z0-9_]+}} : memref<f32>) if (%{{[a-z0-9_]+}}) retain (%[[H3:[0-9]+]] : memref<4x256xf32>)
// CHECK-NOT: retain (%{{[^ ,]+}},
// The dequantized activation, the result of a call of the shared
// dequantize kernel: its base buffer retains it only.
// CHECK: bufferization.dealloc (%{{[a-z0-9_]+}} : memref<f32>) if (%{{[a-z0-9_]+}}) retain (%[[DX:[0-9]+]] : memref<4x256xf32>)
// CHECK-NOT: retain (%{{[^ ,]+}},
// CHECK: return %[[H1]], %[[H2]], %[[H3]], %[[DX]]
// The shared kernel's own deallocs.
// CHECK-NOT: retain (%{{[^ ,]+}},

!act = !fp8.scaled<4x256xf8E4M3FN, block = [1, 128], scale = f32>
!wgt = !fp8.scaled<256x256xf8E4M3FN, block = [128, 128], scale = f32>
func.func @three_layers(%x: tensor<4x256xf32>, %w1: tensor<256x256xf32>,
                        %w2: tensor<256x256xf32>, %w3: tensor<256x256xf32>)
    -> (tensor<4x256xf32>, tensor<4x256xf32>, tensor<4x256xf32>,
        tensor<4x256xf32>) {
  %qx = fp8.quantize %x : tensor<4x256xf32> -> !act
  %qw1 = fp8.quantize %w1 : tensor<256x256xf32> -> !wgt
  %h1 = fp8.scaled_matmul %qx, %qw1 : !act, !wgt -> tensor<4x256xf32>
  %qh1 = fp8.quantize %h1 : tensor<4x256xf32> -> !act
  %qw2 = fp8.quantize %w2 : tensor<256x256xf32> -> !wgt
  %h2 = fp8.scaled_matmul %qh1, %qw2 : !act, !wgt -> tensor<4x256xf32>
  %qh2 = fp8.quantize %h2 : tensor<4x256xf32> -> !act
  %qw3 = fp8.quantize %w3 : tensor<256x256xf32> -> !wgt
  %h3 = fp8.scaled_matmul %qh2, %qw3 : !act, !wgt -> tensor<4x256xf32>
  %dx = fp8.dequantize %qx : !act -> tensor<4x256xf32>
  return %h1, %h2, %h3, %dx : tensor<4x256xf32>, tensor<4x256xf32>,
                              tensor<4x256xf32>, tensor<4x256xf32>
}
