#!/usr/bin/env python3
"""Emits one runner module for scaled-matmul-tiled-kernel.test: several
fp8.scaled_matmul cases (shape, blocks, format, promotion interval) on inputs
hashed from (seed, i, j) and quantized by fp8.quantize, each followed by the
digest of its bf16 result and of its f32 result (tiled_scaled_matmul_case.py's
@fill and @digest; @digest32, the same digest of f32 bit patterns, shows a
difference of one f32 ulp that bf16 rounding would hide).

The same module runs through the reference generics
(fp8-cpu-pipeline{tiled=0}) and through the tiled kernel, sequential and with
threads; the test diffs the digests. Only input-generating and printing code
is emitted here: the expected values come from the reference lowering.

With --widen, each case instead prints the digests of its bf16 result
widened to f32 (arith.extf), twice, without and with an f32 accumulator C:
"fused", the result's only use being the widening (the tiled kernel stores
it widened), and "unfused", the rounded result used by the widening and by
a bf16 digest (the tiled kernel stores bf16, widened in a second pass); the
two digests must be equal (scaled-matmul-tiled-widen.test).

Usage: tiled_kernel_cases.py [--widen]
"""
import os
import string
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tiled_scaled_matmul_case import PRELUDE  # noqa: E402


def digest32():
    """tiled_scaled_matmul_case.py's @digest on the bits of an f32 tensor."""
    start = PRELUDE.index("func.func @digest(")
    text = PRELUDE[start:PRELUDE.index("\n}\n", start) + 3]
    for old, new in (("@digest(", "@digest32("), ("tensor<?x?xbf16>", "tensor<?x?xf32>"),
                     ("tensor<?x?xi16>", "tensor<?x?xi32>"), ("%v: i16", "%v: i32"),
                     ("%bits = arith.extui %v : i16 to i32", "%bits = arith.bitcast %v : i32 to i32")):
        assert old in text, old
        text = text.replace(old, new)
    return text

# (M, N, K, A block, B block, A format, B format, promote_interval): M, N and
# K off the 4 x 24 register tile and the 128 interval; K < 128, K = 136 (one
# full interval and a tail of 8), K = 1; E5M2 and mixed formats; blocks
# narrower and wider than the tile; an interval of 256 and of 32; M and N
# spanning several 128 x 96 chunks of the kernel's threads, with tails.
CASES = [
    (37, 50, 100, (1, 128), (128, 128), "E4M3FN", "E4M3FN", 128),
    (5, 25, 136, (1, 128), (128, 128), "E4M3FN", "E4M3FN", 128),
    (1, 1, 1, (1, 128), (128, 128), "E4M3FN", "E4M3FN", 128),
    (9, 47, 300, (1, 128), (128, 128), "E5M2", "E4M3FN", 128),
    (13, 70, 520, (1, 256), (16, 256), "E4M3FN", "E5M2", 256),
    (6, 30, 96, (3, 32), (1, 32), "E5M2", "E5M2", 32),
    (130, 131, 264, (1, 128), (128, 128), "E4M3FN", "E4M3FN", 128),
    (257, 200, 160, (1, 128), (128, 128), "E4M3FN", "E4M3FN", 128),
]

CASE = string.Template(r"""
  %ea${I} = tensor.empty() : tensor<${M}x${K}xf32>
  %eb${I} = tensor.empty() : tensor<${N}x${K}xf32>
  %da${I} = tensor.cast %ea${I} : tensor<${M}x${K}xf32> to tensor<?x?xf32>
  %db${I} = tensor.cast %eb${I} : tensor<${N}x${K}xf32> to tensor<?x?xf32>
  %sa${I} = arith.constant ${SA} : i32
  %sb${I} = arith.constant ${SB} : i32
  %xa0${I} = call @fill(%da${I}, %sa${I}) : (tensor<?x?xf32>, i32) -> tensor<?x?xf32>
  %xb0${I} = call @fill(%db${I}, %sb${I}) : (tensor<?x?xf32>, i32) -> tensor<?x?xf32>
  %xa${I} = tensor.cast %xa0${I} : tensor<?x?xf32> to tensor<${M}x${K}xf32>
  %xb${I} = tensor.cast %xb0${I} : tensor<?x?xf32> to tensor<${N}x${K}xf32>
  %qa${I} = fp8.quantize %xa${I} : tensor<${M}x${K}xf32> -> ${TA}
  %qb${I} = fp8.quantize %xb${I} : tensor<${N}x${K}xf32> -> ${TB}
  %d${I} = fp8.scaled_matmul %qa${I}, %qb${I} {promote_interval = ${P} : i64} : ${TA}, ${TB} -> tensor<${M}x${N}xbf16>
  %dd${I} = tensor.cast %d${I} : tensor<${M}x${N}xbf16> to tensor<?x?xbf16>
  vector.print str "case${I} m${M}_n${N}_k${K}\n"
  call @digest(%dd${I}) : (tensor<?x?xbf16>) -> ()
  %f${I} = fp8.scaled_matmul %qa${I}, %qb${I} {promote_interval = ${P} : i64} : ${TA}, ${TB} -> tensor<${M}x${N}xf32>
  %ff${I} = tensor.cast %f${I} : tensor<${M}x${N}xf32> to tensor<?x?xf32>
  vector.print str "f32\n"
  call @digest32(%ff${I}) : (tensor<?x?xf32>) -> ()
""")


# --widen: the inputs of CASE, then per accumulator (none, C) a widening
# that is the bf16 result's only use and one that is not.
WIDEN_INPUTS = CASE.template[:CASE.template.index("  %d${I} =")] + r"""
  %ec${I} = tensor.empty() : tensor<${M}x${N}xf32>
  %dc${I} = tensor.cast %ec${I} : tensor<${M}x${N}xf32> to tensor<?x?xf32>
  %sc${I} = arith.constant ${SC} : i32
  %xc0${I} = call @fill(%dc${I}, %sc${I}) : (tensor<?x?xf32>, i32) -> tensor<?x?xf32>
  %c${I} = tensor.cast %xc0${I} : tensor<?x?xf32> to tensor<${M}x${N}xf32>
"""
WIDEN = r"""
  %w${J} = fp8.scaled_matmul %qa${I}, %qb${I}${ACC} {promote_interval = ${P} : i64} : ${TA}, ${TB} -> tensor<${M}x${N}xbf16>
  %we${J} = arith.extf %w${J} : tensor<${M}x${N}xbf16> to tensor<${M}x${N}xf32>
  %wd${J} = tensor.cast %we${J} : tensor<${M}x${N}xf32> to tensor<?x?xf32>
  vector.print str "case${J} m${M}_n${N}_k${K} fused\n"
  call @digest32(%wd${J}) : (tensor<?x?xf32>) -> ()
  %u${J} = fp8.scaled_matmul %qa${I}, %qb${I}${ACC} {promote_interval = ${P} : i64} : ${TA}, ${TB} -> tensor<${M}x${N}xbf16>
  %ue${J} = arith.extf %u${J} : tensor<${M}x${N}xbf16> to tensor<${M}x${N}xf32>
  %ud${J} = tensor.cast %ue${J} : tensor<${M}x${N}xf32> to tensor<?x?xf32>
  vector.print str "unfused\n"
  call @digest32(%ud${J}) : (tensor<?x?xf32>) -> ()
  %uu${J} = tensor.cast %u${J} : tensor<${M}x${N}xbf16> to tensor<?x?xbf16>
  vector.print str "bf16\n"
  call @digest(%uu${J}) : (tensor<?x?xbf16>) -> ()
"""


def main():
    widen = sys.argv[1:] == ["--widen"]
    if sys.argv[1:] and not widen:
        sys.exit("usage: tiled_kernel_cases.py [--widen]")
    sys.stdout.write(PRELUDE)
    sys.stdout.write(digest32())
    sys.stdout.write("func.func @main() {")
    for i, (m, n, k, ab, bb, fa, fb, p) in enumerate(CASES):
        ta = f"!fp8.scaled<{m}x{k}xf8{fa}, block = [{ab[0]}, {ab[1]}], scale = f32>"
        tb = f"!fp8.scaled<{n}x{k}xf8{fb}, block = [{bb[0]}, {bb[1]}], scale = f32>"
        subs = dict(I=i, M=m, N=n, K=k, TA=ta, TB=tb, P=p, SA=1017 + 2 * i, SB=2031 + 2 * i)
        if not widen:
            sys.stdout.write(CASE.substitute(subs))
            continue
        sys.stdout.write(string.Template(WIDEN_INPUTS).substitute(subs, SC=3041 + 2 * i))
        for j, acc in ((f"{i}", ""), (f"{i}c", f" acc(%c{i} : tensor<{m}x{n}xf32>)")):
            sys.stdout.write(string.Template(WIDEN).substitute(subs, J=j, ACC=acc))
    sys.stdout.write("  return\n}\n")


if __name__ == "__main__":
    main()
