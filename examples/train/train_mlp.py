#!/usr/bin/env python3
"""Train a small MLP on the CPU through compiled training graphs: the same
joint graph (forward, MSE loss gradient, backward) compiled three ways,

- `f32`: upstream MLIR passes only (no FP8), the reference run;
- `deepseek-v3`: fp8-pipeline, all three GEMMs of each linear in FP8 with
  1x128 / 128x128 tiles (DeepSeek-V3 §3.3);
- `per-tensor`: fp8-pipeline with one scale per tensor (E5M2 gradients),

with AdamW-style updates (no weight decay) in NumPy on FP32 master weights.
The inputs have a few outlier channels (x 1e5): per
tensor, one scale serves the outliers and the ordinary channels, which fall
into E4M3's subnormal range; 1x128 tiles confine the damage to the tile that
holds the outliers. The target is a fixed random teacher MLP that reads
the outlier channels at the ordinary channels' scale.

    PYTHONPATH=<build>/python_packages python3 examples/train/train_mlp.py \
        --steps 300 --png docs/training-loss.png --table docs/training-loss.md

Prints (and writes with --table) the final losses and their difference to
the f32 run; --png draws the loss curves (needs matplotlib).
"""

import argparse
import sys

import numpy as np

import fp8_mlir
from fp8_mlir import models

# The graph without FP8: upstream passes to LLVM (as the generators' tests do).
F32_PIPELINE = (
    "one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},"
    "convert-linalg-to-loops,expand-strided-metadata,lower-affine,convert-scf-to-cf,"
    "convert-math-to-llvm,convert-to-llvm,reconcile-unrealized-casts"
)
RUNS = ("f32", "deepseek-v3", "per-tensor")


def wrapped_step(tokens, sizes):
    """mlp_training_step's joint graph (returns Y and the weight gradients)
    with a destination-passing @run for the JIT."""
    text = models.mlp_training_step(tokens, sizes)
    n = len(sizes) - 1
    ins = [("x", (tokens, sizes[0])), ("tg", (tokens, sizes[-1]))] + [
        (f"w{i}", (sizes[i + 1], sizes[i])) for i in range(n)]
    outs = [("y", (tokens, sizes[-1]))] + [(f"g{i}", (sizes[i + 1], sizes[i])) for i in range(n)]
    ty = lambda kind, s: f"{kind}<{s[0]}x{s[1]}xf32>"  # noqa: E731
    body = ["  func.func @run(" + ", ".join(f"%{a}: {ty('memref', s)}" for a, s in ins + outs) + ") {"]
    for a, s in ins:
        body.append(f"    %t{a} = bufferization.to_tensor %{a} restrict : {ty('memref', s)} to {ty('tensor', s)}")
    body.append(f"    %r:{len(outs)} = func.call @train_step(" + ", ".join(f"%t{a}" for a, _ in ins) + ") : ("
                + ", ".join(ty("tensor", s) for _, s in ins) + ") -> ("
                + ", ".join(ty("tensor", s) for _, s in outs) + ")")
    for k, (a, s) in enumerate(outs):
        body.append(f"    bufferization.materialize_in_destination %r#{k} in restrict writable %{a} : "
                    f"({ty('tensor', s)}, {ty('memref', s)}) -> ()")
    body.append("    return\n  }")
    return text.rstrip()[:-1] + "\n".join(body) + "\n}\n"


def make_data(tokens, sizes, batches, outlier, outlier_channels, seed):
    rng = np.random.default_rng(seed)
    teacher = [rng.standard_normal((sizes[i + 1], sizes[i])) / np.sqrt(sizes[i]) for i in range(len(sizes) - 1)]
    data = []
    for _ in range(batches):
        x = rng.standard_normal((tokens, sizes[0]))
        h = x.copy()
        x[:, :outlier_channels] *= outlier  # the teacher reads them unscaled
        for i, w in enumerate(teacher):
            h = h @ w.T
            if i + 1 < len(teacher):
                h = np.maximum(h, 0.0)
        data.append((x.astype(np.float32), h.astype(np.float32)))
    init = [(rng.standard_normal((sizes[i + 1], sizes[i])) / np.sqrt(sizes[i])).astype(np.float32)
            for i in range(len(sizes) - 1)]
    # The student starts reading the outlier channels at the ordinary scale
    # too (as after an input normalization it cannot apply to the
    # activations themselves): its first GEMM still sees the outliers.
    init[0][:, :outlier_channels] /= np.float32(outlier)
    return data, init


def train(module, data, init, steps, lr, lr_scale):
    """Adam (beta 0.9 / 0.999) on FP32 master weights; returns the loss of
    every step (MSE of the compiled forward pass). `lr_scale` multiplies the
    first layer's step per input channel: the outlier channels' weights move
    at their own scale (Adam's steps do not scale with the gradient)."""
    w = [a.copy() for a in init]
    m = [np.zeros_like(a) for a in w]
    v = [np.zeros_like(a) for a in w]
    losses = []
    for step in range(steps):
        x, tgt = data[step % len(data)]
        y = np.zeros_like(tgt)
        grads = [np.zeros_like(a) for a in w]
        module.run(x, tgt, *w, y, *grads)
        losses.append(float(np.mean((y.astype(np.float64) - tgt) ** 2)))
        for i, g in enumerate(grads):
            m[i] = 0.9 * m[i] + 0.1 * g
            v[i] = 0.999 * v[i] + 0.001 * g * g
            mh, vh = m[i] / (1 - 0.9 ** (step + 1)), v[i] / (1 - 0.999 ** (step + 1))
            step_lr = lr * lr_scale if i == 0 else lr
            w[i] = (w[i] - step_lr * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)
    return losses


def run_all(steps=300, tokens=128, sizes=(512, 256, 64), outlier=1e5, outlier_channels=4, lr=1e-3,
            batches=8, seed=0, runs=RUNS):
    sizes = list(sizes)
    text = wrapped_step(tokens, sizes)
    data, init = make_data(tokens, sizes, batches, outlier, outlier_channels, seed)
    lr_scale = np.ones((1, sizes[0]), np.float32)
    lr_scale[0, :outlier_channels] = 1.0 / outlier
    curves = {}
    for name in runs:
        pipeline = F32_PIPELINE if name == "f32" else f"fp8-pipeline{{policy={name} report=false}},fp8-cpu-pipeline"
        curves[name] = train(fp8_mlir.jit(text, pipeline), data, init, steps, lr, lr_scale)
    return curves


def final_loss(curve, window=10):
    return float(np.mean(curve[-window:]))


def table(curves):
    ref = final_loss(curves["f32"])
    rows = ["| run | final loss (mean of the last 10 steps) | vs f32 |", "|---|---|---|"]
    for name, curve in curves.items():
        f = final_loss(curve)
        rows.append(f"| {name} | {f:.4f} | {100 * (f - ref) / ref:+.1f} % |")
    return "\n".join(rows) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=300)
    ap.add_argument("--tokens", type=int, default=128)
    ap.add_argument("--sizes", default="512,256,64", help="layer sizes, input first")
    ap.add_argument("--outlier", type=float, default=1e5, help="scale of the outlier input channels")
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--png", help="write the loss curves here (matplotlib)")
    ap.add_argument("--table", help="write the markdown table here")
    args = ap.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    curves = run_all(args.steps, args.tokens, sizes, args.outlier, lr=args.lr)
    text = table(curves)
    sys.stdout.write(text)
    if args.table:
        with open(args.table, "w", encoding="utf-8") as f:
            f.write(text)
    if args.png:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(7, 4))
        for name, curve in curves.items():
            ax.plot(curve, label=name, linewidth=1.2)
        ax.set_yscale("log")
        ax.set_xlabel("step")
        ax.set_ylabel("MSE loss")
        ax.set_title(f"MLP {args.sizes}, {args.tokens} tokens, outlier channels x{args.outlier:g}")
        ax.legend()
        fig.tight_layout()
        fig.savefig(args.png, dpi=100)
    return 0


if __name__ == "__main__":
    sys.exit(main())
