#!/usr/bin/env python3
"""Writes an N-layer decoder (RMSNorm, MHA, SwiGLU) as linalg-on-tensors MLIR,
in the forms torch-mlir exports: linalg.matmul against [K, N] weights passed
as function arguments, attention as batch_matmul with head transposes, the
softmax and the norms as linalg.generic/linalg.reduce. Python 3 stdlib only.

With --mixed, a decode-style graph of mixed abstraction levels, as exports
of serving stacks are (e.g. a distilled decoder with a hand-written KV
cache): each layer also writes its K and V rows into a KV-cache memref
argument with an affine.for loop of vector.transfer_read/write on buffers
of the tensors (bufferization.to_buffer), beside the linalg-on-tensors
computation.

    gen_transformer.py --layers 8 [--seq 128 --hidden 512 --heads 8 --ffn 1408]
                       [--mixed]
"""
import argparse
import sys


def layer(i, a):
    S, D, H, F = a.seq, a.hidden, a.heads, a.ffn
    hd = D // H
    p = f"l{i}"
    x = a.cur
    t = lambda *s: "tensor<" + "x".join(str(d) for d in s) + "xf32>"
    out = []
    w = out.append

    def rmsnorm(name, inp, gamma):
        w(f"    %{name}_sq = linalg.generic {{indexing_maps = [#id2, #id2], iterator_types = [\"parallel\", \"parallel\"]}} ins(%{inp} : {t(S, D)}) outs(%e_sd : {t(S, D)}) {{\n"
          f"    ^bb0(%in: f32, %o: f32):\n      %m = arith.mulf %in, %in : f32\n      linalg.yield %m : f32\n    }} -> {t(S, D)}")
        w(f"    %{name}_sum = linalg.reduce ins(%{name}_sq : {t(S, D)}) outs(%z_s : {t(S)}) dimensions = [1]\n"
          f"      (%in: f32, %acc: f32) {{\n        %s = arith.addf %in, %acc : f32\n        linalg.yield %s : f32\n      }}")
        w(f"    %{name}_rstd = linalg.generic {{indexing_maps = [#id1, #id1], iterator_types = [\"parallel\"]}} ins(%{name}_sum : {t(S)}) outs(%e_s : {t(S)}) {{\n"
          f"    ^bb0(%in: f32, %o: f32):\n      %m = arith.mulf %in, %inv_d : f32\n      %e = arith.addf %m, %eps : f32\n      %r = math.rsqrt %e : f32\n      linalg.yield %r : f32\n    }} -> {t(S)}")
        w(f"    %{name} = linalg.generic {{indexing_maps = [#id2, #row, #col, #id2], iterator_types = [\"parallel\", \"parallel\"]}} ins(%{inp}, %{name}_rstd, %{gamma} : {t(S, D)}, {t(S)}, {t(D)}) outs(%e_sd : {t(S, D)}) {{\n"
          f"    ^bb0(%v: f32, %r: f32, %g: f32, %o: f32):\n      %m = arith.mulf %v, %r : f32\n      %n = arith.mulf %m, %g : f32\n      linalg.yield %n : f32\n    }} -> {t(S, D)}")

    def linear(name, inp, wname, k, n, init):
        w(f"    %{name} = linalg.matmul ins(%{inp}, %{wname} : {t(S, k)}, {t(k, n)}) outs(%{init} : {t(S, n)}) -> {t(S, n)} loc(\"model.layers.{i}.{name.split('_', 1)[1]}\")")

    rmsnorm(f"{p}_n1", x, f"{p}_g1")
    for proj in ("q", "k", "v"):
        linear(f"{p}_{proj}", f"{p}_n1", f"{p}_w{proj}", D, D, "z_sd")
        w(f"    %{p}_{proj}3 = tensor.expand_shape %{p}_{proj} [[0], [1, 2]] output_shape [{S}, {H}, {hd}] : {t(S, D)} into {t(S, H, hd)}")
    if a.mixed:
        # The KV-cache update at the memref/affine/vector level.
        for j, proj in enumerate("kv"):
            w(f"    %{p}_{proj}buf = bufferization.to_buffer %{p}_{proj} : {t(S, D)} to memref<{S}x{D}xf32>")
            w(f"    affine.for %r = 0 to {S} {{\n"
              f"      %{p}_{proj}row = vector.transfer_read %{p}_{proj}buf[%r, %c0], %zero {{in_bounds = [true]}} : memref<{S}x{D}xf32>, vector<{D}xf32>\n"
              f"      vector.transfer_write %{p}_{proj}row, %cache[%c{2 * i + j}, %r, %c0] {{in_bounds = [true]}} : vector<{D}xf32>, memref<{2 * a.layers}x{S}x{D}xf32>\n"
              f"    }}")
    w(f"    %{p}_qt = linalg.transpose ins(%{p}_q3 : {t(S, H, hd)}) outs(%e_hsd : {t(H, S, hd)}) permutation = [1, 0, 2]")
    w(f"    %{p}_kt = linalg.transpose ins(%{p}_k3 : {t(S, H, hd)}) outs(%e_hds : {t(H, hd, S)}) permutation = [1, 2, 0]")
    w(f"    %{p}_vt = linalg.transpose ins(%{p}_v3 : {t(S, H, hd)}) outs(%e_hsd : {t(H, S, hd)}) permutation = [1, 0, 2]")
    w(f"    %{p}_s = linalg.batch_matmul ins(%{p}_qt, %{p}_kt : {t(H, S, hd)}, {t(H, hd, S)}) outs(%z_hss : {t(H, S, S)}) -> {t(H, S, S)}")
    w(f"    %{p}_mx = linalg.reduce ins(%{p}_s : {t(H, S, S)}) outs(%ninf_hs : {t(H, S)}) dimensions = [2]\n"
      f"      (%in: f32, %acc: f32) {{\n        %m = arith.maximumf %in, %acc : f32\n        linalg.yield %m : f32\n      }}")
    w(f"    %{p}_ex = linalg.generic {{indexing_maps = [#id3, #red3, #id3], iterator_types = [\"parallel\", \"parallel\", \"parallel\"]}} ins(%{p}_s, %{p}_mx : {t(H, S, S)}, {t(H, S)}) outs(%e_hss : {t(H, S, S)}) {{\n"
      f"    ^bb0(%v: f32, %m: f32, %o: f32):\n      %d = arith.subf %v, %m : f32\n      %e = math.exp %d : f32\n      linalg.yield %e : f32\n    }} -> {t(H, S, S)}")
    w(f"    %{p}_sm = linalg.reduce ins(%{p}_ex : {t(H, S, S)}) outs(%z_hs : {t(H, S)}) dimensions = [2]\n"
      f"      (%in: f32, %acc: f32) {{\n        %s = arith.addf %in, %acc : f32\n        linalg.yield %s : f32\n      }}")
    w(f"    %{p}_p = linalg.generic {{indexing_maps = [#id3, #red3, #id3], iterator_types = [\"parallel\", \"parallel\", \"parallel\"]}} ins(%{p}_ex, %{p}_sm : {t(H, S, S)}, {t(H, S)}) outs(%e_hss : {t(H, S, S)}) {{\n"
      f"    ^bb0(%v: f32, %s: f32, %o: f32):\n      %d = arith.divf %v, %s : f32\n      linalg.yield %d : f32\n    }} -> {t(H, S, S)}")
    w(f"    %{p}_a = linalg.batch_matmul ins(%{p}_p, %{p}_vt : {t(H, S, S)}, {t(H, S, hd)}) outs(%z_hsd : {t(H, S, hd)}) -> {t(H, S, hd)}")
    w(f"    %{p}_at = linalg.transpose ins(%{p}_a : {t(H, S, hd)}) outs(%e_shd : {t(S, H, hd)}) permutation = [1, 0, 2]")
    w(f"    %{p}_ac = tensor.collapse_shape %{p}_at [[0], [1, 2]] : {t(S, H, hd)} into {t(S, D)}")
    linear(f"{p}_o", f"{p}_ac", f"{p}_wo", D, D, "z_sd")
    w(f"    %{p}_h = linalg.generic {{indexing_maps = [#id2, #id2, #id2], iterator_types = [\"parallel\", \"parallel\"]}} ins(%{x}, %{p}_o : {t(S, D)}, {t(S, D)}) outs(%e_sd : {t(S, D)}) {{\n"
      f"    ^bb0(%u: f32, %v: f32, %o: f32):\n      %s = arith.addf %u, %v : f32\n      linalg.yield %s : f32\n    }} -> {t(S, D)}")
    rmsnorm(f"{p}_n2", f"{p}_h", f"{p}_g2")
    linear(f"{p}_gate", f"{p}_n2", f"{p}_wg", D, F, "z_sf")
    linear(f"{p}_up", f"{p}_n2", f"{p}_wu", D, F, "z_sf")
    w(f"    %{p}_act = linalg.generic {{indexing_maps = [#id2, #id2, #id2], iterator_types = [\"parallel\", \"parallel\"]}} ins(%{p}_gate, %{p}_up : {t(S, F)}, {t(S, F)}) outs(%e_sf : {t(S, F)}) {{\n"
      f"    ^bb0(%g: f32, %u: f32, %o: f32):\n      %n = arith.negf %g : f32\n      %e = math.exp %n : f32\n      %d = arith.addf %e, %one : f32\n      %s = arith.divf %g, %d : f32\n      %m = arith.mulf %s, %u : f32\n      linalg.yield %m : f32\n    }} -> {t(S, F)}")
    linear(f"{p}_down", f"{p}_act", f"{p}_wd", F, D, "z_sd")
    w(f"    %{p}_out = linalg.generic {{indexing_maps = [#id2, #id2, #id2], iterator_types = [\"parallel\", \"parallel\"]}} ins(%{p}_h, %{p}_down : {t(S, D)}, {t(S, D)}) outs(%e_sd : {t(S, D)}) {{\n"
      f"    ^bb0(%u: f32, %v: f32, %o: f32):\n      %s = arith.addf %u, %v : f32\n      linalg.yield %s : f32\n    }} -> {t(S, D)}")
    a.cur = f"{p}_out"
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--layers", type=int, default=1)
    ap.add_argument("--seq", type=int, default=128)
    ap.add_argument("--hidden", type=int, default=512)
    ap.add_argument("--heads", type=int, default=8)
    ap.add_argument("--ffn", type=int, default=1408)
    ap.add_argument("--mixed", action="store_true",
                    help="add a memref/affine/vector KV-cache update per layer")
    a = ap.parse_args()
    S, D, H, F = a.seq, a.hidden, a.heads, a.ffn
    if D % H:
        sys.exit("hidden must be a multiple of heads")
    hd = D // H
    t = lambda *s: "tensor<" + "x".join(str(d) for d in s) + "xf32>"
    args = [f"%x: {t(S, D)}"]
    for i in range(a.layers):
        p = f"l{i}"
        args += [f"%{p}_g1: {t(D)}", f"%{p}_g2: {t(D)}"]
        args += [f"%{p}_w{n}: {t(D, D)}" for n in "qkvo"]
        args += [f"%{p}_wg: {t(D, F)}", f"%{p}_wu: {t(D, F)}", f"%{p}_wd: {t(F, D)}"]
    if a.mixed:
        args.append(f"%cache: memref<{2 * a.layers}x{S}x{D}xf32>")
    print("#id1 = affine_map<(d0) -> (d0)>")
    print("#id2 = affine_map<(d0, d1) -> (d0, d1)>")
    print("#row = affine_map<(d0, d1) -> (d0)>")
    print("#col = affine_map<(d0, d1) -> (d1)>")
    print("#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>")
    print("#red3 = affine_map<(d0, d1, d2) -> (d0, d1)>")
    print("module {")
    print(f"  func.func @forward({', '.join(args)}) -> {t(S, D)} {{")
    print("    %zero = arith.constant 0.0 : f32")
    print("    %one = arith.constant 1.0 : f32")
    print("    %ninf = arith.constant 0xFF800000 : f32")
    print(f"    %inv_d = arith.constant {1.0 / D!r} : f32")
    print("    %eps = arith.constant 1.0e-06 : f32")
    if a.mixed:
        for c in range(max(2 * a.layers, 1)):
            print(f"    %c{c} = arith.constant {c} : index")
    for name, shape in [("sd", (S, D)), ("s", (S,)), ("sf", (S, F)), ("hss", (H, S, S)),
                        ("hsd", (H, S, hd)), ("hds", (H, hd, S)), ("shd", (S, H, hd)), ("hs", (H, S))]:
        print(f"    %e_{name} = tensor.empty() : {t(*shape)}")
    for name in ("sd", "s", "sf", "hss", "hsd", "hs"):
        shape = {"sd": (S, D), "s": (S,), "sf": (S, F), "hss": (H, S, S), "hsd": (H, S, hd), "hs": (H, S)}[name]
        print(f"    %z_{name} = linalg.fill ins(%zero : f32) outs(%e_{name} : {t(*shape)}) -> {t(*shape)}")
    print(f"    %ninf_hs = linalg.fill ins(%ninf : f32) outs(%e_hs : {t(H, S)}) -> {t(H, S)}")
    a.cur = "x"
    for i in range(a.layers):
        print("\n".join(layer(i, a)))
    print(f"    return %{a.cur} : {t(S, D)}")
    print("  }")
    print("}")


if __name__ == "__main__":
    main()
