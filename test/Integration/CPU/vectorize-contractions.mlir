// fp8-cpu-pipeline{vectorize-contractions=true}: high-precision linalg.matmul
// and linalg.batch_matmul (f32 and bf16 operands, f32 results) as vector
// register tiles, run on the CPU against the same products written as a
// plain linalg.generic (which the pass leaves alone, lowered to scalar loops).
// Integer inputs of a few units: every product and sum is exact, so the
// counts of differing results must be 0 whatever the summation order or FMA;
// a wrong tile offset, a lost row or column, a transposed operand shows.
//
// RUN: fp8-opt %s --fp8-cpu-pipeline=vectorize-contractions=true | %fp8_run | FileCheck %s
// The same module without the option (the scalar loops on both sides).
// RUN: fp8-opt %s --fp8-cpu-pipeline | %fp8_run | FileCheck %s

// CHECK: matmul 6x5x40 mismatches 0
// CHECK: batch_matmul 3x16x7x64 mismatches 0
// CHECK: bf16 matmul 8x9x16 mismatches 0
// CHECK: matmul 4x3x7 (not tiled) mismatches 0

#id2 = affine_map<(i, j) -> (i, j)>
#id3 = affine_map<(b, i, j) -> (b, i, j)>

// x[i, j] = (p * i + q * j) mod 7 - 3, a few units, exact in bf16 too.
func.func @ints2(%p: index, %q: index, %t: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]}
      outs(%t : tensor<?x?xf32>) {
    ^bb0(%o: f32):
      %i = linalg.index 0 : index
      %j = linalg.index 1 : index
      %a = arith.muli %i, %p : index
      %b = arith.muli %j, %q : index
      %s = arith.addi %a, %b : index
      %c7 = arith.constant 7 : index
      %m = arith.remui %s, %c7 : index
      %n = arith.index_cast %m : index to i32
      %f = arith.sitofp %n : i32 to f32
      %c3 = arith.constant 3.0 : f32
      %v = arith.subf %f, %c3 : f32
      linalg.yield %v : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// The number of elements of %x and %y that differ.
func.func @count(%x: tensor<?x?xf32>, %y: tensor<?x?xf32>) -> i32 {
  %zero = arith.constant 0 : i32
  %init = tensor.empty() : tensor<i32>
  %acc = linalg.fill ins(%zero : i32) outs(%init : tensor<i32>) -> tensor<i32>
  %r = linalg.generic {indexing_maps = [#id2, #id2, affine_map<(i, j) -> ()>],
                       iterator_types = ["reduction", "reduction"]}
      ins(%x, %y : tensor<?x?xf32>, tensor<?x?xf32>) outs(%acc : tensor<i32>) {
    ^bb0(%a: f32, %b: f32, %c: i32):
      %ne = arith.cmpf une, %a, %b : f32
      %one = arith.constant 1 : i32
      %z = arith.constant 0 : i32
      %d = arith.select %ne, %one, %z : i32
      %s = arith.addi %c, %d : i32
      linalg.yield %s : i32
  } -> tensor<i32>
  %v = tensor.extract %r[] : tensor<i32>
  return %v : i32
}

// C = A B as linalg.matmul and as a generic reduction; mismatches.
func.func @matmul(%m: index, %k: index, %n: index) -> i32 {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %ea = tensor.empty(%m, %k) : tensor<?x?xf32>
  %eb = tensor.empty(%k, %n) : tensor<?x?xf32>
  %ad = func.call @ints2(%c3, %c1, %ea) : (index, index, tensor<?x?xf32>) -> tensor<?x?xf32>
  %bd = func.call @ints2(%c2, %c3, %eb) : (index, index, tensor<?x?xf32>) -> tensor<?x?xf32>
  %zero = arith.constant 0.0 : f32
  %ec = tensor.empty(%m, %n) : tensor<?x?xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ec : tensor<?x?xf32>) -> tensor<?x?xf32>
  %ref = linalg.generic {indexing_maps = [affine_map<(i, j, l) -> (i, l)>, affine_map<(i, j, l) -> (l, j)>,
                                          affine_map<(i, j, l) -> (i, j)>],
                         iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%ad, %bd : tensor<?x?xf32>, tensor<?x?xf32>) outs(%z : tensor<?x?xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %o, %p : f32
      linalg.yield %s : f32
  } -> tensor<?x?xf32>
  %cnt = func.call @static_matmuls(%ad, %bd, %ref) : (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>) -> i32
  return %cnt : i32
}

// The pass tiles static shapes only: each case casts to its static type.
func.func @static_matmuls(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %ref: tensor<?x?xf32>) -> i32 {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  %is6 = arith.cmpi eq, %m, %c6 : index
  %is8 = arith.cmpi eq, %m, %c8 : index
  %r = scf.if %is6 -> i32 {
    %v = func.call @mm_6x5x40(%a, %b, %ref) : (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>) -> i32
    scf.yield %v : i32
  } else {
    %w = scf.if %is8 -> i32 {
      %v = func.call @mm_bf16_8x9x16(%a, %b, %ref) : (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>) -> i32
      scf.yield %v : i32
    } else {
      %v = func.call @mm_4x3x7(%a, %b, %ref) : (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>) -> i32
      scf.yield %v : i32
    }
    scf.yield %w : i32
  }
  return %r : i32
}

func.func @mm_6x5x40(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %ref: tensor<?x?xf32>) -> i32 {
  %as = tensor.cast %a : tensor<?x?xf32> to tensor<6x5xf32>
  %bs = tensor.cast %b : tensor<?x?xf32> to tensor<5x40xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<6x40xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<6x40xf32>) -> tensor<6x40xf32>
  %c = linalg.matmul ins(%as, %bs : tensor<6x5xf32>, tensor<5x40xf32>) outs(%z : tensor<6x40xf32>) -> tensor<6x40xf32>
  %cd = tensor.cast %c : tensor<6x40xf32> to tensor<?x?xf32>
  %n = func.call @count(%cd, %ref) : (tensor<?x?xf32>, tensor<?x?xf32>) -> i32
  return %n : i32
}

func.func @mm_bf16_8x9x16(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %ref: tensor<?x?xf32>) -> i32 {
  %as = tensor.cast %a : tensor<?x?xf32> to tensor<8x9xf32>
  %bs = tensor.cast %b : tensor<?x?xf32> to tensor<9x16xf32>
  %ab = arith.truncf %as : tensor<8x9xf32> to tensor<8x9xbf16>
  %bb = arith.truncf %bs : tensor<9x16xf32> to tensor<9x16xbf16>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %c = linalg.matmul ins(%ab, %bb : tensor<8x9xbf16>, tensor<9x16xbf16>) outs(%z : tensor<8x16xf32>) -> tensor<8x16xf32>
  %cd = tensor.cast %c : tensor<8x16xf32> to tensor<?x?xf32>
  %n = func.call @count(%cd, %ref) : (tensor<?x?xf32>, tensor<?x?xf32>) -> i32
  return %n : i32
}

func.func @mm_4x3x7(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %ref: tensor<?x?xf32>) -> i32 {
  %as = tensor.cast %a : tensor<?x?xf32> to tensor<4x3xf32>
  %bs = tensor.cast %b : tensor<?x?xf32> to tensor<3x7xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x7xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x7xf32>) -> tensor<4x7xf32>
  %c = linalg.matmul ins(%as, %bs : tensor<4x3xf32>, tensor<3x7xf32>) outs(%z : tensor<4x7xf32>) -> tensor<4x7xf32>
  %cd = tensor.cast %c : tensor<4x7xf32> to tensor<?x?xf32>
  %n = func.call @count(%cd, %ref) : (tensor<?x?xf32>, tensor<?x?xf32>) -> i32
  return %n : i32
}

// 3 x [16, 7] x [7, 64]: against a generic over the batch.
func.func @batch() -> i32 {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c48 = arith.constant 48 : index
  %c7 = arith.constant 7 : index
  %c21 = arith.constant 21 : index
  %c64 = arith.constant 64 : index
  %ea = tensor.empty(%c48, %c7) : tensor<?x?xf32>
  %eb = tensor.empty(%c21, %c64) : tensor<?x?xf32>
  %ad = func.call @ints2(%c3, %c1, %ea) : (index, index, tensor<?x?xf32>) -> tensor<?x?xf32>
  %bd = func.call @ints2(%c2, %c3, %eb) : (index, index, tensor<?x?xf32>) -> tensor<?x?xf32>
  %as2 = tensor.cast %ad : tensor<?x?xf32> to tensor<48x7xf32>
  %bs2 = tensor.cast %bd : tensor<?x?xf32> to tensor<21x64xf32>
  %a = tensor.expand_shape %as2 [[0, 1], [2]] output_shape [3, 16, 7] : tensor<48x7xf32> into tensor<3x16x7xf32>
  %b = tensor.expand_shape %bs2 [[0, 1], [2]] output_shape [3, 7, 64] : tensor<21x64xf32> into tensor<3x7x64xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x16x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<3x16x64xf32>) -> tensor<3x16x64xf32>
  %c = linalg.batch_matmul ins(%a, %b : tensor<3x16x7xf32>, tensor<3x7x64xf32>) outs(%z : tensor<3x16x64xf32>) -> tensor<3x16x64xf32>
  %ref = linalg.generic {indexing_maps = [affine_map<(q, i, j, l) -> (q, i, l)>, affine_map<(q, i, j, l) -> (q, l, j)>,
                                          affine_map<(q, i, j, l) -> (q, i, j)>],
                         iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<3x16x7xf32>, tensor<3x7x64xf32>) outs(%z : tensor<3x16x64xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %o, %p : f32
      linalg.yield %s : f32
  } -> tensor<3x16x64xf32>
  %cf = tensor.collapse_shape %c [[0, 1], [2]] : tensor<3x16x64xf32> into tensor<48x64xf32>
  %rf = tensor.collapse_shape %ref [[0, 1], [2]] : tensor<3x16x64xf32> into tensor<48x64xf32>
  %cd = tensor.cast %cf : tensor<48x64xf32> to tensor<?x?xf32>
  %rd = tensor.cast %rf : tensor<48x64xf32> to tensor<?x?xf32>
  %n = func.call @count(%cd, %rd) : (tensor<?x?xf32>, tensor<?x?xf32>) -> i32
  return %n : i32
}

func.func @main() {
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %c9 = arith.constant 9 : index
  %c16 = arith.constant 16 : index
  %c40 = arith.constant 40 : index
  %n1 = func.call @matmul(%c6, %c5, %c40) : (index, index, index) -> i32
  vector.print str "matmul 6x5x40 mismatches "
  vector.print %n1 : i32
  %n2 = func.call @batch() : () -> i32
  vector.print str "batch_matmul 3x16x7x64 mismatches "
  vector.print %n2 : i32
  %n3 = func.call @matmul(%c8, %c9, %c16) : (index, index, index) -> i32
  vector.print str "bf16 matmul 8x9x16 mismatches "
  vector.print %n3 : i32
  %n4 = func.call @matmul(%c4, %c3, %c7) : (index, index, index) -> i32
  vector.print str "matmul 4x3x7 (not tiled) mismatches "
  vector.print %n4 : i32
  return
}
