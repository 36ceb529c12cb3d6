#!/usr/bin/env python3
"""Compile-time benchmark of fp8-pipeline (docs/compile-time.md).

Times `fp8-opt --fp8-pipeline="report=false"` and `mlir-opt --canonicalize
--cse` on the same input, in the same run, on the real graphs in
../shared/models, on generated N-layer decoders (N = 1, 8, 32, 61) and on a
28-layer decode graph of mixed levels (linalg, memref, affine, vector), and
prints a Markdown table: the median of --repeat runs, the ratio, and how
time grows with N. Python 3 stdlib only.

    bench/compile/run.py --fp8-opt build/bin/fp8-opt [--mlir-opt mlir-opt]
                         [--models ../shared/models] [--repeat 3]
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REAL = ["bert_base_linalg", "berttiny_mlm_backward_linalg", "qwen_block_tosa", "mlp_fp32_3x1024",
        "mlp_bf16_3x1024"]
LAYERS = [1, 8, 32, 61]


def timed(cmd, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fp8-opt", required=True)
    ap.add_argument("--mlir-opt", default=shutil.which("mlir-opt") or "/usr/lib/llvm-22/bin/mlir-opt")
    ap.add_argument("--models", default=os.path.join(HERE, "..", "..", "..", "shared", "models"))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--layers", type=int, nargs="*", default=LAYERS)
    a = ap.parse_args()

    inputs = []
    for name in REAL:
        path = os.path.join(a.models, name + ".mlir")
        if os.path.exists(path):
            inputs.append((name, path, None))
    tmp = tempfile.mkdtemp(prefix="fp8-compile-bench-")
    gen = os.path.join(HERE, "gen_transformer.py")
    for n in a.layers:
        path = os.path.join(tmp, f"decoder_{n}.mlir")
        with open(path, "w") as f:
            subprocess.run([sys.executable, gen, "--layers", str(n)], check=True, stdout=f)
        inputs.append((f"decoder, {n} layer{'s' if n > 1 else ''}", path, n))
    # A decode graph of mixed levels (linalg on tensors + a memref/affine/
    # vector KV-cache update per layer), 28 layers like a distilled 7B decoder.
    path = os.path.join(tmp, "decode_mixed_28.mlir")
    with open(path, "w") as f:
        subprocess.run([sys.executable, gen, "--layers", "28", "--seq", "1", "--mixed"], check=True, stdout=f)
    inputs.append(("decode, mixed levels, 28 layers", path, None))

    print(f"| input | linalg ops | fp8-pipeline (s) | canonicalize+cse (s) | ratio |")
    print(f"|---|---:|---:|---:|---:|")
    per_layer = {}
    for name, path, n in inputs:
        with open(path) as f:
            ops = f.read().count("linalg.")
        fp8 = timed([a.fp8_opt, path, "--fp8-pipeline=report=false", "-o", os.devnull], a.repeat)
        base = timed([a.mlir_opt, path, "--canonicalize", "--cse", "-o", os.devnull], a.repeat)
        print(f"| {name} | {ops} | {fp8:.3f} | {base:.3f} | {fp8 / base:.1f}x |", flush=True)
        if n:
            per_layer[n] = (fp8, base)
    if len(per_layer) > 1:
        first = min(per_layer)
        print()
        print("| layers | fp8-pipeline vs fewest layers | canonicalize+cse vs fewest layers | fp8-pipeline ms/layer |")
        print("|---:|---:|---:|---:|")
        for n in sorted(per_layer):
            fp8, base = per_layer[n]
            print(f"| {n} | {fp8 / per_layer[first][0]:.1f}x | {base / per_layer[first][1]:.1f}x | {1000 * fp8 / n:.1f} |")
    shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
