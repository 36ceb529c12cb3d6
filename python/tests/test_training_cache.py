"""FP8 activation caching in the split training step (fp8-cache-activations,
issue 25 item 7): the forward returns the FP8 codes and scales of the
activations the weight gradients read, as its Fprops quantized them, the
backward requantizes them for its Wgrads, and the step's loss and every
gradient equal the joint step's bit for bit (the joint graph requantizes
the Fprop's X, DeepSeek-V3 §3.5.2). The cached bytes the report measures
against sizes derived by hand from the shapes."""

import json
import os

import numpy as np
import pytest

import fp8_mlir
from fp8_mlir import models
from fp8_mlir.training import LanguageModel, LanguageModelConfig, saved_activations

from conftest import require_passes

pytestmark = require_passes("fp8-pipeline", "fp8-cpu-pipeline")

POLICIES = ("deepseek-v3", "hybrid")
# A chain of linears without ReLU: every saved X is read only by a Wgrad
# (a ReLU's mask reads it in high precision, so it would stay high).
T, SIZES = 128, (256, 256, 128)
WEIGHTS = [(b, a) for a, b in zip(SIZES, SIZES[1:])]


def _ty(kind, shape):
    return f"{kind}<{'x'.join(str(d) for d in shape)}xf32>"


def _with_run(text, callee, ins, outs):
    """`text` with a destination-passing @run(ins..., outs...) calling
    @callee, for the JIT."""
    lines = ["  func.func @run(" + ", ".join(f"%a{i}: {_ty('memref', s)}" for i, s in enumerate(ins + outs)) + ") {"]
    lines += [f"    %t{i} = bufferization.to_tensor %a{i} restrict : {_ty('memref', s)} to {_ty('tensor', s)}"
              for i, s in enumerate(ins)]
    lines.append(f"    %r:{len(outs)} = func.call @{callee}(" + ", ".join(f"%t{i}" for i in range(len(ins))) + ") : ("
                 + ", ".join(_ty("tensor", s) for s in ins) + ") -> (" + ", ".join(_ty("tensor", s) for s in outs) + ")")
    lines += [f"    bufferization.materialize_in_destination %r#{k} in restrict writable %a{len(ins) + k} : "
              f"({_ty('tensor', s)}, {_ty('memref', s)}) -> ()" for k, s in enumerate(outs)]
    return text.rstrip()[:-1] + "\n".join(lines + ["    return", "  }"]) + "\n}\n"


def _mlp_split_with_caller():
    """The split MLP step and @step(x, w..., dy) -> (y, dw...) calling
    @forward, then @backward with the saved tensors (the linkage
    fp8-cache-activations follows)."""
    text = models.mlp_training_step(T, list(SIZES), split=True, relu=False)
    n = len(WEIGHTS)
    ins = [(T, SIZES[0])] + WEIGHTS + [(T, SIZES[-1])]
    ws = [f"%w{i}" for i in range(n)]
    saved = [(T, s) for s in SIZES[:-1]]
    caller = [f"  func.func @step(%x: {_ty('tensor', ins[0])}, "
              + ", ".join(f"{w}: {_ty('tensor', s)}" for w, s in zip(ws, WEIGHTS))
              + f", %dy: {_ty('tensor', ins[-1])}) -> ("
              + ", ".join(_ty("tensor", s) for s in [(T, SIZES[-1])] + WEIGHTS) + ") {",
              f"    %f:{1 + n} = func.call @forward(%x, {', '.join(ws)}) : ("
              + ", ".join(_ty("tensor", s) for s in ins[:-1]) + ") -> ("
              + ", ".join(_ty("tensor", s) for s in [(T, SIZES[-1])] + saved) + ")",
              f"    %b:{n} = func.call @backward({', '.join(f'%f#{i + 1}' for i in range(n))}, {', '.join(ws)}, %dy) : ("
              + ", ".join(_ty("tensor", s) for s in saved + WEIGHTS + [(T, SIZES[-1])]) + ") -> ("
              + ", ".join(_ty("tensor", s) for s in WEIGHTS) + ")",
              f"    return %f#0, {', '.join(f'%b#{i}' for i in range(n))} : "
              + ", ".join(_ty("tensor", s) for s in [(T, SIZES[-1])] + WEIGHTS), "  }"]
    return text.rstrip()[:-1] + "\n".join(caller) + "\n}\n"


def _mlp_step(policy, form, inputs):
    """(y, dw0, dw1) of the MLP step: `joint` (dY a tangent argument),
    `split` or `cached` (split with fp8-cache-activations)."""
    ins = [(T, SIZES[0])] + WEIGHTS + [(T, SIZES[-1])]
    outs = [(T, SIZES[-1])] + WEIGHTS
    if form == "joint":
        text = _with_run(models.mlp_training_step(T, list(SIZES), tangent=True, relu=False), "train_step", ins, outs)
    else:
        text = _with_run(_mlp_split_with_caller(), "step", ins, outs)
    cache = " cache-activations=true" if form == "cached" else ""
    module = fp8_mlir.jit(text, f"fp8-pipeline{{policy={policy} report=false{cache}}},fp8-cpu-pipeline")
    results = [np.zeros(s, np.float32) for s in outs]
    module.run(*inputs, *results)
    return results


def _mlp_inputs():
    rng = np.random.default_rng(5)
    x = rng.standard_normal((T, SIZES[0])).astype(np.float32)
    # Rows of very different magnitude: 1x128 tiles along the features and
    # 128x1 tiles along the tokens then quantize X differently.
    x *= np.exp(rng.uniform(-4, 4, (T, 1))).astype(np.float32)
    ws = [(rng.standard_normal(s) / np.sqrt(s[1])).astype(np.float32) for s in WEIGHTS]
    dy = (rng.standard_normal((T, SIZES[-1])) * 1e-3).astype(np.float32)
    return [x] + ws + [dy]


@pytest.mark.parametrize("policy", POLICIES)
def test_mlp_split_step_with_cached_activations_equals_joint(policy):
    inputs = _mlp_inputs()
    joint = _mlp_step(policy, "joint", inputs)
    cached = _mlp_step(policy, "cached", inputs)
    for name, a, b in zip(("y", "dw0", "dw1"), joint, cached):
        assert np.array_equal(a, b), name
    if policy == "deepseek-v3":
        # Without caching the split backward quantizes X once along the
        # tokens: other weight gradients (what the test tells apart).
        split = _mlp_step(policy, "split", inputs)
        assert np.array_equal(joint[0], split[0])
        assert not np.array_equal(joint[1], split[1]) and not np.array_equal(joint[2], split[2])


def _report(text, options):
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "r.json")
        fp8_mlir.run_pipeline(text, f"fp8-pipeline{{report=false {options}}},fp8-report{{format=json output={path}}}")
        with open(path, encoding="utf-8") as f:
            return json.load(f)["training"]


def test_mlp_cached_bytes_measured():
    """Two cached X of [128, 256]: 32768 codes of 1 B and 128 x 2 f32 scales
    each; 4 B an element in f32, 2 in bf16."""
    got = _report(_mlp_split_with_caller(), "cache-activations=true")
    assert got["cached_activations"] == dict(tensors=2, elements=65536, high_bytes=262144, bf16_bytes=131072,
                                             fp8_bytes=2 * (32768 + 128 * 2 * 4))
    # The saved totals: the cached X as FP8, nothing else a Wgrad reads.
    assert (got["saved_activation_bytes_before"], got["saved_activation_bytes_after"]) == (262144, 67584)
    plain = _report(_mlp_split_with_caller(), "")
    assert plain["cached_activations"]["tensors"] == 0


# The language model: two layers, T = 2 x 16 tokens.
LM = LanguageModelConfig(vocab=96, layers=2, hidden=64, heads=2, intermediate=128, seq=16)
BATCH = 2


@pytest.mark.parametrize("policy", POLICIES)
def test_language_model_split_cached_equals_joint(policy):
    joint = LanguageModel(LM, policy)
    split = LanguageModel(LM, policy, form="split")
    params = joint.init(3)
    tokens = np.random.default_rng(4).integers(0, LM.vocab, size=(BATCH, LM.seq + 1))
    loss_j, grads_j = joint.loss_and_grads(params, tokens)
    loss_s, grads_s = split.loss_and_grads(params, tokens)
    assert loss_j == loss_s
    for name in grads_j:
        assert np.array_equal(grads_j[name], grads_s[name]), name
    # Each layer caches the X of its four Wgrad inputs: the attention input
    # (q, k, v share it) [32, 64], the context (o_proj) [32, 64], the MLP
    # input (gate, up) [32, 64], the SwiGLU product (down) [32, 128]; one
    # f32 scale per row of each (1x128 tiles, the row shorter than 128).
    t = BATCH * LM.seq
    elements = LM.layers * t * (3 * LM.hidden + LM.intermediate)
    scales = LM.layers * 4 * t * 4
    expected = dict(tensors=4 * LM.layers, elements=elements, high_bytes=4 * elements, bf16_bytes=2 * elements,
                    fp8_bytes=elements + scales)
    assert split.report["training"]["cached_activations"] == expected
    assert saved_activations(LM, BATCH, policy) == expected


def test_language_model_form_is_checked():
    with pytest.raises(ValueError, match="form must be 'joint' or 'split'"):
        LanguageModel(LM, "deepseek-v3", form="fused")
    with pytest.raises(ValueError, match="policy must be an FP8 preset"):
        saved_activations(LM, BATCH, "bf16")
