#!/usr/bin/env python3
"""Compile time of the language model's training step (docs/compile-time.md).

For each depth N, in a fresh interpreter each: what
`fp8_mlir.training.LanguageModel` does on its first step, i.e. the joint
step of `lm_graph.lm_training_step` (with its `@run` wrapper) through
`compile()` up to the FP8 graph and then `jit()` with fp8-cpu-pipeline
(the step's CPU options), for the FP8 policy (`--policy`, default
fp8_mlir.DEFAULT_POLICY: deepseek-v3) and for "f32" (no FP8: the step lowered as it is). The model
is train_lm.py's default: vocabulary 256, hidden 256, 4 heads, SwiGLU 640,
sequence 128, batch 8.

Reported per row: CPU seconds (user + system of the child, the best of
--repeat runs; the machine is shared, and CPU time is what a run costs
whatever else runs beside it) and the child's peak resident memory. With
--structure, also the lowered FP8 step's `llvm.icmp` count (the deallocation's
run-time alias checks are pointer comparisons) at the depths given.

With --first-steps, per depth and policy in a fresh interpreter each, what
a training run pays before and at its first steps: `compiled()` (the
lowering to LLVM IR), the first `loss_and_grads()` (which includes LLVM's
code generation: the ExecutionEngine compiles on the first call) and the
second (the step alone), CPU seconds each, the process's peak resident
memory, and a digest of the loss and gradients of the second step (equal
digests: bit-identical results).

    PYTHONPATH=build/python_packages/fp8_mlir/.. \\
        bench/compile/lm_step.py [--layers 4 16 32 61] [--repeat 1] \\
        [--policy deepseek-v3] [--no-f32] [--structure 2 4 8] \\
        [--first-steps 4 16 32 61]
"""
import argparse
import os
import re
import subprocess
import sys

from fp8_mlir import DEFAULT_POLICY

CHILD = r"""
import sys
from fp8_mlir.training import lm
config = lm.LanguageModelConfig(vocab=256, layers=int(sys.argv[1]), hidden=256, heads=4,
                                intermediate=640, seq=128)
lm._compile(config, 8, sys.argv[2], "f32", {})
"""

STRUCTURE = r"""
import sys
from fp8_mlir import compiler
from fp8_mlir.training import lm
from fp8_mlir.training.lm_graph import lm_training_step
config = lm.LanguageModelConfig(vocab=256, layers=int(sys.argv[1]), hidden=256, heads=4,
                                intermediate=640, seq=128)
text = lm._with_run(lm_training_step(config, 8, "f32"), config, 8, "f32")
fp8 = lm._compile_graph(text, sys.argv[2], False).fp8_ir
lowered = compiler.run_pipeline(fp8, lm._cpu_options({}))
print(lowered.count("llvm.icmp"))
"""


FIRST = r"""
import hashlib, resource, sys
import numpy as np
from fp8_mlir.training import lm
layers, policy = int(sys.argv[1]), sys.argv[2]
config = lm.LanguageModelConfig(vocab=256, layers=layers, hidden=256, heads=4,
                                intermediate=640, seq=128)
model = lm.LanguageModel(config, policy)
params = model.init(0)
tokens = np.random.default_rng(1).integers(0, 256, (8, 129))


def cpu():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


t0 = cpu()
model.compiled(8)
t1 = cpu()
model.loss_and_grads(params, tokens)
t2 = cpu()
loss, grads = model.loss_and_grads(params, tokens)
t3 = cpu()
digest = hashlib.sha256(np.float32(loss).tobytes())
for name in sorted(grads):
    digest.update(grads[name].tobytes())
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(f"{t1 - t0:.2f} {t2 - t1:.2f} {t3 - t2:.2f} {peak:.0f} {digest.hexdigest()[:12]}")
"""


def first_steps(layers, policy):
    """compiled(), first and second step (CPU s), peak MiB and the results'
    digest of one fresh interpreter (FIRST)."""
    out = subprocess.run([sys.executable, "-c", FIRST, str(layers), policy], check=True,
                         capture_output=True, text=True).stdout
    compiled, first, second, peak, digest = re.findall(r"\S+", out.strip().splitlines()[-1])
    return float(compiled), float(first), float(second), float(peak), digest


def measure(code, args, repeat):
    """Best CPU seconds and the peak MiB of `python3 -c code args`."""
    best = None
    for _ in range(repeat):
        proc = subprocess.Popen([sys.executable, "-c", code] + [str(a) for a in args])
        _, status, usage = os.wait4(proc.pid, 0)
        if status:
            raise SystemExit(f"lm_step: {args} failed (status {status})")
        run = (usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024)
        best = run if best is None or run[0] < best[0] else best
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--layers", type=int, nargs="*", default=None,
                    help="depths at which to time compile() + jit() (default 4 16 32 61 "
                         "without --first-steps)")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--policy", default=DEFAULT_POLICY)
    ap.add_argument("--no-f32", action="store_true", help="only the FP8 step")
    ap.add_argument("--structure", type=int, nargs="*", default=[],
                    help="depths at which to count the lowered FP8 step's llvm.icmp")
    ap.add_argument("--first-steps", type=int, nargs="*", default=[],
                    help="depths at which to time compiled() and the first two steps")
    a = ap.parse_args()
    if a.layers is None:
        a.layers = [] if a.first_steps else [4, 16, 32, 61]
    if a.first_steps:
        print("| layers | policy | compiled() CPU s | first step | second step "
              "| code generation | peak MiB | digest |")
        print("|---:|---|---:|---:|---:|---:|---:|---|")
        policies = [a.policy] + ([] if a.no_f32 else ["f32"])
        for n in a.first_steps:
            for policy in policies:
                c, f, s2, peak, digest = first_steps(n, policy)
                print(f"| {n} | {policy} | {c:.1f} | {f:.1f} | {s2:.1f} "
                      f"| {f - s2:.1f} | {peak:.0f} | {digest} |", flush=True)
    if a.layers:
        head = f"| layers | {a.policy}: CPU s | s/layer | peak MiB |"
        rule = "|---:|---:|---:|---:|"
        if not a.no_f32:
            head += " f32: CPU s | s/layer | peak MiB |"
            rule += "---:|---:|---:|"
        print(head)
        print(rule)
        for n in a.layers:
            fp8_s, fp8_mib = measure(CHILD, [n, a.policy], a.repeat)
            row = f"| {n} | {fp8_s:.1f} | {fp8_s / n:.2f} | {fp8_mib:.0f} |"
            if not a.no_f32:
                f32_s, f32_mib = measure(CHILD, [n, "f32"], a.repeat)
                row += f" {f32_s:.1f} | {f32_s / n:.2f} | {f32_mib:.0f} |"
            print(row, flush=True)
    if a.structure:
        print()
        print(f"| layers | llvm.icmp in the lowered {a.policy} step |")
        print("|---:|---:|")
        for n in a.structure:
            out = subprocess.run([sys.executable, "-c", STRUCTURE, str(n), a.policy], check=True,
                                 capture_output=True, text=True).stdout
            print(f"| {n} | {out.strip()} |", flush=True)


if __name__ == "__main__":
    main()
