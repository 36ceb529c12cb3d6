#!/usr/bin/env python3
"""results.md and results.json of a device session (bench/gpu/device-session.sh):
the phases' outcomes, the silicon check's summary, the GEMM table
(harness.py's results.json), the kernel families (families.py's
families.json) and the configuration sweep (one results.json per
configuration), each timed row with the SM clock and board power that
nvidia-smi logged during its timing window (`window`, epoch seconds):
  session_report.py --out DIR [--phases F] [--machine F] [--commit F]
      [--model-chip F] [--silicon F] [--gemm F] [--families F]
      [--config NAME=F ...] [--clocks F]
The device is named by the machine line (nvidia-smi's name, first field):
its datasheet HBM bandwidth and cost-model chip come from devices.py,
keyed by that name, so a session on an H100 is reported against the
H100's peak, one on an H200 against the H200's.
The clock log is nvidia-smi's
`--query-gpu=timestamp,clocks.sm,power.draw --format=csv,noheader,nounits`
(local time, the harness's windows are read in the same zone). Needs no
PyTorch: runs on the build machine's tests too.
"""
import argparse
import datetime
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import devices  # noqa: E402  (the datasheet HBM and cost-model chip by name)


def read_clocks(path):
    """[(epoch seconds, SM clock MHz or None, power W or None)] of an
    nvidia-smi log; unreadable lines ('[N/A]', a header, a cut last line)
    are skipped."""
    samples = []
    if not path or not os.path.exists(path):
        return samples
    for line in open(path, errors="replace"):
        fields = [f.strip() for f in line.split(",")]
        if len(fields) < 3:
            continue
        try:
            when = datetime.datetime.strptime(fields[0], "%Y/%m/%d %H:%M:%S.%f").timestamp()
        except ValueError:
            continue
        samples.append((when, number(fields[1]), number(fields[2])))
    return samples


def number(text):
    try:
        return float(text.split()[0])
    except (ValueError, IndexError):
        return None


def window_stats(samples, window):
    """The SM clock (median, min, max) and power (mean, max) of the samples
    inside window [t0, t1]; None when the window holds none."""
    if not window or window[0] is None or window[1] is None:
        return None
    inside = [s for s in samples if window[0] <= s[0] <= window[1]]
    clocks = [s[1] for s in inside if s[1] is not None]
    power = [s[2] for s in inside if s[2] is not None]
    if not clocks:
        return None
    return {"samples": len(inside), "sm_mhz_median": statistics.median(clocks),
            "sm_mhz_min": min(clocks), "sm_mhz_max": max(clocks),
            "power_w_mean": statistics.fmean(power) if power else None,
            "power_w_max": max(power) if power else None}


def load(path):
    if not path or not os.path.exists(path):
        return None
    try:
        return json.load(open(path))
    except ValueError as err:  # a run cut off mid-write
        return {"error": f"{path}: {err}"}


def fmt(value, spec):
    return spec % value if value is not None else "n/a"


def clock_cells(stats):
    """'median (min-max)' MHz and 'mean / max' W of window_stats."""
    if not stats:
        return "n/a", "n/a"
    clock = f"{stats['sm_mhz_median']:.0f} ({stats['sm_mhz_min']:.0f}-{stats['sm_mhz_max']:.0f})"
    power = f"{fmt(stats['power_w_mean'], '%.0f')} / {fmt(stats['power_w_max'], '%.0f')}"
    return clock, power


def annotate(rows, samples):
    for r in rows:
        r["clock"] = window_stats(samples, r.get("window"))


def gemm_section(data, title):
    lines = [f"## {title}", ""]
    if not data or "rows" not in data:
        return lines + [f"not run or no results ({(data or {}).get('error', 'no results.json')})", ""]
    lines += ["| M x N x K | check | bits vs CPU sm90 | fp8-mlir TFLOPS | SM clock MHz | power W | "
              "cuBLASLt FP8 TFLOPS | vs cuBLASLt | BF16 TFLOPS | vs BF16 |",
              "|---|---|---|---:|---|---|---:|---:|---:|---:|"]
    for r in data["rows"]:
        clock, power = clock_cells(r.get("clock"))
        lines.append(f"| {r['shape']} | {'ok' if r.get('ok') else 'FAIL'} | "
                     f"{fmt(r.get('bits_vs_cpu_sm90'), '%d')} | {fmt(r.get('tflops_fp8mlir'), '%.0f')} | "
                     f"{clock} | {power} | {fmt(r.get('tflops_cublaslt'), '%.0f')} | "
                     f"{fmt(r.get('ratio_vs_cublaslt'), '%.2fx')} | {fmt(r.get('tflops_bf16'), '%.0f')} | "
                     f"{fmt(r.get('ratio_vs_bf16'), '%.2fx')} |")
    return lines + [""] + gemmq_lines(data["rows"])


def gemmq_lines(rows):
    """The quantize epilogue's rows (harness.py step 4, the gemmq_ keys:
    session-configs.txt's q and qtma lines), beside the same shape's gemm_;
    none when no row has them."""
    rows = [r for r in rows if "gemmq_ok" in r]
    if not rows:
        return []
    lines = ["Quantize epilogue (gemmq_, the GEMM's D quantized to 1x128 E4M3FN tiles in its kernel; "
             "output bytes M*N + 4*M*N/128 against gemm_'s 2*M*N):", "",
             "| M x N x K | check (codes, scales vs gemm_ + quantize) | gemmq_ TFLOPS | gemmq_ out GB/s | "
             "gemm_ TFLOPS | gemm_ out GB/s | gemm_ time / gemmq_ time | other kernels ms |",
             "|---|---|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        check = "ok" if r["gemmq_ok"] else "FAIL " + str(r.get("gemmq_error", r.get("gemmq_mismatch_vs_gemm")))
        lines.append(f"| {r['shape']} | {check} | {fmt(r.get('gemmq_tflops'), '%.0f')} | "
                     f"{fmt(r.get('gemmq_out_gbps'), '%.0f')} | {fmt(r.get('tflops_fp8mlir'), '%.0f')} | "
                     f"{fmt(r.get('gemm_out_gbps'), '%.0f')} | {fmt(r.get('gemmq_vs_gemm'), '%.2fx')} | "
                     f"{fmt(r.get('gemmq_t_other_ms'), '%.3f')} |")
    return lines + [""]


def device_info(machine, model_chip):
    """The device of the session: its name (nvidia-smi's machine line, first
    field), datasheet HBM TB/s and cost-model chip (devices.py), and the
    chip the session's GEMM configurations were chosen for (prepare-all.sh's
    model-chip.txt); None for what is unknown."""
    name = machine.split(",")[0].strip() if machine else None
    tbps, chip = devices.lookup(name) if name else (None, None)
    return {"name": name, "hbm_tbps": tbps, "model_chip": chip,
            "prepared_for": model_chip.split()[0] if model_chip and model_chip.split() else None}


def device_lines(device):
    """The report's lines on the device: which card, the peak its
    memory-bound kernels are reported against, and a warning when the
    configurations were chosen for another chip."""
    if not device["name"]:
        return ["- device: unknown (no nvidia-smi machine line): no HBM peak"]
    peak = (f"datasheet HBM {device['hbm_tbps']:.2f} TB/s" if device["hbm_tbps"]
            else "HBM peak unknown (not in bench/gpu/devices.py)")
    lines = [f"- device: {device['name']}: {peak}, cost model chip {device['model_chip'] or 'none'}"]
    if device["prepared_for"] and device["prepared_for"] != device["model_chip"]:
        lines.append(f"- the GEMM configurations were chosen by the cost model for {device['prepared_for']}, "
                     f"not this device's {device['model_chip'] or 'chip (none)'}: "
                     f"FP8_MODEL_CHIP of prepare-all.sh chooses for another")
    return lines


def families_section(data, device=None):
    lines = ["## Kernel families (bench/gpu/families.txt)", ""]
    if not data or "rows" not in data:
        return lines + [f"not run or no results ({(data or {}).get('error', 'no families.json')})", ""]
    meta = dict(data.get("meta", {}))
    # families.py looks the peak up by PyTorch's device name, the same
    # string; a families.json without it is reported against the machine's.
    if meta.get("hbm_tbps") is None and device and device.get("hbm_tbps"):
        meta["hbm_tbps"] = device["hbm_tbps"]
        for r in data["rows"]:
            if r.get("gbps") is not None and r.get("of_hbm") is None:
                r["of_hbm"] = 100.0 * r["gbps"] / (device["hbm_tbps"] * 1e3)
    lines += [f"device-to-device copy in this run: {fmt(meta.get('copy_gbps'), '%.0f')} GB/s (read + write)", "",
              "| kernel | check | fp8-mlir | SM clock MHz | power W | anchor | vs anchor | other kernels ms |",
              "|---|---|---:|---|---|---:|---:|---:|"]
    for r in data["rows"]:
        clock, power = clock_cells(r.get("clock"))
        ok = "ok" if r.get("ok") else "FAIL: " + failure_details(r)
        if "gbps" in r or r.get("kind", "").startswith(("quantize", "requantize", "transpose")):
            value = (f"{fmt(r.get('gbps'), '%.0f')} GB/s ({fmt(r.get('of_hbm'), '%.0f')}% of "
                     f"{fmt(meta.get('hbm_tbps'), '%.2f')} TB/s)")
            anchor = f"copy {fmt(meta.get('copy_gbps'), '%.0f')} GB/s"
            ratio = fmt(r.get("of_copy") / 100 if r.get("of_copy") is not None else None, "%.2fx")
        else:
            value = f"{fmt(r.get('tflops'), '%.0f')} TFLOPS"
            anchor = f"cuBLASLt {fmt(r.get('tflops_cublaslt'), '%.0f')}, BF16 {fmt(r.get('tflops_bf16'), '%.0f')}"
            ratio = f"{fmt(r.get('ratio_vs_cublaslt'), '%.2fx')}, {fmt(r.get('ratio_vs_bf16'), '%.2fx')}"
        lines.append(f"| {r['name']} | {ok} | {value} | {clock} | {power} | {anchor} | {ratio} | "
                     f"{fmt(r.get('t_other_ms'), '%.3f')} |")
    return lines + [""]


def failure_details(r):
    """What failed in a families row: its error, or the checks' figures."""
    if r.get("error"):
        return r["error"]
    parts = [f"{label} {r[key]}" for key, label in
             (("slices_exact", "slices bit-exact"), ("nonzero_padding", "non-zero padding"),
              ("mismatch", "mismatches")) if key in r]
    if r.get("diff") is not None:
        parts.append(f"diff {r['diff']:.1e}")
    return ", ".join(parts) or "see session.log"


def parse_args(argv=None):
    ap = argparse.ArgumentParser(description="results.md/.json of a device session")
    ap.add_argument("--out", required=True)
    ap.add_argument("--phases", help="NAME EXIT SECONDS per line (device-session.sh)")
    ap.add_argument("--machine", help="nvidia-smi's machine line")
    ap.add_argument("--commit", help="what prepare-all.sh recorded of the checkout")
    ap.add_argument("--model-chip", help="prepare-all.sh's model-chip.txt: the chip the GEMM "
                    "configurations were chosen for")
    ap.add_argument("--silicon", help="silicon.sh's silicon.md")
    ap.add_argument("--gemm", help="harness.py's results.json")
    ap.add_argument("--families", help="families.py's families.json")
    ap.add_argument("--config", action="append", default=[], metavar="NAME=results.json",
                    help="one configuration of the sweep (session-configs.txt)")
    ap.add_argument("--clocks", help="nvidia-smi's log")
    return ap.parse_args(argv)


def read_text(path):
    return open(path, errors="replace").read().strip() if path and os.path.exists(path) else None


def main(argv=None):
    args = parse_args(argv)
    samples = read_clocks(args.clocks)
    gemm, families = load(args.gemm), load(args.families)
    configs = []
    for spec in args.config:
        name, _, path = spec.partition("=")
        configs.append((name, load(path)))
    for data in [gemm, families] + [c for _, c in configs]:
        if data and "rows" in data:
            annotate(data["rows"], samples)
    phases = []
    for line in (read_text(args.phases) or "").splitlines():
        fields = line.split()
        if len(fields) >= 3:
            phases.append({"phase": fields[0], "exit": fields[1], "seconds": fields[2]})
    silicon = read_text(args.silicon)
    silicon_summary = next((l for l in reversed((silicon or "").splitlines()) if " passed, " in l), None)

    machine = read_text(args.machine)
    device = device_info(machine, read_text(args.model_chip))
    lines = ["# Device session (bench/gpu/device-session.sh)", ""]
    for label, text in (("machine", machine), ("prepared from", read_text(args.commit))):
        if text:
            lines.append(f"- {label}: {' '.join(text.split())}")
    if samples:
        clocks = [s[1] for s in samples if s[1] is not None]
        power = [s[2] for s in samples if s[2] is not None]
        lines.append(f"- nvidia-smi every 50 ms: {len(samples)} samples, SM clock "
                     f"{fmt(min(clocks) if clocks else None, '%.0f')}-{fmt(max(clocks) if clocks else None, '%.0f')} MHz, "
                     f"power up to {fmt(max(power) if power else None, '%.0f')} W")
    else:
        lines.append("- nvidia-smi log: none (clock and power n/a)")
    lines += device_lines(device)
    lines += ["", "| phase | exit | seconds |", "|---|---|---:|"]
    lines += [f"| {p['phase']} | {p['exit']} | {p['seconds']} |" for p in phases]
    lines += ["", "## Silicon check (bench/gpu/silicon.sh, silicon.md)", "",
              silicon_summary or "not run or no summary", ""]
    lines += gemm_section(gemm, "GEMMs (bench/gpu/shapes.txt, the cost model's configurations)")
    lines += families_section(families, device)
    for name, data in configs:
        lines += gemm_section(data, f"Configuration {name} (session-configs.txt)")
    os.makedirs(args.out, exist_ok=True)
    open(os.path.join(args.out, "results.md"), "w").write("\n".join(lines) + "\n")
    json.dump({"device": device, "phases": phases, "silicon": silicon_summary, "gemm": gemm, "families": families,
               "configs": dict(configs), "clock_samples": len(samples)},
              open(os.path.join(args.out, "results.json"), "w"), indent=1)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
