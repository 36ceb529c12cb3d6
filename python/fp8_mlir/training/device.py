"""Training state resident on a GPU device (`LanguageModel.trainer`): the
FP32 master weights, the gradients and the AdamW moments (BF16,
DeepSeek-V3 §3.3.3) allocated once in device memory through the backend's
mgpu* runtime, the compiled step reading the weights and writing the
gradients there, and the optimizer run as kernels on the same buffers: the
global norm of the clipping and its factor (`optim_graph`'s @grad_norm),
then AdamW's update of each parameter (@adamw_<k>), reading the factor
where @grad_norm wrote it.

Per step the tokens go to the device and the loss and the norm (4 bytes
each; the norm for `last_grad_norm` and checked finite before the update,
as the CPU loop does) come back; nothing else. The CPU loop (`optim.AdamW`) computes the
norm and the factor with the same graph on fp8-cpu-pipeline, so every
weight equals the CPU loop's bit for bit. The update's other scalars
(learning rate, bias corrections, decay) are computed on the host exactly
as `optim.AdamW` computes them and passed as kernel arguments.

A device buffer is passed to a host program as a NumPy array at its device
address (never read on the host): the program's own copies of its
arguments become device-to-device copies (the emulated runtime tells
device pointers by its allocation table, the CUDA runtime by unified
addressing)."""

from __future__ import annotations

import ctypes
import math
from typing import Dict

import numpy as np

from ..jit import jit as _jit
from . import optim, optim_graph
from .lm import GPU_PIPELINES

_MOMENT_TYPES = {"bf16": ("bf16", np.uint16), "f32": ("f32", np.float32)}


class _Runtime:
    """The backend's mgpu* memory functions, each call in its session (a
    fault or a driver error is a RuntimeError)."""

    def __init__(self, backend):
        self.backend = backend
        lib = backend.runtime()
        lib.mgpuMemAlloc.argtypes = [ctypes.c_uint64, ctypes.c_void_p, ctypes.c_bool]
        lib.mgpuMemAlloc.restype = ctypes.c_void_p
        lib.mgpuMemFree.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
        lib.mgpuMemcpy.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p]
        lib.mgpuStreamSynchronize.argtypes = [ctypes.c_void_p]
        self.lib = lib

    def session(self):
        return self.backend.session(self.backend.accumulator(None))

    def alloc(self, host: np.ndarray) -> np.ndarray:
        """A device copy of `host`, as an array at its device address."""
        with self.session():
            ptr = self.lib.mgpuMemAlloc(host.nbytes, None, False)
            if not ptr:
                raise RuntimeError(f"backend {self.backend.name!r}: mgpuMemAlloc of {host.nbytes} bytes failed")
            self.lib.mgpuMemcpy(ptr, host.ctypes.data, host.nbytes, None)
            self.lib.mgpuStreamSynchronize(None)
        raw = (ctypes.c_char * host.nbytes).from_address(ptr)
        return np.frombuffer(raw, dtype=host.dtype).reshape(host.shape)

    def read(self, dev: np.ndarray) -> np.ndarray:
        host = np.empty(dev.shape, dev.dtype)
        with self.session():
            self.lib.mgpuMemcpy(host.ctypes.data, dev.ctypes.data, dev.nbytes, None)
            self.lib.mgpuStreamSynchronize(None)
        return host

    def free(self, dev: np.ndarray) -> None:
        with self.session():
            self.lib.mgpuMemFree(dev.ctypes.data, None)


def adamw_scalars(opt, name):
    """@adamw_<k>'s scalar arguments for parameter `name` (in
    `optim_graph.UPDATE_SCALARS` order, Python floats holding f32 values)
    once `opt` (an `optim.AdamW`) has counted the step (`t`, `last_lr`):
    the scalars `optim.AdamW.step` computes, computed as it does."""
    lr = opt.last_lr
    b1, b2 = opt.beta1, opt.beta2
    one = np.float32(1)
    bc1 = np.float32(1.0 - float(b1) ** opt.t)
    bc2 = np.float32(1.0 - float(b2) ** opt.t)
    decay = np.float32(1.0 - lr * opt.weight_decay)
    # p * 1 is p: the parameters without decay take factor 1.
    d = decay if opt.weight_decay and not opt.no_decay(name) else one
    return [float(d), float(b1), float(one - b1), float(b2), float(one - b2), float(bc1), float(bc2), float(opt.eps),
            float(np.float32(lr))]


class DeviceTrainer:
    """AdamW training of `model` (a LanguageModel on a GPU device) from
    `params`, its state resident on the device; the hyperparameters are
    `optim.AdamW`'s, with the same checks and the same arithmetic.

    `step(tokens)` runs one training step and one update, returns the
    loss; `params()` and `moments()` copy the state back on request (as
    `optim.AdamW`'s `params`, `m`, `v`: float32 arrays, the moments holding
    BF16 values); `close()` frees the device memory. `t`, `last_lr` and
    `last_grad_norm` as `optim.AdamW`'s."""

    def __init__(self, model, params: Dict[str, np.ndarray], schedule, *, betas=(0.9, 0.95), eps=1e-8,
                 weight_decay=0.1, clip_norm=1.0, moment_dtype="bf16", no_decay=optim.default_no_decay):
        if model.device == "cpu":
            raise ValueError("LanguageModel.trainer keeps the state on a GPU device; on the CPU use "
                             "fp8_mlir.training.optim.AdamW with loss_and_grads")
        # optim.AdamW checks the hyperparameters and the weights, and gives
        # the schedule; its copies of the weights are dropped once uploaded.
        host = optim.AdamW(params, schedule, betas=betas, eps=eps, weight_decay=weight_decay,
                           clip_norm=clip_norm, moment_dtype=moment_dtype, no_decay=no_decay)
        model._check_params(host.params)
        from .._numerics.emulator import GPU_BACKENDS
        self.model = model
        self._opt = host
        self._rt = _Runtime(GPU_BACKENDS[model.device])
        self.names = list(model.config.parameter_shapes())
        # The norm sums in the order of `params`, as optim.AdamW does.
        self._norm_names = [k for k in host.params if host.params[k].size]
        moment, mdt = _MOMENT_TYPES[moment_dtype]
        self._p = {k: self._rt.alloc(np.ascontiguousarray(host.params[k])) for k in self.names}
        self._g = {k: self._rt.alloc(np.zeros_like(host.params[k])) for k in self.names}
        self._m = {k: self._rt.alloc(np.zeros(host.params[k].shape, mdt)) for k in self.names}
        self._v = {k: self._rt.alloc(np.zeros(host.params[k].shape, mdt)) for k in self.names}
        self._norm = self._rt.alloc(np.zeros(1, np.float32))
        self._coef = self._rt.alloc(np.zeros(1, np.float32))
        host.params = host.m = host.v = None  # the state is the device's now
        shapes = sorted({p.shape for p in self._p.values()})
        self._fn = {s: f"adamw_{k}" for k, s in enumerate(shapes)}
        self._rows = [optim_graph.norm_rows(self._g[k].shape) for k in self._norm_names]
        self._update = _jit(optim_graph.update_module(self._rows, shapes, moment), GPU_PIPELINES[model.device],
                            target=model.device)
        self._moment_dtype = moment_dtype
        self.closed = False

    @property
    def t(self):
        return self._opt.t

    @property
    def last_lr(self):
        return self._opt.last_lr

    @property
    def last_grad_norm(self):
        return self._opt.last_grad_norm

    def _live(self):
        if self.closed:
            raise ValueError("DeviceTrainer: closed (its device memory is freed)")

    def step(self, tokens) -> float:
        """One training step on `tokens` (integers [batch, seq + 1]) and one
        AdamW update of the resident state; returns the loss."""
        self._live()
        model = self.model
        tokens = model._check_tokens(tokens)
        module = model.compiled(tokens.shape[0])
        inputs = np.ascontiguousarray(tokens[:, :-1], dtype=np.int64).reshape(-1)
        targets = np.ascontiguousarray(tokens[:, 1:], dtype=np.int64).reshape(-1)
        loss = np.zeros(1, np.float32)
        module.call_accumulating(model.accumulator_options.get("accumulator"), "run", inputs, targets,
                                 *(self._p[k] for k in self.names), loss, *(self._g[k] for k in self.names))
        self._update_state()
        return float(loss[0])

    def _clip(self) -> None:
        """@grad_norm on the resident gradients: the norm (read back, 4
        bytes) and the clipping factor (left on the device for the update)."""
        opt = self._opt
        limit = math.inf if opt.clip_norm is None else float(opt.clip_norm)  # +inf: a factor of exactly 1
        self._update.call("grad_norm", *(self._g[k].reshape(r) for k, r in zip(self._norm_names, self._rows)),
                          limit, self._norm, self._coef)
        norm = float(self._rt.read(self._norm)[0])
        # Non-finite: the gradients come back to name the bad ones, before
        # anything is updated (as optim.AdamW.step raises).
        optim.check_finite_norm(norm, lambda: {k: self._rt.read(self._g[k]) for k in self.names},
                                "DeviceTrainer.step")
        opt.last_grad_norm = norm

    def _update_state(self):
        """optim.AdamW.step on the device: the norm and the clipping factor
        (@grad_norm), optim.AdamW's scalars (the same code for the
        schedule), then the update kernels."""
        opt = self._opt
        self._clip()
        lr = opt._learning_rate()
        opt.t += 1
        opt.last_lr = lr
        for k in self.names:
            self._update.call(self._fn[self._p[k].shape], self._p[k], self._g[k], self._m[k], self._v[k], self._coef,
                              *adamw_scalars(opt, k))

    def params(self) -> Dict[str, np.ndarray]:
        """The master weights, copied from the device."""
        self._live()
        return {k: self._rt.read(self._p[k]) for k in self.names}

    def moments(self):
        """(m, v): the moments copied from the device, float32 arrays (for
        BF16 moments holding the BF16 values, as optim.AdamW's)."""
        self._live()

        def f32(a):
            if self._moment_dtype == "f32":
                return a
            return (a.astype(np.uint32) << np.uint32(16)).view(np.float32)
        return ({k: f32(self._rt.read(self._m[k])) for k in self.names},
                {k: f32(self._rt.read(self._v[k])) for k in self.names})

    def close(self) -> None:
        """Frees the device memory (also when the trainer is collected)."""
        if self.closed:
            return
        self.closed = True
        for bufs in (self._p, self._g, self._m, self._v, {"norm": self._norm, "coef": self._coef}):
            for a in bufs.values():
                self._rt.free(a)

    def __del__(self):
        try:
            self.close()
        except Exception:  # the runtime may be gone at interpreter exit
            pass

