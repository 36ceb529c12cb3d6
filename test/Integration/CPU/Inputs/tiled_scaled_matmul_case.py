#!/usr/bin/env python3
"""Emits one runner test case for tiled-scaled-matmul-*.test: an M x N x K
fp8.scaled_matmul (A [M, K] in 1x128 tiles, B [N, K] in 128x128 blocks, E4M3FN,
f32 scales, bf16 result) on inputs hashed from (seed, i, j) and quantized by
fp8.quantize, followed by a digest of the result's bf16 bits (the count of
elements that are not +0 and an order-independent checksum).

The same module goes through the reference lowering and through
fp8-tile-scaled-matmul; the test diffs the two digests. Only input-generating
and printing code is emitted here: the expected values come from the reference
lowering, the oracle under test is the tiled schedule.

Usage: tiled_scaled_matmul_case.py M N K
"""
import string
import sys

# The fill's linalg.generic over (i, j) of %t, up to the hash of (seed, i, j)
# in its body (%seed in scope): %w a uniform value in [-0.5, 0.5), %mag a
# power of two 2^-3 .. 2^12 (tiled_quantize_cases.py builds its special
# values on the same mix).
HASH = r"""  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      outs(%t : tensor<?x?xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i32
    %jj = arith.index_cast %j : index to i32
    %k1 = arith.constant 40503 : i32
    %k2 = arith.constant -1640531535 : i32
    %k3 = arith.constant 1540483477 : i32
    %a = arith.muli %ii, %k1 : i32
    %b = arith.addi %a, %jj : i32
    %c = arith.muli %b, %k2 : i32
    %d = arith.xori %c, %seed : i32
    %s13 = arith.constant 13 : i32
    %d1 = arith.shrui %d, %s13 : i32
    %f = arith.xori %d, %d1 : i32
    %g = arith.muli %f, %k3 : i32
    %s15 = arith.constant 15 : i32
    %g1 = arith.shrui %g, %s15 : i32
    %h = arith.xori %g, %g1 : i32
    %mask = arith.constant 65535 : i32
    %lo = arith.andi %h, %mask : i32
    %lof = arith.uitofp %lo : i32 to f32
    %inv = arith.constant 1.52587890625e-05 : f32
    %u = arith.mulf %lof, %inv : f32
    %half = arith.constant 0.5 : f32
    %w = arith.subf %u, %half : f32
    %s16 = arith.constant 16 : i32
    %hi = arith.shrui %h, %s16 : i32
    %m15 = arith.constant 15 : i32
    %ex = arith.andi %hi, %m15 : i32
    %exf = arith.uitofp %ex : i32 to f32
    %three = arith.constant 3.0 : f32
    %pw = arith.subf %exf, %three : f32
    %mag = math.exp2 %pw : f32
"""

PRELUDE = r"""func.func private @printMemrefI32(memref<*xi32>)

// Fills a tensor with a hash of (seed, i, j): magnitudes 2^-4 .. 2^11, signs mixed.
func.func private @fill(%t: tensor<?x?xf32>, %seed: i32) -> tensor<?x?xf32> {
""" + HASH + r"""    %x = arith.mulf %w, %mag : f32
    linalg.yield %x : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// Prints the digest of an output: the number of elements whose bf16 bits are
// not +0, and an order-independent checksum of the bits (the sum over (i, j),
// wrapping in i32, of a multiplicative mix of bits ^ (i * 2^16 + j)), the same
// for any schedule that produces the same bits.
func.func @digest(%t: tensor<?x?xbf16>) {
  %i16 = arith.bitcast %t : tensor<?x?xbf16> to tensor<?x?xi16>
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<i32>
  %init = linalg.fill ins(%z : i32) outs(%e : tensor<i32>) -> tensor<i32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>,
                                          affine_map<(i, j) -> ()>],
                         iterator_types = ["reduction", "reduction"]}
      ins(%i16 : tensor<?x?xi16>) outs(%init, %init : tensor<i32>, tensor<i32>) {
  ^bb0(%v: i16, %sum: i32, %count: i32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i32
    %jj = arith.index_cast %j : index to i32
    %s16 = arith.constant 16 : i32
    %row = arith.shli %ii, %s16 : i32
    %pos = arith.addi %row, %jj : i32
    %bits = arith.extui %v : i16 to i32
    %x = arith.xori %bits, %pos : i32
    %k = arith.constant -1640531535 : i32
    %m = arith.muli %x, %k : i32
    %s15 = arith.constant 15 : i32
    %m1 = arith.shrui %m, %s15 : i32
    %mix = arith.xori %m, %m1 : i32
    %sum1 = arith.addi %sum, %mix : i32
    %zero = arith.constant 0 : i32
    %nz = arith.cmpi ne, %bits, %zero : i32
    %one = arith.extui %nz : i1 to i32
    %count1 = arith.addi %count, %one : i32
    linalg.yield %sum1, %count1 : i32, i32
  } -> (tensor<i32>, tensor<i32>)
  %sum = tensor.extract %r#0[] : tensor<i32>
  %count = tensor.extract %r#1[] : tensor<i32>
  vector.print str "nonzero "
  vector.print %count : i32
  vector.print str "checksum "
  vector.print %sum : i32
  return
}

"""

MAIN = string.Template(r"""func.func @main() {
  %ea = tensor.empty() : tensor<${M}x${K}xf32>
  %eb = tensor.empty() : tensor<${N}x${K}xf32>
  %da = tensor.cast %ea : tensor<${M}x${K}xf32> to tensor<?x?xf32>
  %db = tensor.cast %eb : tensor<${N}x${K}xf32> to tensor<?x?xf32>
  %sa = arith.constant 1017 : i32
  %sb = arith.constant 2031 : i32
  %xa0 = call @fill(%da, %sa) : (tensor<?x?xf32>, i32) -> tensor<?x?xf32>
  %xb0 = call @fill(%db, %sb) : (tensor<?x?xf32>, i32) -> tensor<?x?xf32>
  %xa = tensor.cast %xa0 : tensor<?x?xf32> to tensor<${M}x${K}xf32>
  %xb = tensor.cast %xb0 : tensor<?x?xf32> to tensor<${N}x${K}xf32>
  %qa = fp8.quantize %xa : tensor<${M}x${K}xf32> -> ${TA}
  %qb = fp8.quantize %xb : tensor<${N}x${K}xf32> -> ${TB}
  %d = fp8.scaled_matmul %qa, %qb : ${TA}, ${TB} -> tensor<${M}x${N}xbf16>
  %dd = tensor.cast %d : tensor<${M}x${N}xbf16> to tensor<?x?xbf16>
  vector.print str "m${M}_n${N}_k${K}\n"
  call @digest(%dd) : (tensor<?x?xbf16>) -> ()
  return
}
""")


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: tiled_scaled_matmul_case.py M N K")
    m, n, k = (int(v) for v in sys.argv[1:])
    ta = f"!fp8.scaled<{m}x{k}xf8E4M3FN, block = [1, 128], scale = f32>"
    tb = f"!fp8.scaled<{n}x{k}xf8E4M3FN, block = [128, 128], scale = f32>"
    sys.stdout.write(PRELUDE)
    sys.stdout.write(MAIN.substitute(M=m, N=n, K=k, TA=ta, TB=tb))


if __name__ == "__main__":
    main()
