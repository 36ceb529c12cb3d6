// The emulator can fail: planted faults in the lowered GEMM kernel (sed on
// the NVVM-level IR) are each caught with the right report, naming the op's
// location in the lowered module and the CTA/thread. The unmodified kernel
// passes (first RUN line), so each report is caused by its mutation.
// 100x200x272 (BLOCK_M = 128, stage tx = 128*128 + 128*128 + 128*4 = 33280
// bytes, 3 K blocks); 300x400x1024 (8 K blocks over 6 stages: the ring wraps).
// RUN: fp8-opt %s --fp8-lower-to-nvvm=config=fixed > %t.mlir
// RUN: fp8-emu %t.mlir | FileCheck %s --check-prefix=OK
// OK: fp8-emu: PASS fp8_scaled_matmul_100x200x272_e4m3_e4m3_bf16
// OK: fp8-emu: PASS fp8_scaled_matmul_300x400x1024_e4m3_e4m3_bf16

// Wrong parity: the producer waits on the empty barrier's parity ph instead
// of ph ^ 1 (the phase before phase 0 counts as complete), so it waits for
// consumers that wait for it.
// RUN: sed 's/arith.xori/arith.andi/' %t.mlir | not fp8-emu --kernel fp8_scaled_matmul_100x200x272_e4m3_e4m3_bf16 2>&1 | FileCheck %s --check-prefix=PARITY
// PARITY: fp8-emu: error: deadlock: every live thread of the CTA is blocked and no TMA copy is in flight
// PARITY-DAG: 1 thread(s) (first: thread 256) blocked at loc("<stdin>":{{[0-9]+}}:{{[0-9]+}}): 'nvvm.mbarrier.try_wait.parity'
// PARITY-DAG: 256 thread(s) (first: thread 0) blocked at loc("<stdin>":{{[0-9]+}}:{{[0-9]+}}): 'nvvm.mbarrier.try_wait.parity'
// PARITY-DAG: waiting for parity 0 of mbarrier 0x{{[0-9a-f]+}}: phase 0 (parity 0), 8 of 8 arrivals pending

// A missing wgmma.wait_group: the promotion reads the accumulators of an
// uncompleted commit group (at the fma: extracting them from the result
// struct only moves registers).
// RUN: sed '/nvvm.wgmma.wait.group.sync.aligned/d' %t.mlir | not fp8-emu --kernel fp8_scaled_matmul_100x200x272_e4m3_e4m3_bf16 2>&1 | FileCheck %s --check-prefix=NOWAIT
// wait_group 1 leaves the only group pending: the same fault.
// RUN: sed 's/nvvm.wgmma.wait.group.sync.aligned 0/nvvm.wgmma.wait.group.sync.aligned 1/' %t.mlir | not fp8-emu --kernel fp8_scaled_matmul_100x200x272_e4m3_e4m3_bf16 2>&1 | FileCheck %s --check-prefix=NOWAIT
// NOWAIT: fp8-emu: error: reads the result of a wgmma.mma_async before a wgmma.wait_group covering it (commit group 0 of the warpgroup; groups below 0 are complete)
// NOWAIT-NEXT: at loc("<stdin>":{{[0-9]+}}:{{[0-9]+}}): 'llvm.intr.fma'
// NOWAIT-NEXT: in kernel 'fp8_scaled_matmul_100x200x272_e4m3_e4m3_bf16', CTA 0, thread {{[0-9]+}} (warpgroup {{[01]}}, warp

// A wrong descriptor swizzle: 64B (mode 2) or none instead of 128B (mode 1)
// in the constant descriptor bits (SBO 1024 = 64 << 4 at bit 32).
// RUN: sed 's/constant 4611686293305294848 : i64/constant -9223371761976868864 : i64/' %t.mlir | not fp8-emu --kernel fp8_scaled_matmul_100x200x272_e4m3_e4m3_bf16 2>&1 | FileCheck %s --check-prefix=SW64
// SW64: fp8-emu: error: wgmma.mma_async: descriptor A (0x8000004000000{{[0-9a-f]+}}) reads with swizzle 64B shared memory at 0x{{[0-9a-f]+}} that TMA wrote with swizzle 128B
// SW64-NEXT: at loc("<stdin>":{{[0-9]+}}:{{[0-9]+}}): 'nvvm.wgmma.mma_async'
// RUN: sed 's/constant 4611686293305294848 : i64/constant 274877906944 : i64/' %t.mlir | not fp8-emu --kernel fp8_scaled_matmul_100x200x272_e4m3_e4m3_bf16 2>&1 | FileCheck %s --check-prefix=SWNONE
// SWNONE: fp8-emu: error: wgmma.mma_async: descriptor A (0x4000000{{[0-9a-f]+}}) reads with swizzle none shared memory at 0x{{[0-9a-f]+}} that TMA wrote with swizzle 128B

// A wrong B-scale index: every tile reads sb[1] (the only f32 load from a
// global i32-indexed GEP): the output differs from the reference.
// RUN: sed -E 's/llvm.getelementptr (%[a-z0-9_]+)\[(%[a-z0-9_]+)\] : \(!llvm.ptr<1>, i32\) -> !llvm.ptr<1>, f32/llvm.getelementptr \1[1] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32/' %t.mlir | not fp8-emu --kernel fp8_scaled_matmul_100x200x272_e4m3_e4m3_bf16 2>&1 | FileCheck %s --check-prefix=SCALE
// SCALE: fp8-emu: error: kernel 'fp8_scaled_matmul_100x200x272_e4m3_e4m3_bf16': {{[0-9]+}} of 20000 outputs differ from the host reference; first at

// A short expect_tx (128 bytes less than the three copies deliver).
// RUN: sed 's/arith.constant 33280 : i32/arith.constant 33152 : i32/' %t.mlir | not fp8-emu --kernel fp8_scaled_matmul_100x200x272_e4m3_e4m3_bf16 2>&1 | FileCheck %s --check-prefix=SHORT
// SHORT: fp8-emu: error: TMA copies delivered 128 bytes more than expect_tx announced for the current phase (transaction count overflow): mbarrier 0x{{[0-9a-f]+}}: phase 0
// SHORT-NEXT: at loc("<stdin>":{{[0-9]+}}:{{[0-9]+}}): 'nvvm.cp.async.bulk.tensor.shared.cluster.global'
// SHORT-NEXT: in kernel 'fp8_scaled_matmul_100x200x272_e4m3_e4m3_bf16', CTA 0, thread 256 (warpgroup 2, warp 8, lane 0)

// A long expect_tx: 128 announced bytes never arrive.
// RUN: sed 's/arith.constant 33280 : i32/arith.constant 33408 : i32/' %t.mlir | not fp8-emu --kernel fp8_scaled_matmul_100x200x272_e4m3_e4m3_bf16 2>&1 | FileCheck %s --check-prefix=LONG
// LONG: fp8-emu: error: deadlock
// LONG: 256 thread(s) (first: thread 0) blocked at loc("<stdin>":{{[0-9]+}}:{{[0-9]+}}): 'nvvm.mbarrier.try_wait.parity'
// LONG-NEXT: waiting for parity 0 of mbarrier 0x{{[0-9a-f]+}}: phase 0 (parity 0), 0 of 1 arrivals pending, tx-count 128, 0 TMA bytes in flight
// LONG-NEXT: expect_tx: 128 announced bytes never arrived (no TMA copy in flight)

// The producer does not wait for the consumers to release a slot (its
// try_wait, the first in the kernel, deleted): with 8 K blocks over 6
// stages it refills slots and completes phases the consumers never see:
// a deadlock when the copies land promptly (late-copies.mlir lands them
// late: a second arrival on an open full phase).
// RUN: awk 'index($0, "llvm.func @fp8_scaled_matmul_300x400x1024") { k = 1 } k && /nvvm.mbarrier.try_wait.parity/ && !done { done = 1; next } { print }' %t.mlir | not fp8-emu --kernel fp8_scaled_matmul_300x400x1024_e4m3_e4m3_bf16 --copies prompt 2>&1 | FileCheck %s --check-prefix=NOEMPTY
// NOEMPTY: fp8-emu: error: deadlock
// NOEMPTY: in kernel 'fp8_scaled_matmul_300x400x1024_e4m3_e4m3_bf16', CTA 0

// The epilogue's row/column masks inverted (ult -> ne): rows past M are
// stored, outside the output allocation.
// RUN: sed 's/arith.cmpi ult/arith.cmpi ne/' %t.mlir | not fp8-emu --kernel fp8_scaled_matmul_100x200x272_e4m3_e4m3_bf16 2>&1 | FileCheck %s --check-prefix=OOB
// OOB: fp8-emu: error: out-of-bounds global-memory store of 4 bytes at 0x{{[0-9a-f]+}} (allocation 0x{{[0-9a-f]+}} of 40000 bytes, offset {{[0-9]+}})
// OOB-NEXT: at loc("<stdin>":{{[0-9]+}}:{{[0-9]+}}): 'llvm.store'

// The consumers release a slot (mbarrier.arrive on the empty barrier, in
// lane 0's scf.if) before the wgmma.wait_group that covers the wgmma
// reading it: the producer's next TMA into that slot can land while the
// wgmma still reads. A race: searched over 16 scheduler seeds.
// RUN: awk '/nvvm.wgmma.wait.group.sync.aligned/ { held = $0; next } { print } held && /nvvm.mbarrier.arrive / { armed = 1; next } armed && /^ *}$/ { print held; held = ""; armed = 0 }' %t.mlir | not fp8-emu --kernel fp8_scaled_matmul_300x400x1024_e4m3_e4m3_bf16 --schedules 16 2>&1 | FileCheck %s --check-prefix=RACE
// RACE: fp8-emu: error: a TMA copy (cp.async.bulk.tensor) completing now writes shared memory [0x{{[0-9a-f]+}}, 0x{{[0-9a-f]+}}) that a wgmma.mma_async of warpgroup {{[01]}} still reads ([0x{{[0-9a-f]+}}, 0x{{[0-9a-f]+}}), not yet covered by a wgmma.wait_group)
// RACE-NEXT: the wgmma: loc("<stdin>":{{[0-9]+}}:{{[0-9]+}}): 'nvvm.wgmma.mma_async'
// RACE-NEXT: at loc("<stdin>":{{[0-9]+}}:{{[0-9]+}}): 'nvvm.cp.async.bulk.tensor.shared.cluster.global'
// RACE-NEXT: in kernel 'fp8_scaled_matmul_300x400x1024_e4m3_e4m3_bf16', CTA {{[0-9]+}}, thread 256 (warpgroup 2, warp 8, lane 0)
// RACE-NEXT: with scheduler seed {{[0-9]+}}

// Empty barriers count one arrival per consumer warp (2 warpgroups x 4 warps
// = 8). Initialised for per-thread arrivals (256) instead, the 8 warp
// arrivals never complete a phase: the producer waits for a free slot
// forever (8 K blocks over 6 stages make it wait).
// RUN: awk '/nvvm.mbarrier.init .*%c8_i32/ { n++; sub(/%c8_i32[_0-9]*/, "%mut" n); print "%mut" n " = arith.constant 256 : i32" } { print }' %t.mlir | not fp8-emu --kernel fp8_scaled_matmul_300x400x1024_e4m3_e4m3_bf16 2>&1 | FileCheck %s --check-prefix=COUNT
// COUNT: fp8-emu: error: deadlock
// COUNT: waiting for parity 0 of mbarrier 0x{{[0-9a-f]+}}: phase 0 (parity 0), 248 of 256 arrivals pending

// Every lane arrives (the lane-0 guard `lane == 0` made `lane >= 0`): 32
// arrivals per warp complete the empty phase four times over, the slot is
// released while the other warps' wgmma still read it.
// RUN: awk '/nvvm.bar.warp.sync/ { armed = 1 } armed && /arith.cmpi eq/ { sub(/arith.cmpi eq/, "arith.cmpi uge"); armed = 0 } { print }' %t.mlir | not fp8-emu --kernel fp8_scaled_matmul_300x400x1024_e4m3_e4m3_bf16 --schedules 16 2>&1 | FileCheck %s --check-prefix=EVERYLANE
// EVERYLANE: fp8-emu: error: a TMA copy (cp.async.bulk.tensor) completing now writes shared memory [0x{{[0-9a-f]+}}, 0x{{[0-9a-f]+}}) that a wgmma.mma_async of warpgroup {{[01]}} still reads

// Without the bar.warp.sync before lane 0's arrive, a lagging lane can load
// its A scales after the producer refilled the slot: wrong outputs under
// some schedules (TMA copies landing at random moments). The kernels with
// the short K-block path read their A scales before the wgmma chain, a
// warpgroup collective the emulator executes once all 128 threads reached
// it (Wgmma.cpp), so the fault shows on a kernel that reads them after its
// wgmma.wait_group: BLOCK_N 216, at the consumer register limit
// (docs/gpu-kernel.md, "The K-block path").
// RUN: fp8-opt %s --fp8-lower-to-nvvm="config=fixed block-n=216" > %t.n216.mlir
// RUN: fp8-emu %t.n216.mlir --kernel fp8_scaled_matmul_300x400x1024_e4m3_e4m3_bf16_t128x216s5 --schedules 16 --max-quantum 3 --copies prompt | FileCheck %s --check-prefix=OK216
// OK216: fp8-emu: PASS fp8_scaled_matmul_300x400x1024_e4m3_e4m3_bf16_t128x216s5
// RUN: sed '/nvvm.bar.warp.sync/d' %t.n216.mlir | not fp8-emu --kernel fp8_scaled_matmul_300x400x1024_e4m3_e4m3_bf16_t128x216s5 --schedules 16 --max-quantum 3 --copies prompt 2>&1 | FileCheck %s --check-prefix=NOSYNC
// NOSYNC: fp8-emu: error: kernel 'fp8_scaled_matmul_300x400x1024_e4m3_e4m3_bf16_t128x216s5': {{[0-9]+}} of 120000 outputs differ from the host reference

// prefetch.tensormap of a pointer that is not a tensor map (the B scales,
// parameter 3, instead of A's map).
// RUN: sed 's/nvvm.prefetch tensormap, %arg0/nvvm.prefetch tensormap, %arg3/' %t.mlir | not fp8-emu --kernel fp8_scaled_matmul_100x200x272_e4m3_e4m3_bf16 2>&1 | FileCheck %s --check-prefix=PREFETCH
// PREFETCH: fp8-emu: error: prefetch.tensormap: {{.*}} does not point to an encoded tensor map

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
