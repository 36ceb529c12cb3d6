#!/usr/bin/env python3
"""dW error of the two ways to make a weight gradient's FP8 operands
(`#fp8.policy<..., wgrad_operands = requantize | fresh>`, docs/policies.md),
against the FP64 product dW = dYᵀ·X of the unquantized tensors.

- requantize (DeepSeek-V3 §3.5.2): X and dY are quantized once in 1x128
  tiles along their features (the tiles the Fprop and the Dgrad read); the
  Wgrad's operands, 1x128 tiles along the tokens, are requantized from those
  FP8 codes and scales (fp8.requantize, transposed): two roundings.
- fresh (TransformerEngine, torchao): the Wgrad's operands are quantized
  along the tokens from the high-precision X and dY: one rounding.

Both dW are computed by the compiler's CPU lowering (fp8_mlir.quantize,
requantize and scaled_matmul, FP32 accumulation promoted every 128 products;
bit-equal to what `fp8-pipeline{wgrad-operands=...}` compiles the joint step
to), and compared with the FP64 reference as ||dW - dW64||_F / ||dW64||_F.

Run from a build (numpy needed):
    PYTHONPATH=build/python_packages python3 bench/numerics/wgrad_operands.py
    ... --tokens 4096 --in-features 2048 --out-features 1024 --seeds 3
Prints a Markdown table (the one in docs/policies.md).
"""

import argparse
import sys

import numpy as np

import fp8_mlir


def activations(rng, t, f, kind):
    """X [t, f] of one of the distributions the table lists."""
    x = rng.standard_normal((t, f))
    if kind == "gaussian":
        return x
    if kind == "channel-scaled":
        # Per-channel magnitudes spread over ~2 decades (lognormal, sigma 1),
        # as the inputs of an LLM's linears after RMSNorm gains.
        return x * np.exp(rng.standard_normal(f))
    if kind == "outlier-channels":
        # channel-scaled plus 0.5% of the channels 50x larger (the massive
        # activation channels of LLMs, which 1x128 tiles are meant to isolate).
        x = x * np.exp(rng.standard_normal(f))
        x[:, rng.choice(f, max(1, f // 200), replace=False)] *= 50.0
        return x
    if kind == "heavy-tailed":
        return rng.standard_t(3, (t, f))
    raise ValueError(kind)


def gradients(rng, t, f, kind):
    """dY [t, f]: per-token magnitudes (lognormal, sigma 1) x 1e-3, the
    spread loss gradients have across tokens; heavy-tailed entries for the
    heavy-tailed case."""
    base = rng.standard_t(3, (t, f)) if kind == "heavy-tailed" else rng.standard_normal((t, f))
    return base * np.exp(rng.standard_normal((t, 1))) * 1e-3


def operand(v, recipe, fmt, scale):
    """The Wgrad's FP8 operand [F, T] (1x128 tiles along the tokens) of the
    token-major [T, F] tensor v."""
    if recipe == "fresh":
        return fp8_mlir.quantize(np.ascontiguousarray(v.T), (1, 128), fmt=fmt, scale=scale)
    rows = fp8_mlir.quantize(v, (1, 128), fmt=fmt, scale=scale)  # the Fprop / Dgrad tiles
    return fp8_mlir.requantize(rows, (1, 128), transpose=True)


def dw_error(x, dy, recipe, fmt_x, fmt_dy, scale):
    qdy = operand(dy, recipe, fmt_dy, scale)  # [out, T]
    qx = operand(x, recipe, fmt_x, scale)  # [in, T]
    dw = fp8_mlir.scaled_matmul(qdy, qx, out="f32").astype(np.float64)
    exact = dy.T.astype(np.float64) @ x.astype(np.float64)
    return np.linalg.norm(dw - exact) / np.linalg.norm(exact)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tokens", type=int, default=4096)
    p.add_argument("--in-features", type=int, default=2048)
    p.add_argument("--out-features", type=int, default=1024)
    p.add_argument("--seeds", type=int, default=2)
    p.add_argument("--kinds", default="gaussian,channel-scaled,outlier-channels,heavy-tailed")
    p.add_argument("--formats", default="e4m3/e4m3,e4m3/e5m2", help="X/dY formats (deepseek-v3, hybrid)")
    p.add_argument("--scales", default="f32,pow2")
    args = p.parse_args(argv)
    t, fi, fo = args.tokens, args.in_features, args.out_features
    print(f"dW = dY^T X, T = {t} tokens, X [{t}, {fi}], dY [{t}, {fo}]; relative Frobenius error "
          f"against FP64, mean over {args.seeds} seeds")
    print()
    print("| X, dY | formats (X / dY) | scales | requantize | fresh | requantize / fresh |")
    print("|---|---|---|---|---|---|")
    for kind in args.kinds.split(","):
        for fmts in args.formats.split(","):
            fmt_x, fmt_dy = fmts.split("/")
            for scale in args.scales.split(","):
                err = {"requantize": [], "fresh": []}
                for seed in range(args.seeds):
                    rng = np.random.default_rng(seed)
                    x = activations(rng, t, fi, kind).astype(np.float32)
                    dy = gradients(rng, t, fo, kind).astype(np.float32)
                    for recipe in err:
                        err[recipe].append(dw_error(x, dy, recipe, fmt_x, fmt_dy, scale))
                r, f = np.mean(err["requantize"]), np.mean(err["fresh"])
                print(f"| {kind} | {fmt_x} / {fmt_dy} | {scale} | {r:.3e} | {f:.3e} | {r / f:.2f}x |")
                sys.stdout.flush()


if __name__ == "__main__":
    main()
