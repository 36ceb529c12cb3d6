#!/usr/bin/env python3
"""Emits the program of k16-accumulation.test: bf16/f16 linalg.matmul and
linalg.batch_matmul with f32 results, whose expected bits come from
independent oracles, never from the lowering:

  - data FMT=FILE (lines `a0 .. a15 | b0 .. b15 | c | d` measured on an
    H100/H200, see hopper-accumulation/README.md): each vector is one k16
    step from c, so
      * K = 16: a 1x16 by 16x8 linalg.matmul with init c per vector (a loop
        over the vectors), and one linalg.batch_matmul over all of them
        (batch = vector, 8 columns), must give d; the same batch_matmul
        with one column (N = 1: no tensor cores) must not;
      * K = 32: c rebuilt from a zero init by the first group (its 24-bit
        significand in three 8-bit pieces at k = 13, 14, 15, times 1: exact
        under any model), then the vector at k = 16..31: must give d (the
        group boundary at 16, the chain through the accumulator);
  - exact: integer-valued operands (|a|, |b| <= 7) with K = 40 (a tail of
    8) and K = 128 and a non-zero integer init, where every partial sum is
    an integer below 2^24, so the model, the plain f32 sums and the exact
    sum agree: the expected values are Python's integer matmul;
  - hand: K = 40, init 0, products 1 * 1 at k = 0 and 1 * 2^-25 at
    k = 32..35 (the tail group): the k16 model gives 1 + 2^-23
    (1065353217: c = 1 aligns the tail at E = 0, the grid 2^-25 keeps each
    product, 1 + 2^-23 is an f32); plain f32 sums give 1.0 (1065353216);
  - f32: the same products as f32 operands: a plain f32 sum (1065353216)
    under every model, as an f32 matmul is not a bf16 wgmma;
  - special values and bf16 products beyond the f32 range, derived in
    hand_function's comments.

Usage: k16_accumulation_case.py [bf16|f16=FILE ...]
"""
import math
import random
import struct
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bit_compare import compare_loop, hexdense  # noqa: E402

TYPES = {"bf16": "bf16", "f16": "f16"}


def f32(bits):
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def f32bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def encode(x, fmt):
    """The 16-bit code of x if it is exact in `fmt`, else None."""
    if fmt == "bf16":
        bits = f32bits(x)
        return bits >> 16 if bits & 0xFFFF == 0 else None
    try:
        code = struct.unpack("<H", struct.pack("<e", x))[0]
    except OverflowError:
        return None
    return code if struct.unpack("<e", struct.pack("<H", code))[0] == x else None


def split(c):
    """c as three pieces of <= 8 significant bits each (sum exactly c)."""
    if c == 0:
        return [0.0, 0.0, 0.0]
    m, e = math.frexp(abs(c))
    s = int(m * 2**24)
    pieces = [(s >> 16) * 2.0 ** (e - 8), ((s >> 8) & 0xFF) * 2.0 ** (e - 16),
              (s & 0xFF) * 2.0 ** (e - 24)]
    return [math.copysign(p, c) for p in pieces]


def read(path):
    out = []
    with open(path, encoding="ascii") as f:
        for line in f:
            fa, fb, fc, fd = line.split("|")
            out.append(([int(x, 16) for x in fa.split()],
                        [int(x, 16) for x in fb.split()], int(fc, 16),
                        int(fd, 16)))
    return out


#: The columns of B in the matmul cases: a bf16 matmul runs on the BF16
#: tensor cores, and so gets the k16 model under accumulator=sm90, only with
#: N (and K) a multiple of 8 (fp8::runsOnBF16TensorCores: the kernel's TMA
#: row strides); each measured b is repeated in W columns.
W = 8


def columns(result, src, k, et):
    """`src` (tensor<k x et>) as the W equal columns of tensor<k x W x et>."""
    return (f"    {result}_e = tensor.empty() : tensor<{k}x{W}x{et}>\n"
            f"    {result} = linalg.broadcast ins({src} : tensor<{k}x{et}>) outs({result}_e : tensor<{k}x{W}x{et}>) "
            f"dimensions = [1]")


def data_function(name, fmt, vectors):
    n = len(vectors)
    et = TYPES[fmt]
    a = [x for v in vectors for x in v[0]]
    b = [x for v in vectors for x in v[1]]
    c = [v[2] for v in vectors]
    d = [v[3] for v in vectors]
    s = f"""
func.func @check_{name}() {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c{n}_{name}_mm = arith.constant {n} : index
  %c{n}_{name}_bmm = arith.constant {n} : index
  %c{n}_{name}_bmm1 = arith.constant {n} : index
  %ai = arith.constant dense<{hexdense(a, 2)}> : tensor<{n}x16xi16>
  %bi = arith.constant dense<{hexdense(b, 2)}> : tensor<{n}x16xi16>
  %ci = arith.constant dense<{hexdense(c, 4)}> : tensor<{n}xi32>
  %a = arith.bitcast %ai : tensor<{n}x16xi16> to tensor<{n}x16x{et}>
  %b = arith.bitcast %bi : tensor<{n}x16xi16> to tensor<{n}x16x{et}>
  %cf = arith.bitcast %ci : tensor<{n}xi32> to tensor<{n}xf32>
"""
    s += compare_loop(f"{name}_mm", n, f"""    %ar = tensor.extract_slice %a[%i, 0] [1, 16] [1, 1] : tensor<{n}x16x{et}> to tensor<1x16x{et}>
    %br = tensor.extract_slice %b[%i, 0] [1, 16] [1, 1] : tensor<{n}x16x{et}> to tensor<16x{et}>
{columns("%bc", "%br", 16, et)}
    %cv = tensor.extract %cf[%i] : tensor<{n}xf32>
    %init = tensor.splat %cv : tensor<1x{W}xf32>
    %mm = linalg.matmul ins(%ar, %bc : tensor<1x16x{et}>, tensor<16x{W}x{et}>) outs(%init : tensor<1x{W}xf32>) -> tensor<1x{W}xf32>
    %dv = tensor.extract %mm[%c0, %c0] : tensor<1x{W}xf32>
    %got = arith.bitcast %dv : f32 to i32""", d)
    # One batch_matmul over all the vectors (batch = vector), each b in W
    # equal columns (N = 8: on the tensor cores, the k16 model under sm90),
    # and again with N = 1 (not on the tensor cores: a plain f32 sum).
    s += f"""
  %a3 = tensor.expand_shape %a [[0], [1, 2]] output_shape [{n}, 1, 16] : tensor<{n}x16x{et}> into tensor<{n}x1x16x{et}>
  %b3e = tensor.empty() : tensor<{n}x16x{W}x{et}>
  %b3 = linalg.broadcast ins(%b : tensor<{n}x16x{et}>) outs(%b3e : tensor<{n}x16x{W}x{et}>) dimensions = [2]
  %c3e = tensor.empty() : tensor<{n}x1x{W}xf32>
  %c3 = linalg.broadcast ins(%cf : tensor<{n}xf32>) outs(%c3e : tensor<{n}x1x{W}xf32>) dimensions = [1, 2]
  %bmm = linalg.batch_matmul ins(%a3, %b3 : tensor<{n}x1x16x{et}>, tensor<{n}x16x{W}x{et}>) outs(%c3 : tensor<{n}x1x{W}xf32>) -> tensor<{n}x1x{W}xf32>
  %b31 = tensor.expand_shape %b [[0], [1, 2]] output_shape [{n}, 16, 1] : tensor<{n}x16x{et}> into tensor<{n}x16x1x{et}>
  %c31 = tensor.expand_shape %cf [[0, 1, 2]] output_shape [{n}, 1, 1] : tensor<{n}xf32> into tensor<{n}x1x1xf32>
  %bmm1 = linalg.batch_matmul ins(%a3, %b31 : tensor<{n}x1x16x{et}>, tensor<{n}x16x1x{et}>) outs(%c31 : tensor<{n}x1x1xf32>) -> tensor<{n}x1x1xf32>
"""
    s += compare_loop(f"{name}_bmm", n, f"""    %dv = tensor.extract %bmm[%i, %c0, %c0] : tensor<{n}x1x{W}xf32>
    %got = arith.bitcast %dv : f32 to i32""", d)
    s += compare_loop(f"{name}_bmm1", n, f"""    %dv = tensor.extract %bmm1[%i, %c0, %c0] : tensor<{n}x1x1xf32>
    %got = arith.bitcast %dv : f32 to i32""", d)
    # K = 32: c rebuilt by the first group.
    rows = []
    for va, vb, vc, vd in vectors:
        pieces = [encode(p, fmt) for p in split(f32(vc))]
        if None in pieces or sum(split(f32(vc))) != f32(vc):
            continue
        one = encode(1.0, fmt)
        rows.append(([0] * 13 + pieces + va, [0] * 13 + [one] * 3 + vb, vd))
    m = len(rows)
    s += f"""
  %c{m}_{name}_k32 = arith.constant {m} : index
  %a32i = arith.constant dense<{hexdense([x for r in rows for x in r[0]], 2)}> : tensor<{m}x32xi16>
  %b32i = arith.constant dense<{hexdense([x for r in rows for x in r[1]], 2)}> : tensor<{m}x32xi16>
  %a32 = arith.bitcast %a32i : tensor<{m}x32xi16> to tensor<{m}x32x{et}>
  %b32 = arith.bitcast %b32i : tensor<{m}x32xi16> to tensor<{m}x32x{et}>
  %zero = arith.constant dense<0.0> : tensor<1x{W}xf32>
"""
    s += compare_loop(f"{name}_k32", m, f"""    %ar = tensor.extract_slice %a32[%i, 0] [1, 32] [1, 1] : tensor<{m}x32x{et}> to tensor<1x32x{et}>
    %br = tensor.extract_slice %b32[%i, 0] [1, 32] [1, 1] : tensor<{m}x32x{et}> to tensor<32x{et}>
{columns("%bc", "%br", 32, et)}
    %mm = linalg.matmul ins(%ar, %bc : tensor<1x32x{et}>, tensor<32x{W}x{et}>) outs(%zero : tensor<1x{W}xf32>) -> tensor<1x{W}xf32>
    %dv = tensor.extract %mm[%c0, %c0] : tensor<1x{W}xf32>
    %got = arith.bitcast %dv : f32 to i32""", [r[2] for r in rows])
    s += "  return\n}\n"
    return s


def exact_function():
    rng = random.Random(16)
    s = """
func.func @check_exact() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
"""
    for fmt in ("bf16", "f16"):
        for k in (40, 128):
            m, n = 3, W
            a = [[rng.randint(-7, 7) for _ in range(k)] for _ in range(m)]
            b = [[rng.randint(-7, 7) for _ in range(n)] for _ in range(k)]
            c = [[rng.randint(-1000, 1000) for _ in range(n)] for _ in range(m)]
            want = [c[i][j] + sum(a[i][t] * b[t][j] for t in range(k))
                    for i in range(m) for j in range(n)]
            assert all(abs(w) < 2**24 for w in want)
            name = f"exact_{fmt}_k{k}"
            lit = lambda rows: "[" + ", ".join("[" + ", ".join(f"{x}.0" for x in r) + "]" for r in rows) + "]"
            s += f"""
  %a_{name} = arith.constant dense<{lit(a)}> : tensor<{m}x{k}x{fmt}>
  %b_{name} = arith.constant dense<{lit(b)}> : tensor<{k}x{n}x{fmt}>
  %i_{name} = arith.constant dense<{lit(c)}> : tensor<{m}x{n}xf32>
  %r_{name} = linalg.matmul ins(%a_{name}, %b_{name} : tensor<{m}x{k}x{fmt}>, tensor<{k}x{n}x{fmt}>) outs(%i_{name} : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  %f_{name} = tensor.collapse_shape %r_{name} [[0, 1]] : tensor<{m}x{n}xf32> into tensor<{m * n}xf32>
  %c{m * n}_{name} = arith.constant {m * n} : index
"""
            s += compare_loop(name, m * n, f"""    %dv = tensor.extract %f_{name}[%i] : tensor<{m * n}xf32>
    %got = arith.bitcast %dv : f32 to i32""", [f32bits(float(w)) for w in want])
            # The same through batch_matmul (batch of 1).
            bname = "b" + name
            s += f"""
  %a3_{name} = tensor.expand_shape %a_{name} [[0, 1], [2]] output_shape [1, {m}, {k}] : tensor<{m}x{k}x{fmt}> into tensor<1x{m}x{k}x{fmt}>
  %b3_{name} = tensor.expand_shape %b_{name} [[0, 1], [2]] output_shape [1, {k}, {n}] : tensor<{k}x{n}x{fmt}> into tensor<1x{k}x{n}x{fmt}>
  %i3_{name} = tensor.expand_shape %i_{name} [[0, 1], [2]] output_shape [1, {m}, {n}] : tensor<{m}x{n}xf32> into tensor<1x{m}x{n}xf32>
  %r3_{name} = linalg.batch_matmul ins(%a3_{name}, %b3_{name} : tensor<1x{m}x{k}x{fmt}>, tensor<1x{k}x{n}x{fmt}>) outs(%i3_{name} : tensor<1x{m}x{n}xf32>) -> tensor<1x{m}x{n}xf32>
  %f_{bname} = tensor.collapse_shape %r3_{name} [[0, 1, 2]] : tensor<1x{m}x{n}xf32> into tensor<{m * n}xf32>
  %c{m * n}_{bname} = arith.constant {m * n} : index
"""
            s += compare_loop(bname, m * n, f"""    %dv = tensor.extract %f_{bname}[%i] : tensor<{m * n}xf32>
    %got = arith.bitcast %dv : f32 to i32""", [f32bits(float(w)) for w in want])
    s += "  return\n}\n"
    return s


def hand_function():
    a = [0.0] * 40
    b = [0.0] * 40
    a[0] = b[0] = 1.0
    for k in range(32, 36):
        a[k], b[k] = 1.0, 2.0 ** -25
    row = lambda xs: "[[" + ", ".join(repr(x) for x in xs) + "]]"
    col = lambda xs: "[" + ", ".join("[" + ", ".join([repr(x)] * W) + "]" for x in xs) + "]"
    s = "\nfunc.func @check_hand() {\n  %c0 = arith.constant 0 : index\n"
    for t in ("bf16", "f32"):
        s += f"""  %a_{t} = arith.constant dense<{row(a)}> : tensor<1x40x{t}>
  %b_{t} = arith.constant dense<{col(b)}> : tensor<40x{W}x{t}>
  %z_{t} = arith.constant dense<0.0> : tensor<1x{W}xf32>
  %r_{t} = linalg.matmul ins(%a_{t}, %b_{t} : tensor<1x40x{t}>, tensor<40x{W}x{t}>) outs(%z_{t} : tensor<1x{W}xf32>) -> tensor<1x{W}xf32>
  %v_{t} = tensor.extract %r_{t}[%c0, %c0] : tensor<1x{W}xf32>
  %bits_{t} = arith.bitcast %v_{t} : f32 to i32
  vector.print str "hand {t}: "
  vector.print %bits_{t} : i32
"""
    # Special values and products beyond the f32 range (one group each):
    # 2^100 * 2^100 - 2^100 * 2^100 with c = 1 aligns at E = 200, c
    # vanishes: +0 (0); 2^100 * 2^28 = 2^128: Inf (2139095040); Inf * 0:
    # the canonical NaN 0x7FFFFFFF (2147483647); a NaN input likewise;
    # Inf * 1 + 1: Inf.
    cases = [("wide", [2.0**100, -(2.0**100)], [2.0**100, 2.0**100], 1.0),
             ("overflow", [2.0**100], [2.0**28], 0.0),
             ("infzero", ["0x7F80", 1.0], [0.0, 1.0], 0.0),
             ("nan", ["0x7FC1"], [1.0], 0.0),
             ("inf", ["0x7F80"], [1.0], 1.0)]
    for name, a, b, c in cases:
        # K padded with zeros to 8 (zero products take no part in a step).
        k = 8
        a, b = a + [0.0] * (k - len(a)), b + [0.0] * (k - len(b))
        lit = lambda xs: ", ".join(x if isinstance(x, str) else repr(x) for x in xs)
        s += f"""  %a_{name} = arith.constant dense<[[{lit(a)}]]> : tensor<1x{k}xbf16>
  %b_{name} = arith.constant dense<[{lit("[" + lit([x] * W) + "]" for x in b)}]> : tensor<{k}x{W}xbf16>
  %z_{name} = arith.constant dense<{c!r}> : tensor<1x{W}xf32>
  %r_{name} = linalg.matmul ins(%a_{name}, %b_{name} : tensor<1x{k}xbf16>, tensor<{k}x{W}xbf16>) outs(%z_{name} : tensor<1x{W}xf32>) -> tensor<1x{W}xf32>
  %v_{name} = tensor.extract %r_{name}[%c0, %c0] : tensor<1x{W}xf32>
  %bits_{name} = arith.bitcast %v_{name} : f32 to i32
  vector.print str "hand {name}: "
  vector.print %bits_{name} : i32
"""
    s += "  return\n}\n"
    return s


def main():
    names = []
    out = []
    for arg in sys.argv[1:]:
        spec, path = arg.split("=", 1)
        fmt, tag = spec.split(":")
        name = f"{tag}"
        out.append(data_function(name, fmt, read(path)))
        names.append(name)
    out.append(exact_function())
    out.append(hand_function())
    names += ["exact", "hand"]
    text = "".join(out)
    print(text)
    print("func.func @main() {")
    for name in names:
        print(f"  call @check_{name}() : () -> ()")
    print("  return\n}")


if __name__ == "__main__":
    main()
