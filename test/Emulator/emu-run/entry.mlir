// fp8-emu-run's inputs, checked before anything runs (status 2, a message
// naming the argument and what is accepted; before the checks an entry
// with arguments or results crashed the JIT call, and a library that did
// not load was a warning with status 0): --entry must name a defined
// function () -> () of the module, each --shared-libs a library that loads.
//
// RUN: fp8-emu-run %s --entry=ok | FileCheck %s --check-prefix=OK
// RUN: not fp8-emu-run %s --entry=args 2>&1 | FileCheck %s --check-prefix=ARGS
// RUN: not fp8-emu-run %s --entry=result 2>&1 | FileCheck %s --check-prefix=RESULT
// RUN: not fp8-emu-run %s --entry=memref_arg 2>&1 | FileCheck %s --check-prefix=MEMREF
// RUN: not fp8-emu-run %s --entry=llvm_args 2>&1 | FileCheck %s --check-prefix=LLVM
// RUN: not fp8-emu-run %s --entry=llvm_variadic 2>&1 | FileCheck %s --check-prefix=VARIADIC
// RUN: not fp8-emu-run %s --entry=decl 2>&1 | FileCheck %s --check-prefix=DECL
// RUN: not fp8-emu-run %s --entry=g 2>&1 | FileCheck %s --check-prefix=GLOBAL
// RUN: not fp8-emu-run %s 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not fp8-emu-run %s --entry=ok --shared-libs=%t.missing/libnone.so 2>&1 | FileCheck %s --check-prefix=NOLIB -DPATH=%t.missing/libnone.so
// RUN: not fp8-emu-run %s --entry=ok --shared-libs=%s 2>&1 | FileCheck %s --check-prefix=BADLIB -DPATH=%s

// OK: ok
// ARGS: error: fp8-emu-run: the entry function 'args' has type '(i32) -> ()': fp8-emu-run calls it with no arguments and takes no results (expected () -> ())
// ARGS-NOT: PLEASE
// ARGS-NOT: see current operation
// RESULT: error: fp8-emu-run: the entry function 'result' has type '() -> i32': fp8-emu-run calls it with no arguments and takes no results (expected () -> ())
// MEMREF: error: fp8-emu-run: the entry function 'memref_arg' has type '(memref<4xf32>) -> ()'
// LLVM: error: fp8-emu-run: the entry function 'llvm_args' has type '!llvm.func<void (i64)>'
// VARIADIC: error: fp8-emu-run: the entry function 'llvm_variadic' has type '!llvm.func<void (...)>'
// DECL: error: fp8-emu-run: the entry function 'decl' is a declaration: it needs a body to run
// GLOBAL: error: fp8-emu-run: --entry='g' names a 'memref.global', not a function
// MISSING: fp8-emu-run: --entry='main': the module has no function of that name
// NOLIB: fp8-emu-run: cannot load the library '[[PATH]]': no such file (expected the path of a shared library)
// BADLIB: fp8-emu-run: cannot load the library '[[PATH]]': {{.+}}

module {
  memref.global "private" @g : memref<4xf32>
  func.func private @decl()
  func.func @ok() {
    vector.print str "ok\n"
    return
  }
  func.func @args(%a: i32) {
    vector.print %a : i32
    return
  }
  func.func @result() -> i32 {
    %c = arith.constant 7 : i32
    return %c : i32
  }
  func.func @memref_arg(%m: memref<4xf32>) {
    %c0 = arith.constant 0 : index
    %v = memref.load %m[%c0] : memref<4xf32>
    vector.print %v : f32
    return
  }
  llvm.func @llvm_args(%a: i64) {
    llvm.return
  }
  llvm.func @llvm_variadic(...) {
    llvm.return
  }
}
