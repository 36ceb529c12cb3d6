// Named barriers on the emulator (PTX ISA, bar{.cta}: `bar.sync a, b` is
// nvvm.barrier id = a number_of_threads = b, `bar.arrive a, b`
// nvvm.barrier.arrive): sixteen barriers per CTA, each completing when its
// thread count (a multiple of 32) has arrived, the participants possibly at
// different instructions (a producer's bar.arrive, the consumers' bar.sync).
//
// @groups: one CTA of 256 threads in two groups of 128 (four warps each),
// group g synchronising on barrier g + 1 alone. Thread t stores t into
// shared word t, waits at its group's barrier, then reads the word of its
// group neighbour 128 g + (t + 1) mod 128 into out[t]. By hand:
//   out[0] = 1, out[127] = 0, out[128] = 129, out[200] = 201,
//   out[255] = 128.
// @arrive: 64 threads; warp 1 (threads 32..63, the producer) stores
// 1000 + t into word t - 32 and arrives at barrier 3 of 64 threads without
// waiting; warp 0 waits there and reads word t into out[t]; warp 1 writes
// out[t] = t. By hand: out[0] = 1032, out[31] = 1063, out[32] = 32,
// out[63] = 63.
// The emulator's race check (SharedMemory.cpp) reports a load of a word
// another thread stored with no barrier between them, so these pass only if
// the named barriers order the accesses; under several schedules
// (FP8_EMU_SEED), the same values.
//
// RUN: fp8-emu-run %s --entry=groups | FileCheck %s --check-prefix=GROUPS
// RUN: env FP8_EMU_SEED=7 fp8-emu-run %s --entry=groups | FileCheck %s --check-prefix=GROUPS
// RUN: env FP8_EMU_SEED=4242 fp8-emu-run %s --entry=groups | FileCheck %s --check-prefix=GROUPS
// RUN: fp8-emu-run %s --entry=arrive | FileCheck %s --check-prefix=ARRIVE
// RUN: env FP8_EMU_SEED=99 fp8-emu-run %s --entry=arrive | FileCheck %s --check-prefix=ARRIVE
//
// Planted faults, each reported: the neighbour's word read with no barrier
// (a race, or a read of a word not yet stored, whichever the schedule
// meets first); a thread count that is not a multiple of 32; a barrier id
// outside 0..15; the two groups on one barrier with different counts; a
// barrier of 256 threads that only 128 reach (the other 128 exit after
// their own barrier): a deadlock
// naming the barrier and its arrivals.
// RUN: not fp8-emu-run %s --entry=race 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: not fp8-emu-run %s --entry=count 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: not fp8-emu-run %s --entry=badid 2>&1 | FileCheck %s --check-prefix=ID
// RUN: not fp8-emu-run %s --entry=mismatch 2>&1 | FileCheck %s --check-prefix=MISMATCH
// RUN: not fp8-emu-run %s --entry=short 2>&1 | FileCheck %s --check-prefix=SHORT
//
// The lockstep schedule (FP8_EMU_SCHEDULE=lockstep: the runnable threads
// take one instruction each in turn): @race_print, the race above with its
// result printed, still reports the race and, continued past it
// (FP8_EMU_CONTINUE_ON_FAULT), reads what every thread stored in step
// before: the values of @groups, by hand. An unknown schedule is an error.
// RUN: env FP8_EMU_SCHEDULE=lockstep FP8_EMU_CONTINUE_ON_FAULT=1 not fp8-emu-run %s --entry=race_print 2> %t.lockstep.err | FileCheck %s --check-prefix=GROUPS
// RUN: FileCheck %s --check-prefix=LOCKSTEP < %t.lockstep.err
// RUN: env FP8_EMU_SCHEDULE=steady not fp8-emu-run %s --entry=groups 2>&1 | FileCheck %s --check-prefix=SCHEDULE

// GROUPS: 1
// GROUPS-NEXT: 0
// GROUPS-NEXT: 129
// GROUPS-NEXT: 201
// GROUPS-NEXT: 128

// ARRIVE: 1032
// ARRIVE-NEXT: 1063
// ARRIVE-NEXT: 32
// ARRIVE-NEXT: 63

// RACE: fp8-emu: error: {{shared-memory race: thread [0-9]+ loads|read of uninitialised shared memory}}
// COUNT: fp8-emu: error: bar.sync: thread count 100 is not a positive multiple of the warp size (32) up to the CTA's 128 threads
// COUNT-NEXT: at loc({{.*}}): 'nvvm.barrier'
// ID: fp8-emu: error: bar.sync: barrier id 16 outside 0..15
// MISMATCH: fp8-emu: error: bar.sync: threads arrive at barrier 1 with thread counts {{128 and 64|64 and 128}}
// SHORT: fp8-emu: error: deadlock: every live thread of the CTA is blocked
// SHORT: waiting at named barrier 1: 128 of 256 threads arrived
// LOCKSTEP: fp8-emu: error: shared-memory race: thread {{[0-9]+}} loads 0x{{[0-9a-f]+}}, which thread {{[0-9]+}} stored with no barrier or mbarrier phase between the two (continued past it)
// SCHEDULE: FP8_EMU_SCHEDULE='steady' is invalid: expected random (the default) or lockstep

module {
  memref.global "private" @words : memref<256xi32, 3> {alignment = 128 : i64}
  memref.global "private" constant @groups_idx : memref<5xindex> = dense<[0, 127, 128, 200, 255]>
  memref.global "private" constant @arrive_idx : memref<4xindex> = dense<[0, 31, 32, 63]>

  // Prints h[idx[i]] for each i.
  func.func @print(%h: memref<256xi32>, %idx: memref<?xindex>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = memref.dim %idx, %c0 : memref<?xindex>
    scf.for %i = %c0 to %n step %c1 {
      %j = memref.load %idx[%i] : memref<?xindex>
      %x = memref.load %h[%j] : memref<256xi32>
      vector.print %x : i32
    }
    return
  }

  // One CTA of `threads` threads in groups g = t / 128: thread t stores t
  // into word t; if `sync<g>`, waits at barrier `id<g>` of `count<g>`
  // threads; reads word 128 g + (t + 1) mod 128 into out[t]. Prints out.
  func.func @run(%threads: index, %id0: i32, %id1: i32, %count0: i32, %count1: i32,
                 %sync0: i1, %sync1: i1) -> memref<256xi32> {
    %c1 = arith.constant 1 : index
    %h = memref.alloc() : memref<256xi32>
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] () : memref<256xi32>
    gpu.wait [%t1]
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %threads, %sy = %c1, %sz = %c1) {
      %k0 = arith.constant 0 : index
      %k1 = arith.constant 1 : index
      %k128 = arith.constant 128 : index
      %s = memref.get_global @words : memref<256xi32, 3>
      %t = arith.index_cast %tx : index to i32
      memref.store %t, %s[%tx] : memref<256xi32, 3>
      %g = arith.divui %tx, %k128 : index
      %first = arith.cmpi eq, %g, %k0 : index
      %id = arith.select %first, %id0, %id1 : i32
      %count = arith.select %first, %count0, %count1 : i32
      %sync = arith.select %first, %sync0, %sync1 : i1
      scf.if %sync {
        nvvm.barrier id = %id number_of_threads = %count
      }
      %next = arith.addi %tx, %k1 : index
      %r = arith.remui %next, %k128 : index
      %base = arith.muli %g, %k128 : index
      %nb = arith.addi %base, %r : index
      %w = memref.load %s[%nb] : memref<256xi32, 3>
      memref.store %w, %d[%tx] : memref<256xi32>
      gpu.terminator
    }
    %t2 = gpu.memcpy async [%t1] %h, %d : memref<256xi32>, memref<256xi32>
    gpu.wait [%t2]
    return %h : memref<256xi32>
  }

  func.func @groups() {
    %c256 = arith.constant 256 : index
    %i1 = arith.constant 1 : i32
    %i2 = arith.constant 2 : i32
    %n = arith.constant 128 : i32
    %true = arith.constant true
    %h = call @run(%c256, %i1, %i2, %n, %n, %true, %true)
        : (index, i32, i32, i32, i32, i1, i1) -> memref<256xi32>
    %idx = memref.get_global @groups_idx : memref<5xindex>
    %idx_dyn = memref.cast %idx : memref<5xindex> to memref<?xindex>
    call @print(%h, %idx_dyn) : (memref<256xi32>, memref<?xindex>) -> ()
    return
  }

  // No barrier: the neighbour's word races with its store.
  func.func @race() {
    %c256 = arith.constant 256 : index
    %i1 = arith.constant 1 : i32
    %n = arith.constant 128 : i32
    %false = arith.constant false
    %h = call @run(%c256, %i1, %i1, %n, %n, %false, %false)
        : (index, i32, i32, i32, i32, i1, i1) -> memref<256xi32>
    return
  }

  // @race with its result printed.
  func.func @race_print() {
    %c256 = arith.constant 256 : index
    %i1 = arith.constant 1 : i32
    %n = arith.constant 128 : i32
    %false = arith.constant false
    %h = call @run(%c256, %i1, %i1, %n, %n, %false, %false)
        : (index, i32, i32, i32, i32, i1, i1) -> memref<256xi32>
    %idx = memref.get_global @groups_idx : memref<5xindex>
    %idx_dyn = memref.cast %idx : memref<5xindex> to memref<?xindex>
    call @print(%h, %idx_dyn) : (memref<256xi32>, memref<?xindex>) -> ()
    return
  }

  // bar.sync 1, 100: not a multiple of 32.
  func.func @count() {
    %c128 = arith.constant 128 : index
    %i1 = arith.constant 1 : i32
    %n = arith.constant 100 : i32
    %true = arith.constant true
    %h = call @run(%c128, %i1, %i1, %n, %n, %true, %true)
        : (index, i32, i32, i32, i32, i1, i1) -> memref<256xi32>
    return
  }

  // bar.sync 16, 128: there are barriers 0..15.
  func.func @badid() {
    %c128 = arith.constant 128 : index
    %i16 = arith.constant 16 : i32
    %n = arith.constant 128 : i32
    %true = arith.constant true
    %h = call @run(%c128, %i16, %i16, %n, %n, %true, %true)
        : (index, i32, i32, i32, i32, i1, i1) -> memref<256xi32>
    return
  }

  // Both groups at barrier 1, one with 128 threads, the other with 64.
  func.func @mismatch() {
    %c256 = arith.constant 256 : index
    %i1 = arith.constant 1 : i32
    %n128 = arith.constant 128 : i32
    %n64 = arith.constant 64 : i32
    %true = arith.constant true
    %h = call @run(%c256, %i1, %i1, %n128, %n64, %true, %true)
        : (index, i32, i32, i32, i32, i1, i1) -> memref<256xi32>
    return
  }

  // Group 0 waits at barrier 1 for 256 threads; group 1 synchronises on
  // barrier 2 alone and exits.
  func.func @short() {
    %c256 = arith.constant 256 : index
    %i1 = arith.constant 1 : i32
    %i2 = arith.constant 2 : i32
    %n256 = arith.constant 256 : i32
    %n128 = arith.constant 128 : i32
    %true = arith.constant true
    %h = call @run(%c256, %i1, %i2, %n256, %n128, %true, %true)
        : (index, i32, i32, i32, i32, i1, i1) -> memref<256xi32>
    return
  }

  // Warp 1 produces words 0..31 and arrives at barrier 3 (64 threads)
  // without waiting; warp 0 waits there, then reads them.
  func.func @arrive() {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %h = memref.alloc() : memref<256xi32>
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] () : memref<256xi32>
    gpu.wait [%t1]
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
      %k32 = arith.constant 32 : index
      %i3 = arith.constant 3 : i32
      %i64 = arith.constant 64 : i32
      %i1000 = arith.constant 1000 : i32
      %s = memref.get_global @words : memref<256xi32, 3>
      %t = arith.index_cast %tx : index to i32
      %producer = arith.cmpi uge, %tx, %k32 : index
      scf.if %producer {
        %v = arith.addi %t, %i1000 : i32
        %slot = arith.subi %tx, %k32 : index
        memref.store %v, %s[%slot] : memref<256xi32, 3>
        nvvm.barrier.arrive id = %i3 number_of_threads = %i64
        memref.store %t, %d[%tx] : memref<256xi32>
      } else {
        nvvm.barrier id = %i3 number_of_threads = %i64
        %w = memref.load %s[%tx] : memref<256xi32, 3>
        memref.store %w, %d[%tx] : memref<256xi32>
      }
      gpu.terminator
    }
    %t2 = gpu.memcpy async [%t1] %h, %d : memref<256xi32>, memref<256xi32>
    gpu.wait [%t2]
    %idx = memref.get_global @arrive_idx : memref<4xindex>
    %idx_dyn = memref.cast %idx : memref<4xindex> to memref<?xindex>
    call @print(%h, %idx_dyn) : (memref<256xi32>, memref<?xindex>) -> ()
    return
  }
}
