// The grouped (MoE) kernels with the overlapped promotion through to
// ptxas: masked (DeepSeek-V3's gate/up, 8 experts of 256 rows, counts) and
// contiguous (down, 4096 rows, m_alignment 256) at 128 columns per
// consumer unrolled by 8, the widest a grouped kernel holds with two
// partial sets (its group lookup takes 16 registers more: 3/2 BLOCK_N / 2 +
// 32 <= 232), each with the trip's wait_group 1 and 0 spills; 144 columns
// are refused (kernel-config-overlap.mlir).
// REQUIRES: ptxas
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=none block-m=128 block-n=128 promotion-schedule=overlap8" | fp8-translate --fp8-extract-gpu-object > %t.o8.ptx
// RUN: FileCheck %s < %t.o8.ptx
// RUN: %ptxas -arch=sm_90a -v %t.o8.ptx -o %t.o8.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS

// PTXAS-NOT: {{warning|[1-9][0-9]* bytes spill}}
// PTXAS-COUNT-2: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: {{warning|[1-9][0-9]* bytes spill}}

// CHECK-LABEL: .entry fp8_grouped_matmul_masked_8x256x4096x7168_e4m3_e4m3_bf16_counts_t128x128s6o8(
// CHECK-COUNT-7: wgmma.wait_group.sync.aligned 1;
// CHECK-NOT: wgmma.wait_group.sync.aligned 1;
// CHECK: wgmma.wait_group.sync.aligned 0;
// CHECK-LABEL: .entry fp8_grouped_matmul_contiguous_8x4096x7168x2048_e4m3_e4m3_bf16_t128x128s6o8(
// CHECK-COUNT-7: wgmma.wait_group.sync.aligned 1;
// CHECK-NOT: wgmma.wait_group.sync.aligned 1;
// CHECK: wgmma.wait_group.sync.aligned 0;

func.func @moe(%a: !fp8.scaled<8x256x7168xf8E4M3FN, block = [1, 1, 128], scale = f32>,
               %wu: !fp8.scaled<8x4096x7168xf8E4M3FN, block = [1, 128, 128], scale = f32>,
               %n: tensor<8xi32>,
               %x: !fp8.scaled<4096x2048xf8E4M3FN, block = [1, 128], scale = f32>,
               %wd: !fp8.scaled<8x7168x2048xf8E4M3FN, block = [1, 128, 128], scale = f32>,
               %ids: tensor<4096xi32>)
    -> (tensor<8x256x4096xbf16>, tensor<4096x7168xbf16>) {
  %up = fp8.grouped_scaled_matmul masked %a, %wu counts(%n : tensor<8xi32>) : !fp8.scaled<8x256x7168xf8E4M3FN, block = [1, 1, 128], scale = f32>, !fp8.scaled<8x4096x7168xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<8x256x4096xbf16>
  %down = fp8.grouped_scaled_matmul contiguous %x, %wd group_ids(%ids : tensor<4096xi32>) {m_alignment = 256 : i64} : !fp8.scaled<4096x2048xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<8x7168x2048xf8E4M3FN, block = [1, 128, 128], scale = f32> -> tensor<4096x7168xbf16>
  return %up, %down : tensor<8x256x4096xbf16>, tensor<4096x7168xbf16>
}
