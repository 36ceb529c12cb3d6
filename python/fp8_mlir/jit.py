"""JIT-compile MLIR with MLIR's ExecutionEngine and call it on NumPy arrays.

The numerics API (`fp8_mlir.numerics`) is built on this; it is public so that
a user can run any module the project can lower to the LLVM dialect.

`target` runs the module where its host program says: "cpu" (the
default: `fp8-cpu-pipeline` or any pipeline to the LLVM dialect),
"gpu-emulator" or "cuda" (a host program of `fp8-gpu-pipeline{host=llvm}`,
its kernels launched through the mgpu* runtime ABI on the emulated CUDA
runtime, or on a GPU through the project's CUDA runtime; the numerics'
GPU backends of the same names, fp8_mlir._numerics.emulator).

Calling convention (destination passing): the functions take only memref
arguments (or scalars) and return nothing; outputs are NumPy arrays the
caller allocated. Each array must be C-contiguous, with the rank, static
sizes and element size of its memref parameter, and writeable unless the
function only reads that memref (all its uses are `bufferization.to_tensor`
without `writable`); a mismatch is a ValueError, never an out-of-bounds
write.
"""

from __future__ import annotations

import os
import re
from typing import Any, Dict, List, Optional, Sequence, Union

import numpy as np

from . import _fp8_mlir as _native
from .compiler import Diagnostic, MLIRError, _diagnostics, _forward_output, _normalize_pipeline, _summary, _text

__all__ = ["JitModule", "jit", "JIT_TARGETS", "gpu_pipeline"]

#: fp8-gpu-pipeline's `target` option for each GPU target (ptx by default).
_GPU_BINARY = {"gpu-emulator": "emulator", "cuda": "ptx"}


def gpu_pipeline(target: str, *, require_kernels: bool = False, config: Optional[str] = None) -> str:
    """The one spelling of the GPU targets' pipeline, `fp8-gpu-pipeline{host=llvm
    target=emulator|ptx}` (a host program for `target`'s runtime), with
    `config` (the GEMM configuration: None, the cost model's choice, or e.g.
    "fixed") and `require_kernels` (an op no kernel implements fails the
    compile instead of running on the host) as options. The numerics' GPU
    backends and `LanguageModel`'s devices take it with `require_kernels`."""
    if target not in _GPU_BINARY:
        raise ValueError(f"gpu_pipeline: target must be one of {', '.join(_GPU_BINARY)}, got {target!r}")
    options = ([f"config={config}"] if config else []) + ["host=llvm", f"target={_GPU_BINARY[target]}"]
    if require_kernels:
        options.append("require-kernels=true")
    return "fp8-gpu-pipeline{" + " ".join(options) + "}"


#: Where `jit` runs a module, and the pipeline it lowers with by default.
JIT_TARGETS = {"cpu": "fp8-cpu-pipeline", **{t: gpu_pipeline(t) for t in _GPU_BINARY}}


def _runtime_libs() -> List[str]:
    try:
        from . import _build_config
    except ImportError:  # an installed package without build paths
        return []
    # Each library must load (the jit fails on one that does not): a runner
    # library CMake did not find is left out, as openmp_runtime() does.
    runner = _build_config.C_RUNNER_UTILS
    return [p for p in (runner, openmp_runtime()) if p and not p.endswith("-NOTFOUND")]


def openmp_runtime() -> str:
    """Path of the LLVM OpenMP runtime (libomp) found at build time, which
    code lowered with `fp8-cpu-pipeline{threads=N}` (N != 1) calls; "" when
    there is none (then only sequential code runs)."""
    try:
        from . import _build_config
    except ImportError:
        return ""
    path = getattr(_build_config, "OPENMP_RUNTIME", "")
    return "" if not path or path.endswith("-NOTFOUND") else path


class JitModule:
    """A JIT-compiled module; call its functions with `module.call(name, *arrays)`
    or `module.<name>(*arrays)`."""

    def __init__(self, native):
        self._native = native
        self._functions = {f["name"]: f for f in native.functions()}

    @property
    def functions(self) -> Dict[str, Dict[str, Any]]:
        """Signature of each function as recorded before lowering: for every
        argument its element type, bit width, rank (-1: scalar) and shape
        (-1: dynamic)."""
        return dict(self._functions)

    def call(self, name: str, *args: Union[np.ndarray, int, float]) -> None:
        if name not in self._functions:
            raise ValueError(
                f"no function {name!r} in the JIT module (has: {', '.join(sorted(self._functions))})"
            )
        crash = self._native.call(name, *args)
        if crash is not None:
            # The compiled code crashed (SIGSEGV, SIGFPE, stack overflow,
            # abort() of a failed cf.assert): recovered, the process goes on.
            raise MLIRError(f"calling {name!r} of the JIT module crashed; the crash was recovered",
                            [Diagnostic("error", "<jit>", crash, ())], f"<jit>: error: {crash}\n", "crash")

    def __getattr__(self, name: str):
        if name.startswith("_") or name not in self._functions:
            raise AttributeError(name)
        return lambda *args: self.call(name, *args)


class _GpuJitModule(JitModule):
    """A host program of fp8-gpu-pipeline: each call runs in its backend's
    session, which raises the runtime's errors (a fault, a driver error)."""

    def __init__(self, native, backend):
        super().__init__(native)
        self._backend = backend

    def call(self, name: str, *args: Union[np.ndarray, int, float]) -> None:
        self.call_accumulating(None, name, *args)

    def call_accumulating(self, model: Optional[str], name: str, *args: Union[np.ndarray, int, float]) -> None:
        """`call` with the kernels' wgmma accumulating by `model` (the
        backend's accumulator model; None: its default)."""
        with self._backend.session(self._backend.accumulator(model)):
            super().call(name, *args)


def _check_gpu_pipeline(pipe: str, target: str) -> None:
    """`pipe` must make a host program for `target`'s runtime: one
    fp8-gpu-pipeline with host=llvm and the target's binary, else a module
    would run on the CPU, or hold kernels the runtime cannot load."""
    match = re.fullmatch(r"fp8-gpu-pipeline\s*(?:\{(.*)\})?", pipe, re.S)
    options = dict(o.split("=", 1) if "=" in o else (o, "true") for o in (match.group(1) or "").split()) \
        if match else {}
    if not match or options.get("host") != "llvm" or options.get("target", "ptx") != _GPU_BINARY[target]:
        raise ValueError(
            f"jit(target={target!r}) runs a host program of fp8-gpu-pipeline{{host=llvm "
            f"target={_GPU_BINARY[target]} ...}} (one pipeline, its options within braces); got {pipe!r}")


def jit(
    mlir_text: Union[str, bytes],
    pipeline: Optional[Union[str, Sequence[str]]] = None,
    *,
    target: str = "cpu",
    opt_level: int = 2,
    shared_libs: Sequence[str] = (),
) -> JitModule:
    """Lower `mlir_text` with `pipeline` (which must reach the LLVM dialect,
    e.g. ``"fp8-cpu-pipeline"``; None: `JIT_TARGETS[target]`) and
    JIT-compile it. MLIR's C runner utils are loaded for the runtime calls
    lowered code makes (e.g. memrefCopy), and the OpenMP runtime where the
    build found one (threads != 1).

    `target`: "cpu", or "gpu-emulator" / "cuda": `pipeline` must then be
    `fp8-gpu-pipeline{host=llvm ...}` with the target's `target=emulator`
    / `target=ptx` (ValueError otherwise), the backend's runtime library
    is loaded with the module, and each call raises RuntimeError on a
    fault of the emulator or a driver error. For "cuda", a missing runtime
    (no CUDA toolkit at build time), driver library (libcuda.so.1) or
    device (the driver's error, by CUDA's name), or a device that is not
    sm_90a, is a RuntimeError before anything is compiled.
    Raises MLIRError on any other failure."""
    if not isinstance(target, str) or target not in JIT_TARGETS:
        raise ValueError(f"target must be one of {', '.join(JIT_TARGETS)}, got {target!r}")
    if not isinstance(opt_level, int) or isinstance(opt_level, bool) or not 0 <= opt_level <= 3:
        raise ValueError(f"opt_level must be 0, 1, 2 or 3 (LLVM's -O levels), got {opt_level!r}")
    if isinstance(shared_libs, (str, bytes)) or not all(isinstance(p, str) for p in shared_libs):
        raise TypeError(f"shared_libs must be a list of library paths (str), got {shared_libs!r}")
    pipe = _normalize_pipeline(JIT_TARGETS[target] if pipeline is None else pipeline)
    backend = None
    if target != "cpu":
        from ._numerics.emulator import GPU_BACKENDS
        _check_gpu_pipeline(pipe, target)
        backend = GPU_BACKENDS[target]
        backend.runtime()  # what is missing, before anything is compiled
        shared_libs = [backend.runtime_path()] + list(shared_libs)
    # File names as the OS has them (a name that is not UTF-8 comes back from
    # os.listdir with lone surrogates): bytes for the native side.
    libs = [os.fsencode(p) for p in _runtime_libs() + list(shared_libs)]
    text = _text(mlir_text)
    if backend is None:
        native, result = _native.jit(text, pipe, libs, opt_level, True)
    else:
        # The host program loads its kernels when the JIT initialises it.
        with backend.session(backend.accumulator(None)):
            native, result = _native.jit(text, pipe, libs, opt_level, True)
    _forward_output(result)
    if native is None:
        raise MLIRError(_summary(result.stage, f"pass pipeline {pipe!r}", "<input>"), _diagnostics(result),
                        result.rendered, result.stage)
    return JitModule(native) if backend is None else _GpuJitModule(native, backend)
