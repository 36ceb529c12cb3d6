// The K-block path of the consumer warpgroups (docs/gpu-kernel.md, "The
// K-block path"), checked in the PTX: per K block the B scale is read
// before the wait on full[s], and after the wait only the thread's two A
// scales (ld.shared) come before wgmma.fence and the first
// wgmma.mma_async (the descriptors are computed before the wait).
// Lock-step 128x128 and 64x128 (DeepSeek-V3's 4096x7168x7168 and
// 64x2112x7168) and the grouped masked and contiguous kernels, and the
// overlapped 128x128 by 8 (which keeps the A scales after its wait_group:
// registers), through ptxas 13 (behind scripts/ptxas_guard.py: no warning,
// no spill, no Cnnnn info such as the wgmma serialisation lines).
// REQUIRES: ptxas
// RUN: fp8-opt %s --fp8-gpu-pipeline="config=fixed chip=sm_90a host=none" | fp8-translate --fp8-extract-gpu-object > %t.fixed.ptx
// RUN: FileCheck %s --check-prefix=LOCKSTEP < %t.fixed.ptx
// RUN: %ptxas -arch=sm_90a -v %t.fixed.ptx -o %t.fixed.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=none block-m=128 block-n=128 promotion-schedule=overlap8" | fp8-translate --fp8-extract-gpu-object > %t.o8.ptx
// RUN: FileCheck %s --check-prefix=O8 < %t.o8.ptx
// RUN: %ptxas -arch=sm_90a -v %t.o8.ptx -o %t.o8.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: fp8-opt %S/grouped-gemm-overlap-ptx.mlir --fp8-gpu-pipeline="config=fixed chip=sm_90a host=none" | fp8-translate --fp8-extract-gpu-object > %t.grouped.ptx
// RUN: FileCheck %s --check-prefix=GROUPED < %t.grouped.ptx
// RUN: %ptxas -arch=sm_90a -v %t.grouped.ptx -o %t.grouped.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS

// PTXAS-NOT: {{warning|[1-9][0-9]* bytes spill}}
// PTXAS-COUNT-2: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: {{warning|[1-9][0-9]* bytes spill}}

// LOCKSTEP-LABEL: .entry fp8_scaled_matmul_4096x7168x7168_e4m3_e4m3_bf16(
// LOCKSTEP: setmaxnreg.inc
// LOCKSTEP: mbarrier.try_wait.parity
// LOCKSTEP: // end inline asm
// LOCKSTEP-NEXT: ld.shared.b32
// LOCKSTEP-NEXT: ld.shared.b32
// LOCKSTEP-NEXT: wgmma.fence.sync.aligned;
// LOCKSTEP: wgmma.mma_async
// LOCKSTEP: wgmma.wait_group.sync.aligned 0;
// LOCKSTEP-LABEL: .entry fp8_scaled_matmul_64x2112x7168_e4m3_e4m3_bf16(
// LOCKSTEP: setmaxnreg.inc
// LOCKSTEP: mbarrier.try_wait.parity
// LOCKSTEP: // end inline asm
// LOCKSTEP-NEXT: ld.shared.b32
// LOCKSTEP-NEXT: ld.shared.b32
// LOCKSTEP-NEXT: wgmma.fence.sync.aligned;

// The overlapped trip reads each block's A scales after its wait_group.
// O8-LABEL: .entry fp8_scaled_matmul_4096x7168x7168_e4m3_e4m3_bf16_t128x128s6o8(
// O8: setmaxnreg.inc
// O8: mbarrier.try_wait.parity
// O8: // end inline asm
// O8-NEXT: wgmma.fence.sync.aligned;

// The grouped kernels take the same path.
// GROUPED-LABEL: .entry fp8_grouped_matmul_masked_8x256x4096x7168_e4m3_e4m3_bf16_counts(
// GROUPED: setmaxnreg.inc
// GROUPED: mbarrier.try_wait.parity
// GROUPED: // end inline asm
// GROUPED-NEXT: ld.shared.b32
// GROUPED-NEXT: ld.shared.b32
// GROUPED-NEXT: wgmma.fence.sync.aligned;
// GROUPED-LABEL: .entry fp8_grouped_matmul_contiguous_8x4096x7168x2048_e4m3_e4m3_bf16(
// GROUPED: setmaxnreg.inc
// GROUPED: mbarrier.try_wait.parity
// GROUPED: // end inline asm
// GROUPED-NEXT: ld.shared.b32
// GROUPED-NEXT: ld.shared.b32
// GROUPED-NEXT: wgmma.fence.sync.aligned;

func.func @gemms(%a: !fp8.scaled<4096x7168xf8E4M3FN, block = [1, 128], scale = f32>,
                 %b: !fp8.scaled<7168x7168xf8E4M3FN, block = [128, 128], scale = f32>,
                 %x: !fp8.scaled<64x7168xf8E4M3FN, block = [1, 128], scale = f32>,
                 %w: !fp8.scaled<2112x7168xf8E4M3FN, block = [128, 128], scale = f32>)
    -> (tensor<4096x7168xbf16>, tensor<64x2112xbf16>) {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<4096x7168xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<7168x7168xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<4096x7168xbf16>
  %e = fp8.scaled_matmul %x, %w : !fp8.scaled<64x7168xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<2112x7168xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<64x2112xbf16>
  return %d, %e : tensor<4096x7168xbf16>, tensor<64x2112xbf16>
}
