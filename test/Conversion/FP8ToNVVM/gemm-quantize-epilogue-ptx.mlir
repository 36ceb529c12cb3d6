// The quantize epilogue in NVVM, in its launcher and through ptxas: a GEMM
// whose result only an fp8.quantize into [1, 128] tiles reads becomes one
// kernel (`_q<fp8>`, #fp8.gemm_kernel epilogue = quantize) with the scales
// pointer as its 7th parameter; each consumer rounds D to bf16, reduces
// each 1x128 tile's amax over the quad (shfl.sync.bfly 1 and 2) and stores
// codes (cvt.rn.satfinite.e4m3x2) and scales; the quantize gets no kernel
// and the launcher's codes and scales replace it (fp8.assemble).
// RUN: fp8-opt %s --fp8-lower-to-nvvm="config=fixed" 2>&1 | FileCheck %s --check-prefix=NVVM
// RUN: fp8-opt %s --fp8-lower-to-nvvm="config=fixed" --fp8-launch-kernels 2>/dev/null | FileCheck %s --check-prefix=HOST
// Without the epilogue (option off, or a user's block-n of 112 that cannot
// hold a 1x128 tile per consumer): two kernels, no remark.
// RUN: fp8-opt %s --fp8-lower-to-nvvm="config=fixed quantize-epilogue=false" 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: fp8-opt %s --fp8-lower-to-nvvm="block-n=112" 2>&1 | FileCheck %s --check-prefix=OFF
// Under config=auto the model's tile is made fit (BLOCK_N 128, or 256 split
// over two consumers); ptxas reports 0 spills for the fixed tile, the
// column split, the model's tiles of a DeepSeek-V3 shape and clusters.
// RUN: %if ptxas %{ fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=none config=fixed" | fp8-translate --fp8-extract-gpu-object > %t.fixed.ptx %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t.fixed.ptx -o %t.fixed.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=none block-m=64 block-n=256" | fp8-translate --fp8-extract-gpu-object > %t.split.ptx %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t.split.ptx -o %t.split.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=none" | fp8-translate --fp8-extract-gpu-object > %t.auto.ptx %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t.auto.ptx -o %t.auto.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=none config=fixed cluster=2" | fp8-translate --fp8-extract-gpu-object > %t.cl2.ptx %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t.cl2.ptx -o %t.cl2.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}

// NVVM: remark: fp8-lower-to-nvvm: the GEMM kernel's epilogue computes the fp8.quantize of its result
// NVVM: remark: fp8-lower-to-nvvm: the GEMM kernel's epilogue computes the fp8.quantize of its result
// NVVM-LABEL: func.func @chain(
// NVVM: fp8.scaled_matmul {{.*}}fp8.kernel_ref = @fp8_kernels::@fp8_scaled_matmul_300x256x384_e4m3_e4m3_bf16_qe4m3
// NVVM-NEXT: fp8.quantize
// NVVM-NOT: fp8.kernel_ref
// NVVM-SAME: -> !fp8.scaled<300x256xf8E4M3FN
// NVVM-LABEL: llvm.func @fp8_scaled_matmul_300x256x384_e4m3_e4m3_bf16_qe4m3(
// NVVM-SAME: %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i32, %{{.*}}: !llvm.ptr)
// NVVM-SAME: epilogue = quantize, q = f8E4M3FN, q_eps = 9.99999974E-5 : f32
// NVVM: arith.truncf %{{.*}} : f32 to bf16
// NVVM: nvvm.shfl.sync  bfly %{{.*}}, %{{.*}}, %c1_i32{{.*}}, %c31_i32
// NVVM: nvvm.shfl.sync  bfly %{{.*}}, %{{.*}}, %c2_i32{{.*}}, %c31_i32
// NVVM: nvvm.convert.f32x2.to.f8x2 {{.*}} : i16(f8E4M3FN)
// NVVM: llvm.func @fp8_scaled_matmul_300x256x384_e4m3_e4m3_f32_accf32_qe5m2_pow2(
// NVVM-NOT: llvm.func @fp8_quantize_300x256

// HOST-LABEL: func.func @chain(
// HOST: call @fp8_launch_fp8_scaled_matmul_300x256x384_e4m3_e4m3_bf16_qe4m3(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (memref<300x384xf8E4M3FN>, memref<256x384xf8E4M3FN>, memref<3x300xf32>, memref<2x3xf32>, memref<300x256xf8E4M3FN>, memref<300x2xf32>) -> ()
// HOST: fp8.assemble
// HOST-NOT: fp8.quantize {{.*}} tensor<300x256xbf16>
// HOST: return

// OFF-NOT: epilogue computes
// OFF: llvm.func @fp8_scaled_matmul_300x256x384_e4m3_e4m3_bf16{{(_t128x112s7)?}}(
// OFF-SAME: %{{.*}}: i32)
// OFF: llvm.func @fp8_quantize_300x256_1x128_bf16_e4m3(

// PTXAS-NOT: {{warning|[1-9][0-9]* bytes spill}}
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: {{warning|[1-9][0-9]* bytes spill}}

func.func @chain(%qx: !fp8.scaled<300x384xf8E4M3FN, block = [1, 128], scale = f32>, %qw: !fp8.scaled<256x384xf8E4M3FN, block = [128, 128], scale = f32>) -> !fp8.scaled<300x256xf8E4M3FN, block = [1, 128], scale = f32> {
  %h = fp8.scaled_matmul %qx, %qw : !fp8.scaled<300x384xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<256x384xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<300x256xbf16>
  %qh = fp8.quantize %h : tensor<300x256xbf16> -> !fp8.scaled<300x256xf8E4M3FN, block = [1, 128], scale = f32>
  return %qh : !fp8.scaled<300x256xf8E4M3FN, block = [1, 128], scale = f32>
}

func.func @chain_acc(%qx: !fp8.scaled<300x384xf8E4M3FN, block = [1, 128], scale = f32>, %qw: !fp8.scaled<256x384xf8E4M3FN, block = [128, 128], scale = f32>, %c: tensor<300x256xf32>) -> !fp8.scaled<300x256xf8E5M2, block = [1, 128], scale = f32> {
  %h = fp8.scaled_matmul %qx, %qw acc(%c : tensor<300x256xf32>) : !fp8.scaled<300x384xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<256x384xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<300x256xf32>
  %qh = fp8.quantize %h {scale_mode = #fp8.scale_mode<pow2>} : tensor<300x256xf32> -> !fp8.scaled<300x256xf8E5M2, block = [1, 128], scale = f32>
  return %qh : !fp8.scaled<300x256xf8E5M2, block = [1, 128], scale = f32>
}

// A DeepSeek-V3 shape (the attention output projection of 4096 tokens),
// whose model tile config=auto makes fit.
func.func @deepseek(%qx: !fp8.scaled<4096x16384xf8E4M3FN, block = [1, 128], scale = f32>, %qw: !fp8.scaled<7168x16384xf8E4M3FN, block = [128, 128], scale = f32>) -> !fp8.scaled<4096x7168xf8E4M3FN, block = [1, 128], scale = f32> {
  %h = fp8.scaled_matmul %qx, %qw : !fp8.scaled<4096x16384xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<7168x16384xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<4096x7168xbf16>
  %qh = fp8.quantize %h : tensor<4096x7168xbf16> -> !fp8.scaled<4096x7168xf8E4M3FN, block = [1, 128], scale = f32>
  return %qh : !fp8.scaled<4096x7168xf8E4M3FN, block = [1, 128], scale = f32>
}
