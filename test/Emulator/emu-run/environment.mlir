// The FP8_EMU_* variables of the emulated runtime take the values they
// document; anything else is an error naming the variable and what it
// accepts (status 1), never a value silently read as another: a switch is
// 1 (on) or 0 / empty / unset (off), not on by its presence alone (before,
// FP8_EMU_CONTINUE_ON_FAULT=0 turned continuing on), and FP8_EMU_SEED is a
// decimal number (before, "abc" read as 0 and -1 as 2^64 - 1).
//
// The kernel reads a shared word nothing wrote (a fault that has a defined
// way on: it reads 0).
// RUN: env FP8_EMU_CONTINUE_ON_FAULT=0 not fp8-emu-run %s > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=STOP < %t.out
// RUN: FileCheck %s --check-prefix=FAULT < %t.err
// RUN: env FP8_EMU_CONTINUE_ON_FAULT= not fp8-emu-run %s | FileCheck %s --check-prefix=STOP
// RUN: env FP8_EMU_CONTINUE_ON_FAULT=1 not fp8-emu-run %s | FileCheck %s --check-prefix=GOON
// RUN: env FP8_EMU_CONTINUE_ON_FAULT=yes not fp8-emu-run %s 2>&1 | FileCheck %s --check-prefix=BADCONT
// RUN: env FP8_EMU_CONTINUE_ON_FAULT=1 FP8_EMU_TRACE=0 not fp8-emu-run %s 2>&1 | FileCheck %s --check-prefix=NOTRACE
// RUN: env FP8_EMU_CONTINUE_ON_FAULT=1 FP8_EMU_TRACE=1 not fp8-emu-run %s 2>&1 | FileCheck %s --check-prefix=TRACE
// RUN: env FP8_EMU_TRACE=on not fp8-emu-run %s 2>&1 | FileCheck %s --check-prefix=BADTRACE
// RUN: env FP8_EMU_CONTINUE_ON_FAULT=1 FP8_EMU_SEED=18446744073709551615 not fp8-emu-run %s | FileCheck %s --check-prefix=GOON
// RUN: env FP8_EMU_SEED=abc not fp8-emu-run %s 2>&1 | FileCheck %s --check-prefix=BADSEED -DSEED=abc
// RUN: env FP8_EMU_SEED=-1 not fp8-emu-run %s 2>&1 | FileCheck %s --check-prefix=BADSEED -DSEED=-1
// RUN: env FP8_EMU_SEED=+1 not fp8-emu-run %s 2>&1 | FileCheck %s --check-prefix=BADSEED -DSEED=+1
// RUN: env FP8_EMU_SEED=7x not fp8-emu-run %s 2>&1 | FileCheck %s --check-prefix=BADSEED -DSEED=7x
// RUN: env FP8_EMU_SEED=18446744073709551616 not fp8-emu-run %s 2>&1 | FileCheck %s --check-prefix=BADSEED -DSEED=18446744073709551616

// STOP: before
// STOP-NOT: read
// STOP-NOT: host after
// FAULT: fp8-emu: error: read of uninitialised shared memory
// FAULT-NOT: continued past it
// GOON: before
// GOON-NEXT: read 0.000000
// GOON-NEXT: host after
// BADCONT: fp8 emulator: FP8_EMU_CONTINUE_ON_FAULT='yes' is invalid: expected 1 (on) or 0 (off, as when unset)
// BADCONT-NOT: before
// NOTRACE-NOT: fp8-emu-mgpu: launch
// NOTRACE: host after
// TRACE: fp8-emu-mgpu: launch main_kernel grid 1 block 1 smem 0 params 0
// TRACE: host after
// BADTRACE: fp8 emulator: FP8_EMU_TRACE='on' is invalid: expected 1 (on) or 0 (off, as when unset)
// BADTRACE-NOT: before
// BADSEED: mgpuLaunchKernel (fp8 emulator): FP8_EMU_SEED='[[SEED]]' is invalid: expected a decimal seed, 0..18446744073709551615
// BADSEED-NOT: before

module {
  memref.global "private" @buf : memref<4xf32, 3>
  func.func @main() {
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
}
