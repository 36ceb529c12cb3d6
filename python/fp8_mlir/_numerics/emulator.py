"""The "gpu-emulator" backend: the one-op function that the "cpu" backend
compiles with fp8-cpu-pipeline, compiled instead by the production GPU path,
`fp8-gpu-pipeline{config=fixed host=llvm target=emulator}`, and its host
program run by the JIT on the emulated CUDA runtime (libfp8_emu_mgpu,
fp8/Emulator/MgpuRuntime.h): the same device buffers, copies, TMA
descriptors, launches and kernels as on a GPU. What the kernels take is the
compiler's to say: an op no kernel implements (fp8-lower-to-nvvm's error
under require-kernels says why) or a graph it rejects is a ValueError
carrying its diagnostic; a fault of an emulated launch is a RuntimeError
carrying the emulator's report."""

from __future__ import annotations

import contextlib
import ctypes
import os
import threading

from .cache import _jit_cached

BACKENDS = ("cpu", "gpu-emulator")

#: The backend's pipeline: the shape's fixed GEMM configuration (the tiles
#: the kernel tests pin), not the cost model's choice; `require-kernels`: an
#: op no kernel implements fails the compile (fp8-lower-to-nvvm's error)
#: instead of staying on the host, where the CPU reference would compute it.
PIPELINE = "fp8-gpu-pipeline{config=fixed host=llvm target=emulator require-kernels=true}"

#: The emulated runtime, built into the package directory (beside the
#: extension), so a copy of the package finds it as the build tree does.
RUNTIME_NAME = "libfp8_emu_mgpu.so"

# The runtime's options are process-wide (fp8_mgpu_set_option): one call of
# the backend at a time sets and reads them.
_lock = threading.Lock()
_runtime_lib = None


def emulator_runtime() -> str:
    """Path of the emulated CUDA runtime (libfp8_emu_mgpu) the backend loads."""
    return os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), RUNTIME_NAME)


def _runtime():
    """The runtime, loaded once (the JIT's dlopen of the same path shares it)."""
    global _runtime_lib
    if _runtime_lib is None:
        path = emulator_runtime()
        if not os.path.isfile(path):
            raise RuntimeError(
                f"backend 'gpu-emulator': the emulated CUDA runtime {path} is missing "
                "(the build puts libfp8_emu_mgpu.so into the package directory)"
            )
        lib = ctypes.CDLL(path)
        lib.fp8_mgpu_set_option.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
        lib.fp8_mgpu_set_option.restype = ctypes.c_int32
        lib.fp8emuGetLastError.argtypes = []
        lib.fp8emuGetLastError.restype = ctypes.c_char_p
        _runtime_lib = lib
    return _runtime_lib


def _set_option(lib, name: str, value) -> None:
    if lib.fp8_mgpu_set_option(name.encode(), None if value is None else value.encode()) != 0:
        raise RuntimeError(f"backend 'gpu-emulator': the runtime has no option {name}")


@contextlib.contextmanager
def _emulated(accumulator: str):
    """The runtime set up for one compile or call: faults are kept for
    fp8emuGetLastError (a fault ends the process otherwise, as it ends a
    CUDA context), wgmma accumulates by `accumulator`; the first fault is
    raised as RuntimeError afterwards."""
    lib = _runtime()
    with _lock:
        lib.fp8emuGetLastError()  # nothing left from an earlier call
        _set_option(lib, "FP8_EMU_CONTINUE_ON_FAULT", "1")
        _set_option(lib, "FP8_EMU_ACCUMULATOR", accumulator)
        try:
            yield
        finally:
            _set_option(lib, "FP8_EMU_CONTINUE_ON_FAULT", None)
            _set_option(lib, "FP8_EMU_ACCUMULATOR", None)
            fault = lib.fp8emuGetLastError()
    if fault:
        raise RuntimeError("backend 'gpu-emulator': " + fault.decode("utf-8", "replace").strip())


def _run_on_emulator(ir: str, name: str, args, accumulator: str = "exact") -> None:
    """Compiles `ir` (a function `name` on memrefs, as the "cpu" backend's)
    with PIPELINE and calls it with `args` on the emulated runtime."""
    lib_path = emulator_runtime()
    with _emulated(accumulator):
        # The host program loads its kernels when the JIT initialises it: a
        # module the runtime cannot load is a fault here.
        module = _jit_cached(ir, PIPELINE, "fp8-gpu-pipeline",
                             "backend 'gpu-emulator' runs the compiler's GPU pipeline", (lib_path,),
                             pass_failure="backend 'gpu-emulator': the compiler's GPU pipeline fails on the op")
    with _emulated(accumulator):
        module.call(name, *args)
