"""The generated graphs compute what they claim: each block, lowered with
upstream passes and run through the JIT, against an FP64 NumPy
implementation of the Hugging Face modules written here (RMSNorm, RoPE,
grouped-query causal attention, SwiGLU, DeepSeek-V3 MoE routing with
GShard capacity)."""

import re

import numpy as np
import pytest

import fp8_mlir
from fp8_mlir import models
from fp8_mlir.models import ModelConfig

# Tensor graph -> LLVM with upstream passes only (no fp8 ops involved).
LOWER = (
    "one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},"
    "convert-linalg-to-loops,expand-strided-metadata,lower-affine,convert-scf-to-cf,"
    "convert-math-to-llvm,convert-to-llvm,reconcile-unrealized-casts"
)


def run_graph(text, rng):
    """JIT `@forward` through a destination-style wrapper; random weights by
    parameter name. Returns (output, {name: float64 weight}, input)."""
    head = text[text.index("func.func @forward(") :]
    head = head[: head.index("{")]
    args = re.findall(r'(%\w+): (tensor<[^>]*>)(?: loc\("([^"]+)"\))?', head)
    result = re.search(r"\) -> (tensor<[^>]*>) $", head).group(1)

    def memref(t):
        return t.replace("tensor<", "memref<")

    lines = [
        "  func.func @run(" + ", ".join(f"%a{i}: {memref(t)}" for i, (_, t, _) in enumerate(args))
        + f", %out: {memref(result)}) {{"
    ]
    for i, (_, t, _) in enumerate(args):
        lines.append(f"    %t{i} = bufferization.to_tensor %a{i} restrict : {memref(t)} to {t}")
    lines.append(
        f"    %r = func.call @forward({', '.join(f'%t{i}' for i in range(len(args)))}) : "
        f"({', '.join(t for _, t, _ in args)}) -> {result}"
    )
    lines.append(f"    bufferization.materialize_in_destination %r in restrict writable %out : ({result}, {memref(result)}) -> ()")
    lines.append("    return\n  }")
    wrapped = text.rstrip()[:-1] + "\n".join(lines) + "\n}\n"
    module = fp8_mlir.jit(wrapped, LOWER)

    values, weights = [], {}
    for _, t, name in args:
        shape = tuple(int(d) for d in re.findall(r"(\d+)x", t))
        if not name:  # the hidden states
            a = rng.standard_normal(shape).astype(np.float32)
        elif name.endswith("layernorm.weight"):
            a = (1.0 + 0.2 * rng.standard_normal(shape)).astype(np.float32)
        else:
            a = (rng.standard_normal(shape) / np.sqrt(shape[-1])).astype(np.float32)
        values.append(a)
        weights[name] = a.astype(np.float64)
    out = np.zeros(tuple(int(d) for d in re.findall(r"(\d+)x", result)), np.float32)
    module.run(*values, out)
    return out, weights, values[0].astype(np.float64)


class Reference:
    """FP64 forward pass of the Hugging Face Llama / DeepSeek-V3 modules."""

    def __init__(self, cfg, w):
        self.cfg, self.w = cfg, w

    def rms(self, x, name):
        return x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + self.cfg.rms_eps) * self.w[name + ".weight"]

    def rope(self, q):
        d, t = self.cfg.head_dim, self.cfg.tokens
        inv = self.cfg.rope_theta ** (-np.arange(0, d, 2) / d)
        ang = np.arange(t)[:, None] * inv[None, :]
        ang = np.concatenate([ang, ang], -1)
        rot = np.concatenate([-q[..., d // 2 :], q[..., : d // 2]], -1)
        return q * np.cos(ang) + rot * np.sin(ang)

    def attention(self, x, p):
        c, w = self.cfg, self.w
        t, nh, nkv, hd = c.tokens, c.num_heads, c.num_kv_heads, c.head_dim

        def heads(name, n):
            return (x @ w[f"{p}.{name}.weight"].T).reshape(t, n, hd).transpose(1, 0, 2)

        q, k, v = self.rope(heads("q_proj", nh)), self.rope(heads("k_proj", nkv)), heads("v_proj", nkv)
        k, v = np.repeat(k, nh // nkv, axis=0), np.repeat(v, nh // nkv, axis=0)
        s = q @ k.transpose(0, 2, 1) / np.sqrt(hd)
        s = np.where(np.triu(np.ones((t, t)), 1) > 0, -np.inf, s)
        s = np.exp(s - s.max(-1, keepdims=True))
        s /= s.sum(-1, keepdims=True)
        o = (s @ v).transpose(1, 0, 2).reshape(t, nh * hd)
        return o @ w[f"{p}.o_proj.weight"].T

    @staticmethod
    def swiglu(x, wg, wu, wd):
        g, u = x @ wg.T, x @ wu.T
        return (g / (1 + np.exp(-g)) * u) @ wd.T

    def mlp(self, x, p):
        w = self.w
        return self.swiglu(x, w[f"{p}.gate_proj.weight"], w[f"{p}.up_proj.weight"], w[f"{p}.down_proj.weight"])

    def moe(self, x, p):
        c, w = self.cfg, self.w
        scores = 1 / (1 + np.exp(-(x @ w[f"{p}.gate.weight"].T)))
        y = np.zeros_like(x)
        routed = np.zeros(c.num_experts, int)  # tokens routed so far, dropped ones included
        ex = f"{p}.experts"
        for t in range(c.tokens):
            top = np.argsort(-scores[t])[: c.top_k]
            gate = scores[t, top] / scores[t, top].sum() * c.routed_scaling
            for e, g in zip(top, gate):
                if routed[e] < c.capacity:  # GShard: beyond capacity, dropped
                    y[t] += g * self.swiglu(x[t : t + 1], w[f"{ex}.gate_proj.weight"][e],
                                            w[f"{ex}.up_proj.weight"][e], w[f"{ex}.down_proj.weight"][e])[0]
                routed[e] += 1
        if c.num_shared_experts:
            y += self.mlp(x, f"{p}.shared_experts")
        return y

    def layer(self, x, i, kind):
        p = f"model.layers.{i}"
        h = x + self.attention(self.rms(x, f"{p}.input_layernorm"), f"{p}.self_attn")
        n = self.rms(h, f"{p}.post_attention_layernorm")
        return h + (self.moe(n, f"{p}.mlp") if kind == "moe" else self.mlp(n, f"{p}.mlp"))


def rel_err(out, ref):
    return np.max(np.abs(out - ref)) / np.max(np.abs(ref))


def test_llama_block_matches_reference():
    cfg = ModelConfig.small()
    out, w, x = run_graph(models.llama_block(cfg, 2, weights="args"), np.random.default_rng(0))
    ref = Reference(cfg, w)
    expect = ref.layer(ref.layer(x, 0, "dense"), 1, "dense")
    assert rel_err(out, expect) < 1e-5


@pytest.mark.parametrize("overrides", [{}, {"num_shared_experts": 0, "num_kv_heads": 4, "capacity_factor": 4.0}])
def test_moe_block_matches_reference(overrides):
    cfg = ModelConfig.small(**overrides)
    out, w, x = run_graph(models.moe_block(cfg, 1, weights="args"), np.random.default_rng(1))
    ref = Reference(cfg, w)
    expect = ref.layer(x, 0, "moe")
    assert rel_err(out, expect) < 1e-5


def test_moe_capacity_drops_tokens():
    # With capacity 1 some routed tokens are dropped: the result differs from
    # a generous capacity, and the reference follows the drop rule exactly.
    cfg = ModelConfig.small(capacity_factor=0.5)
    assert cfg.capacity == 1
    out, w, x = run_graph(models.moe_block(cfg, 1, weights="args"), np.random.default_rng(2))
    ref = Reference(cfg, w)
    assert rel_err(out, ref.layer(x, 0, "moe")) < 1e-5
    generous = Reference(ModelConfig.small(capacity_factor=4.0), w)
    assert rel_err(out, generous.layer(x, 0, "moe")) > 1e-3
