// Launches CUDA rejects are errors naming the dimension and CUDA's range
// (compute capability 9.0: grid x 1..2^31 - 1, y and z 1..65535, block x
// and y 1..1024, z 1..64, at most 1024 threads), reported before any CTA
// runs: a grid of 2^31 CTAs was accepted and ran for ever. Each kernel
// reads shared memory nothing wrote, so a launch that ran would stop at
// that fault at once instead.
//
// RUN: not fp8-emu-run %s --entry=grid_x 2>&1 | FileCheck %s --check-prefix=GRIDX
// RUN: not fp8-emu-run %s --entry=grid_y 2>&1 | FileCheck %s --check-prefix=GRIDY
// RUN: not fp8-emu-run %s --entry=block_z 2>&1 | FileCheck %s --check-prefix=BLOCKZ
// RUN: not fp8-emu-run %s --entry=threads 2>&1 | FileCheck %s --check-prefix=THREADS

// GRIDX: mgpuLaunchKernel (fp8 emulator): grid x = 2147483648 is out of range: CUDA accepts 1..2147483647
// GRIDX-NOT: uninitialised
// GRIDY: mgpuLaunchKernel (fp8 emulator): grid y = 65536 is out of range: CUDA accepts 1..65535
// BLOCKZ: mgpuLaunchKernel (fp8 emulator): block z = 65 is out of range: CUDA accepts 1..64
// THREADS: mgpuLaunchKernel (fp8 emulator): a block of 1056 threads: CUDA accepts at most 1024

module {
  memref.global "private" @buf : memref<4xf32, 3>
  func.func @grid_x() {
    %c1 = arith.constant 1 : index
    %big = arith.constant 2147483648 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %big, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %k2 = arith.constant 2 : index
      %s = memref.get_global @buf : memref<4xf32, 3>
      %v = memref.load %s[%k2] : memref<4xf32, 3>
      gpu.printf "read %f\n", %v : f32
      gpu.terminator
    }
    return
  }
  func.func @grid_y() {
    %c1 = arith.constant 1 : index
    %big = arith.constant 65536 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %big, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %k2 = arith.constant 2 : index
      %s = memref.get_global @buf : memref<4xf32, 3>
      %v = memref.load %s[%k2] : memref<4xf32, 3>
      gpu.printf "read %f\n", %v : f32
      gpu.terminator
    }
    return
  }
  func.func @block_z() {
    %c1 = arith.constant 1 : index
    %c65 = arith.constant 65 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c65) {
      %k2 = arith.constant 2 : index
      %s = memref.get_global @buf : memref<4xf32, 3>
      %v = memref.load %s[%k2] : memref<4xf32, 3>
      gpu.printf "read %f\n", %v : f32
      gpu.terminator
    }
    return
  }
  func.func @threads() {
    %c1 = arith.constant 1 : index
    %c33 = arith.constant 33 : index
    %c32 = arith.constant 32 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c33, %sz = %c1) {
      %k2 = arith.constant 2 : index
      %s = memref.get_global @buf : memref<4xf32, 3>
      %v = memref.load %s[%k2] : memref<4xf32, 3>
      gpu.printf "read %f\n", %v : f32
      gpu.terminator
    }
    return
  }
}
