#!/usr/bin/env python3
"""The host kernels of a compiled program, counted statically: every
`gpu.launch_func` of `gpu.module @fp8_host_kernels` that
fp8-outline-host-kernels writes, with its threads and the sequential steps
each thread runs (the trip counts of its kernel's `scf.for` nests, summed
over the innermost loops; a kernel without loops is 1 step) and the bytes of
the buffers it takes (every memref argument counted once: what the launch
moves if it reads or writes each buffer once, its lower bound on HBM
traffic; a kernel that reads a buffer back, or reads it with a stride wider
than a 32-byte sector, moves more), grouped by kernel kind
(docs/gpu-kernel.md, "Host kernels": the motivation table). A gathered
buffer is the exception: one the kernel only loads, each load at an index
computed from loaded data (a captured table read at token ids: an
embedding's row elements, the cross-entropy's target logit) counts the
elements its threads read, threads x loads per thread (the load sites,
each times the trips of its loops) x the element's bytes, at most the
buffer's bytes; the rest of the table is not read.

  host_census.py FP8_OPT IR.mlir          (IR printed after the pass)
  host_census.py FP8_OPT --lm V,L,H,A,I,S,B
      compiles the language model's training step (lm_graph, vocab V,
      L layers, hidden H, A heads, intermediate I, seq S, batch B) as
      lm-step.test does, stopping after fp8-outline-host-kernels (the
      fp8_mlir package on the path: PYTHONPATH=build/python_packages).

The launch sizes are read from the host code's index constants, the trip
counts from the kernels' constant loop bounds: nothing is run."""
import collections
import os
import re
import subprocess
import sys
import tempfile

CONST = re.compile(r"^\s*(%\S+) = arith\.constant (-?\d+) : index")
LAUNCH = re.compile(r"gpu\.launch_func\s+@fp8_host_kernels::@(\w+) blocks in \((%\S+), %\S+, %\S+\) "
                    r"threads in \((%\S+), %\S+, %\S+\)")
FUNC = re.compile(r"^\s*gpu\.func @(\w+)\(")
HOST_FUNC = re.compile(r"^\s*(func\.func|llvm\.func) ")
FOR = re.compile(r"scf\.for %\S+ = (%\S+) to (%\S+) step (%\S+)")
MEMREF_ARG = re.compile(r"%\S+ : memref<((?:\d+x)*)(\w+)")
ELEMENT_BYTES = {"i1": 1, "i8": 1, "i16": 2, "i32": 4, "i64": 8, "f16": 2, "bf16": 2, "f32": 4, "f64": 8}


def elements(dims: str) -> int:
    """The element count of a static memref shape written `AxBxC` (a
    trailing `x` allowed)."""
    n = 1
    for d in dims.rstrip("x").split("x"):
        n *= int(d)
    return n


def launch_bytes(line: str, threads: int = 0, gathered=None) -> int:
    """The bytes of the memref arguments of a `gpu.launch_func` line, or of a
    launcher call's (`call @fp8_launch_...`: its type list), static shapes;
    an FP8 element type counts one byte. `gathered` maps an argument's
    position to the elements each of the `threads` loads from it (a gathered
    buffer, `gathered_loads`): those bytes, at most the buffer's."""
    if " args(" in line:
        args = line[line.find(" args(") + 1:]
    else:
        args = " ".join("%x : " + t for t in re.findall(r"memref<[^>]*>", line[line.rfind(" : ("):]))
    total = 0
    for position, (dims, element) in enumerate(MEMREF_ARG.findall(args)):
        size = ELEMENT_BYTES.get(element, 1)
        whole = (elements(dims) if dims else 1) * size
        per_thread = (gathered or {}).get(position)
        total += whole if per_thread is None else min(whole, threads * per_thread * size)
    return total


LOADS = ("memref.load", "vector.load", "vector.transfer_read")
SSA_DEF = re.compile(r"^\s*(%[\w.]+)(?::\d+)? = ")
SSA_USE = re.compile(r"%[\w.]+")
GATHER_LOAD = re.compile(r"memref\.load (%arg\d+)\[([^\]]*)\]")
KERNEL_ARG = re.compile(r"%arg\d+\b")


def gathered_loads(body, trips):
    """{argument position: elements loaded per thread} of the kernel's
    gathered buffers: `body` its lines after the `gpu.func` line, `trips[i]`
    the product of the loop trips around line i. A value is data when a
    load defines it or when it is computed from data; a buffer is gathered
    when every use of it is a `memref.load` at a data index."""
    data, loads, other = set(), collections.Counter(), set()
    for i, line in enumerate(body):
        m = SSA_DEF.match(line)
        load = GATHER_LOAD.search(line)
        if m and (any(op in line for op in LOADS) or any(u in data for u in SSA_USE.findall(line[m.end():]))):
            data.add(m.group(1))
        for arg in KERNEL_ARG.findall(line):
            if load and arg == load.group(1) and any(u in data for u in SSA_USE.findall(load.group(2))):
                loads[arg] += trips[i]
            else:
                other.add(arg)
    return {int(arg[4:]): n for arg, n in loads.items() if arg not in other}


def lm_module(spec: str) -> str:
    """The LM step of `spec` (V,L,H,A,I,S,B) as MLIR text."""
    from fp8_mlir.training.lm import LanguageModelConfig
    from fp8_mlir.training.lm_graph import lm_training_step
    v, l, h, a, i, s, b = (int(x) for x in spec.split(","))
    return lm_training_step(LanguageModelConfig(vocab=v, layers=l, hidden=h, heads=a, intermediate=i, seq=s),
                            batch=b)


def outlined(fp8_opt: str, text: str) -> str:
    """`text` through the GPU pipeline, printed after the host kernels'
    outlining."""
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(text)
    try:
        r = subprocess.run([fp8_opt, f.name, "--fp8-pipeline=report=false",
                            "--fp8-gpu-pipeline=chip=sm_90a host=llvm target=emulator",
                            "--mlir-print-ir-after=fp8-outline-host-kernels", "-o", os.devnull],
                           capture_output=True, text=True, check=True)
    finally:
        os.unlink(f.name)
    return r.stderr


def census(ir: str):
    """[(kernel, threads, steps per thread, argument bytes)] of every
    host-kernel launch."""
    lines = ir.splitlines()
    consts = {}
    kernels = {}
    bodies = {}  # the gpu.func's lines and the loop trips around each
    current, stack = None, []  # the gpu.func, its open loops (indent, trips)
    for line in lines:
        m = CONST.match(line)
        indent = len(line) - len(line.lstrip())
        if m:
            consts.setdefault(current, {})[m.group(1)] = int(m.group(2))
        m = FUNC.match(line)
        if m:
            current, stack = m.group(1), []
            kernels[current] = 0
            bodies[current] = ([], [])
            continue
        if HOST_FUNC.match(line):  # the host code, before or after the kernels
            current, stack = None, []
            continue
        if current is None:
            continue
        if line.strip() == "gpu.return" or line.strip().startswith("gpu.return "):
            kernels[current] = max(kernels[current], 1)
        while stack and indent <= stack[-1][0] and line.strip().startswith("}"):
            _, trips, inner = stack.pop()
            if not inner:  # an innermost loop: its steps, all loops around it
                prod = trips
                for _, t, _ in stack:
                    prod *= t
                kernels[current] += prod
            if stack:
                stack[-1] = (stack[-1][0], stack[-1][1], True)
        around = 1
        for _, t, _ in stack:
            around *= t
        bodies[current][0].append(line)
        bodies[current][1].append(around)
        m = FOR.search(line)
        if m:
            c = consts.get(current, {})
            lb, ub, st = (c.get(x) for x in m.groups())
            trips = (ub - lb + st - 1) // st if None not in (lb, ub, st) else 0
            stack.append((indent, trips, False))
    gathered = {name: gathered_loads(*body) for name, body in bodies.items()}
    launches = []
    host = consts.get(None, {})
    for line in lines:
        m = LAUNCH.search(line)
        if m:
            name, blocks, threads = m.groups()
            count = host.get(blocks, 0) * host.get(threads, 0)
            launches.append((name, count, max(kernels.get(name, 1), 1),
                             launch_bytes(line, count, gathered.get(name))))
    return launches


MEMREF = re.compile(r"(%\w+): memref<([0-9x]+)x(f32|bf16|f16|i\d+)>")


def staged(ir: str):
    """[(kernel, bytes, elements)] of every tiled transposing kernel (a gpu.func with
    a workgroup buffer: OutlineTiledTranspose.cpp): the bytes of the inputs
    it loads before its gpu.barrier (the staged ones, each element read
    once). A column-sum kernel (OutlineColumnKernels.cpp) has a workgroup
    buffer and barriers too, but stages no input (its shared memory holds
    the lanes' partial sums): not counted."""
    out, current, params, seen, done = [], None, {}, set(), True
    for line in ir.splitlines():
        m = FUNC.match(line)
        if m:
            current, seen = m.group(1), set()
            done = "workgroup(" not in line or kind(current) == "column_sum"
            params = {n: (shape, t) for n, shape, t in MEMREF.findall(line.split(") workgroup(")[0])}
            continue
        if current is None or done:
            continue
        if "gpu.barrier" in line:
            total = count = 0
            for n in seen:
                shape, t = params[n]
                elems = elements(shape)
                count += elems
                total += elems * ELEMENT_BYTES[t]
            out.append((current, total, count))
            done = True
            continue
        m = re.search(r"memref\.load (%\w+)\[", line)
        if m and m.group(1) in params:
            seen.add(m.group(1))
    return out


def kind(name: str) -> str:
    """The kernel's kind from its name (fp8-outline-host-kernels names each
    after its function and op)."""
    for suffix in ("row_sum_fused", "row_max_fused", "row_sum", "row_max", "column_sum", "loop", "batch_matmul", "matmul",
                   "copy", "fill", "transpose"):
        if re.search(suffix + r"(_\d+)?$", name):
            return suffix
    return "generic"


def main():
    if len(sys.argv) < 3 or sys.argv[1] in ("-h", "--help") or (sys.argv[2] == "--lm") != (len(sys.argv) == 4):
        print(__doc__, file=sys.stdout if "--help" in sys.argv or "-h" in sys.argv else sys.stderr)
        sys.exit(0 if "--help" in sys.argv or "-h" in sys.argv else 2)
    fp8_opt = sys.argv[1]
    if sys.argv[2] == "--lm":
        ir = outlined(fp8_opt, lm_module(sys.argv[3]))
    else:
        ir = open(sys.argv[2]).read()
    rows = census(ir)
    groups = collections.OrderedDict()
    for name, threads, steps, nbytes in rows:
        key = (kind(name), threads, steps)
        n, b = groups.get(key, (0, 0))
        groups[key] = (n + 1, b + nbytes)
    total = sum(r[3] for r in rows)
    print(f"{len(rows)} host-kernel launches, {total} argument bytes ({total / 2**30:.2f} GiB)")
    calls = [launch_bytes(line) for line in ir.splitlines() if re.search(r"call @fp8_launch_\w+\(", line)]
    print(f"{len(calls)} tensor-core and quantize launcher calls, {sum(calls)} argument bytes "
          f"({sum(calls) / 2**30:.2f} GiB)")
    print("| kind | launches | threads | steps per thread | threads x steps | argument MiB |")
    print("|---|---:|---:|---:|---:|---:|")
    for (k, threads, steps), (n, b) in sorted(groups.items(), key=lambda kv: -kv[0][2]):
        print(f"| {k} | {n} | {threads} | {steps} | {threads * steps} | {b / 2**20:.1f} |")
    tiled = staged(ir)
    if tiled:
        # Modelled: a one-thread-per-element kernel reads each transposed
        # element in a 32-byte sector of its own (the warp's 32 threads at
        # a stride of the input's row, at least 32 bytes in these
        # programs); the tiled kernel's coalesced loads read whole sectors.
        total = sum(b for _, b, _ in tiled)
        elems = sum(e for _, _, e in tiled)
        print(f"{len(tiled)} tiled transposing launches stage {total / 2**30:.2f} GiB; "
              f"modelled sector traffic {total / 2**30:.2f} GiB (was up to {elems * 32 / 2**30:.2f} GiB "
              f"at one 32-byte sector per element)")


if __name__ == "__main__":
    main()
