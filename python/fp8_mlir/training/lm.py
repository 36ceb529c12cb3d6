"""The language model of fp8_mlir.training: configuration, parameters, and
one compiled training step (`lm_graph.lm_training_step`) per (config,
policy, options, device, batch), cached in-process, run on the CPU or on a
GPU backend (the emulated CUDA runtime or a GPU)."""

from __future__ import annotations

import dataclasses
from typing import Any, Dict, Optional, Tuple

import numpy as np

from .. import _args
from .._numerics.checks import _check_f32_range
from .. import compiler as _compiler
from ..jit import gpu_pipeline as _gpu_pipeline
from ..jit import jit as _jit
from ..jit import openmp_runtime as _openmp_runtime
from .lm_graph import lm_training_step

#: Precision policies of `LanguageModel`: no FP8 and no rounding (`f32`), and
#: every preset of `fp8_mlir.POLICIES`: the FP8 recipes and `bf16` (BF16
#: operands with FP32 accumulation, the baseline).
LM_POLICIES = ("f32",) + tuple(_compiler.POLICIES)

#: Where `LanguageModel` runs its step: the CPU (fp8-cpu-pipeline), or the
#: host program of fp8-gpu-pipeline{host=llvm} on the emulated CUDA runtime
#: ("gpu-emulator") or on a GPU ("cuda"), as `fp8_mlir.jit`'s targets.
LM_DEVICES = ("cpu", "gpu-emulator", "cuda")
#: The GPU devices' pipelines: every op on the device (require-kernels: an
#: op no kernel implements fails the compile rather than running on the
#: host), the GEMM tiles the cost model picks.
GPU_PIPELINES = {d: _gpu_pipeline(d, require_kernels=True) for d in LM_DEVICES if d != "cpu"}


@dataclasses.dataclass(frozen=True)
class LanguageModelConfig:
    """Sizes of a decoder-only Llama-style model: `vocab` tokens, `layers`
    blocks of width `hidden` with `heads` attention heads (head_dim =
    hidden / heads, even for RoPE) and a SwiGLU MLP of `intermediate`,
    trained on sequences of `seq` tokens."""

    vocab: int
    layers: int
    hidden: int
    heads: int
    intermediate: int
    seq: int

    def __post_init__(self):
        for f in dataclasses.fields(self):
            object.__setattr__(self, f.name, _args.size(f"LanguageModelConfig.{f.name}", getattr(self, f.name)))
        if self.hidden % self.heads or (self.hidden // self.heads) % 2:
            raise ValueError(f"hidden ({self.hidden}) must be a multiple of heads ({self.heads}) with an even "
                             f"head_dim (RoPE rotates halves)")

    def parameter_shapes(self) -> Dict[str, Tuple[int, ...]]:
        """Name -> shape of every parameter, in the order of the graph's
        arguments (Hugging Face's Llama names, weights [out, in])."""
        h, i = self.hidden, self.intermediate
        shapes = {"model.embed_tokens.weight": (self.vocab, h)}
        for layer in range(self.layers):
            pre = f"model.layers.{layer}"
            shapes[f"{pre}.input_layernorm.weight"] = (h,)
            for p in ("q", "k", "v", "o"):
                shapes[f"{pre}.self_attn.{p}_proj.weight"] = (h, h)
            shapes[f"{pre}.post_attention_layernorm.weight"] = (h,)
            shapes[f"{pre}.mlp.gate_proj.weight"] = (i, h)
            shapes[f"{pre}.mlp.up_proj.weight"] = (i, h)
            shapes[f"{pre}.mlp.down_proj.weight"] = (h, i)
        shapes["model.norm.weight"] = (h,)
        shapes["lm_head.weight"] = (self.vocab, h)
        return shapes


# (config, batch, policy, dtype, options) -> (JitModule, report)
_CACHE: Dict[tuple, Tuple[Any, Optional[dict]]] = {}


def _np_dtype(et):
    return np.float64 if et == "f64" else np.float32


def _with_run(text: str, config: LanguageModelConfig, batch: int, et: str) -> str:
    """Appends a destination-passing `@run(tokens, targets, params...,
    loss, grads...)` (memrefs) that calls @train_step, for the JIT."""
    t = batch * config.seq
    shapes = list(config.parameter_shapes().values())
    ins = [(f"tok{i}", (t,), "i64") for i in range(2)] + [(f"p{i}", s, et) for i, s in enumerate(shapes)]
    outs = [("loss", (1,), et)] + [(f"g{i}", s, et) for i, s in enumerate(shapes)]

    def ty(kind, shape, e):
        return f"{kind}<{'x'.join(str(d) for d in shape)}x{e}>"

    lines = ["  func.func @run(" + ", ".join(f"%{a}: {ty('memref', s, e)}" for a, s, e in ins + outs) + ") {"]
    for a, s, e in ins:
        lines.append(f"    %t{a} = bufferization.to_tensor %{a} restrict : {ty('memref', s, e)} to "
                     f"{ty('tensor', s, e)}")
    lines.append(f"    %r:{len(outs)} = func.call @train_step(" + ", ".join(f"%t{a}" for a, _, _ in ins) + ") : ("
                 + ", ".join(ty("tensor", s, e) for _, s, e in ins) + ") -> ("
                 + ", ".join(ty("tensor", s, e) for _, s, e in outs) + ")")
    for k, (a, s, e) in enumerate(outs):
        lines.append(f"    bufferization.materialize_in_destination %r#{k} in restrict writable %{a} : "
                     f"({ty('tensor', s, e)}, {ty('memref', s, e)}) -> ()")
    lines += ["    return", "  }"]
    return text.rstrip()[:-1] + "\n".join(lines) + "\n}\n"


#: The upstream passes that make the GPU devices' step the destination-passing
#: @run itself: the inliner (no simplification pipeline: the compiled step
#: stays as compile() left it) inlines the call of the private @train_step
#: into `_with_run`'s @run, symbol-dce drops what is left of it. The host
#: program's residency lasts one function: through a call, the results would
#: come back to the host at @train_step's end, go to the device again for
#: @run's copies and come back once more. Inlined after compile(), the FP8
#: decisions are the CPU's (the graph passes recognise the head by the loss
#: @train_step returns).
STEP_AS_RUN = "builtin.module(inline{default-pipeline=}, symbol-dce)"


def _cpu_options(opts):
    # What stays high (attention, the head; every matmul of f32 and bf16) as
    # vector register tiles rather than scalar loops.
    parts = ["vectorize-contractions=true"]
    if opts.get("accumulator", "exact") != "exact":
        parts.append(f"accumulator={opts['accumulator']}")
    if opts.get("accumulator_bits", 0):
        parts.append(f"accumulator-bits={int(opts['accumulator_bits'])}")
    if opts.get("threads", 1) != 1:
        parts.append(f"threads={int(opts['threads'])}")
    return "fp8-cpu-pipeline{" + " ".join(parts) + "}"


def _promotion(opts):
    """compile()'s `promotion` for the accumulator options."""
    return "none" if opts.get("promote_interval") == "none" else "policy"


def _compile_graph(text, policy, split, promotion="policy"):
    """compile() of the step up to the FP8 graph and its report (lowered by
    the caller with the step's accumulator options): the split step (FP8
    policies) with FP8 activation caching."""
    cache = split and policy in _compiler.FP8_POLICIES
    return _compiler.compile(text, policy, cache_activations=cache, promotion=promotion, lower=False)


def _lower(text, opts, device):
    """JIT-compiles the step for `device`: fp8-cpu-pipeline with the
    accumulator options, or the GPU device's host program."""
    if device == "cpu":
        return _jit(text, _cpu_options(opts))
    # Printed with its locations: the lowering names what it reports by them.
    step = _compiler.run_pipeline(text, STEP_AS_RUN, locations=True)
    return _jit(step, GPU_PIPELINES[device], target=device)


def _compile(config, batch, policy, et, opts, device="cpu"):
    split = opts.get("form") == "split"
    # On a GPU device @train_step is private: inlined into @run, then dropped.
    step = lm_training_step(config, batch, et, split=split, private=device != "cpu")
    text = _with_run(step, config, batch, et)
    if policy == "f32":
        return _lower(text, opts, device), None
    result = _compile_graph(text, policy, split, _promotion(opts))
    return _lower(result.fp8_ir, opts, device), result.report


def _check_promotion(policy):
    """ValueError now, rather than at the first step, when `policy` cannot
    go without promotion: the compiler's own check (the policy verifier:
    K-blocks with scales of their own need a promotion per block), on an
    empty module."""
    try:
        _compiler.run_pipeline("module {}", f"fp8-assign-precision{{policy={policy} promotion=none}}")
    except _compiler.MLIRError as err:
        raise ValueError(f"promote_interval='none' with policy {policy!r}: "
                         + "; ".join(d.message for d in err.errors)) from None


#: Most threads `LanguageModel(threads=N)` takes (a larger count is a typo).
MAX_THREADS = 1024


def _check_threads(threads) -> int:
    """fp8-cpu-pipeline's `threads`: 1 = sequential, N > 1 = an OpenMP loop
    of N threads, 0 = OpenMP's default; N != 1 needs the OpenMP runtime."""
    n = _args.size("threads", threads, low=0, high=MAX_THREADS)
    if n != 1 and not _openmp_runtime():
        raise ValueError(f"threads={n} needs the LLVM OpenMP runtime (libomp), which this build did not find; "
                         "use threads=1")
    return n


class LanguageModel:
    """The training step of `config` under `policy`, compiled once per
    (config, policy, options, batch size) and cached in-process.

    `policy`: "f32" (no FP8), or a preset of `fp8_mlir.POLICIES`: "bf16"
    (every matmul with BF16 operands and FP32 accumulation) or an FP8
    recipe (the linears' three GEMMs in FP8; embedding, head, norms and
    attention kept high as the policy says).

    Accumulator options (FP8 policies): `accumulator` = "exact" (f32 sums,
    the default), "sm90" or "sm89" (the tensor cores' bit-exact
    accumulation); `accumulator_bits=N` (the generic N-bit tensor-core
    accumulator inside each promotion interval, e.g. 14, DeepSeek-V3
    §3.3.2); `promote_interval="none"`: no FP32 promotion, the accumulator
    runs over the whole K (fp8-pipeline's `promotion=none`: each GEMM's
    promote_interval is its own K; needs a policy whose scale blocks span
    the whole K: per-tensor, rowwise); `threads=N` for the FP8 kernels (an
    integer in [0, MAX_THREADS]: 1 sequential, 0 OpenMP's default).

    `dtype`: the element type of the graph, "f32" or "f64" (f64 with
    policy "f32" only: the oracle of the gradient checks).

    `form`: "joint" (one function, as aot_autograd exports the whole step)
    or "split": @forward and @backward called one after the other, the
    forward returning the FP8 codes and scales of the activations the
    weight gradients read (fp8-cache-activations) instead of the
    high-precision tensors; its loss and gradients equal the joint form's
    bit for bit.

    `device`: where the step runs (`LM_DEVICES`): "cpu", or the host
    program of fp8-gpu-pipeline{host=llvm require-kernels=true} on the
    emulated CUDA runtime ("gpu-emulator") or on an sm_90a GPU ("cuda"),
    whose loss and gradients equal the CPU's bit for bit (the CPU with
    accumulator="sm90" for "cuda": the device's wgmma accumulates as
    Hopper's does). Each `loss_and_grads` copies the tokens and the
    parameters to the device and the loss and the gradients back;
    `trainer()` keeps the weights and the AdamW state on the device
    between steps (fp8_mlir.training.device). A GPU device
    takes dtype "f32", form "joint" and of the options only `accumulator`
    ("exact", the emulator's default, or "sm90"; "cuda": "sm90" only). Its
    runtime is checked here: a missing one (for "cuda": no CUDA toolkit at
    build time, no driver, no device, not sm_90a) is the backend's
    RuntimeError naming it."""

    _OPTIONS = ("accumulator", "accumulator_bits", "promote_interval", "threads")
    #: The options a GPU device takes (the others shape the CPU lowering).
    _GPU_OPTIONS = ("accumulator",)

    def __init__(self, config: LanguageModelConfig, policy: str = _compiler.DEFAULT_POLICY, *, dtype: str = "f32",
                 form: str = "joint", device: str = "cpu", **accumulator_options):
        if not isinstance(config, LanguageModelConfig):
            raise TypeError(f"config must be a LanguageModelConfig, got {type(config).__name__}")
        if policy not in LM_POLICIES:
            raise ValueError(f"unknown policy {policy!r}; expected one of {', '.join(LM_POLICIES)}")
        if dtype not in ("f32", "f64") or (dtype == "f64" and policy != "f32"):
            raise ValueError(f"dtype must be 'f32', or 'f64' with policy 'f32'; got {dtype!r} with {policy!r}")
        if form not in ("joint", "split"):
            raise ValueError(f"form must be 'joint' or 'split', got {form!r}")
        for k in accumulator_options:
            if k not in self._OPTIONS:
                raise ValueError(f"unknown option {k!r}; expected one of {', '.join(self._OPTIONS)}")
        opts = dict(accumulator_options)
        if opts and policy in ("f32", "bf16") and any(k != "threads" for k in opts):
            raise ValueError(f"accumulator options apply to the FP8 policies, not {policy!r}")
        if opts.get("accumulator", "exact") not in ("exact", "sm90", "sm89"):
            raise ValueError(f"accumulator must be exact, sm90 or sm89, got {opts['accumulator']!r}")
        bits = opts.get("accumulator_bits", 0)
        if not isinstance(bits, int) or isinstance(bits, bool) or not 0 <= bits <= 24:
            raise ValueError(f"accumulator_bits must be an integer in [0, 24] (0: not used), got {bits!r}")
        if opts.get("promote_interval", None) not in (None, "none"):
            raise ValueError("promote_interval must be None (the policy's) or 'none', got "
                             f"{opts['promote_interval']!r}")
        if opts.get("promote_interval") == "none":
            _check_promotion(policy)
        if "threads" in opts:
            opts["threads"] = _check_threads(opts["threads"])
        _check_device(device, dtype, opts)
        if device != "cpu" and form != "joint":
            # The residency of the host program lasts one function: the
            # cached activations would cross to the host and back between
            # @forward and @backward.
            raise ValueError(f"form='split' runs on the CPU only (device={device!r} runs the joint step)")
        self.device = device
        self.config = config
        self.policy = policy
        self.dtype = dtype
        self.form = form
        self.accumulator_options = opts
        self.report: Optional[_compiler.Report] = None

    def init(self, seed: int) -> Dict[str, np.ndarray]:
        """Parameters: norm weights 1, the others N(0, 0.02^2) (Llama's
        initializer_range), float32, in `parameter_shapes()` order."""
        rng = np.random.default_rng(seed)
        params = {}
        for name, shape in self.config.parameter_shapes().items():
            if name.endswith("norm.weight"):
                params[name] = np.ones(shape, np.float32)
            else:
                params[name] = (0.02 * rng.standard_normal(shape)).astype(np.float32)
        return params

    def compiled(self, batch: int):
        """The JIT module of the step on `batch` sequences (compiled on
        first use, then cached); sets `self.report` (FP8 policies: the
        fp8-report of the graph, a Report)."""
        batch = _args.size("batch", batch)
        opts = dict(self.accumulator_options, **({"form": "split"} if self.form == "split" else {}))
        key = (self.config, batch, self.policy, self.dtype, tuple(sorted(opts.items())), self.device)
        if key not in _CACHE:
            _CACHE[key] = _compile(self.config, batch, self.policy, self.dtype, opts, self.device)
        module, self.report = _CACHE[key]
        return module

    def _check(self, params, tokens):
        self._check_params(params)
        return self._check_tokens(tokens)

    def _check_params(self, params):
        shapes = self.config.parameter_shapes()
        if not isinstance(params, dict):
            raise TypeError(f"params must be a dict of name -> NumPy array (as init() returns), got "
                            f"{type(params).__name__}")
        if set(params) != set(shapes):
            missing = sorted(set(shapes) - set(params))
            extra = sorted(set(params) - set(shapes), key=str)
            raise ValueError(f"params must hold exactly the model's parameters (missing {missing}, extra {extra})")
        for name, shape in shapes.items():
            _check_parameter(name, params[name], shape)
            if self.dtype == "f32":
                # A float64 weight beyond the f32 range became Inf (a NaN
                # loss) with only NumPy's overflow warning.
                _check_f32_range(params[name], f"params[{name!r}]")

    def _check_tokens(self, tokens):
        tokens = np.asarray(tokens)
        if tokens.ndim != 2 or tokens.shape[1] != self.config.seq + 1 or tokens.shape[0] < 1:
            raise ValueError(f"tokens must be [batch, seq + 1] = [*, {self.config.seq + 1}], got {tokens.shape}")
        if not np.issubdtype(tokens.dtype, np.integer):
            raise ValueError(f"tokens must be integers, got {tokens.dtype}")
        if tokens.min() < 0 or tokens.max() >= self.config.vocab:
            raise ValueError(f"token ids must be in [0, {self.config.vocab}), got [{tokens.min()}, {tokens.max()}]")
        return tokens

    def loss_and_grads(self, params: Dict[str, np.ndarray], tokens: np.ndarray) -> Tuple[float, Dict[str, np.ndarray]]:
        """Mean cross-entropy of predicting tokens[:, 1:] from tokens[:, :-1]
        (`tokens`: integers [batch, seq + 1]) and its gradient for every
        parameter (arrays of the graph's dtype, float32 unless dtype="f64")."""
        tokens = self._check(params, tokens)
        module = self.compiled(tokens.shape[0])
        dt = _np_dtype(self.dtype)
        inputs = np.ascontiguousarray(tokens[:, :-1], dtype=np.int64).reshape(-1)
        targets = np.ascontiguousarray(tokens[:, 1:], dtype=np.int64).reshape(-1)
        names = list(self.config.parameter_shapes())
        ps = [np.ascontiguousarray(params[n], dtype=dt) for n in names]
        loss = np.zeros(1, dt)
        grads = [np.zeros_like(p) for p in ps]
        if self.device == "cpu":
            module.run(inputs, targets, *ps, loss, *grads)
        else:
            module.call_accumulating(self.accumulator_options.get("accumulator"), "run", inputs, targets, *ps, loss,
                                     *grads)
        return float(loss[0]), dict(zip(names, grads))

    def trainer(self, params: Dict[str, np.ndarray], schedule, **adamw):
        """AdamW training from `params` with the weights, the gradients and
        the moments resident on this model's GPU device
        (`fp8_mlir.training.device.DeviceTrainer`; `schedule` and `adamw`
        as `optim.AdamW` takes them): each `step(tokens)` moves the tokens
        in and the loss and the clipping's global norm out, and runs the
        norm and the update as kernels, bit-identical to `loss_and_grads`
        followed by `optim.AdamW.step` on the CPU."""
        return _trainer(self, params, schedule, **adamw)


def _trainer(model, params, schedule, **adamw):
    from .device import DeviceTrainer
    return DeviceTrainer(model, params, schedule, **adamw)


def _check_device(device, dtype, opts):
    """ValueError for a device `LanguageModel` does not know, or a GPU
    device with what only the CPU lowering takes; the GPU backend's
    RuntimeError when its runtime cannot run (checked before anything is
    compiled, as `jit(target=...)` does)."""
    if not isinstance(device, str) or device not in LM_DEVICES:
        raise ValueError(f"device must be one of {', '.join(LM_DEVICES)}, got {device!r}")
    if device == "cpu":
        return
    if dtype != "f32":
        raise ValueError(f"device={device!r} runs the f32 step (dtype='f64' is the CPU's oracle), got dtype={dtype!r}")
    cpu_only = sorted(k for k in opts if k not in LanguageModel._GPU_OPTIONS)
    if cpu_only:
        raise ValueError(f"option {cpu_only[0]!r} shapes the CPU lowering; device={device!r} takes only "
                         f"{', '.join(LanguageModel._GPU_OPTIONS)}")
    if opts.get("accumulator", "exact") == "sm89":
        raise ValueError(f"device={device!r} runs sm_90a kernels: accumulator must be 'exact' or 'sm90', got 'sm89'")
    from .._numerics.emulator import GPU_BACKENDS
    backend = GPU_BACKENDS[device]
    backend.accumulator(opts.get("accumulator"))  # ValueError: not the device's accumulation
    backend.runtime()  # RuntimeError naming what is missing


def _check_parameter(name, value, shape):
    """A parameter: a NumPy array of real floats (any width; converted to
    the graph's type) of `shape`. Anything the conversion would change
    silently is refused: complex values (the imaginary part dropped),
    integers, objects; a nested list is refused too, as AdamW's master
    weights (float32 arrays) would refuse it."""
    if not isinstance(value, np.ndarray):
        raise TypeError(f"params[{name!r}] must be a NumPy array of real floats, got {type(value).__name__}")
    if value.dtype.kind != "f":
        raise ValueError(f"params[{name!r}] must hold real floats (float16/32/64), got dtype {value.dtype}")
    if value.shape != shape:
        raise ValueError(f"params[{name!r}] has shape {value.shape}, expected {shape}")


def saved_activations(config: LanguageModelConfig, batch: int,
                      policy: str = _compiler.DEFAULT_POLICY) -> Dict[str, int]:
    """The activations one training step on `batch` sequences saves for the
    weight gradients, measured on the split step with FP8 activation
    caching under the FP8 `policy` (fp8-report's `cached_activations`: what
    the forward returns as codes + scales): `tensors`, `elements`,
    `bf16_bytes` (the same elements in bf16), `fp8_bytes` (codes + scales),
    `high_bytes` (as the graph stores them, f32). Compiles the graph only
    (no JIT)."""
    if policy not in _compiler.FP8_POLICIES:
        raise ValueError(f"policy must be an FP8 preset ({', '.join(_compiler.FP8_POLICIES)}), got {policy!r}")
    text = lm_training_step(config, _args.size("batch", batch), "f32", split=True)
    return dict(_compile_graph(text, policy, True).report["training"]["cached_activations"])
