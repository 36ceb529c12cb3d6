"""The cross-entropy's target pick of the language model's step
(`lm_graph._pick_targets`: a gather of one logit per token) against its
former form, kept here as the oracle: the one-hot reduction over the
vocabulary `picked[t] = sum_v (v == target[t] ? logits[t, v] : +0.0)` from
+0.0.

- The pick alone, on fp8-cpu-pipeline and on the emulated GPU
  (fp8-gpu-pipeline, require-kernels: the gather is a kernel), equals the
  one-hot sum bit for bit, a -0.0 logit at the target included (the sum
  gives +0.0: the gather's add of +0.0 keeps it so), f32 and f64, with
  NaN and infinities in the columns not picked (the sum selects +0.0 for
  them; the gather does not read them).
- A target outside [0, vocab) picks NaN (the one-hot sum gave 0 silently;
  the gather must not read out of bounds), on both pipelines: the pick
  reads `logits[row, target]` unguarded and relies on fp8-guard-gathers,
  which both pipelines run.
- The whole step compiled by fp8-cpu-pipeline gives the one-hot form's
  loss and gradients bit for bit on random batches (f32 and f64), and an
  out-of-range target a NaN loss, on the CPU and on the emulated GPU.
- The FP8 report does not take the pick for an embedding gather (the role
  analysis tells an element pick from an embedding's row read)."""

import numpy as np
import pytest

import fp8_mlir
from fp8_mlir import jit
from fp8_mlir.graph import Graph, function
from fp8_mlir.training import LanguageModelConfig, lm, lm_graph
from fp8_mlir.training.lm import GPU_PIPELINES

from conftest import require_passes

pytestmark = require_passes("fp8-pipeline", "fp8-cpu-pipeline", "fp8-gpu-pipeline")

T, V = 24, 40  # not multiples of each other: a row taken for a column reads elsewhere
DTYPES = {"f32": np.float32, "f64": np.float64}


def onehot_pick(g, logits, t, vocab, name):
    """The oracle: the pick as the step wrote it before the gather."""
    et = g.et
    acc = g.zeros((t,), "0.0")
    return g.generic([(logits, (t, vocab), ["d0", "d1"]), ("%targets", (t,), ["d0"], "i64")], (t,), ["d0"],
                     ["parallel", "reduction"],
                     ["%v = linalg.index 1 : index", "%ti = arith.index_cast %b1 : i64 to index",
                      "%hit = arith.cmpi eq, %v, %ti : index", f"%zero = arith.constant 0.0 : {et}",
                      f"%p = arith.select %hit, %b0, %zero : {et}", f"%r = arith.addf %bo, %p : {et}",
                      f"linalg.yield %r : {et}"], name, init=acc)


def pick_module(pick, et):
    """@pick(logits [T, V], targets [T] i64, out [T]) with `pick`'s graph."""
    g = Graph(et)
    lt, tt = f"{T}x{V}x{et}", f"{T}xi64"
    g.shapes["%logits"] = (T, V)
    lines = [f"    %logits = bufferization.to_tensor %l restrict : memref<{lt}> to tensor<{lt}>",
             f"    %targets = bufferization.to_tensor %tg restrict : memref<{tt}> to tensor<{tt}>"]
    p = pick(g, "%logits", T, V, "loss")
    lines += g.lines
    lines.append(f"    bufferization.materialize_in_destination {p} in restrict writable %o : "
                 f"(tensor<{T}x{et}>, memref<{T}x{et}>) -> ()")
    args = [f"%l: memref<{lt}>", f"%tg: memref<{tt}>", f"%o: memref<{T}x{et}>"]
    return "\n".join(["module {"] + function("pick", args, [], lines) + ["}", ""])


def run_pick(pick, et, device, logits, targets):
    text = pick_module(pick, et)
    module = jit(text) if device == "cpu" else jit(text, GPU_PIPELINES[device], target=device)
    out = np.full(T, 7.0, DTYPES[et])
    module.call("pick", logits, targets, out)
    return out


def _logits(rng, et):
    """Random logits and in-range targets; rows 0-3 hold a -0.0 at their
    target, rows 4-7 a +0.0; NaN and infinities elsewhere in rows 8-11."""
    logits = rng.standard_normal((T, V)).astype(DTYPES[et])
    targets = rng.integers(0, V, T).astype(np.int64)
    targets[:2] = [0, V - 1]  # the row's ends
    logits[np.arange(4), targets[:4]] = -0.0
    logits[np.arange(4, 8), targets[4:8]] = 0.0
    for r, bad in zip(range(8, 12), (np.nan, np.inf, -np.inf, np.nan)):
        logits[r, (targets[r] + 1 + np.arange(3)) % V] = bad
    return logits, targets


def _bits(a):
    return np.ascontiguousarray(a).view(np.uint64 if a.dtype == np.float64 else np.uint32)


# The GPU devices take f32 steps (an f64 body has no kernel).
@pytest.mark.parametrize("device, et", [("cpu", "f32"), ("cpu", "f64"), ("gpu-emulator", "f32")])
def test_pick_is_the_onehot_sum(device, et):
    logits, targets = _logits(np.random.default_rng(3), et)
    want = run_pick(onehot_pick, et, "cpu", logits, targets)
    got = run_pick(lm_graph._pick_targets, et, device, logits, targets)
    # The oracle itself: +0.0 where the target's logit is -0.0, the logit elsewhere.
    assert not np.signbit(want[:8]).any()
    np.testing.assert_array_equal(want[8:], logits[np.arange(8, T), targets[8:]])
    np.testing.assert_array_equal(_bits(got), _bits(want))


@pytest.mark.parametrize("device", ["cpu", "gpu-emulator"])
def test_out_of_range_target_picks_nan(device):
    logits, targets = _logits(np.random.default_rng(4), "f32")
    want = run_pick(onehot_pick, "f32", "cpu", logits, targets)
    bad = {2: V, 5: -1, 9: V + 1000, 13: 2**40, 17: -(2**63)}
    for r, tgt in bad.items():
        targets[r] = tgt
    got = run_pick(lm_graph._pick_targets, "f32", device, logits, targets)
    rows = sorted(bad)
    assert np.isnan(got[rows]).all(), got[rows]
    good = np.setdiff1d(np.arange(T), rows)
    np.testing.assert_array_equal(_bits(got[good]), _bits(want[good]))


CFG = LanguageModelConfig(vocab=48, layers=1, hidden=32, heads=2, intermediate=64, seq=8)
BATCH = 2


def _step(cfg, batch, et, device="cpu", pick=None, monkeypatch=None):
    if pick is not None:
        monkeypatch.setattr(lm_graph, "_pick_targets", pick)
    module, _ = lm._compile(cfg, batch, "f32", et, {}, device)
    if pick is not None:
        monkeypatch.undo()
    return module


def _run(module, cfg, params, tokens, device="cpu"):
    """The step's (loss, gradients) on `tokens` [batch, seq + 1], the targets
    taken as they are (no check: out-of-range ids reach the graph)."""
    dt = params[0].dtype
    inputs = np.ascontiguousarray(tokens[:, :-1], dtype=np.int64).reshape(-1)
    targets = np.ascontiguousarray(tokens[:, 1:], dtype=np.int64).reshape(-1)
    loss, grads = np.zeros(1, dt), [np.zeros_like(p) for p in params]
    if device == "cpu":
        module.run(inputs, targets, *params, loss, *grads)
    else:
        module.call_accumulating(None, "run", inputs, targets, *params, loss, *grads)
    return loss, grads


def _params(cfg, rng, dt):
    return [np.ascontiguousarray(0.3 * rng.standard_normal(s), dtype=dt) for s in cfg.parameter_shapes().values()]


@pytest.mark.parametrize("et", ["f32", "f64"])
def test_step_is_the_onehot_forms_bit_for_bit(et, monkeypatch):
    gather = _step(CFG, BATCH, et)
    onehot = _step(CFG, BATCH, et, pick=onehot_pick, monkeypatch=monkeypatch)
    rng = np.random.default_rng(5)
    for _ in range(3):
        params = _params(CFG, rng, DTYPES[et])
        tokens = rng.integers(0, CFG.vocab, size=(BATCH, CFG.seq + 1))
        tokens[0, 1:3] = [0, CFG.vocab - 1]
        (l1, g1), (l0, g0) = _run(gather, CFG, params, tokens), _run(onehot, CFG, params, tokens)
        assert np.isfinite(l0[0])
        np.testing.assert_array_equal(_bits(l1), _bits(l0))
        for a, b in zip(g1, g0):
            np.testing.assert_array_equal(_bits(a), _bits(b))


# The smallest model the GPU devices' kernels take (lm-step.test's).
GPU_CFG = LanguageModelConfig(vocab=256, layers=1, hidden=128, heads=1, intermediate=256, seq=128)


@pytest.mark.parametrize("device", ["cpu", "gpu-emulator"])
def test_step_with_an_out_of_range_target_has_a_nan_loss(device):
    cfg = GPU_CFG
    module = _step(cfg, 1, "f32", device)
    rng = np.random.default_rng(6)
    params = _params(cfg, rng, np.float32)
    tokens = rng.integers(0, cfg.vocab, size=(1, cfg.seq + 1))
    loss, _ = _run(module, cfg, params, tokens, device)
    assert np.isfinite(loss[0])
    for bad in (cfg.vocab, -1):
        tokens[0, -1] = bad  # the last target only (input tokens: test_guard_scatters.py)
        loss, _ = _run(module, cfg, params, tokens, device)
        assert np.isnan(loss[0]), (bad, loss)


def test_pick_is_not_reported_as_an_embedding():
    """The report's embedding ops are the embedding's gather and its
    gradient only: the pick reads the logits at (its own row, the target),
    one element per token, which the role analysis tells from an embedding's
    row read (before it did, the pick was reported as a gather from a
    [T, vocab] table)."""
    text = lm._with_run(lm_graph.lm_training_step(CFG, BATCH, "f32"), CFG, BATCH, "f32")
    report = fp8_mlir.compile(text, "deepseek-v3", lower=False).report
    embeddings = sorted(o["location"] for o in report["ops"] if o["role"] == "embedding")
    assert embeddings == ["model.embed_tokens", "model.embed_tokens.grad"], embeddings
