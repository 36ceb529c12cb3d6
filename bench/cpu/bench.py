#!/usr/bin/env python3
"""CPU throughput of the numerics API (fp8-cpu-pipeline through MLIR's
ExecutionEngine) side by side with NumPy's f32 GEMM, in one run.

Measures, for each shape, `fp8_mlir.scaled_matmul` (1x128 / 128x128 f32
scales, E4M3, bf16 out) with exact f32 sums and with
`emulate_accumulator_bits=14`, NumPy `a @ b.T` in f32 on the same M, N, K,
and `fp8_mlir.quantize` (1x128 and 128x128 blocks; float32, float16 and
bf16 input, on the default threads and on one, side by side, the latter
also per CPU-second, which the machine's load does not inflate); prints a
Markdown table
with GFLOP/s, GB/s, the ratio to NumPy, the BLAS library NumPy loaded, the
thread settings and the machine's load (the machine may be shared: compare
ratios measured side by side, not absolute numbers across runs).

Usage: PYTHONPATH=build/python_packages python3 bench/cpu/bench.py [--quick]
Shapes: DeepSeek-V3's N x K (the GEMMs of bench/gpu/shapes.txt) scaled by
1/4 in N and K to fit a small machine, at M = 128 and 512, and
512 x 1024 x 2048.
"""
import argparse
import ctypes
import os
import platform
import statistics
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


class omp_threads:
    """Runs the OpenMP loops of the compiled code on `n` threads inside the
    block (omp_set_num_threads of the runtime the JIT loaded), then restores
    the default; without the runtime the code is sequential anyway."""

    def __init__(self, n):
        self.n = n
        path = _jit.openmp_runtime()
        self.lib = ctypes.CDLL(path) if path else None

    def __enter__(self):
        if self.lib:
            self.saved = self.lib.omp_get_max_threads()
            self.lib.omp_set_num_threads(self.n)
        return self

    def __exit__(self, *exc):
        if self.lib:
            self.lib.omp_set_num_threads(self.saved)


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


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer shapes and repetitions")
    parser.add_argument("--quantize-only", action="store_true", help="only the quantize table")
    args = parser.parse_args()
    reps = 2 if args.quick else 3
    rng = np.random.default_rng(0)

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
          "accumulator-bits=14 GFLOP/s | ratio | 2nd call outside compiled code |")
    print("|---|---|---|---|---|---|---|")
    for m, n, k in shapes:
        a = rng.standard_normal((m, k)).astype(np.float32)
        b = rng.standard_normal((n, k)).astype(np.float32)
        qa, qb = nx.quantize(a, (1, 128)), nx.quantize(b, (128, 128))
        flop = 2.0 * m * n * k
        t_fp8 = timeit(lambda: nx.scaled_matmul(qa, qb), reps)
        t_np = timeit(lambda: a @ b.T, reps)
        # The share of repeated calls spent outside the compiled function.
        nx.scaled_matmul(qa, qb)
        with NativeTimer() as nt:
            t0 = time.perf_counter()
            for _ in range(reps):
                nx.scaled_matmul(qa, qb)
            total = time.perf_counter() - t0
        outside = (total - nt.total) / total
        # The emulated accumulator is the scalar reference path: one run on
        # the M = 128 shapes and 512 x 1024 x 2048 only.
        if m == 128 or (m, n, k) == (512, 1024, 2048):
            t_acc = timeit(lambda: nx.scaled_matmul(qa, qb, emulate_accumulator_bits=14), 1)
            acc = f"{flop / t_acc / 1e9:.2f} | {t_np / t_acc:.4f}"
        else:
            acc = "- | -"
        print(f"| {m} x {n} x {k} | {flop / t_fp8 / 1e9:.1f} | {flop / t_np / 1e9:.1f} | "
              f"{t_np / t_fp8:.2f} | {acc} | {100 * outside:.1f}% |")

    print()
    print("| quantize | elements | input | M elements/s | GB/s (in + codes + scales) | "
          "1 thread: M elements/s | 1 thread: M elements per CPU-second |")
    print("|---|---|---|---|---|---|---|")
    x = rng.standard_normal((4096, 768)).astype(np.float32)
    # bf16 input: the bit patterns (uint16) of x rounded to nearest even.
    u = x.view(np.uint32).astype(np.uint64)
    x_bf16 = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    inputs = (("float32", x, None), ("float16", x.astype(np.float16), None), ("bf16", x_bf16, "bf16"))
    for block in ((1, 128), (128, 128)):
        for name, xi, dtype in inputs:
            def run():
                nx.quantize(xi, block, dtype=dtype)
            t = timeit(run, reps)
            # The same with one OpenMP thread, measured in the same run.
            with omp_threads(1):
                t1 = timeit(run, reps)
                c1 = timeit(run, reps, clock=time.process_time)
            nbytes = xi.nbytes + x.size + 4 * x.size // (block[0] * block[1])
            print(f"| {block[0]}x{block[1]} | {x.size} | {name} | "
                  f"{x.size / t / 1e6:.0f} | {nbytes / t / 1e9:.2f} | "
                  f"{x.size / t1 / 1e6:.0f} | {x.size / c1 / 1e6:.0f} |")
    print()
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
