"""The language model's compiled training step (fp8_mlir.training) against
oracles independent of its hand-written backward:

- the loss of the compiled forward equals a float64 NumPy forward written
  apart from the generator (lm_reference.py);
- the gradients of the graph compiled in float64 equal central finite
  differences (Richardson-extrapolated) of that NumPy forward along a random
  direction of every parameter tensor, embedding included;
- the float32 graph's gradients equal the float64 graph's;
- under an FP8 policy, the passes recognise the Fprop, Dgrad and Wgrad of
  every linear of the blocks and keep the embedding, the head, the norms and
  attention high.

A wrong sign, a missing transpose or a dropped term in any op's backward
moves a directional derivative far beyond the tolerance (the mutants T01..
of scripts/mutation/mutants.txt plant such faults)."""

import numpy as np
import pytest

from fp8_mlir.training import LanguageModel, LanguageModelConfig

import lm_reference
from conftest import require_passes

pytestmark = require_passes("fp8-pipeline", "fp8-cpu-pipeline")

RNG = np.random.default_rng(0)
# Tiny: two layers (the residual stream between blocks), two heads of 16.
CFG = LanguageModelConfig(vocab=64, layers=2, hidden=32, heads=2, intermediate=64, seq=8)
BATCH = 2


def _point(cfg=CFG, scale=0.3):
    """A generic point: weights large enough that no term is negligible,
    norm weights away from 1."""
    params = {}
    for name, shape in cfg.parameter_shapes().items():
        if name.endswith("norm.weight"):
            params[name] = 1.0 + 0.5 * RNG.standard_normal(shape)
        else:
            params[name] = scale * RNG.standard_normal(shape)
    tokens = RNG.integers(0, cfg.vocab, size=(BATCH, cfg.seq + 1))
    # A token repeated within a sequence and across the batch: its
    # embedding gradient sums rows (the scatter-add accumulates).
    tokens[0, 5] = tokens[1, 2] = tokens[0, 1]
    return params, tokens


def _ref_loss(params, tokens, cfg=CFG):
    return lm_reference.loss(params, tokens, cfg.layers, cfg.heads)


def test_parameters_and_init():
    model = LanguageModel(CFG, policy="f32")
    params = model.init(0)
    assert list(params)[:2] == ["model.embed_tokens.weight", "model.layers.0.input_layernorm.weight"]
    assert list(params)[-2:] == ["model.norm.weight", "lm_head.weight"]
    assert params["model.layers.1.mlp.down_proj.weight"].shape == (CFG.hidden, CFG.intermediate)
    assert params["model.layers.0.mlp.gate_proj.weight"].shape == (CFG.intermediate, CFG.hidden)
    assert all(p.dtype == np.float32 for p in params.values())
    assert len(params) == 3 + 9 * CFG.layers
    np.testing.assert_array_equal(model.init(0)["lm_head.weight"], params["lm_head.weight"])


@pytest.mark.parametrize("dtype, tol", [("f64", 1e-12), ("f32", 1e-6)])
def test_loss_matches_numpy_forward(dtype, tol):
    params, tokens = _point()
    loss, _ = LanguageModel(CFG, policy="f32", dtype=dtype).loss_and_grads(params, tokens)
    ref = _ref_loss(params, tokens)
    assert abs(loss - ref) <= tol * abs(ref), (loss, ref)


def _directional_fd(params, tokens, name, direction, h=1e-4):
    def f(step):
        moved = dict(params)
        moved[name] = params[name] + step * direction
        return _ref_loss(moved, tokens)

    d1 = (f(h) - f(-h)) / (2 * h)
    d2 = (f(h / 2) - f(-h / 2)) / h
    return (4 * d2 - d1) / 3  # Richardson: the h^2 term cancels


def test_f64_gradients_match_finite_differences():
    params, tokens = _point()
    _, grads = LanguageModel(CFG, policy="f32", dtype="f64").loss_and_grads(params, tokens)
    errors = {}
    for name, g in grads.items():
        direction = RNG.standard_normal(g.shape)
        direction /= np.linalg.norm(direction)
        fd = _directional_fd(params, tokens, name, direction)
        analytic = float(np.sum(g * direction))
        errors[name] = abs(analytic - fd) / max(abs(fd), 1e-300)
    bad = {n: e for n, e in errors.items() if not e <= 1e-6}
    assert not bad, f"directional derivatives off (relative error): {bad}"


def test_f32_gradients_match_f64():
    params, tokens = _point()
    loss64, g64 = LanguageModel(CFG, policy="f32", dtype="f64").loss_and_grads(params, tokens)
    loss32, g32 = LanguageModel(CFG, policy="f32").loss_and_grads(params, tokens)
    assert abs(loss32 - loss64) <= 1e-6 * loss64
    for name in g64:
        err = np.linalg.norm(g32[name] - g64[name]) / np.linalg.norm(g64[name])
        assert err <= 1e-4, (name, err)
        assert g32[name].dtype == np.float32


# FP8 needs K (hidden, intermediate and the tokens of a Wgrad) in 128-blocks.
FP8_CFG = LanguageModelConfig(vocab=64, layers=1, hidden=128, heads=2, intermediate=256, seq=64)
LINEARS = ("self_attn.q_proj", "self_attn.k_proj", "self_attn.v_proj", "self_attn.o_proj",
           "mlp.gate_proj", "mlp.up_proj", "mlp.down_proj")


def _fp8_point():
    params = LanguageModel(FP8_CFG, policy="f32").init(1)
    tokens = RNG.integers(0, FP8_CFG.vocab, size=(2, FP8_CFG.seq + 1))
    return params, tokens


def test_fp8_report_every_linear_gemm():
    model = LanguageModel(FP8_CFG, policy="deepseek-v3")
    params, tokens = _fp8_point()
    loss, _ = model.loss_and_grads(params, tokens)
    ops = [o for o in model.report["ops"] if o["matmul"]]
    by_loc = {}
    for o in ops:
        by_loc.setdefault(o["location"], []).append(o)
    for layer in range(FP8_CFG.layers):
        for lin in LINEARS:
            base = f"model.layers.{layer}.{lin}"
            for loc, kind in ((base, "fprop"), (f"{base}.dgrad", "dgrad"), (f"{base}.wgrad", "wgrad")):
                [o] = by_loc[loc]
                assert (o["role"], o["precision"], o["gemm"]) == ("linear", "fp8", kind), o
                assert o["reason"].startswith("heuristic"), o  # recognised, not named
    # Everything else that multiplies stays high: the head's three GEMMs,
    # attention's batch matmuls.
    high = [o for o in ops if not any(f".{lin}" in o["location"] for lin in LINEARS)]
    assert {o["location"] for o in high if o["role"] == "output_head"} == {"lm_head", "lm_head.dgrad",
                                                                          "lm_head.wgrad"}
    assert all(o["precision"] != "fp8" for o in high), high
    assert {o["role"] for o in high} == {"output_head", "attention"}
    roles = {o["location"]: o["role"] for o in model.report["ops"]}
    assert roles["model.embed_tokens"] == "embedding"
    assert roles["model.norm"] == "normalization"
    assert model.report["training"]["gemms"]["wgrad"]["count"] == 7 * FP8_CFG.layers + 1
    assert abs(loss - np.log(FP8_CFG.vocab)) < 0.1  # the init predicts nearly uniformly


def test_fp8_vocabulary_as_wide_as_a_linear():
    """vocab == hidden: the blocks' N = vocab linears (o_proj, down_proj)
    reach the returned norm-weight gradients, but feed the next layer
    first; fp8-assign-precision keeps only lm_head's three GEMMs high (the
    model names no linear)."""
    cfg = LanguageModelConfig(vocab=128, layers=1, hidden=128, heads=2, intermediate=256, seq=64)
    model = LanguageModel(cfg, policy="deepseek-v3")
    params = model.init(2)
    model.loss_and_grads(params, RNG.integers(0, cfg.vocab, size=(2, cfg.seq + 1)))
    ops = [o for o in model.report["ops"] if o["matmul"]]
    assert sum(o["precision"] == "fp8" for o in ops) == 21
    assert {o["location"] for o in ops if o["role"] == "output_head"} == {"lm_head", "lm_head.dgrad",
                                                                          "lm_head.wgrad"}


@pytest.mark.parametrize("policy, options", [
    ("bf16", {}), ("deepseek-v3", {}), ("hybrid", {}), ("mxfp8", {}),
    ("deepseek-v3", {"accumulator_bits": 14}),
    ("per-tensor", {"accumulator_bits": 14, "promote_interval": "none"}),
])
def test_policies_track_f32(policy, options):
    """Every policy computes the same step up to its rounding: the loss
    within 1% and each gradient within 25% (relative norm) of f32's."""
    params, tokens = _fp8_point()
    ref_loss, ref = LanguageModel(FP8_CFG, policy="f32").loss_and_grads(params, tokens)
    loss, grads = LanguageModel(FP8_CFG, policy=policy, **options).loss_and_grads(params, tokens)
    assert abs(loss - ref_loss) <= 0.01 * ref_loss
    for name, g in grads.items():
        err = np.linalg.norm(g - ref[name]) / np.linalg.norm(ref[name])
        assert err <= 0.25, (name, err)
    if policy != "f32":
        assert loss != ref_loss or any(not np.array_equal(g, ref[n]) for n, g in grads.items())


def test_no_promotion_sets_each_gemms_k():
    """compile(promotion="none") (LanguageModel's promote_interval="none"):
    every scaled_matmul of the per-tensor graph promotes once, at its own
    K: an Fprop's K is the linear's input width, a Dgrad's its output
    width, a Wgrad's the tokens (3 x 64 = 192), hand-derived from the
    config (hidden 128, intermediate 256)."""
    import re

    import fp8_mlir
    from fp8_mlir.training import lm_graph

    h, i, t = FP8_CFG.hidden, FP8_CFG.intermediate, 3 * FP8_CFG.seq
    widths = {"q_proj": (h, h), "k_proj": (h, h), "v_proj": (h, h), "o_proj": (h, h),
              "gate_proj": (h, i), "up_proj": (h, i), "down_proj": (i, h)}  # (in, out)
    expected = {}
    for name, (n_in, n_out) in widths.items():
        base = f"model.layers.0.{'self_attn' if name.endswith(('q_proj', 'k_proj', 'v_proj', 'o_proj')) else 'mlp'}.{name}"
        expected.update({base: n_in, f"{base}.dgrad": n_out, f"{base}.wgrad": t})
    text = lm_graph.lm_training_step(FP8_CFG, 3, "f32")
    ir = fp8_mlir.compile(text, "per-tensor", promotion="none", lower=False).fp8_ir
    found = {}
    for line in ir.splitlines():
        if "= fp8.scaled_matmul" in line:
            loc = re.search(r'loc\("([^"]+)"\)', line).group(1)
            pi = re.search(r"promote_interval = (\d+) : i64", line)
            found[loc] = int(pi.group(1)) if pi else 128  # the attribute's default is not printed
    assert found == expected
    # The policy's own interval without the option.
    ir = fp8_mlir.compile(text, "per-tensor", lower=False).fp8_ir
    assert "promote_interval = ?" not in ir and not re.search(r"promote_interval = (?!128\b)\d+", ir)
    with pytest.raises(ValueError, match="promotion"):
        fp8_mlir.compile(text, "per-tensor", promotion="never", lower=False)
    with pytest.raises(fp8_mlir.MLIRError, match="whole K"):
        fp8_mlir.compile(text, "deepseek-v3", promotion="none", lower=False)


@pytest.mark.parametrize("kwargs, what", [
    ({"policy": "fp16"}, "unknown policy"),
    ({"policy": "deepseek-v3", "dtype": "f64"}, "dtype"),
    ({"policy": "deepseek-v3", "accumulator_bits": 30}, "accumulator_bits"),
    ({"policy": "deepseek-v3", "promote_interval": "none"}, "whole K"),
    ({"policy": "f32", "accumulator": "sm90"}, "FP8 policies"),
    ({"policy": "deepseek-v3", "promotion": False}, "unknown option"),
])
def test_bad_options(kwargs, what):
    with pytest.raises(ValueError, match=what):
        LanguageModel(CFG, **kwargs)


@pytest.mark.parametrize("threads", [-1, 2.5, True, "4", None, 10**6])
def test_bad_threads(threads):
    """threads is fp8-cpu-pipeline's option: an integer in [0, 1024] (0:
    OpenMP's default). -1 failed only when the first step compiled, 2.5
    became 2, True became 1, 10**6 asked OpenMP for a million threads."""
    with pytest.raises(ValueError, match="threads must be an integer in"):
        LanguageModel(CFG, policy="deepseek-v3", threads=threads)


def test_bad_inputs():
    model = LanguageModel(CFG, policy="f32")
    params, tokens = _point()
    with pytest.raises(ValueError, match="seq"):
        model.loss_and_grads(params, tokens[:, :-1])
    with pytest.raises(ValueError, match="token ids"):
        model.loss_and_grads(params, np.full_like(tokens, CFG.vocab))
    # One negative id among valid ones: the gather would read before the
    # embedding table (ids must be in [0, vocab), the lower bound too).
    negative = tokens.copy()
    negative[0, 1] = -1
    with pytest.raises(ValueError, match=r"token ids must be in \[0, .*got \[-1, "):
        model.loss_and_grads(params, negative)
    with pytest.raises(ValueError, match="missing"):
        model.loss_and_grads({k: v for k, v in params.items() if k != "lm_head.weight"}, tokens)
    with pytest.raises(ValueError, match="shape"):
        model.loss_and_grads({**params, "model.norm.weight": np.ones(3)}, tokens)
    with pytest.raises(ValueError, match="hidden"):
        LanguageModelConfig(vocab=8, layers=1, hidden=30, heads=4, intermediate=8, seq=4)
    with pytest.raises(ValueError, match="batch must be an integer"):
        model.compiled(0)


def test_parameters_must_be_real_float_arrays():
    """A complex parameter lost its imaginary part in the conversion to the
    graph's type, silently; a nested list or a list of arrays for `params`
    is refused by name, as AdamW's master weights (float32 arrays) are."""
    model = LanguageModel(CFG, policy="f32")
    params, tokens = _point()
    name = "lm_head.weight"
    with pytest.raises(ValueError, match=r"params\['lm_head.weight'\] must hold real floats.*complex128"):
        model.loss_and_grads({**params, name: params[name] + 1j}, tokens)
    with pytest.raises(TypeError, match=r"params\['lm_head.weight'\] must be a NumPy array.*list"):
        model.loss_and_grads({**params, name: params[name].tolist()}, tokens)
    with pytest.raises(ValueError, match="real floats.*int64"):
        model.loss_and_grads({**params, name: np.zeros(params[name].shape, np.int64)}, tokens)
    with pytest.raises(TypeError, match="params must be a dict"):
        model.loss_and_grads(list(params.values()), tokens)


def test_parameters_beyond_float32_are_refused():
    """A float64 parameter the f32 step cannot hold became Inf in the
    conversion (a NaN loss, NumPy's overflow warning the only sign); one
    that rounds to 0 would vanish. Refused as the numerics refuse their
    inputs; the f64 step (dtype="f64") takes them."""
    params, tokens = _point()
    name = "lm_head.weight"
    big = params[name].astype(np.float64)
    big[0, 0] = 1e39
    with pytest.raises(ValueError, match=r"params\['lm_head.weight'\] holds 1e\+39, beyond the float32 range"):
        LanguageModel(CFG, policy="f32").loss_and_grads({**params, name: big}, tokens)
    tiny = params[name].astype(np.float64)
    tiny[0, 0] = 1e-300
    with pytest.raises(ValueError, match=r"params\['lm_head.weight'\] holds nonzero values that round to 0"):
        LanguageModel(CFG, policy="f32").loss_and_grads({**params, name: tiny}, tokens)
    loss, _ = LanguageModel(CFG, policy="f32", dtype="f64").loss_and_grads({**params, name: big}, tokens)
    assert np.isfinite(loss)


def test_compiled_step_cache_is_keyed_on_the_batch_size():
    """One model, three batch sizes one after the other (the cache holds a
    compiled step per shape): each loss equals the float64 NumPy forward of
    its own tokens; a cache that keyed the step on the config alone would
    run the first batch size's step on the others."""
    model = LanguageModel(CFG, policy="f32")
    params, _ = _point()
    rng = np.random.default_rng(11)
    for batch in (2, 3, 2, 1):
        tokens = rng.integers(0, CFG.vocab, size=(batch, CFG.seq + 1))
        loss, grads = model.loss_and_grads(params, tokens)
        ref = _ref_loss(params, tokens)
        assert abs(loss - ref) <= 1e-6 * abs(ref), (batch, loss, ref)
        assert grads["lm_head.weight"].shape == (CFG.vocab, CFG.hidden)


def test_cross_entropy_on_logits_far_below_zero():
    """Every logit between -400 and -300, far below -87 (where f32's exp
    underflows; a row maximum that started at a finite value such as -87
    instead of -inf would take exp of every logit minus that value, all 0,
    and a log of 0): the loss equals the float64 NumPy forward's and the
    head's gradient equals (softmax - onehot)^T x / T computed in NumPy.

    The point makes the logits known: every block's output projections are
    zero (the blocks add nothing to the residual stream), so the final
    RMSNorm sees the token's embedding row; the head's rows are negative
    multiples of the normalised rows' sum."""
    cfg = CFG
    rng = np.random.default_rng(7)
    params = {}
    for name, shape in cfg.parameter_shapes().items():
        params[name] = np.ones(shape) if name.endswith("norm.weight") else np.zeros(shape)
    params["model.embed_tokens.weight"] = 1.0 + 0.2 * rng.random((cfg.vocab, cfg.hidden))
    tokens = rng.integers(0, cfg.vocab, size=(BATCH, cfg.seq + 1))
    x = params["model.embed_tokens.weight"][tokens[:, :-1].reshape(-1)]
    nf = x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + 1e-5)  # the final RMSNorm, gain 1
    # Rows of lm_head: -c_v / sum(nf) per element, so logit[t, v] is about
    # -c_v with c_v in [300, 400] (nf's row sums differ a little per token).
    c = 300.0 + 100.0 * rng.random(cfg.vocab)
    params["lm_head.weight"] = -np.outer(c, np.ones(cfg.hidden)) / np.mean(nf.sum(axis=1))
    logits = nf @ params["lm_head.weight"].T
    assert logits.max() < -250 and logits.min() > -450
    loss, grads = LanguageModel(cfg, policy="f32").loss_and_grads(params, tokens)
    ref = _ref_loss(params, tokens)
    assert np.isfinite(loss) and abs(loss - ref) <= 1e-5 * abs(ref), (loss, ref)
    targets = tokens[:, 1:].reshape(-1)
    p = np.exp(logits - logits.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    p[np.arange(len(targets)), targets] -= 1.0
    want = p.T @ nf / len(targets)
    got = grads["lm_head.weight"]
    assert np.all(np.isfinite(got))
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-4 * np.abs(want).max())
