"""The graph emitter (fp8_mlir.graph) the generators write with: the split of
a training step into forward and backward follows what the backward's ops
read (the emitter's bookkeeping), whatever the values are named; the element
type is a parameter (an f64 step holds no f32 and is the f32 step retyped)."""

import re

import numpy as np
import pytest

import fp8_mlir
from fp8_mlir import models
from fp8_mlir.graph import Graph, function
from fp8_mlir.training.lm import LanguageModelConfig
from fp8_mlir.training.lm_graph import lm_training_step
from fp8_mlir.training_graphs import Step, partition

NEG = ["%r = arith.negf %b0 : f32", "linalg.yield %r : f32"]


def _split_graph():
    """A forward and a backward whose crossing values defeat a split by
    names: `%x_heads` is not of the `%name<digits>` form a regex over the
    text looked for (main's split left it out of the saved values, and the
    backward read an undefined value); `table` is read inside a backward
    region only (a capture); `only_forward` and one parameter are not read
    by the backward."""
    s = Step()
    g = s.g
    x = g.argument("%x", (2, 4))
    g.part = "forward"
    w = s.param((4,), "layer.weight")
    unused = s.param((4,), "other.weight")
    y = g.elementwise([x, (w, (4,), ["d1"])], (2, 4), ["%r = arith.mulf %b0, %b1 : f32", "linalg.yield %r : f32"],
                      "fwd.scale")
    heads = g.expand_shape(y, (2, 4), [[0], [1, 2]], (2, 2, 2), "fwd.heads", name="%x_heads")
    table = g.elementwise([x], (2, 4), NEG, "fwd.table")
    only_forward = g.elementwise([y, (unused, (4,), ["d1"])], (2, 4),
                                 ["%r = arith.addf %b0, %b1 : f32", "linalg.yield %r : f32"], "fwd.other")
    g.part = "backward"
    dh = g.elementwise([heads], (2, 2, 2), NEG, "bwd.heads")
    body = ["%i = linalg.index 0 : index", "%j = linalg.index 1 : index",
            f"%t = tensor.extract {table}[%i, %j] : tensor<2x4xf32>", "%r = arith.mulf %t, %b0 : f32",
            "linalg.yield %r : f32"]
    d = g.generic([(dh, (2, 2, 2), ["d0", "d1", "d2"])], (2, 2, 2), ["d0", "d1", "d2"], ["parallel"] * 3, body,
                  "bwd.capture", captures=[table])
    return s, dict(x=x, w=w, y=y, heads=heads, table=table, only_forward=only_forward, d=d)


def test_split_follows_what_the_backward_reads():
    s, v = _split_graph()
    part = partition(s)
    # What the backward's ops read, as written above by hand.
    assert part.arguments == []
    assert part.saved == [v["heads"], v["table"]]
    assert part.constants == []
    assert [p for p, _, _ in part.params] == []
    assert v["only_forward"] not in part.saved


def test_split_functions_parse():
    """The forward and backward built from the partition are valid MLIR (a
    value the backward reads and nobody passes would not parse)."""
    s, v = _split_graph()
    g = s.g
    part = partition(s)
    fwd = function("forward", [f"%x: {g.ty(2, 4)}"] + g.parameter_declarations(),
                   [(v["only_forward"], g.ty(2, 4))] + [(x, g.type_of(x)) for x in part.saved],
                   g.part_lines("forward"))
    bwd = function("backward", [f"{x}: {g.type_of(x)}" for x in part.saved], [(v["d"], g.ty(2, 2, 2))],
                   g.part_lines("backward"))
    text = "\n".join(["module {"] + fwd + bwd + ["}", ""])
    fp8_mlir.run_pipeline(text, "builtin.module()")


def test_split_reads_arguments_and_parameters():
    """An argument and a parameter the backward reads are reported as such
    (the block step's saved %x; the weights its dgrad multiplies by)."""
    s = Step()
    g = s.g
    x = g.argument("%x", (2, 4))
    g.part = "forward"
    w = s.param((4,), "layer.weight")
    g.elementwise([x], (2, 4), NEG, "fwd")
    g.part = "backward"
    g.elementwise([x, (w, (4,), ["d1"])], (2, 4), ["%r = arith.mulf %b0, %b1 : f32", "linalg.yield %r : f32"],
                  "bwd")
    part = partition(s)
    assert part.arguments == [x]
    assert part.saved == []
    assert [p for p, _, _ in part.params] == [w]


def test_split_reemits_constants():
    """A forward constant the backward reads is emitted again, not passed."""
    s = Step()
    g = s.g
    g.part = "forward"
    k = g.dense_constant(np.ones((2, 4)), "table")
    g.part = "backward"
    g.elementwise([k], (2, 4), NEG, "bwd")
    part = partition(s)
    assert part.saved == []
    assert [op.defs for op in part.constants] == [(k,)]


def _retyped(text):
    """The f32 step retyped to f64 by text (the generators' former way,
    kept here as the oracle): -inf's and NaN's literals, tensor types,
    `: f32`."""
    text = text.replace("0xFF800000 : f32", "0xFFF0000000000000 : f64")
    text = text.replace("0x7FC00000 : f32", "0x7FF8000000000000 : f64")
    return text.replace("xf32>", "xf64>").replace(": f32", ": f64")


LM = LanguageModelConfig(vocab=16, layers=2, hidden=8, heads=2, intermediate=16, seq=4)


@pytest.mark.parametrize("split", [False, True])
@pytest.mark.parametrize("make", [
    lambda split, dtype: lm_training_step(LM, 2, dtype, split=split),
    lambda split, dtype: models.llama_training_step(8, 16, 2, 32, split=split, dtype=dtype),
    lambda split, dtype: models.moe_training_step(8, 16, 2, 3, 2, 8, 1, split=split, dtype=dtype),
], ids=["lm", "llama", "moe"])
def test_f64_steps_hold_no_f32(make, split):
    f64 = make(split, "f64")
    assert not re.search(r"\bf32\b", f64)
    assert f64 == _retyped(make(split, "f32"))
    fp8_mlir.run_pipeline(f64, "builtin.module()")


def test_graph_element_type_is_checked():
    with pytest.raises(ValueError, match="element type must be one of f32, f64, bf16, got 'f16'"):
        Graph("f16")
    with pytest.raises(ValueError, match="dtype"):
        models.llama_training_step(8, 16, 2, 32, dtype="bf16")
    with pytest.raises(ValueError, match="element type must be one of f32, f64"):
        lm_training_step(LM, 1, "f16")


def test_destination_passing_function_with_results_of_two_types():
    """to_tensor, generic_results and materialize: a function returning
    nothing that writes x + 1 (f32, in place) and x rounded to bf16 into its
    memref arguments; run on the CPU against values derived by hand (1 +
    2^-8 is a bf16 tie between 1 and 1 + 2^-7: to the even 1)."""
    g = Graph("f32")
    x = g.to_tensor(g.argument("%x"), (4,), writable=True)
    y = g.to_tensor(g.argument("%y"), (4,), "bf16", writable=True)

    def body(args):
        xi, _, _ = args
        return ["%one = arith.constant 1.0 : f32", f"%s = arith.addf {xi}, %one : f32",
                f"%h = arith.truncf {xi} : f32 to bf16"], ["%s", "%h"]
    s, h = g.generic_results([(x, (4,), ["d0"])], [(x, (4,), ["d0"], "f32"), (y, (4,), ["d0"], "bf16")],
                             ["parallel"], body, "test.two")
    assert g.shapes[s] == (4,) and g.shapes[h] == (4,)
    g.materialize(s, "%x", (4,))
    g.materialize(h, "%y", (4,), "bf16")
    lines = function("two", ["%x: memref<4xf32>", "%y: memref<4xbf16>"], [], g.lines)
    assert lines[0] == "  func.func @two(%x: memref<4xf32>, %y: memref<4xbf16>) {" and lines[-2:] == ["    return", "  }"]
    module = fp8_mlir.jit("module {\n" + "\n".join(lines) + "\n}\n")
    xs = np.array([1.0, 1 + 2**-8, -2.5, 0.0], np.float32)
    out = np.zeros(4, np.uint16)
    module.two(xs, out)
    assert xs.tolist() == [2.0, 2 + 2**-8, -1.5, 1.0]
    assert out.tolist() == [0x3F80, 0x3F80, 0xC020, 0x0000]
