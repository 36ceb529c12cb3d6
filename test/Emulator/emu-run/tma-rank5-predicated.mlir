// A rank-5 TMA load issued under PTX predicates (mbarrier.init,
// arrive.expect_tx, prefetch.tensormap and cp.async.bulk.tensor with
// `predicate = %p`, what nvgpu lowers to predicated NVVM ops), the
// predicate from nvvm.elect.sync in warp 0 of a 64-thread block.
//
// The global tensor is 2x3x4x5x8 f32 holding its own linear index; the box
// [1, 2, 2, 3, 8] (outermost first) at TMA coordinates (innermost first)
// [0, 3, 2, 1, 1] covers global [1][1..2][2..3][3..5][0..7], dimension 1's
// index 5 out of bounds (zero filled). Expected, by hand:
//   box[0][0][0][0][0] = global[1][1][2][3][0] = (((1*3+1)*4+2)*5+3)*8 = 744
//   box[0][1][1][1][7] = global[1][2][3][4][7] = (((1*3+2)*4+3)*5+4)*8+7 = 959
//   box[0][1][0][0][1] = global[1][2][2][3][1] = (((1*3+2)*4+2)*5+3)*8+1 = 905
//   box[0][0][1][2][5] = global[1][1][3][5][5]: out of bounds, 0
// elect.sync elects lane 0 of each warp (threads 0 and 32).
//
// RUN: fp8-emu-run %s | FileCheck %s --implicit-check-not=elected
// RUN: FP8_EMU_SEED=7 fp8-emu-run %s | FileCheck %s --implicit-check-not=elected

// CHECK-DAG: warp 0 elected thread 0
// CHECK-DAG: warp 1 elected thread 32
// CHECK: box 744 959 905 0

!map = !nvgpu.tensormap.descriptor<tensor = memref<1x2x2x3x8xf32, 3>, swizzle = none, l2promo = none, oob = zero, interleave = none>
!bar = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>

module {
  memref.global "private" @box : memref<1x2x2x3x8xf32, 3> {alignment = 128 : i64}
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %n = arith.constant 960 : index
    %h = memref.alloc() : memref<960xf32>
    scf.for %i = %c0 to %n step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %h[%i] : memref<960xf32>
    }
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] () : memref<960xf32>
    %t2 = gpu.memcpy async [%t1] %d, %h : memref<960xf32>, memref<960xf32>
    gpu.wait [%t2]
    %d5 = memref.reinterpret_cast %d to offset: [0], sizes: [2, 3, 4, 5, 8], strides: [480, 160, 40, 8, 1] : memref<960xf32> to memref<2x3x4x5x8xf32>
    %u = memref.cast %d5 : memref<2x3x4x5x8xf32> to memref<*xf32>
    %map = nvgpu.tma.create.descriptor %u box[%c1, %c2, %c2, %c3, %c8] : memref<*xf32> -> !map
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
      %k0 = arith.constant 0 : index
      %k1 = arith.constant 1 : index
      %k2 = arith.constant 2 : index
      %k3 = arith.constant 3 : index
      %k5 = arith.constant 5 : index
      %k7 = arith.constant 7 : index
      %k32 = arith.constant 32 : index
      %tx384 = arith.constant 384 : index
      %ticks = arith.constant 10000000 : index
      %false = arith.constant false
      %e = nvvm.elect.sync -> i1
      %warp = arith.divui %tx, %k32 : index
      scf.if %e {
        %wi = arith.index_cast %warp : index to i32
        %ti = arith.index_cast %tx : index to i32
        gpu.printf "warp %d elected thread %d\n", %wi, %ti : i32, i32
      }
      %w0 = arith.cmpi eq, %warp, %k0 : index
      %p = arith.andi %w0, %e : i1
      %buf = memref.get_global @box : memref<1x2x2x3x8xf32, 3>
      %bar = nvgpu.mbarrier.create -> !bar
      nvgpu.mbarrier.init %bar[%k0], %k1, predicate = %p : !bar
      gpu.barrier
      nvgpu.tma.prefetch.descriptor %map, predicate = %p : !map
      nvgpu.mbarrier.arrive.expect_tx %bar[%k0], %tx384, predicate = %p : !bar
      nvgpu.tma.async.load %map[%k0, %k3, %k2, %k1, %k1], %bar[%k0] to %buf, predicate = %p : !map, !bar -> memref<1x2x2x3x8xf32, 3>
      nvgpu.mbarrier.try_wait.parity %bar[%k0], %false, %ticks : !bar
      %t0i = arith.cmpi eq, %tx, %k0 : index
      scf.if %t0i {
        %a = memref.load %buf[%k0, %k0, %k0, %k0, %k0] : memref<1x2x2x3x8xf32, 3>
        %b = memref.load %buf[%k0, %k1, %k1, %k1, %k7] : memref<1x2x2x3x8xf32, 3>
        %c = memref.load %buf[%k0, %k1, %k0, %k0, %k1] : memref<1x2x2x3x8xf32, 3>
        %z = memref.load %buf[%k0, %k0, %k1, %k2, %k5] : memref<1x2x2x3x8xf32, 3>
        gpu.printf "box %.0f %.0f %.0f %.0f\n", %a, %b, %c, %z : f32, f32, f32, f32
      }
      gpu.terminator
    }
    return
  }
}
