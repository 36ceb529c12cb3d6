// fp8-launch-kernels: what the host program checks at run time before a
// launch (cf.assert, the CPU lowering's messages; run on the emulated
// runtime in test/Integration/GPUHost/grouped-invalid.mlir), the persistent
// grid's width from the device (fp8_mgpu_sm_count) unless sm-count is set,
// and the static sizes the kernels cannot index (signed 32-bit TMA
// coordinates), a compile-time error.
// RUN: fp8-opt %s -split-input-file -fp8-lower-to-nvvm=config=fixed -fp8-launch-kernels -canonicalize -cse | FileCheck %s
// RUN: fp8-opt %s -split-input-file -fp8-lower-to-nvvm=config=fixed -fp8-launch-kernels=sm-count=78 -canonicalize -cse | FileCheck %s --check-prefix=FIXED
// RUN: not fp8-opt %s -fp8-launch-kernels=sm-count=-1 2>&1 | FileCheck %s --check-prefix=SMS
// SMS: fp8-launch-kernels: option sm-count=-1 is invalid: expected 0 (the device's SM count, read at run time) or the number of SMs of the device (132 on an H100 SXM / H200)

// A dynamic M: below 2^31 at run time (the M parameter and the TMA row
// coordinates are i32), for the quantize kernel's rows and the GEMM's M;
// the grid min(ceil(M / 128) * 2, SMs) with SMs from the runtime. A result
// that is empty at run time (M = 0) returns before any device work: a grid
// of 0 CTAs and a tensor map over an empty extent are invalid in CUDA.
// CHECK-LABEL: func.func @dyn(
// CHECK: %[[R:.*]] = tensor.dim %{{.*}}, %c0 : tensor<?x256xbf16>
// CHECK: %[[OK:.*]] = arith.cmpi ult, %[[R]], %c2147483648 : index
// CHECK: cf.assert %[[OK]], "fp8.quantize: 2^31 rows or more (M) at run time; the GPU kernels' TMA coordinates and row counts are signed 32-bit"
// The quantize kernel's block index (i32): ceil(rows / 1) x 2 tiles per row.
// CHECK: %[[QB:.*]] = arith.muli %[[R]], %c2 : index
// CHECK: %[[QBOK:.*]] = arith.cmpi ult, %[[QB]], %c2147483648 : index
// CHECK: cf.assert %[[QBOK]], "fp8.quantize: 2^31 blocks or more at run time (ceil(rows / block rows) x 2 per block row); the quantize kernel's block index is signed 32-bit"
// (The GEMM's M is the quantize's rows: CSE shares the comparison.)
// CHECK: cf.assert %[[OK]], "fp8.scaled_matmul: 2^31 rows or more (M) at run time; the GPU kernels' TMA coordinates and row counts are signed 32-bit"
// CHECK: call @fp8_launch_fp8_scaled_matmul_dynx256x256_e4m3_e4m3_bf16(
// CHECK-LABEL: func.func private @fp8_launch_fp8_quantize_dynx256_1x128_bf16_e4m3(
// CHECK-SAME: %{{.*}}: memref<?x256xbf16>, %[[Q:.*]]: memref<?x256xf8E4M3FN>,
// CHECK-NEXT: constant
// CHECK-NOT: gpu.
// CHECK: %[[QR:.*]] = memref.dim %[[Q]], %c0 : memref<?x256xf8E4M3FN>
// CHECK: %[[QN:.*]] = arith.muli %[[QR]], %c256 : index
// CHECK: %[[QNE:.*]] = arith.cmpi ne, %[[QN]], %c0 : index
// CHECK: scf.if %[[QNE]] {
// CHECK: gpu.launch_func
// CHECK: gpu.wait [
// CHECK-NEXT: }
// CHECK-NEXT: return
// CHECK-LABEL: func.func private @fp8_launch_fp8_scaled_matmul_dynx256x256_e4m3_e4m3_bf16(
// CHECK-SAME: %[[D:[^:]*]]: memref<?x256xbf16>) {
// CHECK-NOT: gpu.
// CHECK: %[[DR:.*]] = memref.dim %[[D]], %c0 : memref<?x256xbf16>
// CHECK: %[[DN:.*]] = arith.muli %[[DR]], %c256 : index
// CHECK: %[[NE:.*]] = arith.cmpi ne, %[[DN]], %c0 : index
// CHECK: scf.if %[[NE]] {
// CHECK: gpu.wait async
// CHECK: %[[T:.*]] = arith.ceildivui %{{.*}}, %c128 : index
// CHECK: %[[TILES:.*]] = arith.muli %[[T]], %c2 : index
// CHECK: %[[N:.*]] = func.call @fp8_mgpu_sm_count() : () -> i32
// CHECK: %[[W:.*]] = arith.index_castui %[[N]] : i32 to index
// CHECK: %[[G:.*]] = arith.minui %[[TILES]], %[[W]] : index
// CHECK: gpu.launch_func {{.*}} blocks in (%[[G]], %c1, %c1)
// CHECK: gpu.wait [
// CHECK-NEXT: }
// CHECK-NEXT: return
// CHECK: func.func private @fp8_mgpu_sm_count() -> i32
// FIXED-LABEL: func.func private @fp8_launch_fp8_scaled_matmul_dynx256x256_e4m3_e4m3_bf16(
// FIXED: %[[T:.*]] = arith.ceildivui %{{.*}}, %c128 : index
// FIXED: %[[TILES:.*]] = arith.muli %[[T]], %c2 : index
// FIXED: %[[G:.*]] = arith.minui %[[TILES]], %c78 : index
// FIXED: gpu.launch_func {{.*}} blocks in (%[[G]], %c1, %c1)
// FIXED-NOT: fp8_mgpu_sm_count
func.func @dyn(%x: tensor<?x256xbf16>, %b: !fp8.scaled<256x256xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<?x256xbf16> {
  %a = fp8.quantize %x : tensor<?x256xbf16> -> !fp8.scaled<?x256xf8E4M3FN, block = [1, 128], scale = f32>
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<?x256xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<256x256xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<?x256xbf16>
  return %d : tensor<?x256xbf16>
}

// -----

// The contiguous layout: before the launch, every row's group index in
// [-1, G) (G = 2) and every run of a group starting at a multiple of
// m_alignment (64); the previous row's index (-2 before row 0) tells a run's
// start.
// CHECK-LABEL: func.func @contiguous(
// CHECK-SAME: %[[IDS:[^:]*]]: tensor<256xi32>
// CHECK: scf.for %[[R:.*]] = %c0 to %c256 step %c1 iter_args(%[[PREV:.*]] = %c-2_i32) -> (i32) {
// CHECK: %[[GID:.*]] = tensor.extract %[[IDS]][%[[R]]] : tensor<256xi32>
// CHECK-DAG: %[[GE:.*]] = arith.cmpi sge, %[[GID]], %c-1_i32 : i32
// CHECK-DAG: %[[LT:.*]] = arith.cmpi slt, %[[GID]], %c2_i32 : i32
// CHECK: %[[IN:.*]] = arith.andi %[[GE]], %[[LT]] : i1
// CHECK: cf.assert %[[IN]], "fp8.grouped_scaled_matmul: a group index in group_ids is outside [-1, G)"
// CHECK-DAG: %[[ISG:.*]] = arith.cmpi ne, %[[GID]], %c-1_i32 : i32
// CHECK-DAG: %[[NEW:.*]] = arith.cmpi ne, %[[GID]], %[[PREV]] : i32
// CHECK: %[[START:.*]] = arith.andi %[[ISG]], %[[NEW]] : i1
// CHECK: %[[REM:.*]] = arith.remui %[[R]], %c64 : index
// CHECK: %[[AL:.*]] = arith.cmpi eq, %[[REM]], %c0 : index
// CHECK: %[[NOTSTART:.*]] = arith.xori %[[START]], %true : i1
// CHECK: %[[OK:.*]] = arith.ori %[[NOTSTART]], %[[AL]] : i1
// CHECK: cf.assert %[[OK]], "fp8.grouped_scaled_matmul: a group's rows in group_ids start at a row that is not a multiple of m_alignment"
// CHECK: scf.yield %[[GID]] : i32
// CHECK: call @fp8_launch_fp8_grouped_matmul_contiguous_
func.func @contiguous(%a: !fp8.scaled<256x256xf8E4M3FN, block = [1, 128], scale = f32>, %b: !fp8.scaled<2x128x256xf8E4M3FN, block = [1, 128, 128], scale = f32>, %ids: tensor<256xi32>) -> tensor<256x128xbf16> {
  %d = fp8.grouped_scaled_matmul contiguous %a, %b group_ids(%ids : tensor<256xi32>) {m_alignment = 64 : i64} : !fp8.scaled<256x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<2x128x256xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<256x128xbf16>
  return %d : tensor<256x128xbf16>
}
