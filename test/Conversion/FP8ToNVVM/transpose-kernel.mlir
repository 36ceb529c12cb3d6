// The transpose kernel (#fp8.transpose_kernel, TransposeKernelConfig.h):
// fp8-launch-kernels keeps an operand that the next kernel reads in another
// layout on the device: the A scales [M, KB] as the GEMM's [KB, roundUp(M,
// 4)] and the Dgrad's W^T (the codes and the 128x128 block scales of the
// forward's quantized W, transposed by linalg.transpose on fp8.disassemble's
// results, as fp8-insert-quant writes it). No linalg.transpose is left on
// the host. Grid sizes by hand: one thread per output element, 256 per CTA.
// RUN: fp8-opt %s -split-input-file -fp8-lower-to-nvvm=config=fixed -fp8-launch-kernels -canonicalize -cse | FileCheck %s
// RUN: fp8-opt %s -split-input-file -fp8-lower-to-nvvm=config=fixed -fp8-launch-kernels | FileCheck %s --check-prefix=KERNEL

// dX = dY W: dY [256, 128] in 1x128 tiles, W [128, 384] in 128x128 blocks
// (scales [1, 3]); B = W^T [384, 128] (scales [3, 1]).
// CHECK-LABEL: func.func @dgrad(
// CHECK-NOT: linalg.transpose
// W^T's codes: 384 x 128 = 49152 bytes.
// CHECK: %[[WT:.*]] = memref.alloc() : memref<384x128xf8E4M3FN>
// CHECK: call @fp8_launch_fp8_transpose_b8_128x384_to_384x128(%{{.*}}, %[[WT]]) : (memref<128x384xf8E4M3FN>, memref<384x128xf8E4M3FN>) -> ()
// CHECK: %[[ST:.*]] = memref.alloc() : memref<3x1xf32>
// CHECK: call @fp8_launch_fp8_transpose_b32_1x3_to_3x1(%{{.*}}, %[[ST]]) : (memref<1x3xf32>, memref<3x1xf32>) -> ()
// dY's scales [256, 1] -> [1, 256] (256 is a multiple of 4: no padding).
// CHECK: %[[SA:.*]] = memref.alloc() : memref<1x256xf32>
// CHECK: call @fp8_launch_fp8_transpose_b32_256x1_to_1x256(%{{.*}}, %[[SA]]) : (memref<256x1xf32>, memref<1x256xf32>) -> ()
// CHECK: call @fp8_launch_fp8_scaled_matmul_256x384x128_e4m3_e4m3_f32(%{{.*}}, %[[WT]], %[[SA]], %[[ST]], %{{.*}})
// CHECK-NOT: linalg.transpose
// CHECK: return

// The launchers: sizes from the buffers, grid ceil(384 * 128 / 256) = 192
// CTAs of 256 threads for the codes, ceil(3 / 256) = 1 for the scales.
// CHECK-LABEL: func.func private @fp8_launch_fp8_transpose_b8_128x384_to_384x128(
// CHECK: gpu.launch_func async [%{{.*}}] @fp8_kernels::@fp8_transpose_b8 blocks in (%c192, %c1, %c1) threads in (%c256, %c1, %c1) dynamic_shared_memory_size %c0_i32 args(%{{.*}} : memref<128x384xf8E4M3FN>, %{{.*}} : memref<384x128xf8E4M3FN>, %c1_i32 : i32, %c128_i32 : i32, %c384_i32 : i32, %c128_i32 : i32)
// CHECK-LABEL: func.func private @fp8_launch_fp8_transpose_b32_1x3_to_3x1(
// CHECK: gpu.launch_func {{.*}}@fp8_kernels::@fp8_transpose_b32 blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) dynamic_shared_memory_size %c0_i32 args(%{{.*}} : memref<1x3xf32>, %{{.*}} : memref<3x1xf32>, %c1_i32 : i32, %c1_i32 : i32, %c3_i32 : i32, %c1_i32 : i32)

// The kernel: thread t = ctaid.x * 256 + tid.x writes out element t of
// [batch, cols, outRows]; r = t % outRows, c = (t / outRows) % cols,
// b = t / outRows / cols; it reads in[(b * rows + r) * cols + c] of the
// element's width when r < rows, else stores 0.
// KERNEL-LABEL: llvm.func @fp8_transpose_b8(
// KERNEL-SAME: %[[IN:[^:]*]]: !llvm.ptr, %[[OUT:[^:]*]]: !llvm.ptr, %[[B:[^:]*]]: i32, %[[R:[^:]*]]: i32, %[[C:[^:]*]]: i32, %[[RP:[^:]*]]: i32)
// KERNEL-SAME: fp8.kernel = #fp8.transpose_kernel<bits = 8>
// KERNEL-SAME: gpu.kernel
// KERNEL-SAME: nvvm.kernel
// KERNEL-SAME: nvvm.maxntid = array<i32: 256, 1, 1>
// KERNEL: %[[CTA:.*]] = nvvm.read.ptx.sreg.ctaid.x : i32
// KERNEL: %[[CTA256:.*]] = arith.muli %[[CTA]], %{{.*}} : i32
// KERNEL: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// KERNEL: %[[T:.*]] = arith.addi %[[CTA256]], %[[TID]] : i32
// KERNEL: %[[BC:.*]] = arith.muli %[[B]], %[[C]] : i32
// KERNEL: %[[TOTAL:.*]] = arith.muli %[[BC]], %[[RP]] : i32
// KERNEL: %[[IN_RANGE:.*]] = arith.cmpi ult, %[[T]], %[[TOTAL]] : i32
// KERNEL: scf.if %[[IN_RANGE]] {
// KERNEL: %[[ROW:.*]] = arith.remui %[[T]], %[[RP]] : i32
// KERNEL: %[[TC:.*]] = arith.divui %[[T]], %[[RP]] : i32
// KERNEL: %[[COL:.*]] = arith.remui %[[TC]], %[[C]] : i32
// KERNEL: %[[BI:.*]] = arith.divui %[[TC]], %[[C]] : i32
// KERNEL: %[[VALID:.*]] = arith.cmpi ult, %[[ROW]], %[[R]] : i32
// KERNEL: %[[V:.*]] = scf.if %[[VALID]] -> (i8) {
// KERNEL: %[[BR:.*]] = arith.muli %[[BI]], %[[R]] : i32
// KERNEL: %[[BRR:.*]] = arith.addi %[[BR]], %[[ROW]] : i32
// KERNEL: %[[BRRC:.*]] = arith.muli %[[BRR]], %[[C]] : i32
// KERNEL: %[[SRC:.*]] = arith.addi %[[BRRC]], %[[COL]] : i32
// KERNEL: %[[SRC64:.*]] = arith.extui %[[SRC]] : i32 to i64
// KERNEL: %[[P:.*]] = llvm.getelementptr %{{.*}}[%[[SRC64]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// KERNEL: %[[L:.*]] = llvm.load %[[P]] {alignment = 1 : i64} : !llvm.ptr<1> -> i8
// KERNEL: scf.yield %[[L]] : i8
// KERNEL: } else {
// KERNEL: %[[Z:.*]] = arith.constant 0 : i8
// KERNEL: scf.yield %[[Z]] : i8
// KERNEL: %[[T64:.*]] = arith.extui %[[T]] : i32 to i64
// KERNEL: %[[Q:.*]] = llvm.getelementptr %{{.*}}[%[[T64]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// KERNEL: llvm.store %[[V]], %[[Q]] {alignment = 1 : i64} : i8, !llvm.ptr<1>
// KERNEL-LABEL: llvm.func @fp8_transpose_b32(
// KERNEL-SAME: fp8.kernel = #fp8.transpose_kernel<bits = 32>
// KERNEL: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> i32
// KERNEL: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : i32, !llvm.ptr<1>

func.func @dgrad(%dy: !fp8.scaled<256x128xf8E4M3FN, block = [1, 128], scale = f32>,
    %w: !fp8.scaled<128x384xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<256x384xf32> {
  %c, %s = fp8.disassemble %w : !fp8.scaled<128x384xf8E4M3FN, block = [128, 128], scale = f32>
  %e0 = tensor.empty() : tensor<384x128xf8E4M3FN>
  %ct = linalg.transpose ins(%c : tensor<128x384xf8E4M3FN>) outs(%e0 : tensor<384x128xf8E4M3FN>) permutation = [1, 0]
  %e1 = tensor.empty() : tensor<3x1xf32>
  %st = linalg.transpose ins(%s : tensor<1x3xf32>) outs(%e1 : tensor<3x1xf32>) permutation = [1, 0]
  %wt = fp8.assemble %ct, %st : tensor<384x128xf8E4M3FN>, tensor<3x1xf32> -> !fp8.scaled<384x128xf8E4M3FN, block = [128, 128], scale = f32>
  %d = fp8.scaled_matmul %dy, %wt : !fp8.scaled<256x128xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<384x128xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<256x384xf32>
  return %d : tensor<256x384xf32>
}

// -----

// A run-time M: the A scales [M, 3] -> [3, roundUp(M, 4)] at run time, the
// padding rows written as +0.0 by the kernel; the launcher takes the sizes
// from its buffers.
// CHECK-LABEL: func.func @dyn(
// CHECK: %[[M:.*]] = tensor.dim %{{.*}}, %c0 : tensor<?x3xf32>
// CHECK: %[[Q:.*]] = arith.ceildivui %[[M]], %c4 : index
// CHECK: %[[MP:.*]] = arith.muli %[[Q]], %c4 : index
// CHECK: %[[SA:.*]] = memref.alloc(%[[MP]]) : memref<3x?xf32>
// CHECK: call @fp8_launch_fp8_transpose_b32_dynx3_to_3xdyn(%{{.*}}, %[[SA]]) : (memref<?x3xf32>, memref<3x?xf32>) -> ()
// CHECK-LABEL: func.func private @fp8_launch_fp8_transpose_b32_dynx3_to_3xdyn(
// CHECK-DAG: %[[R:.*]] = memref.dim %arg0, %c0 : memref<?x3xf32>
// CHECK-DAG: %[[RP:.*]] = memref.dim %arg1, %c1 : memref<3x?xf32>
// CHECK: gpu.launch_func {{.*}}@fp8_kernels::@fp8_transpose_b32 blocks in (%{{.*}}, %c1, %c1) threads in (%c256, %c1, %c1)
func.func @dyn(%a: !fp8.scaled<?x384xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<256x384xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<?x256xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<?x384xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<256x384xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<?x256xbf16>
  return %d : tensor<?x256xbf16>
}
