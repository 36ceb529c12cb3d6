"""fp8-guard-gathers on writes at data-dependent offsets: the language
model's embedding gradient (`lm_graph._embedding_backward`, an scf.for
scatter-adding each token's gradient row into the table row of its id, as
aten.embedding_dense_backward's accumulating index_put) with input token
ids outside [0, vocab) -- vocab, -1, 2^40, the most negative i64 -- drops
those tokens' updates (JAX's scatter mode FILL_OR_DROP) instead of writing
out of bounds (a corrupted heap on the CPU, a write outside the buffer on
the GPU).

- The scatter alone, on fp8-cpu-pipeline and on the emulated GPU (its loop
  kernel): the table gradient equals a NumPy scatter-add of the in-range
  tokens' rows only, in token order, from +0.0 (the oracle), bit for bit,
  and the two pipelines agree bit for bit.
- The whole step (the smallest model the GPU kernels take) with
  out-of-range input tokens and in-range targets, called directly (no
  Python check of its ids): no crash on either pipeline, the loss NaN (the
  forward gather reads NaN rows), the embedding gradient's rows that no
  in-range token hits +0.0 (the dropped updates wrote nothing), and the
  emulated GPU's loss and gradients the CPU's bit for bit, NaNs included.
  (The in-range rows are NaN there: the NaN of an out-of-range token's row
  reaches every token's gradient through attention; the scatter alone
  checks their values.) The NaNs' bits agree because the guard's NaN is
  the GPU's canonical 0x7FFFFFFF, which a GPU kernel's f32 arithmetic
  returns and the CPU's host arithmetic keeps (docs/numerics.md, "NaN
  encodings")."""

import numpy as np
import pytest

from fp8_mlir import jit
from fp8_mlir.graph import function
from fp8_mlir.training import LanguageModelConfig, lm, lm_graph
from fp8_mlir.training.lm import GPU_PIPELINES
from fp8_mlir.training_graphs import Step

from conftest import require_passes

pytestmark = require_passes("fp8-guard-gathers", "fp8-cpu-pipeline", "fp8-gpu-pipeline")

T, V, H = 24, 40, 32
BAD = {2: V, 5: -1, 9: 2**40, 13: -(2**63), 17: V + 1}


def scatter_module():
    """@scatter(tokens [T] i64, dx [T, H], out [V, H]) = the LM's embedding
    gradient: out[tokens[i]] += dx[i] from zeros, in token order."""
    s = Step("f32")
    tt, dt, ot = f"{T}xi64", f"{T}x{H}xf32", f"{V}x{H}xf32"
    lines = [f"    %tokens = bufferization.to_tensor %tk restrict : memref<{tt}> to tensor<{tt}>",
             f"    %dx = bufferization.to_tensor %dxm restrict : memref<{dt}> to tensor<{dt}>"]
    lm_graph._embedding_backward(s, "%table", "%dx", V, T, H)
    lines += s.g.lines
    lines.append(f"    bufferization.materialize_in_destination {s.grads['%table']} in restrict writable %o : "
                 f"(tensor<{ot}>, memref<{ot}>) -> ()")
    args = [f"%tk: memref<{tt}>", f"%dxm: memref<{dt}>", f"%o: memref<{ot}>"]
    return "\n".join(["module {"] + function("scatter", args, [], lines) + ["}", ""])


def run_scatter(device, tokens, dx):
    text = scatter_module()
    module = jit(text) if device == "cpu" else jit(text, GPU_PIPELINES[device], target=device)
    out = np.full((V, H), 7.0, np.float32)
    module.call("scatter", tokens, dx, out)
    return out


def scatter_add_in_range(tokens, dx):
    """The oracle: a NumPy row add per in-range token, in token order."""
    want = np.zeros((V, H), np.float32)
    for i, tok in enumerate(tokens):
        if 0 <= tok < V:
            want[tok] += dx[i]
    return want


def _inputs(rng):
    """Token ids in [1, V) (row 0 is hit by no in-range token: a dropped
    update written to the clamped row 0 shows there), duplicates included,
    and gradient rows with a -0.0 and infinities."""
    tokens = rng.integers(1, V, T).astype(np.int64)
    tokens[:4] = [V - 1, 1, V - 1, 1]
    dx = rng.standard_normal((T, H)).astype(np.float32)
    dx[3, :3] = [-0.0, np.inf, -np.inf]
    return tokens, dx


def _bits(a):
    return np.ascontiguousarray(a).view(np.uint32)


@pytest.mark.parametrize("device", ["cpu", "gpu-emulator"])
def test_in_range_scatter_is_numpys(device):
    tokens, dx = _inputs(np.random.default_rng(11))
    got = run_scatter(device, tokens, dx)
    np.testing.assert_array_equal(_bits(got), _bits(scatter_add_in_range(tokens, dx)))


def test_out_of_range_updates_are_dropped():
    tokens, dx = _inputs(np.random.default_rng(12))
    for r, bad in BAD.items():
        tokens[r] = bad
    want = scatter_add_in_range(tokens, dx)
    assert not want[0].any()
    cpu = run_scatter("cpu", tokens, dx)
    emu = run_scatter("gpu-emulator", tokens, dx)
    for got in (cpu, emu):
        np.testing.assert_array_equal(_bits(got), _bits(want))
    np.testing.assert_array_equal(_bits(emu), _bits(cpu))


# The smallest model the GPU devices' kernels take (lm-step.test's).
GPU_CFG = LanguageModelConfig(vocab=256, layers=1, hidden=128, heads=1, intermediate=256, seq=128)


def _step(cfg, device, params, inputs, targets):
    """The step's (loss, gradients) on `inputs` and `targets` taken as they
    are (no check: out-of-range ids reach the graph)."""
    module, _ = lm._compile(cfg, 1, "f32", "f32", {}, device)
    loss, grads = np.zeros(1, np.float32), [np.zeros_like(p) for p in params]
    if device == "cpu":
        module.run(inputs, targets, *params, loss, *grads)
    else:
        module.call_accumulating(None, "run", inputs, targets, *params, loss, *grads)
    return loss, grads


def test_step_with_out_of_range_tokens():
    cfg = GPU_CFG
    rng = np.random.default_rng(13)
    params = [np.ascontiguousarray(0.3 * rng.standard_normal(s), dtype=np.float32)
              for s in cfg.parameter_shapes().values()]
    inputs = rng.integers(1, cfg.vocab, cfg.seq).astype(np.int64)
    targets = rng.integers(0, cfg.vocab, cfg.seq).astype(np.int64)
    for pos, bad in zip((5, 40, 127), (cfg.vocab, -1, 2**40)):
        inputs[pos] = bad
    hit = np.unique(inputs[(inputs >= 0) & (inputs < cfg.vocab)])
    untouched = np.setdiff1d(np.arange(cfg.vocab), hit)
    assert 0 in untouched
    embed = list(cfg.parameter_shapes()).index("model.embed_tokens.weight")
    results = {}
    for device in ("cpu", "gpu-emulator"):
        loss, grads = _step(cfg, device, params, inputs, targets)
        assert np.isnan(loss[0]), (device, loss)
        np.testing.assert_array_equal(_bits(grads[embed][untouched]), 0)
        results[device] = (loss, grads)
    (l0, g0), (l1, g1) = results["cpu"], results["gpu-emulator"]
    np.testing.assert_array_equal(_bits(l1), _bits(l0))
    for a, b in zip(g1, g0):
        np.testing.assert_array_equal(_bits(a), _bits(b))
