// fp8-gpu-module-to-text: the kernel text parses back, with and without the
// ops' locations. A named barrier (nvvm.barrier id = .. number_of_threads =
// .., the staged B scales' barrier of the GEMM consumers) ends its custom
// form in an optional attribute group, which takes a trailing `loc(...)`
// for its attribute (so this input spells the barriers in the generic
// form): with debug-info the pass prints the generic form.
// RUN: fp8-opt %s --fp8-gpu-module-to-text | fp8-translate --fp8-extract-gpu-object | fp8-opt | FileCheck %s
// RUN: fp8-opt %s --fp8-gpu-module-to-text=debug-info=true | fp8-translate --fp8-extract-gpu-object \
// RUN:   | fp8-opt --mlir-print-debuginfo --mlir-print-local-scope | FileCheck %s --check-prefixes=CHECK,LOC

// CHECK-LABEL: gpu.module @kernels
// CHECK: llvm.func @named_barrier(%[[ID:[a-z0-9]+]]: i32{{.*}}, %[[N:[a-z0-9]+]]: i32
// CHECK: nvvm.barrier id = %[[ID]] number_of_threads = %[[N]]
// LOC-SAME: loc("barrier.cu":3:5)
// CHECK: nvvm.barrier id = %[[ID]]
// LOC-SAME: loc("barrier.cu":4:5)
// CHECK: llvm.return
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    llvm.func @named_barrier(%id: i32, %n: i32) attributes {gpu.kernel, nvvm.kernel} {
      "nvvm.barrier"(%id, %n) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (i32, i32) -> () loc("barrier.cu":3:5)
      "nvvm.barrier"(%id) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (i32) -> () loc("barrier.cu":4:5)
      llvm.return
    }
  }
}
