// A memref.alloca in workgroup memory inside a gpu.launch lowers to an
// llvm.alloca in address space 3, which NVVM has no meaning for (an alloca
// is thread-local memory): an error naming the kernel and the alloca when
// the kernels load, not a fault about the cluster rank its local address
// read as (10^12) when the kernel ran.
//
// RUN: not fp8-emu-run %s 2>&1 | FileCheck %s

// CHECK: mgpuModuleLoad (fp8 emulator): kernel 'main_kernel': loc({{.*}}): 'llvm.alloca': llvm.alloca in address space 3: an alloca is thread-local memory (address space 0 or 5); shared memory is a memref.global in address space 3 or a gpu.launch workgroup(...) attribution
// CHECK-NOT: cluster

module {
  func.func @main() {
    %c1 = arith.constant 1 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %k0 = arith.constant 0 : index
      %one = arith.constant 1.0 : f32
      %a = memref.alloca() : memref<4xf32, #gpu.address_space<workgroup>>
      memref.store %one, %a[%k0] : memref<4xf32, #gpu.address_space<workgroup>>
      %v = memref.load %a[%k0] : memref<4xf32, #gpu.address_space<workgroup>>
      gpu.printf "read %f\n", %v : f32
      gpu.terminator
    }
    return
  }
}
