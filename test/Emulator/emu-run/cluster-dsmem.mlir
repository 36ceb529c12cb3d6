// Distributed shared memory on the emulator: a 4-CTA grid in clusters of 2
// CTAs of 32 threads, the CTAs of a cluster interleaved under one scheduler.
// Each thread t of CTA c stores 100 c + t into its CTA's shared word t;
// after barrier.cluster.arrive.aligned / wait.aligned it reads word t of
// its peer (rank r ^ 1, through mapa.shared::cluster and an llvm.load of
// the !llvm.ptr<7> address) into out[32 c + t], then arrives (relaxed) and
// waits again before exiting, so that no CTA exits while its peer reads
// it. By hand: the peer of CTA c is c ^ 1 (ranks 0/1 are CTAs 0/1 and 2/3),
// so out[32 c + t] = 100 (c ^ 1) + t:
//   out[0] = 100, out[31] = 131, out[32] = 0, out[45] = 13,
//   out[64] = 300, out[100] = 204 (c 3, t 4), out[127] = 231.
// Under several schedules (FP8_EMU_SEED), the same.
//
// RUN: fp8-emu-run %s --entry=dsmem | FileCheck %s
// RUN: env FP8_EMU_SEED=7 fp8-emu-run %s --entry=dsmem | FileCheck %s
// RUN: env FP8_EMU_SEED=12345 fp8-emu-run %s --entry=dsmem | FileCheck %s
//
// Planted faults, each reported:
// - the peer read with no barrier.cluster before it (the peer may not have
//   started);
// - no barrier.cluster before exit: the peer's shared memory read after all
//   its threads exited (here CTA rank 1 exits at once; rank 0's barrier
//   completes without it);
// - mapa of rank 2 in a cluster of 2, and a load of a shared::cluster
//   address whose rank is outside the cluster;
// - barrier.cluster.wait with no arrive, and a second arrive before the
//   wait.
// RUN: not fp8-emu-run %s --entry=early 2>&1 | FileCheck %s --check-prefix=EARLY
// RUN: not fp8-emu-run %s --entry=exited 2>&1 | FileCheck %s --check-prefix=EXITED
// RUN: not fp8-emu-run %s --entry=badrank 2>&1 | FileCheck %s --check-prefix=RANK
// RUN: not fp8-emu-run %s --entry=outside 2>&1 | FileCheck %s --check-prefix=OUTSIDE
// RUN: not fp8-emu-run %s --entry=nowait 2>&1 | FileCheck %s --check-prefix=NOARRIVE
// RUN: not fp8-emu-run %s --entry=twice 2>&1 | FileCheck %s --check-prefix=TWICE

// CHECK: 100
// CHECK-NEXT: 131
// CHECK-NEXT: 0
// CHECK-NEXT: 13
// CHECK-NEXT: 300
// CHECK-NEXT: 204
// CHECK-NEXT: 231

// EARLY: fp8-emu: error: load of the shared memory of CTA rank {{[01]}} before any barrier.cluster.wait of this CTA completed (the peer CTA may not have started: cluster.sync first)
// EARLY-NEXT: at loc({{.*}}): 'llvm.load'
// EARLY-NEXT: in kernel 'early_kernel', CTA {{[01]}}, thread
// EXITED: fp8-emu: error: load of the shared memory of CTA rank 1, whose threads have all exited (a barrier.cluster before its exit is missing)
// EXITED: in kernel 'exited_kernel', CTA 0, thread
// RANK: fp8-emu: error: mapa: target CTA rank 2 is not in the cluster of 2 CTAs
// RANK-NEXT: at loc({{.*}}): 'nvvm.mapa'
// OUTSIDE: fp8-emu: error: store: shared::cluster address 0x3000400 is outside the cluster (it names CTA rank 2, the cluster has 2 CTAs)
// NOARRIVE: fp8-emu: error: barrier.cluster.wait without a preceding barrier.cluster.arrive
// NOARRIVE-NEXT: at loc({{.*}}): 'nvvm.cluster.wait'
// TWICE: fp8-emu: error: barrier.cluster.arrive twice without a barrier.cluster.wait between them

module {
  memref.global "private" @words : memref<32xi32, 3> {alignment = 128 : i64}

  func.func @dsmem() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %h = memref.alloc() : memref<128xi32>
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] () : memref<128xi32>
    gpu.wait [%t1]
    gpu.launch clusters(%cx, %cy, %cz) in (%sx0 = %c2, %sy0 = %c1, %sz0 = %c1)
               blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
      %k1 = arith.constant 1 : i32
      %k32 = arith.constant 32 : index
      %k100 = arith.constant 100 : i32
      %s = memref.get_global @words : memref<32xi32, 3>
      %b = arith.index_cast %bx : index to i32
      %t = arith.index_cast %tx : index to i32
      %hb = arith.muli %b, %k100 : i32
      %v = arith.addi %hb, %t : i32
      memref.store %v, %s[%tx] : memref<32xi32, 3>
      nvvm.cluster.arrive {aligned}
      nvvm.cluster.wait {aligned}
      %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
      %peer = arith.xori %rank, %k1 : i32
      %pi = memref.extract_aligned_pointer_as_index %s : memref<32xi32, 3> -> index
      %pl = arith.index_cast %pi : index to i64
      %p = llvm.inttoptr %pl : i64 to !llvm.ptr<3>
      %q = nvvm.mapa %p, %peer : !llvm.ptr<3> -> !llvm.ptr<7>
      %qt = llvm.getelementptr %q[%t] : (!llvm.ptr<7>, i32) -> !llvm.ptr<7>, i32
      %w = llvm.load %qt : !llvm.ptr<7> -> i32
      %row = arith.muli %bx, %k32 : index
      %pos = arith.addi %row, %tx : index
      memref.store %w, %d[%pos] : memref<128xi32>
      nvvm.cluster.arrive.relaxed {aligned}
      nvvm.cluster.wait {aligned}
      gpu.terminator
    }
    %t2 = gpu.memcpy async [%t1] %h, %d : memref<128xi32>, memref<128xi32>
    gpu.wait [%t2]
    %idx = arith.constant dense<[0, 31, 32, 45, 64, 100, 127]> : vector<7xindex>
    %c7 = arith.constant 7 : index
    scf.for %i = %c0 to %c7 step %c1 {
      %j = vector.extract %idx[%i] : index from vector<7xindex>
      %x = memref.load %h[%j] : memref<128xi32>
      vector.print %x : i32
    }
    return
  }

  // The peer's word read with no barrier.cluster before it.
  func.func @early() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    gpu.launch clusters(%cx, %cy, %cz) in (%sx0 = %c2, %sy0 = %c1, %sz0 = %c1)
               blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %k0 = arith.constant 0 : index
      %k1 = arith.constant 1 : i32
      %k5 = arith.constant 5 : i32
      %s = memref.get_global @words : memref<32xi32, 3>
      memref.store %k5, %s[%k0] : memref<32xi32, 3>
      %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
      %peer = arith.xori %rank, %k1 : i32
      %pi = memref.extract_aligned_pointer_as_index %s : memref<32xi32, 3> -> index
      %pl = arith.index_cast %pi : index to i64
      %p = llvm.inttoptr %pl : i64 to !llvm.ptr<3>
      %q = nvvm.mapa %p, %peer : !llvm.ptr<3> -> !llvm.ptr<7>
      %w = llvm.load %q : !llvm.ptr<7> -> i32
      gpu.printf "read %d\n", %w : i32
      nvvm.cluster.arrive
      nvvm.cluster.wait
      gpu.terminator
    }
    return
  }

  // CTA rank 1 exits at once; rank 0 passes its barrier.cluster (the only
  // live threads have arrived) and reads rank 1's shared memory.
  func.func @exited() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    gpu.launch clusters(%cx, %cy, %cz) in (%sx0 = %c2, %sy0 = %c1, %sz0 = %c1)
               blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %k0 = arith.constant 0 : i32
      %k1 = arith.constant 1 : i32
      %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
      %r0 = arith.cmpi eq, %rank, %k0 : i32
      scf.if %r0 {
        nvvm.cluster.arrive
        nvvm.cluster.wait
        %s = memref.get_global @words : memref<32xi32, 3>
        %pi = memref.extract_aligned_pointer_as_index %s : memref<32xi32, 3> -> index
        %pl = arith.index_cast %pi : index to i64
        %p = llvm.inttoptr %pl : i64 to !llvm.ptr<3>
        %q = nvvm.mapa %p, %k1 : !llvm.ptr<3> -> !llvm.ptr<7>
        %w = llvm.load %q : !llvm.ptr<7> -> i32
        gpu.printf "read %d\n", %w : i32
      }
      gpu.terminator
    }
    return
  }

  func.func @badrank() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    gpu.launch clusters(%cx, %cy, %cz) in (%sx0 = %c2, %sy0 = %c1, %sz0 = %c1)
               blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %k2 = arith.constant 2 : i32
      nvvm.cluster.arrive
      nvvm.cluster.wait
      %s = memref.get_global @words : memref<32xi32, 3>
      %pi = memref.extract_aligned_pointer_as_index %s : memref<32xi32, 3> -> index
      %pl = arith.index_cast %pi : index to i64
      %p = llvm.inttoptr %pl : i64 to !llvm.ptr<3>
      %q = nvvm.mapa %p, %k2 : !llvm.ptr<3> -> !llvm.ptr<7>
      gpu.terminator
    }
    return
  }

  // A shared::cluster address of rank 2 (3 * 2^24 + 0x400) made by hand.
  func.func @outside() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    gpu.launch clusters(%cx, %cy, %cz) in (%sx0 = %c2, %sy0 = %c1, %sz0 = %c1)
               blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %a = arith.constant 50332672 : i64
      %k5 = arith.constant 5 : i32
      nvvm.cluster.arrive
      nvvm.cluster.wait
      %q = llvm.inttoptr %a : i64 to !llvm.ptr<7>
      llvm.store %k5, %q : i32, !llvm.ptr<7>
      gpu.terminator
    }
    return
  }

  func.func @nowait() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    gpu.launch clusters(%cx, %cy, %cz) in (%sx0 = %c2, %sy0 = %c1, %sz0 = %c1)
               blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      nvvm.cluster.wait
      gpu.terminator
    }
    return
  }

  func.func @twice() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    gpu.launch clusters(%cx, %cy, %cz) in (%sx0 = %c2, %sy0 = %c1, %sz0 = %c1)
               blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      nvvm.cluster.arrive
      nvvm.cluster.arrive
      nvvm.cluster.wait
      gpu.terminator
    }
    return
  }
}
