// fp8-emu-run's fault handling: a fault goes to stderr with exit status 1;
// with FP8_EMU_CONTINUE_ON_FAULT=1 the run goes on past the faults that
// leave a defined way to go on (here a read of shared memory nothing wrote:
// it reads the zeros the emulated shared memory starts as, what the
// upstream TMA tests print on an H100) and still exits 1. The program is
// read from stdin, its entry point named with --entry, and a
// memref.assume_alignment (llvm.intr.assume with an "align" bundle) on a
// misaligned view is a fault of its own.
//
// RUN: not fp8-emu-run - --entry=uninit < %s > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=STOP < %t.out
// RUN: FileCheck %s --check-prefix=REPORT < %t.err
// RUN: env FP8_EMU_CONTINUE_ON_FAULT=1 not fp8-emu-run %s --entry=uninit > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=GOON < %t.out
// RUN: FileCheck %s --check-prefix=CONT < %t.err
// RUN: not fp8-emu-run %s --entry=misaligned 2>&1 | FileCheck %s --check-prefix=ALIGN
// RUN: fp8-emu-run %s --entry=aligned | FileCheck %s --check-prefix=ALIGNED
// Thread 1 stores a shared word thread 0 loads (after a barrier behind
// thread 0's own store): a race without a barrier between the two
// (reported whichever runs first), none with one.
// RUN: not fp8-emu-run %s --entry=race 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: fp8-emu-run %s --entry=norace | FileCheck %s --check-prefix=NORACE

// STOP: before
// STOP-NOT: read
// STOP-NOT: host after
// REPORT: fp8-emu: error: read of uninitialised shared memory at 0x{{[0-9a-f]+}} (nothing stored or copied there before this read)
// REPORT-NEXT: at loc({{.*}}): 'llvm.load'
// REPORT-NEXT: in kernel 'uninit_kernel', CTA 0, thread 0
// GOON: before
// GOON-NEXT: read 0.000000
// GOON-NEXT: host after
// CONT: read of uninitialised shared memory {{.*}} (continued past it)
// ALIGN: llvm.intr.assume: pointer 0x{{[0-9a-f]+}}4 is not aligned to its assumed 16 bytes
// ALIGNED: aligned ok
// RACE: fp8-emu: error: shared-memory race: thread {{[01]}} {{loads|stores}} 0x{{[0-9a-f]+}}, which thread {{[01]}} {{stored|loaded}} with no barrier or mbarrier phase between the two
// NORACE: read 5.000000

module {
  memref.global "private" @buf : memref<4xf32, 3>
  func.func @uninit() {
    %c1 = arith.constant 1 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %k2 = arith.constant 2 : index
      %s = memref.get_global @buf : memref<4xf32, 3>
      gpu.printf "before\n"
      %v = memref.load %s[%k2] : memref<4xf32, 3>
      gpu.printf "read %f\n", %v : f32
      gpu.terminator
    }
    vector.print str "host after\n"
    return
  }
  func.func @misaligned() {
    %c1 = arith.constant 1 : index
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] () : memref<8xf32>
    gpu.wait [%t1]
    %v = memref.subview %d[1] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 1>>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %a = memref.assume_alignment %v, 16 : memref<4xf32, strided<[1], offset: 1>>
      %k0 = arith.constant 0 : index
      %z = arith.constant 0.0 : f32
      memref.store %z, %a[%k0] : memref<4xf32, strided<[1], offset: 1>>
      gpu.terminator
    }
    return
  }
  func.func @aligned() {
    %c1 = arith.constant 1 : index
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] () : memref<8xf32>
    gpu.wait [%t1]
    %v = memref.subview %d[4] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 4>>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %a = memref.assume_alignment %v, 16 : memref<4xf32, strided<[1], offset: 4>>
      %k0 = arith.constant 0 : index
      %z = arith.constant 0.0 : f32
      memref.store %z, %a[%k0] : memref<4xf32, strided<[1], offset: 4>>
      gpu.printf "aligned ok\n"
      gpu.terminator
    }
    return
  }
  func.func @race() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c1, %sz = %c1) {
      %k0 = arith.constant 0 : index
      %k1 = arith.constant 1 : index
      %five = arith.constant 5.0 : f32
      %s = memref.get_global @buf : memref<4xf32, 3>
      %t0i = arith.cmpi eq, %tx, %k0 : index
      scf.if %t0i {
        %one = arith.constant 1.0 : f32
        memref.store %one, %s[%k0] : memref<4xf32, 3>
      }
      gpu.barrier
      %t1 = arith.cmpi eq, %tx, %k1 : index
      scf.if %t1 {
        memref.store %five, %s[%k0] : memref<4xf32, 3>
      } else {
        %v = memref.load %s[%k0] : memref<4xf32, 3>
        gpu.printf "read %f\n", %v : f32
      }
      gpu.terminator
    }
    return
  }
  func.func @norace() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c1, %sz = %c1) {
      %k0 = arith.constant 0 : index
      %k1 = arith.constant 1 : index
      %five = arith.constant 5.0 : f32
      %s = memref.get_global @buf : memref<4xf32, 3>
      %t1 = arith.cmpi eq, %tx, %k1 : index
      scf.if %t1 {
        memref.store %five, %s[%k0] : memref<4xf32, 3>
      }
      gpu.barrier
      %t0 = arith.cmpi eq, %tx, %k0 : index
      scf.if %t0 {
        %v = memref.load %s[%k0] : memref<4xf32, 3>
        gpu.printf "read %f\n", %v : f32
      }
      gpu.terminator
    }
    return
  }
}
