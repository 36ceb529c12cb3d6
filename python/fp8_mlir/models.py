"""Model graph generators: linalg-on-tensors MLIR in the style torch-mlir emits.

Two decoder blocks, stacked `num_layers` times in one `func.func @forward`:

- `llama_block`: RMSNorm, RoPE, grouped-query attention, SwiGLU MLP;
- `moe_block`: the same attention with a DeepSeek-V3-style mixture of experts:
  a router linear over the experts (`mlp.gate`) with sigmoid scores, top-k
  selection and normalized gate weights, a shared expert, and the routed
  experts as grouped matmuls (`linalg.batch_matmul` over the expert
  dimension) fed by a GShard-style one-hot dispatch with an expert capacity.

`model` adds the token embedding (a gather, `model.embed_tokens`), the final
norm and the vocabulary projection (`lm_head`).

The layers are those of `fp8_mlir.layers` (shared with the training
steps; the MoE routing and the in-graph RoPE tables are this file's).
Every op that computes (generics, matmuls, transposes, reshapes) carries
a location named like a torch export of a Hugging Face model
(`loc("model.layers.3.mlp.gate")`), every op of a module at the module's
path as torch-mlir locates them, which is what the precision passes match
name overrides against. Linear layers follow the lowering of `nn.Linear`:
the weight is stored `[out, in]`, transposed by `linalg.transpose`, and
multiplied with `linalg.matmul` (`linalg.batch_matmul` for the grouped
experts). Weights are splat constants (`dense<...>`, small
files; distinct values so CSE does not merge them), with
`weights="args"` function arguments located at their parameter names, or
with `weights="flat"` slices of one flat parameter buffer (`%params:
tensor<N x dtype>`, each weight a `tensor.extract_slice` + `expand_shape`
of it, as exporters that flatten the parameters write them). `model`'s
`tie_embeddings=True` makes `lm_head` read the embedding table.

Activations are 2-D `[tokens, hidden]` (batch x sequence flattened, as
`fp8-insert-quant` collapses them anyway). What is simplified: DeepSeek-V3's
multi-head latent attention is modelled as grouped-query attention; its
group-limited routing and bias-corrected top-k are plain top-k on sigmoid
scores (ties at the k-th score select all tied experts); the dispatch drops
tokens beyond an expert's capacity, as GShard does.
"""

from __future__ import annotations

import dataclasses
import math
import re
from typing import List, Optional, Sequence

from . import _args
from .graph import Graph, float_literal, tensor_type
from .layers import Builder, add, attention, embedding, rms_norm, silu_mul, swiglu

__all__ = ["ModelConfig", "llama_block", "moe_block", "model", "mlp_training_step",
           "llama_training_step", "moe_training_step"]


@dataclasses.dataclass(frozen=True)
class ModelConfig:
    """Sizes of a decoder. The defaults are DeepSeek-V3's (config.json of
    deepseek-ai/DeepSeek-V3): hidden 7168, 128 heads of 128, dense MLP 18432,
    MoE intermediate 2048 with 256 routed experts + 1 shared, 8 active, and
    its vocabulary; `tokens` is the number of tokens in the graph (batch x
    sequence)."""

    hidden: int = 7168
    num_heads: int = 128
    num_kv_heads: int = 128
    head_dim: int = 128
    intermediate: int = 18432
    moe_intermediate: int = 2048
    num_experts: int = 256
    num_shared_experts: int = 1
    top_k: int = 8
    routed_scaling: float = 2.5
    capacity_factor: float = 1.0
    tokens: int = 16
    vocab: int = 129280
    rms_eps: float = 1e-6
    rope_theta: float = 10000.0

    @classmethod
    def small(cls, **overrides) -> "ModelConfig":
        """A configuration for tests: every size a multiple of 128 or small,
        2 KV heads shared by 4 query heads, 8 experts with 2 active."""
        sizes = dict(
            hidden=256,
            num_heads=4,
            num_kv_heads=2,
            head_dim=64,
            intermediate=512,
            moe_intermediate=128,
            num_experts=8,
            num_shared_experts=1,
            top_k=2,
            tokens=8,
            vocab=1024,
        )
        sizes.update(overrides)
        return cls(**sizes)

    @classmethod
    def llama3_8b(cls, **overrides) -> "ModelConfig":
        """Llama-3-8B's sizes (hidden 4096, 32 query / 8 KV heads, 14336)."""
        sizes = dict(
            hidden=4096,
            num_heads=32,
            num_kv_heads=8,
            head_dim=128,
            intermediate=14336,
            vocab=128256,
            rope_theta=500000.0,
        )
        sizes.update(overrides)
        return cls(**sizes)

    @property
    def capacity(self) -> int:
        """Tokens per routed expert: ceil(capacity_factor * tokens * top_k /
        num_experts), at least 1 and at most `tokens`."""
        c = math.ceil(self.capacity_factor * self.tokens * self.top_k / self.num_experts)
        return max(1, min(self.tokens, c))

    #: Largest accepted size (fp8_mlir._args: every tensor of the graph, rank
    #: <= 3 in sizes or nh x t x hd, has fewer than 2**63 elements).
    MAX_SIZE = _args.MAX_SIZE
    #: Float parameters are emitted as f32 or bf16 constants: finite and
    #: within both ranges (bf16's max is 3.39e38).
    MAX_FLOAT = _args.MAX_FLOAT

    def validate(self) -> None:
        """Raises ValueError (naming the field and what is accepted) for any
        field that would make the generators emit IR that does not parse or
        does not make sense; TypeError for a field of the wrong type. NumPy
        integers and floats are accepted."""
        self._checked()

    def _checked(self) -> "ModelConfig":
        """The validated configuration with plain Python ints and floats."""
        positive = [
            "hidden", "num_heads", "num_kv_heads", "head_dim", "intermediate",
            "moe_intermediate", "num_experts", "top_k", "tokens", "vocab",
        ]
        values = {}
        for name in positive + ["num_shared_experts"]:
            low = 0 if name == "num_shared_experts" else 1
            values[name] = _args.size(f"ModelConfig.{name}", getattr(self, name), low, type_error=TypeError)
        floats = {
            "routed_scaling": "a finite number",
            "capacity_factor": "a finite number > 0",
            "rms_eps": "a finite number > 0",
            "rope_theta": "a finite number > 0",
        }
        for name, expected in floats.items():
            # Positive ones not flushed to 0 in f32/bf16 (normal range).
            values[name] = _args.real(f"ModelConfig.{name}", getattr(self, name),
                                      f"{expected} within the f32/bf16 range",
                                      positive=name != "routed_scaling", type_error=TypeError)
        self = dataclasses.replace(self, **values)
        if self.num_heads % self.num_kv_heads:
            raise ValueError(
                f"num_heads ({self.num_heads}) must be a multiple of num_kv_heads ({self.num_kv_heads})"
            )
        if self.head_dim % 2:
            raise ValueError(f"head_dim ({self.head_dim}) must be even for RoPE")
        if self.top_k > self.num_experts:
            raise ValueError(f"top_k ({self.top_k}) exceeds num_experts ({self.num_experts})")
        if self.num_shared_experts * self.moe_intermediate > self.MAX_SIZE:
            raise ValueError(
                f"num_shared_experts x moe_intermediate ({self.num_shared_experts} x "
                f"{self.moe_intermediate}) must be at most {self.MAX_SIZE} (the shared expert's width)"
            )
        return self


_ELEMENT_TYPES = ("f32", "bf16")
#: Most layers a generator stacks (DeepSeek-V3 has 61): every layer is a few
#: hundred lines of IR.
_MAX_LAYERS = 4096


class _Model(Builder):
    """A model's `Graph` (`g`) with its weights as `weights` says
    ("constants": distinct splats; "args": function arguments; "flat":
    slices of one flat `%params` buffer). Its layers (`fp8_mlir.layers`)
    locate every op of a module at the module's path, as torch-mlir does
    (`sublocations` False)."""

    sublocations = False

    def __init__(self, et: str, weights: str):
        super().__init__(Graph(et))
        self.et = et
        self.weights = weights
        self.weight_index = 0
        self.flat_size = 0  # elements of the flat parameter buffer so far
        self.table: Optional[str] = None  # the embedding table, once emitted

    # -- weights ----------------------------------------------------------------

    def param(self, shape: Sequence[int], name: str) -> str:
        """A new weight of `shape` located at `name`."""
        if self.weights == "args":
            return self.g.parameter(shape, name)
        if self.weights == "flat":
            return self._flat_weight(shape, name)
        # Distinct splat values keep CSE from merging equal-shaped weights,
        # as it would merge the BERT export's identical splats.
        self.weight_index += 1
        value = 0.01 + 0.0001 * (self.weight_index % 997)
        ssa = f"%p{self.weight_index}"
        self.g.prologue.append(f'    {ssa} = arith.constant dense<{float_literal(value)}> : '
                               f'{self.g.ty(*shape)} loc("{name}")')
        return ssa

    def _flat_weight(self, shape: Sequence[int], name: str) -> str:
        """The next `prod(shape)` elements of `%params`, viewed as `shape`.
        The buffer's size is known once every weight is laid out: the view
        is written then (`prologue_lines`)."""
        n = math.prod(shape)
        self.weight_index += 1
        ssa = f"%p{self.weight_index}"
        offset = self.flat_size
        self.flat_size += n
        et = self.et

        def view() -> str:
            lines = [f"    {ssa}_flat = tensor.extract_slice %params[{offset}] [{n}] [1] : "
                     f'{tensor_type([self.flat_size], et)} to {tensor_type([n], et)} loc("{name}")']
            if len(shape) > 1:
                group = ", ".join(str(i) for i in range(len(shape)))
                lines.append(f"    {ssa} = tensor.expand_shape {ssa}_flat [[{group}]] output_shape "
                             f"[{', '.join(str(d) for d in shape)}] : {tensor_type([n], et)} into "
                             f'{tensor_type(shape, et)} loc("{name}")')
            return "\n".join(lines)

        self.g.prologue.append(view)
        return ssa if len(shape) > 1 else f"{ssa}_flat"

    def prologue_lines(self) -> List[str]:
        return [p() if callable(p) else p for p in self.g.prologue]


# ---------------------------------------------------------------------------
# What only the model graphs have (the shared layers: fp8_mlir.layers)
# ---------------------------------------------------------------------------


def _rope_tables(e: _Model, cfg: ModelConfig):
    """cos/sin [tokens, head_dim] from positions 0..tokens-1 (HF rotary_emb:
    inv_freq_i = theta^(-2i/d), the two halves share frequencies), computed
    in the graph."""
    t, d = cfg.tokens, cfg.head_dim
    g, et = e.g, e.et
    log_theta = float_literal(-2.0 * math.log(cfg.rope_theta) / d)

    def table(fn):
        body = [f"%half = arith.constant {d // 2} : index", f"%lt = arith.constant {log_theta} : {et}",
                "%p = linalg.index 0 : index", "%i = linalg.index 1 : index",
                "%im = arith.remui %i, %half : index", "%ii = arith.index_cast %im : index to i64",
                "%pi = arith.index_cast %p : index to i64",
                f"%fi = arith.sitofp %ii : i64 to {et}", f"%fp = arith.sitofp %pi : i64 to {et}",
                f"%f = arith.mulf %fi, %lt : {et}", f"%ex = math.exp %f : {et}",
                f"%a = arith.mulf %fp, %ex : {et}", f"%r = math.{fn} %a : {et}", f"linalg.yield %r : {et}"]
        return g.generic([], (t, d), ["d0", "d1"], ["parallel", "parallel"], body, "model.rotary_emb")

    return table("cos"), table("sin")


def _moe(e: _Model, x, cfg: ModelConfig, prefix):
    """DeepSeek-V3 MoE (DeepseekV3MoE): router `mlp.gate` with sigmoid
    scores and top-k, normalized and scaled gate weights; routed experts as
    grouped matmuls over a one-hot dispatch with capacity C; a shared
    expert."""
    g, et = e.g, e.et
    t, h, n_e, k, c = cfg.tokens, cfg.hidden, cfg.num_experts, cfg.top_k, cfg.capacity
    inter = cfg.moe_intermediate
    name = f"{prefix}.mlp"
    gate = f"{name}.gate"
    one = f"%one = arith.constant 1.0 : {et}"
    zero = f"%zero = arith.constant 0.0 : {et}"
    big = float_literal(3.0e38)  # +-big: no score reaches it (sigmoid scores are in [0, 1])
    te, tf = ["d0", "d1"], ["d0"]

    logits, _ = e.linear(x, t, h, n_e, gate)
    scores = g.elementwise([logits], (t, n_e), [one, f"%n = arith.negf %b0 : {et}", f"%e = math.exp %n : {et}",
                                                f"%d = arith.addf %e, %one : {et}", f"%r = arith.divf %one, %d : {et}",
                                                f"linalg.yield %r : {et}"], gate)

    # Top-k threshold: the k-th largest score per token, by k masked maxima.
    prev = g.zeros((t,), big)
    for _ in range(k):
        init = g.zeros((t,), f"-{big}")
        prev = g.generic([(scores, (t, n_e), te), (prev, (t,), tf)], (t,), tf, ["parallel", "reduction"],
                         [f"%neg = arith.constant -{big} : {et}", f"%c = arith.cmpf olt, %b0, %b1 : {et}",
                          f"%s = arith.select %c, %b0, %neg : {et}", f"%r = arith.maximumf %s, %bo : {et}",
                          f"linalg.yield %r : {et}"], gate, init=init)
    mask = g.elementwise([scores, (prev, (t,), tf)], (t, n_e),
                         [one, zero, f"%c = arith.cmpf oge, %b0, %b1 : {et}",
                          f"%r = arith.select %c, %one, %zero : {et}", f"linalg.yield %r : {et}"], gate)
    picked = g.elementwise([scores, mask], (t, n_e), [f"%r = arith.mulf %b0, %b1 : {et}", f"linalg.yield %r : {et}"],
                           gate)
    denom = g.reduce_last([picked], (t, n_e), [f"%r = arith.addf %b0, %bo : {et}", f"linalg.yield %r : {et}"], gate)
    weights = g.elementwise([picked, (denom, (t,), tf)], (t, n_e),
                            [f"%s = arith.constant {float_literal(cfg.routed_scaling)} : {et}",
                             f"%d = arith.divf %b0, %b1 : {et}", f"%r = arith.mulf %d, %s : {et}",
                             f"linalg.yield %r : {et}"], gate)

    # Slot of each token in its expert's buffer: the number of earlier
    # tokens routed to the same expert (an exclusive prefix sum over tokens).
    pos = g.generic([(mask, (t, n_e), ["d2", "d1"])], (t, n_e), te, ["parallel", "parallel", "reduction"],
                    [zero, "%i = linalg.index 0 : index", "%j = linalg.index 2 : index",
                     "%c = arith.cmpi ult, %j, %i : index", f"%s = arith.select %c, %b0, %zero : {et}",
                     f"%r = arith.addf %s, %bo : {et}", f"linalg.yield %r : {et}"], name, init=g.zeros((t, n_e), "0.0"))

    # One-hot dispatch [E, C, T]: token t goes to slot c of expert e.
    dispatch = g.generic([(mask, (t, n_e), ["d2", "d0"]), (pos, (t, n_e), ["d2", "d0"])], (n_e, c, t),
                         ["d0", "d1", "d2"], ["parallel"] * 3,
                         [zero, "%ci = linalg.index 1 : index", "%cc = arith.index_cast %ci : index to i64",
                          f"%cf = arith.sitofp %cc : i64 to {et}", f"%q = arith.cmpf oeq, %b1, %cf : {et}",
                          f"%s = arith.select %q, %b0, %zero : {et}", f"linalg.yield %s : {et}"], f"{name}.dispatch")
    mac = [f"%m = arith.mulf %b0, %b1 : {et}", f"%s = arith.addf %m, %bo : {et}", f"linalg.yield %s : {et}"]
    xe = g.generic([(dispatch, (n_e, c, t), ["d0", "d1", "d3"]), (x, (t, h), ["d3", "d2"])], (n_e, c, h),
                   ["d0", "d1", "d2"], ["parallel", "parallel", "parallel", "reduction"], mac, f"{name}.dispatch",
                   init=g.zeros((n_e, c, h), "0.0"))

    # Routed experts: grouped GEMMs, weights [E, out, in] as torch stacks
    # them, transposed for linalg.batch_matmul.
    experts = f"{name}.experts"

    def grouped(inp, k_dim, n_dim, proj):
        w = e.param([n_e, n_dim, k_dim], f"{experts}.{proj}.weight")
        wt = g.transpose(w, (n_e, n_dim, k_dim), (0, 2, 1), f"{experts}.{proj}")
        return g.batch_matmul(inp, wt, n_e, c, k_dim, n_dim, f"{experts}.{proj}")

    gt = grouped(xe, h, inter, "gate_proj")
    up = grouped(xe, h, inter, "up_proj")
    act = silu_mul(g, gt, up, (n_e, c, inter), f"{experts}.act_fn")
    ye = grouped(act, inter, h, "down_proj")

    # Combine: y[t, h] = sum_{e, c} dispatch[e, c, t] * weight[t, e] * ye[e, c, h].
    routed = g.generic([(dispatch, (n_e, c, t), ["d2", "d3", "d0"]), (weights, (t, n_e), ["d0", "d2"]),
                        (ye, (n_e, c, h), ["d2", "d3", "d1"])], (t, h), te,
                       ["parallel", "parallel", "reduction", "reduction"],
                       [f"%m1 = arith.mulf %b0, %b1 : {et}", f"%m2 = arith.mulf %m1, %b2 : {et}",
                        f"%s = arith.addf %m2, %bo : {et}", f"linalg.yield %s : {et}"], f"{name}.combine",
                       init=g.zeros((t, h), "0.0"))
    if cfg.num_shared_experts == 0:
        return routed
    shared, _ = swiglu(e, x, t, h, inter * cfg.num_shared_experts, f"{name}.shared_experts")
    return add(g, routed, shared, (t, h), name)


def _norm(e: _Model, x, t, h, eps, name):
    """RMSNorm with its weight `name.weight`."""
    return rms_norm(e, x, e.param([h], f"{name}.weight"), t, h, eps, name)[0]


def _decoder_layer(e: _Model, x, cfg: ModelConfig, index: int, mlp: str, cos, sin):
    t, h = cfg.tokens, cfg.hidden
    prefix = f"model.layers.{index}"
    n1 = _norm(e, x, t, h, cfg.rms_eps, f"{prefix}.input_layernorm")
    attn, _ = attention(e, n1, t, h, cfg.num_heads, f"{prefix}.self_attn", rope_tables=(cos, sin),
                        num_kv_heads=cfg.num_kv_heads, head_dim=cfg.head_dim)
    r1 = add(e.g, x, attn, (t, h), prefix)
    n2 = _norm(e, r1, t, h, cfg.rms_eps, f"{prefix}.post_attention_layernorm")
    if mlp == "moe":
        m = _moe(e, n2, cfg, prefix)
    else:
        m, _ = swiglu(e, n2, t, h, cfg.intermediate, f"{prefix}.mlp")
    return add(e.g, r1, m, (t, h), prefix)


def _build(
    cfg: Optional[ModelConfig],
    num_layers: int,
    mlp: str,
    *,
    weights: str,
    dtype: str,
    func_name: str,
    embed: bool,
    lm_head: bool,
    first_dense_layers: int = 0,
    tie_embeddings: bool = False,
) -> str:
    cfg = ModelConfig() if cfg is None else cfg
    if not isinstance(cfg, ModelConfig):
        raise TypeError(f"config must be a fp8_mlir.models.ModelConfig or None, got {type(cfg).__name__}")
    cfg = cfg._checked()
    num_layers = _args.size("num_layers", num_layers, 1, _MAX_LAYERS)
    _args.choice("weights", weights, ("constants", "args", "flat"))
    tie_embeddings = _args.flag("tie_embeddings", tie_embeddings, type_error=TypeError)
    _args.choice("dtype", dtype, _ELEMENT_TYPES)
    # An MLIR bare identifier for the symbol (@forward).
    if not isinstance(func_name, str) or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_$.]*", func_name):
        raise ValueError(
            f"func_name must be an identifier ([A-Za-z_][A-Za-z0-9_$.]*), got {func_name!r}"
        )
    first_dense_layers = _args.size("first_dense_layers", first_dense_layers, 0, _MAX_LAYERS)

    e = _Model(dtype, weights)
    t, h = cfg.tokens, cfg.hidden
    if embed:
        x_in = "%input_ids"
        x, e.table = embedding(e, x_in, t, cfg.vocab, h, "model.embed_tokens")
        in_ty = f"tensor<{t}xi64>"
    else:
        x_in = "%hidden_states"
        x = x_in
        in_ty = e.g.ty(t, h)
    cos, sin = _rope_tables(e, cfg)
    for i in range(num_layers):
        kind = "dense" if (mlp == "moe" and i < first_dense_layers) else mlp
        x = _decoder_layer(e, x, cfg, i, kind, cos, sin)
    out_ty = e.g.ty(t, h)
    if lm_head:
        x = _norm(e, x, t, h, cfg.rms_eps, "model.norm")
        x, _ = e.linear(x, t, h, cfg.vocab, "lm_head", weight=e.table if tie_embeddings else None)
        out_ty = e.g.ty(t, cfg.vocab)

    args = [f"{x_in}: {in_ty}"] + e.g.parameter_declarations()
    if weights == "flat":
        args.append(f'%params: tensor<{e.flat_size}x{dtype}> loc("params")')
    kind = "MoE" if mlp == "moe" else "Llama"
    header = [
        f"// Generated by fp8_mlir.models: {num_layers} {kind} decoder layer(s), {cfg}",
        "// linalg on tensors in torch-mlir style; loc names follow the torch module paths.",
        'module attributes {torch.debug_module_name = "fp8_mlir.models"} {',
        f"  func.func @{func_name}({', '.join(args)}) -> {out_ty} {{",
    ]
    body = e.prologue_lines() + e.g.lines + [f"    return {x} : {out_ty}", "  }", "}", ""]
    return "\n".join(header + body)


def llama_block(
    config: Optional[ModelConfig] = None,
    num_layers: int = 1,
    *,
    weights: str = "constants",
    dtype: str = "f32",
    func_name: str = "forward",
) -> str:
    """`num_layers` Llama-style decoder layers (RMSNorm, RoPE, GQA attention,
    SwiGLU MLP of `config.intermediate`) as `func.func @forward(%hidden_states:
    tensor<tokens x hidden x dtype>) -> same`. `config` defaults to
    DeepSeek-V3's sizes (its dense layers); `dtype` is f32 or bf16;
    `weights` is "constants" (splats), "args" or "flat" (slices of one buffer)."""
    return _build(config, num_layers, "dense", weights=weights, dtype=dtype, func_name=func_name,
                  embed=False, lm_head=False)


def moe_block(
    config: Optional[ModelConfig] = None,
    num_layers: int = 1,
    *,
    weights: str = "constants",
    dtype: str = "f32",
    func_name: str = "forward",
    first_dense_layers: int = 0,
) -> str:
    """`num_layers` DeepSeek-V3-style MoE decoder layers (RMSNorm, GQA
    attention, router + top-k, shared and routed experts), the first
    `first_dense_layers` of them with a dense MLP instead (DeepSeek-V3 has 3).
    Same signature conventions as `llama_block`."""
    return _build(config, num_layers, "moe", weights=weights, dtype=dtype, func_name=func_name,
                  embed=False, lm_head=False, first_dense_layers=first_dense_layers)


def model(
    config: Optional[ModelConfig] = None,
    num_layers: int = 1,
    *,
    mlp: str = "moe",
    weights: str = "constants",
    dtype: str = "f32",
    func_name: str = "forward",
    first_dense_layers: int = 0,
    tie_embeddings: bool = False,
) -> str:
    """A whole decoder model: `model.embed_tokens` (gather) on
    `%input_ids: tensor<tokens x i64>`, `num_layers` layers with a "moe" or
    "dense" MLP, `model.norm` and `lm_head` to `tensor<tokens x vocab>`
    (reading the embedding table when `tie_embeddings`)."""
    _args.choice("mlp", mlp, ("moe", "dense"))
    return _build(config, num_layers, mlp, weights=weights, dtype=dtype, func_name=func_name,
                  embed=True, lm_head=True, first_dense_layers=first_dense_layers,
                  tie_embeddings=tie_embeddings)


# -- training graphs -----------------------------------------------------------


def mlp_training_step(tokens: int, sizes: Sequence[int], split: bool = False,
                      lr: Optional[float] = None, flat: bool = False, tangent: bool = False,
                      relu: bool = True, input_grad: bool = False) -> str:
    """One training step of an MLP (`nn.Linear` layers without bias, ReLU
    between them) with a mean-squared-error loss, in the form aot_autograd
    exports: weights `[out, in]` passed as arguments (`layers.<i>.weight`),
    `linalg.transpose` + `linalg.matmul` for `Y = X * W^T`, and in the
    backward `dX = dY * W`, `dW = dY^T * X` (transpose + matmul), ReLU's
    gradient as a select on the saved ReLU output. The first layer's input
    needs no gradient, so it has no dgrad.

    `split=False`: one function `@train_step(%x, %target, %w0, ...)
    -> (y, dw0, ...)` with the loss gradient `dY = 2 (Y - target) / numel`
    computed in the graph (a joint graph). With `lr`, the graph also applies
    the SGD update and returns the new weights instead of the gradients.

    `split=True`: `@forward(%x, %w0, ...) -> (y, x, h1, ...)` returning the
    activations saved for the backward, and `@backward(%x, %h1, ..., %w0,
    ..., %dy) -> (dw0, ...)` with the incoming gradient dY as the last
    argument (a tangent).

    `flat=True`: the weights are slices of one flat argument `%params:
    tensor<N x f32>` (`tensor.extract_slice` + `tensor.expand_shape` each,
    in layer order) instead of one argument each; with `lr` the graph
    returns the updated weights, as with separate arguments.

    `tangent=True` (joint graph only): the loss gradient dY is the last
    argument `%dy` (aot_autograd's tangent) instead of being computed from a
    `%target`. `relu=False`: no ReLU between the layers (a plain chain of
    linears). `input_grad=True`: the first layer's dgrad dX is computed
    too and returned right after Y (joint) or first (split backward).

    Sizes are Python or NumPy integers in [1, 2**20] (at most 4097 of
    them); `lr` a finite number in [1e-12, 1e3]; ValueError otherwise."""
    flat = _args.flag("flat", flat, type_error=TypeError)
    tangent = _args.flag("tangent", tangent, type_error=TypeError)
    relu = _args.flag("relu", relu, type_error=TypeError)
    input_grad = _args.flag("input_grad", input_grad, type_error=TypeError)
    tokens = _args.size("tokens", tokens)
    sizes = _args.sizes("sizes", sizes, 2, _MAX_LAYERS + 1)
    split = _args.flag("split", split)
    if tangent and split:
        raise ValueError("tangent=True is the joint graph's option (a split backward always takes dY)")
    if lr is not None:
        lr = _args.learning_rate(lr)
    t, n = tokens, len(sizes) - 1
    g = Graph("f32")
    et, ty = g.et, g.ty

    def matmul(a, b, m, k, nn, loc):
        acc = g.fill(g.empty((m, nn)), "%zero", (m, nn))
        return g.matmul(a, b, m, k, nn, loc, acc=acc)

    def transpose(a, r0, c0):
        return g.transpose(a, (r0, c0), (1, 0))

    def elementwise(ins, shape, body, loc):
        return g.elementwise(ins, shape, body, loc, block_args=("%a", "%o"))

    def forward(x, ws):
        acts = [x]  # the input of each layer
        h = x
        for i in range(n):
            wt = transpose(ws[i], sizes[i + 1], sizes[i])
            h = matmul(h, wt, t, sizes[i], sizes[i + 1], f"layers.{i}")
            if i + 1 < n and relu:
                h = elementwise([h], (t, sizes[i + 1]),
                                [f"%c0 = arith.constant 0.0 : {et}", f"%m = arith.maximumf %a0, %c0 : {et}",
                                 f"linalg.yield %m : {et}"], f"layers.{i}.relu")
            if i + 1 < n:
                acts.append(h)
        return h, acts

    def backward(acts, ws, dy):
        """The weight gradients, preceded by the input's gradient with
        `input_grad`."""
        grads = [None] * n
        dx = None
        for i in reversed(range(n)):
            if i > 0 or input_grad:  # dX of this layer feeds the layer below
                dx = matmul(dy, ws[i], t, sizes[i + 1], sizes[i], f"layers.{i}.dgrad")
            dyt = transpose(dy, t, sizes[i + 1])
            grads[i] = matmul(dyt, acts[i], sizes[i + 1], t, sizes[i], f"layers.{i}.wgrad")
            if i > 0 and not relu:
                dy = dx
            elif i > 0:
                # ReLU's gradient from its saved output (threshold_backward).
                dy = elementwise([dx, acts[i]], (t, sizes[i]),
                                 [f"%c0 = arith.constant 0.0 : {et}",
                                  f"%p = arith.cmpf ogt, %a1, %c0 : {et}",
                                  f"%s = arith.select %p, %a0, %c0 : {et}", f"linalg.yield %s : {et}"],
                                 f"layers.{i - 1}.relu.grad")
        return ([dx] if input_grad else []) + grads

    wargs = [f"%w{i}: {ty(sizes[i + 1], sizes[i])} loc(\"layers.{i}.weight\")" for i in range(n)]
    ws = [f"%w{i}" for i in range(n)]
    if flat:
        total = sum(sizes[i + 1] * sizes[i] for i in range(n))
        wargs = [f'%params: {ty(total)} loc("params")']

    def flat_views():
        """%w<i> as views of %params, at the top of a function body."""
        offset = 0
        for i in range(n):
            size = sizes[i + 1] * sizes[i]
            g.extract_slice("%params", (total,), [offset], [size], f"layers.{i}.weight", name=f"%w{i}_flat")
            g.expand_shape(f"%w{i}_flat", (size,), [[0, 1]], (sizes[i + 1], sizes[i]), name=f"%w{i}")
            offset += size

    out = ["module {"]
    if not split:
        if flat:
            flat_views()
        g.constant("0.0", name="%zero")
        y, acts = forward("%x", ws)
        scale = 2.0 / (t * sizes[-1])
        dy = "%dy" if tangent else elementwise(
            [y, "%target"], (t, sizes[-1]),
            [f"%c = arith.constant {_args.f32_literal(scale)} : {et}", f"%d = arith.subf %a0, %a1 : {et}",
             f"%g = arith.mulf %d, %c : {et}", f"linalg.yield %g : {et}"], "loss.grad")
        grads = backward(acts, ws, dy)
        results = [y] + grads[:1] * input_grad
        grads = grads[1:] if input_grad else grads
        if lr is None:
            results += grads
        else:
            for i in range(n):
                results.append(elementwise([ws[i], grads[i]], (sizes[i + 1], sizes[i]),
                                           [f"%c = arith.constant {_args.f32_literal(lr)} : {et}",
                                            f"%u = arith.mulf %a1, %c : {et}", f"%r = arith.subf %a0, %u : {et}",
                                            f"linalg.yield %r : {et}"], f"layers.{i}.sgd"))
        rtys = [ty(t, sizes[-1])] + [ty(t, sizes[0])] * input_grad + \
            [ty(sizes[i + 1], sizes[i]) for i in range(n)]
        loss_args = [f"%dy: {ty(t, sizes[-1])}"] if tangent else []
        target = [] if tangent else [f"%target: {ty(t, sizes[-1])}"]
        out.append(f"  func.func @train_step({', '.join([f'%x: {ty(t, sizes[0])}'] + target + wargs + loss_args)}) "
                   f"-> ({', '.join(rtys)}) {{")
        out += g.lines
        out.append(f"    return {', '.join(results)} : {', '.join(rtys)}")
        out.append("  }")
    else:
        g.part = "forward"
        if flat:
            flat_views()
        g.constant("0.0", name="%zero")
        y, acts = forward("%x", ws)
        saved_tys = [ty(t, sizes[i]) for i in range(n)]
        rtys = [ty(t, sizes[-1])] + saved_tys
        out.append(f"  func.func @forward(%x: {ty(t, sizes[0])}, {', '.join(wargs)}) -> ({', '.join(rtys)}) {{")
        out += g.part_lines("forward")
        out.append(f"    return {', '.join([y] + acts)} : {', '.join(rtys)}")
        out.append("  }")
        # The backward is a function of its own: the views and the zero again.
        g.part = "backward"
        if flat:
            flat_views()
        g.constant("0.0", name="%zero")
        saved = [f"%s{i}" for i in range(n)]
        grads = backward(saved, ws, "%dy")
        gtys = [ty(t, sizes[0])] * input_grad + [ty(sizes[i + 1], sizes[i]) for i in range(n)]
        sargs = [f"%s{i}: {saved_tys[i]}" for i in range(n)]
        out.append(f"  func.func @backward({', '.join(sargs)}, {', '.join(wargs)}, %dy: {ty(t, sizes[-1])}) "
                   f"-> ({', '.join(gtys)}) {{")
        out += g.part_lines("backward")
        out.append(f"    return {', '.join(grads)} : {', '.join(gtys)}")
        out.append("  }")
    out.append("}")
    return "\n".join(out) + "\n"


# The blocks' training steps live in their own file (one concern per file).
from .training_graphs import llama_training_step, moe_training_step  # noqa: E402,F401
