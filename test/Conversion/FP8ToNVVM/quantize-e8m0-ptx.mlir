// The quantize kernels with E8M0 scales (f8E8M0FNU, scale_mode pow2: the
// DeepSeek-V3 blocks as DeepSeek-V3.1-style checkpoints ship them): the
// attribute says scale = f8E8M0FNU and the symbol ends in _ue8m0 (an f32
// pow2 kernel of the same shape is another kernel); each block's scale is
// stored as one byte, the biased exponent of the pow2 scale (st.global.b8 of
// the f32 bits shifted right by 23), not as an f32. Through ptxas for
// sm_90a: no spills.
// REQUIRES: ptxas
// RUN: fp8-opt %s --fp8-lower-to-nvvm=config=fixed -verify-diagnostics | FileCheck %s --check-prefix=NVVM
// RUN: fp8-opt %s --fp8-gpu-pipeline="config=fixed chip=sm_90a" 2>/dev/null | fp8-translate --fp8-extract-gpu-object > %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS

// NVVM-LABEL: llvm.func @fp8_quantize_dynx7168_1x128_bf16_e4m3{{.*}}_ue8m0(
// NVVM-SAME: scale = f8E8M0FNU, scale_mode = pow2
// NVVM: %[[CODE:.*]] = arith.trunci %{{.*}} : i32 to i8
// NVVM: llvm.store %[[CODE]], %{{.*}} {alignment = 1 : i64} : i8, !llvm.ptr<1>
// NVVM-LABEL: llvm.func @fp8_quantize_512x384_128x128_f32_e4m3{{.*}}_ue8m0(
// NVVM-SAME: scale = f8E8M0FNU, scale_mode = pow2

// PTX-LABEL: .entry fp8_quantize_dynx7168_1x128_bf16_e4m3{{.*}}_ue8m0(
// PTX: shr.u32 %[[EXP:r[0-9]+]], %{{r[0-9]+}}, 23;
// PTX: cvt.u16.u32 %[[CODE:rs[0-9]+]], %[[EXP]];
// PTX: st.global.b8 [%{{rd[0-9]+}}], %[[CODE]];
// PTX-LABEL: .entry fp8_quantize_512x384_128x128_f32_e4m3{{.*}}_ue8m0(
// PTX: shr.u32 %{{r[0-9]+}}, %{{r[0-9]+}}, 23;
// PTX: st.global.b8

// PTXAS-NOT: {{[1-9][0-9]*}} bytes spill
// PTXAS-NOT: warning

func.func @act(%x: tensor<?x7168xbf16>) -> !fp8.scaled<?x7168xf8E4M3FN, block = [1, 128], scale = f8E8M0FNU> {
  %q = fp8.quantize %x {scale_mode = #fp8.scale_mode<pow2>} : tensor<?x7168xbf16> -> !fp8.scaled<?x7168xf8E4M3FN, block = [1, 128], scale = f8E8M0FNU>
  return %q : !fp8.scaled<?x7168xf8E4M3FN, block = [1, 128], scale = f8E8M0FNU>
}

func.func @weight(%x: tensor<512x384xf32>) -> !fp8.scaled<512x384xf8E4M3FN, block = [128, 128], scale = f8E8M0FNU> {
  %q = fp8.quantize %x {scale_mode = #fp8.scale_mode<pow2>} : tensor<512x384xf32> -> !fp8.scaled<512x384xf8E4M3FN, block = [128, 128], scale = f8E8M0FNU>
  return %q : !fp8.scaled<512x384xf8E4M3FN, block = [128, 128], scale = f8E8M0FNU>
}
