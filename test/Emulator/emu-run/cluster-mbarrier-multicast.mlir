// mbarrier arrivals on a peer CTA and TMA multicast on the emulator
// (clusters of 2 CTAs, one thread each, the CTAs interleaved).
//
// @peer: each CTA inits its mbarrier (count 1), the cluster syncs, then it
// stores 100 + its rank into the peer's shared word (mapa) and arrives on
// the peer's mbarrier (mbarrier.arrive on the !llvm.ptr<7> address: the
// PTX ISA's remote arrive, release at cluster scope), waits for parity 0
// of its own and reads its word: by hand, rank r reads 100 + (r ^ 1), so
// out = [101, 100, 101, 100] (CTAs 0..3, ranks 0 1 0 1).
// @missing: the same with an init count of 2 (one peer arrival missing):
// the cluster deadlocks, reported with the mbarrier's pending arrival.
//
// @multicast: the global tensor is 2 x 32 f32 holding its linear index; the
// box is one row (128 bytes). Each CTA inits its mbarrier (count 1), the
// cluster syncs (the peers' mbarriers exist before a copy signals them),
// it announces 256 bytes (arrive.expect_tx: both rows) and rank r loads row
// r into its buffer `rowr` with ctaMask m_r, then waits for parity 0 and
// reads row0[5] and row1[7]. With m_0 = m_1 = 0b11 every CTA holds both
// rows: by hand 5 and 32 + 7 = 39 in each CTA.
// Planted faults: the masks off by one bit (m_0 = 0b10, m_1 = 0b01: each
// CTA gets only the other's row, the wrong CTA's data, and its 256 bytes
// never complete: a deadlock naming the missing transaction bytes), a
// mask naming rank 2 of a cluster of 2 (0b110), and the mask of rank 2
// alone (0b100: the first bit past the cluster, 1 << cluster size).
//
// RUN: fp8-emu-run %s --entry=peer | FileCheck %s --check-prefix=PEER
// RUN: env FP8_EMU_SEED=3 fp8-emu-run %s --entry=peer | FileCheck %s --check-prefix=PEER
// RUN: not fp8-emu-run %s --entry=missing 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: fp8-emu-run %s --entry=multicast | FileCheck %s --check-prefix=MC
// RUN: env FP8_EMU_SEED=5 fp8-emu-run %s --entry=multicast | FileCheck %s --check-prefix=MC
// RUN: env FP8_EMU_SEED=99 fp8-emu-run %s --entry=multicast | FileCheck %s --check-prefix=MC
// RUN: fp8-emu-run %s --entry=peertx | FileCheck %s --check-prefix=MC
// RUN: env FP8_EMU_SEED=8 fp8-emu-run %s --entry=peertx | FileCheck %s --check-prefix=MC
// RUN: not fp8-emu-run %s --entry=shifted 2>&1 | FileCheck %s --check-prefix=SHIFTED
// RUN: not fp8-emu-run %s --entry=outside 2>&1 | FileCheck %s --check-prefix=OUTSIDE
// RUN: not fp8-emu-run %s --entry=next_rank 2>&1 | FileCheck %s --check-prefix=NEXT

// PEER: 101
// PEER-NEXT: 100
// PEER-NEXT: 101
// PEER-NEXT: 100

// MISSING: fp8-emu: error: deadlock: every live thread of the cluster is blocked and no TMA copy is in flight
// MISSING: blocked at loc({{.*}}): 'nvvm.mbarrier.try_wait.parity'
// MISSING-NEXT: waiting for parity 0 of mbarrier 0x{{[0-9a-f]+}}: phase 0 (parity 0), 1 of 2 arrivals pending

// MC-DAG: rank 0: 5 39
// MC-DAG: rank 1: 5 39
// MC-NOT: rank

// SHIFTED: fp8-emu: error: deadlock: every live thread of the cluster is blocked and no TMA copy is in flight
// SHIFTED: expect_tx: 128 announced bytes never arrived (no TMA copy in flight)
// OUTSIDE: fp8-emu: error: TMA multicast: ctaMask 0x6 names CTA rank 2, outside the cluster of 2 CTAs
// NEXT: fp8-emu: error: TMA multicast: ctaMask 0x4 names CTA rank 2, outside the cluster of 2 CTAs

!map = !nvgpu.tensormap.descriptor<tensor = memref<1x32xf32, 3>, swizzle = none, l2promo = none, oob = zero, interleave = none>
!bar = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>

module {
  memref.global "private" @word : memref<1xi32, 3> {alignment = 8 : i64}
  memref.global "private" @mb : memref<1xi64, 3> {alignment = 8 : i64}
  memref.global "private" @row0 : memref<1x32xf32, 3> {alignment = 128 : i64}
  memref.global "private" @row1 : memref<1x32xf32, 3> {alignment = 128 : i64}

  func.func @arrivals(%count: i32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %h = memref.alloc() : memref<4xi32>
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] () : memref<4xi32>
    gpu.wait [%t1]
    gpu.launch clusters(%cx, %cy, %cz) in (%sx0 = %c2, %sy0 = %c1, %sz0 = %c1)
               blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %k0 = arith.constant 0 : i32
      %k1 = arith.constant 1 : i32
      %k100 = arith.constant 100 : i32
      %ticks = arith.constant 1000000 : i32
      %w = memref.get_global @word : memref<1xi32, 3>
      %m = memref.get_global @mb : memref<1xi64, 3>
      %wi = memref.extract_aligned_pointer_as_index %w : memref<1xi32, 3> -> index
      %wl = arith.index_cast %wi : index to i64
      %wp = llvm.inttoptr %wl : i64 to !llvm.ptr<3>
      %mi = memref.extract_aligned_pointer_as_index %m : memref<1xi64, 3> -> index
      %ml = arith.index_cast %mi : index to i64
      %mp = llvm.inttoptr %ml : i64 to !llvm.ptr<3>
      nvvm.mbarrier.init %mp, %count : !llvm.ptr<3>, i32
      nvvm.cluster.arrive
      nvvm.cluster.wait
      %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
      %peer = arith.xori %rank, %k1 : i32
      %v = arith.addi %rank, %k100 : i32
      %pw = nvvm.mapa %wp, %peer : !llvm.ptr<3> -> !llvm.ptr<7>
      llvm.store %v, %pw : i32, !llvm.ptr<7>
      %pm = nvvm.mapa %mp, %peer : !llvm.ptr<3> -> !llvm.ptr<7>
      nvvm.mbarrier.arrive %pm : !llvm.ptr<7>
      nvvm.mbarrier.try_wait.parity %mp, %k0, %ticks : !llvm.ptr<3>, i32, i32
      %r = llvm.load %wp : !llvm.ptr<3> -> i32
      memref.store %r, %d[%bx] : memref<4xi32>
      nvvm.cluster.arrive
      nvvm.cluster.wait
      gpu.terminator
    }
    %t2 = gpu.memcpy async [%t1] %h, %d : memref<4xi32>, memref<4xi32>
    gpu.wait [%t2]
    scf.for %i = %c0 to %c4 step %c1 {
      %x = memref.load %h[%i] : memref<4xi32>
      vector.print %x : i32
    }
    return
  }
  func.func @peer() {
    %one = arith.constant 1 : i32
    call @arrivals(%one) : (i32) -> ()
    return
  }
  func.func @missing() {
    %two = arith.constant 2 : i32
    call @arrivals(%two) : (i32) -> ()
    return
  }

  func.func @rows(%m0: i16, %m1: i16) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c32 = arith.constant 32 : index
    %n = arith.constant 64 : index
    %h = memref.alloc() : memref<64xf32>
    scf.for %i = %c0 to %n step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %h[%i] : memref<64xf32>
    }
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] () : memref<64xf32>
    %t2 = gpu.memcpy async [%t1] %d, %h : memref<64xf32>, memref<64xf32>
    gpu.wait [%t2]
    %d2 = memref.reinterpret_cast %d to offset: [0], sizes: [2, 32], strides: [32, 1] : memref<64xf32> to memref<2x32xf32>
    %u = memref.cast %d2 : memref<2x32xf32> to memref<*xf32>
    %map = nvgpu.tma.create.descriptor %u box[%c1, %c32] : memref<*xf32> -> !map
    gpu.launch clusters(%cx, %cy, %cz) in (%sx0 = %c2, %sy0 = %c1, %sz0 = %c1)
               blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %k0 = arith.constant 0 : index
      %k1 = arith.constant 1 : index
      %k5 = arith.constant 5 : index
      %k7 = arith.constant 7 : index
      %z = arith.constant 0 : i32
      %tx256 = arith.constant 256 : index
      %ticks = arith.constant 1000000 : index
      %false = arith.constant false
      %r0 = memref.get_global @row0 : memref<1x32xf32, 3>
      %r1 = memref.get_global @row1 : memref<1x32xf32, 3>
      %bar = nvgpu.mbarrier.create -> !bar
      nvgpu.mbarrier.init %bar[%k0], %k1 : !bar
      nvvm.cluster.arrive
      nvvm.cluster.wait
      nvgpu.mbarrier.arrive.expect_tx %bar[%k0], %tx256 : !bar
      %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
      %is0 = arith.cmpi eq, %rank, %z : i32
      %is1 = arith.cmpi ne, %rank, %z : i32
      scf.if %is0 {
        nvgpu.tma.async.load %map[%k0, %k0], %bar[%k0] to %r0 multicast_mask = %m0 : !map, !bar -> memref<1x32xf32, 3>
      }
      scf.if %is1 {
        nvgpu.tma.async.load %map[%k0, %k1], %bar[%k0] to %r1 multicast_mask = %m1 : !map, !bar -> memref<1x32xf32, 3>
      }
      nvgpu.mbarrier.try_wait.parity %bar[%k0], %false, %ticks : !bar
      %a = memref.load %r0[%k0, %k5] : memref<1x32xf32, 3>
      %b = memref.load %r1[%k0, %k7] : memref<1x32xf32, 3>
      gpu.printf "rank %d: %.0f %.0f\n", %rank, %a, %b : i32, f32, f32
      nvvm.cluster.arrive
      nvvm.cluster.wait
      gpu.terminator
    }
    return
  }
  func.func @multicast() {
    %m = arith.constant 3 : i16
    call @rows(%m, %m) : (i16, i16) -> ()
    return
  }
  func.func @shifted() {
    %m0 = arith.constant 2 : i16
    %m1 = arith.constant 1 : i16
    call @rows(%m0, %m1) : (i16, i16) -> ()
    return
  }
  func.func @outside() {
    %m0 = arith.constant 6 : i16
    %m1 = arith.constant 3 : i16
    call @rows(%m0, %m1) : (i16, i16) -> ()
    return
  }
  func.func @next_rank() {
    %m0 = arith.constant 4 : i16
    %m1 = arith.constant 3 : i16
    call @rows(%m0, %m1) : (i16, i16) -> ()
    return
  }

  // @peertx: as @multicast (both masks 0b11), with raw NVVM ops: rank 0
  // makes the arrive.expect_tx of 256 bytes on both CTAs' mbarriers
  // (mbarrier.arrive.expect_tx on the mapa'd !llvm.ptr<7> addresses of ranks
  // 0 and 1), rank 1 none; the bytes come from the two multicast copies: by
  // hand 5 and 39 in each CTA.
  func.func @peertx() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c32 = arith.constant 32 : index
    %n = arith.constant 64 : index
    %h = memref.alloc() : memref<64xf32>
    scf.for %i = %c0 to %n step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %h[%i] : memref<64xf32>
    }
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] () : memref<64xf32>
    %t2 = gpu.memcpy async [%t1] %d, %h : memref<64xf32>, memref<64xf32>
    gpu.wait [%t2]
    %d2 = memref.reinterpret_cast %d to offset: [0], sizes: [2, 32], strides: [32, 1] : memref<64xf32> to memref<2x32xf32>
    %u = memref.cast %d2 : memref<2x32xf32> to memref<*xf32>
    %map = nvgpu.tma.create.descriptor %u box[%c1, %c32] : memref<*xf32> -> !map
    %mapp = builtin.unrealized_conversion_cast %map : !map to !llvm.ptr
    gpu.launch clusters(%cx, %cy, %cz) in (%sx0 = %c2, %sy0 = %c1, %sz0 = %c1)
               blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %k0 = arith.constant 0 : index
      %k5 = arith.constant 5 : index
      %k7 = arith.constant 7 : index
      %z = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      %tx256 = arith.constant 256 : i32
      %ticks = arith.constant 1000000 : i32
      %mask = arith.constant 3 : i16
      %r0 = memref.get_global @row0 : memref<1x32xf32, 3>
      %r1 = memref.get_global @row1 : memref<1x32xf32, 3>
      %m = memref.get_global @mb : memref<1xi64, 3>
      %mi = memref.extract_aligned_pointer_as_index %m : memref<1xi64, 3> -> index
      %ml = arith.index_cast %mi : index to i64
      %mp = llvm.inttoptr %ml : i64 to !llvm.ptr<3>
      %r0i = memref.extract_aligned_pointer_as_index %r0 : memref<1x32xf32, 3> -> index
      %r0l = arith.index_cast %r0i : index to i64
      %r0p = llvm.inttoptr %r0l : i64 to !llvm.ptr<3>
      %r1i = memref.extract_aligned_pointer_as_index %r1 : memref<1x32xf32, 3> -> index
      %r1l = arith.index_cast %r1i : index to i64
      %r1p = llvm.inttoptr %r1l : i64 to !llvm.ptr<3>
      nvvm.mbarrier.init %mp, %one : !llvm.ptr<3>, i32
      nvvm.cluster.arrive
      nvvm.cluster.wait
      %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
      %is0 = arith.cmpi eq, %rank, %z : i32
      scf.if %is0 {
        %m0 = nvvm.mapa %mp, %z : !llvm.ptr<3> -> !llvm.ptr<7>
        nvvm.mbarrier.arrive.expect_tx %m0, %tx256 : !llvm.ptr<7>, i32
        %m1 = nvvm.mapa %mp, %one : !llvm.ptr<3> -> !llvm.ptr<7>
        nvvm.mbarrier.arrive.expect_tx %m1, %tx256 : !llvm.ptr<7>, i32
      }
      %dst = llvm.select %is0, %r0p, %r1p : i1, !llvm.ptr<3>
      %dstc = llvm.addrspacecast %dst : !llvm.ptr<3> to !llvm.ptr<7>
      %row = arith.select %is0, %z, %one : i32
      nvvm.cp.async.bulk.tensor.shared.cluster.global %dstc, %mapp, %mp, box[%z, %row] multicast_mask = %mask : !llvm.ptr<7>, !llvm.ptr
      nvvm.mbarrier.try_wait.parity %mp, %z, %ticks : !llvm.ptr<3>, i32, i32
      %a = memref.load %r0[%k0, %k5] : memref<1x32xf32, 3>
      %b = memref.load %r1[%k0, %k7] : memref<1x32xf32, 3>
      gpu.printf "rank %d: %.0f %.0f\n", %rank, %a, %b : i32, f32, f32
      nvvm.cluster.arrive
      nvvm.cluster.wait
      gpu.terminator
    }
    return
  }
}
