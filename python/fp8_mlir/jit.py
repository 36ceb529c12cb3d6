"""JIT-compile MLIR with MLIR's ExecutionEngine and call it on NumPy arrays.

The numerics API (`fp8_mlir.numerics`) is built on this; it is public so that
a user can run any module the project can lower to the LLVM dialect.

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
from typing import Any, Dict, List, Sequence, Union

import numpy as np

from . import _fp8_mlir as _native
from .compiler import Diagnostic, MLIRError, _diagnostics, _forward_output, _normalize_pipeline, _summary, _text

__all__ = ["JitModule", "jit"]


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


def jit(
    mlir_text: Union[str, bytes],
    pipeline: Union[str, Sequence[str]],
    *,
    opt_level: int = 2,
    shared_libs: Sequence[str] = (),
) -> JitModule:
    """Lower `mlir_text` with `pipeline` (which must reach the LLVM dialect,
    e.g. ``"fp8-cpu-pipeline"``) and JIT-compile it. MLIR's C runner utils
    are loaded for the runtime calls lowered code makes (e.g. memrefCopy),
    and the OpenMP runtime where the build found one (threads != 1).
    Raises MLIRError on any failure."""
    if not isinstance(opt_level, int) or isinstance(opt_level, bool) or not 0 <= opt_level <= 3:
        raise ValueError(f"opt_level must be 0, 1, 2 or 3 (LLVM's -O levels), got {opt_level!r}")
    if isinstance(shared_libs, (str, bytes)) or not all(isinstance(p, str) for p in shared_libs):
        raise TypeError(f"shared_libs must be a list of library paths (str), got {shared_libs!r}")
    # File names as the OS has them (a name that is not UTF-8 comes back from
    # os.listdir with lone surrogates): bytes for the native side.
    libs = [os.fsencode(p) for p in _runtime_libs() + list(shared_libs)]
    pipe = _normalize_pipeline(pipeline)
    native, result = _native.jit(_text(mlir_text), pipe, libs, opt_level, True)
    _forward_output(result)
    if native is None:
        raise MLIRError(_summary(result.stage, f"pass pipeline {pipe!r}", "<input>"), _diagnostics(result),
                        result.rendered, result.stage)
    return JitModule(native)
