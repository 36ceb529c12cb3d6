// The k-grouped kernel (fp8.grouped_scaled_matmul k_grouped: the MoE Wgrad,
// dW[g] = dY^T X over each expert's run of tokens) through to ptxas for
// DeepSeek-V3's routed expert shapes (hidden 7168, expert intermediate
// 2048: the gate/up weights' gradient [4096, 7168], the down weight's
// [7168, 2048]), 8 experts, 4096 tokens: bf16 out without C, f32 out with
// an f32 C; and the down weight's over a run-time token count (T the
// kernel's last parameter). Each configuration assembles for sm_90a with 0 spills: the cost
// model's, the fixed default, BLOCK_N 160 (the widest one consumer per 64
// rows holds with the per-column B scales and the group's K run:
// checkGroupedGemmKernelConfig), 64x256 (two consumers splitting the
// columns), 192x96 (three consumers) and 256x56 (four consumers, their
// widest). Per K block the PTX loads the B scales of a thread's columns as
// 8-byte pairs (consumerN / 8 = 16 for 128 columns), and the scan of the
// group's run (producer and consumers) traps on bad group ids.
// REQUIRES: ptxas
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=none" | fp8-translate --fp8-extract-gpu-object > %t.auto.ptx
// RUN: %ptxas -arch=sm_90a -v %t.auto.ptx -o %t.auto.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: fp8-opt %s --fp8-gpu-pipeline="config=fixed chip=sm_90a host=none" | fp8-translate --fp8-extract-gpu-object > %t.fixed.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.fixed.ptx
// RUN: %ptxas -arch=sm_90a -v %t.fixed.ptx -o %t.fixed.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=none block-n=160" | fp8-translate --fp8-extract-gpu-object > %t.n160.ptx
// RUN: %ptxas -arch=sm_90a -v %t.n160.ptx -o %t.n160.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=none block-m=64 block-n=256" | fp8-translate --fp8-extract-gpu-object > %t.n256.ptx
// RUN: %ptxas -arch=sm_90a -v %t.n256.ptx -o %t.n256.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=none block-m=192 block-n=96" | fp8-translate --fp8-extract-gpu-object > %t.m192.ptx
// RUN: %ptxas -arch=sm_90a -v %t.m192.ptx -o %t.m192.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=none block-m=256 block-n=56" | fp8-translate --fp8-extract-gpu-object > %t.m256.ptx
// RUN: %ptxas -arch=sm_90a -v %t.m256.ptx -o %t.m256.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// One wider than the register budget allows is refused:
// RUN: not fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=none block-n=168" 2>&1 | FileCheck %s --check-prefix=WIDE

// Three kernels per PTX, each without stack, spills or warnings.
// PTXAS-NOT: {{warning|[1-9][0-9]* bytes spill}}
// PTXAS-COUNT-3: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: {{warning|[1-9][0-9]* bytes spill}}

// PTX-LABEL: .entry fp8_grouped_matmul_k_grouped_8x4096x7168x4096_e4m3_e4m3_bf16_b1x128(
// PTX-COUNT-16: ld.global.v2.b32
// PTX-NOT: ld.global.v2.b32
// PTX-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3
// The scan's trap, in the producer's and the consumers' copy:
// PTX-COUNT-2: trap;
// PTX-LABEL: .entry fp8_grouped_matmul_k_grouped_8x7168x2048x4096_e4m3_e4m3_f32_accf32_b1x128(
// PTX-LABEL: .entry fp8_grouped_matmul_k_grouped_8x7168x2048xdyn_e4m3_e4m3_f32_b1x128(

// WIDE: block-n is too wide for the consumer registers of a k-grouped kernel

func.func @wgrad(%dyu: !fp8.scaled<4096x4096xf8E4M3FN, block = [1, 128], scale = f32>,
                 %x: !fp8.scaled<7168x4096xf8E4M3FN, block = [1, 128], scale = f32>,
                 %dyd: !fp8.scaled<7168x4096xf8E4M3FN, block = [1, 128], scale = f32>,
                 %h: !fp8.scaled<2048x4096xf8E4M3FN, block = [1, 128], scale = f32>,
                 %ids: tensor<4096xi32>, %c: tensor<8x7168x2048xf32>,
                 %dyt: !fp8.scaled<7168x?xf8E4M3FN, block = [1, 128], scale = f32>,
                 %ht: !fp8.scaled<2048x?xf8E4M3FN, block = [1, 128], scale = f32>,
                 %tids: tensor<?xi32>)
    -> (tensor<8x4096x7168xbf16>, tensor<8x7168x2048xf32>, tensor<8x7168x2048xf32>) {
  %up = fp8.grouped_scaled_matmul k_grouped %dyu, %x group_ids(%ids : tensor<4096xi32>) : !fp8.scaled<4096x4096xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<7168x4096xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<8x4096x7168xbf16>
  %down = fp8.grouped_scaled_matmul k_grouped %dyd, %h group_ids(%ids : tensor<4096xi32>) acc(%c : tensor<8x7168x2048xf32>) : !fp8.scaled<7168x4096xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<2048x4096xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<8x7168x2048xf32>
  %dyn = fp8.grouped_scaled_matmul k_grouped %dyt, %ht group_ids(%tids : tensor<?xi32>) : !fp8.scaled<7168x?xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<2048x?xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<8x7168x2048xf32>
  return %up, %down, %dyn : tensor<8x4096x7168xbf16>, tensor<8x7168x2048xf32>, tensor<8x7168x2048xf32>
}
