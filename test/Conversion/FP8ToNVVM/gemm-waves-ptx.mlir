// Two m64 waves per consumer (`waves=2`) through to ptxas at DeepSeek-V3's
// sizes (4096 x 7168 x 7168 and a run-time M): per K block two wgmma
// chains of four m64 k32 steps each, each committed and completed
// (`wgmma.wait_group 0`) before the next chain's fence, the slot released
// once after the second; the second chain's A descriptor is the first's
// plus 512 (64 rows x 128 bytes, in 16-byte units). Between wave 0's
// promotion and wave 1's chain, the operand fence on wave 0's
// accumulators (an empty inline asm: no instruction, so PTX shows only
// its begin/end comments) keeps wave 0's FMAs above wave 1's chain, and
// wave 1's first wgmma takes wave 0's partial as its (scale-d = 0, unused)
// input registers, so both chains write one register set. ptxas (behind
// scripts/ptxas_guard.py: no warning, no spill, no Cnnnn info such as the
// wgmma serialisation lines) assembles the widest tiles the register check
// accepts (128 columns per consumer) with 0 spills: 256 x 128 (two
// consumers of 128 rows) and 128 x 128 (one consumer of two waves).
// Without the fence they spill 48 to 120 bytes in ptxas 13, without the
// shared registers 328 (docs/gpu-kernel.md, "Two m64 waves per consumer";
// mutants K209, K210).
// REQUIRES: ptxas
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=none block-m=256 block-n=128 waves=2" | fp8-translate --fp8-extract-gpu-object > %t.w2.ptx
// RUN: FileCheck %s --check-prefix=W2 < %t.w2.ptx
// RUN: %ptxas -arch=sm_90a -v %t.w2.ptx -o %t.w2.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=none block-m=128 block-n=128 waves=2" | fp8-translate --fp8-extract-gpu-object > %t.c1.ptx
// RUN: %ptxas -arch=sm_90a -v %t.c1.ptx -o %t.c1.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS

// Two kernels per PTX (a static and a run-time M), each without stack,
// spills or warnings.
// PTXAS-NOT: {{warning|[1-9][0-9]* bytes spill}}
// PTXAS-COUNT-2: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: {{warning|[1-9][0-9]* bytes spill}}

// W2-LABEL: .entry fp8_scaled_matmul_4096x7168x7168_e4m3_e4m3_bf16_t256x128s4w2(
// W2: mbarrier.try_wait.parity
// W2: wgmma.fence.sync.aligned;
// W2: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3 {[[P:%r[0-9]+]],
// W2-COUNT-3: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3 {[[P]],
// W2-NOT: wgmma.mma_async
// W2: wgmma.commit_group.sync.aligned;
// W2-NOT: wgmma.mma_async
// W2: wgmma.wait_group.sync.aligned 0;
// Wave 0's 64 FMAs, then the fence (empty), then wave 1's chain on the
// same partial registers.
// W2-COUNT-64: fma.rn.f32
// W2-NOT: {{fma.rn.f32|wgmma.mma_async}}
// W2: // begin inline asm
// W2-NEXT: // end inline asm
// W2-NOT: wgmma.mma_async
// W2: wgmma.fence.sync.aligned;
// W2-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3 {[[P]],
// W2-NOT: wgmma.mma_async
// W2: wgmma.commit_group.sync.aligned;
// W2-NOT: wgmma.mma_async
// W2: wgmma.wait_group.sync.aligned 0;
// W2-NOT: wgmma.mma_async
// W2: mbarrier.arrive.shared.b64
// W2-LABEL: .entry fp8_scaled_matmul_dynx7168x7168_e4m3_e4m3_bf16_t256x128s4w2(

func.func @big(%a: !fp8.scaled<4096x7168xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<7168x7168xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<4096x7168xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<4096x7168xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<7168x7168xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<4096x7168xbf16>
  return %d : tensor<4096x7168xbf16>
}

func.func @dynamic_m(%a: !fp8.scaled<?x7168xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<7168x7168xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<?x7168xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<?x7168xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<7168x7168xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<?x7168xbf16>
  return %d : tensor<?x7168xbf16>
}
