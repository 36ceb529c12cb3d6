#!/usr/bin/env python3
"""Mutation testing of the fp8-mlir suite (docs/testing.md).

Each mutant of the catalogue (scripts/mutation/mutants.txt) is one small
fault planted in the product: an exact text replacement in one file. For each
mutant the harness applies it to a scratch copy of the checkout (a detached
git worktree with its own build directory, kept between runs so rebuilds are
incremental), rebuilds, runs the suite, and restores the file:
  killed    the suite failed (some test caught the fault); the number of
            failing tests is shown, and a mutant caught by one test only is
            listed as a weak catch;
  survived  the suite passed (no test caught it: a gap);
  invalid   the mutant did not build, or its text no longer matches the
            source (a stale catalogue entry); not counted in the score.
By default each mutant runs the fast subset declared for its area (lit paths,
see AREAS, fastest first), after rebuilding only the targets those tests run
(TARGETS), and stops at the second failing test (`--max-failures`, default
2): a mutant killed by 2 tests is a strong catch, by 1 a weak one, and a
survivor runs its whole subset. `--confirm` reruns every survivor on the
whole suite (everything rebuilt, `ninja check-fp8`'s tests), so a survivor is
only reported when the full suite misses it too. Prints the score per area
and overall, the run's duration and the machine's load; `--markdown` also
writes the table for docs/testing.md.

Exit status: 0 when the run completed (whatever the score), 2 on a usage or
set-up error.
"""
import argparse
import dataclasses
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CATALOGUE = ROOT / "scripts" / "mutation" / "mutants.txt"
LIT = "/usr/lib/llvm-22/bin/lit"

# Fast subset per area: the lit paths (relative to the build's test tree)
# that should catch a fault of that area, fastest first: they run one path
# after the other and stop at the `--max-failures`-th failing test, so a
# mutant that a quick test catches costs seconds. The full suite confirms
# survivors. Subsets leave out the tiled DeepSeek-V3 shapes (minutes each;
# the small tiled cases stay in).
SLOW_TESTS = r"tiled-deepseek-v3/"
CATALOGUE_TEST = r"Tools/mutation-catalogue\.test"
CPU = "Integration/CPU/"
EMU = "Emulator/"
AREAS = {
    "conversion": [CPU + "conversion-cases.mlir", CPU + "numeric-edges.mlir", "Unit",
                   CPU + "quantize.mlir", CPU + "conversion-exhaustive.test"],
    "scale-rules": [CPU + "numeric-edges.mlir", CPU + "quantize.mlir", "Dialect/FP8", "Unit",
                    CPU + "fold-constant-weights-specials.test"],
    "cpu-lowering": ["Conversion/FP8ToLinalg", CPU + "scale-indexing.mlir", CPU + "scaled-matmul.mlir",
                     CPU + "quantize.mlir", CPU + "quantize-leading-blocks.mlir",
                     CPU + "scaled-matmul-accumulator.mlir", CPU + "hopper-accumulation.test",
                     CPU + "scaled-matmul-tiled-accumulator.test",
                     CPU + "pipeline-case16.mlir", CPU + "tiled-scaled-matmul.mlir",
                     CPU + "tiled-quantize.test", CPU + "scaled-matmul-tiled-widen.test",
                     CPU + "empty-shapes.mlir", CPU + "partial-row-blocks.mlir",
                     CPU + "loop-carried-activation.mlir",
                     "Dialect/FP8/Transforms/split-deallocs.mlir",
                     "Dialect/FP8/Pipelines/cpu-pipeline-deallocs.mlir",
                     "Dialect/FP8/Pipelines/cpu-pipeline-nested-modules.mlir",
                     "Dialect/FP8/Transforms/expand-math.mlir",
                     "Dialect/FP8/Transforms/expand-math-shapes.mlir",
                     "Dialect/FP8/Transforms/expand-math-invalid.mlir",
                     "Dialect/FP8/Pipelines/expand-math-pipelines.mlir", CPU + "math-ulp.test",
                     CPU + "k16-accumulation.test", CPU + "split-k-order.mlir",
                     "Integration/GPUHost/bf16-matmul-ktail-negzero.mlir",
                     "Dialect/FP8/Transforms/expand-arith-unsupported.mlir", CPU + "quantize-rank0.mlir",
                     "Dialect/FP8/Pipelines/memref-layouts.mlir",
                     "Integration/GPUHost/named-softmax-direct.mlir"],
    "graph-passes": ["Tools/check-op-order.test", "Dialect/FP8", "Models", "Unit"],
    "constant-folding": ["Dialect/FP8", "Integration/CPU"],
    "gpu-kernel": ["Dialect/FP8/IR/invalid-kernel-attributes.mlir",
                   "Dialect/FP8/IR/invalid-kernel-attribute-ranges.mlir", "Integration/GPUHost/requantize.mlir",
                   "Integration/GPUHost/rowwise-quantize.mlir", "Integration/GPUHost/mx-quantize.mlir",
                   "Integration/GPUHost/column-quantize.mlir", "Integration/GPUHost/e8m0-scales.mlir",
                   "Integration/GPUHost/tensor-quantize.mlir",
                   "Integration/GPUHost/presets.mlir", "Integration/GPUHost/mx-gemm.mlir",
                   "Integration/GPUHost/special-values.mlir",
                   "Integration/GPUHost/grouped-k-wgrad.mlir",
                   "Integration/GPUHost/swap-ab.mlir", "Integration/GPUHost/quantize-epilogue.mlir",
                   "Integration/GPUHost/split-k.mlir",
                   "Integration/GPUHost/bf16-matmul.mlir",
                   EMU + "gemm-shapes.mlir", EMU + "quantize-shapes.mlir", EMU + "host-program.mlir",
                   "Conversion/FP8ToNVVM", "Integration/GPUHost/column-sums.mlir",
                   "Integration/GPUHost/host-census-script.test", "Unit", "Emulator",
                   "Python/gpu_emulator.test"],
    "emulator": ["Tools/emu-help.test", EMU + "gemm-mutations.mlir", EMU + "gemm-shapes.mlir", "Emulator",
                 "Integration/GPUHost/split-k.mlir",
                 "Integration/GPUHost/grouped-k-wgrad.mlir",
                 "Conversion/FP8ToNVVM", "Unit"],
    "training": ["Python/training_optim.test", "Python/training_data.test", "Python/training_lm.test",
                 "Python/training_lm_pick.test"],
    "runtime": ["Integration/GPUHost/device-session-python.test", "Integration/GPUHost/train-step-script.test", "Tools/ptxas-guard.test", EMU + "host-program.mlir", EMU + "host-program-bf16.mlir",
                "Conversion/FP8ToNVVM/launch-kernels-checks.mlir",
                "Conversion/FP8ToNVVM/launch-kernels-config.mlir",
                "Conversion/FP8ToNVVM/launch-kernels-bf16-record.mlir",
                "Conversion/FP8ToNVVM/lower-to-nvvm-invalid.mlir", "Integration/GPUHost", "Unit",
                "Conversion/FP8ToNVVM/empty-problems.mlir", "Integration/GPUHost/split-k.mlir",
                "Emulator", "Dialect/FP8/Pipelines", "Python"],
    "python": ["Python/generator_arguments.test", "Python/api.test", "Python/jit_sizes.test", "Python/numerics.test",
               "Python/grouped_matmul.test", "Python/robustness.test", "Python/presets.test",
               "Python/train_lm_progress.test", "Python/train_lm_arguments.test",
               "Python/cuda_backend.test", "Python/cuda_backend_driver.test", "Python/training_step.test",
               "Python/jit_arguments.test"],
}
# The build targets the tests under a path need, by the longest matching
# path prefix (fp8-opt unless listed). A subset rebuilds a path's targets
# just before running it, so a mutant that the first paths kill never
# links the rest; the full suite rebuilds everything.
TARGETS = {
    "": ["fp8-opt"],
    "Unit": ["FP8UnitTests", "FP8RuntimeStubTests"],
    "Python": ["FP8PythonPackage"],
    "Emulator": ["fp8-opt", "fp8-emu", "fp8_emu_mgpu", "fp8-emu-run"],
    "Integration/GPUHost": ["fp8-opt", "fp8_emu_mgpu"],
    CPU + "conversion-exhaustive.test": ["fp8-opt", "fp8-cvt-exhaustive"],
    "Conversion/FP8ToNVVM": ["fp8-opt", "fp8-translate", "fp8-emu"],
    "Dialect/FP8/Pipelines": ["fp8-opt", "fp8-translate"],
    "Tools": ["fp8-opt", "fp8-translate", "fp8-emu"],
    "Tools/check-op-order.test": ["fp8-opt"],
}


@dataclasses.dataclass
class Mutant:
    ident: str
    area: str
    path: str
    why: str
    old: str
    new: str


def parse_catalogue(text: str, where: Path = CATALOGUE) -> list:
    """Entries:  ## ID area path / # why / -old lines / +new lines."""
    mutants, cur = [], None
    header = re.compile(r"^## (\S+) (\S+) (\S+)\s*$")
    for lineno, line in enumerate(text.splitlines(), 1):
        m = header.match(line)
        if m:
            cur = Mutant(m.group(1), m.group(2), m.group(3), "", "", "")
            if cur.area not in AREAS:
                sys.exit(f"{where}:{lineno}: unknown area '{cur.area}' (one of {', '.join(AREAS)})")
            mutants.append(cur)
        elif cur is None or not line or line.startswith("//"):
            continue
        elif line.startswith("# "):
            cur.why += line[2:] + " "
        elif line.startswith("-"):
            cur.old += line[1:] + "\n"
        elif line.startswith("+"):
            cur.new += line[1:] + "\n"
        else:
            sys.exit(f"{where}:{lineno}: expected '## ID area path', '# why', '-old' or '+new'")
    ids = [m.ident for m in mutants]
    dup = {i for i in ids if ids.count(i) > 1}
    if dup:
        sys.exit(f"{where}: duplicate ids {sorted(dup)}")
    for m in mutants:
        if not m.old or m.old == m.new:
            sys.exit(f"{where}: mutant {m.ident} has no '-' text or changes nothing")
    return mutants


def run(cmd, cwd, timeout, log, capture=False):
    """Runs `cmd`, appending its output to `log`; returns the exit status
    (124 on timeout), with the output too when `capture`."""
    with open(log, "a") as out:
        out.write(f"\n$ {' '.join(cmd)}\n")
        out.flush()
        try:
            p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               timeout=timeout, text=True, errors="replace")
            rc, text = p.returncode, p.stdout
        except subprocess.TimeoutExpired as e:
            rc, text = 124, (e.stdout or b"").decode(errors="replace") + f"\ntimed out after {timeout} s\n"
        out.write(text)
    return (rc, text) if capture else rc


def setup_scratch(scratch: Path, log: Path):
    """A detached worktree of HEAD (product files only change there)."""
    if not (scratch / ".git").exists():
        if scratch.exists():
            shutil.rmtree(scratch)
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(scratch), "HEAD"],
                       check=True, stdout=subprocess.DEVNULL)
    else:
        subprocess.run(["git", "-C", str(scratch), "checkout", "--detach", "-f",
                        subprocess.check_output(["git", "-C", str(ROOT), "rev-parse", "HEAD"], text=True).strip()],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    # The real models, if present beside the checkout, are found the same way.
    models = ROOT.parent / "shared" / "models"
    build = scratch / "build"
    if not (build / "build.ninja").exists():
        cmd = ["cmake", "-G", "Ninja", "-S", str(scratch), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
               "-DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir", f"-DLLVM_EXTERNAL_LIT={LIT}",
               "-DPython3_EXECUTABLE=/usr/bin/python3"]
        if shutil.which("ccache"):
            cmd.append("-DCMAKE_CXX_COMPILER_LAUNCHER=ccache")
        if models.is_dir():
            cmd.append(f"-DFP8_SHARED_MODELS_DIR={models}")
        if run(cmd, scratch, None, log) != 0:
            sys.exit(f"configuring the scratch build failed: see {log}")
    if run(["ninja", "-C", str(build)], scratch, None, log) != 0:
        sys.exit(f"the unmutated scratch copy does not build: see {log}")
    return build


def targets_for(path: str) -> list:
    """The ninja targets the tests under `path` run (TARGETS). A folder
    holding a listed path needs that path's targets too."""
    best = max((k for k in TARGETS if path == k or path.startswith(k + "/") or not k), key=len)
    out = list(TARGETS[best])
    for k, ts in TARGETS.items():
        if k.startswith(path + "/"):
            out += [t for t in ts if t not in out]
    return out


# The failing tests of the current mutant (lit's "FAIL: suite :: name").
FAILED = []


def lit_failures(cmd, build, timeout, log) -> int:
    """Runs lit; the number of failing tests. A failure that lit did not
    count (a hang, a crash of the runner) counts as one."""
    rc, text = run(cmd, build, timeout, log, capture=True)
    if rc == 0:
        return 0
    FAILED.extend(re.findall(r"^(?:FAIL|TIMEOUT): (.+?) \(\d+ of \d+\)", text, re.M))
    counted = sum(int(n) for n in re.findall(r"(?:Failed|Timed Out) Tests \((\d+)\)", text))
    return max(counted, 1)


def suite(build: Path, paths, timeout, log, max_failures) -> int:
    """The number of failing tests, counted up to `max_failures` (0: the
    mutant survived them; 0 = no limit), or -1 when a target does not
    build. `paths` None: the whole suite."""
    limit = ["--max-failures", str(max_failures)] if max_failures else []
    deadline = time.time() + timeout
    if paths is None:
        # Everything check-fp8 builds, then every test (like check-fp8)
        # but the catalogue's own check: a planted mutant always makes its
        # entry stale, which is no catch of the fault.
        if run(["ninja", "-C", str(build), "all", "fp8-doc"], build, timeout, log) != 0:
            return -1
        return lit_failures([LIT, "-q", "--filter-out", CATALOGUE_TEST] + limit + [str(build / "test")], build,
                            max(1, int(deadline - time.time())), log)
    # lit maps a path under the build's test tree to the source suite. A
    # path already covered by an earlier (enclosing) one is not rerun.
    existing, failing, built = [], 0, set()
    for p in paths:
        if (build.parent / "test" / p).exists() and not any(p.startswith(e + "/") for e in existing):
            existing.append(p)
    for p in existing:
        need = [t for t in targets_for(p) if t not in built]
        if need:
            if run(["ninja", "-C", str(build)] + need, build, None, log) != 0:
                return -1
            built.update(need)
        left = max_failures - failing if max_failures else 0
        cmd = [LIT, "-q", "--filter-out", SLOW_TESTS] + (["--max-failures", str(left)] if left else [])
        # An enclosing folder later in the list skips what ran already.
        done = [e for e in existing[:existing.index(p)] if e.startswith(p + "/")]
        if done:
            cmd[3] = SLOW_TESTS + "|" + "|".join(re.escape(d) for d in done)
        failing += lit_failures(cmd + [str(build / "test" / p)], build,
                                max(1, int(deadline - time.time())), log)
        if max_failures and failing >= max_failures:
            break
    return failing


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scratch", type=Path, default=ROOT.parent / (ROOT.name + "-mutation"),
                    help="scratch worktree, kept between runs (default: a sibling of the checkout, "
                         "so ccache with base_dir = its parent reuses the checkout's objects)")
    ap.add_argument("--catalogue", type=Path, default=CATALOGUE, help="the mutant catalogue")
    ap.add_argument("--only", default="", help="comma-separated mutant ids")
    ap.add_argument("--area", default="", help="comma-separated areas")
    ap.add_argument("--confirm", action="store_true", help="rerun survivors on the full suite")
    ap.add_argument("--full", action="store_true", help="run every mutant on the full suite")
    ap.add_argument("--timeout", type=int, default=1800, help="seconds per suite run (a hang is a kill)")
    ap.add_argument("--max-failures", type=int, default=2,
                    help="stop a mutant's tests at this many failures (2: strong catch; 0: run them all)")
    ap.add_argument("--markdown", type=Path, help="write the score table (Markdown) here")
    ap.add_argument("--list", action="store_true", help="list the catalogue and exit")
    ap.add_argument("--check", action="store_true",
                    help="check that every mutant's text occurs once in the checkout, and exit "
                         "(1 when some entry is stale)")
    args = ap.parse_args()

    mutants = parse_catalogue(args.catalogue.read_text(), args.catalogue)
    if args.only:
        want = set(args.only.split(","))
        unknown = want - {m.ident for m in mutants}
        if unknown:
            print(f"unknown mutant ids: {sorted(unknown)}", file=sys.stderr)
            return 2
        mutants = [m for m in mutants if m.ident in want]
    if args.area:
        want = set(args.area.split(","))
        mutants = [m for m in mutants if m.area in want]
    if args.check:
        stale = [m for m in mutants if not (ROOT / m.path).is_file()
                 or (ROOT / m.path).read_text().count(m.old) != 1]
        for m in stale:
            print(f"stale mutant {m.ident}: its '-' text does not occur exactly once in {m.path}; "
                  f"update {args.catalogue.name} with the code it mutates")
        print(f"{len(mutants) - len(stale)} of {len(mutants)} mutants apply")
        return 1 if stale else 0
    if args.list:
        for m in mutants:
            print(f"{m.ident:5} {m.area:17} {m.path}: {m.why.strip()}")
        return 0

    args.scratch = args.scratch.resolve()
    # Paths below the common parent are hashed relative to it, so the scratch
    # build hits the objects ccache holds for the checkout's own build.
    os.environ.setdefault("CCACHE_BASEDIR", os.path.commonpath([str(ROOT), str(args.scratch)]))
    args.scratch.mkdir(parents=True, exist_ok=True)
    log = args.scratch.with_suffix(".log")
    log.write_text("")
    build = setup_scratch(args.scratch, log)
    head = subprocess.check_output(["git", "-C", str(args.scratch), "rev-parse", "--short", "HEAD"],
                                   text=True).strip()
    results = {}
    started, load0 = time.time(), os.getloadavg()
    caught = {}
    for m in mutants:
        target = args.scratch / m.path
        start = time.time()
        FAILED.clear()
        with open(log, "a") as out:
            out.write(f"\n### mutant {m.ident} ({m.area}, {m.path})\n")
        source = target.read_text() if target.exists() else ""
        if source.count(m.old) != 1:
            status = "invalid (text not found once: stale entry)"
        else:
            target.write_text(source.replace(m.old, m.new))
            try:
                # The mutated file's library first (a mutant that does not
                # compile is invalid), then each path's targets as it runs.
                failing = suite(build, None if args.full else AREAS[m.area], args.timeout, log,
                                args.max_failures)
                if not failing and args.confirm and not args.full:
                    failing = suite(build, None, args.timeout, log, args.max_failures)
                status = ("invalid (does not build)" if failing < 0 else
                          f"killed by {failing}" if failing else "survived")
            finally:
                target.write_text(source)
        results[m.ident] = status
        caught[m.ident] = list(FAILED)
        print(f"{m.ident:5} {m.area:17} {status:12} {time.time() - start:6.0f} s  {m.why.strip()}", flush=True)
    # Leave the scratch build matching HEAD for the next run.
    run(["ninja", "-C", str(build)], args.scratch, None, log)
    minutes, load1 = (time.time() - started) / 60, os.getloadavg()
    cpus = os.cpu_count() or 1
    load = (f"{minutes:.0f} min; load average (1/5/15 min) {load0[0]:.1f}/{load0[1]:.1f}/{load0[2]:.1f} "
            f"at the start, {load1[0]:.1f}/{load1[1]:.1f}/{load1[2]:.1f} at the end, on {cpus} CPUs")

    rows, total_k, total_n = [], 0, 0
    for area in AREAS:
        counted = [m for m in mutants if m.area == area and not results[m.ident].startswith("invalid")]
        if not counted:
            continue
        k = sum(results[m.ident].startswith("killed") for m in counted)
        total_k, total_n = total_k + k, total_n + len(counted)
        rows.append((area, k, len(counted)))
    rows.append(("overall", total_k, total_n))
    table = ["| area | killed | mutants | score |", "|---|---:|---:|---:|"]
    table += [f"| {a} | {k} | {n} | {100.0 * k / n:.0f}% |" for a, k, n in rows if n]
    survivors = [m for m in mutants if results[m.ident] == "survived"]
    invalid = [m for m in mutants if results[m.ident].startswith("invalid")]
    weak = [m for m in mutants if results[m.ident] == "killed by 1"]
    print("\n" + "\n".join(table))
    print(f"duration {load}")
    for m in survivors:
        print(f"survivor {m.ident} ({m.area}, {m.path}): {m.why.strip()}")
    for m in weak:
        print(f"weak: {m.ident} ({m.area}) caught by one test only: {m.why.strip()}")
    for m in invalid:
        print(f"{results[m.ident]}: {m.ident} ({m.path})")
    if args.markdown:
        mode = "full suite" if args.full else ("area subsets, survivors confirmed on the full suite"
                                                if args.confirm else "area subsets")
        lines = [f"Mutation run of {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime(started))} on {head} "
                 f"({mode}; max failures {args.max_failures}): {load}.", "", *table, ""]
        lines += [f"- survivor {m.ident} ({m.area}): {m.why.strip()}" for m in survivors]
        lines += [f"- weak (one test): {m.ident} ({m.area}): {m.why.strip()}" for m in weak]
        lines += [f"- {results[m.ident]}: {m.ident}" for m in invalid]
        lines += ["", "| mutant | area | verdict | failing tests (the first ones) |", "|---|---|---|---|"]
        lines += [f"| {m.ident} | {m.area} | {results[m.ident]} | {', '.join(caught[m.ident])} |"
                  for m in mutants]
        args.markdown.write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
