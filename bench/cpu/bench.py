#!/usr/bin/env python3
"""CPU throughput of the numerics API (fp8-cpu-pipeline through MLIR's
ExecutionEngine) side by side with NumPy's f32 GEMM, in one run.

Measures, for each shape, `fp8_mlir.scaled_matmul` (1x128 / 128x128 f32
scales, E4M3, bf16 out) with exact f32 sums and with
`emulate_accumulator_bits=14`, NumPy `a @ b.T` in f32 on the same M, N, K,
and `fp8_mlir.quantize` (1x128 and 128x128 blocks; float32, float16 and
bf16 input; on the default threads and, right after in a child process,
with OMP_NUM_THREADS=1, also per CPU-second, which the machine's load does
not inflate; scaled_matmul too with OMP_NUM_THREADS=1 in a child process); prints a Markdown table with GFLOP/s, GB/s, the ratio to
NumPy, the BLAS library NumPy loaded, the thread settings and the machine's load (the machine may be shared: compare
ratios measured side by side, not absolute numbers across runs).

Usage: PYTHONPATH=build/python_packages python3 bench/cpu/bench.py [--quick] [--quantize-only]
Shapes: DeepSeek-V3's N x K (the GEMMs of bench/gpu/shapes.txt) scaled by
1/4 in N and K to fit a small machine, at M = 128 and 512, and
512 x 1024 x 2048.
"""
import argparse
import os
import platform
import statistics
import subprocess
import sys
import time

import numpy as np

import fp8_mlir.numerics as nx
import importlib

_jit = importlib.import_module("fp8_mlir.jit")

# DeepSeek-V3 (N, K) of the GEMMs, scaled by 1/4.
DSV3_NK = [(2112, 7168), (24576, 1536), (7168, 16384), (4096, 7168), (7168, 512)]
SCALE = 4


def blas_name():
    """The BLAS shared library NumPy has mapped (after a GEMM ran)."""
    a = np.ones((64, 64), np.float32)
    _ = a @ a
    libs = set()
    with open("/proc/self/maps") as maps:
        for line in maps:
            path = line.split()[-1]
            base = os.path.basename(path)
            if "blas" in base or "lapack" in base or "mkl" in base:
                libs.add(os.path.realpath(path))
    return ", ".join(sorted(libs)) or "unknown"


def timeit(fn, reps, warmup=1, clock=time.perf_counter):
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(reps):
        t = clock()
        fn()
        times.append(clock() - t)
    return statistics.median(times)


class NativeTimer:
    """Accumulates the time spent inside compiled code (JitModule.call)."""

    def __init__(self):
        self.total = 0.0
        self._orig = _jit.JitModule.call

    def __enter__(self):
        orig = self._orig
        timer = self

        def call(module, name, *args):
            t = time.perf_counter()
            try:
                return orig(module, name, *args)
            finally:
                timer.total += time.perf_counter() - t

        _jit.JitModule.call = call
        return self

    def __exit__(self, *exc):
        _jit.JitModule.call = self._orig


QUANT_SHAPE = (4096, 768)
QUANT_BYTES = {"float32": 4, "float16": 2, "bf16": 2}


def time_quantize(block, name, reps):
    """Median wall and process CPU seconds of fp8_mlir.quantize of a
    QUANT_SHAPE array of `name` (bf16: the bit patterns, uint16, of the
    float32 values rounded to nearest even)."""
    x = np.random.default_rng(1).standard_normal(QUANT_SHAPE).astype(np.float32)
    dtype = None
    if name == "float16":
        x = x.astype(np.float16)
    elif name == "bf16":
        u = x.view(np.uint32).astype(np.uint64)
        x, dtype = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16), "bf16"

    def run():
        nx.quantize(x, block, dtype=dtype)

    return timeit(run, reps), timeit(run, reps, clock=time.process_time)


def matmul_operands(m, n, k):
    """Quantized A [m, k] (1x128) and B [n, k] (128x128) of standard normal
    values, the same in every process."""
    rng = np.random.default_rng((m, n, k))
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((n, k)).astype(np.float32)
    return a, b, nx.quantize(a, (1, 128)), nx.quantize(b, (128, 128))


def time_matmul(m, n, k, reps):
    """Median wall seconds of scaled_matmul exact and with
    emulate_accumulator_bits=14."""
    _, _, qa, qb = matmul_operands(m, n, k)
    return (timeit(lambda: nx.scaled_matmul(qa, qb), reps),
            timeit(lambda: nx.scaled_matmul(qa, qb, emulate_accumulator_bits=14), reps))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer shapes and repetitions")
    parser.add_argument("--quantize-only", action="store_true", help="only the quantize table")
    parser.add_argument("--quantize-row", nargs=3, metavar=("BLOCK", "INPUT", "REPS"),
                        help="(internal) print the wall and CPU seconds of one quantize row")
    parser.add_argument("--matmul-row", nargs=2, metavar=("MxNxK", "REPS"),
                        help="(internal) print the wall seconds of scaled_matmul, exact and "
                             "with accumulator-bits=14, of one shape")
    args = parser.parse_args()
    if args.matmul_row:
        m, n, k = (int(v) for v in args.matmul_row[0].split("x"))
        t, t_acc = time_matmul(m, n, k, int(args.matmul_row[1]))
        print(t, t_acc)
        return
    if args.quantize_row:
        block, name, reps = args.quantize_row
        t, c = time_quantize(tuple(int(v) for v in block.split("x")), name, int(reps))
        print(t, c)
        return
    reps = 2 if args.quick else 3

    shapes = [(512, 1024, 2048)]
    for m in (128, 512):
        for n, k in DSV3_NK:
            shapes.append((m, n // SCALE, k // SCALE))
    if args.quick:
        shapes = shapes[:3]
    if args.quantize_only:
        shapes = []

    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, "
          f"load average before: {os.getloadavg()[0]:.2f}")
    print(f"NumPy {np.__version__} BLAS: {blas_name()}")
    print(f"OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', '(unset)')}, "
          f"OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS', '(unset)')}, "
          f"OpenMP runtime: {_jit.openmp_runtime() or 'none (sequential)'}")
    print()
    print("| M x N x K | scaled_matmul GFLOP/s | NumPy f32 GFLOP/s | ratio | "
          "accumulator-bits=14 GFLOP/s | ratio | 2nd call outside compiled code | "
          "OMP_NUM_THREADS=1: ratio | OMP_NUM_THREADS=1: accumulator-bits=14 ratio |")
    print("|---|---|---|---|---|---|---|---|---|")
    for m, n, k in shapes:
        a, b, qa, qb = matmul_operands(m, n, k)
        flop = 2.0 * m * n * k
        t_fp8 = timeit(lambda: nx.scaled_matmul(qa, qb), reps)
        t_np = timeit(lambda: a @ b.T, reps)
        t_acc = timeit(lambda: nx.scaled_matmul(qa, qb, emulate_accumulator_bits=14), reps)
        # The share of repeated calls spent outside the compiled function.
        nx.scaled_matmul(qa, qb)
        with NativeTimer() as nt:
            t0 = time.perf_counter()
            for _ in range(reps):
                nx.scaled_matmul(qa, qb)
            total = time.perf_counter() - t0
        outside = (total - nt.total) / total
        # The same on one OpenMP thread, in a child process right after (the
        # OpenMP runtime fixes its thread count when it starts), against
        # the NumPy time above (OpenBLAS on its default threads).
        env = dict(os.environ, OMP_NUM_THREADS="1")
        child = subprocess.run([sys.executable, os.path.abspath(__file__), "--matmul-row",
                                f"{m}x{n}x{k}", str(reps)],
                               env=env, check=True, capture_output=True, text=True)
        t1, t1_acc = (float(v) for v in child.stdout.split())
        print(f"| {m} x {n} x {k} | {flop / t_fp8 / 1e9:.1f} | {flop / t_np / 1e9:.1f} | "
              f"{t_np / t_fp8:.2f} | {flop / t_acc / 1e9:.2f} | {t_np / t_acc:.3f} | "
              f"{100 * outside:.1f}% | {t_np / t1:.2f} | {t_np / t1_acc:.3f} |", flush=True)

    print()
    print("| quantize | elements | input | M elements/s | GB/s (in + codes + scales) | "
          "OMP_NUM_THREADS=1: M elements/s | OMP_NUM_THREADS=1: M elements per CPU-second |")
    print("|---|---|---|---|---|---|---|")
    for block in ((1, 128), (128, 128)):
        for name in ("float32", "float16", "bf16"):
            t, _ = time_quantize(block, name, reps)
            # The same in a child process on one OpenMP thread, right after
            # (the thread count of the OpenMP runtime is fixed when it
            # starts); its CPU time, which the machine's load does not
            # inflate, counts no idle spinning workers.
            env = dict(os.environ, OMP_NUM_THREADS="1")
            child = subprocess.run([sys.executable, os.path.abspath(__file__), "--quantize-row",
                                    f"{block[0]}x{block[1]}", name, str(reps)],
                                   env=env, check=True, capture_output=True, text=True)
            t1, c1 = (float(v) for v in child.stdout.split())
            n = QUANT_SHAPE[0] * QUANT_SHAPE[1]
            nbytes = n * (QUANT_BYTES[name] + 1) + 4 * n // (block[0] * block[1])
            print(f"| {block[0]}x{block[1]} | {n} | {name} | {n / t / 1e6:.0f} | {nbytes / t / 1e9:.2f} | "
                  f"{n / t1 / 1e6:.0f} | {n / c1 / 1e6:.0f} |")
    print()
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
