#!/usr/bin/env python3
"""Compile-time benchmark of fp8-pipeline and compile() (docs/compile-time.md).

1. `fp8-opt --fp8-pipeline="report=false"` against `mlir-opt --canonicalize
   --cse` on the same input, in the same run: the real graphs in
   ../shared/models, generated dense decoders (gen_transformer.py, N = 1, 8,
   32, 61), a 28-layer decode graph of mixed levels, and MoE models from
   fp8_mlir.models (the small configuration and DeepSeek-V3's, N layers).
2. `fp8_mlir.compile()` (graph pipeline, report, CPU lowering) of
   DeepSeek-V3 MoE models of N layers, each in a fresh interpreter.
3. Where the CPU lowering's time per layer grows: `fp8-opt
   --fp8-cpu-pipeline` on the same work laid out three ways, K = 1, 2, 4, 8
   times the FP8 graph of a B-layer DeepSeek-V3 model: one graph of K*B
   layers; K copies of the B-layer function in one module; K separate
   modules in one process (`--split-input-file`, one MLIRContext).
4. Chains of N same-shape linears in one function (gen_chain.py, flat and
   N execute_regions deep): `fp8-pipeline` + `fp8-cpu-pipeline` (one
   thread), and the same with --baseline-fp8-opt (e.g. the build before a
   change) in the same run.

Times are CPU seconds (user + system) of the process, the best of --repeat
runs: the machine is shared, and CPU time is what a run costs whatever else
runs beside it. Peak memory is the process's maximum resident set. Prints
Markdown tables; Python 3 stdlib only (compile() needs the built package).

    bench/compile/run.py --fp8-opt build/bin/fp8-opt [--mlir-opt mlir-opt]
                         [--models ../shared/models] [--repeat 3]
                         [--moe-layers 2 4 8 32 61] [--deepseek-layers 1 2 4 8]
                         [--compile-layers 1 2 4 8] [--python-packages DIR]
                         [--layout-copies 1 2 4 8] [--layout-layers 4]
                         [--chain-linears 100 200 400] [--chain-forms flat nested]
                         [--baseline-fp8-opt OTHER] [--only-chains]
"""
import argparse
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import types

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
REAL = ["bert_base_linalg", "berttiny_mlm_backward_linalg", "qwen_block_tosa", "mlp_fp32_3x1024",
        "mlp_bf16_3x1024"]
LAYERS = [1, 8, 32, 61]


def load_models():
    """fp8_mlir/models.py without the package's __init__ (pure Python): the
    package itself needs the native extension, which the fp8-opt rows do not.
    models.py is loaded as a submodule of a stand-in package whose path is
    python/fp8_mlir, so its relative imports (training_graphs) resolve."""
    source = os.path.join(ROOT, "python", "fp8_mlir")
    package = types.ModuleType("fp8_models_src")
    package.__path__ = [source]
    sys.modules["fp8_models_src"] = package
    spec = importlib.util.spec_from_file_location("fp8_models_src.models", os.path.join(source, "models.py"))
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look the module up
    spec.loader.exec_module(module)
    return module


def measure(cmd, repeat, env=None):
    """(CPU seconds, wall seconds, peak MiB) of the run with the least CPU
    time; stdout is returned from that run."""
    best = None
    for _ in range(repeat):
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
        out = proc.stdout.read()
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode:
            raise SystemExit(f"failed ({proc.returncode}): {' '.join(cmd)}")
        run = (usage.ru_utime + usage.ru_stime, time.perf_counter() - start, usage.ru_maxrss / 1024, out)
        if best is None or run[0] < best[0]:
            best = run
    return best


def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return path


def pipeline_table(a, inputs):
    print("| input | linalg ops | fp8-pipeline (s) | canonicalize+cse (s) | ratio | fp8-pipeline peak (MiB) |")
    print("|---|---:|---:|---:|---:|---:|")
    series = {}
    for name, path, group, n in inputs:
        with open(path) as f:
            ops = f.read().count("linalg.")
        fp8, _, fp8_mem, _ = measure([a.fp8_opt, path, "--fp8-pipeline=report=false", "-o", os.devnull], a.repeat)
        base, _, _, _ = measure([a.mlir_opt, path, "--canonicalize", "--cse", "-o", os.devnull], a.repeat)
        print(f"| {name} | {ops} | {fp8:.3f} | {base:.3f} | {fp8 / base:.1f}x | {fp8_mem:.0f} |", flush=True)
        if group:
            series.setdefault(group, {})[n] = (fp8, base, fp8_mem)
    for group, points in series.items():
        if len(points) < 2:
            continue
        first = min(points)
        print()
        print(f"| {group}: layers | fp8-pipeline vs {first} | canonicalize+cse vs {first} | "
              "fp8-pipeline ms/layer | peak MiB |")
        print("|---:|---:|---:|---:|---:|")
        for n in sorted(points):
            fp8, base, mem = points[n]
            f0, b0, _ = points[first]
            print(f"| {n} | {fp8 / f0:.1f}x | {base / b0:.1f}x | {1000 * fp8 / n:.1f} | {mem:.0f} |")


COMPILE = r"""
import json, resource, sys, time
import fp8_mlir
from fp8_mlir import models
text = models.model(models.ModelConfig(), int(sys.argv[1]), mlp="moe")
cpu, wall = time.process_time(), time.perf_counter()
res = fp8_mlir.compile(text)
cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
print(json.dumps({"cpu": cpu, "wall": wall, "peak": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "gemms": res.fp8_ir.count("fp8.scaled_matmul"),
                  "grouped": res.fp8_ir.count("fp8.grouped_scaled_matmul"), "ir": len(res.ir)}))
"""


def compile_table(a):
    env = dict(os.environ, PYTHONPATH=a.python_packages + os.pathsep + os.environ.get("PYTHONPATH", ""))
    check = subprocess.run([sys.executable, "-c", "import fp8_mlir; fp8_mlir.compile"], env=env,
                           capture_output=True)
    if check.returncode:
        print(f"(compile() rows skipped: no fp8_mlir package in {a.python_packages})")
        return
    print("| DeepSeek-V3 layers | compile() CPU (s) | wall (s) | CPU s/layer | peak (MiB) | "
          "scaled_matmul ops | grouped_scaled_matmul ops | LLVM IR (MB) |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for n in a.compile_layers:
        # The time of compile() itself (measured in the child, without the
        # graph generation and the interpreter start); the peak of the whole
        # process.
        best = None
        for _ in range(a.repeat):
            *_, out = measure([sys.executable, "-c", COMPILE, str(n)], 1, env)
            r = json.loads(out)
            if best is None or r["cpu"] < best["cpu"]:
                best = r
        print(f"| {n} | {best['cpu']:.2f} | {best['wall']:.2f} | {best['cpu'] / n:.2f} | {best['peak']:.0f} | "
              f"{best['gemms']} | {best['grouped']} | {best['ir'] / 1e6:.1f} |", flush=True)


def one_function(text):
    """(header, function, tail) of a module holding one func.func."""
    lines = text.split("\n")
    starts = [i for i, l in enumerate(lines) if l.startswith("  func.func ")]
    if len(starts) != 1:
        raise SystemExit(f"expected one func.func in the FP8 graph, found {len(starts)}")
    end = max(i for i, l in enumerate(lines) if l == "}")
    return lines[:starts[0]], lines[starts[0]:end], lines[end:]


def layout_table(a, models, tmp):
    """The CPU lowering of K times the same work: one deep graph, K functions
    in one module, K modules (docs/compile-time.md: the growth per layer
    follows the size of the live module, not the work)."""
    def fp8_graph(n):
        src = write(os.path.join(tmp, f"layout_src_{n}.mlir"), models.model(models.ModelConfig(), n))
        out = os.path.join(tmp, f"layout_fp8_{n}.mlir")
        subprocess.run([a.fp8_opt, "--fp8-pipeline=report=false", "--mlir-print-op-on-diagnostic=false",
                        src, "-o", out], check=True, stderr=subprocess.DEVNULL)
        with open(out) as f:
            return f.read()

    b = a.layout_layers
    base = fp8_graph(b)
    head, func, tail = one_function(base)
    print(f"| K | layers (K x {b}) | one graph: CPU s | s/layer | peak MiB | K functions, one module: CPU s | "
          f"s/layer | peak MiB | K modules: CPU s | s/layer | peak MiB |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    # One thread, as compile() runs (its MLIRContext has threading off).
    lower = [a.fp8_opt, "--split-input-file", "--mlir-disable-threading", "--fp8-cpu-pipeline", "-o", os.devnull]
    for k in a.layout_copies:
        deep = write(os.path.join(tmp, "layout_deep.mlir"), fp8_graph(k * b) if k > 1 else base)
        funcs = list(head)
        for i in range(k):
            funcs += [l.replace("func.func @forward(", f"func.func @forward_{i}(", 1) for l in func]
        copies = write(os.path.join(tmp, "layout_funcs.mlir"), "\n".join(funcs + tail))
        split = write(os.path.join(tmp, "layout_split.mlir"), "\n// -----\n".join([base] * k))
        row = [k, k * b]
        for path in (deep, copies, split):
            cpu, _, peak, _ = measure(lower + [path], a.repeat)
            row += [f"{cpu:.2f}", f"{cpu / (k * b):.3f}", f"{peak:.0f}"]
        print("| " + " | ".join(str(c) for c in row) + " |", flush=True)


def chain_table(a, tmp):
    """fp8-pipeline + fp8-cpu-pipeline (one thread, as compile() runs) of
    chains of same-shape linears, flat and nested; CPU s per 100 linears
    stays flat when the lowering is linear."""
    tools = [("", a.fp8_opt)] + ([("baseline ", a.baseline_fp8_opt)] if a.baseline_fp8_opt else [])
    head = "| input | linears |"
    for label, _ in tools:
        head += f" {label}CPU s | {label}s/100 linears | {label}peak MiB |"
    print(head)
    print("|---|---:|" + "---:|---:|---:|" * len(tools))
    gen = os.path.join(HERE, "gen_chain.py")
    for nested in [form == "nested" for form in a.chain_forms]:
        for n in a.chain_linears:
            src = os.path.join(tmp, f"chain_{n}_{int(nested)}.mlir")
            with open(src, "w") as f:
                subprocess.run([sys.executable, gen, "--linears", str(n)] + (["--nested"] if nested else []),
                               check=True, stdout=f)
            row = ["nested" if nested else "flat", str(n)]
            for label, tool in tools:
                fp8 = os.path.join(tmp, f"chain_{n}_{int(nested)}_fp8.mlir")
                graph, _, peak1, _ = measure([tool, "--fp8-pipeline=report=false", src, "-o", fp8], a.repeat)
                lower, _, peak2, _ = measure([tool, "--mlir-disable-threading", "--fp8-cpu-pipeline", fp8,
                                              "-o", os.devnull], a.repeat)
                row += [f"{graph + lower:.2f}", f"{100 * (graph + lower) / n:.2f}", f"{max(peak1, peak2):.0f}"]
            print("| " + " | ".join(row) + " |", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fp8-opt", required=True)
    ap.add_argument("--mlir-opt", default=shutil.which("mlir-opt") or "/usr/lib/llvm-22/bin/mlir-opt")
    ap.add_argument("--models", default=os.path.join(ROOT, "..", "shared", "models"))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--layers", type=int, nargs="*", default=LAYERS, help="dense decoder depths")
    ap.add_argument("--moe-layers", type=int, nargs="*", default=[2, 4, 8, 32, 61],
                    help="depths of the small-configuration MoE models")
    ap.add_argument("--deepseek-layers", type=int, nargs="*", default=[1, 2, 4, 8, 61],
                    help="depths of the DeepSeek-V3 MoE models (fp8-pipeline rows)")
    ap.add_argument("--compile-layers", type=int, nargs="*", default=[1, 2, 4, 8],
                    help="depths of the DeepSeek-V3 models compiled with compile()")
    ap.add_argument("--python-packages", default=None,
                    help="the built fp8_mlir package (default: python_packages beside fp8-opt's bin/)")
    ap.add_argument("--layout-copies", type=int, nargs="*", default=[1, 2, 4, 8],
                    help="K of the layout table (empty: no table)")
    ap.add_argument("--layout-layers", type=int, default=4,
                    help="B: layers of the DeepSeek-V3 graph the layout table repeats")
    ap.add_argument("--chain-linears", type=int, nargs="*", default=[100, 200, 400],
                    help="lengths of the chains of same-shape linears (empty: no table)")
    ap.add_argument("--chain-forms", nargs="*", choices=["flat", "nested"], default=["flat", "nested"],
                    help="the chains' forms: one block, or each linear in an scf.execute_region")
    ap.add_argument("--baseline-fp8-opt", default=None,
                    help="a second fp8-opt measured beside --fp8-opt in the chain table")
    ap.add_argument("--only-chains", action="store_true", help="only the chain table")
    a = ap.parse_args()
    if a.python_packages is None:
        a.python_packages = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(a.fp8_opt))),
                                         "python_packages")

    inputs = []
    for name in REAL:
        path = os.path.join(a.models, name + ".mlir")
        if os.path.exists(path):
            inputs.append((name, path, None, None))
    tmp = tempfile.mkdtemp(prefix="fp8-compile-bench-")
    gen = os.path.join(HERE, "gen_transformer.py")
    for n in a.layers:
        path = os.path.join(tmp, f"decoder_{n}.mlir")
        with open(path, "w") as f:
            subprocess.run([sys.executable, gen, "--layers", str(n)], check=True, stdout=f)
        inputs.append((f"decoder, {n} layer{'s' if n > 1 else ''}", path, "decoder", n))
    # A decode graph of mixed levels (linalg on tensors + a memref/affine/
    # vector KV-cache update per layer), 28 layers like a distilled 7B decoder.
    path = os.path.join(tmp, "decode_mixed_28.mlir")
    with open(path, "w") as f:
        subprocess.run([sys.executable, gen, "--layers", "28", "--seq", "1", "--mixed"], check=True, stdout=f)
    inputs.append(("decode, mixed levels, 28 layers", path, None, None))
    # MoE models (embedding, N MoE layers, head): routed experts as grouped
    # matmuls over the expert dimension.
    models = load_models()
    for n in a.moe_layers:
        path = write(os.path.join(tmp, f"moe_small_{n}.mlir"), models.model(models.ModelConfig.small(), n))
        inputs.append((f"MoE small, {n} layers", path, "MoE small", n))
    for n in a.deepseek_layers:
        path = write(os.path.join(tmp, f"moe_deepseek_{n}.mlir"), models.model(models.ModelConfig(), n))
        inputs.append((f"MoE DeepSeek-V3, {n} layer{'s' if n > 1 else ''}", path, "MoE DeepSeek-V3", n))

    if a.only_chains:
        chain_table(a, tmp)
        shutil.rmtree(tmp)
        return
    pipeline_table(a, inputs)
    if a.compile_layers:
        print()
        compile_table(a)
    if a.layout_copies:
        print()
        layout_table(a, models, tmp)
    if a.chain_linears:
        print()
        chain_table(a, tmp)
    shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
