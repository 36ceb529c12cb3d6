// fp8.grouped_scaled_matmul k_grouped (the MoE Wgrad: each expert's tokens a
// K range) lowered by fp8-cpu-pipeline and run on the CPU, against values
// derived by hand. T = 700 tokens in six K blocks (the last of 60 tokens),
// G = 4, M = 3, N = 5, group_ids by K block [0, 0, -1, 2, 2, 1]: group 0
// and group 2 two blocks each, a padding block, group 1 the 60-token tail,
// group 3 empty.
//
// Operands (assembled, so every product is exact): the codes of a are 1,
// of b 1 + (t mod 2) (1.0 or 2.0, padding tokens included: their products
// would show); a's scales sa[m, kb] = (m + 1) 2^kb, b's sb[n, kb] = n + 1.
// A full block's partial sum is 64 * 1 + 64 * 2 = 192, the tail's (from an
// even token) 30 * 1 + 30 * 2 = 90, each promoted with (m + 1)(n + 1) 2^kb,
// so D[g, m, n] = (m + 1)(n + 1) S[g] with
//   S[0] = 192 * 1 + 192 * 2 = 576      (blocks 0, 1)
//   S[1] = 90 * 32 = 2880               (block 5)
//   S[2] = 192 * 8 + 192 * 16 = 4608    (blocks 3, 4)
//   S[3] = 0                            (no tokens: +0.0, or C)
// (the padding block would add 192 * 4 = 768). Every value is an integer
// below 2^24: exact in f32, whatever the order of the additions.
// Cases: f32 without C; f32 with C = 0.5 (D = 0.5 + ..., group 3 = 0.5);
// bf16 with a bf16 C = -1 (the reference: truncf(-1 + ...), RNE, what the
// promotion's final rounding of the exact f32 sum gives); the same with a
// run-time T. Printed per case: differing elements (bits), then D[2, 2, 4]
// = 3 * 5 * 4608 = 69120 (+ C).
//
// RUN: fp8-opt %s --fp8-cpu-pipeline | %fp8_run | FileCheck %s
// RUN: fp8-opt %s --fp8-cpu-pipeline=tiled=false | %fp8_run | FileCheck %s

// CHECK: 0
// CHECK-NEXT: 69120
// CHECK-NEXT: 0
// CHECK-NEXT: 69120.5
// CHECK-NEXT: 0
// CHECK-NEXT: 0
// CHECK-NOT: {{.}}

#id2 = affine_map<(i, j) -> (i, j)>
#id3 = affine_map<(g, i, j) -> (g, i, j)>
#red3 = affine_map<(g, i, j) -> ()>

!a = !fp8.scaled<3x700xf8E4M3FN, block = [1, 128], scale = f32>
!b = !fp8.scaled<5x700xf8E4M3FN, block = [1, 128], scale = f32>
!ad = !fp8.scaled<3x?xf8E4M3FN, block = [1, 128], scale = f32>
!bd = !fp8.scaled<5x?xf8E4M3FN, block = [1, 128], scale = f32>

func.func @operands() -> (!a, !b, tensor<700xi32>) {
  %ea = tensor.empty() : tensor<3x700xf8E4M3FN>
  %ca = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]} outs(%ea : tensor<3x700xf8E4M3FN>) {
  ^bb0(%o: f8E4M3FN):
    %one = arith.constant 1.0 : f8E4M3FN
    linalg.yield %one : f8E4M3FN
  } -> tensor<3x700xf8E4M3FN>
  %eb = tensor.empty() : tensor<5x700xf8E4M3FN>
  %cb = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]} outs(%eb : tensor<5x700xf8E4M3FN>) {
  ^bb0(%o: f8E4M3FN):
    %t = linalg.index 1 : index
    %ti = arith.index_cast %t : index to i32
    %c1 = arith.constant 1 : i32
    %odd = arith.andi %ti, %c1 : i32
    %v = arith.addi %odd, %c1 : i32
    %vf = arith.sitofp %v : i32 to f32
    %v8 = arith.truncf %vf : f32 to f8E4M3FN
    linalg.yield %v8 : f8E4M3FN
  } -> tensor<5x700xf8E4M3FN>
  %sa = arith.constant dense<[[1.0, 2.0, 4.0, 8.0, 16.0, 32.0],
                              [2.0, 4.0, 8.0, 16.0, 32.0, 64.0],
                              [3.0, 6.0, 12.0, 24.0, 48.0, 96.0]]> : tensor<3x6xf32>
  %sb = arith.constant dense<[[1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
                              [2.0, 2.0, 2.0, 2.0, 2.0, 2.0],
                              [3.0, 3.0, 3.0, 3.0, 3.0, 3.0],
                              [4.0, 4.0, 4.0, 4.0, 4.0, 4.0],
                              [5.0, 5.0, 5.0, 5.0, 5.0, 5.0]]> : tensor<5x6xf32>
  %qa = fp8.assemble %ca, %sa : tensor<3x700xf8E4M3FN>, tensor<3x6xf32> -> !a
  %qb = fp8.assemble %cb, %sb : tensor<5x700xf8E4M3FN>, tensor<5x6xf32> -> !b
  // Blocks [0, 0, -1, 2, 2, 1]: tokens 0-255 group 0, 256-383 padding,
  // 384-639 group 2, 640-699 group 1.
  %c128 = arith.constant 128 : index
  %blockIds = arith.constant dense<[0, 0, -1, 2, 2, 1]> : tensor<6xi32>
  %ids0 = tensor.empty() : tensor<700xi32>
  %ids = linalg.generic {indexing_maps = [affine_map<(t) -> (t)>], iterator_types = ["parallel"]} outs(%ids0 : tensor<700xi32>) {
  ^bb0(%o: i32):
    %t = linalg.index 0 : index
    %kb = arith.divui %t, %c128 : index
    %g = tensor.extract %blockIds[%kb] : tensor<6xi32>
    linalg.yield %g : i32
  } -> tensor<700xi32>
  return %qa, %qb, %ids : !a, !b, tensor<700xi32>
}

// The reference: D[g, m, n] = (m + 1)(n + 1) S[g] + c, rounded to bf16 when
// `bf16` (then widened back for the comparison).
func.func @reference(%c: f32, %bf16: i1) -> tensor<4x3x5xf32> {
  %s = arith.constant dense<[576.0, 2880.0, 4608.0, 0.0]> : tensor<4xf32>
  %e = tensor.empty() : tensor<4x3x5xf32>
  %r = linalg.generic {indexing_maps = [#id3], iterator_types = ["parallel", "parallel", "parallel"]} outs(%e : tensor<4x3x5xf32>) {
  ^bb0(%o: f32):
    %g = linalg.index 0 : index
    %m = linalg.index 1 : index
    %n = linalg.index 2 : index
    %sg = tensor.extract %s[%g] : tensor<4xf32>
    %mi = arith.index_cast %m : index to i32
    %ni = arith.index_cast %n : index to i32
    %c1 = arith.constant 1 : i32
    %m1 = arith.addi %mi, %c1 : i32
    %n1 = arith.addi %ni, %c1 : i32
    %mn = arith.muli %m1, %n1 : i32
    %mnf = arith.sitofp %mn : i32 to f32
    %p = arith.mulf %mnf, %sg : f32
    %v = arith.addf %p, %c : f32
    %vb = arith.truncf %v : f32 to bf16
    %vw = arith.extf %vb : bf16 to f32
    %out = arith.select %bf16, %vw, %v : f32
    linalg.yield %out : f32
  } -> tensor<4x3x5xf32>
  return %r : tensor<4x3x5xf32>
}

// Elements whose bits differ; then D[2, 2, 4].
func.func @compare(%ref: tensor<4x3x5xf32>, %got: tensor<4x3x5xf32>) {
  %c0 = arith.constant 0 : i64
  %e = tensor.empty() : tensor<i64>
  %z = linalg.fill ins(%c0 : i64) outs(%e : tensor<i64>) -> tensor<i64>
  %r = linalg.generic {indexing_maps = [#id3, #id3, #red3], iterator_types = ["reduction", "reduction", "reduction"]} ins(%ref, %got : tensor<4x3x5xf32>, tensor<4x3x5xf32>) outs(%z : tensor<i64>) {
  ^bb0(%a: f32, %b: f32, %diff: i64):
    %ai = arith.bitcast %a : f32 to i32
    %bi = arith.bitcast %b : f32 to i32
    %ne = arith.cmpi ne, %ai, %bi : i32
    %d1 = arith.extui %ne : i1 to i64
    %d = arith.addi %diff, %d1 : i64
    linalg.yield %d : i64
  } -> tensor<i64>
  %diffs = tensor.extract %r[] : tensor<i64>
  vector.print %diffs : i64
  return
}

func.func @print(%d: tensor<4x3x5xf32>) {
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %v = tensor.extract %d[%c2, %c2, %c4] : tensor<4x3x5xf32>
  vector.print %v : f32
  return
}

func.func @widen(%d: tensor<4x3x5xbf16>) -> tensor<4x3x5xf32> {
  %e = tensor.empty() : tensor<4x3x5xf32>
  %w = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%d : tensor<4x3x5xbf16>) outs(%e : tensor<4x3x5xf32>) {
  ^bb0(%x: bf16, %o: f32):
    %y = arith.extf %x : bf16 to f32
    linalg.yield %y : f32
  } -> tensor<4x3x5xf32>
  return %w : tensor<4x3x5xf32>
}

// A run-time T: the same operands through dynamic types.
func.func @dynamic(%qa: !a, %qb: !b, %ids: tensor<?xi32>, %c: tensor<4x3x5xbf16>) -> tensor<4x3x5xbf16> {
  %ca, %sa = fp8.disassemble %qa : !a
  %cb, %sb = fp8.disassemble %qb : !b
  %cad = tensor.cast %ca : tensor<3x700xf8E4M3FN> to tensor<3x?xf8E4M3FN>
  %sad = tensor.cast %sa : tensor<3x6xf32> to tensor<3x?xf32>
  %cbd = tensor.cast %cb : tensor<5x700xf8E4M3FN> to tensor<5x?xf8E4M3FN>
  %sbd = tensor.cast %sb : tensor<5x6xf32> to tensor<5x?xf32>
  %a = fp8.assemble %cad, %sad : tensor<3x?xf8E4M3FN>, tensor<3x?xf32> -> !ad
  %b = fp8.assemble %cbd, %sbd : tensor<5x?xf8E4M3FN>, tensor<5x?xf32> -> !bd
  %d = fp8.grouped_scaled_matmul k_grouped %a, %b group_ids(%ids : tensor<?xi32>) acc(%c : tensor<4x3x5xbf16>) : !ad, !bd -> tensor<4x3x5xbf16>
  return %d : tensor<4x3x5xbf16>
}

func.func @main() {
  %qa, %qb, %ids = call @operands() : () -> (!a, !b, tensor<700xi32>)
  %false = arith.constant false
  %true = arith.constant true
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %m1 = arith.constant -1.0 : f32

  %d0 = fp8.grouped_scaled_matmul k_grouped %qa, %qb group_ids(%ids : tensor<700xi32>) : !a, !b -> tensor<4x3x5xf32>
  %r0 = call @reference(%zero, %false) : (f32, i1) -> tensor<4x3x5xf32>
  call @compare(%r0, %d0) : (tensor<4x3x5xf32>, tensor<4x3x5xf32>) -> ()
  call @print(%d0) : (tensor<4x3x5xf32>) -> ()

  %c05 = arith.constant dense<0.5> : tensor<4x3x5xf32>
  %d1 = fp8.grouped_scaled_matmul k_grouped %qa, %qb group_ids(%ids : tensor<700xi32>) acc(%c05 : tensor<4x3x5xf32>) : !a, !b -> tensor<4x3x5xf32>
  %r1 = call @reference(%half, %false) : (f32, i1) -> tensor<4x3x5xf32>
  call @compare(%r1, %d1) : (tensor<4x3x5xf32>, tensor<4x3x5xf32>) -> ()
  call @print(%d1) : (tensor<4x3x5xf32>) -> ()

  %cm1 = arith.constant dense<-1.0> : tensor<4x3x5xbf16>
  %d2 = fp8.grouped_scaled_matmul k_grouped %qa, %qb group_ids(%ids : tensor<700xi32>) acc(%cm1 : tensor<4x3x5xbf16>) : !a, !b -> tensor<4x3x5xbf16>
  %r2 = call @reference(%m1, %true) : (f32, i1) -> tensor<4x3x5xf32>
  %w2 = call @widen(%d2) : (tensor<4x3x5xbf16>) -> tensor<4x3x5xf32>
  call @compare(%r2, %w2) : (tensor<4x3x5xf32>, tensor<4x3x5xf32>) -> ()

  %dids = tensor.cast %ids : tensor<700xi32> to tensor<?xi32>
  %d3 = call @dynamic(%qa, %qb, %dids, %cm1) : (!a, !b, tensor<?xi32>, tensor<4x3x5xbf16>) -> tensor<4x3x5xbf16>
  %w3 = call @widen(%d3) : (tensor<4x3x5xbf16>) -> tensor<4x3x5xf32>
  call @compare(%r2, %w3) : (tensor<4x3x5xf32>, tensor<4x3x5xf32>) -> ()
  return
}
