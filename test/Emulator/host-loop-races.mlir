// Host loops and ops as kernels of fp8-outline-host-kernels on the emulated
// device (fp8-gpu-pipeline{host=llvm target=emulator}), each result checked
// against values derived by hand, under several of the emulator's random
// schedules. Each program's threads would have raced had the pass split
// them as it used to (test/Conversion/FP8ToNVVM/outline-host-kernels-races.mlir
// shows how they are split now).
//
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a target=emulator host=llvm" -o %t.mlir 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: env FP8_EMU_SEED=1 %fp8_run_emulated %t.mlir | FileCheck %s
// RUN: env FP8_EMU_SEED=2 %fp8_run_emulated %t.mlir | FileCheck %s
// RUN: env FP8_EMU_SEED=3 %fp8_run_emulated %t.mlir | FileCheck %s
// RUN: env FP8_EMU_SCHEDULE=lockstep %fp8_run_emulated %t.mlir | FileCheck %s

func.func private @printMemrefF32(memref<*xf32>)

// sliding: acc[i .. i + 7] += 1 for i = 0 .. 15 (a window sliding by one
// element per iteration): acc[k] counts the i with i <= k <= i + 7, that
// is min(k, 15) - max(0, k - 7) + 1 for k <= 22, and acc[23] = 0; 128 in
// all. Threads over the window's columns (the old split) lost updates:
// thread p adds into acc[i + p], which thread p + 1 added into one
// iteration before, in no order.
// CHECK-LABEL: sliding
// CHECK: [1,  2,  3,  4,  5,  6,  7,  8,  8,  8,  8,  8,  8,  8,  8,  8,  7,  6,  5,  4,  3,  2,  1,  0]
// CHECK: [128]

// projected: out[r] += src[i, r, c] over i = 0 .. 3 and c = 0 .. 7, a row
// update whose output map (r, c) -> (r) is a projected permutation, each
// src element 1: out = [32, 32]. Threads over (r, c) would be eight
// threads adding into one element.
// CHECK-LABEL: projected
// CHECK: [32,  32]

// reverse: a[i] = a[7 - i] in place, the host's loop in order: a[0 .. 3]
// take a[7 .. 4] (4 .. 7 become 7 .. 4 in the front half), then a[4 .. 7]
// read the front half just written: [7, 6, 5, 4, 4, 5, 6, 7]. A kernel's
// threads would read a[7 - i] before or after its thread wrote it.
// CHECK-LABEL: reverse
// REMARK: remark: runs on the host (fp8-outline-host-kernels): an input reads a buffer an output writes, not element for element
// REMARK-NEXT: affine_map<(d0) -> (7 - d0)>
// REMARK-NOT: : remark:
// The scatter-add loop kernels (below) say what they cost: threads over
// the columns and chunks of rows, each running every token.
// REMARK: remark: a loop kernel (fp8-outline-host-kernels): 16 threads (4 elements of its linalg.generic x 4 chunks of 1 row of the buffer it writes), 6 sequential steps each (the loop's iterations, in its order); no row or tensor-core kernel
// REMARK-NOT: : remark:
// REMARK: remark: a loop kernel (fp8-outline-host-kernels): 64064 threads (64 elements of its linalg.generic x 1001 chunks of 3 rows of the buffer it writes), 8 sequential steps each (the loop's iterations, in its order); no row or tensor-core kernel
// REMARK-NOT: : remark:
// REMARK: remark: one thread per output element (fp8-outline-host-kernels): 1 threads, 192064 sequential steps each; no row kernel: it reduces over several iterators
// REMARK-NOT: : remark:
// CHECK: [7,  6,  5,  4,  4,  5,  6,  7]

// scatter_add: the embedding gradient, table[ids[t], :] += grad[t, :] for
// t = 0 .. 5 in token order, ids = [2, 0, 2, 3, 2, 0], grad[t, c] =
// 4 t + c + 1, the table zero: row 0 = grad rows 1 + 5, row 1 = 0, row 2 =
// rows 0 + 2 + 4, row 3 = row 3 (one thread per column and table row:
// each keeps its column of its row in every token).
// CHECK-LABEL: scatter_add
// CHECK: {{\[\[}}26,   28,   30,   32],
// CHECK-NEXT: [0,   0,   0,   0],
// CHECK-NEXT: [27,   30,   33,   36],
// CHECK-NEXT: [13,   14,   15,   16]]

// scatter_chunks: the same over a table of 3001 rows of 64 columns, whose
// kernel's threads split the rows into chunks too (2^16 / 64 = 1024 chunks
// wanted: 3 rows each, 1001 chunks, the last one row: 3001 = 3 x 1000 + 1).
// Tokens' ids [3000, 0, 3000, 2999, 3000, 1500, 0, 3000] (the first and
// last rows, duplicates), every column of token t's gradient g[t] = [1e8,
// 5, 1, 7, -1e8, 3, 2, 4]. In token order row 3000 is ((1e8 + 1) - 1e8) +
// 4 = 4 (1e8 + 1 rounds to 1e8 in f32; any other order of its four terms
// gives 5 or 1e8...), row 0 is 5 + 2 = 7, row 2999 is 7, row 1500 is 3,
// every other row 0: a column sums to 21, the table to 64 x 21 = 1344.
// CHECK-LABEL: scatter_chunks
// CHECK: {{\[\[}}7{{(, +7){63}\]\]}}
// CHECK: {{\[\[}}3{{(, +3){63}\]\]}}
// CHECK: {{\[\[}}7{{(, +7){63}\],}}
// CHECK-NEXT: {{\[}}4{{(, +4){63}\]\]}}
// CHECK: [1344]

memref.global "private" constant @ids : memref<6xi64> = dense<[2, 0, 2, 3, 2, 0]>
memref.global "private" constant @grad : memref<6x4xf32> = dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0], [13.0, 14.0, 15.0, 16.0], [17.0, 18.0, 19.0, 20.0], [21.0, 22.0, 23.0, 24.0]]>
memref.global "private" constant @iota : memref<8xf32> = dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]>

func.func private @printString(!llvm.ptr)
func.func private @printNewline()
llvm.mlir.global internal constant @str_sliding("sliding\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @str_projected("projected\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @str_reverse("reverse\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @str_scatter("scatter_add\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @str_chunks("scatter_chunks\00") {addr_space = 0 : i32}
memref.global "private" constant @chunk_ids : memref<8xi64> = dense<[3000, 0, 3000, 2999, 3000, 1500, 0, 3000]>
memref.global "private" constant @chunk_g : memref<8xf32> = dense<[1.0e8, 5.0, 1.0, 7.0, -1.0e8, 3.0, 2.0, 4.0]>

func.func @sliding() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %acc = memref.alloc() : memref<24xf32>
  %src = memref.alloc() : memref<16x8xf32>
  linalg.fill ins(%zero : f32) outs(%acc : memref<24xf32>)
  linalg.fill ins(%one : f32) outs(%src : memref<16x8xf32>)
  scf.for %i = %c0 to %c16 step %c1 {
    %dst = memref.subview %acc[%i] [8] [1] : memref<24xf32> to memref<8xf32, strided<[1], offset: ?>>
    %row = memref.subview %src[%i, 0] [1, 8] [1, 1] : memref<16x8xf32> to memref<8xf32, strided<[1], offset: ?>>
    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
        ins(%row : memref<8xf32, strided<[1], offset: ?>>) outs(%dst : memref<8xf32, strided<[1], offset: ?>>) {
    ^bb0(%g: f32, %a: f32):
      %s = arith.addf %a, %g : f32
      linalg.yield %s : f32
    }
  }
  %sum = memref.alloc() : memref<1xf32>
  linalg.fill ins(%zero : f32) outs(%sum : memref<1xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%acc : memref<24xf32>) outs(%sum : memref<1xf32>) {
  ^bb0(%x: f32, %a: f32):
    %s = arith.addf %a, %x : f32
    linalg.yield %s : f32
  }
  %s = llvm.mlir.addressof @str_sliding : !llvm.ptr
  func.call @printString(%s) : (!llvm.ptr) -> ()
  func.call @printNewline() : () -> ()
  %u = memref.cast %acc : memref<24xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %us = memref.cast %sum : memref<1xf32> to memref<*xf32>
  func.call @printMemrefF32(%us) : (memref<*xf32>) -> ()
  return
}

func.func @projected() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %src = memref.alloc() : memref<4x2x8xf32>
  %out = memref.alloc() : memref<2xf32>
  linalg.fill ins(%one : f32) outs(%src : memref<4x2x8xf32>)
  linalg.fill ins(%zero : f32) outs(%out : memref<2xf32>)
  scf.for %i = %c0 to %c4 step %c1 {
    %row = memref.subview %src[%i, 0, 0] [1, 2, 8] [1, 1, 1] : memref<4x2x8xf32> to memref<2x8xf32, strided<[8, 1], offset: ?>>
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "parallel"]}
        ins(%row : memref<2x8xf32, strided<[8, 1], offset: ?>>) outs(%out : memref<2xf32>) {
    ^bb0(%g: f32, %a: f32):
      %s = arith.addf %a, %g : f32
      linalg.yield %s : f32
    }
  }
  %s = llvm.mlir.addressof @str_projected : !llvm.ptr
  func.call @printString(%s) : (!llvm.ptr) -> ()
  func.call @printNewline() : () -> ()
  %u = memref.cast %out : memref<2xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

func.func @reverse() {
  %iota = memref.get_global @iota : memref<8xf32>
  %a = memref.alloc() : memref<8xf32>
  linalg.copy ins(%iota : memref<8xf32>) outs(%a : memref<8xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0) -> (7 - d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : memref<8xf32>) outs(%a : memref<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  %s = llvm.mlir.addressof @str_reverse : !llvm.ptr
  func.call @printString(%s) : (!llvm.ptr) -> ()
  func.call @printNewline() : () -> ()
  %u = memref.cast %a : memref<8xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

func.func @scatter_add() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %zero = arith.constant 0.0 : f32
  %ids = memref.get_global @ids : memref<6xi64>
  %grad = memref.get_global @grad : memref<6x4xf32>
  %table = memref.alloc() : memref<4x4xf32>
  linalg.fill ins(%zero : f32) outs(%table : memref<4x4xf32>)
  scf.for %t = %c0 to %c6 step %c1 {
    %id = memref.load %ids[%t] : memref<6xi64>
    %r = arith.index_cast %id : i64 to index
    %dst = memref.subview %table[%r, 0] [1, 4] [1, 1] : memref<4x4xf32> to memref<4xf32, strided<[1], offset: ?>>
    %src = memref.subview %grad[%t, 0] [1, 4] [1, 1] : memref<6x4xf32> to memref<4xf32, strided<[1], offset: ?>>
    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
        ins(%src : memref<4xf32, strided<[1], offset: ?>>) outs(%dst : memref<4xf32, strided<[1], offset: ?>>) {
    ^bb0(%g: f32, %a: f32):
      %s = arith.addf %a, %g : f32
      linalg.yield %s : f32
    }
  }
  %s = llvm.mlir.addressof @str_scatter : !llvm.ptr
  func.call @printString(%s) : (!llvm.ptr) -> ()
  func.call @printNewline() : () -> ()
  %u = memref.cast %table : memref<4x4xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

func.func @scatter_chunks() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %ids = memref.get_global @chunk_ids : memref<8xi64>
  %g = memref.get_global @chunk_g : memref<8xf32>
  %grad = memref.alloc() : memref<8x64xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%g : memref<8xf32>) outs(%grad : memref<8x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  %table = memref.alloc() : memref<3001x64xf32>
  linalg.fill ins(%zero : f32) outs(%table : memref<3001x64xf32>)
  scf.for %t = %c0 to %c8 step %c1 {
    %id = memref.load %ids[%t] : memref<8xi64>
    %r = arith.index_cast %id : i64 to index
    %dst = memref.subview %table[%r, 0] [1, 64] [1, 1] : memref<3001x64xf32> to memref<64xf32, strided<[1], offset: ?>>
    %src = memref.subview %grad[%t, 0] [1, 64] [1, 1] : memref<8x64xf32> to memref<64xf32, strided<[1], offset: ?>>
    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
        ins(%src : memref<64xf32, strided<[1], offset: ?>>) outs(%dst : memref<64xf32, strided<[1], offset: ?>>) {
    ^bb0(%x: f32, %a: f32):
      %s = arith.addf %a, %x : f32
      linalg.yield %s : f32
    }
  }
  %sum = memref.alloc() : memref<1xf32>
  linalg.fill ins(%zero : f32) outs(%sum : memref<1xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0)>], iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%table : memref<3001x64xf32>) outs(%sum : memref<1xf32>) {
  ^bb0(%x: f32, %a: f32):
    %s = arith.addf %a, %x : f32
    linalg.yield %s : f32
  }
  %s = llvm.mlir.addressof @str_chunks : !llvm.ptr
  func.call @printString(%s) : (!llvm.ptr) -> ()
  func.call @printNewline() : () -> ()
  %row0 = memref.subview %table[0, 0] [1, 64] [1, 1] : memref<3001x64xf32> to memref<1x64xf32, strided<[64, 1]>>
  %u0 = memref.cast %row0 : memref<1x64xf32, strided<[64, 1]>> to memref<*xf32>
  func.call @printMemrefF32(%u0) : (memref<*xf32>) -> ()
  %row1500 = memref.subview %table[1500, 0] [1, 64] [1, 1] : memref<3001x64xf32> to memref<1x64xf32, strided<[64, 1], offset: 96000>>
  %u1 = memref.cast %row1500 : memref<1x64xf32, strided<[64, 1], offset: 96000>> to memref<*xf32>
  func.call @printMemrefF32(%u1) : (memref<*xf32>) -> ()
  %last = memref.subview %table[2999, 0] [2, 64] [1, 1] : memref<3001x64xf32> to memref<2x64xf32, strided<[64, 1], offset: 191936>>
  %u2 = memref.cast %last : memref<2x64xf32, strided<[64, 1], offset: 191936>> to memref<*xf32>
  func.call @printMemrefF32(%u2) : (memref<*xf32>) -> ()
  %us = memref.cast %sum : memref<1xf32> to memref<*xf32>
  func.call @printMemrefF32(%us) : (memref<*xf32>) -> ()
  return
}

func.func @main() {
  func.call @sliding() : () -> ()
  func.call @projected() : () -> ()
  func.call @reverse() : () -> ()
  func.call @scatter_add() : () -> ()
  func.call @scatter_chunks() : () -> ()
  return
}
