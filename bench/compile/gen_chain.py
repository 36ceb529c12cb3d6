#!/usr/bin/env python3
"""Writes a chain of N same-shape linears as linalg-on-tensors MLIR: one
function, y_i = y_{i-1} @ W_i ([M, K] by [K, K], the weights function
arguments, the zero-filled destination shared as CSE leaves it), the case
in which every layer's lowered loop nests have the same operands
(docs/compile-time.md). Python 3 stdlib only.

With --nested, each linear after the first sits in an scf.execute_region
inside the previous one's: N regions deep (the "region nesting depth" of a
hostile input).

    gen_chain.py --linears 400 [--m 4 --k 256] [--nested]
"""
import argparse


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--linears", type=int, required=True)
    ap.add_argument("--m", type=int, default=4)
    ap.add_argument("--k", type=int, default=256)
    ap.add_argument("--nested", action="store_true")
    a = ap.parse_args()
    if a.linears < 1:
        ap.error("--linears must be at least 1")
    act = f"tensor<{a.m}x{a.k}xf32>"
    wgt = f"tensor<{a.k}x{a.k}xf32>"
    args = ", ".join([f"%x: {act}"] + [f"%w{i}: {wgt}" for i in range(a.linears)])
    out = [f"func.func @chain({args}) -> {act} {{",
           "  %zero = arith.constant 0.0 : f32",
           f"  %e = tensor.empty() : {act}",
           f"  %z = linalg.fill ins(%zero : f32) outs(%e : {act}) -> {act}"]

    def linear(i, inp, indent):
        return (f"{indent}%y{i} = linalg.matmul ins(%{inp}, %w{i} : {act}, {wgt}) "
                f"outs(%z : {act}) -> {act}")

    if not a.nested:
        cur = "x"
        for i in range(a.linears):
            out.append(linear(i, cur, "  "))
            cur = f"y{i}"
        out.append(f"  return %{cur} : {act}")
    else:
        # y_i = execute_region { y_i' = linear(y_{i-1}); y_{i+1} = ...; yield }
        out.append(linear(0, "x", "  "))
        closers = []
        for i in range(1, a.linears):
            indent = "  " * i
            out.append(f"{indent}%r{i} = scf.execute_region -> {act} {{")
            out.append(linear(i, f"y{i - 1}", indent + "  "))
            closers.append((indent, i))
        last = f"y{a.linears - 1}"
        for indent, i in reversed(closers):
            out.append(f"{indent}  scf.yield %{last} : {act}")
            out.append(f"{indent}}}")
            last = f"r{i}"
        out.append(f"  return %{last} : {act}")
    out.append("}")
    print("\n".join(out))


if __name__ == "__main__":
    main()
