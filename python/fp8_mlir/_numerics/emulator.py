"""The GPU backends: the one-op function that the "cpu" backend compiles with
fp8-cpu-pipeline, compiled instead by the production GPU path,
`fp8-gpu-pipeline{config=fixed host=llvm require-kernels=true}`, and its
host program run by the JIT on an implementation of the mgpu* runtime ABI:

- "gpu-emulator": `target=emulator`, on the emulated CUDA runtime
  (libfp8_emu_mgpu, fp8/Emulator/MgpuRuntime.h): the same device buffers,
  copies, TMA descriptors, launches and kernels as on a GPU; a fault of an
  emulated launch is a RuntimeError carrying the emulator's report;
- "cuda": `target=ptx` (the kernels' PTX, JIT-compiled by the CUDA driver
  when the host program loads), on runtime/'s libfp8_mgpu_runtime over the
  CUDA driver API, on device 0 (CUDA_VISIBLE_DEVICES picks it), which must
  be an sm_90a device (Hopper, compute capability 9.0). Before anything
  runs, the backend checks, in this order, that the runtime was built (the
  build found a CUDA toolkit), that the driver library libcuda.so.1 loads,
  and that the driver initialises a device (the runtime's
  fp8_mgpu_init_status); each missing piece is a RuntimeError naming it. A
  driver error during a call (a launch, a copy, the PTX the driver does not
  load) is a RuntimeError carrying the runtime's report. Nothing falls back
  to the CPU.

A backend is its pipeline, its runtime library and how its errors are read
(`GpuBackend`); compiling, calling and the cache are shared. What the
kernels take is the compiler's to say: an op no kernel implements
(fp8-lower-to-nvvm's error under require-kernels says why) or a graph it
rejects is a ValueError carrying its diagnostic."""

from __future__ import annotations

import contextlib
import ctypes
import os
import threading
from typing import Optional

from ..jit import gpu_pipeline
from . import cache as _cache_module
from .cache import _jit_cached

BACKENDS = ("cpu", "gpu-emulator", "cuda")

#: The backend's pipeline: the shape's fixed GEMM configuration (the tiles
#: the kernel tests pin), not the cost model's choice; `require-kernels`: an
#: op no kernel implements fails the compile (fp8-lower-to-nvvm's error)
#: instead of staying on the host, where the CPU reference would compute it.
PIPELINE = gpu_pipeline("gpu-emulator", config="fixed", require_kernels=True)
#: The "cuda" backend's: the same, the kernels as PTX for the driver.
CUDA_PIPELINE = gpu_pipeline("cuda", config="fixed", require_kernels=True)

#: The runtimes, built into the package directory (beside the extension), so
#: a copy of the package finds them as the build tree does.
RUNTIME_NAME = "libfp8_emu_mgpu.so"
CUDA_RUNTIME_NAME = "libfp8_mgpu_runtime.so"
#: The CUDA driver's library, as the runtime links it (its SONAME).
CUDA_DRIVER_NAME = "libcuda.so.1"
#: What the kernels are compiled for (fp8-gpu-pipeline's chip=sm_90a).
CUDA_COMPUTE_CAPABILITY = 90

# One call of a backend at a time: the emulated runtime's options are
# process-wide (fp8_mgpu_set_option), and the CUDA runtime's error count is
# read before and after a call.
_lock = threading.Lock()


def _package_file(name: str) -> str:
    return os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), name)


class GpuBackend:
    """One GPU backend: `name`, `pipeline`, the runtime library
    `runtime_name` in the package directory, and (in subclasses) how the
    runtime is loaded and checked and how a call's errors are read."""

    name = ""
    pipeline = ""
    runtime_name = ""

    def __init__(self):
        self._lib = None

    def runtime_path(self) -> str:
        return _package_file(self.runtime_name)

    def runtime(self):
        """The runtime library, loaded once and checked (the JIT's dlopen of
        the same path shares it); RuntimeError naming what is missing."""
        if self._lib is None:
            path = self.runtime_path()
            if not os.path.isfile(path):
                raise RuntimeError(f"backend {self.name!r}: {self._missing_runtime(path)}")
            lib = self._load(path)
            self._check(lib)
            self._lib = lib
        return self._lib

    def _missing_runtime(self, path: str) -> str:
        raise NotImplementedError

    def _load(self, path: str):
        return ctypes.CDLL(path)

    def _check(self, lib) -> None:
        """Raises RuntimeError when the runtime cannot run anything."""

    def accumulator(self, model: Optional[str]) -> str:
        """How the kernels' wgmma accumulates, for `model` (None: the
        default), or ValueError."""
        raise NotImplementedError

    @contextlib.contextmanager
    def session(self, accumulator: str):
        """The runtime set up for one compile or call; its errors raised as
        RuntimeError afterwards."""
        raise NotImplementedError
        yield  # pragma: no cover

    def run(self, ir: str, name: str, args, model: Optional[str] = None) -> None:
        """Compiles `ir` (a function `name` on memrefs, as the "cpu"
        backend's) with the backend's pipeline and calls it with `args`."""
        accumulator = self.accumulator(model)
        libs = (self.runtime_path(),)
        self.runtime()
        key = _cache_module._key(ir, self.pipeline, libs)
        try:
            # The host program loads its kernels when the JIT initialises
            # it: a module the runtime cannot load is an error here.
            with self.session(accumulator):
                module = _jit_cached(ir, self.pipeline, "fp8-gpu-pipeline",
                                     f"backend {self.name!r} runs the compiler's GPU pipeline", libs,
                                     pass_failure=f"backend {self.name!r}: the compiler's GPU pipeline fails on the op")
        except RuntimeError:
            _cache_module._forget(key)  # its kernels did not load
            raise
        with self.session(accumulator):
            module.call(name, *args)


class EmulatorBackend(GpuBackend):
    name = "gpu-emulator"
    pipeline = PIPELINE
    runtime_name = RUNTIME_NAME

    def _missing_runtime(self, path: str) -> str:
        return f"the emulated CUDA runtime {path} is missing (the build puts {RUNTIME_NAME} into the package directory)"

    def _load(self, path: str):
        lib = ctypes.CDLL(path)
        lib.fp8_mgpu_set_option.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
        lib.fp8_mgpu_set_option.restype = ctypes.c_int32
        lib.fp8emuGetLastError.argtypes = []
        lib.fp8emuGetLastError.restype = ctypes.c_char_p
        return lib

    def accumulator(self, model: Optional[str]) -> str:
        # The runtime validates the name (FP8_EMU_ACCUMULATOR).
        return "exact" if model is None else model

    def _set_option(self, lib, name: str, value) -> None:
        if lib.fp8_mgpu_set_option(name.encode(), None if value is None else value.encode()) != 0:
            raise RuntimeError(f"backend 'gpu-emulator': the runtime has no option {name}")

    @contextlib.contextmanager
    def session(self, accumulator: str):
        """Faults are kept for fp8emuGetLastError (a fault ends the process
        otherwise, as it ends a CUDA context), wgmma accumulates by
        `accumulator`; the first fault is raised as RuntimeError afterwards."""
        lib = self.runtime()
        with _lock:
            lib.fp8emuGetLastError()  # nothing left from an earlier call
            self._set_option(lib, "FP8_EMU_CONTINUE_ON_FAULT", "1")
            self._set_option(lib, "FP8_EMU_ACCUMULATOR", accumulator)
            try:
                yield
            finally:
                self._set_option(lib, "FP8_EMU_CONTINUE_ON_FAULT", None)
                self._set_option(lib, "FP8_EMU_ACCUMULATOR", None)
                fault = lib.fp8emuGetLastError()
        if fault:
            raise RuntimeError("backend 'gpu-emulator': " + fault.decode("utf-8", "replace").strip())


class CudaBackend(GpuBackend):
    name = "cuda"
    pipeline = CUDA_PIPELINE
    runtime_name = CUDA_RUNTIME_NAME

    def _missing_runtime(self, path: str) -> str:
        return (f"the CUDA runtime {path} was not built: the build found no CUDA toolkit "
                f"(runtime/ needs cuda.h and the driver library to link; reconfigure with one, "
                f"e.g. -DCUDAToolkit_ROOT=/usr/local/cuda)")

    def _load(self, path: str):
        # The driver first, by the name the runtime links: its absence is
        # the commonest failure (a machine without an NVIDIA driver), and
        # dlopen's message for the runtime would only name it in passing.
        try:
            ctypes.CDLL(CUDA_DRIVER_NAME)
        except OSError as err:
            raise RuntimeError(
                f"backend 'cuda': the CUDA driver library {CUDA_DRIVER_NAME} cannot be loaded ({err}): "
                "no NVIDIA driver is installed here") from None
        lib = ctypes.CDLL(path)
        lib.fp8_mgpu_init_status.restype = ctypes.c_int32
        lib.fp8_mgpu_init_error.restype = ctypes.c_char_p
        lib.fp8_mgpu_compute_capability.restype = ctypes.c_int32
        lib.fp8_mgpu_device_name.restype = ctypes.c_char_p
        lib.fp8_mgpu_error_count.restype = ctypes.c_long
        lib.fp8_mgpu_last_error.restype = ctypes.c_char_p
        return lib

    def _check(self, lib) -> None:
        if lib.fp8_mgpu_init_status() != 0:
            raise RuntimeError("backend 'cuda': the CUDA driver has no device to run on: "
                               + lib.fp8_mgpu_init_error().decode("utf-8", "replace"))
        cc = lib.fp8_mgpu_compute_capability()
        if cc != CUDA_COMPUTE_CAPABILITY:
            name = lib.fp8_mgpu_device_name().decode("utf-8", "replace") or "unnamed"
            have = f"compute capability {cc // 10}.{cc % 10}" if cc else "an unknown compute capability"
            raise RuntimeError(f"backend 'cuda': the kernels are sm_90a (Hopper, compute capability 9.0); "
                               f"device 0 ({name}) has {have}")

    def accumulator(self, model: Optional[str]) -> str:
        # The device's wgmma accumulates as it does; "sm90" is the model of
        # it the other backends compute.
        if model not in (None, "sm90"):
            raise ValueError(
                f"backend 'cuda' accumulates as the device's wgmma does (Hopper's, modelled by "
                f"emulate_accumulator='sm90' on the other backends); got emulate_accumulator={model!r}")
        return "sm90"

    @contextlib.contextmanager
    def session(self, accumulator: str):
        """A driver error during the call (the runtime reports and counts
        each) is raised as RuntimeError afterwards, with the last report."""
        lib = self.runtime()
        with _lock:
            before = lib.fp8_mgpu_error_count()
            try:
                yield
            finally:
                errors = lib.fp8_mgpu_error_count() - before
                last = lib.fp8_mgpu_last_error().decode("utf-8", "replace")
        if errors:
            more = f" ({errors} driver errors in the call; each on stderr)" if errors > 1 else ""
            raise RuntimeError(f"backend 'cuda': {last}{more}")


GPU_BACKENDS = {b.name: b for b in (EmulatorBackend(), CudaBackend())}


def emulator_runtime() -> str:
    """Path of the emulated CUDA runtime (libfp8_emu_mgpu) the "gpu-emulator" backend loads."""
    return GPU_BACKENDS["gpu-emulator"].runtime_path()


def cuda_runtime() -> str:
    """Path of the CUDA runtime (libfp8_mgpu_runtime) the "cuda" backend
    loads (present when the build found a CUDA toolkit)."""
    return GPU_BACKENDS["cuda"].runtime_path()


def _runtime():
    """The emulated runtime, loaded once."""
    return GPU_BACKENDS["gpu-emulator"].runtime()


def _run_on_gpu(backend: str, ir: str, name: str, args, model: Optional[str] = None) -> None:
    """`ir`'s function `name` called with `args` on GPU backend `backend`
    ("gpu-emulator" or "cuda"); `model`: the accumulator the caller asked
    for (None: the backend's default)."""
    GPU_BACKENDS[backend].run(ir, name, args, model)
