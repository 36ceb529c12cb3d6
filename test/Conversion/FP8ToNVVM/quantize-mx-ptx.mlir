// The MX quantize kernel (blocks [1, 32], the mxfp8 preset's, E8M0 scales):
// #fp8.quantize_kernel<..., block_cols = 32>, symbol ..._1x32_...; one
// warp per 1x32 block, one column per lane (element loads, the warp's amax
// by five shfl.sync.bfly steps, one code byte per lane, the E8M0 scale byte
// by lane 0). Through ptxas for sm_90a: no spills.
// REQUIRES: ptxas
// RUN: fp8-opt %s --fp8-lower-to-nvvm=config=fixed -verify-diagnostics | FileCheck %s --check-prefix=NVVM
// RUN: fp8-opt %s --fp8-gpu-pipeline="config=fixed chip=sm_90a" 2>/dev/null | fp8-translate --fp8-extract-gpu-object > %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS

// NVVM-LABEL: llvm.func @fp8_quantize_dynx7168_1x32_bf16_e4m3_pow2_ue8m0(
// NVVM-SAME: #fp8.quantize_kernel<rows = ?, cols = 7168, block_rows = 1, block_cols = 32, input = bf16
// NVVM: llvm.load %{{.*}} {alignment = 2 : i64} : !llvm.ptr<1> -> bf16
// NVVM-COUNT-5: nvvm.shfl.sync  bfly
// NVVM: llvm.store %{{.*}}, %{{.*}} {alignment = 1 : i64} : i8, !llvm.ptr<1>
// NVVM: nvvm.convert.f32x2.to.f8x2
// NVVM: llvm.store %{{.*}}, %{{.*}} {alignment = 1 : i64} : i8, !llvm.ptr<1>
// NVVM-NOT: llvm.store

// PTX-LABEL: .entry fp8_quantize_dynx7168_1x32_bf16_e4m3_pow2_ue8m0(
// PTX-COUNT-5: shfl.sync.bfly.b32
// PTX: cvt.rn.satfinite.e4m3x2.f32

// PTXAS-NOT: {{[1-9][0-9]*}} bytes spill
// PTXAS-NOT: warning

func.func @act(%x: tensor<?x7168xbf16>) -> !fp8.scaled<?x7168xf8E4M3FN, block = [1, 32], scale = f8E8M0FNU> {
  %q = fp8.quantize %x {scale_mode = #fp8.scale_mode<pow2>} : tensor<?x7168xbf16> -> !fp8.scaled<?x7168xf8E4M3FN, block = [1, 32], scale = f8E8M0FNU>
  return %q : !fp8.scaled<?x7168xf8E4M3FN, block = [1, 32], scale = f8E8M0FNU>
}
