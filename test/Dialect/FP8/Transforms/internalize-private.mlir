// RUN: fp8-opt %s -fp8-internalize-private | FileCheck %s
// RUN: fp8-opt %s -fp8-internalize-private -convert-func-to-llvm | FileCheck %s --check-prefix=LLVM

// Private definitions get internal linkage, which convert-func-to-llvm keeps;
// public functions and private declarations (resolved at link time) do not.
// CHECK-LABEL: func.func @entry()
// CHECK-NOT: llvm.linkage
// CHECK: func.func private @helper() attributes {llvm.linkage = #llvm.linkage<internal>}
// CHECK: func.func private @external()
// CHECK-NOT: llvm.linkage
// LLVM: llvm.func @entry()
// LLVM: llvm.func internal @helper()
// LLVM: llvm.func @external()
func.func @entry() {
  call @helper() : () -> ()
  call @external() : () -> ()
  return
}
func.func private @helper() {
  return
}
func.func private @external()
