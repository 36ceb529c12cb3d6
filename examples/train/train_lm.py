#!/usr/bin/env python3
"""Train a byte-level Llama-style language model on real text through the
compiled training step (fp8_mlir.training), once per precision, and compare
each run's loss with the `bf16` run's (DeepSeek-V3 §3.3's metric:
|L - L_bf16| / L_bf16).

Every run starts from the same initial weights (`--seed`) and sees the same
batches (drawn from (seed, step)); only the policy of the compiled step
differs:

- `f32`: no FP8, FP32 matmuls;
- `bf16`: matmuls with BF16 operands and FP32 accumulation (the baseline);
- `deepseek-v3`: all three GEMMs of every linear in FP8 with 1x128 / 128x128
  tiles, FP32 promotion every 128 K;
- `deepseek-v3-acc14`: the same with a 14-bit tensor-core accumulator inside
  each 128-element promotion interval (what Hopper's FP8 wgmma does,
  DeepSeek-V3 §3.3.2);
- `no-promotion`: 1xK row scales with that 14-bit accumulator over the whole
  K, never promoted (the §3.3.2 experiment at training level; DeepSeek-V3's
  1x128 tiles cannot skip promotion: each K block has its own scales);
- `per-tensor`: one scale per tensor (E5M2 gradients);
- `hybrid`: DeepSeek-V3's tiles with E5M2 gradients;
- any other FP8 preset by name (`rowwise`, `mxfp8`).

The optimizer is fp8_mlir.training.optim.AdamW (DeepSeek-V3 §3.3.3: FP32
master weights, BF16 moments), with global-norm clipping and warmup +
cosine. The text is `--corpus` (files or directories; docs/training.md uses
the `fortunes` Debian package), split by documents into training and
validation (fp8_mlir.training.data).

    PYTHONPATH=build/python_packages python3 examples/train/train_lm.py \\
        --corpus /usr/share/games/fortunes --steps 2000 --json lm.json --png lm.png

Prints the table of docs/training.md; --json writes everything measured,
--png the loss curves (needs matplotlib; skipped with a message without it).
"""

import argparse
import json
import math
import os
import platform
import subprocess
import sys
import time

import numpy as np

import fp8_mlir
from fp8_mlir._numerics.emulator import GPU_BACKENDS
from fp8_mlir.training import LM_DEVICES, LanguageModel, LanguageModelConfig, saved_activations
from fp8_mlir.training import data as lm_data
from fp8_mlir.training import lm_graph
from fp8_mlir.training import optim

#: Runs of a preset with other accumulator options: preset -> {run name:
#: options}.
RUN_VARIANTS = {
    "deepseek-v3": {"deepseek-v3-acc14": {"accumulator_bits": 14}},
    "rowwise": {"no-promotion": {"accumulator_bits": 14, "promote_interval": "none"}},
}


def _run_specs():
    """Run name -> (policy, accumulator options of LanguageModel): `f32`,
    then every preset the compiler defines (fp8_mlir.POLICIES: the
    baselines, then the FP8 recipes), each followed by its RUN_VARIANTS."""
    specs = {"f32": ("f32", {})}
    for policy in sorted(fp8_mlir.POLICIES, key=lambda p: p in fp8_mlir.FP8_POLICIES):
        specs[policy] = (policy, {})
        for name, options in RUN_VARIANTS.get(policy, {}).items():
            specs[name] = (policy, options)
    return specs


RUN_SPECS = _run_specs()
DEFAULT_RUNS = "f32,bf16,deepseek-v3,deepseek-v3-acc14,no-promotion,per-tensor,hybrid"


def parse_args(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", nargs="+", help="text files or directories (byte tokens)")
    ap.add_argument("--from-json", nargs="+", help="no training: the table (and --png, --json) of --json files "
                                                    "written before (complete or partial; several are merged; files of "
                                                    "several --seed values add a table over the seeds, and the "
                                                    "curves and other tables are the smallest seed's)")
    ap.add_argument("--steps", type=int, default=2000)
    ap.add_argument("--device", choices=LM_DEVICES, default="cpu",
                    help="where the compiled step runs: the CPU, the emulated CUDA runtime or an sm_90a GPU "
                         "(there with the weights and the AdamW state resident, the update as kernels)")
    ap.add_argument("--seed", type=int, default=0, help="initial weights and batches")
    ap.add_argument("--runs", default=DEFAULT_RUNS,
                    help=f"comma-separated, of {', '.join(RUN_SPECS)}; the relative errors need bf16 (runs split "
                         "over several processes are merged with --from-json A.json B.json)")
    ap.add_argument("--layers", type=int, default=4)
    ap.add_argument("--hidden", type=int, default=256)
    ap.add_argument("--heads", type=int, default=4)
    ap.add_argument("--intermediate", type=int, default=0, help="SwiGLU width (default: 8/3 hidden, a multiple of 128)")
    ap.add_argument("--seq", type=int, default=128)
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--lr", type=float, default=2e-3, help="peak learning rate")
    ap.add_argument("--min-lr", type=float, default=2e-4, help="learning rate at the end of the cosine")
    ap.add_argument("--warmup", type=int, default=100, help="linear warmup steps")
    ap.add_argument("--weight-decay", type=float, default=0.1)
    ap.add_argument("--clip", type=float, default=1.0, help="global gradient norm limit")
    ap.add_argument("--moments", choices=optim.MOMENT_DTYPES, default="bf16", help="AdamW moment precision")
    ap.add_argument("--eval-every", type=int, default=250, help="validation loss every N steps (and at the end)")
    ap.add_argument("--eval-batches", type=int, default=16, help="validation batches (spread over the split)")
    ap.add_argument("--profile-repeats", type=int, default=3, help="timings per op for the time split (best of)")
    ap.add_argument("--no-h200", action="store_true", help="leave out the modelled H200 table (DeepSeek-V3 sizes)")
    ap.add_argument("--json", help="write everything measured here")
    ap.add_argument("--png", help="write the loss curves here (matplotlib)")
    args = ap.parse_args(argv)
    if not args.corpus and not args.from_json:
        ap.error("--corpus is required (or --from-json)")
    missing = [p for p in args.corpus or () if not os.path.exists(p)]
    if missing:
        ap.error(f"--corpus: no such file or directory: {', '.join(missing)}")
    args.runs = _parse_runs(ap, args.runs)
    _check_device_runs(ap, args)
    _check_numbers(ap, args)
    if not args.intermediate:
        args.intermediate = max(128, int(round(args.hidden * 8 / 3 / 128)) * 128)
    try:
        model_config(args)
    except ValueError as err:
        ap.error(f"the model's sizes (--layers, --hidden, --heads, --intermediate, --seq): {err}")
    for option, path in (("--json", args.json), ("--png", args.png)):
        problem = _unwritable(path)
        if problem:  # checked now: a run can train for hours before its first write
            ap.error(f"{option} {path}: {problem}")
    return args


def _parse_runs(ap, text):
    """--runs as a list: known names, each once, at least one."""
    runs = [r.strip() for r in text.split(",") if r.strip()]
    if not runs:
        ap.error(f"--runs names no run ({text!r}); expected a comma-separated list of {', '.join(RUN_SPECS)}")
    bad = [r for r in runs if r not in RUN_SPECS]
    if bad:
        ap.error(f"unknown run(s) {', '.join(bad)}; expected {', '.join(RUN_SPECS)}")
    twice = sorted({r for r in runs if runs.count(r) > 1})
    if twice:
        ap.error(f"--runs names {', '.join(twice)} more than once")
    return runs


def _check_device_runs(ap, args):
    """A GPU --device runs what the kernels compute: the runs whose
    options shape only the CPU lowering (a narrower accumulator, no
    promotion) are refused by name; a device that cannot run (the
    backend's probe) is refused with the backend's reason."""
    if args.device == "cpu":
        return
    bad = [r for r in args.runs if set(RUN_SPECS[r][1]) - set(LanguageModel._GPU_OPTIONS)]
    if bad:
        ap.error(f"--device {args.device} cannot run {', '.join(bad)} (options of the CPU lowering: "
                 f"{', '.join(sorted({k for r in bad for k in RUN_SPECS[r][1]}))}); pick --runs among the others")
    try:  # the backend's probe: what is missing (no GPU, no driver), before the corpus is read
        GPU_BACKENDS[args.device].runtime()
    except RuntimeError as err:
        ap.error(f"--device {args.device}: {err}")


#: Integer options -> the least value each takes (--intermediate 0: 8/3 hidden).
MIN_INT = {"steps": 1, "seed": 0, "layers": 1, "hidden": 1, "heads": 1, "intermediate": 0, "seq": 1, "batch": 1,
           "warmup": 0, "eval_every": 1, "eval_batches": 1, "profile_repeats": 1}
#: Float options -> (the least value, whether it is excluded), all finite.
MIN_FLOAT = {"lr": (0.0, True), "min_lr": (0.0, False), "weight_decay": (0.0, False), "clip": (0.0, True)}


def _check_numbers(ap, args):
    """Every numeric option within its range (argparse checks only the
    type): a zero batch or evaluation interval divides by zero, zero
    validation batches average nothing (NaN), zero timing repeats time
    nothing, and a NaN or negative rate poisons or reverses every update."""
    for name, low in MIN_INT.items():
        if getattr(args, name) < low:
            ap.error(f"--{name.replace('_', '-')} must be an integer >= {low}, got {getattr(args, name)}")
    for name, (low, open_) in MIN_FLOAT.items():
        v = getattr(args, name)
        if not math.isfinite(v) or v < low or (open_ and v == low):
            ap.error(f"--{name.replace('_', '-')} must be a finite number {'>' if open_ else '>='} {low:g}, got {v}")


def _unwritable(path):
    """Why `path` cannot be written, or None (also None without a path):
    its folder is missing or not writable, or it is a folder itself."""
    if not path:
        return None
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        return "is a directory"
    if not os.path.isdir(folder):
        return f"the directory {folder} does not exist"
    if not os.access(folder, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        return "is not writable"
    return None


def model_config(args):
    return LanguageModelConfig(vocab=lm_data.VOCAB, layers=args.layers, hidden=args.hidden, heads=args.heads,
                               intermediate=args.intermediate, seq=args.seq)


def validation_loss(model, params, val_batches):
    """Mean loss over the validation batches (every batch has the same
    token count, so the mean of means is the mean over tokens)."""
    return float(np.mean([model.loss_and_grads(params, b)[0] for b in val_batches]))


def _duration(seconds):
    """12m34s, 1h02m, 45s."""
    s = int(round(seconds))
    if s >= 3600:
        return f"{s // 3600}h{s % 3600 // 60:02d}m"
    return f"{s // 60}m{s % 60:02d}s" if s >= 60 else f"{s}s"


class Progress:
    """Where a run is between its evaluations: steps done, tokens/s (the
    tokens trained over the wall time since the start, evaluations
    included) and the time left at that rate, on `stream` (stderr): one line
    rewritten in place every second on a terminal, else a line every
    `every_s` seconds (a log file or a pipe keeps each), and always after
    the last step."""

    def __init__(self, steps, tokens_per_step, stream=None, every_s=30.0, clock=time.monotonic):
        self.steps, self.tokens_per_step, self.clock = steps, tokens_per_step, clock
        self.stream = sys.stderr if stream is None else stream
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.every_s = 1.0 if self.tty else every_s
        self.start = self.last = clock()
        self.shown = False

    def update(self, done, loss):
        now = self.clock()
        if now - self.last < self.every_s and done < self.steps:
            return
        self.last = now
        elapsed = max(now - self.start, 1e-9)
        line = (f"  step {done}/{self.steps}  train {loss:.4f}  {done * self.tokens_per_step / elapsed:.0f} tok/s  "
                f"{_duration((self.steps - done) * elapsed / done)} left")
        self.stream.write(f"\r{line}\x1b[K" if self.tty else line + "\n")
        self.stream.flush()
        self.shown = self.tty

    def clear(self):
        """Before other output: a terminal's progress line is erased."""
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.shown = False


def train_run(model, init, corpus, val_batches, args, log=print):
    """One run: AdamW from `init` over args.steps batches. Returns the
    training losses, the validation losses [(step, loss)] (after every
    args.eval_every steps and after the last), the final parameters and the
    seconds of each compiled step and each optimizer update."""
    sched = optim.Schedule(peak_lr=args.lr, warmup_steps=min(args.warmup, args.steps), total_steps=args.steps,
                           min_lr=min(args.min_lr, args.lr))
    adamw = dict(weight_decay=args.weight_decay, clip_norm=args.clip, moment_dtype=args.moments)
    if getattr(model, "device", "cpu") != "cpu":
        return _train_resident(model, init, corpus, val_batches, args, sched, adamw, log)
    opt = optim.AdamW(init, sched, **adamw)
    losses, val, step_s, opt_s, norms = [], [], [], [], []
    progress = Progress(args.steps, args.batch * args.seq)
    for step in range(args.steps):
        tokens = corpus.batch(step, args.batch, args.seq, args.seed)
        t0 = time.perf_counter()
        loss, grads = model.loss_and_grads(opt.params, tokens)
        t1 = time.perf_counter()
        if not np.isfinite(loss):
            raise FloatingPointError(f"step {step}: the loss is {loss}")
        opt.step(grads)
        t2 = time.perf_counter()
        losses.append(float(loss))
        norms.append(opt.last_grad_norm)
        step_s.append(t1 - t0)
        opt_s.append(t2 - t1)
        done = step + 1
        progress.update(done, np.mean(losses[-50:]))
        if done % args.eval_every == 0 or done == args.steps:
            val.append((done, validation_loss(model, opt.params, val_batches)))
            progress.clear()
            log(f"  step {done:5d}  train {np.mean(losses[-50:]):.4f}  val {val[-1][1]:.4f}  "
                f"{args.batch * args.seq / np.median(step_s[1:] or step_s):.0f} tok/s")
    return dict(losses=losses, val=val, params=opt.params, step_s=step_s, opt_s=opt_s, grad_norms=norms)


def _train_resident(model, init, corpus, val_batches, args, sched, adamw, log):
    """train_run on a GPU device: the weights and the AdamW state resident
    there (LanguageModel.trainer), the update run as kernels within each
    step (its time is in step_s; opt_s is 0). The same batches, losses and
    weights as the CPU loop, bit for bit."""
    trainer = model.trainer(init, sched, **adamw)
    losses, val, step_s, norms = [], [], [], []
    progress = Progress(args.steps, args.batch * args.seq)
    try:
        for step in range(args.steps):
            tokens = corpus.batch(step, args.batch, args.seq, args.seed)
            t0 = time.perf_counter()
            loss = trainer.step(tokens)
            step_s.append(time.perf_counter() - t0)
            if not np.isfinite(loss):
                raise FloatingPointError(f"step {step}: the loss is {loss}")
            losses.append(float(loss))
            norms.append(trainer.last_grad_norm)
            done = step + 1
            progress.update(done, np.mean(losses[-50:]))
            if done % args.eval_every == 0 or done == args.steps:
                val.append((done, validation_loss(model, trainer.params(), val_batches)))
                progress.clear()
                log(f"  step {done:5d}  train {np.mean(losses[-50:]):.4f}  val {val[-1][1]:.4f}  "
                    f"{args.batch * args.seq / np.median(step_s[1:] or step_s):.0f} tok/s")
        params = trainer.params()
    finally:
        trainer.close()
    return dict(losses=losses, val=val, params=params, step_s=step_s, opt_s=[0.0] * len(step_s), grad_norms=norms)


# ---------------------------------------------------------------------------
# The time split: the FP8 ops of the compiled step, each re-run alone
# ---------------------------------------------------------------------------

_FMT = {"f8E4M3FN": "e4m3", "f8E5M2": "e5m2"}


def fp8_ops(report):
    """The fp8.quantize, fp8.requantize and fp8.scaled_matmul ops of an FP8
    module, from its fp8-report JSON (`report["fp8_ops"]`: each op's types
    and attributes as data): a dict kind -> {signature: count}. Blocks are
    the resolved sizes fp8-insert-quant writes (a whole dimension is its
    size)."""
    ops = {"quantize": {}, "requantize": {}, "scaled_matmul": {}}
    for op in report["fp8_ops"]:
        kind = op["op"].removeprefix("fp8.")
        if kind not in ops:
            continue  # grouped GEMMs: not in a dense model's step
        pow2 = op.get("scale_mode") == "pow2"
        out = op["result"]
        if kind == "quantize":
            sig = (tuple(out["shape"]), _FMT[out["element_type"]], tuple(out["block"]), pow2)
        elif kind == "requantize":
            src = op["input"]
            sig = (tuple(src["shape"]), _FMT[src["element_type"]], tuple(src["block"]), tuple(out["block"]),
                   op["permutation"] is not None, pow2)
        else:
            a, b = op["a"], op["b"]
            sig = (tuple(a["shape"]), _FMT[a["element_type"]], tuple(a["block"]), tuple(b["shape"]),
                   _FMT[b["element_type"]], tuple(b["block"]), out["element_type"], op["promote_interval"])
        ops[kind][sig] = ops[kind].get(sig, 0) + op["count"]
    return ops


def _best_of(fn, repeats):
    if repeats < 1:
        raise ValueError(f"repeats must be >= 1 (timings of which the best is taken), got {repeats}")
    fn()  # compile (cached per shape) and warm up
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def fp8_op_seconds(report, repeats=3, seed=0, emulate_accumulator=None):
    """Seconds per step of the module's FP8 GEMMs and of its quantizations
    (quantize + requantize): every distinct op signature run alone through
    fp8_mlir.scaled_matmul / quantize / requantize (the same fp8-cpu-pipeline
    lowering as the step) on random data of its shape, best of `repeats`,
    less the time of the same call on one 1x128 tile (the Python call's
    overhead), times the number of such ops in the step. An estimate: alone,
    an op finds its operands in cache less often than inside the step.
    `report`: the step's fp8-report JSON (fp8_ops; each GEMM's
    promote_interval is its own, K with promotion=none);
    `emulate_accumulator`: the step's accumulator-bits option, which the
    FP8 IR does not carry (a lowering option)."""
    rng = np.random.default_rng(seed)
    ops = fp8_ops(report)

    def rand(shape):
        return rng.standard_normal(shape).astype(np.float32)

    def fix(block, shape):  # a block as large as the tensor: the whole dimension
        return tuple(None if b >= d else b for b, d in zip(block, shape))

    tile = fp8_mlir.quantize(rand((1, 128)))
    over_q = _best_of(lambda: fp8_mlir.quantize(tile.codes.astype(np.float32)), repeats)
    over_rq = _best_of(lambda: fp8_mlir.requantize(tile, (1, 1), transpose=True), repeats)
    kw0 = dict(emulate_accumulator=emulate_accumulator) if emulate_accumulator else {}
    over_mm = _best_of(lambda: fp8_mlir.scaled_matmul(tile, tile, b_block=(1, 128), **kw0), repeats)
    quant = 0.0
    for (shape, fmt, block, pow2), n in ops["quantize"].items():
        x = rand(shape)
        scale = "pow2" if pow2 else "f32"
        t = _best_of(lambda: fp8_mlir.quantize(x, block=fix(block, shape), fmt=fmt, scale=scale), repeats)
        quant += n * max(0.0, t - over_q)
    for (shape, fmt, block, out_block, transpose, pow2), n in ops["requantize"].items():
        q = fp8_mlir.quantize(rand(shape), block=fix(block, shape), fmt=fmt, scale="pow2" if pow2 else "f32")
        oshape = tuple(reversed(shape)) if transpose else shape
        t = _best_of(lambda: fp8_mlir.requantize(q, fix(out_block, oshape), transpose=transpose), repeats)
        quant += n * max(0.0, t - over_rq)
    gemm = 0.0
    for (ashape, afmt, ablock, bshape, bfmt, bblock, out, pi), n in ops["scaled_matmul"].items():
        qa = fp8_mlir.quantize(rand(ashape), block=fix(ablock, ashape), fmt=afmt)
        qb = fp8_mlir.quantize(rand(bshape), block=fix(bblock, bshape), fmt=bfmt)
        kw = dict(promote_interval=pi, out="bf16" if out == "bf16" else "f32", **kw0)
        t = _best_of(lambda: fp8_mlir.scaled_matmul(qa, qb, **kw), repeats)
        gemm += n * max(0.0, t - over_mm)
    counts = {k: sum(v.values()) for k, v in ops.items()}
    return gemm, quant, counts


def time_split(model, batch, step_s, repeats, options=None):
    """The median step time split into FP8 GEMMs, quantize/requantize and
    the rest (the step minus the two; see fp8_op_seconds). On a loaded
    machine the ops timed alone can add up to more than the median step:
    then `other_s` is 0, not negative, and `ops_exceed_step` is set."""
    med = float(np.median(step_s[1:] or step_s))
    # The FP8 ops are timed alone on the CPU: of a step on a GPU device
    # they would say nothing, the whole step is "other" there.
    if model.policy in ("f32", "bf16") or model.device != "cpu":
        return dict(step_s=med, fp8_gemm_s=0.0, quantize_s=0.0, other_s=med, fp8_ops={})
    model.compiled(batch)  # the step that ran (cached): sets model.report
    options = options or {}
    gemm, quant, counts = fp8_op_seconds(model.report, repeats, emulate_accumulator=options.get("accumulator_bits"))
    return split_step(med, gemm, quant, counts)


def split_step(step_s, gemm_s, quantize_s, counts):
    """The time split of a step of `step_s` seconds whose FP8 GEMMs and
    quantizations took `gemm_s` and `quantize_s` timed alone: "other" is
    what remains, at least 0 (flagged when the ops exceed the step)."""
    other = step_s - gemm_s - quantize_s
    return dict(step_s=step_s, fp8_gemm_s=gemm_s, quantize_s=quantize_s, other_s=max(0.0, other),
                ops_exceed_step=other < 0, fp8_ops=counts)


# ---------------------------------------------------------------------------
# Per-tensor scaling's failure mode, measured
# ---------------------------------------------------------------------------


def underflow_fraction(x, block, fmt="e4m3"):
    """The fraction of x's nonzero elements that quantize to FP8 zero or to
    a subnormal code (fewer than 3 significant bits for E4M3) with one
    scale per `block` (None: per tensor)."""
    q = fp8_mlir.quantize(np.ascontiguousarray(x, np.float32), block=block, fmt=fmt)
    exp_bits = 0x78 if fmt == "e4m3" else 0x7C
    nz = x != 0
    low = (q.codes & exp_bits) == 0  # exponent field 0: zero or subnormal
    return float(np.count_nonzero(low & nz) / max(1, np.count_nonzero(nz)))


def rms_norm(x, gamma, eps=1e-5):
    x = x.astype(np.float64)
    return (x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + eps) * gamma).astype(np.float32)


def outlier_report(params, tokens):
    """Underflow fractions of the tensors FP8 scaling sees, per tensor and
    with DeepSeek-V3's tiles: every linear weight (128x128 blocks) and the
    first block's attention input (RMSNorm of the embedded tokens, 1x128
    tiles, computed here in NumPy), plus that input's largest |x| over its
    median |x| and its underflow with one channel scaled 10-10^4x."""
    out = {"weights": {}, "layer0_attention_input": {}}
    for name, w in params.items():
        if w.ndim == 2 and name != "model.embed_tokens.weight":
            out["weights"][name] = {"per_tensor": underflow_fraction(w, (None, None)),
                                    "tiles_128x128": underflow_fraction(w, (128, 128))}
    x = params["model.embed_tokens.weight"][tokens[:, :-1].reshape(-1)]
    x = rms_norm(x, params["model.layers.0.input_layernorm.weight"])
    a = np.abs(x)
    out["layer0_attention_input"] = {"per_tensor": underflow_fraction(x, (None, None)),
                                     "tiles_1x128": underflow_fraction(x, (1, 128)),
                                     "max_over_median": float(a.max() / max(np.median(a), 1e-30))}
    # The same input with one channel scaled as LLMs' outlier features are
    # (Dettmers et al. 2022: a few channels 10-1000x the rest, more in
    # larger models): what one such channel does to each scaling.
    sweep = []
    for scale in (1e1, 1e2, 1e3, 1e4):
        xo = x.copy()
        xo[:, 0] *= np.float32(scale)
        sweep.append({"outlier_scale": scale, "per_tensor": underflow_fraction(xo, (None, None)),
                      "tiles_1x128": underflow_fraction(xo, (1, 128))})
    out["layer0_attention_input"]["outlier_channel"] = sweep
    w = out["weights"]
    out["weights_mean"] = {k: float(np.mean([v[k] for v in w.values()])) for k in ("per_tensor", "tiles_128x128")}
    return out


# ---------------------------------------------------------------------------
# What the 2x peak buys: the step's GEMMs at DeepSeek-V3's sizes on H200,
# modelled
# ---------------------------------------------------------------------------

#: H200 SXM (NVIDIA datasheet): dense BF16 tensor-core peak, HBM3e bandwidth.
#: The FP8 peak (1979 TFLOPS) is the GPU cost model's (GemmCostModel.cpp).
H200_BF16_TFLOPS = 989.5
H200_HBM_TBPS = 4.8
#: The cost model's fixed launch + pipeline-fill latency per kernel (us).
FIXED_US = 1.0


def bf16_gemm_us(m, n, k):
    """A BF16 GEMM on H200 as a roofline: the slower of 2 M N K at the dense
    BF16 peak and its HBM traffic (A, B and D once, 2 bytes each), plus the
    cost model's fixed latency. No wave quantization and no L2 term: this
    flatters BF16 a little against the FP8 cost model."""
    compute = 2.0 * m * n * k / (H200_BF16_TFLOPS * 1e12)
    memory = 2.0 * (m * k + n * k + m * n) / (H200_HBM_TBPS * 1e12)
    return max(compute, memory) * 1e6 + FIXED_US


def quantize_traffic_us(ops):
    """HBM time of the FP8 graph's quantize / requantize ops (fp8_ops), as
    memory-bound kernels: a quantize reads its f32 input (4 bytes, the
    graph's type) and writes codes (1 byte) and an f32 scale per block; a
    requantize reads and writes codes and scales."""
    total = 0.0
    for (shape, _fmt, block, _pow2), n in ops["quantize"].items():
        elems = float(np.prod(shape))
        total += n * (5.0 * elems + 4.0 * elems / float(np.prod(block)))
    for (shape, _fmt, block, out_block, _t, _pow2), n in ops["requantize"].items():
        elems = float(np.prod(shape))
        total += n * (2.0 * elems + 4.0 * elems / float(np.prod(block)) + 4.0 * elems / float(np.prod(out_block)))
    return total / (H200_HBM_TBPS * 1e12) * 1e6


def modelled_h200(tokens=4096, hidden=7168, heads=128, intermediate=18432, vocab=129280, layers=61):
    """One decoder layer of this architecture at DeepSeek-V3's sizes (hidden
    7168, 128 heads, the dense layers' SwiGLU width 18432, vocabulary
    129280) and the LM head, 4096 tokens (one sequence): the training
    step's GEMMs in FP8 (deepseek-v3: fp8-report's kernel_config.modelled_us
    from the project's GPU cost model, chip h200) against the same GEMMs in
    BF16 (bf16_gemm_us), plus the FP8 step's quantize/requantize traffic;
    and `layers` such layers with one head (DeepSeek-V3 has 61; its MoE
    layers are modelled here as the dense ones). Modelled, not measured."""
    config = LanguageModelConfig(vocab=vocab, layers=1, hidden=hidden, heads=heads, intermediate=intermediate,
                                 seq=tokens)
    text = lm_graph.lm_training_step(config, 1, "f32")
    # fp8-report of the FP8 graph, chip h200 (compile()'s default).
    report = fp8_mlir.compile(text, "deepseek-v3", lower=False).report
    kinds = {}
    for op in report["ops"]:
        if not op["matmul"]:
            continue
        m, n, k = (int(d) for d in op["shape"].split("x"))
        group = "linear" if op["role"] == "linear" else op["role"]
        row = kinds.setdefault((group, op["gemm"] or "-"), dict(count=0, flops=0, fp8_us=0.0, bf16_us=0.0))
        row["count"] += 1
        row["flops"] += op["flops"]
        bf16 = bf16_gemm_us(m, n, k) if group != "attention" else \
            2.0 * m * n * k / (H200_BF16_TFLOPS * 1e12) * 1e6 + FIXED_US
        row["bf16_us"] += bf16
        kc = op.get("kernel_config")
        row["fp8_us"] += kc["modelled_us"] if op["precision"] == "fp8" and kc else bf16
    quant_us = quantize_traffic_us(fp8_ops(report))
    rows = [dict(group=g, gemm=kind, **v) for (g, kind), v in sorted(kinds.items())]

    def total(key, groups):
        return sum(r[key] for r in rows if r["group"] in groups)

    layer_fp8 = total("fp8_us", ("linear", "attention")) + quant_us
    layer_bf16 = total("bf16_us", ("linear", "attention"))
    head = total("bf16_us", ("output_head",))
    return dict(modelled=True, chip="h200", tokens=tokens, hidden=hidden, heads=heads, intermediate=intermediate,
                vocab=vocab, layers=layers, rows=rows, quantize_us=quant_us,
                linear_fp8_us=total("fp8_us", ("linear",)), linear_bf16_us=total("bf16_us", ("linear",)),
                layer_fp8_us=layer_fp8, layer_bf16_us=layer_bf16, head_us=head,
                model_fp8_us=layers * layer_fp8 + head, model_bf16_us=layers * layer_bf16 + head,
                method="FP8 GEMMs: fp8-report kernel_config.modelled_us (GemmCostModel, h200); BF16 GEMMs: roofline "
                       f"at {H200_BF16_TFLOPS} TFLOPS / {H200_HBM_TBPS} TB/s + {FIXED_US} us; attention: compute "
                       "only (a fused kernel writes no scores), bf16 in both; quantize/requantize: HBM bytes at "
                       f"{H200_HBM_TBPS} TB/s")


def modelled_table(m):
    out = [f"Modelled (not measured): one decoder layer + LM head at DeepSeek-V3's sizes (hidden {m['hidden']}, "
           f"{m['heads']} heads, SwiGLU {m['intermediate']}, vocabulary {m['vocab']}), {m['tokens']} tokens, "
           f"{m['chip']}", "",
           "| GEMMs | kind | count | GFLOP | deepseek-v3 (us) | bf16 (us) |", "|---|---|---|---|---|---|"]
    for r in m["rows"]:
        out.append(f"| {r['group']} | {r['gemm']} | {r['count']} | {r['flops'] / 1e9:.0f} | {r['fp8_us']:.0f} | "
                   f"{r['bf16_us']:.0f} |")
    out.append(f"| quantize + requantize | | | | {m['quantize_us']:.0f} | 0 |")
    lin = m["linear_bf16_us"] / (m["linear_fp8_us"] + m["quantize_us"])
    out += ["", f"Per layer: the 21 linear GEMMs {m['linear_fp8_us']:.0f} us in FP8 + {m['quantize_us']:.0f} us of "
            f"quantization against {m['linear_bf16_us']:.0f} us in BF16 ({lin:.2f}x; the tensor cores' peak is 2x); "
            f"with attention {m['layer_fp8_us']:.0f} against {m['layer_bf16_us']:.0f} us "
            f"({m['layer_bf16_us'] / m['layer_fp8_us']:.2f}x). {m['layers']} layers and the head: "
            f"{m['model_fp8_us'] / 1e3:.1f} against {m['model_bf16_us'] / 1e3:.1f} ms "
            f"({m['model_bf16_us'] / m['model_fp8_us']:.2f}x)."]
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------
# The experiment
# ---------------------------------------------------------------------------


#: What --from-json reads of each run of a --json file, and its kind.
RUN_FIELDS = {"final_val_loss": "number", "final_train_loss": "number", "tokens_per_s": "number",
              "val_loss": "list of [step, loss]", "train_loss": "list of numbers", "time_split": "object"}
#: The arguments of the run that the merge and the plot read.
ARGS_READ = ("steps", "layers", "hidden", "batch", "seq")
TIME_SPLIT_FIELDS = ("step_s", "fp8_gemm_s", "quantize_s", "other_s")
#: What the table of the modelled H200 step reads.
MODELLED_FIELDS = ("hidden", "heads", "intermediate", "vocab", "tokens", "chip", "rows", "quantize_us",
                   "linear_fp8_us", "linear_bf16_us", "layer_fp8_us", "layer_bf16_us", "layers", "model_fp8_us",
                   "model_bf16_us")


def _is_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _field_problem(value, kind):
    """Why `value` is not of `kind` (RUN_FIELDS), or None."""
    if kind == "number":
        ok = _is_number(value)
    elif kind == "list of numbers":
        ok = isinstance(value, list) and all(_is_number(x) for x in value)
    elif kind == "list of [step, loss]":
        ok = isinstance(value, list) and len(value) > 0 and all(
            isinstance(x, list) and len(x) == 2 and all(_is_number(y) for y in x) for x in value)
    else:
        ok = isinstance(value, dict) and all(_is_number(value.get(k)) for k in TIME_SPLIT_FIELDS)
    return None if ok else f"is not a {kind}" + (f" with {', '.join(TIME_SPLIT_FIELDS)}" if kind == "object" else "")


def _result_problem(result):
    """Why `result` (a parsed --json file) is not what train_lm.py --json
    writes, or None."""
    if not isinstance(result, dict):
        return f"holds a JSON {type(result).__name__}, not an object"
    for key in ("args", "runs"):
        if not isinstance(result.get(key), dict):
            return f"has no object {key!r}"
    if not result["runs"]:
        return "has no runs"
    seed = result.get("seed", result["args"].get("seed"))
    if not (isinstance(seed, int) and not isinstance(seed, bool)):
        return "has no integer 'seed'"
    for key in ARGS_READ:
        if not (isinstance(result["args"].get(key), int) and not isinstance(result["args"][key], bool)):
            return f"has no integer 'args.{key}'"
    for name, run in result["runs"].items():
        if name not in RUN_SPECS:
            return f"has a run {name!r} this script does not know (expected {', '.join(RUN_SPECS)})"
        if not isinstance(run, dict):
            return f"run {name!r} is not an object"
        for field, kind in RUN_FIELDS.items():
            if field not in run:
                return f"run {name!r} has no {field!r}"
            problem = _field_problem(run[field], kind)
            if problem:
                return f"run {name!r}: {field!r} {problem}"
    modelled = result.get("modelled_h200")
    if modelled is not None and not (isinstance(modelled, dict) and all(k in modelled for k in MODELLED_FIELDS)):
        return "'modelled_h200' lacks some of " + ", ".join(MODELLED_FIELDS)
    return None


def load_result(path):
    """One --json file for --from-json; SystemExit naming the file when it
    cannot be read, is not JSON, or is not what train_lm.py --json
    writes."""
    try:
        with open(path, encoding="utf-8") as f:
            result = json.load(f)
    except OSError as err:
        raise SystemExit(f"--from-json {path}: cannot read it ({err.strerror or err})") from None
    except (UnicodeDecodeError, ValueError) as err:
        raise SystemExit(f"--from-json {path}: not a JSON file ({err})") from None
    problem = _result_problem(result)
    if problem:
        raise SystemExit(f"--from-json {path}: not a file train_lm.py --json writes: it {problem}")
    return result


def relative_errors(runs):
    """|L - L_bf16| / L_bf16 of each run's final and of each validation
    loss, when the bf16 run is there."""
    ref = runs.get("bf16")
    for run in runs.values():
        if ref is None:
            run["rel_err_vs_bf16"], run["val_rel_err_vs_bf16"] = float("nan"), []
            continue
        run["rel_err_vs_bf16"] = abs(run["final_val_loss"] - ref["final_val_loss"]) / ref["final_val_loss"]
        run["val_rel_err_vs_bf16"] = [abs(v - rv) / rv for (_, v), (_, rv) in zip(run["val_loss"], ref["val_loss"])]


def _experiment(result, also=()):
    """A result's arguments less what may differ between the processes of
    one experiment (the runs, the output files) and `also`."""
    differ = ("runs", "json", "png", "no_h200", "from_json") + also
    return {k: v for k, v in result["args"].items() if k not in differ}


def merge(results):
    """One result from the JSON of several processes that ran the same
    experiment (same args but --runs): the runs of all, in order."""
    out = dict(results[0])
    out["runs"] = {}
    for r in results:
        a, b = _experiment(r), _experiment(results[0])
        if a != b:
            raise SystemExit(f"--from-json: the files ran different experiments ({a} vs {b})")
        out["runs"].update(r["runs"])
        out.update({k: v for k, v in r.items() if k == "modelled_h200"})
    order = [r for r in RUN_SPECS if r in out["runs"]]
    out["runs"] = {r: out["runs"][r] for r in order}
    out["args"] = dict(out["args"], runs=order)
    relative_errors(out["runs"])
    return out


def merge_seeds(results):
    """One result from the JSON of an experiment repeated with several
    `--seed` values (each file one process of one seed): the merged result
    of the smallest seed (its curves and tables), plus `seeds`, each seed's
    final validation loss per run, when there is more than one seed. The
    files must agree on everything but the seed and the runs."""
    by_seed = {}
    for r in results:
        by_seed.setdefault(r.get("seed", r["args"].get("seed")), []).append(r)
    merged = {s: merge(group) for s, group in sorted(by_seed.items())}
    first = merged[min(merged)]
    for s, m in merged.items():
        a, b = _experiment(m, also=("seed",)), _experiment(first, also=("seed",))
        if a != b:
            raise SystemExit(f"--from-json: seed {s} ran a different experiment ({a} vs {b})")
    if len(merged) > 1:
        first["seeds"] = {str(s): {name: r["final_val_loss"] for name, r in m["runs"].items()}
                          for s, m in merged.items()}
    return first


def seed_statistics(seeds, reference="bf16"):
    """Per run present beside `reference` in every seed: the final
    validation losses, their mean and sample standard deviation, and the
    signed relative difference to the same seed's reference run, d = (L -
    L_ref) / L_ref (paired: the same initial weights and batches), with its
    mean and the standard error of that mean (sd / sqrt(seeds))."""
    names = [n for n in RUN_SPECS if all(n in v for v in seeds.values())]
    if reference not in names:
        return {}
    stats = {}
    for n in names:
        loss = np.array([v[n] for v in seeds.values()])
        d = np.array([(v[n] - v[reference]) / v[reference] for v in seeds.values()])
        stats[n] = dict(loss=loss.tolist(), mean=float(loss.mean()), sd=_sample_sd(loss), d=d.tolist(),
                        d_mean=float(d.mean()), d_se=_sample_sd(d) / np.sqrt(len(d)))
    return stats


def _sample_sd(x):
    return float(np.std(x, ddof=1)) if len(x) > 1 else float("nan")


def seed_table(result):
    """The final validation loss of each run over several seeds (empty with
    one seed)."""
    seeds = result.get("seeds")
    stats = seed_statistics(seeds) if seeds else {}
    if not stats:
        return ""
    vs_f32 = seed_statistics(seeds, reference="f32")
    head = " | ".join(f"seed {s}" for s in seeds)
    rows = [f"Final validation loss over {len(seeds)} seeds (d: (L - L_ref) / L_ref against the same seed's "
            "bf16 (or f32) run; its mean +- standard error):", "",
            f"| run | {head} | mean | sd | d vs bf16 per seed | mean d vs bf16 | mean d vs f32 |",
            "|---|" + "---|" * len(seeds) + "---|---|---|---|---|"]
    for n, st in stats.items():
        losses = " | ".join(f"{x:.4f}" for x in st["loss"])
        ds = ", ".join(f"{100 * x:+.2f}" for x in st["d"])
        f32 = vs_f32.get(n)
        rows.append(f"| {n} | {losses} | {st['mean']:.4f} | {st['sd']:.4f} | {ds} % | "
                    f"{100 * st['d_mean']:+.3f} +- {100 * st['d_se']:.3f} % | " +
                    (f"{100 * f32['d_mean']:+.3f} +- {100 * f32['d_se']:.3f} % |" if f32 else "- |"))
    return "\n".join(rows) + "\n"


def final_train_loss(losses, window=50):
    return float(np.mean(losses[-window:]))


def run_all(args, log=print, measure=True, after_run=None):
    """Every run of args.runs, `bf16` first, on args.device; `measure=False`
    leaves out the time split and the underflow report (the suite's short
    run);
    `after_run(result)` is called with the runs so far after each one."""
    corpus = lm_data.Corpus.from_files(args.corpus)
    config = model_config(args)
    val_batches = corpus.val_batches(args.batch, args.seq, args.eval_batches)
    init = None
    runs = {}
    for name in sorted(args.runs, key=lambda r: r != "bf16"):
        policy, options = RUN_SPECS[name]
        log(f"== {name} (policy {policy}{''.join(f', {k}={v}' for k, v in options.items())})")
        t0 = time.perf_counter()
        model = LanguageModel(config, policy, device=args.device, **options)
        model.compiled(args.batch)
        compile_s = time.perf_counter() - t0
        if init is None:
            init = model.init(args.seed)
        r = train_run(model, init, corpus, val_batches, args, log)
        split = time_split(model, args.batch, r["step_s"], args.profile_repeats, options) if measure else None
        step_and_opt = np.median(np.add(r["step_s"], r["opt_s"])[1:] if args.steps > 1 else r["step_s"])
        runs[name] = dict(policy=policy, options=options, train_loss=r["losses"], val_loss=r["val"],
                          grad_norms=r["grad_norms"], final_val_loss=r["val"][-1][1],
                          final_train_loss=final_train_loss(r["losses"]), compile_s=compile_s,
                          tokens_per_s=args.batch * args.seq / float(step_and_opt),
                          optimizer_s=float(np.median(r["opt_s"])), time_split=split)
        if policy in fp8_mlir.FP8_POLICIES:
            # Measured on the split step with FP8 activation caching (what
            # its forward returns for the weight gradients' X).
            runs[name]["saved_activations"] = saved_activations(config, args.batch, policy)
        if measure:
            runs[name]["outliers"] = outlier_report(r["params"], corpus.batch(0, args.batch, args.seq, args.seed))
        relative_errors(runs)
        result = dict(corpus=dict(paths=[str(p) for p in args.corpus], documents=corpus.documents,
                                  train_tokens=int(len(corpus.train)), val_tokens=int(len(corpus.val)),
                                  val_tokens_evaluated=len(val_batches) * args.batch * args.seq),
                      config=dict(vars(config)), runs=runs)
        if after_run:
            after_run(result)
    return result


def table(result):
    rows = ["| run | final val loss | rel. err. vs bf16 | final train loss (last 50) | tokens/s | step ms: FP8 GEMMs / quantize / other |",
            "|---|---|---|---|---|---|"]
    exceeded = False
    for name, r in result["runs"].items():
        s = r["time_split"]
        mark = "*" if s.get("ops_exceed_step") else ""
        exceeded = exceeded or bool(mark)
        rows.append(f"| {name} | {r['final_val_loss']:.4f} | {100 * r['rel_err_vs_bf16']:.3f} % | "
                    f"{r['final_train_loss']:.4f} | {r['tokens_per_s']:.0f} | "
                    f"{1e3 * s['step_s']:.1f}: {1e3 * s['fp8_gemm_s']:.1f} / {1e3 * s['quantize_s']:.1f} / "
                    f"{1e3 * max(0.0, s['other_s']):.1f}{mark} |")
    if exceeded:
        rows += ["", "*: the FP8 ops timed alone took longer than the median step (a loaded machine): other is "
                 "shown as 0."]
    return "\n".join(rows) + "\n"


def saved_table(result):
    """Per FP8 run: the bytes one step saves for the weight gradients (their
    activations X), in bf16 and cached as FP8 codes + scales, measured on
    the split step (LanguageModel form="split")."""
    rows = [(name, r["saved_activations"]) for name, r in result["runs"].items() if r.get("saved_activations")]
    if not rows:
        return ""
    out = ["Saved activations per step (the weight gradients' X, measured on the split step with FP8 caching):", "",
           "| run | tensors | bf16 | cached as FP8 (codes + scales) | FP8 / bf16 |", "|---|---|---|---|---|"]
    for name, a in rows:
        out.append(f"| {name} | {a['tensors']} | {a['bf16_bytes'] / 2**20:.2f} MiB | {a['fp8_bytes'] / 2**20:.2f} MiB | "
                   f"{a['fp8_bytes'] / a['bf16_bytes']:.3f} |")
    return "\n".join(out) + "\n"


def outlier_table(result, run="deepseek-v3"):
    """Underflow fractions (FP8 zero or subnormal codes among nonzero
    elements) of `run`'s trained tensors, one scale per tensor against
    DeepSeek-V3's tiles, and of its first attention input with one channel
    scaled up."""
    o = result["runs"].get(run, {}).get("outliers")
    if not o:
        return ""
    x = o["layer0_attention_input"]
    rows = [f"Underflow to E4M3 zero or subnormal, {run}'s trained tensors (per tensor / DeepSeek-V3 tiles):", "",
            "| tensor | per tensor | tiles |", "|---|---|---|",
            f"| linear weights (mean of {len(o['weights'])}) | {100 * o['weights_mean']['per_tensor']:.3f} % | "
            f"{100 * o['weights_mean']['tiles_128x128']:.3f} % (128x128) |",
            f"| layer-0 attention input (max/median {x['max_over_median']:.1f}) | {100 * x['per_tensor']:.3f} % | "
            f"{100 * x['tiles_1x128']:.3f} % (1x128) |"]
    for sw in x["outlier_channel"]:
        rows.append(f"| the same, one channel x{sw['outlier_scale']:g} | {100 * sw['per_tensor']:.2f} % | "
                    f"{100 * sw['tiles_1x128']:.2f} % |")
    return "\n".join(rows) + "\n"


def machine():
    cpu = platform.processor()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next((ln.split(":", 1)[1].strip() for ln in f if ln.startswith("model name")), cpu)
    except OSError:
        pass
    return dict(cpu=cpu, cores=os.cpu_count(), system=platform.platform(), python=platform.python_version())


def commit():
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        return subprocess.run(["git", "-C", here, "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def plot(result, path, args):
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print(f"--png: matplotlib is not installed (apt install python3-matplotlib); {path} not written")
        return False
    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(11, 4))
    w = max(1, min(50, args.steps // 20))
    for name, r in result["runs"].items():
        loss = np.convolve(r["train_loss"], np.ones(w) / w, mode="valid")
        line, = ax.plot(np.arange(w, len(loss) + w), loss, label=name, linewidth=1.0)
        steps, vals = zip(*r["val_loss"])
        ax.plot(steps, vals, "o", color=line.get_color(), markersize=3)
        if name != "bf16":
            ax2.plot(steps, [100 * e for e in r["val_rel_err_vs_bf16"]], "o-", color=line.get_color(), label=name,
                     markersize=3)
    ax.set_xlabel("step")
    ax.set_ylabel(f"cross-entropy (nats/byte): train (mean of {w}), val (dots)")
    ax.set_title(f"{args.layers} layers, hidden {args.hidden}, {args.batch}x{args.seq} tokens/step")
    ax.legend()
    ax2.axhline(0.25, color="gray", linestyle="--", linewidth=0.8)
    ax2.set_xlabel("step")
    ax2.set_ylabel("|val loss - bf16| / bf16 (%)")
    ax2.set_yscale("log")
    ax2.set_title("relative error vs bf16 (dashed: 0.25 %)")
    ax2.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    return True


def main(argv=None):
    args = parse_args(argv)
    if args.from_json:
        result = merge_seeds([load_result(path) for path in args.from_json])
        sys.stdout.write(table(result) + "\n" + seed_table(result) + "\n" + saved_table(result) + "\n" +
                         outlier_table(result) +
                         ("\n" + modelled_table(result["modelled_h200"]) if "modelled_h200" in result else ""))
        if args.json:
            with open(args.json, "w", encoding="utf-8") as f:
                json.dump(result, f, indent=1)
        if args.png:
            plot(result, args.png, argparse.Namespace(**result["args"]))
        return 0
    info = dict(commit=commit(), machine=machine(), seed=args.seed, steps=args.steps,
                args={k: v for k, v in vars(args).items() if k not in ("json", "png")})

    def save(partial):  # after each run: a long experiment keeps what it has
        partial.update(info)
        if args.json:
            with open(args.json, "w", encoding="utf-8") as f:
                json.dump(partial, f, indent=1)

    result = run_all(args, after_run=save)
    text = table(result) + "\n" + saved_table(result) + "\n" + outlier_table(result)
    if not args.no_h200:
        result["modelled_h200"] = modelled_h200()
        text += "\n" + modelled_table(result["modelled_h200"])
    sys.stdout.write(text)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(result, f, indent=1)
    if args.png:
        plot(result, args.png, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
