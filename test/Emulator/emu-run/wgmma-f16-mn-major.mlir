// wgmma with f16 and bf16 inputs (m64n64k16, f32 accumulators) and an
// MN-major (transposed) B: nvgpu.warpgroup.mma {transposeB} over TMA tiles
// with the 128B swizzle (A 64x64 K-major, B 64x64 stored [K][N]), four
// k16 steps, each wgmma reading its operands through the descriptors the
// nvgpu lowering computes (LBO, SBO, start address advanced per step).
// Oracle: the host's linalg.matmul of the same values (upstream's CPU
// lowering; A[i][j] = (5i + j) % 7, B[k][j] = (6k + j) % 7, so every sum is exact in f32): the count
// of mismatching elements must be 0. A wrong MN-major address (LBO and SBO
// swapped, mutant E23), a wrong element decoding (E24) or a wrong
// fragment map changes elements.
//
// RUN: fp8-emu-run --pre=convert-linalg-to-loops %s | FileCheck %s
// RUN: sed 's/f16/bf16/g' %s | fp8-emu-run --pre=convert-linalg-to-loops - | FileCheck %s
// RUN: env FP8_EMU_SEED=9 fp8-emu-run --pre=convert-linalg-to-loops %s | FileCheck %s

// CHECK: mismatches 0

!aMap = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!bMap = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!bar = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>>
module {
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %smem = arith.constant 32768 : i32
    %a = memref.alloc() : memref<64x64xf16>
    %b = memref.alloc() : memref<64x64xf16>
    %d = memref.alloc() : memref<64x64xf32>
    %ref = memref.alloc() : memref<64x64xf32>
    %z = arith.constant 0.0 : f32
    scf.for %i = %c0 to %c64 step %c1 {
      scf.for %j = %c0 to %c64 step %c1 {
        %ij = arith.muli %i, %c5 : index
        %s = arith.addi %ij, %j : index
        %r = arith.remui %s, %c7 : index
        %ri = arith.index_cast %r : index to i32
        %rf = arith.sitofp %ri : i32 to f16
        memref.store %rf, %a[%i, %j] : memref<64x64xf16>
        %s2 = arith.addi %s, %i : index
        %r2 = arith.remui %s2, %c7 : index
        %ri2 = arith.index_cast %r2 : index to i32
        %rf2 = arith.sitofp %ri2 : i32 to f16
        memref.store %rf2, %b[%i, %j] : memref<64x64xf16>
        memref.store %z, %ref[%i, %j] : memref<64x64xf32>
      }
    }
    %t0 = gpu.wait async
    %da, %t1 = gpu.alloc async [%t0] () : memref<64x64xf16>
    %db, %t2 = gpu.alloc async [%t1] () : memref<64x64xf16>
    %dd, %t3 = gpu.alloc async [%t2] () : memref<64x64xf32>
    %t4 = gpu.memcpy async [%t3] %da, %a : memref<64x64xf16>, memref<64x64xf16>
    %t5 = gpu.memcpy async [%t4] %db, %b : memref<64x64xf16>, memref<64x64xf16>
    gpu.wait [%t5]
    %ua = memref.cast %da : memref<64x64xf16> to memref<*xf16>
    %ub = memref.cast %db : memref<64x64xf16> to memref<*xf16>
    %ma = nvgpu.tma.create.descriptor %ua box[%c64, %c64] : memref<*xf16> -> !aMap
    %mb = nvgpu.tma.create.descriptor %ub box[%c64, %c64] : memref<*xf16> -> !bMap
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1)
               dynamic_shared_memory_size %smem {
      %k0 = arith.constant 0 : index
      %k1 = arith.constant 1 : index
      %k32 = arith.constant 32 : index
      %k4 = arith.constant 4 : index
      %k8192 = arith.constant 8192 : index
      %bytes = arith.constant 16384 : index
      %ticks = arith.constant 10000000 : index
      %false = arith.constant false
      %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %sa = memref.view %dyn[%k0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64x64xf16, #gpu.address_space<workgroup>>
      %sb = memref.view %dyn[%k8192][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64x64xf16, #gpu.address_space<workgroup>>
      %bar = nvgpu.mbarrier.create -> !bar
      %first = arith.cmpi eq, %tx, %k0 : index
      nvgpu.mbarrier.init %bar[%k0], %k1, predicate = %first : !bar
      gpu.barrier
      nvgpu.mbarrier.arrive.expect_tx %bar[%k0], %bytes, predicate = %first : !bar
      nvgpu.tma.async.load %ma[%k0, %k0], %bar[%k0] to %sa, predicate = %first : !aMap, !bar -> memref<64x64xf16, #gpu.address_space<workgroup>>
      nvgpu.tma.async.load %mb[%k0, %k0], %bar[%k0] to %sb, predicate = %first : !bMap, !bar -> memref<64x64xf16, #gpu.address_space<workgroup>>
      nvgpu.mbarrier.try_wait.parity %bar[%k0], %false, %ticks : !bar
      %acc0 = nvgpu.warpgroup.mma.init.accumulator -> !acc
      %dA = nvgpu.warpgroup.generate.descriptor %sa, %ma : memref<64x64xf16, #gpu.address_space<workgroup>>, !aMap -> !nvgpu.warpgroup.descriptor<tensor = memref<64x64xf16, 3>>
      %dB = nvgpu.warpgroup.generate.descriptor %sb, %mb : memref<64x64xf16, #gpu.address_space<workgroup>>, !bMap -> !nvgpu.warpgroup.descriptor<tensor = memref<64x64xf16, 3>>
      %acc1 = nvgpu.warpgroup.mma %dA, %dB, %acc0 {transposeB} : <tensor = memref<64x64xf16, 3>>, <tensor = memref<64x64xf16, 3>>, !acc -> !acc
      nvvm.wgmma.wait.group.sync.aligned 0
      nvgpu.warpgroup.mma.store %acc1, %dd : !acc to memref<64x64xf32>
      gpu.terminator
    }
    %t6 = gpu.memcpy async [%t5] %d, %dd : memref<64x64xf32>, memref<64x64xf32>
    gpu.wait [%t6]
    %a32 = memref.alloc() : memref<64x64xf32>
    %b32 = memref.alloc() : memref<64x64xf32>
    scf.for %i = %c0 to %c64 step %c1 {
      scf.for %j = %c0 to %c64 step %c1 {
        %x = memref.load %a[%i, %j] : memref<64x64xf16>
        %xf = arith.extf %x : f16 to f32
        memref.store %xf, %a32[%i, %j] : memref<64x64xf32>
        %y = memref.load %b[%i, %j] : memref<64x64xf16>
        %yf = arith.extf %y : f16 to f32
        memref.store %yf, %b32[%i, %j] : memref<64x64xf32>
      }
    }
    linalg.matmul ins(%a32, %b32 : memref<64x64xf32>, memref<64x64xf32>) outs(%ref : memref<64x64xf32>)
    %bad0 = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %bad = scf.for %i = %c0 to %c64 step %c1 iter_args(%e = %bad0) -> (i32) {
      %e2 = scf.for %j = %c0 to %c64 step %c1 iter_args(%f = %e) -> (i32) {
        %x = memref.load %d[%i, %j] : memref<64x64xf32>
        %y = memref.load %ref[%i, %j] : memref<64x64xf32>
        %ne = arith.cmpf une, %x, %y : f32
        %f1 = arith.addi %f, %one : i32
        %f2 = arith.select %ne, %f1, %f : i32
        scf.yield %f2 : i32
      }
      scf.yield %e2 : i32
    }

    vector.print str "mismatches "
    vector.print %bad : i32
    return
  }
}
