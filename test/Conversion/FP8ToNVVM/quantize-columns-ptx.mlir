// The column-block quantize kernel (blocks [128, 1]: one scale per column
// and 128 rows, the `wgrad-operands=fresh` Wgrad operands'):
// #fp8.quantize_kernel<..., block_rows = 128, block_cols = 1>, symbol
// ..._128x1_...; a CTA per 128 x 128 region (vector loads of 4 columns per
// lane and row), the column amax through the shared [1024 x f32] array (no
// shuffle), four scales per lane stored by warp 0 (scales [ceil(rows/128),
// cols]), a code word per row. Its launcher's grid is ceil(rows / 128) *
// ceil(cols / 128) = ceil(rows / 128) * 3. Through ptxas for sm_90a: no
// spills.
// REQUIRES: ptxas
// RUN: fp8-opt %s --fp8-lower-to-nvvm=config=fixed -verify-diagnostics | FileCheck %s --check-prefix=NVVM
// RUN: fp8-opt %s --fp8-lower-to-nvvm=config=fixed --fp8-launch-kernels | FileCheck %s --check-prefix=HOST
// RUN: fp8-opt %s --fp8-gpu-pipeline="config=fixed chip=sm_90a" 2>/dev/null | fp8-translate --fp8-extract-gpu-object > %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS

// NVVM: llvm.mlir.global internal @fp8_quantize_col_amax() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<1024 x f32>
// NVVM-LABEL: llvm.func @fp8_quantize_dynx300_128x1_bf16_e4m3(
// NVVM-SAME: #fp8.quantize_kernel<rows = ?, cols = 300, block_rows = 128, block_cols = 1, input = bf16
// NVVM-NOT: nvvm.shfl.sync
// NVVM-COUNT-16: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<1> -> vector<4xbf16>
// NVVM-NOT: nvvm.shfl.sync
// NVVM: llvm.mlir.addressof @fp8_quantize_col_amax
// NVVM-COUNT-4: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<3>
// NVVM: nvvm.barrier0
// NVVM-COUNT-32: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// NVVM-COUNT-4: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<1>
// NVVM-COUNT-16: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : i32, !llvm.ptr<1>
// NVVM-NOT: llvm.store
// NVVM-NOT: nvvm.shfl.sync

// HOST-LABEL: func.func @act(
// HOST: call @fp8_launch_fp8_quantize_dynx300_128x1_bf16_e4m3(
// HOST-LABEL: func.func {{.*}}@fp8_launch_fp8_quantize_dynx300_128x1_bf16_e4m3(
// HOST: %[[RB:.*]] = arith.ceildivui %{{.*}}, %c128 : index
// HOST: %[[T:.*]] = arith.muli %[[RB]], %c3 : index
// HOST: %[[GRID:.*]] = arith.ceildivui %[[T]], %c1{{.*}} : index
// HOST: gpu.launch_func {{.*}}@fp8_quantize_dynx300_128x1_bf16_e4m3 blocks in (%[[GRID]], %c1{{.*}}, %c1{{.*}}) threads in (%c256

// PTX-LABEL: .entry fp8_quantize_dynx300_128x1_bf16_e4m3(
// PTX-NOT: shfl.sync
// PTX: bar.sync
// PTX: cvt.rn.satfinite.e4m3x2.f32

// PTXAS-NOT: {{[1-9][0-9]*}} bytes spill
// PTXAS-NOT: warning

func.func @act(%x: tensor<?x300xbf16>) -> !fp8.scaled<?x300xf8E4M3FN, block = [128, 1], scale = f32> {
  %q = fp8.quantize %x : tensor<?x300xbf16> -> !fp8.scaled<?x300xf8E4M3FN, block = [128, 1], scale = f32>
  return %q : !fp8.scaled<?x300xf8E4M3FN, block = [128, 1], scale = f32>
}
