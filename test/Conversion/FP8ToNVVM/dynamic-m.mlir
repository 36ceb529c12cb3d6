// A dynamic token dimension on the GPU: one GEMM kernel per N, K and types
// that takes M at run time (its last parameter, i32: the tile count and the
// row masks are computed from it, GemmKernelConfig.h), with the 128-row
// tiles of the dynamic-M configuration, and a quantize kernel that takes the
// row count at run time. Names from KernelNames.h (`dyn` for M).
// RUN: fp8-opt %s --fp8-lower-to-nvvm=config=fixed | FileCheck %s
// RUN: %if ptxas %{ fp8-opt %s --fp8-gpu-pipeline=config=fixed | fp8-translate --fp8-extract-gpu-object > %t.ptx %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin > %t.ptxas 2>&1 %}
// RUN: %if ptxas %{ FileCheck %s --check-prefix=PTXAS < %t.ptxas %}
// RUN: %if ptxas %{ FileCheck %s --check-prefix=SPILLS < %t.ptxas %}

// CHECK-LABEL: llvm.func @fp8_scaled_matmul_dynx2112x7168_e4m3_e4m3_bf16(
// CHECK-SAME: %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %[[M:.*]]: i32)
// CHECK-SAME: nvvm.maxntid = array<i32: 384, 1, 1>
// Tiles: ceil(M / 128) * ceil(2112 / 128) = ((M + 127) / 128) * 17.
// CHECK: %[[C127:.*]] = arith.constant 127 : i32
// CHECK: %[[MP:.*]] = arith.addi %[[M]], %[[C127]] : i32
// CHECK: %[[C128:.*]] = arith.constant 128 : i32
// CHECK: %[[MT:.*]] = arith.divui %[[MP]], %[[C128]] : i32
// CHECK: %[[C17:.*]] = arith.constant 17 : i32
// CHECK: arith.muli %[[MT]], %[[C17]] : i32
// Rows beyond M are not stored.
// CHECK: arith.cmpi ult, %{{.*}}, %[[M]] : i32

// CHECK-LABEL: llvm.func @fp8_quantize_dynx7168_1x128_bf16_e4m3(
// CHECK-SAME: %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %[[ROWS:.*]]: i32)
// The number of 1x128 tiles: ceil(rows / 1) * ceil(7168 / 128) = ... * 56.
// CHECK: %[[C0:.*]] = arith.constant 0 : i32
// CHECK: %[[RP:.*]] = arith.addi %[[ROWS]], %[[C0]] : i32
// CHECK: %[[C1:.*]] = arith.constant 1 : i32
// CHECK: %[[RB:.*]] = arith.divui %[[RP]], %[[C1]] : i32
// CHECK: %[[C56:.*]] = arith.constant 56 : i32
// CHECK: arith.muli %[[RB]], %[[C56]] : i32

// PTXAS-NOT: {{warning|[1-9][0-9]* bytes spill}}
// PTXAS-DAG: Compiling entry function 'fp8_quantize_dynx7168_1x128_bf16_e4m3' for 'sm_90a'
// PTXAS-DAG: Compiling entry function 'fp8_scaled_matmul_dynx2112x7168_e4m3_e4m3_bf16' for 'sm_90a'
// The A scales' transpose into the GEMM's [56, roundUp(M, 4)] (launched by
// the host code: transpose-kernel.mlir).
// PTXAS-DAG: Compiling entry function 'fp8_transpose_b32' for 'sm_90a'
// SPILLS-COUNT-3: 0 bytes spill stores, 0 bytes spill loads
// SPILLS-NOT: bytes spill

func.func @linear(%x: tensor<?x7168xbf16>, %b: !fp8.scaled<2112x7168xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<?x2112xbf16> {
  %a = fp8.quantize %x : tensor<?x7168xbf16> -> !fp8.scaled<?x7168xf8E4M3FN, block = [1, 128], scale = f32>
  %y = fp8.scaled_matmul %a, %b : !fp8.scaled<?x7168xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<2112x7168xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<?x2112xbf16>
  return %y : tensor<?x2112xbf16>
}
