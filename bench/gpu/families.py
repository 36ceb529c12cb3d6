#!/usr/bin/env python3
"""The kernel families beyond the 2-D GEMM, bit-exact and then timed on the
device (bench/gpu/device-session.sh), at the shapes of families.txt:

  families.py mlir MANIFEST GPU.mlir CPU.mlir
      HERE (prepare-all.sh): one host function per manifest line into
      GPU.mlir (through fp8-gpu-pipeline{host=llvm}: the library under test)
      and the CPU oracle's functions into CPU.mlir (through
      fp8-cpu-pipeline{accumulator=sm90}, Hopper's accumulation).
  families.py run --runtime RT.so --host HOST.so --cpu CPU.so --manifest M --out DIR
      ON THE DEVICE: for each line, fresh inputs (their codes and scales
      from the PyTorch quantize oracle of harness.py), the host call checked
      bit for bit against an independent oracle, then its kernels timed
      (the profiler's kernel records) with the anchor of the same run:
        contiguous / masked / k-grouped / wgrad  GEMMs: outputs of 128x256
            slices (a group's first rows and columns, the last group's last
            ones) against the CPU oracle's fp8.scaled_matmul on the same
            codes and scales, bit for bit (fp8.grouped_scaled_matmul's
            contract: every element is that of the 2-D GEMM of its group's
            slices), padding and masked rows +0.0, every valid output
            against FP64 of the same codes and scales (DeepGEMM's
            similarity diff below --diff-tol); TFLOPS on the valid rows
            against cuBLASLt's block-scaled FP8 (torch._scaled_mm, one call
            per group, summed) and cuBLAS BF16, in the same run;
        quantize-act / quantize-weight  against PyTorch's quantize oracle
            (NaN, Inf, a zero tile, tiny and huge values planted);
        requantize  against the CPU library's same function;
        transpose  against PyTorch's transpose of the codes;
      the memory-bound kernels in GB/s (bytes read and written once)
      against the device-to-device copy measured in the same run and the
      datasheet's HBM bandwidth of the device it runs on (devices.py, by
      the device's name: an H200's 4.8 TB/s, an H100 SXM's 3.35).
      Writes DIR/families.json and DIR/families.md; stops starting lines
      after --budget-seconds. Exit 1 when a check failed, 77 without CUDA.

Everything but `run`'s device work imports without PyTorch (the build
machine's tests: test/Integration/GPUHost/device-session-python.test).
"""
import argparse
import ctypes
import json
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as H  # noqa: E402  (torch optional there too)
from devices import hbm_tbps  # noqa: E402  (the datasheet HBM by device name)

torch = H.torch
SLICE_ROWS, SLICE_COLS = 128, 256  # one oracle call: 128 rows x 256 columns
GEMM_KINDS = ("contiguous", "masked", "k-grouped", "wgrad")
MEMORY_KINDS = ("quantize-act", "quantize-weight", "requantize", "transpose")
PARAMS = {"contiguous": ("G", "ROWS", "N", "K"), "masked": ("G", "ROWS", "N", "K"),
          "k-grouped": ("G", "M", "N", "TOKENS"), "wgrad": ("M", "N", "K"),
          "quantize-act": ("R", "C"), "quantize-weight": ("R", "C"),
          "requantize": ("R", "C"), "transpose": ("R", "C")}
# The prefix of each family's own kernel (Target/Hopper/KernelNames.h).
KERNEL_PREFIX = {"contiguous": "fp8_grouped_matmul_contiguous", "masked": "fp8_grouped_matmul_masked",
                 "k-grouped": "fp8_grouped_matmul_k_grouped", "wgrad": "fp8_scaled_matmul",
                 "quantize-act": "fp8_quantize", "quantize-weight": "fp8_quantize",
                 "requantize": "fp8_requantize", "transpose": "fp8_transpose_b8"}


# ---------------------------------------------------------------- manifest

class Entry:
    """One manifest line: a kind and its named sizes."""

    def __init__(self, kind, sizes):
        self.kind, self.sizes = kind, dict(zip(PARAMS[kind], sizes))
        self.name = kind.replace("-", "_") + "_" + "x".join(str(v) for v in sizes)

    def __getitem__(self, key):
        return self.sizes[key]


def check_entry(kind, s):
    """None, or why the sizes do not suit the slices and blocks used here."""
    if kind in ("contiguous", "masked"):
        if s["N"] % 128 or s["N"] < SLICE_COLS:
            return "N must be a multiple of 128 (B's 128x128 blocks) and at least 256"
        if s["ROWS"] < 2 * SLICE_ROWS or (kind == "contiguous" and s["ROWS"] % 128):
            return "ROWS must be at least 256 (and a multiple of 128 for contiguous: the group alignment)"
    if kind == "k-grouped":
        if s["TOKENS"] % 128:
            return "TOKENS must be a multiple of 128 (a group's K blocks)"
        if s["M"] < SLICE_ROWS or s["N"] < SLICE_COLS:
            return "M must be at least 128 and N at least 256"
    if kind == "wgrad" and (s["M"] < SLICE_ROWS or s["N"] < SLICE_COLS):
        return "M must be at least 128 and N at least 256"
    return None


def parse_manifest(path):
    """The Entry of every line of a families manifest ('#' starts a
    comment); ValueError naming the line on a malformed one."""
    entries = []
    for number, line in enumerate(open(path), 1):
        fields = line.split("#")[0].split()
        if not fields:
            continue
        kind, sizes = fields[0], fields[1:]
        where = f"{path}:{number}"
        if kind not in PARAMS:
            raise ValueError(f"{where}: unknown kind {kind!r} (known: {', '.join(PARAMS)})")
        if len(sizes) != len(PARAMS[kind]) or not all(v.isdigit() and int(v) > 0 for v in sizes):
            raise ValueError(f"{where}: {kind} takes {' '.join(PARAMS[kind])} (positive integers), "
                             f"got {' '.join(sizes) or 'nothing'}")
        entry = Entry(kind, [int(v) for v in sizes])
        why = check_entry(kind, entry.sizes)
        if why:
            raise ValueError(f"{where}: {kind} {' '.join(sizes)}: {why}")
        entries.append(entry)
    return entries


# ---------------------------------------------------------------- MLIR

def scaled(shape, block):
    return (f"!fp8.scaled<{'x'.join(str(v) for v in shape)}xf8E4M3FN, "
            f"block = [{', '.join(str(v) for v in block)}], scale = f32>")


def tensor(shape, elem):
    return f"tensor<{'x'.join(str(v) for v in shape)}x{elem}>"


def gpu_function(e):
    """The host function of manifest entry e (C interface: codes and scales
    of each !fp8.scaled, in order)."""
    head = f"func.func @{e.name}"
    attrs = "attributes {llvm.emit_c_interface}"
    if e.kind == "contiguous":
        rows, n, k, g = e["G"] * e["ROWS"], e["N"], e["K"], e["G"]
        a, b = scaled([rows, k], [1, 128]), scaled([g, n, k], [1, 128, 128])
        ids, d = tensor([rows], "i32"), tensor([rows, n], "bf16")
        return (f"{head}(%a: {a}, %b: {b}, %ids: {ids}) -> {d} {attrs} {{\n"
                f"  %d = fp8.grouped_scaled_matmul contiguous %a, %b group_ids(%ids : {ids}) : {a}, {b} -> {d}\n"
                f"  return %d : {d}\n}}\n")
    if e.kind == "masked":
        g, m, n, k = e["G"], e["ROWS"], e["N"], e["K"]
        a, b = scaled([g, m, k], [1, 1, 128]), scaled([g, n, k], [1, 128, 128])
        cnt, d3, d = tensor([g], "i32"), tensor([g, m, n], "bf16"), tensor([g * m, n], "bf16")
        return (f"{head}(%a: {a}, %b: {b}, %n: {cnt}) -> {d} {attrs} {{\n"
                f"  %d = fp8.grouped_scaled_matmul masked %a, %b counts(%n : {cnt}) : {a}, {b} -> {d3}\n"
                f"  %r = tensor.collapse_shape %d [[0, 1], [2]] : {d3} into {d}\n"
                f"  return %r : {d}\n}}\n")
    if e.kind == "k-grouped":
        g, m, n, t = e["G"], e["M"], e["N"], e["G"] * e["TOKENS"]
        a, b = scaled([m, t], [1, 128]), scaled([n, t], [1, 128])
        ids, d3, d = tensor([t], "i32"), tensor([g, m, n], "f32"), tensor([g * m, n], "f32")
        return (f"{head}(%a: {a}, %b: {b}, %ids: {ids}) -> {d} {attrs} {{\n"
                f"  %d = fp8.grouped_scaled_matmul k_grouped %a, %b group_ids(%ids : {ids}) : {a}, {b} -> {d3}\n"
                f"  %r = tensor.collapse_shape %d [[0, 1], [2]] : {d3} into {d}\n"
                f"  return %r : {d}\n}}\n")
    if e.kind == "wgrad":
        m, n, k = e["M"], e["N"], e["K"]
        a, b, d = scaled([m, k], [1, 128]), scaled([n, k], [1, 128]), tensor([m, n], "f32")
        return (f"{head}(%a: {a}, %b: {b}) -> {d} {attrs} {{\n"
                f"  %d = fp8.scaled_matmul %a, %b : {a}, {b} -> {d}\n"
                f"  return %d : {d}\n}}\n")
    r, c = e["R"], e["C"]
    if e.kind in ("quantize-act", "quantize-weight"):
        act = e.kind == "quantize-act"
        x = tensor([r, c], "bf16" if act else "f32")
        q = scaled([r, c], [1, 128] if act else [128, 128])
        return (f"{head}(%x: {x}) -> {q} {attrs} {{\n"
                f"  %q = fp8.quantize %x : {x} -> {q}\n"
                f"  return %q : {q}\n}}\n")
    if e.kind == "requantize":
        q, t = scaled([r, c], [1, 128]), scaled([c, r], [1, 128])
        return (f"{head}(%q: {q}) -> {t} {attrs} {{\n"
                f"  %t = fp8.requantize %q {{permutation = array<i64: 1, 0>}} : {q} -> {t}\n"
                f"  return %t : {t}\n}}\n")
    assert e.kind == "transpose"
    q, codes, t = scaled([r, c], [128, 128]), tensor([r, c], "f8E4M3FN"), tensor([c, r], "f8E4M3FN")
    return (f"{head}(%q: {q}) -> {t} {attrs} {{\n"
            f"  %c, %s = fp8.disassemble %q : {q}\n"
            f"  %e = tensor.empty() : {t}\n"
            f"  %t = linalg.transpose ins(%c : {codes}) outs(%e : {t}) permutation = [1, 0]\n"
            f"  return %t : {t}\n}}\n")


def oracle_name(e):
    """The CPU oracle function of a GEMM entry: the 2-D GEMM of one
    SLICE_ROWS x SLICE_COLS slice over the whole K of a group."""
    if e.kind in ("contiguous", "masked"):
        return f"oracle_b128_bf16_{e['K']}"
    return f"oracle_b1_f32_{e['TOKENS'] if e.kind == 'k-grouped' else e['K']}"


def oracle_function(name):
    _, bblock, out, k = name.split("_")
    a = scaled([SLICE_ROWS, k], [1, 128])
    b = scaled([SLICE_COLS, k], [128, 128] if bblock == "b128" else [1, 128])
    d = tensor([SLICE_ROWS, SLICE_COLS], out)
    return (f"func.func @{name}(%a: {a}, %b: {b}) -> {d} attributes {{llvm.emit_c_interface}} {{\n"
            f"  %d = fp8.scaled_matmul %a, %b : {a}, {b} -> {d}\n"
            f"  return %d : {d}\n}}\n")


def write_mlir(entries, gpu_path, cpu_path):
    with open(gpu_path, "w") as f:
        f.write("".join(gpu_function(e) for e in entries))
    oracles = sorted({oracle_name(e) for e in entries if e.kind in GEMM_KINDS})
    cpu = [oracle_function(n) for n in oracles]
    cpu += [gpu_function(e) for e in entries if e.kind == "requantize"]
    with open(cpu_path, "w") as f:
        f.write("".join(cpu))


# ------------------------------------------------- inputs, slices, counts

def group_rows(e, rng):
    """The valid rows of each group: contiguous groups pad their end to the
    128-row alignment, masked groups hold fewer rows than ROWS; multiples of
    32 (cuBLASLt's anchor takes them), at least ROWS - 96 and 2 slices."""
    return [e["ROWS"] - 32 * rng.randrange(4) for _ in range(e["G"])]


def contiguous_ids(e, valid):
    """group_ids of a contiguous entry: group g's valid rows, then -1 up to
    its next ROWS boundary."""
    ids = []
    for g, v in enumerate(valid):
        ids += [g] * v + [-1] * (e["ROWS"] - v)
    return ids


def gemm_slices(e, valid=None):
    """The oracle's slices of a GEMM entry, each a dict: the group, the
    output rows (`out_rows`, a range of the host function's 2-D result),
    the A rows (or, k-grouped, the A/B rows and the group's tokens) and the
    B columns, all of them SLICE_ROWS x SLICE_COLS; the first one at the
    first group's first rows and columns, the second at the last group's
    last valid rows and columns."""
    n = e["N"]
    cols = [range(0, SLICE_COLS), range(n - SLICE_COLS, n)]
    if e.kind in ("contiguous", "masked"):
        g_last = e["G"] - 1
        start_last = g_last * e["ROWS"] + valid[g_last] - SLICE_ROWS
        rows = [range(0, SLICE_ROWS), range(start_last, start_last + SLICE_ROWS)]
        return [{"group": g, "out_rows": r, "a_rows": r, "cols": c}
                for g, r, c in ((0, rows[0], cols[0]), (g_last, rows[1], cols[1]))]
    m = e["M"]
    row_sets = [range(0, SLICE_ROWS), range(m - SLICE_ROWS, m)]
    if e.kind == "wgrad":
        return [{"group": 0, "out_rows": r, "a_rows": r, "cols": c} for r, c in zip(row_sets, cols)]
    t, g_last = e["TOKENS"], e["G"] - 1
    return [{"group": g, "out_rows": range(g * m + r.start, g * m + r.stop), "a_rows": r, "cols": c,
             "tokens": range(g * t, (g + 1) * t)}
            for g, r, c in ((0, row_sets[0], cols[0]), (g_last, row_sets[1], cols[1]))]


def flops(e, valid=None):
    if e.kind in ("contiguous", "masked"):
        return 2.0 * sum(valid) * e["N"] * e["K"]
    if e.kind == "k-grouped":
        return 2.0 * e["G"] * e["M"] * e["N"] * e["TOKENS"]
    if e.kind == "wgrad":
        return 2.0 * e["M"] * e["N"] * e["K"]
    return 0.0


def ceil_div(a, b):
    return (a + b - 1) // b


def bytes_moved(e):
    """The fewest bytes a memory-bound kernel moves: each input read once,
    each output written once (FP8 codes 1 byte, scales 4)."""
    r, c = e["R"], e["C"]
    if e.kind == "quantize-act":
        return r * c * 2 + r * c + r * ceil_div(c, 128) * 4
    if e.kind == "quantize-weight":
        return r * c * 4 + r * c + ceil_div(r, 128) * ceil_div(c, 128) * 4
    if e.kind == "requantize":
        return r * c + r * ceil_div(c, 128) * 4 + c * r + c * ceil_div(r, 128) * 4
    return 2 * r * c  # transpose: the codes


# ---------------------------------------------------------------- tables

def fmt(row, key, spec):
    return (spec % row[key]) if row.get(key) is not None else "n/a"


def families_table(meta, rows):
    """The lines of families.md."""
    lines = [f"{meta.get('date_utc', '?')} UTC, {meta.get('device', '?')}, torch {meta.get('torch', '?')}, "
             f"seed {meta.get('seed', '?')}; device-to-device copy {fmt(meta, 'copy_gbps', '%.0f')} GB/s "
             f"(read + write) in this run", "",
             "GEMMs (TFLOPS on the valid rows; the kernel's own time, other kernels of the call beside):", "",
             "| kernel | check | slices bit-exact | diff vs FP64 | fp8-mlir TFLOPS | kernel ms | "
             "other kernels ms | cuBLASLt FP8 TFLOPS | vs cuBLASLt | BF16 TFLOPS | vs BF16 |",
             "|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        if r["kind"] not in GEMM_KINDS:
            continue
        lines.append(f"| {r['name']} | {check_word(r)} | {fmt(r, 'slices_exact', '%s')} | "
                     f"{fmt(r, 'diff', '%.1e')} | {fmt(r, 'tflops', '%.0f')} | {fmt(r, 't_kernel_ms', '%.3f')} | "
                     f"{fmt(r, 't_other_ms', '%.3f')} | {fmt(r, 'tflops_cublaslt', '%.0f')} | "
                     f"{fmt(r, 'ratio_vs_cublaslt', '%.2fx')} | {fmt(r, 'tflops_bf16', '%.0f')} | "
                     f"{fmt(r, 'ratio_vs_bf16', '%.2fx')} |")
    hbm = fmt(meta, "hbm_tbps", "%.2f TB/s")
    lines += ["", f"Memory-bound kernels (GB/s: bytes read + written once; the datasheet's {hbm}):", "",
              f"| kernel | check | mismatches | GB/s | of {hbm} | of the copy | kernel ms | other kernels ms |",
              "|---|---|---|---:|---:|---:|---:|---:|"]
    for r in rows:
        if r["kind"] not in MEMORY_KINDS:
            continue
        lines.append(f"| {r['name']} | {check_word(r)} | {fmt(r, 'mismatch', '%s')} | "
                     f"{fmt(r, 'gbps', '%.0f')} | {fmt(r, 'of_hbm', '%.0f%%')} | {fmt(r, 'of_copy', '%.0f%%')} | "
                     f"{fmt(r, 't_kernel_ms', '%.3f')} | {fmt(r, 't_other_ms', '%.3f')} |")
    for r in rows:
        if r.get("error"):
            lines.append(f"- {r['name']}: {r['error']}")
    return lines


def check_word(r):
    return "ok" if r.get("ok") else "FAIL"


# ------------------------------------------------------ the device part

_DESCRIPTORS = {}


def memref_type(rank):
    """MLIR's ranked memref descriptor (the C interface's layout)."""
    if rank not in _DESCRIPTORS:
        _DESCRIPTORS[rank] = type(f"MemRef{rank}D", (ctypes.Structure,), {"_fields_": [
            ("allocated", ctypes.c_void_p), ("aligned", ctypes.c_void_p), ("offset", ctypes.c_int64),
            ("sizes", ctypes.c_int64 * rank), ("strides", ctypes.c_int64 * rank)]})
    return _DESCRIPTORS[rank]


def descriptor(t):
    """A descriptor of the contiguous CPU tensor t (no copy)."""
    assert t.device.type == "cpu" and t.is_contiguous()
    d = memref_type(t.dim())()
    d.allocated = d.aligned = t.data_ptr()
    d.offset = 0
    for i, (size, stride) in enumerate(zip(t.shape, t.stride())):
        d.sizes[i], d.strides[i] = size, stride
    return d


def take(d, dtype):
    """The result buffer of descriptor d (malloc'ed by the host program) as
    a fresh CPU tensor; the buffer is freed."""
    shape = list(d.sizes)
    out = torch.empty(shape, dtype=dtype)
    if list(d.strides) != list(out.stride()):
        raise RuntimeError(f"unexpected result strides {list(d.strides)}")
    ctypes.memmove(out.data_ptr(), d.aligned + d.offset * out.element_size(),
                   out.numel() * out.element_size())
    H._libc.free(d.allocated)
    return out


def call(lib, name, result_types, args):
    """_mlir_ciface_<name>(results, args...): result_types is a list of
    (rank, dtype), one per result memref (a !fp8.scaled gives two)."""
    fields = [(f"r{i}", memref_type(rank)) for i, (rank, _) in enumerate(result_types)]
    res = type("Results", (ctypes.Structure,), {"_fields_": fields})()
    descs = [descriptor(t) for t in args]
    getattr(lib, f"_mlir_ciface_{name}")(ctypes.byref(res), *[ctypes.byref(d) for d in descs])
    return [take(getattr(res, f"r{i}"), dtype) for i, (_, dtype) in enumerate(result_types)]


def bits(t):
    """The bit patterns of t (1, 2 or 4 byte elements) as integers."""
    return t.view({1: torch.uint8, 2: torch.int16, 4: torch.int32}[t.element_size()])


def mismatches(got, want):
    if got.shape != want.shape:
        return -1
    return int((bits(got.contiguous()) != bits(want.contiguous())).sum().item())


def random_input(rows, cols, dtype, specials=False):
    """Normal values with a random power of two per row (a wide range of
    block scales), made on the device; specials planted when asked."""
    x = torch.randn(rows, cols, device="cuda")
    x *= torch.exp2(torch.randint(-8, 8, (rows, 1), device="cuda").float())
    if specials:
        x = H.plant_specials(x)
    return x.to(dtype)


def quantized(rows, cols, block_rows):
    """Codes (uint8) and scales of fresh normal values, on the device, by
    the PyTorch oracle (the GEMMs' inputs)."""
    return H.quantize_oracle(random_input(rows, cols, torch.bfloat16), block_rows)


class Device:
    def __init__(self, args):
        self.args = args
        self.hbm_tbps = None  # run_all sets it from the device's name
        self.rt = ctypes.CDLL(args.runtime, mode=ctypes.RTLD_GLOBAL)
        self.rt.fp8_mgpu_error_count.restype = ctypes.c_long
        self.rt.fp8_mgpu_last_error.restype = ctypes.c_char_p
        self.lib = ctypes.CDLL(args.host)
        self.check("loading the host program")
        self.cpu = ctypes.CDLL(args.cpu)

    def check(self, what):
        if self.rt.fp8_mgpu_error_count():
            raise RuntimeError(f"{what}: {self.rt.fp8_mgpu_last_error().decode()}")

    def host(self, name, result_types, args):
        out = H.call_or_die(lambda: call(self.lib, name, result_types, args),
                            self.args.hang_seconds, name)
        self.check(name)
        return out


def cpu_args(*tensors):
    return [t.cpu().contiguous() for t in tensors]


def cublaslt_blockwise(qa, sa, qb, sb, b_block_rows):
    """cuBLASLt's block-scaled FP8 GEMM (torch._scaled_mm) of codes qa [M, K]
    and qb [N, K] (uint8, on the device), A scales [M, KB], B scales
    [N/128, KB] (128x128 blocks) or [N, KB] (1x128 tiles): a callable, tried
    once here (the B scales' layout for 1x128 tiles is the first of a few
    that PyTorch accepts; an error is raised when none is)."""
    a8 = qa.contiguous().view(torch.float8_e4m3fn)
    b8 = qb.contiguous().view(torch.float8_e4m3fn)
    kb = sa.shape[1]
    sa_mm = sa.t().contiguous().t()  # M-major, as cuBLASLt reads 1x128 A scales
    if b_block_rows == 128:
        sb_pad = torch.zeros(sb.shape[0], ceil_div(kb, 4) * 4, device=sb.device, dtype=torch.float32)
        sb_pad[:, :kb] = sb
        layouts = [sb_pad.t()]
    else:
        # [KB, N] (the 1x128 tiles of B = qb^T [K, N]) either way round,
        # then [N, KB] either way round.
        layouts = [sb.t().contiguous(), sb.contiguous().t(), sb.t().contiguous().t(), sb.contiguous()]
    err = None
    for sb_mm in layouts:
        fn = (lambda s: lambda: torch._scaled_mm(a8, b8.t(), scale_a=sa_mm, scale_b=s,
                                                 out_dtype=torch.bfloat16))(sb_mm)
        try:
            fn()
            return fn
        except Exception as e:  # the next layout
            err = e
    raise err


def time_anchor(row, key, make_calls, fl, args):
    """The summed time of the calls make_calls() returns (one per group) as
    row[t_<key>_ms] and row[tflops_<key>]; an error is recorded, never
    raised."""
    try:
        calls = make_calls()
        t = H.bench(lambda: [c() for c in calls], args.iters, args.hang_seconds)
        row[f"t_{key}_ms"] = t * 1e3
        row[f"tflops_{key}"] = fl / t / 1e12
        if row.get("t_kernel_ms"):
            row[f"ratio_vs_{key}"] = row[f"t_{key}_ms"] / row["t_kernel_ms"]
    except Exception as err:  # report, never fail the check on the anchor
        row[f"{key}_error"] = str(err).splitlines()[0][:160]


def dequant(q, s, block_rows):
    return H.dequant(q.view(torch.float8_e4m3fn), s, block_rows, 128)


def group_parts(e, valid, qa, sa, qb, sb):
    """Per group of a GEMM entry: (A codes, A scales, B codes, B scales, B's
    block rows, the group's rows of the 2-D result), the valid rows only
    (on the device; qb, sb as 2-D [G * N, K] and [G * N / 128, KB] for the
    m-grouped layouts)."""
    parts = []
    if e.kind in ("contiguous", "masked"):
        n = e["N"]
        for grp, v in enumerate(valid):
            r0, b0 = grp * e["ROWS"], grp * n
            parts.append((qa[r0:r0 + v], sa[r0:r0 + v], qb[b0:b0 + n], sb[b0 // 128:(b0 + n) // 128],
                          128, range(r0, r0 + v)))
    elif e.kind == "k-grouped":
        t, m = e["TOKENS"], e["M"]
        for grp in range(e["G"]):
            tk, tkb = slice(grp * t, (grp + 1) * t), slice(grp * t // 128, (grp + 1) * t // 128)
            parts.append((qa[:, tk].contiguous(), sa[:, tkb].contiguous(), qb[:, tk].contiguous(),
                          sb[:, tkb].contiguous(), 1, range(grp * m, (grp + 1) * m)))
    else:
        parts.append((qa, sa, qb, sb, 1, range(0, e["M"])))
    return parts


def run_gemm(dev, e, rng, row):
    """Inputs, the host call, the oracle slices and padding rows, timing."""
    args, valid, ids = dev.args, None, None
    if e.kind in ("contiguous", "masked"):
        g, n, k = e["G"], e["N"], e["K"]
        valid = group_rows(e, rng)
        rows = g * e["ROWS"]
        qa, sa = quantized(rows, k, 1)
        qb, sb = quantized(g * n, k, 128)  # N % 128 == 0: no block spans two groups
        qb3, sb3 = qb.view(g, n, k), sb.view(g, n // 128, -1)
        if e.kind == "contiguous":
            ids = torch.tensor(contiguous_ids(e, valid), dtype=torch.int32)
            inputs = cpu_args(qa, sa, qb3, sb3) + [ids]
            valid_rows = ids.cuda() >= 0
        else:
            inputs = cpu_args(qa.view(g, e["ROWS"], k), sa.view(g, e["ROWS"], -1), qb3, sb3) + \
                [torch.tensor(valid, dtype=torch.int32)]
            valid_rows = (torch.arange(e["ROWS"], device="cuda")[None, :] <
                          torch.tensor(valid, device="cuda")[:, None]).reshape(-1)
        out_dtype = torch.bfloat16
    elif e.kind == "k-grouped":
        g, m, n, t = e["G"], e["M"], e["N"], e["TOKENS"]
        qa, sa = quantized(m, g * t, 1)
        qb, sb = quantized(n, g * t, 1)
        ids = torch.arange(g, dtype=torch.int32).repeat_interleave(t)
        inputs, out_dtype = cpu_args(qa, sa, qb, sb) + [ids], torch.float32
    else:
        m, n, k = e["M"], e["N"], e["K"]
        qa, sa = quantized(m, k, 1)
        qb, sb = quantized(n, k, 1)
        inputs, out_dtype = cpu_args(qa, sa, qb, sb), torch.float32
    run = lambda: dev.host(e.name, [(2, out_dtype)], inputs)[0]
    d = run().cuda()
    # Bit for bit on the slices, against the CPU oracle of the 2-D GEMM.
    oracle = getattr(dev.cpu, f"_mlir_ciface_{oracle_name(e)}")
    exact, bad = [], 0
    for s in gemm_slices(e, valid):
        r, c = s["a_rows"], s["cols"]
        if e.kind in ("contiguous", "masked"):
            b_rows = slice(s["group"] * n + c.start, s["group"] * n + c.stop)
            b_scales = slice(b_rows.start // 128, ceil_div(b_rows.stop, 128))
            a_in = [qa[r.start:r.stop], sa[r.start:r.stop]]
            b_in = [qb[b_rows], sb[b_scales]]
        else:
            tok = s.get("tokens", range(0, qa.shape[1]))
            tk, tkb = slice(tok.start, tok.stop), slice(tok.start // 128, ceil_div(tok.stop, 128))
            a_in = [qa[r.start:r.stop, tk], sa[r.start:r.stop, tkb]]
            b_in = [qb[c.start:c.stop, tk], sb[c.start:c.stop, tkb]]
        res = memref_type(2)()
        slice_inputs = cpu_args(*a_in, *b_in)  # alive while the oracle reads them
        descs = [descriptor(t) for t in slice_inputs]
        oracle(ctypes.byref(res), *[ctypes.byref(x) for x in descs])
        want = take(res, out_dtype)
        got = d[s["out_rows"].start:s["out_rows"].stop, c.start:c.stop].cpu()
        bad_here = mismatches(got, want)
        exact.append(bad_here == 0)
        bad += bad_here != 0
        row.setdefault("slice_mismatch", []).append(bad_here)
    row["slices_exact"] = f"{sum(exact)}/{len(exact)}"
    ok = bad == 0
    if e.kind in ("contiguous", "masked"):  # padding and masked rows: +0.0
        pad = d[~valid_rows]
        row["nonzero_padding"] = int((bits(pad) != 0).sum().item())
        ok = ok and row["nonzero_padding"] == 0
    # Every valid output against FP64 of the same codes and scales, group by
    # group (DeepGEMM's similarity; the slices above are the bit-exact check).
    parts = group_parts(e, valid, qa, sa, qb, sb)
    diff = 0.0
    for a_q, a_s, b_q, b_s, b_block, out in parts:
        ref = dequant(a_q, a_s, 1) @ dequant(b_q, b_s, b_block).t()
        diff = max(diff, H.compare(d[out.start:out.stop], ref)["diff"])
        del ref
    row["diff"] = diff
    ok = ok and diff < args.diff_tol
    row["ok"] = ok
    # Timing: the call's kernels, the anchors, the clock window.
    fl = flops(e, valid)
    row["gflop"] = fl / 1e9
    row["window"] = [time.time(), None]
    times = H.kernel_times_ms(run, args.iters_profiled, args.hang_seconds) or {}
    row["t_kernel_ms"] = H.time_of(times, KERNEL_PREFIX[e.kind])
    row["t_other_ms"] = sum(t for name, t in times.items()
                            if not name.startswith(KERNEL_PREFIX[e.kind]))
    row["kernels"] = {name: round(t, 4) for name, t in times.items()}
    if row["t_kernel_ms"]:
        row["tflops"] = fl / (row["t_kernel_ms"] * 1e-3) / 1e12
    time_anchor(row, "cublaslt", lambda: [cublaslt_blockwise(*p[:5]) for p in parts], fl, args)
    time_anchor(row, "bf16", lambda: [bf16_matmul(dequant(p[0], p[1], 1), dequant(p[2], p[3], p[4]))
                                      for p in parts], fl, args)
    row["window"][1] = time.time()


def bf16_matmul(a64, b64):
    a16, b16 = a64.to(torch.bfloat16), b64.to(torch.bfloat16)
    return lambda: torch.matmul(a16, b16.t())


def run_memory(dev, e, row):
    """The memory-bound kernels: the host call against its oracle, then
    its kernel's GB/s."""
    r, c = e["R"], e["C"]
    if e.kind in ("quantize-act", "quantize-weight"):
        act = e.kind == "quantize-act"
        x = random_input(r, c, torch.bfloat16 if act else torch.float32, specials=True)
        inputs = cpu_args(x)
        want = H.quantize_oracle(x, 1 if act else 128)
        run = lambda: dev.host(e.name, [(2, torch.uint8), (2, torch.float32)], inputs)
    elif e.kind == "requantize":
        qa, sa = quantized(r, c, 1)
        inputs = cpu_args(qa, sa)
        types = [(2, torch.uint8), (2, torch.float32)]
        want = call(dev.cpu, e.name, types, inputs)
        run = lambda: dev.host(e.name, types, inputs)
    else:
        qb, sb = quantized(r, c, 128)
        inputs = cpu_args(qb, sb)
        want = [qb.t().contiguous()]
        run = lambda: dev.host(e.name, [(2, torch.uint8)], inputs)
    got = run()
    row["mismatch"] = [mismatches(g, w.cpu()) for g, w in zip(got, want)]
    row["ok"] = all(v == 0 for v in row["mismatch"])
    row["window"] = [time.time(), None]
    times = H.kernel_times_ms(run, dev.args.iters_profiled, dev.args.hang_seconds) or {}
    row["t_kernel_ms"] = H.time_of(times, KERNEL_PREFIX[e.kind])
    row["t_other_ms"] = sum(t for name, t in times.items() if not name.startswith(KERNEL_PREFIX[e.kind]))
    row["kernels"] = {name: round(t, 4) for name, t in times.items()}
    row["window"][1] = time.time()
    row["bytes"] = bytes_moved(e)
    if row["t_kernel_ms"]:
        row["gbps"] = row["bytes"] / (row["t_kernel_ms"] * 1e-3) / 1e9
        if dev.hbm_tbps:
            row["of_hbm"] = 100.0 * row["gbps"] / (dev.hbm_tbps * 1e3)


def copy_gbps(args):
    """Device-to-device copy of 2 GiB, bytes read + written: this run's
    bandwidth ceiling."""
    x = torch.empty(1 << 31, dtype=torch.uint8, device="cuda")
    y = torch.empty_like(x)
    t = H.bench(lambda: y.copy_(x), args.iters, args.hang_seconds)
    return 2.0 * (1 << 31) / t / 1e9


def parse_args(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="mode", required=True)
    m = sub.add_parser("mlir", help="write the GPU and CPU modules of a manifest (build machine)")
    m.add_argument("manifest")
    m.add_argument("gpu_mlir")
    m.add_argument("cpu_mlir")
    r = sub.add_parser("run", help="check and time every line (device machine)")
    r.add_argument("--runtime", required=True, help="libfp8_mgpu_runtime.so")
    r.add_argument("--host", required=True, help="libfp8_families_host.so (prepare-all.sh)")
    r.add_argument("--cpu", required=True, help="libfp8_families_cpu.so (prepare-all.sh)")
    r.add_argument("--manifest", required=True)
    r.add_argument("--out", required=True)
    r.add_argument("--iters", type=int, default=10, help="timed calls of each anchor")
    r.add_argument("--iters-profiled", type=int, default=5, help="profiled host calls")
    r.add_argument("--hang-seconds", type=float, default=60.0)
    r.add_argument("--budget-seconds", type=float, default=180.0)
    r.add_argument("--seed", type=int, default=int(time.time()))
    r.add_argument("--diff-tol", type=float, default=1e-4,
                   help="largest similarity diff against FP64 (harness.py's)")
    args = ap.parse_args(argv)
    if args.mode == "run" and (args.iters < 1 or args.iters_profiled < 1 or args.hang_seconds <= 0):
        ap.error("--iters and --iters-profiled must be at least 1, --hang-seconds positive")
    return args


def run_all(args):
    t_start = time.time()
    entries = parse_manifest(args.manifest)
    if torch is None or not torch.cuda.is_available():
        print("SKIP: PyTorch sees no CUDA device", flush=True)
        return 77
    torch.manual_seed(args.seed)
    rng = random.Random(args.seed)
    torch.zeros(1, device="cuda")  # the primary context, shared with the runtime
    dev = Device(args)
    props = torch.cuda.get_device_properties(0)
    meta = {"device": props.name, "sms": props.multi_processor_count, "torch": torch.__version__,
            "seed": args.seed, "date_utc": time.strftime("%Y-%m-%d %H:%M", time.gmtime())}
    meta["copy_gbps"] = copy_gbps(args)
    meta["hbm_tbps"] = dev.hbm_tbps = hbm_tbps(props.name)
    rows, failures = [], 0
    os.makedirs(args.out, exist_ok=True)
    for e in entries:
        if time.time() - t_start > args.budget_seconds:
            print(f"budget exhausted before {e.name}", flush=True)
            rows.append({"name": e.name, "kind": e.kind, "ok": False, "error": "not run (budget)"})
            continue
        row = {"name": e.name, "kind": e.kind}
        try:
            if e.kind in GEMM_KINDS:
                run_gemm(dev, e, rng, row)
            else:
                run_memory(dev, e, row)
                if row.get("gbps"):
                    row["of_copy"] = 100.0 * row["gbps"] / meta["copy_gbps"]
        except Exception as err:  # one family's failure must not hide the others'
            row["ok"] = False
            row["error"] = f"{type(err).__name__}: {str(err).splitlines()[0][:200]}"
        failures += not row.get("ok")
        rows.append(row)
        print(json.dumps({k: v for k, v in row.items() if k != "kernels"}), flush=True)
        torch.cuda.empty_cache()
        # Written after every line: a hang (os._exit) keeps what was done.
        json.dump({"meta": meta, "rows": rows}, open(os.path.join(args.out, "families.json"), "w"),
                  indent=1)
    lines = families_table(meta, rows)
    open(os.path.join(args.out, "families.md"), "w").write("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 1 if failures else 0


def main(argv=None):
    args = parse_args(argv)
    if args.mode == "mlir":
        try:
            entries = parse_manifest(args.manifest)
        except ValueError as err:
            print(f"families.py: {err}", file=sys.stderr)
            return 2
        write_mlir(entries, args.gpu_mlir, args.cpu_mlir)
        print(f"{len(entries)} functions: {', '.join(e.name for e in entries)}")
        return 0
    return run_all(args)


if __name__ == "__main__":
    sys.exit(main())
