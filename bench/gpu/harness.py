#!/usr/bin/env python3
"""Device check of the fp8-mlir sm_90a block-scaled FP8 GEMM (bench/gpu/run.sh).

Everything on the device runs through the COMPILED HOST PROGRAM that
bench/gpu/prepare.sh built on the build machine (libfp8_bench_host.so:
fp8-gpu-pipeline{host=llvm}, the kernels embedded, launched through the
mgpu* ABI of runtime/'s libfp8_mgpu_runtime.so); this script only calls its
C-interface entries. For each M N K of shapes.txt:
  1. `quantize_<M>x<N>x<K>(x, w)`: the quantize kernels on fresh inputs
     (A [M, K] bf16 in 1x128 tiles, B [N, K] f32 in 128x128 blocks, with NaN,
     Inf, an all-zero tile, tiny and huge values planted) against an
     independent oracle, bit for bit: PyTorch's own amax, IEEE f32 division
     and FP8 conversion;
  2. `gemm_<M>x<N>x<K>(a, b)` on the codes and scales of ordinary inputs
     (normal, never zeros) quantized by that same entry: D [M, N] bf16
     against an FP64 reference of the same FP8 codes and scales (no NaN, max
     error relative to max |ref|, DeepGEMM's similarity
     diff = 1 - 2 sum(xy) / sum(x^2 + y^2)), and, for the small shapes,
     bit for bit against libfp8_bench_cpu.so (the same GEMM through
     fp8-cpu-pipeline{accumulator=sm90}, the model of Hopper's accumulation);
  3. timing: the kernel's device time (CUDA events around the host call are
     not used: the call also allocates, copies the operands in and the
     result out; the kernel time comes from the profiler's record of the
     fp8_scaled_matmul kernel, and the whole call's wall time is reported
     too) against cuBLASLt's block-scaled FP8 GEMM through torch._scaled_mm
     (1x128 activation / 128x128 weight scales) and cuBLAS BF16 (torch.matmul
     on the dequantized operands), with TFLOPS and ratios;
  4. where the host program has it (prepare.sh's `gemmq` option: the
     session's configuration lines q and qtma), `gemmq_<M>x<N>x<K>(a, b)`,
     the quantize epilogue (the GEMM's bf16 result quantized into 1x128
     E4M3FN tiles inside the GEMM kernel), on the same operands: codes and
     scales bit for bit against quantize_oracle of step 2's D (the device's
     unfused gemm_, itself checked against FP64; the fused kernel rounds to
     bf16 before the amax, so the two agree bit for bit) and, for the small
     shapes, against the CPU library's gemmq_; timed beside gemm_ by the
     same profiler records, with TFLOPS and the output bytes per second
     (M*N codes + 4*M*ceil(N/128) scale bytes, against gemm_'s 2*M*N).

Needs PyTorch with CUDA; nothing of MLIR. A call that does not return in
--hang-seconds is reported as a hang and the harness exits (a hung kernel
cannot be cancelled from the host). Each row records the wall-clock window
of its timing (`window`, epoch seconds), which session_report.py matches
with the SM clock and power that device-session.sh logs meanwhile.

The parts that need no GPU (argument parsing, the shape list, the table)
import without PyTorch: test/Integration/GPUHost/device-session-python.test
runs them on the build machine; families.py reuses the rest.
"""
import argparse
import ctypes
import json
import math
import os
import sys
import threading
import time

try:  # the device machine has it; the build machine's tests need none
    import torch
except ImportError:
    torch = None

FMAX_E4M3 = 448.0


def ceil_div(a, b):
    return (a + b - 1) // b


class MemRef2D(ctypes.Structure):
    """MLIR's ranked memref descriptor, rank 2 (the C interface's layout)."""

    _fields_ = [("allocated", ctypes.c_void_p), ("aligned", ctypes.c_void_p),
                ("offset", ctypes.c_int64), ("sizes", ctypes.c_int64 * 2),
                ("strides", ctypes.c_int64 * 2)]


def memref(t):
    """A descriptor of the contiguous 2-D CPU tensor t (no copy)."""
    assert t.device.type == "cpu" and t.is_contiguous() and t.dim() == 2
    d = MemRef2D()
    d.allocated = d.aligned = t.data_ptr()
    d.offset = 0
    d.sizes[0], d.sizes[1] = t.shape
    d.strides[0], d.strides[1] = t.shape[1], 1
    return d


_libc = ctypes.CDLL(None)
_libc.free.argtypes = [ctypes.c_void_p]


def take(d, dtype):
    """The result buffer of descriptor d (malloc'ed by the host program) as
    a fresh CPU tensor; the buffer is freed."""
    rows, cols = d.sizes[0], d.sizes[1]
    out = torch.empty(rows, cols, dtype=dtype)
    if d.strides[0] != cols or d.strides[1] != 1:
        raise RuntimeError(f"unexpected result strides {tuple(d.strides)}")
    ctypes.memmove(out.data_ptr(), d.aligned + d.offset * out.element_size(),
                   out.numel() * out.element_size())
    _libc.free(d.allocated)
    return out


class HostProgram:
    """libfp8_bench_host.so (its global constructor loads the kernels into
    the CUDA context of libfp8_mgpu_runtime.so, loaded first and globally so
    the host program binds to it)."""

    def __init__(self, runtime_path, host_path, cpu_path):
        self.rt = ctypes.CDLL(runtime_path, mode=ctypes.RTLD_GLOBAL)
        self.rt.fp8_mgpu_error_count.restype = ctypes.c_long
        self.rt.fp8_mgpu_last_error.restype = ctypes.c_char_p
        self.lib = ctypes.CDLL(host_path)
        self.check("loading the host program")
        self.cpu = ctypes.CDLL(cpu_path) if cpu_path and os.path.exists(cpu_path) else None

    def check(self, what):
        if self.rt.fp8_mgpu_error_count():
            raise RuntimeError(f"{what}: {self.rt.fp8_mgpu_last_error().decode()}")

    def quantize(self, m, n, k, x, w):
        """x [M, K] bf16, w [N, K] f32 (CPU) -> (codes A, scales A, codes B,
        scales B) as CPU tensors (u8, f32)."""
        res = (MemRef2D * 4)()
        getattr(self.lib, f"_mlir_ciface_quantize_{m}x{n}x{k}")(
            ctypes.byref(res), ctypes.byref(memref(x)), ctypes.byref(memref(w)))
        self.check(f"quantize_{m}x{n}x{k}")
        return (take(res[0], torch.uint8), take(res[1], torch.float32),
                take(res[2], torch.uint8), take(res[3], torch.float32))

    def _gemm(self, lib, m, n, k, qa, sa, qb, sb):
        res = MemRef2D()
        getattr(lib, f"_mlir_ciface_gemm_{m}x{n}x{k}")(
            ctypes.byref(res), *[ctypes.byref(memref(t)) for t in (qa, sa, qb, sb)])
        return take(res, torch.bfloat16)

    def gemm(self, m, n, k, qa, sa, qb, sb):
        d = self._gemm(self.lib, m, n, k, qa, sa, qb, sb)
        self.check(f"gemm_{m}x{n}x{k}")
        return d

    def _gemmq(self, lib, m, n, k, qa, sa, qb, sb):
        res = (MemRef2D * 2)()
        getattr(lib, f"_mlir_ciface_gemmq_{m}x{n}x{k}")(
            ctypes.byref(res), *[ctypes.byref(memref(t)) for t in (qa, sa, qb, sb)])
        return take(res[0], torch.uint8), take(res[1], torch.float32)

    def has_gemmq(self, m, n, k):
        return hasattr(self.lib, f"_mlir_ciface_gemmq_{m}x{n}x{k}")

    def gemmq(self, m, n, k, qa, sa, qb, sb):
        """The quantize epilogue: (codes [M, N] u8, scales [M, ceil(N/128)]
        f32) of quantize(gemm(...)) as CPU tensors."""
        got = self._gemmq(self.lib, m, n, k, qa, sa, qb, sb)
        self.check(f"gemmq_{m}x{n}x{k}")
        return got

    def has_cpu_gemmq(self, m, n, k):
        return self.cpu is not None and hasattr(self.cpu, f"_mlir_ciface_gemmq_{m}x{n}x{k}")

    def cpu_gemmq(self, m, n, k, qa, sa, qb, sb):
        return self._gemmq(self.cpu, m, n, k, qa, sa, qb, sb)

    def has_cpu_gemm(self, m, n, k):
        return self.cpu is not None and hasattr(self.cpu, f"_mlir_ciface_gemm_{m}x{n}x{k}")

    def cpu_gemm(self, m, n, k, qa, sa, qb, sb):
        return self._gemm(self.cpu, m, n, k, qa, sa, qb, sb)


def call_or_die(fn, seconds, what):
    """fn() in a thread; exits the process if it does not return in time (a
    hung kernel blocks the host call forever)."""
    box = {}

    def run():
        try:
            box["value"] = fn()
        except BaseException as e:  # re-raised in the caller
            box["error"] = e

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(seconds)
    if t.is_alive():
        print(f"HANG: {what} did not return in {seconds} s", flush=True)
        os._exit(3)
    if "error" in box:
        raise box["error"]
    return box.get("value")


def quantize_oracle(x, block_rows, eps=1e-4):
    """The numerics contract §1 in PyTorch ops (f32, IEEE division): codes
    [R, C] u8 and scales [ceil(R/b), ceil(C/128)] f32 of x (any float dtype)."""
    r, c = x.shape
    rb, cb = ceil_div(r, block_rows), ceil_div(c, 128)
    xf = x.to(torch.float32)
    xp = torch.zeros(rb * block_rows, cb * 128, device=x.device, dtype=torch.float32)
    xp[:r, :c] = xf
    amax = xp.view(rb, block_rows, cb, 128).abs().amax(dim=(1, 3))  # NaN propagates
    # amax / 448 as an IEEE division: a tensor divisor, never the Python
    # float (PyTorch's CUDA division by a scalar multiplies by the rounded
    # reciprocal 1/448, 1 ulp off in about half the blocks: seen on the
    # H200, 2026-12-04).
    fmax = torch.full_like(amax, FMAX_E4M3)
    s = torch.maximum(amax, torch.full_like(amax, eps)) / fmax
    e = (s.view(torch.int32) >> 23) & 0xFF
    s = torch.where((e != 0) & (e != 0xFF), s, torch.ones_like(s))  # "not normal -> 1"
    full = s.repeat_interleave(block_rows, 0)[:r].repeat_interleave(128, 1)[:, :c]
    q = (xf / full).clamp(-FMAX_E4M3, FMAX_E4M3)  # satfinite; NaN stays NaN
    codes = q.to(torch.float8_e4m3fn).view(torch.uint8).clone()
    codes[torch.isnan(q)] = 0x7F  # the contract's NaN code (sign dropped)
    return codes, s.contiguous()


def plant_specials(x):
    """NaN, +Inf, an all-zero 1x128 tile, a tiny and a huge value."""
    r, c = x.shape
    if r >= 4 and c >= 128:
        x[0, 3] = float("nan")
        x[1, c - 1] = float("inf")
        x[2, :128] = 0.0
        x[3, 5] = 1e-30
        x[r - 1, 0] = 3e38
    return x


def check_quantize(hp, m, n, k, hang):
    """quantize_<M>x<N>x<K> of the host program on fresh inputs with specials
    planted, against quantize_oracle; returns the mismatch counts (A codes,
    A scales, B codes, B scales)."""
    def fresh(rows, cols, dtype):
        x = torch.randn(rows, cols) * torch.exp2(torch.randint(-20, 20, (rows, 1)).float())
        return plant_specials(x).to(dtype).contiguous()

    x, w = fresh(m, k, torch.bfloat16), fresh(n, k, torch.float32)
    got = call_or_die(lambda: hp.quantize(m, n, k, x, w), hang, f"quantize_{m}x{n}x{k}")
    ref_a = quantize_oracle(x.cuda(), 1)
    ref_b = quantize_oracle(w.cuda(), 128)
    bad = []
    for g, r in zip(got, ref_a + ref_b):
        r = r.cpu()
        if g.dtype == torch.float32:
            g, r = g.view(torch.int32), r.view(torch.int32)
        bad.append(int((g != r).sum().item()) if g.shape == r.shape else -1)
    return bad


def dequant(q, s, bm, bk):
    r, c = q.shape
    full = s.repeat_interleave(bm, 0)[:r].repeat_interleave(bk, 1)[:, :c]
    return q.to(torch.float64) * full.to(torch.float64)


def compare(out, ref):
    x = out.to(torch.float64)
    nan = int(torch.isnan(x).sum().item())
    xs = torch.nan_to_num(x, nan=0.0)
    denom = (xs * xs + ref * ref).sum().item()
    diff = 1.0 - 2.0 * (xs * ref).sum().item() / denom if denom else 0.0
    max_ref = ref.abs().max().item()
    max_err = (xs - ref).abs().max().item()
    return {"nan": nan, "diff": diff, "max_rel_err": max_err / max_ref if max_ref else max_err}


def wait_or_die(event, seconds, what):
    t0 = time.time()
    while not event.query():
        if time.time() - t0 > seconds:
            print(f"HANG: {what} did not finish in {seconds} s", flush=True)
            os._exit(3)
        time.sleep(0.001)


def bench(fn, iters, hang):
    fn()
    ev = torch.cuda.Event()
    ev.record()
    wait_or_die(ev, hang, "warm-up")
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(iters):
        fn()
    stop.record()
    wait_or_die(stop, hang * iters, "timed loop")
    return start.elapsed_time(stop) / iters * 1e-3


def kernel_times_ms(fn, iters, hang):
    """{kernel name: its device time per call of fn, ms}, the mean over
    `iters` calls, from the profiler's kernel records (CUPTI sees kernels
    launched through the driver API too; copies and memsets are left out);
    None without the profiler."""
    try:
        from torch.profiler import ProfilerActivity, profile
    except ImportError:
        return None
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(iters):
            call_or_die(fn, hang, "profiled call")
        torch.cuda.synchronize()
    def per_call(keep):
        per_name = {}
        for e in prof.events():
            if keep(e):
                per_name[e.name] = per_name.get(e.name, 0.0) + e.time_range.elapsed_us() / 1e3
        return {name: t / iters for name, t in per_name.items()}

    # Kernels: device-side records that are not copies or memsets (the
    # driver and runtime API records are the host's).
    times = per_call(lambda e: str(getattr(e, "device_type", "CUDA")).endswith("CUDA")
                     and not e.name.startswith(("Memcpy", "Memset", "cuda", "cu")))
    # A profiler that types its records otherwise: the project's kernels by
    # name, as the first device runs read them.
    return times or per_call(lambda e: e.name.startswith("fp8_"))


def time_of(times, prefix):
    """The summed per-call time of the kernels in `times` (kernel_times_ms)
    whose name starts with prefix; None when there is none."""
    hits = [t for name, t in (times or {}).items() if name.startswith(prefix)]
    return sum(hits) if hits else None


def kernel_time_ms(fn, iters, hang):
    """The mean device time of the fp8_scaled_matmul kernel per call of fn."""
    return time_of(kernel_times_ms(fn, iters, hang), "fp8_scaled_matmul")


def mismatches(got, ref):
    """[code mismatches, scale mismatches (bit patterns)] of two (codes u8,
    scales f32) pairs; -1 where the shapes differ."""
    bad = []
    for g, r in zip(got, ref):
        if g.dtype == torch.float32:
            g, r = g.view(torch.int32), r.view(torch.int32)
        bad.append(int((g != r).sum().item()) if g.shape == r.shape else -1)
    return bad


def gemmq_bytes(m, n):
    """Bytes the quantize epilogue writes: the codes and the 1x128 scales."""
    return m * n + 4 * m * ceil_div(n, 128)


def check_and_time_gemmq(hp, row, m, n, k, operands, d, args):
    """Step 4 into row (gemmq_ keys): the fused kernel's codes and scales
    against quantize_oracle of the unfused D and the CPU library, its time
    beside gemm_'s (row's t_fp8mlir_ms)."""
    run = lambda: hp.gemmq(m, n, k, *operands)
    try:
        got = call_or_die(run, args.hang_seconds, f"gemmq_{m}x{n}x{k}")
    except RuntimeError as e:
        row["gemmq_error"] = str(e).splitlines()[0][:160]
        row["gemmq_ok"] = False
        return
    ref = [t.cpu() for t in quantize_oracle(d.cuda(), 1)]
    row["gemmq_mismatch_vs_gemm"] = mismatches(got, ref)
    ok = row["gemmq_mismatch_vs_gemm"] == [0, 0]
    if hp.has_cpu_gemmq(m, n, k):
        row["gemmq_mismatch_vs_cpu_sm90"] = mismatches(got, hp.cpu_gemmq(m, n, k, *operands))
        ok = ok and row["gemmq_mismatch_vs_cpu_sm90"] == [0, 0]
    row["gemmq_ok"] = ok
    times = kernel_times_ms(run, min(args.iters, 5), args.hang_seconds)
    t = time_of(times, "fp8_scaled_matmul")
    # The quantize gets no kernel of its own: any other kernel is reported.
    if times is not None:
        row["gemmq_t_other_ms"] = sum(v for name, v in times.items()
                                      if not name.startswith("fp8_scaled_matmul"))
    if t:
        row["gemmq_t_ms"] = t
        row["gemmq_tflops"] = 2.0 * m * n * k / (t * 1e-3) / 1e12
        row["gemmq_out_gbps"] = gemmq_bytes(m, n) / (t * 1e-3) / 1e9
        if "t_fp8mlir_ms" in row:
            row["gemmq_vs_gemm"] = row["t_fp8mlir_ms"] / t
            row["gemm_out_gbps"] = 2 * m * n / (row["t_fp8mlir_ms"] * 1e-3) / 1e9


def gemmq_table(rows):
    """The lines of results.md's quantize-epilogue table (none when no row
    has a gemmq_ result)."""
    rows = [r for r in rows if "gemmq_ok" in r]
    if not rows:
        return []
    fmt = lambda r, key, f: (f % r[key]) if r.get(key) is not None else "n/a"
    lines = ["", "Quantize epilogue (gemmq_: D quantized to 1x128 E4M3FN tiles in the GEMM kernel)", "",
             "| M x N x K | codes/scales vs gemm_ + quantize | vs CPU sm90 | TFLOPS | out GB/s | "
             "gemm_ TFLOPS | gemm_ out GB/s | gemm_ time / gemmq_ time | other kernels ms |",
             "|---|---|---|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        vs = r.get("gemmq_mismatch_vs_gemm", r.get("gemmq_error", "n/a"))
        lines.append(f"| {r['shape']} | {'ok' if r['gemmq_ok'] else 'FAIL'} {vs} | "
                     f"{r.get('gemmq_mismatch_vs_cpu_sm90', 'n/a')} | {fmt(r, 'gemmq_tflops', '%.0f')} | "
                     f"{fmt(r, 'gemmq_out_gbps', '%.0f')} | {fmt(r, 'tflops_fp8mlir', '%.0f')} | "
                     f"{fmt(r, 'gemm_out_gbps', '%.0f')} | {fmt(r, 'gemmq_vs_gemm', '%.2fx')} | "
                     f"{fmt(r, 'gemmq_t_other_ms', '%.3f')} |")
    return lines


def parse_args(argv=None):
    ap = argparse.ArgumentParser(description="Device check of the compiled GEMMs (run.sh).")
    ap.add_argument("--runtime", required=True, help="libfp8_mgpu_runtime.so")
    ap.add_argument("--host", required=True, help="libfp8_bench_host.so (prepare.sh)")
    ap.add_argument("--cpu", default="", help="libfp8_bench_cpu.so (prepare.sh)")
    ap.add_argument("--shapes", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--iters", type=int, default=10)
    ap.add_argument("--hang-seconds", type=float, default=60.0)
    ap.add_argument("--budget-seconds", type=float, default=420.0)
    ap.add_argument("--seed", type=int, default=int(time.time()))
    ap.add_argument("--diff-tol", type=float, default=1e-4)
    args = ap.parse_args(argv)
    if args.iters < 1 or args.hang_seconds <= 0:
        ap.error("--iters must be at least 1 and --hang-seconds positive")
    return args


def read_shapes(path):
    """The M N K lines of a shape list ('#' starts a comment)."""
    shapes = []
    for number, line in enumerate(open(path), 1):
        fields = line.split("#")[0].split()
        if not fields:
            continue
        if len(fields) != 3 or not all(f.isdigit() and int(f) > 0 for f in fields):
            raise ValueError(f"{path}:{number}: expected 'M N K' (positive integers), got {line.strip()!r}")
        shapes.append(tuple(int(v) for v in fields))
    return shapes


def gemm_table(meta, rows):
    """The lines of results.md: a header line and one table row per shape
    ('n/a' where a figure is missing)."""
    lines = [f"{meta['date_utc']} UTC, {meta['device']} ({meta['sms']} SMs), torch {meta['torch']}, "
             f"CUDA {meta['cuda']}, compiled host program {meta['host_program']}, seed {meta['seed']}", "",
             "| M x N x K | check | diff | max rel err | bits vs CPU sm90 | fp8-mlir kernel TFLOPS | "
             "host call ms | cuBLASLt FP8 TFLOPS | vs cuBLASLt | BF16 TFLOPS | vs BF16 | "
             "quantize A/B bit-exact |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    fmt = lambda r, key, f: (f % r[key]) if key in r else "n/a"
    for r in rows:
        lines.append(f"| {r['shape']} | {'ok' if r['ok'] else 'FAIL'} | {r['diff']:.2e} | "
                     f"{r['max_rel_err']:.2e} | {fmt(r, 'bits_vs_cpu_sm90', '%d')} | "
                     f"{fmt(r, 'tflops_fp8mlir', '%.0f')} | {r['t_host_call_ms']:.1f} | "
                     f"{fmt(r, 'tflops_cublaslt', '%.0f')} | {fmt(r, 'ratio_vs_cublaslt', '%.2fx')} | "
                     f"{r['tflops_bf16']:.0f} | {fmt(r, 'ratio_vs_bf16', '%.2fx')} | "
                     f"{'ok' if r['quant_ok'] else r.get('quant_error', r.get('quant_mismatch'))} |")
    return lines


def main():
    args = parse_args()
    t_start = time.time()
    if torch is None:
        print("SKIP: PyTorch is not installed here", flush=True)
        sys.exit(77)
    torch.manual_seed(args.seed)
    if not torch.cuda.is_available():
        print("SKIP: PyTorch sees no CUDA device", flush=True)
        sys.exit(77)
    dev = torch.device("cuda")
    torch.zeros(1, device=dev)  # the primary context, shared with the runtime
    hp = HostProgram(args.runtime, args.host, args.cpu)

    shapes = read_shapes(args.shapes)

    props = torch.cuda.get_device_properties(dev)
    rows, failures = [], 0
    for (m, n, k) in shapes:
        if time.time() - t_start > args.budget_seconds:
            print(f"budget exhausted before {m}x{n}x{k}", flush=True)
            break
        row = {"shape": f"{m}x{n}x{k}"}
        flops = 2.0 * m * n * k
        # 1. Quantize kernels, bit for bit against the PyTorch oracle.
        try:
            bad = check_quantize(hp, m, n, k, args.hang_seconds)
            row["quant_mismatch"] = dict(zip(["a_codes", "a_scales", "b_codes", "b_scales"], bad))
            row["quant_ok"] = bad == [0, 0, 0, 0]
        except RuntimeError as e:
            row["quant_error"] = str(e).splitlines()[0][:160]
            row["quant_ok"] = False
        failures += not row["quant_ok"]
        # 2. The GEMM on operands quantized by the host program itself.
        x = torch.randn(m, k).to(torch.bfloat16).contiguous()
        w = torch.randn(n, k).contiguous()
        qa, sa, qb, sb = call_or_die(lambda: hp.quantize(m, n, k, x, w), args.hang_seconds,
                                     f"quantize_{m}x{n}x{k}")
        run = lambda: hp.gemm(m, n, k, qa, sa, qb, sb)
        t0 = time.time()
        d = call_or_die(run, args.hang_seconds, f"gemm_{m}x{n}x{k}")
        row["t_host_call_ms"] = (time.time() - t0) * 1e3
        qa_g = qa.cuda().view(torch.float8_e4m3fn)
        qb_g = qb.cuda().view(torch.float8_e4m3fn)
        sa_g, sb_g = sa.cuda(), sb.cuda()
        ref = dequant(qa_g, sa_g, 1, 128) @ dequant(qb_g, sb_g, 128, 128).t()
        row.update(compare(d.cuda(), ref))
        ok = row["nan"] == 0 and row["diff"] < args.diff_tol
        if hp.has_cpu_gemm(m, n, k):
            cpu = hp.cpu_gemm(m, n, k, qa, sa, qb, sb)
            row["bits_vs_cpu_sm90"] = int((cpu.view(torch.int16) != d.view(torch.int16)).sum().item())
            ok = ok and row["bits_vs_cpu_sm90"] == 0
        row["ok"] = ok
        failures += not ok
        # 3. Timing (its wall-clock window: the clock and power beside it).
        t_window = time.time()
        t0 = time.time()
        for _ in range(3):
            call_or_die(run, args.hang_seconds, f"gemm_{m}x{n}x{k}")
        row["t_host_call_ms"] = (time.time() - t0) / 3 * 1e3
        t_kernel = kernel_time_ms(run, min(args.iters, 5), args.hang_seconds)
        if t_kernel:
            row["t_fp8mlir_ms"] = t_kernel
            row["tflops_fp8mlir"] = flops / (t_kernel * 1e-3) / 1e12
        kb = ceil_div(k, 128)
        # cuBLASLt block-scaled FP8 (CUDA 12.9+): A scales [M, K/128] M-major,
        # B scales [roundUp(K/128, 4), N/128] K-major (cuBLASLt's layout rules).
        try:
            l4 = ceil_div(kb, 4) * 4
            sa_mm = sa_g.t().contiguous().t()
            sb_pad = torch.zeros(sb_g.shape[0], l4, device=dev, dtype=torch.float32)
            sb_pad[:, :kb] = sb_g
            run_lt = lambda: torch._scaled_mm(qa_g, qb_g.t(), scale_a=sa_mm, scale_b=sb_pad.t(),
                                              out_dtype=torch.bfloat16)
            out_lt = run_lt()
            row["cublaslt_diff"] = compare(out_lt, ref)["diff"]
            row["t_cublaslt_ms"] = bench(run_lt, args.iters, args.hang_seconds) * 1e3
            row["tflops_cublaslt"] = flops / (row["t_cublaslt_ms"] * 1e-3) / 1e12
            if "t_fp8mlir_ms" in row:
                row["ratio_vs_cublaslt"] = row["t_cublaslt_ms"] / row["t_fp8mlir_ms"]
        except Exception as e:  # report, never fail the check on the baseline
            row["cublaslt_error"] = str(e).splitlines()[0][:160]
        a16 = dequant(qa_g, sa_g, 1, 128).to(torch.bfloat16)
        b16 = dequant(qb_g, sb_g, 128, 128).to(torch.bfloat16)
        del ref
        row["t_bf16_ms"] = bench(lambda: torch.matmul(a16, b16.t()), args.iters,
                                 args.hang_seconds) * 1e3
        row["tflops_bf16"] = flops / (row["t_bf16_ms"] * 1e-3) / 1e12
        if "t_fp8mlir_ms" in row:
            row["ratio_vs_bf16"] = row["t_bf16_ms"] / row["t_fp8mlir_ms"]
        # 4. The quantize epilogue (its time inside the row's window).
        if hp.has_gemmq(m, n, k):
            check_and_time_gemmq(hp, row, m, n, k, (qa, sa, qb, sb), d, args)
            failures += not row["gemmq_ok"]
        row["window"] = [t_window, time.time()]
        del a16, b16, qa_g, qb_g, d
        rows.append(row)
        print(json.dumps(row), flush=True)
        torch.cuda.empty_cache()

    os.makedirs(args.out, exist_ok=True)
    meta = {"device": props.name, "sms": props.multi_processor_count,
            "torch": torch.__version__, "cuda": torch.version.cuda,
            "host_program": os.path.basename(args.host), "seed": args.seed,
            "date_utc": time.strftime("%Y-%m-%d %H:%M", time.gmtime())}
    json.dump({"meta": meta, "rows": rows}, open(os.path.join(args.out, "results.json"), "w"), indent=1)
    lines = gemm_table(meta, rows) + gemmq_table(rows)
    open(os.path.join(args.out, "results.md"), "w").write("\n".join(lines) + "\n")
    print("\n".join(lines))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
