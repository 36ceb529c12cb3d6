// Cluster launches (mgpuLaunchClusterKernel) and the cluster special
// registers on the emulator: a 4 x 2 grid in clusters of 2 x 2 CTAs. Each
// CTA (bx, by) stores, at by * 4 + bx,
//   100000 nctarank + 10000 clusterid.x + 1000 nclusterid.x
//   + 100 nclusterid.y + 10 ctarank + cluster_ctaid.y
// with, by the PTX ISA's definitions: clusterid = (bx / 2, by / 2),
// nclusterid = (4 / 2, 2 / 2) = (2, 1), cluster_ctaid = (bx % 2, by % 2),
// ctarank = bx % 2 + 2 (by % 2), nctarank = 4. By hand:
//   (0, 0): 400000 + 0 + 2000 + 100 + 0 + 0 = 402100
//   (1, 0): ctarank 1: 402110      (2, 0): clusterid.x 1: 412100
//   (0, 1): ctarank 2, cluster_ctaid.y 1: 402121
//   (3, 1): clusterid.x 1, ctarank 3, cluster_ctaid.y 1: 412131
// (Distributed shared memory, barrier.cluster and TMA multicast:
// cluster-dsmem.mlir, cluster-mbarrier-multicast.mlir.)
//
// RUN: fp8-emu-run %s | FileCheck %s

// CHECK: 402100
// CHECK-NEXT: 402110
// CHECK-NEXT: 412100
// CHECK-NEXT: 402121
// CHECK-NEXT: 412131

module {
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c7 = arith.constant 7 : index
    %h = memref.alloc() : memref<8xi32>
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] () : memref<8xi32>
    gpu.wait [%t1]
    gpu.launch clusters(%cx, %cy, %cz) in (%sx0 = %c2, %sy0 = %c2, %sz0 = %c1)
               blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c2, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %k4 = arith.constant 4 : index
      %k10 = arith.constant 10 : i32
      %k100 = arith.constant 100 : i32
      %k1000 = arith.constant 1000 : i32
      %k10000 = arith.constant 10000 : i32
      %k100000 = arith.constant 100000 : i32
      %cidx = gpu.cluster_id x
      %ncx = gpu.cluster_dim x
      %ncy = gpu.cluster_dim y
      %ccy = gpu.cluster_block_id y
      %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
      %nrank = nvvm.read.ptx.sreg.cluster.nctarank : i32
      %a = arith.index_cast %cidx : index to i32
      %b = arith.index_cast %ncx : index to i32
      %c = arith.index_cast %ncy : index to i32
      %e = arith.index_cast %ccy : index to i32
      %v0 = arith.muli %nrank, %k100000 : i32
      %v1 = arith.muli %a, %k10000 : i32
      %v2 = arith.muli %b, %k1000 : i32
      %v3 = arith.muli %c, %k100 : i32
      %v4 = arith.muli %rank, %k10 : i32
      %s0 = arith.addi %v0, %v1 : i32
      %s1 = arith.addi %s0, %v2 : i32
      %s2 = arith.addi %s1, %v3 : i32
      %s3 = arith.addi %s2, %v4 : i32
      %s4 = arith.addi %s3, %e : i32
      %row = arith.muli %by, %k4 : index
      %pos = arith.addi %row, %bx : index
      memref.store %s4, %d[%pos] : memref<8xi32>
      gpu.terminator
    }
    %t2 = gpu.memcpy async [%t1] %h, %d : memref<8xi32>, memref<8xi32>
    gpu.wait [%t2]
    %idx = arith.constant dense<[0, 1, 2, 4, 7]> : vector<5xindex>
    %c5 = arith.constant 5 : index
    scf.for %i = %c0 to %c5 step %c1 {
      %j = vector.extract %idx[%i] : index from vector<5xindex>
      %x = memref.load %h[%j] : memref<8xi32>
      vector.print %x : i32
    }
    return
  }
}
