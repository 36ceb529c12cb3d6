// The rowwise quantize kernel (blocks [1, cols], cols > 128: one scale per
// row, the `rowwise` preset): #fp8.quantize_kernel<..., block_cols = cols>,
// symbol ..._1x<cols>_...; one warp per row walks the row in 128-column
// chunks twice (two loops: the amax, carried through the first loop and
// then reduced across the warp with shfl.sync.bfly, and the codes). A row
// that fits one 128-column tile ([1, 100] blocks of 100 columns) is the
// 1x128 kernel. Through ptxas for sm_90a: no spills.
// REQUIRES: ptxas
// RUN: fp8-opt %s --fp8-lower-to-nvvm=config=fixed -verify-diagnostics | FileCheck %s --check-prefix=NVVM
// RUN: fp8-opt %s --fp8-gpu-pipeline="config=fixed chip=sm_90a" 2>/dev/null | fp8-translate --fp8-extract-gpu-object > %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS

// NVVM-LABEL: llvm.func @fp8_quantize_dynx7168_1x7168_bf16_e4m3_pow2(
// NVVM-SAME: #fp8.quantize_kernel<rows = ?, cols = 7168, block_rows = 1, block_cols = 7168, input = bf16
// NVVM: %[[AMAX:.*]] = scf.for %{{.*}} = %{{.*}} to %c56_i32 step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (f32)  : i32 {
// NVVM: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<1> -> vector<4xbf16>
// NVVM: arith.maximumf
// NVVM: scf.yield
// NVVM: nvvm.shfl.sync  bfly %{{.*}}, %[[AMAX]]
// NVVM: scf.for %{{.*}} = %{{.*}} to %c56_i32 step %{{.*}}  : i32 {
// NVVM: nvvm.convert.f32x2.to.f8x2
// NVVM-LABEL: llvm.func @fp8_quantize_64x100_1x128_f32_e5m2(
// NVVM-NOT: block_cols

// PTX-LABEL: .entry fp8_quantize_dynx7168_1x7168_bf16_e4m3_pow2(
// PTX: shfl.sync.bfly.b32
// PTX: cvt.rn.satfinite.e4m3x2.f32
// PTX-LABEL: .entry fp8_quantize_64x100_1x128_f32_e5m2(

// PTXAS-NOT: {{[1-9][0-9]*}} bytes spill
// PTXAS-NOT: warning

func.func @act(%x: tensor<?x7168xbf16>) -> !fp8.scaled<?x7168xf8E4M3FN, block = [1, 7168], scale = f32> {
  %q = fp8.quantize %x {scale_mode = #fp8.scale_mode<pow2>} : tensor<?x7168xbf16> -> !fp8.scaled<?x7168xf8E4M3FN, block = [1, 7168], scale = f32>
  return %q : !fp8.scaled<?x7168xf8E4M3FN, block = [1, 7168], scale = f32>
}

func.func @narrow(%x: tensor<64x100xf32>) -> !fp8.scaled<64x100xf8E5M2, block = [1, 100], scale = f32> {
  %q = fp8.quantize %x : tensor<64x100xf32> -> !fp8.scaled<64x100xf8E5M2, block = [1, 100], scale = f32>
  return %q : !fp8.scaled<64x100xf8E5M2, block = [1, 100], scale = f32>
}
