"""A float64 NumPy forward of the language model of fp8_mlir.training,
written apart from the graph generator (python/fp8_mlir/training/lm_graph.py)
from Hugging Face's LlamaForCausalLM: the oracle of the loss check and,
through finite differences, of the gradient checks
(test_training_lm.py). Nothing here is imported from fp8_mlir."""

import numpy as np

EPS = 1e-5
THETA = 10000.0


def _rms_norm(x, w):
    return x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + EPS) * w


def _rotate_half(x):
    half = x.shape[-1] // 2
    return np.concatenate([-x[..., half:], x[..., :half]], axis=-1)


def _rotary(seq, head_dim):
    # LlamaRotaryEmbedding: inv_freq = 1 / theta^(arange(0, d, 2) / d).
    inv_freq = 1.0 / THETA ** (np.arange(0, head_dim, 2, dtype=np.float64) / head_dim)
    freqs = np.outer(np.arange(seq, dtype=np.float64), inv_freq)
    emb = np.concatenate([freqs, freqs], axis=-1)
    return np.cos(emb), np.sin(emb)


def _attention(x, p, pre, heads):
    b, s, h = x.shape
    d = h // heads

    def proj(name):
        y = x @ p[f"{pre}.self_attn.{name}_proj.weight"].T
        return y.reshape(b, s, heads, d).transpose(0, 2, 1, 3)  # [b, heads, s, d]

    q, k, v = proj("q"), proj("k"), proj("v")
    cos, sin = _rotary(s, d)
    q = q * cos + _rotate_half(q) * sin
    k = k * cos + _rotate_half(k) * sin
    scores = q @ k.transpose(0, 1, 3, 2) / np.sqrt(d)
    scores = np.where(np.triu(np.ones((s, s), bool), 1), -np.inf, scores)
    scores = scores - scores.max(axis=-1, keepdims=True)
    probs = np.exp(scores)
    probs /= probs.sum(axis=-1, keepdims=True)
    ctx = (probs @ v).transpose(0, 2, 1, 3).reshape(b, s, h)
    return ctx @ p[f"{pre}.self_attn.o_proj.weight"].T


def _mlp(x, p, pre):
    gate = x @ p[f"{pre}.mlp.gate_proj.weight"].T
    up = x @ p[f"{pre}.mlp.up_proj.weight"].T
    return (gate / (1.0 + np.exp(-gate)) * up) @ p[f"{pre}.mlp.down_proj.weight"].T


def loss(params, tokens, layers, heads):
    """Mean cross-entropy of predicting tokens[:, 1:] from tokens[:, :-1]."""
    p = {k: np.asarray(v, np.float64) for k, v in params.items()}
    inputs, targets = tokens[:, :-1], tokens[:, 1:]
    x = p["model.embed_tokens.weight"][inputs]
    for i in range(layers):
        pre = f"model.layers.{i}"
        x = x + _attention(_rms_norm(x, p[f"{pre}.input_layernorm.weight"]), p, pre, heads)
        x = x + _mlp(_rms_norm(x, p[f"{pre}.post_attention_layernorm.weight"]), p, pre)
    logits = _rms_norm(x, p["model.norm.weight"]) @ p["lm_head.weight"].T
    m = logits.max(axis=-1, keepdims=True)
    lse = (m + np.log(np.exp(logits - m).sum(axis=-1, keepdims=True)))[..., 0]
    picked = np.take_along_axis(logits, targets[..., None], axis=-1)[..., 0]
    return float(np.mean(lse - picked))
