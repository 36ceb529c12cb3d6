#!/usr/bin/env python3
"""The Python "cuda" backend's host programs on the device, bit for bit
against the "cpu" backend (bench/gpu/device-session.sh, phase "backend").

The device machine has no MLIR, so the backend itself (fp8_mlir, which
JIT-compiles through libMLIR) cannot run there. What it would run can:

  prepare BUILD OUT [--target ptx|emulator]   (build machine)
      the functions the backend compiles for a quantize (1x128 tiles with
      NaN, Inf and an all-zero tile; 128x128 blocks) and a scaled_matmul
      (f32 and bf16 results), written by the package's own IR generators,
      lowered in-process with the backend's own pipeline
      (fp8_mlir._numerics.emulator.CUDA_PIPELINE; `--target emulator`: the
      gpu-emulator backend's, for a dry run here) and linked into
      OUT/libfp8_backend_host.so; their inputs, and the "cpu" backend's
      results (scaled_matmul with emulate_accumulator="sm90", the model of
      Hopper's wgmma) as the expected bytes, in OUT/manifest.json;
  run OUT --runtime LIB   (device machine; Python and ctypes only)
      asks the runtime whether the driver has an sm_90a device (the
      backend's probe, fp8_mgpu_init_status), loads the host program (its
      constructor has the driver JIT-compile the PTX), calls each function
      on the inputs, reads the runtime's error count after each call (as the
      backend does) and compares every output byte with the expected one.

Exit status of `run`: 0 when every case is bit-equal, 1 otherwise (a
mismatch, a driver error, no device)."""
import argparse
import ctypes
import json
import os
import subprocess
import sys


def _memref_type(rank):
    """MLIR's ranked memref descriptor of `rank` (the C interface's layout)."""
    return type(f"MemRef{rank}D", (ctypes.Structure,), {"_fields_": [
        ("allocated", ctypes.c_void_p), ("aligned", ctypes.c_void_p), ("offset", ctypes.c_int64),
        ("sizes", ctypes.c_int64 * rank), ("strides", ctypes.c_int64 * rank)]})


def _descriptor(buffer, shape):
    d = _memref_type(len(shape))()
    d.allocated = d.aligned = ctypes.addressof(buffer)
    d.offset = 0
    stride = 1
    for i in reversed(range(len(shape))):
        d.sizes[i], d.strides[i] = shape[i], stride
        stride *= shape[i]
    return d


# --------------------------------------------------------------------------
# prepare (build machine)
# --------------------------------------------------------------------------

def _cases(np, fp8_mlir, Q, M):
    """(name, ir, [(array, is_output)], [expected arrays]) of each check."""
    rng = np.random.default_rng(2026)

    def spread(shape):
        rows = rng.integers(-6, 7, size=(shape[0], 1))
        return (rng.standard_normal(shape) * np.ldexp(1.0, rows)).astype(np.float32)

    cases = []
    for name, shape, block in (("quantize_act", (130, 384), (1, 128)), ("quantize_weight", (256, 384), (128, 128))):
        x = spread(shape)
        if block == (1, 128):
            x[0, 3], x[1, 7], x[2, :128] = np.nan, np.inf, 0
        q = fp8_mlir.quantize(x, block=block)
        ir = Q._quantize_ir(x.shape, q.scales.shape, "f32", "f8E4M3FN", block, "f32", "f32", 1e-4, True)
        cases.append((name, ir.replace("@quantize(", f"@{name}("),
                      [(x, False), (np.empty_like(q.codes), True), (np.empty_like(q.scales), True)],
                      [q.codes, q.scales]))
    for name, (m, n, k), out in (("matmul_f32", (129, 200, 272), "f32"), ("matmul_bf16", (256, 256, 512), "bf16")):
        qa = fp8_mlir.quantize(spread((m, k)), block=(1, 128))
        qb = fp8_mlir.quantize(spread((n, k)), block=(128, 128))
        d = fp8_mlir.scaled_matmul(qa, qb, out=out, emulate_accumulator="sm90")
        ir = M._scaled_matmul_ir((m, k), qa.scales.shape, (n, k), qb.scales.shape, "f8E4M3FN", "f8E4M3FN",
                                 (1, 128), (128, 128), out, 128)
        cases.append((name, ir.replace("@scaled_matmul(", f"@{name}("),
                      [(qa.codes, False), (qa.scales, False), (qb.codes, False), (qb.scales, False),
                       (np.empty_like(d), True)], [d]))
    return cases


def prepare(build, out, target):
    sys.path.insert(0, os.path.join(build, "python_packages"))
    import numpy as np
    import fp8_mlir
    from fp8_mlir._numerics import emulator, matmul as M, quantization as Q
    pipeline = emulator.CUDA_PIPELINE if target == "ptx" else emulator.PIPELINE
    llvm_bin = os.environ.get("LLVM_BIN", "/usr/lib/llvm-22/bin")
    here = os.path.dirname(os.path.abspath(__file__))
    os.makedirs(out, exist_ok=True)
    cases = _cases(np, fp8_mlir, Q, M)
    host = fp8_mlir.run_pipeline("\n".join(ir for _, ir, _, _ in cases), pipeline)
    with open(os.path.join(out, "host.mlir"), "w") as f:
        f.write(host)
    run = lambda *cmd: subprocess.run(cmd, check=True)  # noqa: E731
    run(f"{llvm_bin}/mlir-translate", "--mlir-to-llvmir", os.path.join(out, "host.mlir"),
        "-o", os.path.join(out, "host.ll"))
    run(f"{llvm_bin}/clang", "-O2", "-fPIC", "-c", os.path.join(here, "memref_copy.c"),
        "-o", os.path.join(out, "memref_copy.o"))
    run(f"{llvm_bin}/clang", "-Wno-override-module", "-O2", "-shared", "-fPIC", os.path.join(out, "host.ll"),
        os.path.join(out, "memref_copy.o"), "-o", os.path.join(out, "libfp8_backend_host.so"), "-lm")
    for f in ("host.mlir", "host.ll", "memref_copy.o"):
        os.remove(os.path.join(out, f))
    manifest = {"pipeline": pipeline, "cases": []}
    for name, _, args, expected in cases:
        entry = {"name": name, "args": []}
        outputs = iter(expected)
        for i, (array, is_output) in enumerate(args):
            arg = {"shape": list(array.shape), "itemsize": array.itemsize}
            data = next(outputs) if is_output else array
            arg["expected" if is_output else "input"] = f"{name}.{i}.bin"
            with open(os.path.join(out, f"{name}.{i}.bin"), "wb") as f:
                f.write(np.ascontiguousarray(data).tobytes())
            entry["args"].append(arg)
        manifest["cases"].append(entry)
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    print(f"{len(cases)} cases through {pipeline}: {', '.join(c[0] for c in cases)}")


# --------------------------------------------------------------------------
# run (device machine)
# --------------------------------------------------------------------------

def _probe(rt):
    """The backend's checks of the runtime: None when there is an sm_90a
    device, else why not. A runtime without the probe (the emulated one of
    a dry run) has no driver to ask."""
    if not hasattr(rt, "fp8_mgpu_init_status"):
        return None
    rt.fp8_mgpu_init_status.restype = ctypes.c_int32
    rt.fp8_mgpu_init_error.restype = ctypes.c_char_p
    rt.fp8_mgpu_compute_capability.restype = ctypes.c_int32
    rt.fp8_mgpu_device_name.restype = ctypes.c_char_p
    if rt.fp8_mgpu_init_status() != 0:
        return "the CUDA driver has no device to run on: " + rt.fp8_mgpu_init_error().decode()
    cc, name = rt.fp8_mgpu_compute_capability(), rt.fp8_mgpu_device_name().decode()
    print(f"device 0: {name}, compute capability {cc // 10}.{cc % 10}")
    return None if cc == 90 else f"the kernels are sm_90a; device 0 ({name}) has compute capability {cc / 10}"


def _error_reader(rt):
    """A function returning the runtime's errors since its last call ("" for
    none), as the backend reads them: the CUDA runtime's error count and
    last report; the emulated runtime's first kept fault (the dry run runs
    with FP8_EMU_CONTINUE_ON_FAULT=1)."""
    if not hasattr(rt, "fp8_mgpu_error_count"):
        rt.fp8emuGetLastError.restype = ctypes.c_char_p
        return lambda: (rt.fp8emuGetLastError() or b"").decode()
    rt.fp8_mgpu_error_count.restype = ctypes.c_long
    rt.fp8_mgpu_last_error.restype = ctypes.c_char_p
    seen = [rt.fp8_mgpu_error_count()]

    def read():
        now = rt.fp8_mgpu_error_count()
        if now == seen[0]:
            return ""
        text = f"{rt.fp8_mgpu_last_error().decode()} ({now - seen[0]} driver errors)"
        seen[0] = now
        return text
    return read


def _compare(name, i, got, want, itemsize):
    if got == want:
        return 0
    n = len(want) // itemsize
    bad = [e for e in range(n) if got[e * itemsize:(e + 1) * itemsize] != want[e * itemsize:(e + 1) * itemsize]]
    e = bad[0]
    print(f"{name}: output {i}: {len(bad)} of {n} elements differ; first at {e}: "
          f"got {got[e * itemsize:(e + 1) * itemsize].hex()}, expected {want[e * itemsize:(e + 1) * itemsize].hex()}")
    return 1


def load_runtime(runtime, who):
    """The runtime library loaded (global symbols, for the host programs)
    and probed; None, once `who` has said why, when it does not load (no
    libcuda.so.1: no driver) or has no sm_90a device."""
    try:
        rt = ctypes.CDLL(runtime, mode=ctypes.RTLD_GLOBAL)
    except OSError as err:
        print(f"{who}: the runtime does not load: {err}")
        return None
    why = _probe(rt)
    if why:
        print(f"{who}: {why}")
        return None
    return rt


def run(folder, runtime):
    with open(os.path.join(folder, "manifest.json")) as f:
        manifest = json.load(f)
    rt = load_runtime(runtime, "backend check")
    if rt is None:
        return 1
    new_errors = _error_reader(rt)

    def driver_error(what):
        text = new_errors()
        if text:
            print(f"{what}: {text}")
        return bool(text)

    host = ctypes.CDLL(os.path.join(folder, "libfp8_backend_host.so"))
    failed = int(driver_error("loading the host program"))
    passed = 0
    for case in manifest["cases"]:
        name, buffers, descriptors = case["name"], [], []
        for arg in case["args"]:
            size = arg["itemsize"]
            for s in arg["shape"]:
                size *= s
            if "input" in arg:
                with open(os.path.join(folder, arg["input"]), "rb") as f:
                    data = f.read()
                buf = ctypes.create_string_buffer(data, size)
            else:
                buf = ctypes.create_string_buffer(b"\xab" * size, size)  # no stale result passes
            buffers.append(buf)
            descriptors.append(_descriptor(buf, arg["shape"]))
        getattr(host, f"_mlir_ciface_{name}")(*[ctypes.byref(d) for d in descriptors])
        bad = int(driver_error(name))
        for i, (arg, buf) in enumerate(zip(case["args"], buffers)):
            if "expected" in arg:
                with open(os.path.join(folder, arg["expected"]), "rb") as f:
                    bad |= _compare(name, i, buf.raw, f.read(), arg["itemsize"])
        print(f"{name}: {'MISMATCH' if bad else 'bit-equal to the cpu backend'}", flush=True)
        failed |= bad
        passed += not bad
    print(f"backend check: {passed} of {len(manifest['cases'])} cases bit-equal ({manifest['pipeline']})")
    return failed


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="verb", required=True)
    p = sub.add_parser("prepare")
    p.add_argument("build")
    p.add_argument("out")
    p.add_argument("--target", choices=("ptx", "emulator"), default="ptx")
    r = sub.add_parser("run")
    r.add_argument("folder")
    r.add_argument("--runtime", required=True)
    args = ap.parse_args(argv)
    if args.verb == "prepare":
        prepare(args.build, args.out, args.target)
        return 0
    return run(args.folder, args.runtime)


if __name__ == "__main__":
    sys.exit(main())
