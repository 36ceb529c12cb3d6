#!/usr/bin/env python3
"""Device check of the fp8-mlir sm_90a block-scaled FP8 GEMM (bench/gpu/run.sh).

For each M N K of shapes.txt:
  1. fresh random inputs (normal, never zeros), quantized in the DeepSeek-V3
     layout: A 1x128 blocks along K, B 128x128 blocks, f32 scales amax/448;
  2. the kernel (loaded through runtime/'s C API from the cubin/PTX that
     fp8-gpu-pipeline produced on the build machine) writes D [M, N] bf16 into
     a NaN-poisoned buffer;
  3. D is checked against an FP64 reference of the same FP8 codes and scales
     (dequantize, matmul in float64 on the GPU): no NaN left (every element
     written), max error relative to max |ref|, and DeepGEMM's similarity
     diff = 1 - 2 sum(xy) / sum(x^2 + y^2);
  4. timing (CUDA events) against cuBLASLt's block-scaled FP8 GEMM through
     torch._scaled_mm (1x128 activation / 128x128 weight scales) and cuBLAS
     BF16 (torch.matmul on the dequantized operands), with TFLOPS and ratios;
  5. the quantize kernels of the same shapes (A [M, K] bf16 in 1x128 tiles,
     B [N, K] f32 in 128x128 blocks) against an independent oracle, bit for
     bit: PyTorch's own amax, IEEE f32 division and FP8 conversion, on inputs
     with NaN, Inf, an all-zero tile, tiny and huge values planted.

Needs PyTorch with CUDA; nothing of MLIR. A kernel that does not finish in
--hang-seconds is reported as a hang and the harness exits (a hung kernel
cannot be cancelled from the host).
"""
import argparse
import ctypes
import json
import math
import os
import sys
import time

import torch

FMAX_E4M3 = 448.0


def ceil_div(a, b):
    return (a + b - 1) // b


class Runtime:
    """ctypes binding of runtime/include/fp8_cuda_runtime.h."""

    def __init__(self, path):
        self.lib = ctypes.CDLL(path)
        L = self.lib
        vp, i64 = ctypes.c_void_p, ctypes.c_int64
        L.fp8rt_init.argtypes = [ctypes.c_int]
        L.fp8rt_last_error.restype = ctypes.c_char_p
        L.fp8rt_module_load.argtypes = [ctypes.c_char_p, ctypes.c_size_t,
                                        ctypes.POINTER(vp)]
        L.fp8rt_gemm_config.argtypes = [i64, i64, i64] + [ctypes.POINTER(i64)] * 5
        L.fp8rt_gemm_create.argtypes = [vp, ctypes.c_char_p, i64, i64, i64,
                                        vp, vp, vp, vp, vp, ctypes.c_int,
                                        ctypes.POINTER(vp)]
        L.fp8rt_gemm_launch.argtypes = [vp, vp]
        L.fp8rt_gemm_destroy.argtypes = [vp]
        L.fp8rt_quantize_launch.argtypes = [vp, ctypes.c_char_p, i64, i64, i64,
                                            vp, vp, vp, vp]
        ci, sz = ctypes.c_int, ctypes.c_size_t
        L.fp8rt_gemm_kernel_name.argtypes = [i64, i64, i64, ci, ci, ci,
                                             ctypes.c_char_p, sz]
        L.fp8rt_quantize_kernel_name.argtypes = [i64, i64, i64, ci, ci, ci,
                                                 ctypes.c_float, ctypes.c_char_p, sz]
        self.check(L.fp8rt_init(torch.cuda.current_device()), "fp8rt_init")

    def check(self, rc, what):
        if rc != 0:
            raise RuntimeError(f"{what}: {self.lib.fp8rt_last_error().decode()}")

    def load(self, image_bytes):
        mod = ctypes.c_void_p()
        self.check(self.lib.fp8rt_module_load(image_bytes, len(image_bytes),
                                              ctypes.byref(mod)), "module load")
        return mod

    # fp8rt_type (runtime/include/fp8_cuda_runtime.h).
    E4M3, E5M2, BF16, F32 = 0, 1, 2, 3

    def gemm_kernel_name(self, m, n, k, a=E4M3, b=E4M3, out=BF16):
        """The generator's kernel symbol, from the runtime (never spelled here)."""
        buf = ctypes.create_string_buffer(256)
        self.check(self.lib.fp8rt_gemm_kernel_name(m, n, k, a, b, out, buf, 256),
                   "gemm kernel name")
        return buf.value.decode()

    def quantize_kernel_name(self, rows, cols, block_rows, dtype, fp8=E4M3,
                             pow2=False, eps=1e-4):
        buf = ctypes.create_string_buffer(256)
        self.check(self.lib.fp8rt_quantize_kernel_name(
            rows, cols, block_rows, self.BF16 if dtype == torch.bfloat16 else self.F32,
            fp8, int(pow2), eps, buf, 256), "quantize kernel name")
        return buf.value.decode()

    def config(self, m, n, k):
        vals = [ctypes.c_int64() for _ in range(5)]
        self.lib.fp8rt_gemm_config(m, n, k, *[ctypes.byref(v) for v in vals])
        return dict(zip(["threads", "smem", "stages", "block_m", "block_n"],
                        [v.value for v in vals]))

    def gemm(self, mod, name, m, n, k, a, b, sa_t, sb, d):
        plan = ctypes.c_void_p()
        self.check(self.lib.fp8rt_gemm_create(
            mod, name.encode(), m, n, k, a.data_ptr(), b.data_ptr(),
            sa_t.data_ptr(), sb.data_ptr(), d.data_ptr(), 0, ctypes.byref(plan)),
            f"gemm create {name}")
        return plan

    def launch(self, plan):
        self.check(self.lib.fp8rt_gemm_launch(
            plan, ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)),
            "launch")


def quantize_oracle(x, block_rows, eps=1e-4):
    """The numerics contract §1 in PyTorch ops (f32, IEEE division): codes
    [R, C] u8 and scales [ceil(R/b), ceil(C/128)] f32 of x (any float dtype)."""
    r, c = x.shape
    rb, cb = ceil_div(r, block_rows), ceil_div(c, 128)
    xf = x.to(torch.float32)
    xp = torch.zeros(rb * block_rows, cb * 128, device=x.device, dtype=torch.float32)
    xp[:r, :c] = xf
    amax = xp.view(rb, block_rows, cb, 128).abs().amax(dim=(1, 3))  # NaN propagates
    s = torch.maximum(amax, torch.tensor(eps, device=x.device, dtype=torch.float32)) / FMAX_E4M3
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


def check_quantize(rt, mod, rows, cols, block_rows, dtype, hang):
    """Runs fp8_quantize_<rows>x<cols>_<b>x128_<in>_e4m3 on fresh inputs in
    poisoned outputs; returns (mismatching codes, mismatching scales)."""
    name = rt.quantize_kernel_name(rows, cols, block_rows, dtype)
    x = plant_specials(torch.randn(rows, cols, device="cuda") *
                       torch.exp2(torch.randint(-20, 20, (rows, 1), device="cuda").float()))
    x = x.to(dtype).contiguous()
    q = torch.full((rows, cols), 0xAA, device="cuda", dtype=torch.uint8)
    s = torch.full((ceil_div(rows, block_rows), ceil_div(cols, 128)), float("nan"),
                   device="cuda", dtype=torch.float32)
    rt.check(rt.lib.fp8rt_quantize_launch(
        mod, name.encode(), rows, cols, block_rows, x.data_ptr(), q.data_ptr(),
        s.data_ptr(), ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)), name)
    ev = torch.cuda.Event()
    ev.record()
    wait_or_die(ev, hang, name)
    ref_q, ref_s = quantize_oracle(x, block_rows)
    bad_q = int((q != ref_q).sum().item())
    bad_s = int((s.view(torch.int32) != ref_s.view(torch.int32)).sum().item())
    return bad_q, bad_s


def quantize_1x128(x):
    """[M, K] -> codes [M, K] e4m3, scales [M, ceil(K/128)] f32 (amax / 448)."""
    m, k = x.shape
    kb = ceil_div(k, 128)
    xp = torch.zeros(m, kb * 128, device=x.device, dtype=torch.float32)
    xp[:, :k] = x
    amax = xp.view(m, kb, 128).abs().amax(dim=2).clamp_min(1e-4)
    s = amax / FMAX_E4M3
    q = (xp.view(m, kb, 128) / s[:, :, None]).clamp(-FMAX_E4M3, FMAX_E4M3)
    q = q.view(m, kb * 128)[:, :k]
    return q.contiguous().to(torch.float8_e4m3fn), s.contiguous()


def quantize_128x128(w):
    """[N, K] -> codes [N, K] e4m3, scales [ceil(N/128), ceil(K/128)] f32."""
    n, k = w.shape
    nb, kb = ceil_div(n, 128), ceil_div(k, 128)
    wp = torch.zeros(nb * 128, kb * 128, device=w.device, dtype=torch.float32)
    wp[:n, :k] = w
    blocks = wp.view(nb, 128, kb, 128)
    amax = blocks.abs().amax(dim=(1, 3)).clamp_min(1e-4)
    s = amax / FMAX_E4M3
    q = (blocks / s[:, None, :, None]).clamp(-FMAX_E4M3, FMAX_E4M3)
    q = q.view(nb * 128, kb * 128)[:n, :k]
    return q.contiguous().to(torch.float8_e4m3fn), s.contiguous()


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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runtime", required=True)
    ap.add_argument("--image", required=True, help="kernels.cubin or kernels.ptx")
    ap.add_argument("--shapes", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--iters", type=int, default=20)
    ap.add_argument("--hang-seconds", type=float, default=20.0)
    ap.add_argument("--budget-seconds", type=float, default=420.0)
    ap.add_argument("--seed", type=int, default=int(time.time()))
    ap.add_argument("--diff-tol", type=float, default=1e-4)
    args = ap.parse_args()
    t_start = time.time()
    torch.manual_seed(args.seed)
    dev = torch.device("cuda")
    torch.zeros(1, device=dev)  # primary context current on this thread
    rt = Runtime(args.runtime)
    images = [args.image]
    if args.image.endswith(".cubin"):
        images.append(args.image[: -len(".cubin")] + ".ptx")
    mod, err, image_used = None, None, None
    for path in images:
        try:
            mod = rt.load(open(path, "rb").read() + (b"\0" if path.endswith(".ptx") else b""))
            image_used = path
            break
        except RuntimeError as e:
            err = e
            print(f"could not load {path}: {e}", flush=True)
    if mod is None:
        raise SystemExit(f"no loadable kernel image: {err}")

    shapes = []
    for line in open(args.shapes):
        line = line.split("#")[0].split()
        if len(line) == 3:
            shapes.append(tuple(int(v) for v in line))

    props = torch.cuda.get_device_properties(dev)
    rows, failures = [], 0
    for (m, n, k) in shapes:
        if time.time() - t_start > args.budget_seconds:
            print(f"budget exhausted before {m}x{n}x{k}", flush=True)
            break
        name = rt.gemm_kernel_name(m, n, k)
        cfg = rt.config(m, n, k)
        x = torch.randn(m, k, device=dev)
        w = torch.randn(n, k, device=dev)
        qa, sa = quantize_1x128(x)
        qb, sb = quantize_128x128(w)
        kb = ceil_div(k, 128)
        mpad = ceil_div(m, 4) * 4
        sa_t = torch.zeros(kb, mpad, device=dev, dtype=torch.float32)
        sa_t[:, :m] = sa.t()
        d = torch.full((m, n), float("nan"), device=dev, dtype=torch.bfloat16)
        plan = rt.gemm(mod, name, m, n, k, qa, qb, sa_t, sb, d)
        rt.launch(plan)
        ev = torch.cuda.Event()
        ev.record()
        wait_or_die(ev, args.hang_seconds, name)
        ref = dequant(qa, sa, 1, 128) @ dequant(qb, sb, 128, 128).t()
        res = compare(d, ref)
        ok = res["nan"] == 0 and res["diff"] < args.diff_tol
        failures += not ok
        flops = 2.0 * m * n * k
        row = {"shape": f"{m}x{n}x{k}", "ok": ok, **res, **cfg}
        row["t_fp8mlir_ms"] = bench(lambda: rt.launch(plan), args.iters, args.hang_seconds) * 1e3
        row["tflops_fp8mlir"] = flops / (row["t_fp8mlir_ms"] * 1e-3) / 1e12

        # cuBLASLt block-scaled FP8 (CUDA 12.9+): A scales [M, K/128] M-major,
        # B scales [roundUp(K/128, 4), N/128] K-major (cuBLASLt's layout rules).
        try:
            l4 = ceil_div(kb, 4) * 4
            sa_mm = sa.t().contiguous().t()
            sb_pad = torch.zeros(sb.shape[0], l4, device=dev, dtype=torch.float32)
            sb_pad[:, :kb] = sb
            run_lt = lambda: torch._scaled_mm(qa, qb.t(), scale_a=sa_mm, scale_b=sb_pad.t(),
                                              out_dtype=torch.bfloat16)
            out_lt = run_lt()
            row["cublaslt_diff"] = compare(out_lt, ref)["diff"]
            row["t_cublaslt_ms"] = bench(run_lt, args.iters, args.hang_seconds) * 1e3
            row["tflops_cublaslt"] = flops / (row["t_cublaslt_ms"] * 1e-3) / 1e12
            row["ratio_vs_cublaslt"] = row["t_cublaslt_ms"] / row["t_fp8mlir_ms"]
        except Exception as e:  # report, never fail the check on the baseline
            row["cublaslt_error"] = str(e).splitlines()[0][:160]
        a16 = dequant(qa, sa, 1, 128).to(torch.bfloat16)
        b16 = dequant(qb, sb, 128, 128).to(torch.bfloat16)
        del ref
        row["t_bf16_ms"] = bench(lambda: torch.matmul(a16, b16.t()), args.iters,
                                 args.hang_seconds) * 1e3
        row["tflops_bf16"] = flops / (row["t_bf16_ms"] * 1e-3) / 1e12
        row["ratio_vs_bf16"] = row["t_bf16_ms"] / row["t_fp8mlir_ms"]
        rt.lib.fp8rt_gemm_destroy(plan)
        del a16, b16
        try:
            qa_bad = check_quantize(rt, mod, m, k, 1, torch.bfloat16, args.hang_seconds)
            qb_bad = check_quantize(rt, mod, n, k, 128, torch.float32, args.hang_seconds)
            row["quant_mismatch"] = {"a_codes": qa_bad[0], "a_scales": qa_bad[1],
                                     "b_codes": qb_bad[0], "b_scales": qb_bad[1]}
            row["quant_ok"] = qa_bad == (0, 0) and qb_bad == (0, 0)
        except RuntimeError as e:
            row["quant_error"] = str(e).splitlines()[0][:160]
            row["quant_ok"] = False
        failures += not row["quant_ok"]
        rows.append(row)
        print(json.dumps(row), flush=True)
        del x, w, qa, qb, sa, sb, sa_t, d
        torch.cuda.empty_cache()

    os.makedirs(args.out, exist_ok=True)
    meta = {"device": props.name, "sms": props.multi_processor_count,
            "torch": torch.__version__, "cuda": torch.version.cuda,
            "image": os.path.basename(image_used), "seed": args.seed,
            "date_utc": time.strftime("%Y-%m-%d %H:%M", time.gmtime())}
    json.dump({"meta": meta, "rows": rows}, open(os.path.join(args.out, "results.json"), "w"), indent=1)
    lines = [f"{meta['date_utc']} UTC, {meta['device']} ({meta['sms']} SMs), torch {meta['torch']}, "
             f"CUDA {meta['cuda']}, image {meta['image']}, seed {meta['seed']}", "",
             "| M x N x K | check | diff | max rel err | fp8-mlir TFLOPS | cuBLASLt FP8 TFLOPS | "
             "vs cuBLASLt | BF16 TFLOPS | vs BF16 | quantize A/B bit-exact |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    fmt = lambda r, key, f: (f % r[key]) if key in r else "n/a"
    for r in rows:
        lines.append(f"| {r['shape']} | {'ok' if r['ok'] else 'FAIL'} | {r['diff']:.2e} | "
                     f"{r['max_rel_err']:.2e} | {r['tflops_fp8mlir']:.0f} | "
                     f"{fmt(r, 'tflops_cublaslt', '%.0f')} | {fmt(r, 'ratio_vs_cublaslt', '%.2fx')} | "
                     f"{r['tflops_bf16']:.0f} | {r['ratio_vs_bf16']:.2f}x | "
                     f"{'ok' if r['quant_ok'] else r.get('quant_error', r.get('quant_mismatch'))} |")
    open(os.path.join(args.out, "results.md"), "w").write("\n".join(lines) + "\n")
    print("\n".join(lines))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
