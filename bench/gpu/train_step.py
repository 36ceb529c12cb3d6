#!/usr/bin/env python3
"""The language model's training step on the device, FP8 against BF16 and
PyTorch eager BF16 (bench/gpu/device-session.sh, phase "train").

The device machine has no MLIR, so the steps are compiled here and carried:

  prepare BUILD OUT [--target ptx|emulator] [--cases FILE]   (build machine)
      for each model of the cases file (bench/gpu/train-cases.txt) and each
      of its policies: the joint training step of fp8_mlir.training
      (lm_graph.lm_training_step) with the language model's destination-
      passing @run (`@run(tokens, targets, params..., loss, grads...)`,
      memrefs; lm._with_run), through compile(policy) and the GPU device's
      pipeline (lm.GPU_PIPELINES: every op on the device, require-kernels),
      with C wrappers (llvm-request-c-wrappers), linked and gzipped into
      OUT/NAME.POLICY.so.gz; OUT/manifest.json lists the libraries, their
      models, shapes, modelled FLOPs and the kind of each kernel
      (fp8_mlir.gpu_kernels: GEMM, quantize, transpose; the rest are the
      one-thread-per-output host kernels);
  run OUT --runtime LIB [--repeat N] [--budget-seconds S] [--out DIR]
      (device machine; Python, ctypes, NumPy, PyTorch if installed)
      calls each library's step on random parameters and tokens, once to
      warm up (the driver JIT-compiles the PTX at load), then N times: the
      wall time of a call (it copies every parameter to the device and every
      gradient back: the host program's residency ends with the call) and
      the GPU time of its kernels (the runtime's kernel profile,
      fp8_mgpu_profile: events around each launch), split by kernel kind;
      then the same model in PyTorch eager BF16 (parameters resident,
      forward + backward, CUDA events), with attention as written
      (materialised scores) and with F.scaled_dot_product_attention.
      Writes DIR/train.md and DIR/train.json.

The generated kernels are split by their typed attributes (the GEMMs by
operand type: FP8, and the BF16 variant that runs the bf16 linalg.matmuls:
the output head and the BF16 policy's linears; and its batch form, for
attention's bf16 batch_matmuls: QK^T and PV and their gradients); the
host kernels by the
linalg op each was outlined from, which is the kernel's name (`run_<op>`,
fp8-outline-host-kernels): batch contractions (those the BF16 kernel does
not take), other contractions (those the BF16 kernel does not take)
and the rest (normalisation, softmax, RoPE, SwiGLU, cross-entropy, the
embedding, copies). Exit status of `run`: 0 when every step ran with a finite loss and
no driver error, 1 otherwise."""
import argparse
import ctypes
import gzip
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

# The device-side helpers the backend check has (the runtime's probe, its
# errors since the last read, the memref descriptor type).
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from backend_check import _error_reader, _memref_type, load_runtime  # noqa: E402

KINDS = ("fp8 gemm", "bf16 gemm", "attention gemm", "quantize", "transpose", "attention (host)",
         "contraction (host)", "row/elementwise (host)")


def kernel_kind(kernel):
    """The time-split kind of a generated kernel (compiler.gpu_kernels'
    typed fields): the GEMMs by their operand type, and the BF16 kernel's
    batch form (the masked grouping: linalg.batch_matmul, in these models
    attention's QK^T, PV and their gradients) apart from its 2-D form."""
    if kernel.kind == "gemm":
        if kernel.a != "bf16":
            return "fp8 gemm"
        return "attention gemm" if kernel.layout == "masked" else "bf16 gemm"
    return kernel.kind


def read_cases(path):
    """(policies, [(name, {field: int})]) of a cases file."""
    policies, cases = [], []
    with open(path) as f:
        for line in f:
            words = line.split("#", 1)[0].split()
            if not words:
                continue
            if words[0] == "policies":
                policies = words[1:]
                continue
            fields = dict(w.split("=", 1) for w in words[1:])
            cases.append((words[0], {k: int(v) for k, v in fields.items()}))
    if not policies or not cases:
        raise SystemExit(f"{path}: needs a `policies` line and at least one model")
    return policies, cases


def model_flops(c):
    """FLOPs of one joint step as the graph computes them (multiply-adds x 2;
    the backward twice the forward): the linears and the head 6 x tokens x
    weights, attention's two batch contractions 12 x batch x seq^2 x hidden
    per layer (the full score matrix: the causal mask is applied to it)."""
    t, h, i = c["batch"] * c["seq"], c["hidden"], c["intermediate"]
    linear = c["layers"] * (4 * h * h + 3 * h * i) + c["vocab"] * h
    return 6 * t * linear + 12 * c["layers"] * c["batch"] * c["seq"] ** 2 * h


def host_kernel_kind(symbol):
    if "batch_matmul" in symbol:
        return "attention (host)"
    if "matmul" in symbol or "contract" in symbol:
        return "contraction (host)"
    return "row/elementwise (host)"


# --------------------------------------------------------------------------
# prepare (build machine)
# --------------------------------------------------------------------------

def build_library(compiler, text, pipeline, out, base, copy_o):
    """`text` (a module whose functions request C interfaces) through
    `pipeline`, mlir-translate and clang (with `copy_o`, memref_copy.c's
    object) into OUT/BASE.so.gz; returns (its file name, the pipeline's
    result). Compressed for the device tool's 64 MiB carry: the host code of
    an unrolled multi-layer step and its RoPE tables take 7-20 MiB a
    library, a fifth of that gzipped."""
    llvm_bin = os.environ.get("LLVM_BIN", "/usr/lib/llvm-22/bin")
    lowered = compiler._run(text, pipeline, base)
    path = os.path.join(out, base)
    with open(path + ".mlir", "w") as f:
        f.write(lowered.ir)
    subprocess.run([f"{llvm_bin}/mlir-translate", "--mlir-to-llvmir", path + ".mlir", "-o", path + ".ll"], check=True)
    subprocess.run([f"{llvm_bin}/clang", "-Wno-override-module", "-O2", "-shared", "-fPIC", path + ".ll", copy_o,
                    "-o", path + ".so", "-lm"], check=True)
    with open(path + ".so", "rb") as src, gzip.open(path + ".so.gz", "wb") as dst:
        shutil.copyfileobj(src, dst)
    for suffix in (".mlir", ".ll", ".so"):
        os.remove(path + suffix)
    return base + ".so.gz", lowered


def memref_copy_object(out):
    """memref_copy.c compiled into OUT/memref_copy.o (the host programs'
    memrefCopy); returns its path."""
    llvm_bin = os.environ.get("LLVM_BIN", "/usr/lib/llvm-22/bin")
    copy_o = os.path.join(out, "memref_copy.o")
    subprocess.run([f"{llvm_bin}/clang", "-O2", "-fPIC", "-c",
                    os.path.join(os.path.dirname(os.path.abspath(__file__)), "memref_copy.c"), "-o", copy_o],
                   check=True)
    return copy_o


def prepare(build, out, target, cases_path):
    sys.path.insert(0, os.path.join(build, "python_packages"))
    import fp8_mlir
    from fp8_mlir import compiler
    from fp8_mlir.training import lm
    from fp8_mlir.training.lm_graph import lm_training_step
    device = "cuda" if target == "ptx" else "gpu-emulator"
    os.makedirs(out, exist_ok=True)
    copy_o = memref_copy_object(out)
    policies, cases = read_cases(cases_path)
    manifest = {"pipeline": lm.GPU_PIPELINES[device], "libraries": []}
    for name, fields in cases:
        batch = fields.pop("batch")
        config = lm.LanguageModelConfig(**fields)
        step = lm._with_run(lm_training_step(config, batch, "f32", private=True), config, batch, "f32")
        for policy in policies:
            start = time.time()
            graph = lm._compile_graph(step, policy, split=False).fp8_ir
            # The GPU devices' @run (the step inlined), with the C interface
            # (_mlir_ciface_run: one pointer per memref) that ctypes calls.
            graph = fp8_mlir.run_pipeline(fp8_mlir.run_pipeline(graph, lm.STEP_AS_RUN),
                                         "builtin.module(func.func(llvm-request-c-wrappers))")
            # The run's own record of its kernels (the LLVM lowering of the
            # launchers drops their attributes).
            lib, lowered = build_library(compiler, graph, manifest["pipeline"], out, f"{name}.{policy}", copy_o)
            kinds = {k.symbol: kernel_kind(k) for k in lowered.kernels}
            manifest["libraries"].append({
                "name": name, "policy": policy, "library": lib, "batch": batch, "config": fields,
                "tokens": batch * config.seq, "flops": model_flops(dict(fields, batch=batch)),
                "parameters": [list(s) for s in config.parameter_shapes().values()], "kernels": kinds})
            print(f"{name} {policy}: {len(kinds)} generated kernels, {time.time() - start:.0f} s")
    os.remove(copy_o)
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    print(f"{len(manifest['libraries'])} steps through {manifest['pipeline']}")


# --------------------------------------------------------------------------
# run (device machine)
# --------------------------------------------------------------------------

def _descriptor(array):
    """The memref descriptor of a NumPy array (its own strides)."""
    rank = array.ndim
    d = _memref_type(rank)()
    d.allocated = d.aligned = array.ctypes.data
    d.offset = 0
    for i in range(rank):
        d.sizes[i] = array.shape[i]
        d.strides[i] = array.strides[i] // array.itemsize
    return d


def load_library(folder, scratch, library):
    """FOLDER/LIBRARY (a build_library result) decompressed into `scratch`
    and loaded (ctypes.CDLL)."""
    path = os.path.join(scratch, library[:-len(".gz")])
    with gzip.open(os.path.join(folder, library), "rb") as src, open(path, "wb") as dst:
        shutil.copyfileobj(src, dst)
    return ctypes.CDLL(path)


def _step_arguments(np, entry, seed):
    """The @run arguments: tokens and targets, the parameters (weights
    N(0, 0.02), norm weights 1), then the loss and gradient outputs."""
    rng = np.random.default_rng(seed)
    t, vocab = entry["tokens"], entry["config"]["vocab"]
    ins = [rng.integers(0, vocab, size=t, dtype=np.int64) for _ in range(2)]
    for shape in entry["parameters"]:
        ins.append(np.ones(shape, np.float32) if len(shape) == 1
                   else (rng.standard_normal(shape) * 0.02).astype(np.float32))
    outs = [np.zeros(1, np.float32)] + [np.zeros(s, np.float32) for s in entry["parameters"]]
    return ins, outs


def _kernel_profile(rt):
    """(start, read): the runtime's kernel profile; read() -> {kernel:
    (launches, ms)}."""
    rt.fp8_mgpu_profile.argtypes = [ctypes.c_int32]
    rt.fp8_mgpu_profile_text.restype = ctypes.c_char_p

    def read():
        table = {}
        for line in rt.fp8_mgpu_profile_text().decode().splitlines():
            kernel, launches, ms = line.split("\t")
            table[kernel] = (int(launches), float(ms))
        return table
    return (lambda on: rt.fp8_mgpu_profile(1 if on else 0)), read


def time_compiled(np, folder, scratch, entry, rt, repeat):
    """One library's step (decompressed into `scratch`): warm-up call,
    then `repeat` timed calls."""
    profile, read_profile = _kernel_profile(rt)
    errors = _error_reader(rt)
    fn = load_library(folder, scratch, entry["library"])._mlir_ciface_run
    fn.restype = None
    ins, outs = _step_arguments(np, entry, 0)
    descs = [_descriptor(a) for a in ins + outs]
    ptrs = [ctypes.cast(ctypes.pointer(d), ctypes.c_void_p) for d in descs]
    fn.argtypes = [ctypes.c_void_p] * len(ptrs)
    start = time.perf_counter()
    fn(*ptrs)
    first = time.perf_counter() - start
    error = errors()
    walls = []
    profile(True)
    for _ in range(repeat if not error else 0):
        start = time.perf_counter()
        fn(*ptrs)
        walls.append(time.perf_counter() - start)
    table = read_profile()
    profile(False)
    error = error or errors()
    split = {k: 0.0 for k in KINDS}
    launches = {k: 0 for k in KINDS}
    for kernel, (n, ms) in table.items():
        kind = entry["kernels"].get(kernel)
        kind = kind or host_kernel_kind(kernel)
        split[kind] += ms / max(repeat, 1)
        launches[kind] += n // max(repeat, 1)
    loss = float(outs[0][0])
    return {"name": entry["name"], "policy": entry["policy"], "first_s": first,
            "wall_ms": 1e3 * statistics.median(walls) if walls else None,
            "gpu_ms": sum(split.values()), "split_ms": split, "launches": launches,
            "loss": loss, "error": error, "ok": not error and bool(np.isfinite(loss))}


def time_torch(entry, attention, repeat):
    """The same model in PyTorch eager BF16 (parameters resident): the
    median of `repeat` forward + backward steps, CUDA events. None without
    PyTorch or a CUDA device."""
    try:
        import torch
        import torch.nn.functional as F
    except ImportError:
        return None
    if not torch.cuda.is_available():
        return None
    c, b = entry["config"], entry["batch"]
    h, nh, s, v = c["hidden"], c["heads"], c["seq"], c["vocab"]
    hd = h // nh
    dev, dt = "cuda", torch.bfloat16
    torch.manual_seed(0)

    def w(*shape):
        return (torch.randn(*shape, device=dev) * 0.02).to(dt).requires_grad_()
    emb, head = w(v, h), w(v, h)
    norm = torch.ones(h, device=dev, dtype=dt, requires_grad=True)
    layers = [dict(n1=torch.ones(h, device=dev, dtype=dt, requires_grad=True),
                   q=w(h, h), k=w(h, h), v=w(h, h), o=w(h, h),
                   n2=torch.ones(h, device=dev, dtype=dt, requires_grad=True),
                   g=w(c["intermediate"], h), u=w(c["intermediate"], h), d=w(h, c["intermediate"]))
              for _ in range(c["layers"])]
    inv = 10000.0 ** (-torch.arange(0, hd, 2, device=dev, dtype=torch.float64) / hd)
    ang = torch.arange(s, device=dev, dtype=torch.float64)[:, None] * inv[None, :]
    ang = torch.cat([ang, ang], dim=1)
    cos, sin = ang.cos().to(dt), ang.sin().to(dt)
    mask = torch.full((s, s), float("-inf"), device=dev, dtype=dt).triu(1)

    def rms(x, g):
        xf = x.float()
        return (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + 1e-5)).to(dt) * g

    def rope(x):
        x1, x2 = x[..., :hd // 2], x[..., hd // 2:]
        return x * cos + torch.cat([-x2, x1], dim=-1) * sin

    def attend(q, k, vv):
        if attention == "sdpa":
            return F.scaled_dot_product_attention(q, k, vv, is_causal=True)
        p = torch.softmax((q @ k.transpose(-1, -2)) / hd ** 0.5 + mask, dim=-1)
        return p @ vv

    def step(tokens, targets):
        x = emb[tokens]
        for L in layers:
            n = rms(x, L["n1"])
            heads = [(n @ L[p].t()).view(b, s, nh, hd).transpose(1, 2) for p in ("q", "k", "v")]
            a = attend(rope(heads[0]), rope(heads[1]), heads[2]).transpose(1, 2).reshape(b, s, h)
            x = x + a @ L["o"].t()
            n = rms(x, L["n2"])
            x = x + (F.silu(n @ L["g"].t()) * (n @ L["u"].t())) @ L["d"].t()
        logits = rms(x, norm) @ head.t()
        loss = F.cross_entropy(logits.float().view(-1, v), targets.view(-1))
        loss.backward()
        return loss

    tokens = torch.randint(0, v, (b, s), device=dev)
    targets = torch.randint(0, v, (b, s), device=dev)
    step(tokens, targets)
    times = []
    for _ in range(repeat):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        loss = step(tokens, targets)
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end))
    return {"name": entry["name"], "policy": f"torch-bf16-{attention}", "gpu_ms": statistics.median(times),
            "wall_ms": statistics.median(times), "loss": float(loss), "ok": bool(torch.isfinite(loss))}


def _row(r, tokens, flops):
    """One table row of a step's result."""
    if r.get("error") or r.get("gpu_ms") is None:
        return f"| {r['name']} | {r['policy']} | failed: {r.get('error') or 'no time'} |"
    ms, split = r["gpu_ms"], r.get("split_ms", {})
    launches = r.get("launches")
    cells = [r["name"], r["policy"], f"{ms:.2f}", f"{r['wall_ms']:.1f}" if r.get("wall_ms") else "-",
             str(sum(launches.values())) if launches else "-",
             f"{tokens / ms * 1e3:.0f}" if ms > 0 else "-", f"{flops / ms / 1e9:.1f}" if ms > 0 else "-"]
    # Each kind: GPU ms (launches per step).
    cells += [f"{split[k]:.2f} ({launches[k]})" if launches else f"{split.get(k, 0):.2f}" for k in KINDS]
    return "| " + " | ".join(cells + [f"{r['loss']:.4f}"]) + " |"


def write_report(out, rows, manifest):
    by_name = {e["name"]: e for e in manifest["libraries"]}
    lines = ["# Training step on the device", "",
             "GPU ms: the step's kernels (compiled steps: the runtime's kernel profile, summed; PyTorch: CUDA "
             "events around forward + backward, parameters resident). Wall ms: a call of the compiled step, "
             "which copies every parameter in and every gradient out. Tokens/s and TFLOPS (the graph's "
             "FLOPs) from the GPU time. Each kernel kind: GPU ms (launches per step).", "",
             "| model | step | GPU ms | wall ms | launches | tokens/s | TFLOPS | " + " | ".join(KINDS) + " | loss |",
             "|---|---|---:|---:|---:|---:|---:|" + "---:|" * len(KINDS) + "---:|"]
    lines += [_row(r, by_name[r["name"]]["tokens"], by_name[r["name"]]["flops"]) for r in rows]
    with open(os.path.join(out, "train.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    with open(os.path.join(out, "train.json"), "w") as f:
        json.dump(rows, f, indent=1)
    print("\n".join(lines))


def run(folder, runtime, repeat, budget, out):
    import numpy as np
    with open(os.path.join(folder, "manifest.json")) as f:
        manifest = json.load(f)
    rt = load_runtime(runtime, "train")
    if rt is None:
        return 1
    deadline = time.time() + budget
    rows, failed = [], 0
    scratch = tempfile.mkdtemp(prefix="fp8-train-")
    for entry in manifest["libraries"]:
        if time.time() > deadline:
            print(f"train: {entry['name']} {entry['policy']}: not run (budget)")
            continue
        r = time_compiled(np, folder, scratch, entry, rt, repeat)
        failed |= not r["ok"]
        rows.append(r)
        print(f"train: {r['name']} {r['policy']}: {r['gpu_ms']:.2f} GPU ms, loss {r['loss']:.4f}"
              + (f", error: {r['error']}" if r["error"] else ""), flush=True)
    for entry in {e["name"]: e for e in manifest["libraries"]}.values():
        for attention in ("math", "sdpa"):
            if time.time() > deadline:
                break
            r = time_torch(entry, attention, repeat)
            if r is None:
                print("train: PyTorch with a CUDA device not available: no PyTorch rows")
                break
            rows.append(r)
    shutil.rmtree(scratch, ignore_errors=True)
    write_report(out, rows, manifest)
    return 1 if failed else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="mode", required=True)
    p = sub.add_parser("prepare")
    p.add_argument("build")
    p.add_argument("out")
    p.add_argument("--target", choices=("ptx", "emulator"), default="ptx")
    p.add_argument("--cases", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "train-cases.txt"))
    r = sub.add_parser("run")
    r.add_argument("folder")
    r.add_argument("--runtime", required=True)
    r.add_argument("--repeat", type=int, default=3)
    r.add_argument("--budget-seconds", type=float, default=240)
    r.add_argument("--out", default=None)
    a = ap.parse_args()
    if a.mode == "prepare":
        prepare(a.build, a.out, a.target, a.cases)
        return 0
    return run(a.folder, a.runtime, a.repeat, a.budget_seconds, a.out or a.folder)


if __name__ == "__main__":
    sys.exit(main())
