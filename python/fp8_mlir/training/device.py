"""Training state resident on a GPU device (`LanguageModel.trainer`): the
FP32 master weights and the AdamW moments (BF16, DeepSeek-V3 §3.3.3)
allocated once in device memory through the backend's mgpu* runtime, the
compiled step reading the weights and writing the gradients there, and
AdamW's update run as kernels on the same buffers.

Per step the tokens go to the device and the loss and the gradients come
back: the gradients for the global norm of the clipping, which
`optim.AdamW` sums in float64 in NumPy's order (the kernels have no f64
arithmetic with the host's bits), so that every weight equals the CPU
loop's bit for bit. The update's scalars (learning rate, bias corrections,
decay, clipping factor) are computed on the host exactly as `optim.AdamW`
computes them and passed as kernel arguments.

A device buffer is passed to a host program as a NumPy array at its device
address (never read on the host): the program's own copies of its
arguments become device-to-device copies (the emulated runtime tells
device pointers by its allocation table, the CUDA runtime by unified
addressing)."""

from __future__ import annotations

import ctypes
from typing import Dict

import numpy as np

from ..jit import jit as _jit
from . import optim
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


def _update_ir(shapes, moment: str) -> str:
    """One function @adamw_<k> per shape: AdamW's update of one parameter
    in place (weights f32, moments `moment`), the arithmetic of
    `optim.AdamW.step` operation by operation (no fused multiply-add: the
    kernels keep each rounding)."""
    funcs = []
    for k, shape in enumerate(shapes):
        dims = "x".join(str(d) for d in shape)
        n = len(shape)
        ident = "affine_map<(" + ", ".join(f"d{i}" for i in range(n)) + ") -> (" + \
            ", ".join(f"d{i}" for i in range(n)) + ")>"
        f32t, mt = f"tensor<{dims}xf32>", f"tensor<{dims}x{moment}>"
        f32m, mm = f"memref<{dims}xf32>", f"memref<{dims}x{moment}>"
        narrow = moment != "f32"
        # R: the moments as stored (optim.round_bf16 rounds to nearest even,
        # as arith.truncf does); f32 moments are stored as they are.
        load = [f"%mf = arith.extf %mi : {moment} to f32", f"%vf = arith.extf %vi : {moment} to f32"] if narrow else []
        store = [f"%mn = arith.truncf %m3 : f32 to {moment}", f"%vn = arith.truncf %v3 : f32 to {moment}",
                 f"%mr = arith.extf %mn : {moment} to f32", f"%vr = arith.extf %vn : {moment} to f32"] if narrow else []
        mf, vf, mr, vr, mn, vn = ("%mf", "%vf", "%mr", "%vr", "%mn", "%vn") if narrow else \
            ("%mi", "%vi", "%m3", "%v3", "%m3", "%v3")
        body = ["%gc = arith.mulf %gi, %coef : f32", "%pd = arith.mulf %pi, %decay : f32", *load,
                f"%m1 = arith.mulf %b1, {mf} : f32", "%m2 = arith.mulf %c1, %gc : f32",
                "%m3 = arith.addf %m1, %m2 : f32", "%gg = arith.mulf %gc, %gc : f32",
                f"%v1 = arith.mulf %b2, {vf} : f32", "%v2 = arith.mulf %c2, %gg : f32",
                "%v3 = arith.addf %v1, %v2 : f32", *store,
                f"%q = arith.divf {vr}, %bc2 : f32", "%s = math.sqrt %q : f32", "%den = arith.addf %s, %eps : f32",
                f"%mh = arith.divf {mr}, %bc1 : f32", "%u1 = arith.mulf %lr, %mh : f32",
                "%u = arith.divf %u1, %den : f32", "%pn = arith.subf %pd, %u : f32",
                f"linalg.yield %pn, {mn}, {vn} : f32, {moment}, {moment}"]
        parallel = ", ".join(['"parallel"'] * n)
        funcs.append(
            f"  func.func @adamw_{k}(%p: {f32m}, %g: {f32m}, %m: {mm}, %v: {mm}, %coef: f32, %decay: f32, "
            f"%b1: f32, %c1: f32, %b2: f32, %c2: f32, %bc1: f32, %bc2: f32, %eps: f32, %lr: f32) {{\n"
            f"    %pt = bufferization.to_tensor %p restrict writable : {f32m} to {f32t}\n"
            f"    %gt = bufferization.to_tensor %g restrict : {f32m} to {f32t}\n"
            f"    %mt = bufferization.to_tensor %m restrict writable : {mm} to {mt}\n"
            f"    %vt = bufferization.to_tensor %v restrict writable : {mm} to {mt}\n"
            f"    %r:3 = linalg.generic {{indexing_maps = [{', '.join([ident] * 4)}], "
            f"iterator_types = [{parallel}]}} ins(%gt : {f32t}) "
            f"outs(%pt, %mt, %vt : {f32t}, {mt}, {mt}) {{\n"
            f"    ^bb0(%gi: f32, %pi: f32, %mi: {moment}, %vi: {moment}):\n"
            + "".join(f"      {line}\n" for line in body)
            + f"    }} -> ({f32t}, {mt}, {mt})\n"
            f"    bufferization.materialize_in_destination %r#0 in restrict writable %p : ({f32t}, {f32m}) -> ()\n"
            f"    bufferization.materialize_in_destination %r#1 in restrict writable %m : ({mt}, {mm}) -> ()\n"
            f"    bufferization.materialize_in_destination %r#2 in restrict writable %v : ({mt}, {mm}) -> ()\n"
            "    return\n  }\n")
    return "module {\n" + "".join(funcs) + "}\n"


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
        moment, mdt = _MOMENT_TYPES[moment_dtype]
        self._p = {k: self._rt.alloc(np.ascontiguousarray(host.params[k])) for k in self.names}
        self._g = {k: self._rt.alloc(np.zeros_like(host.params[k])) for k in self.names}
        self._m = {k: self._rt.alloc(np.zeros(host.params[k].shape, mdt)) for k in self.names}
        self._v = {k: self._rt.alloc(np.zeros(host.params[k].shape, mdt)) for k in self.names}
        host.params = host.m = host.v = None  # the state is the device's now
        shapes = sorted({p.shape for p in self._p.values()})
        self._fn = {s: f"adamw_{k}" for k, s in enumerate(shapes)}
        self._update = _jit(_update_ir(shapes, moment), GPU_PIPELINES[model.device], target=model.device)
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
        self._update_state({k: self._rt.read(self._g[k]) for k in self.names})
        return float(loss[0])

    def _update_state(self, grads):
        """optim.AdamW.step's scalars from `grads` (the same code for the
        norm, the clipping factor and the schedule), then the update kernels."""
        opt = self._opt
        norm = optim._finite_norm(grads, "DeviceTrainer.step")
        # optim.clip_by_global_norm's factor; g * 1 is g without clipping.
        coef = np.float32(1) if opt.clip_norm is None else np.float32(min(1.0, opt.clip_norm / (norm + 1e-6)))
        opt.last_grad_norm = norm
        lr = opt._learning_rate()
        opt.t += 1
        opt.last_lr = lr
        b1, b2 = opt.beta1, opt.beta2
        one = np.float32(1)
        bc1 = np.float32(1.0 - float(b1) ** opt.t)
        bc2 = np.float32(1.0 - float(b2) ** opt.t)
        decay = np.float32(1.0 - lr * opt.weight_decay)
        for k in self.names:
            # p * 1 is p: the parameters without decay take factor 1.
            d = decay if opt.weight_decay and not opt.no_decay(k) else one
            self._update.call(self._fn[self._p[k].shape], self._p[k], self._g[k], self._m[k], self._v[k],
                              float(coef), float(d), float(b1), float(one - b1), float(b2), float(one - b2),
                              float(bc1), float(bc2), float(opt.eps), float(np.float32(lr)))

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
        for bufs in (self._p, self._g, self._m, self._v):
            for a in bufs.values():
                self._rt.free(a)

    def __del__(self):
        try:
            self.close()
        except Exception:  # the runtime may be gone at interpreter exit
            pass

