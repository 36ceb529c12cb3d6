// Multi-dimensional grids and blocks on the emulator: a 2 x 3 x 1 grid of
// 4 x 2 x 3 blocks (24 threads: a partial warp). Every thread stores
//   1000000 * ctaid.y + 100000 * ctaid.x + 10000 * tid.z + 1000 * tid.y
//   + 100 * tid.x + 10 * ntid.y + nctaid.y
// at its global linear position ((ctaid.y * 2 + ctaid.x) * 24 + tid.z * 8
// + tid.y * 4 + tid.x); the values below are that formula evaluated by hand
// for the first and last threads of a few CTAs. A wrong decomposition of
// the linear thread id (x fastest, then y, then z) or of the CTA index moves
// or changes them.
//
// RUN: fp8-emu-run %s | FileCheck %s

// CHECK: v[0] = 23
// CHECK-NEXT: v[1] = 123
// CHECK-NEXT: v[4] = 1023
// CHECK-NEXT: v[8] = 10023
// CHECK-NEXT: v[23] = 21323
// CHECK-NEXT: v[24] = 100023
// CHECK-NEXT: v[71] = 1021323
// CHECK-NEXT: v[143] = 2121323

module {
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %n = arith.constant 144 : index
    %h = memref.alloc() : memref<144xi32>
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] () : memref<144xi32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c3, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c2, %sz = %c3) {
      %k10 = arith.constant 10 : index
      %k100 = arith.constant 100 : index
      %k1000 = arith.constant 1000 : index
      %k10000 = arith.constant 10000 : index
      %k100000 = arith.constant 100000 : index
      %k1000000 = arith.constant 1000000 : index
      %k24 = arith.constant 24 : index
      %k8 = arith.constant 8 : index
      %k4 = arith.constant 4 : index
      %k2 = arith.constant 2 : index
      %ny = gpu.block_dim y
      %gy2 = gpu.grid_dim y
      %a0 = arith.muli %by, %k1000000 : index
      %a1 = arith.muli %bx, %k100000 : index
      %a2 = arith.muli %tz, %k10000 : index
      %a3 = arith.muli %ty, %k1000 : index
      %a4 = arith.muli %tx, %k100 : index
      %a5 = arith.muli %ny, %k10 : index
      %s0 = arith.addi %a0, %a1 : index
      %s1 = arith.addi %s0, %a2 : index
      %s2 = arith.addi %s1, %a3 : index
      %s3 = arith.addi %s2, %a4 : index
      %s4 = arith.addi %s3, %a5 : index
      %s5 = arith.addi %s4, %gy2 : index
      %v = arith.index_cast %s5 : index to i32
      %c0 = arith.muli %by, %k2 : index
      %c1i = arith.addi %c0, %bx : index
      %p0 = arith.muli %c1i, %k24 : index
      %p1 = arith.muli %tz, %k8 : index
      %p2 = arith.muli %ty, %k4 : index
      %q0 = arith.addi %p0, %p1 : index
      %q1 = arith.addi %q0, %p2 : index
      %pos = arith.addi %q1, %tx : index
      memref.store %v, %d[%pos] : memref<144xi32>
      gpu.terminator
    }
    %t2 = gpu.memcpy async [%t1] %h, %d : memref<144xi32>, memref<144xi32>
    gpu.wait [%t2]
    %idx = arith.constant dense<[0, 1, 4, 8, 23, 24, 71, 143]> : vector<8xindex>
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    scf.for %i = %c0 to %c8 step %c1 {
      %j = vector.extract %idx[%i] : index from vector<8xindex>
      %x = memref.load %h[%j] : memref<144xi32>
      %ji = arith.index_cast %j : index to i64
      vector.print str "v["
      vector.print %ji : i64 punctuation <no_punctuation>
      vector.print str "] = "
      vector.print %x : i32
    }
    return
  }
}
