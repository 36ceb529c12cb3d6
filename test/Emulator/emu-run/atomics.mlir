// Atomics on the emulator (PTX ISA atom; LLVM's atomicrmw and cmpxchg, what
// memref.atomic_rmw and memref.generic_atomic_rmw lower to): each atomic is
// one indivisible step of the interpreter.
//
// @global: 4 CTAs of 64 threads, thread g = 64 ctaid + tid of the grid:
//   - atomic_rmw addi 1 on a counter: 256 in the end; each thread adds the
//     old value it got into a second word: every old value 0..255 once, so
//     0 + 1 + ... + 255 = 32640;
//   - atomic_rmw maxs g: 255; mins (100 - g): 100 - 255 = -155;
//   - atomic_rmw addf 0.5 (f32): 128.0 (every partial sum exact);
//     maximumf g as f32: 255.0;
//   - generic_atomic_rmw x -> x + 3 (a load and a cmpxchg loop, retried
//     when another thread's update came between them): 768.
// @shared: 2 CTAs of 96 threads; thread 0 zeroes a shared word, a
//   barrier, every thread atomically adds tid + 1 to it, a barrier, thread
//   0 writes it out: 1 + ... + 96 = 4656 for each CTA.
// Under several schedules (FP8_EMU_SEED), the same values.
//
// RUN: fp8-emu-run %s --entry=global | FileCheck %s --check-prefix=GLOBAL
// RUN: env FP8_EMU_SEED=3 fp8-emu-run %s --entry=global | FileCheck %s --check-prefix=GLOBAL
// RUN: fp8-emu-run %s --entry=shared | FileCheck %s --check-prefix=SHARED
// RUN: env FP8_EMU_SEED=77 fp8-emu-run %s --entry=shared | FileCheck %s --check-prefix=SHARED
//
// A planted fault: the shared word never zeroed, so the first atomic reads
// uninitialised shared memory.
// RUN: not fp8-emu-run %s --entry=uninit 2>&1 | FileCheck %s --check-prefix=UNINIT

// GLOBAL: 256
// GLOBAL-NEXT: 32640
// GLOBAL-NEXT: 255
// GLOBAL-NEXT: -155
// GLOBAL-NEXT: 768
// GLOBAL-NEXT: 128
// GLOBAL-NEXT: 255

// SHARED: 4656
// SHARED-NEXT: 4656

// UNINIT: fp8-emu: error: read of uninitialised shared memory
// UNINIT-NEXT: at loc({{.*}}): 'llvm.atomicrmw'

module {
  memref.global "private" @word : memref<1xi32, 3> {alignment = 4 : i64}

  func.func @global() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %zi = arith.constant 0 : i32
    %zf = arith.constant 0.0 : f32
    %hi = memref.alloc() : memref<5xi32>
    %hf = memref.alloc() : memref<2xf32>
    %t0 = gpu.wait async
    %di, %t1 = gpu.alloc async [%t0] () : memref<5xi32>
    %df, %t2 = gpu.alloc async [%t1] () : memref<2xf32>
    gpu.wait [%t2]
    // counter, sum of olds, max, min (starts at 100), generic
    %k100 = arith.constant 100 : i32
    %init = memref.alloc() : memref<5xi32>
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    memref.store %zi, %init[%c0] : memref<5xi32>
    memref.store %zi, %init[%c1] : memref<5xi32>
    memref.store %zi, %init[%c2] : memref<5xi32>
    memref.store %k100, %init[%c3] : memref<5xi32>
    memref.store %zi, %init[%c4] : memref<5xi32>
    %initf = memref.alloc() : memref<2xf32>
    memref.store %zf, %initf[%c0] : memref<2xf32>
    memref.store %zf, %initf[%c1] : memref<2xf32>
    %t3 = gpu.memcpy async [%t2] %di, %init : memref<5xi32>, memref<5xi32>
    %t4 = gpu.memcpy async [%t3] %df, %initf : memref<2xf32>, memref<2xf32>
    gpu.wait [%t4]
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
      %k0 = arith.constant 0 : index
      %k1 = arith.constant 1 : index
      %k2 = arith.constant 2 : index
      %k3 = arith.constant 3 : index
      %k4 = arith.constant 4 : index
      %k64 = arith.constant 64 : index
      %one = arith.constant 1 : i32
      %three = arith.constant 3 : i32
      %hundred = arith.constant 100 : i32
      %half = arith.constant 0.5 : f32
      %row = arith.muli %bx, %k64 : index
      %gidx = arith.addi %row, %tx : index
      %g = arith.index_cast %gidx : index to i32
      %old = memref.atomic_rmw addi %one, %di[%k0] : (i32, memref<5xi32>) -> i32
      %s = memref.atomic_rmw addi %old, %di[%k1] : (i32, memref<5xi32>) -> i32
      %mx = memref.atomic_rmw maxs %g, %di[%k2] : (i32, memref<5xi32>) -> i32
      %neg = arith.subi %hundred, %g : i32
      %mn = memref.atomic_rmw mins %neg, %di[%k3] : (i32, memref<5xi32>) -> i32
      %gen = memref.generic_atomic_rmw %di[%k4] : memref<5xi32> {
      ^bb0(%cur: i32):
        %nxt = arith.addi %cur, %three : i32
        memref.atomic_yield %nxt : i32
      }
      %fs = memref.atomic_rmw addf %half, %df[%k0] : (f32, memref<2xf32>) -> f32
      %gf = arith.sitofp %g : i32 to f32
      %fm = memref.atomic_rmw maximumf %gf, %df[%k1] : (f32, memref<2xf32>) -> f32
      gpu.terminator
    }
    %t5 = gpu.memcpy async [%t4] %hi, %di : memref<5xi32>, memref<5xi32>
    %t6 = gpu.memcpy async [%t5] %hf, %df : memref<2xf32>, memref<2xf32>
    gpu.wait [%t6]
    scf.for %i = %c0 to %c4 step %c1 {
      %x = memref.load %hi[%i] : memref<5xi32>
      vector.print %x : i32
    }
    %x4 = memref.load %hi[%c4] : memref<5xi32>
    vector.print %x4 : i32
    %f0 = memref.load %hf[%c0] : memref<2xf32>
    vector.print %f0 : f32
    %f1 = memref.load %hf[%c1] : memref<2xf32>
    vector.print %f1 : f32
    return
  }

  // 2 CTAs of 96 threads: 1 + ... + 96 into a shared word each (`zero`:
  // thread 0 zeroes it first).
  func.func @run_shared(%zero: i1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c96 = arith.constant 96 : index
    %h = memref.alloc() : memref<2xi32>
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] () : memref<2xi32>
    gpu.wait [%t1]
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c96, %sy = %c1, %sz = %c1) {
      %k0 = arith.constant 0 : index
      %k1 = arith.constant 1 : index
      %z = arith.constant 0 : i32
      %w = memref.get_global @word : memref<1xi32, 3>
      %first = arith.cmpi eq, %tx, %k0 : index
      %init = arith.andi %first, %zero : i1
      scf.if %init {
        memref.store %z, %w[%k0] : memref<1xi32, 3>
      }
      gpu.barrier
      %t1i = arith.addi %tx, %k1 : index
      %v = arith.index_cast %t1i : index to i32
      %old = memref.atomic_rmw addi %v, %w[%k0] : (i32, memref<1xi32, 3>) -> i32
      gpu.barrier
      scf.if %first {
        %sum = memref.load %w[%k0] : memref<1xi32, 3>
        memref.store %sum, %d[%bx] : memref<2xi32>
      }
      gpu.terminator
    }
    %t2 = gpu.memcpy async [%t1] %h, %d : memref<2xi32>, memref<2xi32>
    gpu.wait [%t2]
    %a = memref.load %h[%c0] : memref<2xi32>
    vector.print %a : i32
    %b = memref.load %h[%c1] : memref<2xi32>
    vector.print %b : i32
    return
  }

  func.func @shared() {
    %true = arith.constant true
    call @run_shared(%true) : (i1) -> ()
    return
  }

  func.func @uninit() {
    %false = arith.constant false
    call @run_shared(%false) : (i1) -> ()
    return
  }
}
