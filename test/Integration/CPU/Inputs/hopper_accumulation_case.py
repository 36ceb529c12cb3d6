#!/usr/bin/env python3
"""Emits the program of hopper-accumulation.test: for each data file (lines
`a0 .. a31 | b0 .. b31 | d`: 32 FP8 codes of a, 32 of b, in hex, and the
FP32 bits of d = sum_i a_i * b_i measured on an H100; see
hopper-accumulation/README.md), one function that computes every vector's
dot product with fp8.scaled_matmul (1x32 times 1x32, scales 1, one
promotion interval of 32, f32 result) in a loop over the vectors, compares
the result's bits with the hardware's and prints the index, the bits
computed and the bits measured of every mismatch, then the number of
mismatches. The data are embedded as dense constants; nothing here computes
a dot product.

Usage: hopper_accumulation_case.py FORMAT=FILE [FORMAT=FILE ...]
       (FORMAT: e4m3 or e5m2)
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bit_compare import compare_loop, hexdense  # noqa: E402

TYPES = {"e4m3": "f8E4M3FN", "e5m2": "f8E5M2"}


def read(path):
    a, b, d = [], [], []
    with open(path, encoding="ascii") as f:
        for line in f:
            if not line.strip():
                continue
            fa, fb, fd = line.split("|")
            ra = [int(x, 16) for x in fa.split()]
            rb = [int(x, 16) for x in fb.split()]
            if len(ra) != 32 or len(rb) != 32:
                sys.exit(f"{path}: a line without 32 + 32 codes")
            a.append(ra)
            b.append(rb)
            d.append(int(fd, 16))
    return a, b, d


def function(name, et, a, b, d):
    n = len(d)
    s = f"!fp8.scaled<1x32x{et}, block = [1, 32], scale = f32>"
    return f"""
func.func @check_{name}() {{
  %a8 = arith.constant dense<{hexdense([c for row in a for c in row], 1)}> : tensor<{n}x32xi8>
  %b8 = arith.constant dense<{hexdense([c for row in b for c in row], 1)}> : tensor<{n}x32xi8>
  %a = arith.bitcast %a8 : tensor<{n}x32xi8> to tensor<{n}x32x{et}>
  %b = arith.bitcast %b8 : tensor<{n}x32xi8> to tensor<{n}x32x{et}>
  %ones = arith.constant dense<1.0> : tensor<1x1xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c{n}_{name} = arith.constant {n} : index
  vector.print str "{name}: vectors "
  vector.print %c{n}_{name} : index
""" + compare_loop(name, n, f"""    %ai = tensor.extract_slice %a[%i, 0] [1, 32] [1, 1] : tensor<{n}x32x{et}> to tensor<1x32x{et}>
    %bi = tensor.extract_slice %b[%i, 0] [1, 32] [1, 1] : tensor<{n}x32x{et}> to tensor<1x32x{et}>
    %qa = fp8.assemble %ai, %ones : tensor<1x32x{et}>, tensor<1x1xf32> -> {s}
    %qb = fp8.assemble %bi, %ones : tensor<1x32x{et}>, tensor<1x1xf32> -> {s}
    %dm = fp8.scaled_matmul %qa, %qb {{promote_interval = 32}} : {s}, {s} -> tensor<1x1xf32>
    %dv = tensor.extract %dm[%c0, %c0] : tensor<1x1xf32>
    %got = arith.bitcast %dv : f32 to i32""", d) + f"""  return
}}
"""


def main():
    names = []
    for arg in sys.argv[1:]:
        name, path = arg.split("=", 1)
        a, b, d = read(path)
        print(function(name, TYPES[name], a, b, d))
        names.append(name)
    print("func.func @main() {")
    for name in names:
        print(f"  call @check_{name}() : () -> ()")
    print("  return\n}")


if __name__ == "__main__":
    main()
