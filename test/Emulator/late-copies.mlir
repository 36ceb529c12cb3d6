// TMA copies land late: a copy may complete long after the instructions
// that follow its issue, so only the full barrier's wait orders it with its
// readers (docs/gpu-kernel.md, "When copies land"). Before, the scheduler
// landed every copy within a few steps of its issue, long before a consumer
// warpgroup (128 threads) reached its wgmma, so a kernel whose consumers
// never waited passed under 30 schedules of quantum 1; `--copies prompt`
// keeps that old behaviour and still passes it (first NOFULL run), the
// default (seeded: per CTA every copy late, or each by a coin flip) and
// `--copies late` reject it. Planted faults on the generated kernel, as in
// gemm-mutations.mlir; the unmodified kernels pass in every landing mode.
// 100x200x272: 3 K blocks in a ring of 6; 300x400x1024: 8 K blocks, the
// ring wraps (a missing wait then reads stale slots).
// RUN: fp8-opt %s --fp8-lower-to-nvvm=config=fixed > %t.mlir
// RUN: fp8-emu %t.mlir --copies late --max-quantum 1 | FileCheck %s --check-prefix=OK
// RUN: fp8-emu %t.mlir --schedules 3 | FileCheck %s --check-prefix=OK
// OK: fp8-emu: PASS fp8_scaled_matmul_100x200x272_e4m3_e4m3_bf16
// OK: fp8-emu: PASS fp8_scaled_matmul_300x400x1024_e4m3_e4m3_bf16

// The consumers never wait on the full barrier (their try_wait, the
// kernel's second, deleted): the wgmma reads the stage before TMA wrote it.
// RUN: awk 'index($0, "llvm.func @fp8_scaled_matmul_100x200x272") { k = 1 } k && /nvvm.mbarrier.try_wait.parity/ && ++n == 2 { next } { print }' %t.mlir > %t.nofull.mlir
// RUN: fp8-emu %t.nofull.mlir --kernel fp8_scaled_matmul_100x200x272_e4m3_e4m3_bf16 --copies prompt --max-quantum 1 --schedules 30 | FileCheck %s --check-prefix=PROMPT
// PROMPT: fp8-emu: PASS fp8_scaled_matmul_100x200x272_e4m3_e4m3_bf16
// RUN: not fp8-emu %t.nofull.mlir --kernel fp8_scaled_matmul_100x200x272_e4m3_e4m3_bf16 --max-quantum 1 --schedules 30 2>&1 | FileCheck %s --check-prefix=NOFULL
// RUN: not fp8-emu %t.nofull.mlir --kernel fp8_scaled_matmul_100x200x272_e4m3_e4m3_bf16 --copies late 2>&1 | FileCheck %s --check-prefix=NOFULL
// NOFULL: fp8-emu: error: read of uninitialised shared memory at 0x{{[0-9a-f]+}} (nothing stored or copied there before this read)
// The first read of the unwritten slot: the thread's A scales (read right
// after the wait on the full barrier, docs/gpu-kernel.md "The K-block path")
// or the wgmma's operands, whichever a thread reaches first.
// NOFULL-NEXT: at loc("{{.*}}":{{[0-9]+}}:{{[0-9]+}}): '{{llvm.load|nvvm.wgmma.mma_async}}'
// NOFULL-NEXT: in kernel 'fp8_scaled_matmul_100x200x272_e4m3_e4m3_bf16', CTA 0, thread {{[0-9]+}} (warpgroup {{[01]}}

// The same on the wrapping ring with the uninitialised-read check off: the
// consumers run ahead and release slots whose copies have not landed, so
// the producer arrives a second time on a full barrier whose phase is
// still open.
// RUN: awk 'index($0, "llvm.func @fp8_scaled_matmul_300x400x1024") { k = 1 } k && /nvvm.mbarrier.try_wait.parity/ && ++n == 2 { next } { print }' %t.mlir | not fp8-emu --kernel fp8_scaled_matmul_300x400x1024_e4m3_e4m3_bf16 --copies late --no-uninitialised-check 2>&1 | FileCheck %s --check-prefix=NOFULL2
// NOFULL2: fp8-emu: error: arrival on an mbarrier whose current phase has no pending arrivals left (more arrivals than its init count): mbarrier 0x{{[0-9a-f]+}}: phase 0 (parity 0), 0 of 1 arrivals pending, tx-count 33280, 33280 TMA bytes in flight
// NOFULL2-NEXT: at loc("<stdin>":{{[0-9]+}}:{{[0-9]+}}): 'nvvm.mbarrier.arrive.expect_tx'

// An early wait: the consumers wait for the other parity of the full
// barrier (the phase before phase 0, which counts as complete), so their
// first wait returns before any copy landed.
// RUN: awk 'index($0, "llvm.func @fp8_scaled_matmul_100x200x272") { k = 1 } k && /nvvm.mbarrier.try_wait.parity/ && ++n == 2 { split($0, f, ", "); p = f[2]; print "%mutone = arith.constant 1 : i32"; print "%mutp = arith.xori " p ", %mutone : i32"; sub(", " p ", ", ", %mutp, ") } { print }' %t.mlir > %t.early.mlir
// RUN: not fp8-emu %t.early.mlir --kernel fp8_scaled_matmul_100x200x272_e4m3_e4m3_bf16 --max-quantum 1 --schedules 30 2>&1 | FileCheck %s --check-prefix=EARLY
// RUN: not fp8-emu %t.early.mlir --kernel fp8_scaled_matmul_100x200x272_e4m3_e4m3_bf16 --copies late 2>&1 | FileCheck %s --check-prefix=EARLY
// EARLY: fp8-emu: error: read of uninitialised shared memory at 0x{{[0-9a-f]+}} (nothing stored or copied there before this read)
// EARLY-NEXT: at loc("{{.*}}":{{[0-9]+}}:{{[0-9]+}}): '{{llvm.load|nvvm.wgmma.mma_async}}'

// The producer does not wait for a free slot (its try_wait, the kernel's
// first, deleted): with copies late it refills a slot whose full phase is
// still open, a second arrival on it.
// RUN: awk 'index($0, "llvm.func @fp8_scaled_matmul_300x400x1024") { k = 1 } k && /nvvm.mbarrier.try_wait.parity/ && !done { done = 1; next } { print }' %t.mlir | not fp8-emu --kernel fp8_scaled_matmul_300x400x1024_e4m3_e4m3_bf16 --copies late 2>&1 | FileCheck %s --check-prefix=NOEMPTY
// NOEMPTY: fp8-emu: error: arrival on an mbarrier whose current phase has no pending arrivals left (more arrivals than its init count): mbarrier 0x{{[0-9a-f]+}}: phase 0 (parity 0), 0 of 1 arrivals pending
// NOEMPTY-NEXT: at loc("<stdin>":{{[0-9]+}}:{{[0-9]+}}): 'nvvm.mbarrier.arrive.expect_tx'
// NOEMPTY-NEXT: in kernel 'fp8_scaled_matmul_300x400x1024_e4m3_e4m3_bf16', CTA 0, thread 256 (warpgroup 2, warp 8, lane 0)

func.func @gemm_100x200x272(%a: !fp8.scaled<100x272xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<200x272xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<100x200xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<100x272xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<200x272xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<100x200xbf16>
  return %d : tensor<100x200xbf16>
}

func.func @gemm_300x400x1024(%a: !fp8.scaled<300x1024xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<400x1024xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<300x400xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<300x1024xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<400x1024xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<300x400xbf16>
  return %d : tensor<300x400xbf16>
}
