#!/usr/bin/env python3
"""Emits one runner module for tiled-quantize.test: fp8.quantize,
fp8.dequantize and fp8.requantize cases on inputs hashed from (seed, i, j),
each followed by digests of its codes, scales and dequantized values.

Inputs (@fill_special): random signs and mantissas over 2^-4 .. 2^11, shifted
per row by 2^0, 2^-20 (amax below eps), 2^-125 (f32 subnormals, amax /
fmax not normal), 2^100 (codes saturate at the finite edge of a scale of
2^91) or 2^-60; and one element in 32 of one row in seven: NaN, -0.0, 464
and -61440 (the RNE overflow thresholds of E4M3FN and E5M2), and the largest
finite f32; of another row in seven: +Inf and -Inf. Cases: tails in rows and columns (sizes off 128 and
off the 8/16 vector lanes, fewer columns than a vector), blocks 1x128,
128x128, 3x32, 128x16 and a whole row; E4M3FN and E5M2; f32, pow2 and E8M0
scales; eps 1e-4, 1e-30 and 0; saturating and not; f32, bf16 and f16 input
and dequantized results (bf16 and f16 ones also widened to f32, as their only
use and not);
static and dynamic shapes; requantize with and without a transpose; and
rank 3 (blocks [1, 1, b]) and rank 1, which the kernels view as rank 2.

The same module runs through the reference generics
(fp8-cpu-pipeline{tiled=0}) and through the vectorised kernels, with 8 and 16
lanes, sequential and with threads; the test diffs the digests. Only
input-generating and printing code is emitted here: the expected values come
from the reference lowering.

Usage: tiled_quantize_cases.py
"""
import os
import string
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tiled_scaled_matmul_case import HASH  # noqa: E402

PRELUDE = r"""
// A hash of (seed, i, j) (tiled_scaled_matmul_case.py's mix), the row
// magnitude shift of row i, and the specials of the rows i % 7 == 3.
func.func private @fill_special(%t: tensor<?x?xf32>, %seed: i32) -> tensor<?x?xf32> {
""" + HASH + r"""    %x0 = arith.mulf %w, %mag : f32
    // Row shift: exact powers of two (multiplications by 2^k, k split so
    // that each factor is a normal f32).
    %c5 = arith.constant 5 : i32
    %rs = arith.remui %ii, %c5 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c3 = arith.constant 3 : i32
    %c4 = arith.constant 4 : i32
    %p0 = arith.constant 1.0 : f32
    %p1 = arith.constant 9.5367431640625e-07 : f32
    %p2 = arith.constant 2.3509887016445750e-38 : f32
    %p3 = arith.constant 1.2676506002282294e+30 : f32
    %p4 = arith.constant 8.6736173798840355e-19 : f32
    %e1 = arith.cmpi eq, %rs, %c1 : i32
    %e2 = arith.cmpi eq, %rs, %c2 : i32
    %e3 = arith.cmpi eq, %rs, %c3 : i32
    %e4 = arith.cmpi eq, %rs, %c4 : i32
    %q1 = arith.select %e1, %p1, %p0 : f32
    %q2 = arith.select %e2, %p2, %q1 : f32
    %q3 = arith.select %e3, %p3, %q2 : f32
    %q4 = arith.select %e4, %p4, %q3 : f32
    %x1 = arith.mulf %x0, %q4 : f32
    // 2^-125 and 2^100 take a second factor: 2^-126 * 2^1, 2^100 = 2^100.
    %two = arith.constant 2.0 : f32
    %q5 = arith.select %e2, %two, %p0 : f32
    %x2 = arith.mulf %x1, %q5 : f32
    // Specials, one element in 32 ((h >> 20) & 31 picks it): rows i % 7 == 3
    // get NaN, -0.0, 464, -61440 and the largest finite f32; rows i % 7 == 6
    // get +Inf and -Inf (kept apart, so that a NaN block has no Inf).
    %c7 = arith.constant 7 : i32
    %c6 = arith.constant 6 : i32
    %c0 = arith.constant 0 : i32
    %r7 = arith.remui %ii, %c7 : i32
    %sp = arith.cmpi eq, %r7, %c3 : i32
    %spi = arith.cmpi eq, %r7, %c6 : i32
    %s20 = arith.constant 20 : i32
    %h20 = arith.shrui %h, %s20 : i32
    %m31 = arith.constant 31 : i32
    %sel = arith.andi %h20, %m31 : i32
    %nan = arith.constant 0x7FC00000 : f32
    %pinf = arith.constant 0x7F800000 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %nz = arith.constant -0.0 : f32
    %t464 = arith.constant 464.0 : f32
    %t61440 = arith.constant -61440.0 : f32
    %big = arith.constant 3.40282347e+38 : f32
    %is0 = arith.cmpi eq, %sel, %c0 : i32
    %is1 = arith.cmpi eq, %sel, %c1 : i32
    %is2 = arith.cmpi eq, %sel, %c2 : i32
    %is3 = arith.cmpi eq, %sel, %c3 : i32
    %is4 = arith.cmpi eq, %sel, %c4 : i32
    %v0 = arith.select %is0, %nan, %x2 : f32
    %v1 = arith.select %is1, %nz, %v0 : f32
    %v2 = arith.select %is2, %t464, %v1 : f32
    %v3 = arith.select %is3, %t61440, %v2 : f32
    %v4 = arith.select %is4, %big, %v3 : f32
    %w0 = arith.select %is0, %pinf, %x2 : f32
    %w1 = arith.select %is1, %ninf, %w0 : f32
    %y = arith.select %sp, %v4, %x2 : f32
    %x = arith.select %spi, %w1, %y : f32
    linalg.yield %x : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// Prints the number of non-zero elements and an order-independent checksum
// of the (bits, i, j) of a tensor of bit patterns widened to i32.
func.func @digest(%t: tensor<?x?xi32>) {
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<i32>
  %init = linalg.fill ins(%z : i32) outs(%e : tensor<i32>) -> tensor<i32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>,
                                          affine_map<(i, j) -> ()>],
                         iterator_types = ["reduction", "reduction"]}
      ins(%t : tensor<?x?xi32>) outs(%init, %init : tensor<i32>, tensor<i32>) {
  ^bb0(%bits: i32, %sum: i32, %count: i32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i32
    %jj = arith.index_cast %j : index to i32
    %s16 = arith.constant 16 : i32
    %row = arith.shli %ii, %s16 : i32
    %pos = arith.addi %row, %jj : i32
    %k = arith.constant -1640531535 : i32
    %x = arith.xori %bits, %pos : i32
    %m = arith.muli %x, %k : i32
    %s15 = arith.constant 15 : i32
    %m1 = arith.shrui %m, %s15 : i32
    %mix = arith.xori %m, %m1 : i32
    %m2 = arith.muli %mix, %k : i32
    %sum1 = arith.addi %sum, %m2 : i32
    %zero = arith.constant 0 : i32
    %nz = arith.cmpi ne, %bits, %zero : i32
    %one = arith.extui %nz : i1 to i32
    %count1 = arith.addi %count, %one : i32
    linalg.yield %sum1, %count1 : i32, i32
  } -> (tensor<i32>, tensor<i32>)
  %sum = tensor.extract %r#0[] : tensor<i32>
  %count = tensor.extract %r#1[] : tensor<i32>
  vector.print %count : i32
  vector.print %sum : i32
  return
}
"""

# Digest of a tensor<?x?xT> by its bit patterns.
DIGEST = {
    "i8": "%{v}i = arith.bitcast %{v} : tensor<?x?x{t}> to tensor<?x?xi8>\n"
          "  %{v}w = arith.extui %{v}i : tensor<?x?xi8> to tensor<?x?xi32>",
    "i16": "%{v}i = arith.bitcast %{v} : tensor<?x?x{t}> to tensor<?x?xi16>\n"
           "  %{v}w = arith.extui %{v}i : tensor<?x?xi16> to tensor<?x?xi32>",
    "i32": "%{v}w = arith.bitcast %{v} : tensor<?x?x{t}> to tensor<?x?xi32>",
}
WIDTH = {"f8E4M3FN": "i8", "f8E5M2": "i8", "f8E8M0FNU": "i8", "bf16": "i16",
         "f16": "i16", "f32": "i32"}


def digest(label, v, shape_t, t):
    """Casts %v (tensor of `shape_t`) to ?x? and prints its digest."""
    lines = [f'  vector.print str "{label}\\n"']
    lines.append(f"  %{v}d = tensor.cast %{v}0 : {shape_t} to tensor<?x?x{t}>")
    lines.append("  " + DIGEST[WIDTH[t]].format(v=v + "d", t=t))
    lines.append(f"  call @digest(%{v}dw) : (tensor<?x?xi32>) -> ()")
    return "\n".join(lines)


# (rows, cols, block, format, scale type, scale mode, eps, saturate, input
# type, dynamic, requantize block, requantize permutation).
CASES = [
    (130, 300, (1, 128), "f8E4M3FN", "f32", "f32", "1.0e-04", True, "f32", False, (128, 128), True),
    (130, 300, (128, 128), "f8E4M3FN", "f32", "f32", "1.0e-04", True, "bf16", True, (1, 128), False),
    (37, 260, (1, 128), "f8E5M2", "f32", "pow2", "1.0e-30", True, "f16", False, (1, 128), True),
    (200, 136, (128, 128), "f8E4M3FN", "f8E8M0FNU", "pow2", "1.0e-04", True, "f32", False, (1, 32), False),
    (5, 100, (1, 100), "f8E4M3FN", "f32", "f32", "0.0", False, "f32", False, (5, 100), False),
    (70, 50, (3, 32), "f8E5M2", "f32", "f32", "1.0e-04", False, "bf16", True, (3, 32), True),
    (1, 7, (1, 128), "f8E4M3FN", "f32", "f32", "1.0e-04", True, "f32", False, (1, 128), False),
    (300, 64, (128, 16), "f8E4M3FN", "f32", "pow2", "0.0", True, "f32", False, (128, 16), False),
    (129, 128, (128, 128), "f8E5M2", "f8E8M0FNU", "pow2", "0.0", False, "bf16", False, (128, 128), True),
]

CASE = string.Template(r"""
  %e${I} = tensor.empty() : tensor<${R}x${C}xf32>
  %de${I} = tensor.cast %e${I} : tensor<${R}x${C}xf32> to tensor<?x?xf32>
  %seed${I} = arith.constant ${SEED} : i32
  %f${I} = call @fill_special(%de${I}, %seed${I}) : (tensor<?x?xf32>, i32) -> tensor<?x?xf32>
  %xs${I} = tensor.cast %f${I} : tensor<?x?xf32> to ${XF32}
  %x${I} = ${TOIN}
  %q${I} = fp8.quantize %x${I} {eps = ${EPS} : f32, scale_mode = #fp8.scale_mode<${MODE}>, saturate = ${SAT}} : ${XT} -> ${QT}
  %c${I}0, %s${I}0 = fp8.disassemble %q${I} : ${QT}
  vector.print str "case${I} ${R}x${C}\n"
${DC}
${DS}
  %y${I}0 = fp8.dequantize %q${I} : ${QT} -> ${YT}
${DY}
  %r${I} = fp8.requantize %q${I} {${PERM}scale_mode = #fp8.scale_mode<${MODE}>, saturate = ${SAT}} : ${QT} -> ${RT}
  %rc${I}0, %rs${I}0 = fp8.disassemble %r${I} : ${RT}
${DRC}
${DRS}
""")


# Rank 3 [A, B, C] (blocks [1, 1, b]: viewed as rank 2 [A * B, C]) and
# rank 1 [C] (blocks [b]: one row): (A, B, C, b, input type, requantize
# block); the input is filled as [A * B, C] (rank 1: [1, C]) and reshaped.
RANK_CASES = [
    (3, 5, 300, 128, "f32", 32),
    (2, 7, 70, 32, "bf16", 128),
    (0, 0, 1000, 128, "f32", 64),
    (0, 0, 37, 16, "f16", 128),
]

RANK3 = string.Template(r"""
  %e${I} = tensor.empty() : tensor<${AB}x${C}xf32>
  %de${I} = tensor.cast %e${I} : tensor<${AB}x${C}xf32> to tensor<?x?xf32>
  %seed${I} = arith.constant ${SEED} : i32
  %f${I} = call @fill_special(%de${I}, %seed${I}) : (tensor<?x?xf32>, i32) -> tensor<?x?xf32>
  %xs${I} = tensor.cast %f${I} : tensor<?x?xf32> to tensor<${AB}x${C}xf32>
  %xt${I} = ${TOIN}
  %x${I} = tensor.expand_shape %xt${I} [[0, 1], [2]] output_shape [${A}, ${B}, ${C}] : tensor<${AB}x${C}x${IT}> into tensor<${A}x${B}x${C}x${IT}>
  %q${I} = fp8.quantize %x${I} : tensor<${A}x${B}x${C}x${IT}> -> ${QT}
  %c${I}3, %s${I}3 = fp8.disassemble %q${I} : ${QT}
  vector.print str "case${I} ${A}x${B}x${C}\n"
  %c${I}0 = tensor.collapse_shape %c${I}3 [[0, 1], [2]] : tensor<${A}x${B}x${C}xf8E4M3FN> into tensor<${AB}x${C}xf8E4M3FN>
  %s${I}0 = tensor.collapse_shape %s${I}3 [[0, 1], [2]] : tensor<${A}x${B}x${SC}xf32> into tensor<${AB}x${SC}xf32>
${DC}
${DS}
  %y${I}3 = fp8.dequantize %q${I} : ${QT} -> tensor<${A}x${B}x${C}xf32>
  %y${I}0 = tensor.collapse_shape %y${I}3 [[0, 1], [2]] : tensor<${A}x${B}x${C}xf32> into tensor<${AB}x${C}xf32>
${DY}
  %r${I} = fp8.requantize %q${I} : ${QT} -> ${RT}
  %rc${I}3, %rs${I}3 = fp8.disassemble %r${I} : ${RT}
  %rc${I}0 = tensor.collapse_shape %rc${I}3 [[0, 1], [2]] : tensor<${A}x${B}x${C}xf8E4M3FN> into tensor<${AB}x${C}xf8E4M3FN>
  %rs${I}0 = tensor.collapse_shape %rs${I}3 [[0, 1], [2]] : tensor<${A}x${B}x${RSC}xf32> into tensor<${AB}x${RSC}xf32>
${DRC}
${DRS}
""")

RANK1 = string.Template(r"""
  %e${I} = tensor.empty() : tensor<1x${C}xf32>
  %de${I} = tensor.cast %e${I} : tensor<1x${C}xf32> to tensor<?x?xf32>
  %seed${I} = arith.constant ${SEED} : i32
  %f${I} = call @fill_special(%de${I}, %seed${I}) : (tensor<?x?xf32>, i32) -> tensor<?x?xf32>
  %xs${I} = tensor.cast %f${I} : tensor<?x?xf32> to tensor<1x${C}xf32>
  %xt${I} = ${TOIN}
  %x${I} = tensor.collapse_shape %xt${I} [[0, 1]] : tensor<1x${C}x${IT}> into tensor<${C}x${IT}>
  %q${I} = fp8.quantize %x${I} : tensor<${C}x${IT}> -> ${QT}
  %c${I}1, %s${I}1 = fp8.disassemble %q${I} : ${QT}
  vector.print str "case${I} ${C}\n"
  %c${I}0 = tensor.expand_shape %c${I}1 [[0, 1]] output_shape [1, ${C}] : tensor<${C}xf8E4M3FN> into tensor<1x${C}xf8E4M3FN>
  %s${I}0 = tensor.expand_shape %s${I}1 [[0, 1]] output_shape [1, ${SC}] : tensor<${SC}xf32> into tensor<1x${SC}xf32>
${DC}
${DS}
  %y${I}1 = fp8.dequantize %q${I} : ${QT} -> tensor<${C}xf32>
  %y${I}0 = tensor.expand_shape %y${I}1 [[0, 1]] output_shape [1, ${C}] : tensor<${C}xf32> into tensor<1x${C}xf32>
${DY}
  %r${I} = fp8.requantize %q${I} : ${QT} -> ${RT}
  %rc${I}1, %rs${I}1 = fp8.disassemble %r${I} : ${RT}
  %rc${I}0 = tensor.expand_shape %rc${I}1 [[0, 1]] output_shape [1, ${C}] : tensor<${C}xf8E4M3FN> into tensor<1x${C}xf8E4M3FN>
  %rs${I}0 = tensor.expand_shape %rs${I}1 [[0, 1]] output_shape [1, ${RSC}] : tensor<${RSC}xf32> into tensor<1x${RSC}xf32>
${DRC}
${DRS}
""")


def rank_case(i, a, b, c, blk, it, rblk):
    """One RANK_CASES entry, as case number i."""
    rows = a * b if a else 1
    sc, rsc = -(-c // blk), -(-c // rblk)
    dims = f"{a}x{b}x{c}" if a else f"{c}"
    lead = "1, 1, " if a else ""
    qt = f"!fp8.scaled<{dims}xf8E4M3FN, block = [{lead}{blk}], scale = f32>"
    rt = f"!fp8.scaled<{dims}xf8E4M3FN, block = [{lead}{rblk}], scale = f32>"
    xf32, xt = tensor_t((rows, c), "f32"), tensor_t((rows, c), it)
    toin = (f"arith.truncf %xs{i} : {xf32} to {xt}" if it != "f32"
            else f"tensor.cast %xs{i} : {xf32} to {xt}")
    return (RANK3 if a else RANK1).substitute(
        I=i, A=a, B=b, AB=rows, C=c, SC=sc, RSC=rsc, IT=it, QT=qt, RT=rt,
        SEED=1009 + 7919 * i, TOIN=toin,
        DC=digest("codes", f"c{i}", tensor_t((rows, c), "f8E4M3FN"), "f8E4M3FN"),
        DS=digest("scales", f"s{i}", tensor_t((rows, sc), "f32"), "f32"),
        DY=digest("dequantized", f"y{i}", tensor_t((rows, c), "f32"), "f32"),
        DRC=digest("requantized codes", f"rc{i}", tensor_t((rows, c), "f8E4M3FN"), "f8E4M3FN"),
        DRS=digest("requantized scales", f"rs{i}", tensor_t((rows, rsc), "f32"), "f32"))


def widened(i, qt, yt, ft):
    """A bf16/f16 dequantized result widened to f32 twice: its only use (the
    vectorised kernel fuses the widening into its store) and the widening
    of %y{i}0, which has another use (its digest: not fused)."""
    return "\n".join([
        f"  %yw{i} = fp8.dequantize %q{i} : {qt} -> {yt}",
        f"  %yw{i}0 = arith.extf %yw{i} : {yt} to {ft}",
        digest("dequantized widened, fused", f"yw{i}", ft, "f32"),
        f"  %yu{i}0 = arith.extf %y{i}0 : {yt} to {ft}",
        digest("dequantized widened, unfused", f"yu{i}", ft, "f32"),
    ])


def tensor_t(shape, t):
    return "tensor<" + "x".join(str(d) for d in shape) + f"x{t}>"


def scaled_t(shape, fmt, block, scale):
    dims = "x".join(str(d) for d in shape)
    return f"!fp8.scaled<{dims}x{fmt}, block = [{block[0]}, {block[1]}], scale = {scale}>"


def main():
    out = [PRELUDE, "func.func @main() {"]
    for i, (r, c, blk, fmt, scale, mode, eps, sat, it, dyn, rblk, perm) in enumerate(CASES):
        shape = ("?", "?") if dyn else (r, c)
        xf32 = tensor_t(shape, "f32")
        xt = tensor_t(shape, it)
        toin = (f"arith.truncf %xs{i} : {xf32} to {xt}" if it != "f32"
                else f"tensor.cast %xs{i} : {xf32} to {xt}")
        sshape = tuple("?" if dyn else -(-d // b) for d, b in zip((r, c), blk))
        rshape = (shape[1], shape[0]) if perm else shape
        rsshape = tuple("?" if dyn else -(-int(d) // b) for d, b in zip(rshape, rblk))
        qt = scaled_t(shape, fmt, blk, scale)
        rt = scaled_t(rshape, fmt, rblk, scale)
        yt = ("f32", "bf16", "f16")[i % 3]
        out.append(CASE.substitute(
            I=i, R=r, C=c, SEED=1009 + 7919 * i, XF32=xf32, XT=xt, TOIN=toin, EPS=eps,
            MODE=mode, SAT=str(sat).lower(), QT=qt, RT=rt, YT=tensor_t(shape, yt),
            PERM="permutation = array<i64: 1, 0>, " if perm else "",
            DC=digest("codes", f"c{i}", tensor_t(shape, fmt), fmt),
            DS=digest("scales", f"s{i}", tensor_t(sshape, scale), scale),
            DY=digest("dequantized", f"y{i}", tensor_t(shape, yt), yt),
            DRC=digest("requantized codes", f"rc{i}", tensor_t(rshape, fmt), fmt),
            DRS=digest("requantized scales", f"rs{i}", tensor_t(rsshape, scale), scale)))
        if yt != "f32":
            out.append(widened(i, qt, tensor_t(shape, yt), tensor_t(shape, "f32")))
    for j, case in enumerate(RANK_CASES):
        out.append(rank_case(len(CASES) + j, *case))
    out.append("  return\n}\n")
    sys.stdout.write("\n".join(out))


if __name__ == "__main__":
    main()
