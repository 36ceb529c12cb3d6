"""The optimizer of DeepSeek-V3 §3.3.3 in NumPy: FP32 master weights and
gradients, AdamW with BF16 first and second moments (FP32 selectable),
decoupled weight decay, global-norm gradient clipping and a linear warmup
followed by a cosine decay of the learning rate.

Everything here is plain NumPy on float32 arrays but the global norm of the
clipping: the compiled training graph (`LanguageModel.loss_and_grads`)
produces the gradients and this module updates the master weights between
steps. The norm and the clipping factor come from the optimizer's compiled
graph (`optim_graph`, fp8-cpu-pipeline), the one a GPU device runs
(`device.DeviceTrainer`), so that both compute the same bits: a sum in NumPy
has NumPy's order, which no kernel reproduces. The BF16 moments are stored as
float32 arrays holding BF16 values (rounded to nearest, ties to even, by
`round_bf16`), so they read like any other array and take the values a
`torch.bfloat16` state tensor would.
"""

from __future__ import annotations

import dataclasses
import math
import numbers

from typing import Any, Dict, Optional, Tuple

import numpy as np

from .. import _args
from ..jit import jit as _jit
from . import optim_graph

MOMENT_DTYPES = ("bf16", "f32")


def round_bf16(x: np.ndarray) -> np.ndarray:
    """float32 -> float32 holding the nearest BF16 value (ties to even).

    BF16 keeps the top 16 bits of an IEEE float32. Rounding adds 0x7FFF plus
    the lowest kept bit to the bit pattern and truncates: below half an ulp
    rounds down, above rounds up, and exactly half rounds to the even kept
    pattern. A carry out of the mantissa bumps the exponent (the next
    binade, or infinity past the largest BF16, 0x7F7F0000). NaN stays NaN
    (its quiet bit is set so the truncation cannot turn it into infinity);
    +-0, infinities and subnormals keep their sign and round as their bits
    do."""
    a = np.asarray(x)
    if a.dtype != np.float32:
        raise ValueError(f"round_bf16: x must be float32, got {a.dtype}")
    bits = np.ascontiguousarray(a).view(np.uint32)
    lsb = (bits >> np.uint32(16)) & np.uint32(1)
    rounded = (bits + np.uint32(0x7FFF) + lsb) & np.uint32(0xFFFF0000)
    nan = np.isnan(a)
    if nan.any():
        rounded = np.where(nan, (bits | np.uint32(0x00400000)) & np.uint32(0xFFFF0000), rounded)
    return rounded.astype(np.uint32).view(np.float32).reshape(a.shape)


@dataclasses.dataclass(frozen=True)
class Schedule:
    """Linear warmup to `peak_lr` over `warmup_steps` steps, then a cosine
    decay to `min_lr` at `total_steps`:

    - step s < warmup: peak * (s + 1) / warmup (the first step already
      moves: 1/warmup of the peak);
    - warmup <= s < total: min + (peak - min) * (1 + cos(pi * p)) / 2 with
      p = (s - warmup) / (total - warmup), so the step right after the
      warmup runs at the peak;
    - s >= total: min.

    Steps count from 0."""

    peak_lr: float
    warmup_steps: int
    total_steps: int
    min_lr: float = 0.0

    def __post_init__(self):
        if not (self.peak_lr > 0 and math.isfinite(self.peak_lr)):
            raise ValueError(f"Schedule: peak_lr must be a positive number, got {self.peak_lr}")
        if not (0 <= self.min_lr <= self.peak_lr):
            raise ValueError(f"Schedule: min_lr must be in [0, peak_lr], got {self.min_lr}")
        if self.warmup_steps < 0 or self.total_steps < 1 or self.warmup_steps > self.total_steps:
            raise ValueError(
                f"Schedule: need 0 <= warmup_steps <= total_steps and total_steps >= 1, got "
                f"warmup_steps={self.warmup_steps}, total_steps={self.total_steps}")

    def __call__(self, step: int) -> float:
        if step < 0:
            raise ValueError(f"Schedule: step must be >= 0, got {step}")
        if step < self.warmup_steps:
            return self.peak_lr * (step + 1) / self.warmup_steps
        if step >= self.total_steps:
            return self.min_lr
        p = (step - self.warmup_steps) / (self.total_steps - self.warmup_steps)
        return self.min_lr + (self.peak_lr - self.min_lr) * 0.5 * (1.0 + math.cos(math.pi * p))


#: The compiled @grad_norm of each tuple of gradient rows (optim_graph.norm_rows).
_NORM_MODULES: Dict[Tuple[Tuple[int, int], ...], Any] = {}


def norm_and_factor(grads: dict, max_norm: Optional[float]) -> Tuple[float, np.float32]:
    """The global norm of `grads` (in the dict's order) and the clipping
    factor min(1, max_norm / (norm + 1e-6)) rounded to float32 (1 for
    `max_norm` None), computed by the optimizer's compiled graph
    (`optim_graph`'s @grad_norm on fp8-cpu-pipeline): the gradients as
    float32, squared and summed in float32 in the compiler's reduction
    order (PyTorch's clip_grad_norm_ also sums in the gradients' type), the
    same bits as a GPU device's `DeviceTrainer` computes (docs/training.md,
    "Gradient clipping"). A sum of squares past float32's range (gradients
    of about 1e19) is an infinite norm."""
    arrays = [np.ascontiguousarray(g, dtype=np.float32) for g in grads.values()]
    arrays = [a for a in arrays if a.size]  # an empty gradient adds nothing
    rows = tuple(optim_graph.norm_rows(a.shape) for a in arrays)
    if rows not in _NORM_MODULES:
        _NORM_MODULES[rows] = _jit(optim_graph.norm_module(rows))
    norm, coef = np.zeros(1, np.float32), np.zeros(1, np.float32)
    limit = math.inf if max_norm is None else float(max_norm)  # +inf: a factor of exactly 1
    _NORM_MODULES[rows].grad_norm(*(a.reshape(r) for a, r in zip(arrays, rows)), limit, norm, coef)
    return float(norm[0]), coef[0]


def global_norm(grads: dict) -> float:
    """sqrt of the sum of squares of every gradient element, as
    `norm_and_factor` computes it (float32 sums in the compiler's order)."""
    return norm_and_factor(grads, None)[0]


def _is_real(x) -> bool:
    return isinstance(x, numbers.Real) and not isinstance(x, (bool, np.bool_))


def _positive(x) -> bool:
    """A finite real > 0 (not NaN, inf or a bool)."""
    return _is_real(x) and math.isfinite(x) and x > 0


def check_finite_norm(norm: float, grads, who: str) -> None:
    """A non-finite norm raises, naming the gradients that hold an inf or
    NaN (one would spread into every weight). `grads`: the gradients, or a
    callable returning them (a device reads them back only then)."""
    if math.isfinite(norm):
        return
    grads = grads() if callable(grads) else grads
    bad = [k for k, g in grads.items() if not np.all(np.isfinite(g))]
    raise FloatingPointError(f"{who}: non-finite gradients in {', '.join(bad) or '(overflow of the norm)'}")


def clip_by_global_norm(grads: dict, max_norm: float):
    """Scales every gradient by min(1, max_norm / (norm + 1e-6)) (PyTorch's
    clip_grad_norm_; the 1e-6 keeps a zero norm finite; the factor as
    `norm_and_factor` computes it). Returns the clipped gradients (new
    float32 arrays) and the norm before clipping. A non-finite norm raises:
    one inf or NaN would spread into every weight. `max_norm`: a finite
    number > 0 (a negative one would turn every step into gradient ascent)."""
    if not _positive(max_norm):
        raise ValueError(f"clip_by_global_norm: max_norm must be a finite number > 0, got {max_norm!r}")
    norm, coef = norm_and_factor(grads, max_norm)
    check_finite_norm(norm, grads, "clip_by_global_norm")
    return {k: (np.asarray(g, np.float32) * coef).astype(np.float32) for k, g in grads.items()}, norm


def default_no_decay(name: str) -> bool:
    """Parameters without weight decay: the RMSNorm gains (1-D tensors whose
    shrinking towards 0 would only rescale activations). Embeddings and the
    LM head decay, as in most LLaMA-style recipes."""
    return name.endswith("norm.weight")


def _check_hyperparameters(betas, eps, weight_decay, clip_norm):
    """ValueError naming the first of AdamW's hyperparameters out of range:
    NaN or infinity pass a plain `eps <= 0` test and then turn every weight
    into NaN (or, for clip_norm, silently disable clipping)."""
    if not (isinstance(betas, (tuple, list)) and len(betas) == 2 and all(_is_real(b) and 0 <= b < 1 for b in betas)):
        raise ValueError(f"AdamW: betas must be two numbers in [0, 1), got {betas!r}")
    if not _positive(eps):
        raise ValueError(f"AdamW: eps must be a finite number > 0, got {eps!r}")
    if not (_is_real(weight_decay) and math.isfinite(weight_decay) and weight_decay >= 0):
        raise ValueError(f"AdamW: weight_decay must be a finite number >= 0, got {weight_decay!r}")
    if clip_norm is not None and not _positive(clip_norm):
        raise ValueError(f"AdamW: clip_norm must be a finite number > 0, or None (no clipping), got {clip_norm!r}")


def _real_array(what: str, value) -> np.ndarray:
    """`value` as float32, refusing what the conversion would silently
    change: complex values (the imaginary part dropped), objects, strings."""
    a = np.asarray(value)
    if a.dtype.kind not in "fiu":
        raise ValueError(f"{what} must hold real numbers, got dtype {a.dtype}")
    return a.astype(np.float32, copy=False)


class AdamW:
    """AdamW (Loshchilov & Hutter) with DeepSeek-V3's state precision.

    For each parameter p with gradient g at step t (counting from 1), with
    lr = schedule(t - 1) and the gradients first clipped to `clip_norm`
    (global norm; None: no clipping):

        p <- p * (1 - lr * weight_decay)          (decoupled; skipped for no_decay names)
        m <- R(beta1 * m + (1 - beta1) * g)
        v <- R(beta2 * v + (1 - beta2) * g * g)
        p <- p - lr * (m / (1 - beta1^t)) / (sqrt(v / (1 - beta2^t)) + eps)

    computed in float32, where R rounds to BF16 (`round_bf16`) for
    moment_dtype="bf16" and is the identity for "f32". The update reads the
    stored (rounded) moments, as an optimizer with BF16 state tensors does.
    Master weights stay float32."""

    def __init__(self, params: dict, schedule, *, betas=(0.9, 0.95), eps=1e-8, weight_decay=0.1,
                 clip_norm=1.0, moment_dtype="bf16", no_decay=default_no_decay):
        if moment_dtype not in MOMENT_DTYPES:
            raise ValueError(f"AdamW: moment_dtype must be one of {', '.join(MOMENT_DTYPES)}, got {moment_dtype!r}")
        _check_hyperparameters(betas, eps, weight_decay, clip_norm)
        b1, b2 = betas
        if not isinstance(params, dict):
            raise TypeError(f"AdamW: params must be a dict of name -> float32 array, got {type(params).__name__}")
        for k, p in params.items():
            if not isinstance(p, np.ndarray) or p.dtype != np.float32:
                got = p.dtype if isinstance(p, np.ndarray) else type(p).__name__
                raise ValueError(f"AdamW: master weight {k} must be a float32 NumPy array, got {got}")
        if callable(schedule):
            self.schedule = schedule
        else:
            self.schedule = (lambda step, lr=_args.learning_rate(schedule): lr)
        self.beta1, self.beta2 = np.float32(b1), np.float32(b2)
        self.eps, self.weight_decay, self.clip_norm = np.float32(eps), float(weight_decay), clip_norm
        self.moment_dtype = moment_dtype
        self.no_decay = no_decay
        self.params = {k: np.array(p, dtype=np.float32, copy=True) for k, p in params.items()}
        self.m = {k: np.zeros_like(p) for k, p in self.params.items()}
        self.v = {k: np.zeros_like(p) for k, p in self.params.items()}
        self.t = 0
        self.last_lr = None
        self.last_grad_norm = None

    def _learning_rate(self) -> float:
        """The schedule's rate for this step: a finite number >= 0 (a NaN
        turns every weight into NaN, a negative rate ascends the loss)."""
        lr = self.schedule(self.t)
        if not _is_real(lr) or not (math.isfinite(lr) and lr >= 0):
            raise ValueError(f"AdamW.step: the schedule gave learning rate {lr!r} at step {self.t}; "
                             "expected a finite number >= 0")
        return float(lr)

    def _round(self, x):
        return round_bf16(x) if self.moment_dtype == "bf16" else x

    def step(self, grads: dict) -> dict:
        """One update from the gradients of the current weights; returns the
        new master weights (the same dict, updated in place)."""
        if set(grads) != set(self.params):
            missing, extra = set(self.params) - set(grads), set(grads) - set(self.params)
            raise ValueError(f"AdamW.step: gradients do not match the parameters (missing: "
                             f"{sorted(missing)}, unexpected: {sorted(extra)})")
        grads = {k: _real_array(f"AdamW.step: gradient {k}", g) for k, g in grads.items()}
        for k, g in grads.items():
            if g.shape != self.params[k].shape:
                raise ValueError(f"AdamW.step: gradient {k} has shape {g.shape}, the weight {self.params[k].shape}")
        grads = {k: grads[k] for k in self.params}  # the norm sums in the parameters' order
        norm, coef = norm_and_factor(grads, self.clip_norm)
        check_finite_norm(norm, grads, "AdamW.step")
        if self.clip_norm is not None:
            grads = {k: g * coef for k, g in grads.items()}
        self.last_grad_norm = norm
        lr = self._learning_rate()
        self.t += 1
        self.last_lr = lr
        b1, b2 = self.beta1, self.beta2
        bc1 = np.float32(1.0 - float(b1) ** self.t)
        bc2 = np.float32(1.0 - float(b2) ** self.t)
        lr32 = np.float32(lr)
        decay = np.float32(1.0 - lr * self.weight_decay)
        one = np.float32(1)
        for k, p in self.params.items():
            g = grads[k]
            if self.weight_decay and not self.no_decay(k):
                p *= decay
            self.m[k] = self._round(b1 * self.m[k] + (one - b1) * g)
            self.v[k] = self._round(b2 * self.v[k] + (one - b2) * (g * g))
            denom = np.sqrt(self.v[k] / bc2) + self.eps
            p -= lr32 * (self.m[k] / bc1) / denom
        return self.params

    def state_bytes(self) -> int:
        """Bytes of the two moments as stored (2 per element in BF16)."""
        per = 2 if self.moment_dtype == "bf16" else 4
        return 2 * per * sum(p.size for p in self.params.values())
