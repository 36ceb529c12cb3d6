// Device printf with an argument narrower than its conversion: gpu.printf's
// lowering stores each argument in its own width (an i8 as one byte, an i32
// as four), and vprintf reads 4 bytes for an int conversion, 8 with an l
// length, at the next multiple of that size. An i8 printed with %d (or an
// i32 with %ld) reads bytes nothing stored: the GPU prints whatever the
// stack held beside the argument. The emulator reports it naming the
// conversion, its offset in the argument buffer and how many of its bytes
// were written (not as a bare read of uninitialised local memory), exits 1,
// and with FP8_EMU_CONTINUE_ON_FAULT=1 goes on. The arguments extended
// first (arith.extsi / extui to i32, as C's varargs promote a char or a
// short) print as C prints them: -3 and 65535 (the i16 -1 zero-extended).
//
// RUN: not fp8-emu-run %s --entry=narrow > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=NARROW < %t.err
// RUN: FileCheck %s --check-prefix=STOP --allow-empty < %t.out
// RUN: not fp8-emu-run %s --entry=wide 2>&1 | FileCheck %s --check-prefix=WIDE
// RUN: not fp8-emu-run %s --entry=past 2>&1 | FileCheck %s --check-prefix=PAST
// RUN: env FP8_EMU_CONTINUE_ON_FAULT=1 not fp8-emu-run %s --entry=narrow > %t.cont.out 2> %t.cont.err
// RUN: FileCheck %s --check-prefix=CONT < %t.cont.err
// RUN: FileCheck %s --check-prefix=GOON < %t.cont.out
// RUN: fp8-emu-run %s --entry=promoted | FileCheck %s --check-prefix=PROMOTED --match-full-lines

// NARROW: fp8-emu: error: printf: conversion 1 ('%d') reads 4 bytes at offset 0 of the argument buffer, of which 1 were written: an argument narrower than its conversion
// NARROW-NEXT: at loc({{.*}}): 'llvm.call'
// NARROW-NEXT: in kernel 'narrow_kernel', CTA 0, thread 0
// NARROW-NOT: uninitialised local memory
// STOP-NOT: host after
// WIDE: fp8-emu: error: printf: conversion 1 ('%ld') reads 8 bytes at offset 0 of the argument buffer, of which 4 were written: an argument narrower than its conversion
// A conversion with no argument left reads past the frame: said so.
// PAST: fp8-emu: error: printf: conversion 2 ('%d') reads 4 bytes at offset 4 of the argument buffer, past the thread's local frame (4 bytes): a conversion without its argument
// CONT: fp8-emu: error: printf: conversion 1 ('%d') reads 4 bytes at offset 0 of the argument buffer, of which 1 were written: {{.*}} (continued past it)
// CONT-NOT: uninitialised local memory
// GOON: b={{-?[0-9]+}} a=7
// GOON: host after
// PROMOTED: b=-3 h=65535 a=7
// PROMOTED-NEXT: host after

module {
  func.func @narrow() {
    %c1 = arith.constant 1 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %b = arith.constant -3 : i8
      %a = arith.constant 7 : i32
      gpu.printf "b=%d a=%d\n", %b, %a : i8, i32
      gpu.terminator
    }
    vector.print str "host after\n"
    return
  }
  func.func @wide() {
    %c1 = arith.constant 1 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %a = arith.constant 7 : i32
      %c = arith.constant 9 : i64
      gpu.printf "%% a=%ld c=%ld\n", %a, %c : i32, i64
      gpu.terminator
    }
    vector.print str "host after\n"
    return
  }
  func.func @past() {
    %c1 = arith.constant 1 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %a = arith.constant 7 : i32
      gpu.printf "a=%d b=%d\n", %a : i32
      gpu.terminator
    }
    vector.print str "host after\n"
    return
  }
  func.func @promoted() {
    %c1 = arith.constant 1 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %b = arith.constant -3 : i8
      %h = arith.constant -1 : i16
      %a = arith.constant 7 : i32
      %b32 = arith.extsi %b : i8 to i32
      %h32 = arith.extui %h : i16 to i32
      gpu.printf "b=%d h=%u a=%d\n", %b32, %h32, %a : i32, i32, i32
      gpu.terminator
    }
    vector.print str "host after\n"
    return
  }
}
