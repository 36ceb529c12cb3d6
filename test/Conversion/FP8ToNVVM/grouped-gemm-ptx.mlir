// The grouped (MoE) GEMM kernels through to ptxas for DeepSeek-V3's routed
// expert shapes (hidden 7168, expert intermediate 2048: gate/up N = 4096
// fused, K = 7168; down N = 7168, K = 2048), 8 experts: masked decode (64
// rows per expert, counts, bf16 out), masked with C f32, contiguous prefill
// (4096 rows sorted by expert, group index, m_alignment 256) with and
// without C. Each configuration assembles for sm_90a with 0 spills: the cost
// model's, the fixed default, BLOCK_N 200 (the widest one consumer per 64
// rows holds in a grouped kernel: 208 spills, kGroupedConsumerOverheadRegs),
// 64x256 (split columns) and 256x72 (four consumers, their widest), so the
// group lookup and the row selects fit the register budget of
// GemmKernelConfig.h.
// REQUIRES: ptxas
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=none" | fp8-translate --fp8-extract-gpu-object > %t.auto.ptx
// RUN: %ptxas -arch=sm_90a -v %t.auto.ptx -o %t.auto.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: fp8-opt %s --fp8-gpu-pipeline="config=fixed chip=sm_90a host=none" | fp8-translate --fp8-extract-gpu-object > %t.fixed.ptx
// RUN: %ptxas -arch=sm_90a -v %t.fixed.ptx -o %t.fixed.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=none block-m=64 block-n=200" | fp8-translate --fp8-extract-gpu-object > %t.n200.ptx
// RUN: %ptxas -arch=sm_90a -v %t.n200.ptx -o %t.n200.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=none block-m=64 block-n=256" | fp8-translate --fp8-extract-gpu-object > %t.n256.ptx
// RUN: %ptxas -arch=sm_90a -v %t.n256.ptx -o %t.n256.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=none block-m=256 block-n=72" | fp8-translate --fp8-extract-gpu-object > %t.m256.ptx
// RUN: %ptxas -arch=sm_90a -v %t.m256.ptx -o %t.m256.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS

// Four kernels per PTX, each without stack, spills or warnings.
// PTXAS-NOT: {{warning|[1-9][0-9]* bytes spill}}
// PTXAS-COUNT-4: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: {{warning|[1-9][0-9]* bytes spill}}

func.func @moe(%a: !fp8.scaled<8x64x7168xf8E4M3FN, block = [1, 1, 128], scale = f32>,
               %wu: !fp8.scaled<8x4096x7168xf8E4M3FN, block = [1, 128, 128], scale = f32>,
               %h: !fp8.scaled<8x64x2048xf8E4M3FN, block = [1, 1, 128], scale = f32>,
               %wd: !fp8.scaled<8x7168x2048xf8E4M3FN, block = [1, 128, 128], scale = f32>,
               %n: tensor<8xi32>, %c: tensor<8x64x7168xf32>,
               %x: !fp8.scaled<4096x7168xf8E4M3FN, block = [1, 128], scale = f32>,
               %xh: !fp8.scaled<4096x2048xf8E4M3FN, block = [1, 128], scale = f32>,
               %ids: tensor<4096xi32>, %r: tensor<4096x7168xbf16>)
    -> (tensor<8x64x4096xbf16>, tensor<8x64x7168xf32>, tensor<4096x4096xbf16>, tensor<4096x7168xbf16>) {
  %up = fp8.grouped_scaled_matmul masked %a, %wu counts(%n : tensor<8xi32>) : !fp8.scaled<8x64x7168xf8E4M3FN, block = [1, 1, 128], scale = f32>, !fp8.scaled<8x4096x7168xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<8x64x4096xbf16>
  %down = fp8.grouped_scaled_matmul masked %h, %wd counts(%n : tensor<8xi32>) acc(%c : tensor<8x64x7168xf32>) : !fp8.scaled<8x64x2048xf8E4M3FN, block = [1, 1, 128], scale = f32>, !fp8.scaled<8x7168x2048xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<8x64x7168xf32>
  %pup = fp8.grouped_scaled_matmul contiguous %x, %wu group_ids(%ids : tensor<4096xi32>) {m_alignment = 256 : i64} : !fp8.scaled<4096x7168xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<8x4096x7168xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<4096x4096xbf16>
  %pdown = fp8.grouped_scaled_matmul contiguous %xh, %wd group_ids(%ids : tensor<4096xi32>) acc(%r : tensor<4096x7168xbf16>) {m_alignment = 256 : i64} : !fp8.scaled<4096x2048xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<8x7168x2048xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<4096x7168xbf16>
  return %up, %down, %pup, %pdown : tensor<8x64x4096xbf16>, tensor<8x64x7168xf32>, tensor<4096x4096xbf16>, tensor<4096x7168xbf16>
}
