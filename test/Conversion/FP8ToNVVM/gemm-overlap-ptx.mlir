// The overlapped promotion (`promotion-schedule=overlap4|overlap8`) through to ptxas
// at DeepSeek-V3's sizes: the K loop's trip holds U wgmma batches, each but
// the first followed by `wgmma.wait_group 1` (the previous block's group
// complete, this one's in flight), and one `wgmma.wait_group 0` before the
// back edge (the drain); the KB mod U blocks after the last trip keep the
// lock-step `wait_group 0`. ptxas (behind scripts/ptxas_guard.py: no
// warning, no spill, no Cnnnn info such as the wgmma serialisation lines)
// assembles with 0 spills 128 and 112 columns per consumer unrolled by 8,
// 64 unrolled by 4, and clusters of 2 (the grouped kernels:
// grouped-gemm-overlap-ptx.mlir). ptxas 13.0 spills some configurations
// the register check accepts (docs/gpu-kernel.md, "The overlapped
// promotion": 144 and 136 columns, 128 unrolled by 4, one consumer of 128).
// REQUIRES: ptxas
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=none block-m=128 block-n=128 promotion-schedule=overlap8" | fp8-translate --fp8-extract-gpu-object > %t.o8.ptx
// RUN: FileCheck %s --check-prefix=O8 < %t.o8.ptx
// RUN: %ptxas -arch=sm_90a -v %t.o8.ptx -o %t.o8.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=none block-m=128 block-n=112 promotion-schedule=overlap8" | fp8-translate --fp8-extract-gpu-object > %t.n112.ptx
// RUN: %ptxas -arch=sm_90a -v %t.n112.ptx -o %t.n112.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=none block-m=128 block-n=64 promotion-schedule=overlap4" | fp8-translate --fp8-extract-gpu-object > %t.o4.ptx
// RUN: FileCheck %s --check-prefix=O4 < %t.o4.ptx
// RUN: %ptxas -arch=sm_90a -v %t.o4.ptx -o %t.o4.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=none block-m=128 block-n=128 cluster=2 promotion-schedule=overlap8" | fp8-translate --fp8-extract-gpu-object > %t.cl2.ptx
// RUN: %ptxas -arch=sm_90a -v %t.cl2.ptx -o %t.cl2.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// The lock-step kernel of the same tile has no wait_group 1.
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=none block-m=128 block-n=128 promotion-schedule=lockstep" | fp8-translate --fp8-extract-gpu-object | FileCheck %s --check-prefix=LOCKSTEP

// Two kernels per PTX (a static and a run-time M), each without stack,
// spills or warnings.
// PTXAS-NOT: {{warning|[1-9][0-9]* bytes spill}}
// PTXAS-COUNT-2: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: {{warning|[1-9][0-9]* bytes spill}}

// The trip of 8: the first batch is committed and left in flight; each of
// the next seven is followed by wait_group 1; then the drain.
// O8-LABEL: .entry fp8_scaled_matmul_4096x7168x7168_e4m3_e4m3_bf16_t128x128s6o8(
// O8: wgmma.commit_group.sync.aligned;
// O8-NOT: wgmma.wait_group
// O8-COUNT-7: wgmma.wait_group.sync.aligned 1;
// O8-NOT: wgmma.wait_group.sync.aligned 1;
// O8: wgmma.wait_group.sync.aligned 0;
// O8-NOT: wgmma.wait_group.sync.aligned 1;
// O8-LABEL: .entry fp8_scaled_matmul_dynx7168x2112_e4m3_e4m3_bf16_t128x128s6o8(
// O8-COUNT-7: wgmma.wait_group.sync.aligned 1;
// O8-NOT: wgmma.wait_group.sync.aligned 1;
// O8: wgmma.wait_group.sync.aligned 0;

// O4-LABEL: .entry fp8_scaled_matmul_4096x7168x7168_e4m3_e4m3_bf16_t128x64s8o4(
// O4-COUNT-3: wgmma.wait_group.sync.aligned 1;
// O4-NOT: wgmma.wait_group.sync.aligned 1;
// O4: wgmma.wait_group.sync.aligned 0;

// LOCKSTEP-NOT: wgmma.wait_group.sync.aligned 1;
// LOCKSTEP: .entry fp8_scaled_matmul_4096x7168x7168_e4m3_e4m3_bf16(
// LOCKSTEP-NOT: wgmma.wait_group.sync.aligned 1;

func.func @gemms(%a: !fp8.scaled<4096x7168xf8E4M3FN, block = [1, 128], scale = f32>,
                 %b: !fp8.scaled<7168x7168xf8E4M3FN, block = [128, 128], scale = f32>,
                 %x: !fp8.scaled<?x2112xf8E4M3FN, block = [1, 128], scale = f32>,
                 %w: !fp8.scaled<7168x2112xf8E4M3FN, block = [128, 128], scale = f32>)
    -> (tensor<4096x7168xbf16>, tensor<?x7168xbf16>) {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<4096x7168xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<7168x7168xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<4096x7168xbf16>
  %e = fp8.scaled_matmul %x, %w : !fp8.scaled<?x2112xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<7168x2112xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<?x7168xbf16>
  return %d, %e : tensor<4096x7168xbf16>, tensor<?x7168xbf16>
}
