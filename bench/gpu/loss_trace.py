"""The device session's loss trace (phase "losses" of device-session.sh):
the language model trained for N steps (200 by default) on the device with
its state resident there, each step's loss and gradient norm compared bit
for bit with the CPU loop's.

  prepare BUILD OUT [--target ptx|emulator] [--steps N] [--seed S]
                    [--corpus PATH...] [--model FIELD=V,FIELD=V...]
      (build machine) trains the model N steps on the CPU as
      examples/train/train_lm.py does (fp8-cpu-pipeline with
      accumulator=sm90, the oracle of Hopper's wgmma; optim.AdamW with BF16
      moments, clipping at 1, weight decay 0.1, the warmup-cosine schedule),
      recording each step's batch, loss and gradient norm (their f32 bits)
      and the update's scalars (fp8_mlir.training.device.adamw_scalars);
      compiles the step (@run) and the optimizer (@grad_norm, @adamw_<k>:
      fp8_mlir.training.optim_graph) through the device's pipeline into two
      gzipped shared libraries; writes OUT/manifest.json and OUT/trace.npz.
      The default model is train_lm.py's (vocab 256, 4 layers, hidden 256,
      4 heads, SwiGLU 768, seq 128, batch 8), policy deepseek-v3; the
      default corpus the repository's docs/*.md (byte tokens).
  run DIR --runtime RT [--budget-seconds S] [--out DIR]
      (device machine, no MLIR) allocates the master weights, gradients and
      BF16 moments on the device (the runtime's mgpuMemAlloc), then per step
      what fp8_mlir.training.device.DeviceTrainer does: @run (the tokens in,
      the loss out), @grad_norm (the norm read back), @adamw_<k> per
      parameter; each loss and norm compared with the CPU's. Steps start
      only within the budget. Writes OUT/losses.md (the device session
      returns at most 8 files: `--json PATH` writes every step's bits too).
      Exit status 0 when every step run matched bit for bit with no runtime
      error, 1 otherwise.
"""
import argparse
import ctypes
import json
import os
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from backend_check import _error_reader, load_runtime  # noqa: E402
from train_step import _descriptor, build_library, load_library, memref_copy_object  # noqa: E402

DEFAULT_MODEL = dict(vocab=256, layers=4, hidden=256, heads=4, intermediate=768, seq=128, batch=8)
POLICY = "deepseek-v3"
MOMENTS = "bf16"
CLIP = 1.0
# train_lm.py's defaults (its --lr --min-lr --warmup --weight-decay).
SCHEDULE = dict(peak_lr=2e-3, min_lr=2e-4, warmup=100)
WEIGHT_DECAY = 0.1


# --------------------------------------------------------------------------
# prepare (build machine)
# --------------------------------------------------------------------------

def _cpu_trace(np, lm, optim, adamw_scalars, config, batch, corpus, steps, seed):
    """The CPU loop: (init params, tokens [steps, batch, seq + 1], loss bits,
    norm bits, scalars [steps, params, 9])."""
    model = lm.LanguageModel(config, POLICY, accumulator="sm90")
    init = model.init(seed)
    sched = lm_schedule(optim, steps)
    opt = optim.AdamW({k: v.copy() for k, v in init.items()}, sched, weight_decay=WEIGHT_DECAY, clip_norm=CLIP,
                      moment_dtype=MOMENTS)
    tokens, losses, norms, scalars = [], [], [], []
    for step in range(steps):
        batch_tokens = corpus.batch(step, batch, config.seq, seed)
        loss, grads = model.loss_and_grads(opt.params, batch_tokens)
        opt.step(grads)
        tokens.append(batch_tokens)
        losses.append(np.float32(loss))
        norms.append(np.float32(opt.last_grad_norm))
        scalars.append([adamw_scalars(opt, k) for k in opt.params])
    return (init, np.array(tokens, np.int64), np.array(losses, np.float32).view(np.uint32),
            np.array(norms, np.float32).view(np.uint32), np.array(scalars, np.float32))


def lm_schedule(optim, steps):
    return optim.Schedule(peak_lr=SCHEDULE["peak_lr"], warmup_steps=min(SCHEDULE["warmup"], steps),
                          total_steps=steps, min_lr=SCHEDULE["min_lr"])


def prepare(build, out, target, steps, seed, corpus_paths, fields):
    sys.path.insert(0, os.path.join(build, "python_packages"))
    import numpy as np
    import fp8_mlir
    from fp8_mlir import compiler
    from fp8_mlir.training import data, lm, optim, optim_graph
    from fp8_mlir.training.device import adamw_scalars
    from fp8_mlir.training.lm_graph import lm_training_step
    device = "cuda" if target == "ptx" else "gpu-emulator"
    pipeline = lm.GPU_PIPELINES[device]
    os.makedirs(out, exist_ok=True)
    fields = dict(DEFAULT_MODEL, **fields)
    batch = fields.pop("batch")
    config = lm.LanguageModelConfig(**fields)
    corpus = data.Corpus(data.read_corpus(corpus_paths))
    start = time.time()
    init, tokens, losses, norms, scalars = _cpu_trace(np, lm, optim, adamw_scalars, config, batch, corpus, steps,
                                                      seed)
    print(f"losses: {steps} CPU steps, {time.time() - start:.0f} s")
    copy_o = memref_copy_object(out)
    c_wrappers = "builtin.module(func.func(llvm-request-c-wrappers))"
    # The device's @run as train_step.py compiles it (the step inlined).
    step = lm._with_run(lm_training_step(config, batch, "f32", private=True), config, batch, "f32")
    graph = lm._compile_graph(step, POLICY, split=False).fp8_ir
    graph = fp8_mlir.run_pipeline(fp8_mlir.run_pipeline(graph, lm.STEP_AS_RUN), c_wrappers)
    step_lib, _ = build_library(compiler, graph, pipeline, out, "step", copy_o)
    # The optimizer as DeviceTrainer builds it: the norm over every
    # parameter in order, one @adamw_<k> per distinct shape.
    names = list(init)
    shapes = sorted({init[k].shape for k in names})
    rows = [optim_graph.norm_rows(init[k].shape) for k in names]
    update = fp8_mlir.run_pipeline(optim_graph.update_module(rows, shapes, MOMENTS), c_wrappers)
    update_lib, _ = build_library(compiler, update, pipeline, out, "update", copy_o)
    os.remove(copy_o)
    np.savez_compressed(os.path.join(out, "trace.npz"), tokens=tokens, loss_bits=losses, norm_bits=norms,
                        scalars=scalars, **{f"p{i}": init[k] for i, k in enumerate(names)})
    manifest = {"pipeline": pipeline, "policy": POLICY, "steps": steps, "seed": seed, "batch": batch,
                "config": fields, "moments": MOMENTS, "clip": CLIP, "step_library": step_lib,
                "update_library": update_lib, "names": names, "rows": [list(r) for r in rows],
                "update_function": [f"adamw_{shapes.index(init[k].shape)}" for k in names]}
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    print(f"losses: step and optimizer through {pipeline}, {time.time() - start:.0f} s in all")


# --------------------------------------------------------------------------
# run (device machine)
# --------------------------------------------------------------------------

class _Device:
    """Device buffers through the runtime's mgpu* functions, each an array
    at its device address (passed to the host programs, never read here)."""

    def __init__(self, np, rt):
        self.np = np
        rt.mgpuMemAlloc.argtypes = [ctypes.c_uint64, ctypes.c_void_p, ctypes.c_bool]
        rt.mgpuMemAlloc.restype = ctypes.c_void_p
        rt.mgpuMemcpy.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p]
        rt.mgpuStreamSynchronize.argtypes = [ctypes.c_void_p]
        self.rt = rt

    def alloc(self, host):
        ptr = self.rt.mgpuMemAlloc(host.nbytes, None, False)
        if not ptr:
            raise RuntimeError(f"mgpuMemAlloc of {host.nbytes} bytes failed")
        self.rt.mgpuMemcpy(ptr, host.ctypes.data, host.nbytes, None)
        self.rt.mgpuStreamSynchronize(None)
        raw = (ctypes.c_char * host.nbytes).from_address(ptr)
        return self.np.frombuffer(raw, dtype=host.dtype).reshape(host.shape)

    def read(self, dev):
        host = self.np.empty(dev.shape, dev.dtype)
        self.rt.mgpuMemcpy(host.ctypes.data, dev.ctypes.data, dev.nbytes, None)
        self.rt.mgpuStreamSynchronize(None)
        return host


def _call(fn, *args):
    """A C-interface function: NumPy arrays as memref descriptors, floats
    as f32."""
    keep = [ctypes.pointer(_descriptor(a)) if not isinstance(a, float) else ctypes.c_float(a) for a in args]
    fn.argtypes = [ctypes.c_void_p if isinstance(a, ctypes._Pointer) else ctypes.c_float for a in keep]
    fn.restype = None
    fn(*[ctypes.cast(a, ctypes.c_void_p) if isinstance(a, ctypes._Pointer) else a for a in keep])


def run(folder, runtime, budget, out, json_path=None):
    import numpy as np
    with open(os.path.join(folder, "manifest.json")) as f:
        manifest = json.load(f)
    trace = np.load(os.path.join(folder, "trace.npz"))
    rt = load_runtime(runtime, "losses")
    if rt is None:
        return 1
    errors = _error_reader(rt)
    scratch = tempfile.mkdtemp(prefix="fp8-losses-")
    step_fn = load_library(folder, scratch, manifest["step_library"])._mlir_ciface_run
    update = load_library(folder, scratch, manifest["update_library"])
    dev = _Device(np, rt)
    names = manifest["names"]
    moment = np.uint16 if manifest["moments"] == "bf16" else np.float32
    p = [dev.alloc(np.ascontiguousarray(trace[f"p{i}"])) for i in range(len(names))]
    g = [dev.alloc(np.zeros_like(trace[f"p{i}"])) for i in range(len(names))]
    m = [dev.alloc(np.zeros(a.shape, moment)) for a in p]
    v = [dev.alloc(np.zeros(a.shape, moment)) for a in p]
    norm, coef = dev.alloc(np.zeros(1, np.float32)), dev.alloc(np.zeros(1, np.float32))
    updates = [getattr(update, "_mlir_ciface_" + f) for f in manifest["update_function"]]
    rows, steps = [tuple(r) for r in manifest["rows"]], manifest["steps"]
    deadline, start = time.time() + budget, time.time()
    results, error = [], ""
    for s in range(steps):
        if time.time() > deadline:
            break
        tokens = trace["tokens"][s]
        loss = np.zeros(1, np.float32)
        _call(step_fn, np.ascontiguousarray(tokens[:, :-1]).reshape(-1), np.ascontiguousarray(tokens[:, 1:]).reshape(-1),
              *p, loss, *g)
        _call(update._mlir_ciface_grad_norm, *(a.reshape(r) for a, r in zip(g, rows)),
              float(manifest["clip"]), norm, coef)
        got_norm = dev.read(norm)
        for k, fn in enumerate(updates):
            _call(fn, p[k], g[k], m[k], v[k], coef, *(float(x) for x in trace["scalars"][s, k]))
        error = errors()
        results.append({"step": s + 1, "loss": float(loss[0]), "loss_bits": int(loss.view(np.uint32)[0]),
                        "cpu_loss_bits": int(trace["loss_bits"][s]), "norm_bits": int(got_norm.view(np.uint32)[0]),
                        "cpu_norm_bits": int(trace["norm_bits"][s])})
        if error:
            break
    seconds = time.time() - start
    equal = [r["loss_bits"] == r["cpu_loss_bits"] and r["norm_bits"] == r["cpu_norm_bits"] for r in results]
    first = next((r for r, e in zip(results, equal) if not e), None)
    lines = [f"Loss trace: {manifest['policy']}, model {manifest['config']}, batch {manifest['batch']}, "
             f"{len(results)} of {steps} steps run in {seconds:.1f} s on the device, each against the CPU loop "
             f"(fp8-cpu-pipeline, accumulator=sm90).", "",
             f"{sum(equal)} of {len(results)} steps bit-exact (loss and gradient norm)"
             + (f"; first difference at step {first['step']}: loss 0x{first['loss_bits']:08x} vs CPU "
                f"0x{first['cpu_loss_bits']:08x}, norm 0x{first['norm_bits']:08x} vs CPU 0x{first['cpu_norm_bits']:08x}"
                if first else "") + (f"; runtime error: {error}" if error else "") + ".", "",
             "| step | loss | bits | CPU bits |", "|---:|---:|---|---|"]
    for r in results:
        if r["step"] in (1, len(results)) or r["step"] % 20 == 0:
            lines.append(f"| {r['step']} | {r['loss']:.4f} | 0x{r['loss_bits']:08x} | 0x{r['cpu_loss_bits']:08x} |")
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "losses.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    if json_path:
        with open(json_path, "w") as f:
            json.dump({"steps_run": len(results), "steps": steps, "seconds": seconds, "error": error,
                       "results": results}, f, indent=1)
    print("\n".join(lines))
    return 0 if results and all(equal) and not error else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="mode", required=True)
    p = sub.add_parser("prepare")
    p.add_argument("build")
    p.add_argument("out")
    p.add_argument("--target", choices=("ptx", "emulator"), default="ptx")
    p.add_argument("--steps", type=int, default=200)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--corpus", nargs="+", default=None, help="text files or directories (default: docs/*.md)")
    p.add_argument("--model", default="", help="FIELD=V,...: of vocab layers hidden heads intermediate seq batch")
    r = sub.add_parser("run")
    r.add_argument("folder")
    r.add_argument("--runtime", required=True)
    r.add_argument("--budget-seconds", type=float, default=120)
    r.add_argument("--out", default=None)
    r.add_argument("--json", default=None)
    a = ap.parse_args()
    if a.mode == "prepare":
        fields = {}
        for w in filter(None, a.model.split(",")):
            k, _, val = w.partition("=")
            if k not in DEFAULT_MODEL or not val.isdigit():
                ap.error(f"--model takes FIELD=N with FIELD one of {', '.join(DEFAULT_MODEL)}; got {w!r}")
            fields[k] = int(val)
        corpus = a.corpus or sorted(os.path.join(ROOT, "docs", n) for n in os.listdir(os.path.join(ROOT, "docs"))
                                    if n.endswith(".md"))
        prepare(a.build, a.out, a.target, a.steps, a.seed, corpus, fields)
        return 0
    return run(a.folder, a.runtime, a.budget_seconds, a.out or a.folder, a.json)


if __name__ == "__main__":
    sys.exit(main())
