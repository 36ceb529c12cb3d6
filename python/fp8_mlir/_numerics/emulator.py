"""The "gpu-emulator" backend: the sm_90a kernels on the CPU emulator."""

from __future__ import annotations

import numpy as np

from .. import _fp8_mlir as _native
from ..compiler import gpu_kernels, run_pipeline
from .checks import _scale_shape
from .formats import SCALES, _bf16_bits_to_f32, _format
from .ir_text import _f32_attr, _scaled, _ty
from .scaled_tensor import ScaledTensor


BACKENDS = ("cpu", "gpu-emulator")


def _lower_to_nvvm(graph: str) -> str:
    # The shape's fixed configuration (the tiles the kernel tests pin), not
    # the cost model's choice.
    return run_pipeline(graph, "fp8-lower-to-nvvm{config=fixed}")


def _only_kernel(ir: str, kind: str):
    """The one `kind` kernel ("gemm", "quantize") of the lowered graph `ir`,
    found by its attribute (gpu_kernels), not by its name."""
    found = [k for k in gpu_kernels(ir) if k.kind == kind]
    if len(found) != 1:
        raise RuntimeError(f"backend 'gpu-emulator': the lowered graph has {len(found)} {kind} kernels, expected one")
    return found[0]


def _scaled_matmul_on_emulator(a, sa, b, sb, ab, bb, fmt, b_fmt, promote_interval, accumulator_options, out):
    (m, k), n = a.shape, b.shape[0]
    why = []
    if tuple(ab) != (1, 128) or tuple(bb) != (128, 128):
        why.append(f"blocks a (1, 128) and b (128, 128) (got {tuple(ab)} and {tuple(bb)})")
    if promote_interval != 128:
        why.append(f"promote_interval 128 (got {promote_interval})")
    # The emulator's wgmma models Hopper's (and Ada's) accumulation too; the
    # generic N-bit model is not a hardware one.
    model = {"": "exact", "accumulator=sm90": "sm90", "accumulator=sm89": "sm89"}.get(accumulator_options)
    if model is None:
        why.append("exact partials or a hardware accumulation model (emulate_accumulator None, 'exact', 'sm90', 'sm89')")
    if why:
        raise ValueError("backend 'gpu-emulator': the sm_90a GEMM kernel needs " + "; ".join(why))
    a_et, _ = _format(fmt)
    b_et, _ = _format(b_fmt)
    at = _scaled((m, k), a_et, (1, 128), "f32")
    bt = _scaled((n, k), b_et, (128, 128), "f32")
    ot = _ty("tensor", (m, n), out)
    graph = f"""
func.func @gemm(%a: {at}, %b: {bt}) -> {ot} {{
  %d = fp8.scaled_matmul %a, %b : {at}, {bt} -> {ot}
  return %d : {ot}
}}
"""
    ir = _lower_to_nvvm(graph)
    bits_out = _native.emulate_gemm(
        ir,
        _only_kernel(ir, "gemm"),
        np.ascontiguousarray(a),
        np.ascontiguousarray(sa, np.float32),
        np.ascontiguousarray(b),
        np.ascontiguousarray(sb, np.float32),
        accumulator=model,
    )
    if out == "f32":
        return bits_out.view(np.float32).copy()
    return _bf16_bits_to_f32(bits_out.astype(np.uint16))


def _quantize_on_emulator(x, blk, fmt, scale, eps, saturate):
    why = []
    if x.ndim != 2:
        why.append(f"a 2-D input (got rank {x.ndim})")
    elif tuple(blk) not in ((1, 128), (128, 128)):
        why.append(f"block (1, 128) or (128, 128) (got {tuple(blk)})")
    if scale not in ("f32", "pow2"):
        why.append(f"scale 'f32' or 'pow2' (got {scale!r})")
    if not saturate:
        why.append("saturate=True (cvt.rn.satfinite)")
    if why:
        raise ValueError("backend 'gpu-emulator': the sm_90a quantize kernel needs " + "; ".join(why))
    rows, cols = x.shape
    if not x.size:
        return ScaledTensor(
            np.zeros(x.shape, np.uint8), np.zeros(_scale_shape(x.shape, blk), np.float32), blk, fmt, scale
        )
    et, _ = _format(fmt)
    mode, _ = SCALES[scale]
    st = _scaled((rows, cols), et, blk, "f32")
    xt = _ty("tensor", (rows, cols), "f32")
    graph = f"""
func.func @quantize(%x: {xt}) -> {st} {{
  %q = fp8.quantize %x {{eps = {_f32_attr(eps)}, scale_mode = #fp8.scale_mode<{mode}>}} : {xt} -> {st}
  return %q : {st}
}}
"""
    ir = _lower_to_nvvm(graph)
    codes, scale_bits = _native.emulate_quantize(
        ir, _only_kernel(ir, "quantize"), np.ascontiguousarray(x, np.float32).view(np.uint32), blk[0]
    )
    return ScaledTensor(codes, scale_bits.view(np.float32).copy(), blk, fmt, scale)
