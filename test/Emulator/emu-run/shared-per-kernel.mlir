// The sm_90 shared-memory limit (227 KiB = 232448 bytes a CTA: static +
// dynamic; CUDA C++ Programming Guide, "Compute Capabilities", table of
// technical specifications) is checked per kernel, as silicon does: a
// kernel's static shared memory is the .shared globals it reaches, not
// those of every kernel in its gpu.module. @whole takes the whole limit as
// dynamic shared memory beside @own, whose 1 KiB static buffer it never
// touches: it launches (the emulator counted the module's 1024 static
// bytes and refused it at 233472). Each kernel writes the last byte of its
// memory and reads it back.
//
// The limit still holds: one byte past it is refused, counting the kernel's
// own static buffer (@own: 1024 static + 231425 dynamic).
//
// RUN: fp8-emu-run %s --entry=whole 2>&1 | FileCheck %s --check-prefix=WHOLE
// RUN: fp8-emu-run %s --entry=own 2>&1 | FileCheck %s --check-prefix=OWN
// RUN: not fp8-emu-run %s --entry=whole_over 2>&1 | FileCheck %s --check-prefix=WHOLE-OVER
// RUN: not fp8-emu-run %s --entry=own_over 2>&1 | FileCheck %s --check-prefix=OWN-OVER

// WHOLE: whole: last dynamic byte 7
// OWN: own: static 3, last dynamic byte 5
// WHOLE-OVER: launch of 'whole': shared memory of 232449 bytes (0 static, 232449 dynamic) exceeds the sm_90 limit of 232448
// WHOLE-OVER-NOT: last dynamic byte
// OWN-OVER: launch of 'own': shared memory of 232449 bytes (1024 static, 231425 dynamic) exceeds the sm_90 limit of 232448
// OWN-OVER-NOT: last dynamic byte

module attributes {gpu.container_module} {
  gpu.module @kernels {
    memref.global "private" @own_buffer : memref<256xf32, #gpu.address_space<workgroup>>

    gpu.func @whole(%bytes: index) kernel {
      %c1 = arith.constant 1 : index
      %v = arith.constant 7 : i8
      %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %last = arith.subi %bytes, %c1 : index
      memref.store %v, %dyn[%last] : memref<?xi8, #gpu.address_space<workgroup>>
      %r = memref.load %dyn[%last] : memref<?xi8, #gpu.address_space<workgroup>>
      %ri = arith.extui %r : i8 to i32
      gpu.printf "whole: last dynamic byte %d\n", %ri : i32
      gpu.return
    }

    gpu.func @own(%bytes: index) kernel {
      %c1 = arith.constant 1 : index
      %c255 = arith.constant 255 : index
      %three = arith.constant 3.0 : f32
      %v = arith.constant 5 : i8
      %s = memref.get_global @own_buffer : memref<256xf32, #gpu.address_space<workgroup>>
      memref.store %three, %s[%c255] : memref<256xf32, #gpu.address_space<workgroup>>
      %sr = memref.load %s[%c255] : memref<256xf32, #gpu.address_space<workgroup>>
      %si = arith.fptosi %sr : f32 to i32
      %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %last = arith.subi %bytes, %c1 : index
      memref.store %v, %dyn[%last] : memref<?xi8, #gpu.address_space<workgroup>>
      %r = memref.load %dyn[%last] : memref<?xi8, #gpu.address_space<workgroup>>
      %ri = arith.extui %r : i8 to i32
      gpu.printf "own: static %d, last dynamic byte %d\n", %si, %ri : i32, i32
      gpu.return
    }
  }

  // 227 KiB: 232448 bytes.
  func.func @whole() {
    %c1 = arith.constant 1 : index
    %bytes = arith.constant 232448 : index
    %smem = arith.constant 232448 : i32
    gpu.launch_func @kernels::@whole blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
      dynamic_shared_memory_size %smem args(%bytes : index)
    return
  }
  // 232448 - 1024 bytes beside the 1 KiB static buffer.
  func.func @own() {
    %c1 = arith.constant 1 : index
    %bytes = arith.constant 231424 : index
    %smem = arith.constant 231424 : i32
    gpu.launch_func @kernels::@own blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
      dynamic_shared_memory_size %smem args(%bytes : index)
    return
  }
  func.func @whole_over() {
    %c1 = arith.constant 1 : index
    %bytes = arith.constant 232449 : index
    %smem = arith.constant 232449 : i32
    gpu.launch_func @kernels::@whole blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
      dynamic_shared_memory_size %smem args(%bytes : index)
    return
  }
  func.func @own_over() {
    %c1 = arith.constant 1 : index
    %bytes = arith.constant 231425 : index
    %smem = arith.constant 231425 : i32
    gpu.launch_func @kernels::@own blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
      dynamic_shared_memory_size %smem args(%bytes : index)
    return
  }
}
