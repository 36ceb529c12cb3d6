#!/usr/bin/env python3
"""The GEMM configuration table of docs/performance.md, from fp8-report JSON.

For each report (one per chip), a Markdown table of its FP8 GEMMs: the
kernel configuration the cost model chose (include/fp8/Target/Hopper/
GemmCostModel.h, docs/gpu-kernel.md) with the group height of its tile order
(1: row-major) and its CTAs per cluster (2: B shared by TMA multicast), its promotion (lock-step or overlapped
by U K blocks), the CTAs it launches, waves, modelled time, TFLOPS and HBM
bytes, and why it leaves SMs idle when it does; then the distinct
configurations (the list test/Emulator/gemm-auto-configs.mlir runs
bit-exact in the emulator).

Usage (from the build directory's parent):
  for chip in h200 h100-sxm; do
    build/bin/fp8-opt bench/gpu/deepseek-v3-shapes.mlir -fp8-assign-precision \
      -fp8-report="format=json chip=$chip output=report-$chip.json" -o /dev/null
  done
  python3 bench/gpu/config_table.py report-h200.json report-h100-sxm.json
"""
import argparse
import json
import sys


def table(report):
    rows = []
    for op in report["ops"]:
        c = op.get("kernel_config")
        if c is None:
            continue
        rows.append(c)
    if not rows:
        raise SystemExit("config_table.py: the report has no GEMM with a kernel_config "
                         "(run fp8-assign-precision before fp8-report; dynamic M needs tokens=)")
    out = [f"Chip: {report['chip']}", "",
           "| M | N | K | tile (BM x BN) | consumers | stages | group | cluster | promotion | CTAs | waves | modelled us | modelled TFLOPS | modelled HBM GB | fewer CTAs because |",
           "|---:|---:|---:|:---:|---:|---:|---:|---:|:---:|---:|---:|---:|---:|---:|:---|"]
    for c in rows:
        why = c["why_fewer_ctas"] or ""
        promotion = f"overlap {c['overlap']}" if c["overlap"] else "lock-step"
        out.append(f"| {c['m']} | {c['n']} | {c['k']} | {c['block_m']} x {c['block_n']} | {c['consumers']} | {c['stages']} "
                   f"| {c['group_m']} | {c['cluster']} | {promotion} | {c['ctas']} | {c['waves']} | {c['modelled_us']:.2f} "
                   f"| {c['modelled_tflops']:.0f} | {c['hbm_bytes'] / 1e9:.3f} | {why} |")
    return out, {(c["block_m"], c["block_n"], c["stages"], c["consumers"], c["group_m"], c["cluster"],
                  c["overlap"]) for c in rows}


def main(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("reports", nargs="+", help="fp8-report JSON files (format=json)")
    args = p.parse_args(argv)
    configs = set()
    for path in args.reports:
        try:
            with open(path) as f:
                report = json.load(f)
        except (OSError, ValueError) as e:
            raise SystemExit(f"config_table.py: cannot read report '{path}': {e}")
        if "chip" not in report or "ops" not in report:
            raise SystemExit(f"config_table.py: '{path}' is not an fp8-report JSON with a chip")
        lines, cfgs = table(report)
        configs |= cfgs
        print("\n".join(lines))
        print()
    print("Distinct configurations (BM x BN, stages, consumers, group of the tile order, "
          "CTAs per cluster, K blocks per trip of the overlapped promotion): " +
          ", ".join(f"{bm}x{bn} s{s} c{c} g{g} cl{cl}" + (f" o{o}" if o else "")
                    for bm, bn, s, c, g, cl, o in sorted(configs)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
