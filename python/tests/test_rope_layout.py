"""RoPE with attention's head permutations (`layers.rope` between
`Heads.split` and `Heads.merge`: q [T, H * D] viewed as [B * H, S, D],
rotated; the backward's gradient [B * H, S, D] rotated back and merged to
[T, H * D]) on fp8-cpu-pipeline and on the emulated GPU, where
fp8-fold-rotate-half and fp8-fuse-elementwise make each direction one
kernel reading (or writing) the [B, S, H, D] layout in place. numpy's
rotate_half is the oracle, bit for bit: the same f32 products and sums
(x * cos + rotate_half(x) * sin; dy * cos + rotate_half^T(dy * sin),
rotate_half^T(u) = cat(u2, -u1)), neither side contracting them."""

import numpy as np
import pytest

from fp8_mlir import jit
from fp8_mlir.graph import Graph, function
from fp8_mlir.layers import Heads, rope
from fp8_mlir.training.lm import GPU_PIPELINES

from conftest import require_passes

pytestmark = require_passes("fp8-fold-rotate-half", "fp8-cpu-pipeline", "fp8-gpu-pipeline")

B, S, NH, D = 2, 8, 2, 16
T = B * S


def rope_module():
    """@rope(q [T, NH * D], cos, sin [S, D], dy [B * NH, S, D]) writes
    y = rope(split(q)) and dx = merge(rope_backward(dy))."""
    g = Graph("f32")
    qt, tt, ht = f"{T}x{NH * D}xf32", f"{S}x{D}xf32", f"{B * NH}x{S}x{D}xf32"
    lines = []
    for name, ty in (("q", qt), ("cos", tt), ("sin", tt), ("dy", ht)):
        lines.append(f"    %{name} = bufferization.to_tensor %{name}m restrict : memref<{ty}> to tensor<{ty}>")
    heads = Heads(g, T, NH, D, B, "attn")
    y = rope(g, heads.split("%q", "attn"), heads.shape, "%cos", "%sin", "attn.rotary_emb")
    dxh = rope(g, "%dy", heads.shape, "%cos", "%sin", "attn.rotary_emb.grad", backward=True)
    dx = heads.merge(dxh, "attn.grad")
    lines += g.lines
    for value, out, ty in ((y, "%ym", ht), (dx, "%dxm", qt)):
        lines.append(f"    bufferization.materialize_in_destination {value} in restrict writable {out} : "
                     f"(tensor<{ty}>, memref<{ty}>) -> ()")
    args = [f"%qm: memref<{qt}>", f"%cosm: memref<{tt}>", f"%sinm: memref<{tt}>", f"%dym: memref<{ht}>",
            f"%ym: memref<{ht}>", f"%dxm: memref<{qt}>"]
    return "\n".join(["module {"] + function("rope", args, [], lines) + ["}", ""])


def rotate_half(x):
    h = x.shape[-1] // 2
    return np.concatenate([-x[..., h:], x[..., :h]], axis=-1)


def rotate_half_t(u):
    h = u.shape[-1] // 2
    return np.concatenate([u[..., h:], -u[..., :h]], axis=-1)


def _bits(a):
    return np.ascontiguousarray(a).view(np.uint32)


@pytest.mark.parametrize("device", ["cpu", "gpu-emulator"])
def test_rope_matches_numpy_bit_for_bit(device):
    rng = np.random.default_rng(11)
    q = rng.standard_normal((T, NH * D)).astype(np.float32)
    ang = rng.uniform(-3, 3, (S, D)).astype(np.float32)
    cos, sin = np.cos(ang).astype(np.float32), np.sin(ang).astype(np.float32)
    dy = rng.standard_normal((B * NH, S, D)).astype(np.float32)
    text = rope_module()
    module = jit(text) if device == "cpu" else jit(text, GPU_PIPELINES[device], target=device)
    y = np.full((B * NH, S, D), 7.0, np.float32)
    dx = np.full((T, NH * D), 7.0, np.float32)
    module.call("rope", q, cos, sin, dy, y, dx)

    qh = q.reshape(B, S, NH, D).transpose(0, 2, 1, 3).reshape(B * NH, S, D)
    want_y = qh * cos + rotate_half(qh) * sin
    want_dxh = dy * cos + rotate_half_t(dy * sin)
    want_dx = want_dxh.reshape(B, NH, S, D).transpose(0, 2, 1, 3).reshape(T, NH * D)
    np.testing.assert_array_equal(_bits(y), _bits(want_y))
    np.testing.assert_array_equal(_bits(dx), _bits(want_dx))
