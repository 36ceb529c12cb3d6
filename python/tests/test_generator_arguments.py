"""Every graph generator (fp8_mlir.models, its training steps) checks its
arguments by one rule: sizes are Python or NumPy integers (never bool or
float) in [1, 2**20]; float parameters finite reals in the f32/bf16 normal
range; a learning rate a finite real in [1e-12, 1e3]; flags bool; choices
one of the listed strings. A bad value is a ValueError (TypeError for a
ModelConfig field of the wrong type) naming the parameter, never IR that
does not parse, a silently accepted value, or a graph the compiler cannot
handle (sizes of 2**62: a 0-FLOP report; 2**40 tokens: hours of compile)."""

import re

import numpy as np
import pytest

import fp8_mlir
from fp8_mlir import models
from fp8_mlir.models import ModelConfig

MLP = models.mlp_training_step


@pytest.mark.parametrize("kwargs, what", [
    (dict(lr=float("nan")), "lr"),
    (dict(lr=float("inf")), "lr"),
    (dict(lr=1e50), "lr"),
    (dict(lr=-0.1), "lr"),
    (dict(lr=0.0), "lr"),
    (dict(lr=1e-13), "lr"),
    (dict(lr=1001.0), "lr"),
    (dict(lr="0.1"), "lr"),
    (dict(lr=True), "lr"),
    (dict(lr=np.bool_(True)), "lr"),
    (dict(tokens=True), "tokens"),
    (dict(tokens=np.bool_(True)), "tokens"),
    (dict(tokens=4.0), "tokens"),
    (dict(tokens=0), "tokens"),
    (dict(tokens=2**40), "tokens"),
    (dict(tokens=2**20 + 1), "tokens"),
    (dict(sizes=[8, True]), r"sizes\[1\]"),
    (dict(sizes=[2**62, 8]), r"sizes\[0\]"),
    (dict(sizes=[8, 8.0]), r"sizes\[1\]"),
    (dict(sizes=[8]), "sizes"),
    (dict(sizes="88"), "sizes"),
    (dict(sizes=8), "sizes"),
    (dict(split="yes"), "split"),
    (dict(split=1), "split"),
])
def test_mlp_training_step_rejects(kwargs, what):
    args = dict(tokens=4, sizes=[8, 4])
    args.update(kwargs)
    with pytest.raises(ValueError, match=what):
        MLP(**args)


@pytest.mark.parametrize("fn, kwargs, what", [
    (models.llama_training_step, dict(tokens=np.bool_(True)), "tokens"),
    (models.llama_training_step, dict(rms_eps="1e-6"), "rms_eps"),
    (models.llama_training_step, dict(rms_eps=1e39), "rms_eps"),
    (models.llama_training_step, dict(split="yes"), "split"),
    (models.moe_training_step, dict(top_k=2.0), "top_k"),
    (models.moe_training_step, dict(num_experts=2**40), "num_experts"),
    (models.llama_block, dict(num_layers=True), "num_layers"),
    (models.llama_block, dict(num_layers=10**6), "num_layers"),
    (models.moe_block, dict(first_dense_layers=1.0), "first_dense_layers"),
    (models.model, dict(mlp=["moe"]), "mlp"),
])
def test_other_generators_reject(fn, kwargs, what):
    if fn in (models.llama_block, models.moe_block, models.model):
        kwargs = dict(config=ModelConfig.small(), **kwargs)
    with pytest.raises(ValueError, match=what):
        fn(**kwargs)


@pytest.mark.parametrize("field, value", [("hidden", True), ("tokens", 2.0), ("rms_eps", "1e-6"),
                                          ("top_k", np.bool_(True))])
def test_model_config_fields_of_the_wrong_type(field, value):
    with pytest.raises(TypeError, match=f"ModelConfig.{field}"):
        models.llama_block(ModelConfig.small(**{field: value}))


def test_mlp_training_step_at_the_largest_sizes():
    # Every size at 2**20: a step of 10 * 2**60 FLOPs (fprop and wgrad of
    # both linears, the second's dgrad: 2 * 2**60 each), past int64, which
    # the report counts (Dialect/FP8/Transforms/report-huge-counts.mlir):
    # no FLOP limit besides the sizes'.
    text = MLP(2**20, [2**20, 2**20, 2**20])
    assert text.count("tensor<1048576x1048576xf32>") >= 3


@pytest.mark.parametrize("field, value", [("hidden", 2**62), ("tokens", 2**40), ("rope_theta", float("inf"))])
def test_model_config_fields_out_of_range(field, value):
    with pytest.raises(ValueError, match=f"ModelConfig.{field}"):
        models.llama_block(ModelConfig.small(**{field: value}))


def _np(v):
    return np.int64(v) if isinstance(v, int) else np.float64(v)


@pytest.mark.parametrize("make", [
    lambda c: MLP(c(4), [c(8), c(16), c(4)], lr=c(0.5)),
    lambda c: MLP(c(4), (c(8), c(4)), split=np.bool_(True)),
    lambda c: models.llama_training_step(c(8), c(64), c(2), c(32)),
    lambda c: models.moe_training_step(c(8), c(64), c(2), c(4), c(2), c(16), c(1)),
    lambda c: models.llama_block(ModelConfig.small(tokens=c(4), hidden=c(256), rms_eps=c(1e-5)), c(2)),
    lambda c: models.model(ModelConfig.small(tokens=c(4), num_experts=c(8)), c(1), first_dense_layers=c(1)),
], ids=["mlp-sgd", "mlp-split", "llama-step", "moe-step", "llama-block", "moe-model"])
def test_numpy_numbers_are_accepted_as_python_ones(make):
    # NumPy integers (and floats) from a config array give the graph of the
    # same Python numbers ("got 4" before), which parses.
    text = make(_np)
    assert text == make(lambda v: v)
    fp8_mlir.run_pipeline(text)


def _f32_constants(ir):
    """The f32 constants of printed IR (shortest decimal that reads back as
    the f32), as float32 values."""
    return {np.float32(float(v)) for v in re.findall(r"arith.constant ([-0-9.eE+]+) : f32", ir)}


# 0.10000002384185791 is the f32 0x3dccccd0, whose shortest decimal needs 9
# significant digits (with 8, 1.0000002e-01, it reads back as 0x3dcccccf).
@pytest.mark.parametrize("lr", [1e-6, 1e-12, 1e3, 0.1, 3, 0.10000002384185791])
def test_learning_rate_is_the_f32_constant_asked_for(lr):
    # repr(1e-06) is "1e-06", which MLIR's lexer does not read as a float:
    # the SGD constant is printed with a '.'; the parsed constant is lr in f32.
    ir = fp8_mlir.run_pipeline(MLP(4, [8, 4], lr=lr))
    assert np.float32(lr) in _f32_constants(ir), (lr, _f32_constants(ir))


@pytest.mark.parametrize("tokens, out", [(1000, 1000), (7, 3), (2**20, 1)])
def test_loss_scale_parses_for_every_size(tokens, out):
    # dY = 2 (Y - target) / numel: 2 / 1e6 printed by repr was "2e-06".
    ir = fp8_mlir.run_pipeline(MLP(tokens, [8, out]))
    assert np.float32(2.0 / (tokens * out)) in _f32_constants(ir), _f32_constants(ir)
