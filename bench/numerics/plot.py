#!/usr/bin/env python3
"""Plots the accumulation error against K from the CSV that
fp8-bench-numerics writes (its table 2 onward): one panel per input
distribution, E4M3FN (solid) and E5M2 (dashed), for exact f32 partial sums and Hopper's accumulation (sm90) without promotion and with
promotion every 512, 256 and 128 elements, in two metrics. A bench tool (Debian's
python3-matplotlib), not part of the test suite. Top row: ||D - R||_F /
||R||_F; bottom row: max|D - R| / RMS(R).

    build/bin/fp8-bench-numerics errors.csv
    python3 bench/numerics/plot.py errors.csv docs/numerics-error-vs-k.png
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

MODELS = [
    ("sm90", "sm90, no promotion", "tab:red"),
    ("sm90-512", "sm90, promote 512", "tab:orange"),
    ("sm90-256", "sm90, promote 256", "tab:olive"),
    ("sm90-128", "sm90, promote 128", "tab:green"),
    ("exact", "f32 partial sums", "tab:blue"),
]
INPUTS = ["N(0,1)", "N(1,1)", "U(0,1)"]
FORMATS = [("e4m3", "E4M3FN", "-"), ("e5m2", "E5M2", "--")]


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    rows = list(csv.DictReader(open(sys.argv[1], encoding="ascii")))
    metrics = [("frobenius_pct", "||D - R||_F / ||R||_F, %"), ("max_over_rms_pct", "max|D - R| / RMS(R), %")]
    fig, axes = plt.subplots(len(metrics), len(INPUTS), figsize=(15, 8.5), sharey="row")
    for row, (metric, metric_label) in enumerate(metrics):
        for ax, inputs in zip(axes[row], INPUTS):
            for key, label, color in MODELS:
                for fmt, fmt_label, style in FORMATS:
                    pts = sorted(
                        (int(r["K"]), float(r[metric]))
                        for r in rows
                        if r["inputs"] == inputs and r["accumulation"] == key and r["format"] == fmt
                    )
                    if not pts:
                        continue
                    ks, errs = zip(*pts)
                    # f32 errors can print as 0 at this precision: clamp for the log axis.
                    errs = [max(e, 1e-6) for e in errs]
                    ax.plot(ks, errs, style, color=color, marker="o", markersize=3,
                            label=f"{label}, {fmt_label}")
            ax.axhline(2.0, color="gray", linewidth=0.8, linestyle=":")
            ax.set_xscale("log", base=2)
            ax.set_yscale("log")
            ax.set_title(f"{inputs} inputs")
            ax.set_xlabel("K")
            ax.grid(True, which="both", linewidth=0.3)
        axes[row][0].set_ylabel(metric_label)
        axes[row][0].text(512, 2.3, "2% (DeepSeek-V3)", color="gray", fontsize=8)
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=5, fontsize=8)
    fig.suptitle("Accumulation error of 128x128xK FP8 GEMMs (per-tensor scales) vs FP64, "
                 "Hopper tensor-core accumulation (accumulator=sm90)")
    fig.tight_layout(rect=(0, 0.07, 1, 0.96))
    fig.savefig(sys.argv[2], dpi=110)
    return 0


if __name__ == "__main__":
    sys.exit(main())
