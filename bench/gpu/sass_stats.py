#!/usr/bin/env python3
"""Static SASS facts of the GEMM kernels in a cubin (docs/performance.md).

  sass_stats.py kernels.cubin [--cuobjdump PATH]

For each kernel: registers at launch (resource usage), the highest register
the consumer (after USETMAXREG.TRY_ALLOC) and producer (after
USETMAXREG.DEALLOC) paths touch, the QGMMA count and the instruction mix of
the consumer's K-block loop. Needs a cuobjdump that decodes sm_90a (CUDA 13
has none here; Debian's nvidia-cuda-toolkit 12.4 package has one: see
docs/build-notes.md for fetching it without installing it).
"""
import argparse
import collections
import re
import subprocess


def kernels(cuobjdump, cubin):
    out = subprocess.run([cuobjdump, "--dump-resource-usage", cubin],
                         capture_output=True, text=True, check=True).stdout
    regs = dict(re.findall(r"Function (\S+):\s+REG:(\d+)", out))
    return {k: int(v) for k, v in regs.items()}


def analyze(cuobjdump, cubin, name):
    sass = subprocess.run([cuobjdump, "-sass", "-fun", name, cubin],
                          capture_output=True, text=True, check=True).stdout
    ins = []
    for line in sass.splitlines():
        m = re.search(r"/\*([0-9a-f]{4,})\*/\s+(.*?);", line)
        if m:
            ins.append((int(m.group(1), 16), m.group(2).strip()))
    regs_of = lambda seq: [int(r) for _, t in seq for r in re.findall(r"\bR(\d+)\b", t)]
    alloc = next(i for i, (_, t) in enumerate(ins) if "TRY_ALLOC" in t)
    dealloc = next(i for i, (_, t) in enumerate(ins) if "DEALLOC" in t)
    cons = ins[alloc:] if alloc > dealloc else ins[alloc:dealloc]
    prod = ins[dealloc:alloc] if dealloc < alloc else ins[dealloc:]
    q = [i for i, (_, t) in enumerate(ins) if "QGMMA" in t]
    loop = []
    for i in range(q[-1], len(ins)):
        t = ins[i][1]
        tgt = re.search(r"BRA\s.*0x([0-9a-f]+)", t)
        if tgt and int(tgt.group(1), 16) <= ins[q[0]][0]:
            start = next(j for j, (a, _) in enumerate(ins) if a == int(tgt.group(1), 16))
            loop = ins[start:i + 1]
            break
    op = lambda t: (t.split()[1] if t.startswith("@") else t.split()[0])
    mix = collections.Counter(op(t) for _, t in loop)
    return {"consumer_max_reg": max(regs_of(cons)) + 1,
            "producer_max_reg": max(regs_of(prod)) + 1,
            "qgmma": len(q), "qgmma_kind": op(ins[q[0]][1]),
            "kloop": len(loop), "ffma": mix.get("FFMA", 0)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cubin")
    ap.add_argument("--cuobjdump", default="cuobjdump")
    a = ap.parse_args()
    print("| kernel | regs at launch | consumer regs used | producer regs used | "
          "QGMMA | K-loop SASS instr. | FFMA |")
    print("|---|---|---|---|---|---|---|")
    for name, regs in sorted(kernels(a.cuobjdump, a.cubin).items()):
        s = analyze(a.cuobjdump, a.cubin, name)
        print(f"| {name} | {regs} | {s['consumer_max_reg']} | {s['producer_max_reg']} | "
              f"{s['qgmma']} x {s['qgmma_kind']} | {s['kloop']} | {s['ffma']} |")


if __name__ == "__main__":
    main()
