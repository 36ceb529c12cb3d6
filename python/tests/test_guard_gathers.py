"""fp8-guard-gathers on a compiled graph called directly (no Python check
of its token ids): an embedding gather (`layers.embedding`, torch-mlir's
aten.embedding form) at ids outside [0, vocab) -- vocab, -1, 2^40, the
most negative i64 -- gives NaN rows instead of reading out of bounds, on
fp8-cpu-pipeline and on the emulated GPU (where an unguarded read faults);
the in-range rows are the table's rows bit for bit (numpy's indexing is
the oracle) and the two pipelines agree bit for bit.

The language model's step with out-of-range input tokens, whose embedding
gradient (an scf.for scatter-adding rows at the token ids, not a gather)
drops their updates: test_guard_scatters.py."""

import numpy as np
import pytest

from fp8_mlir import jit
from fp8_mlir.graph import Graph, function
from fp8_mlir.layers import embedding
from fp8_mlir.training.lm import GPU_PIPELINES

from conftest import require_passes

pytestmark = require_passes("fp8-guard-gathers", "fp8-cpu-pipeline", "fp8-gpu-pipeline")

T, V, H = 24, 40, 32
BAD = {2: V, 5: -1, 9: 2**40, 13: -(2**63), 17: V + 1}


class _Params:
    """The `s` of `layers.embedding`: its table is the argument %table."""

    def __init__(self, g):
        self.g = g

    def param(self, shape, name):
        self.g.shapes["%table"] = shape
        return "%table"


def embed_module():
    """@embed(table [V, H], ids [T] i64, out [T, H]) = layers.embedding."""
    g = Graph("f32")
    vt, it, ot = f"{V}x{H}xf32", f"{T}xi64", f"{T}x{H}xf32"
    lines = [f"    %table = bufferization.to_tensor %tb restrict : memref<{vt}> to tensor<{vt}>",
             f"    %ids = bufferization.to_tensor %idm restrict : memref<{it}> to tensor<{it}>"]
    x, _ = embedding(_Params(g), "%ids", T, V, H, "model.embed_tokens")
    lines += g.lines
    lines.append(f"    bufferization.materialize_in_destination {x} in restrict writable %o : "
                 f"(tensor<{ot}>, memref<{ot}>) -> ()")
    args = [f"%tb: memref<{vt}>", f"%idm: memref<{it}>", f"%o: memref<{ot}>"]
    return "\n".join(["module {"] + function("embed", args, [], lines) + ["}", ""])


def run_embed(device, table, ids):
    text = embed_module()
    module = jit(text) if device == "cpu" else jit(text, GPU_PIPELINES[device], target=device)
    out = np.full((T, H), 7.0, np.float32)
    module.call("embed", table, ids, out)
    return out


def _inputs():
    rng = np.random.default_rng(7)
    table = rng.standard_normal((V, H)).astype(np.float32)
    table[3, :4] = [-0.0, np.inf, -np.inf, np.nan]  # special values keep their bits
    ids = rng.integers(0, V, T).astype(np.int64)
    ids[:2] = [0, V - 1]
    ids[3] = 3
    return table, ids


def _bits(a):
    return np.ascontiguousarray(a).view(np.uint32)


@pytest.mark.parametrize("device", ["cpu", "gpu-emulator"])
def test_in_range_rows_are_the_tables(device):
    table, ids = _inputs()
    got = run_embed(device, table, ids)
    np.testing.assert_array_equal(_bits(got), _bits(table[ids]))


def test_out_of_range_ids_give_nan_rows():
    table, ids = _inputs()
    for r, bad in BAD.items():
        ids[r] = bad
    rows = sorted(BAD)
    good = np.setdiff1d(np.arange(T), rows)
    cpu = run_embed("cpu", table, ids)
    emu = run_embed("gpu-emulator", table, ids)
    for got in (cpu, emu):
        assert np.isnan(got[rows]).all(), got[rows]
        np.testing.assert_array_equal(_bits(got[good]), _bits(table[ids[good]]))
    np.testing.assert_array_equal(_bits(emu), _bits(cpu))

