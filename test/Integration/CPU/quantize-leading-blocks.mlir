// fp8.quantize of a rank-3 layout whose leading block is not 1 (block
// [2, 1, 4]): no rank-2 view of it exists, so the tiled lowering chunks the
// reference generics by whole blocks of rows (64 rows, 32 blocks, per
// scf.forall iteration). 70 rows make two chunks; the second one's scales
// start at block row 32 (its row offset 64 divided by the block's 2).
//
// RUN: fp8-opt %s --fp8-cpu-pipeline | %fp8_run | FileCheck %s
// RUN: fp8-opt %s --fp8-cpu-pipeline=tiled=false | %fp8_run | FileCheck %s
//
// Hand-derived (E4M3FN, scale = amax / 448, docs/numerics.md): x[i, j, k]
// = 448 * (i floordiv 2 + 1), so block (b, j, 0) holds 448 * (b + 1)
// only: its scale is b + 1 exactly, every code 448 (0x7E). The scales
// [35, 2, 1] read 1 .. 35 down the rows, the same in both columns.

// CHECK-LABEL: scales
// CHECK-NEXT: Unranked Memref {{.*}} rank = 2 offset = 0 sizes = [35, 2]
// CHECK-NEXT: {{\[\[}}1,   1],
// CHECK-NEXT: [2,   2],
// CHECK-COUNT-29: ],
// CHECK-NEXT: [32,   32],
// CHECK-NEXT: [33,   33],
// CHECK-NEXT: [34,   34],
// CHECK-NEXT: [35,   35]]
// CHECK-LABEL: codes
// CHECK-NEXT: 560

!q = !fp8.scaled<70x2x4xf8E4M3FN, block = [2, 1, 4], scale = f32>

func.func private @printMemrefF32(memref<*xf32>)

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @main() {
  %e = tensor.empty() : tensor<70x2x4xf32>
  %x = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel", "parallel"]} outs(%e : tensor<70x2x4xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %c2 = arith.constant 2 : index
    %c1 = arith.constant 1 : index
    %b = arith.divui %i, %c2 : index
    %b1 = arith.addi %b, %c1 : index
    %bi = arith.index_cast %b1 : index to i32
    %bf = arith.uitofp %bi : i32 to f32
    %c448 = arith.constant 448.0 : f32
    %v = arith.mulf %bf, %c448 : f32
    linalg.yield %v : f32
  } -> tensor<70x2x4xf32>
  %q = fp8.quantize %x : tensor<70x2x4xf32> -> !q
  %d, %s = fp8.disassemble %q : !q
  vector.print str "scales\n"
  %s2 = tensor.collapse_shape %s [[0], [1, 2]] : tensor<35x2x1xf32> into tensor<35x2xf32>
  %sm = bufferization.to_buffer %s2 : tensor<35x2xf32> to memref<35x2xf32>
  %su = memref.cast %sm : memref<35x2xf32> to memref<*xf32>
  call @printMemrefF32(%su) : (memref<*xf32>) -> ()
  // The number of codes equal to 448 (0x7E): all 70 * 2 * 4 = 560.
  vector.print str "codes\n"
  %bits = arith.bitcast %d : tensor<70x2x4xf8E4M3FN> to tensor<70x2x4xi8>
  %zero = arith.constant 0 : i32
  %ec = tensor.empty() : tensor<i32>
  %init = linalg.fill ins(%zero : i32) outs(%ec : tensor<i32>) -> tensor<i32>
  %count = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1, d2) -> ()>], iterator_types = ["reduction", "reduction", "reduction"]} ins(%bits : tensor<70x2x4xi8>) outs(%init : tensor<i32>) {
  ^bb0(%c: i8, %acc: i32):
    %k = arith.constant 126 : i8
    %eq = arith.cmpi eq, %c, %k : i8
    %one = arith.extui %eq : i1 to i32
    %n = arith.addi %acc, %one : i32
    linalg.yield %n : i32
  } -> tensor<i32>
  %n = tensor.extract %count[] : tensor<i32>
  vector.print %n : i32
  return
}
