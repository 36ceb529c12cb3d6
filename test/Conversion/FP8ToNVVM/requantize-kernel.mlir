// fp8.requantize on the GPU: the transpose-requantize kernel (a variant of
// the quantize kernel with transposed, dequantizing loads), its launcher
// call on the host, and the forms that stay on the host with a remark.
// RUN: fp8-opt %s -split-input-file -verify-diagnostics --fp8-lower-to-nvvm --fp8-launch-kernels | FileCheck %s

// The op [T = 272, F = 300] -> [300, 272]: the kernel's record, its five
// parameters (the input's scales last), the input's byte loads at
// t * 300 + f and their scales at t * ceil(300 / 128) + f / 128 = t * 3 +
// f / 128, each dequantized value the decoded code times its scale.
// CHECK-LABEL: func.func @wgrad_operand(
// CHECK-SAME: %[[IN:.*]]: !fp8.scaled<272x300xf8E4M3FN
// CHECK: %[[CODES:.*]], %[[SCALES:.*]] = fp8.disassemble %[[IN]]
// CHECK-DAG: %[[C:.*]] = bufferization.to_buffer %[[CODES]]{{.*}} to memref<272x300xf8E4M3FN>
// CHECK-DAG: %[[S:.*]] = bufferization.to_buffer %[[SCALES]]{{.*}} to memref<272x3xf32>
// CHECK-DAG: %[[Q:.*]] = memref.alloc() {{.*}}: memref<300x272xf8E4M3FN>
// CHECK-DAG: %[[QS:.*]] = memref.alloc() {{.*}}: memref<300x3xf32>
// CHECK: call @fp8_launch_fp8_requantize_t_300x272_1x128_e4m3_e4m3(%[[C]], %[[Q]], %[[QS]], %[[S]]) : (memref<272x300xf8E4M3FN>, memref<300x272xf8E4M3FN>, memref<300x3xf32>, memref<272x3xf32>) -> ()
// CHECK: fp8.assemble
// CHECK-NOT: fp8.requantize
// The kernel: its record and five parameters; for each of the lane's four
// tokens t (here the first, t = col0 + 0) the code at t * 300 + f (a byte
// load), the scale at t * 3 + f / 128 (an f32 load), and the decoded code
// (the E4M3 rebias 0x3C000000 = 1006632960) times the scale.
// CHECK: llvm.func @fp8_requantize_t_300x272_1x128_e4m3_e4m3(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i32, %{{.*}}: !llvm.ptr)
// CHECK-SAME: fp8.kernel = #fp8.quantize_kernel<rows = 300, cols = 272, block_rows = 1, input = f8E4M3FN, fp8 = f8E4M3FN, scale = f32, eps = 9.99999974E-5 : f32, transpose = true>
// CHECK: %[[F:.*]] = arith.extui %[[ROW:.*]] : i32 to i64
// CHECK: %[[T:.*]] = arith.extui %[[COL:.*]] : i32 to i64
// CHECK: %[[TF:.*]] = arith.muli %[[T]], %c300_i64 : i64
// CHECK: %[[CI:.*]] = arith.addi %[[TF]], %[[F]] : i64
// CHECK: %[[CP:.*]] = llvm.getelementptr %{{.*}}[%[[CI]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK: %[[CODE:.*]] = llvm.load %[[CP]] {alignment = 1 : i64} : !llvm.ptr<1> -> i8
// CHECK: %[[FB:.*]] = arith.divui %[[ROW]], %c128_i32{{.*}} : i32
// CHECK: %[[FB64:.*]] = arith.extui %[[FB]] : i32 to i64
// CHECK: %[[T2:.*]] = arith.extui %[[COL]] : i32 to i64
// CHECK: %[[TS:.*]] = arith.muli %[[T2]], %c3_i64 : i64
// CHECK: %[[SI:.*]] = arith.addi %[[TS]], %[[FB64]] : i64
// CHECK: %[[SP:.*]] = llvm.getelementptr %{{.*}}[%[[SI]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK: %[[S:.*]] = llvm.load %[[SP]] {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// CHECK: arith.extui %[[CODE]] : i8 to i32
// CHECK: arith.constant 1006632960 : i32
// CHECK: %[[V:.*]] = arith.bitcast %{{.*}} : i32 to f32
// CHECK: %[[X:.*]] = arith.mulf %[[V]], %[[S]] : f32
// CHECK: scf.yield %[[X]] : f32
// The launcher: the three buffers, the row count (300) and the input
// scales (the grid, 113 CTAs, is checked by hand in
// Integration/GPUHost/requantize.mlir).
// CHECK-LABEL: func.func private @fp8_launch_fp8_requantize_t_300x272_1x128_e4m3_e4m3(
// CHECK: gpu.launch_func {{.*}}@fp8_kernels::@fp8_requantize_t_300x272_1x128_e4m3_e4m3 blocks in ({{.*}}) threads in (%c256, %{{.*}}, %{{.*}}) dynamic_shared_memory_size %c0_i32 args(%{{.*}} : memref<272x300xf8E4M3FN>, %{{.*}} : memref<300x272xf8E4M3FN>, %{{.*}} : memref<300x3xf32>, %{{.*}} : i32, %{{.*}} : memref<272x3xf32>)
// fp8.requantize on the GPU: the transpose-requantize kernel (a variant of
// the quantize kernel with transposed, dequantizing loads), its launcher
// call on the host, and the forms that stay on the host with a remark.
func.func @wgrad_operand(%x: !fp8.scaled<272x300xf8E4M3FN, block = [1, 128], scale = f32>) -> !fp8.scaled<300x272xf8E4M3FN, block = [1, 128], scale = f32> {
  %t = fp8.requantize %x {permutation = array<i64: 1, 0>} : !fp8.scaled<272x300xf8E4M3FN, block = [1, 128], scale = f32> -> !fp8.scaled<300x272xf8E4M3FN, block = [1, 128], scale = f32>
  return %t : !fp8.scaled<300x272xf8E4M3FN, block = [1, 128], scale = f32>
}

// -----

// A dynamic token count stays on the host.
// CHECK-LABEL: func.func @dynamic_tokens(
// CHECK: fp8.requantize
func.func @dynamic_tokens(%x: !fp8.scaled<?x256xf8E4M3FN, block = [1, 128], scale = f32>) -> !fp8.scaled<256x?xf8E4M3FN, block = [1, 128], scale = f32> {
  // expected-remark @+1 {{fp8-lower-to-nvvm: no GPU requantize kernel (needs a static rank-2 input, got !fp8.scaled<?x256xf8E4M3FN, block = [1, 128], scale = f32>); the op stays on the host}}
  %t = fp8.requantize %x {permutation = array<i64: 1, 0>} : !fp8.scaled<?x256xf8E4M3FN, block = [1, 128], scale = f32> -> !fp8.scaled<256x?xf8E4M3FN, block = [1, 128], scale = f32>
  return %t : !fp8.scaled<256x?xf8E4M3FN, block = [1, 128], scale = f32>
}

// -----

// A relayout without a transpose (1x128 tiles to 128x128 blocks).
// CHECK-LABEL: func.func @no_transpose(
// CHECK: fp8.requantize
func.func @no_transpose(%x: !fp8.scaled<256x256xf8E4M3FN, block = [1, 128], scale = f32>) -> !fp8.scaled<256x256xf8E4M3FN, block = [128, 128], scale = f32> {
  // expected-remark @+1 {{no GPU requantize kernel (implements the transpose (permutation [1, 0]) only); the op stays on the host}}
  %t = fp8.requantize %x : !fp8.scaled<256x256xf8E4M3FN, block = [1, 128], scale = f32> -> !fp8.scaled<256x256xf8E4M3FN, block = [128, 128], scale = f32>
  return %t : !fp8.scaled<256x256xf8E4M3FN, block = [128, 128], scale = f32>
}

// -----

// CHECK-LABEL: func.func @weight_blocks(
// CHECK: fp8.requantize
func.func @weight_blocks(%x: !fp8.scaled<256x384xf8E4M3FN, block = [128, 128], scale = f32>) -> !fp8.scaled<384x256xf8E4M3FN, block = [1, 128], scale = f32> {
  // expected-remark @+1 {{no GPU requantize kernel (implements [1, 128] tiles in and out, got !fp8.scaled<256x384xf8E4M3FN, block = [128, 128], scale = f32> -> !fp8.scaled<384x256xf8E4M3FN, block = [1, 128], scale = f32>); the op stays on the host}}
  %t = fp8.requantize %x {permutation = array<i64: 1, 0>} : !fp8.scaled<256x384xf8E4M3FN, block = [128, 128], scale = f32> -> !fp8.scaled<384x256xf8E4M3FN, block = [1, 128], scale = f32>
  return %t : !fp8.scaled<384x256xf8E4M3FN, block = [1, 128], scale = f32>
}

// -----

// CHECK-LABEL: func.func @no_saturate(
// CHECK: fp8.requantize
func.func @no_saturate(%x: !fp8.scaled<256x384xf8E4M3FN, block = [1, 128], scale = f32>) -> !fp8.scaled<384x256xf8E5M2, block = [1, 128], scale = f32> {
  // expected-remark @+1 {{no GPU requantize kernel (the hardware conversion cvt.rn.satfinite needs saturate = true); the op stays on the host}}
  %t = fp8.requantize %x {permutation = array<i64: 1, 0>, saturate = false} : !fp8.scaled<256x384xf8E4M3FN, block = [1, 128], scale = f32> -> !fp8.scaled<384x256xf8E5M2, block = [1, 128], scale = f32>
  return %t : !fp8.scaled<384x256xf8E5M2, block = [1, 128], scale = f32>
}

// -----

// An empty result: no kernel, no remark about requantize kernels beyond why.
// CHECK-LABEL: func.func @empty(
// CHECK: fp8.requantize
// CHECK-NOT: call @fp8_launch
func.func @empty(%x: !fp8.scaled<0x256xf8E4M3FN, block = [1, 128], scale = f32>) -> !fp8.scaled<256x0xf8E4M3FN, block = [1, 128], scale = f32> {
  // expected-remark @+1 {{no GPU requantize kernel (the result is empty); the op stays on the host}}
  %t = fp8.requantize %x {permutation = array<i64: 1, 0>} : !fp8.scaled<0x256xf8E4M3FN, block = [1, 128], scale = f32> -> !fp8.scaled<256x0xf8E4M3FN, block = [1, 128], scale = f32>
  return %t : !fp8.scaled<256x0xf8E4M3FN, block = [1, 128], scale = f32>
}
