"""quantize, dequantize and requantize."""

from __future__ import annotations

from typing import Optional, Sequence

import numpy as np

from .. import numerics as _seams
from .cache import _compile
from .checks import _blocks, _codes_array, _eps, _quantize_input, _scale_shape, _scales_array
from .emulator import BACKENDS, GPU_BACKENDS, _run_on_gpu
from .formats import SCALES, _e8m0_to_f32, _format, _scale_mode
from .ir_text import _dynamic_rows, _f32_attr, _scaled, _ty
from .scaled_tensor import ScaledTensor, _layout_of


def quantize(
    x,
    block: Sequence[Optional[int]] = (1, 128),
    fmt: str = "e4m3",
    scale: str = "f32",
    eps: float = 1e-4,
    saturate: bool = True,
    backend: str = "cpu",
    dtype: Optional[str] = None,
) -> ScaledTensor:
    """Block-quantize `x` to FP8 (numerics contract, docs/design.md §1).

    - `x`: float array of any rank >= 1 (float64 is converted to float32;
      float16 is quantized as f16, extended exactly), or, with
      `dtype="bf16"`, a uint16 array
      of bf16 bit patterns (NumPy has no bf16 type: e.g. the upper halves
      of float32 bits, `(f32.view(np.uint32) >> 16).astype(np.uint16)` for
      truncation), quantized as bf16 by the compiled code (each value
      extended exactly to f32, as the contract says); an array whose dtype
      is named "bfloat16" (ml_dtypes, as JAX and PyTorch interop use) is
      taken as bf16 without `dtype`;
    - `block`: one size per dimension (`None` = the whole dimension); the
      default (1, 128) is DeepSeek-V3's activation tile, (128, 128) its
      weight block; tails are legal;
    - `fmt`: "e4m3" (f8E4M3FN, max 448) or "e5m2" (f8E5M2, max 57344);
    - `scale`: "f32" (amax / fmax), "pow2" (the smallest power of two >=
      amax / fmax, stored as f32) or "e8m0" (the same power of two stored as
      f8E8M0FNU, returned decoded to float32);
    - `eps`: lower clamp of amax (default 1e-4); `saturate`: RNE with
      satfinite (True) or overflow to NaN / Inf (False);
    - `backend`: "cpu" (the reference lowering, JIT-compiled) or
      "gpu-emulator" (the same function through fp8-gpu-pipeline, its host
      program run on the emulated CUDA runtime with the sm_90a quantize
      kernels; bit-equal to "cpu"; f16 input is extended to f32 first, the
      same values; a form no kernel implements is a ValueError carrying the
      compiler's remark), or "cuda" (the same host program with the kernels
      as PTX, run on device 0, an sm_90a GPU, through the project's CUDA
      runtime; bit-equal to "cpu"; no runtime, driver or device is a
      RuntimeError naming what is missing, as is a driver error);
    - `dtype`: None (x's own float type) or "bf16" (see `x`).

    Returns a `ScaledTensor` (unpacks as `(codes, scales)`): `codes` uint8
    of x's shape (FP8 bit patterns), `scales` float32 of shape
    ceil(x.shape / block), with the block, format and scale mode.
    """
    et, _ = _format(fmt)
    mode, scale_et = _scale_mode(scale)
    eps = _eps(eps)
    if not isinstance(saturate, (bool, np.bool_)):
        raise ValueError(f"saturate must be a bool, got {saturate!r}")
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(BACKENDS)}, got {backend!r}")
    x, in_et = _quantize_input(x, dtype)
    blk = _blocks(block, x.shape, "block")
    sshape = _scale_shape(x.shape, blk)
    if backend in GPU_BACKENDS and in_et == "f16":
        # The kernels read f32 or bf16; f16 widens exactly (the contract's
        # first step), so the values quantized are the same.
        x, in_et = x.astype(np.float32), "f32"
    # Every element is written by the compiled code (empty, not zeros: no
    # memset of the codes per call); an empty x gives empty results.
    codes = np.empty(x.shape, np.uint8)
    scales_raw = np.empty(sshape, np.uint8 if scale_et == "f8E8M0FNU" else np.float32)
    if x.size and backend in GPU_BACKENDS:
        # Static shapes: the host program of this one shape, in one call.
        ir = _quantize_ir(x.shape, sshape, in_et, et, blk, scale_et, mode, eps, saturate)
        _run_on_gpu(backend, ir, "quantize", (x, codes, scales_raw))
    elif x.size:
        # One compiled function for every row count (M dynamic).
        xs, ss = _dynamic_rows(x.shape, block), _dynamic_rows(sshape, block)
        fn = _compile(_quantize_ir(xs, ss, in_et, et, blk, scale_et, mode, eps, saturate))
        if xs[0] >= 0:  # the rows are static (a block spans them): one call
            fn.call("quantize", x, codes, scales_raw)
        else:
            _seams._by_rows(x.shape[0], blk[0], x.size // x.shape[0], _seams._CHUNK_ELEMENTS,
                            lambda r0, r1, s0, s1: fn.call("quantize", x[r0:r1], codes[r0:r1],
                                                           scales_raw[s0:s1]))
    scales = _e8m0_to_f32(scales_raw) if scale_et == "f8E8M0FNU" else scales_raw
    return ScaledTensor(codes, scales, blk, fmt, scale)


def _quantize_ir(xs, ss, in_et, et, blk, scale_et, mode, eps, saturate) -> str:
    """`@quantize(x, codes, scales)`: fp8.quantize of x [xs] into codes and
    scales [ss] (a -1 size: dynamic), the function both backends compile."""
    xt = _ty("tensor", xs, in_et)
    st = _scaled(xs, et, blk, scale_et)
    return f"""
func.func @quantize(%x: {_ty("memref", xs, in_et)}, %codes: {_ty("memref", xs, et)},
                    %scales: {_ty("memref", ss, scale_et)}) {{
  %t = bufferization.to_tensor %x restrict : {_ty("memref", xs, in_et)} to {xt}
  %q = fp8.quantize %t {{eps = {_f32_attr(eps)}, scale_mode = #fp8.scale_mode<{mode}>,
                        saturate = {str(bool(saturate)).lower()}}} : {xt} -> {st}
  %d, %s = fp8.disassemble %q : {st}
  bufferization.materialize_in_destination %d in restrict writable %codes
      : ({_ty("tensor", xs, et)}, {_ty("memref", xs, et)}) -> ()
  bufferization.materialize_in_destination %s in restrict writable %scales
      : ({_ty("tensor", ss, scale_et)}, {_ty("memref", ss, scale_et)}) -> ()
  return
}}
"""


def dequantize(
    codes,
    scales=None,
    block: Optional[Sequence[Optional[int]]] = None,
    fmt: Optional[str] = None,
    out: str = "f32",
) -> np.ndarray:
    """`f32(code) * scale` per block (contract step 5).

    Either `dequantize(q)` with a `ScaledTensor` (its block and format), or
    `dequantize(codes, scales, block=(1, 128), fmt="e4m3")`: `codes` uint8
    FP8 bit patterns, `scales` float32 of shape ceil(codes.shape / block).
    `out="bf16"` rounds the result to bf16 (RNE), returned as float32
    holding bf16 values. Returns a float32 array of codes' shape. Raises
    ValueError for a block or format that contradicts the ScaledTensor's.
    """
    if isinstance(codes, ScaledTensor):
        if scales is not None:
            raise ValueError("pass either a ScaledTensor or (codes, scales), not both")
        block, fmt = _layout_of(codes, block, fmt, "block")
        codes, scales = codes
    elif scales is None:
        raise ValueError("dequantize needs a ScaledTensor or (codes, scales)")
    block = (1, 128) if block is None else block
    fmt = "e4m3" if fmt is None else fmt
    et, _ = _format(fmt)
    if not isinstance(out, str) or out not in ("f32", "bf16"):
        raise ValueError(f"out must be 'f32' or 'bf16', got {out!r}")
    codes = _codes_array(codes, "codes")
    blk = _blocks(block, codes.shape, "block")
    sshape = _scale_shape(codes.shape, blk)
    scales = _scales_array(scales, sshape, "scales")
    # A bf16 result comes back as float32: the IR widens the rounded values
    # (arith.extf), which the CPU kernel fuses into its store.
    result = np.zeros(codes.shape, np.float32)
    if codes.size:
        cs, ss = _dynamic_rows(codes.shape, block), _dynamic_rows(sshape, block)
        st = _scaled(cs, et, blk, "f32")
        ot, wt = _ty("tensor", cs, out), _ty("tensor", cs, "f32")
        widen = f"\n  %w = arith.extf %x : {ot} to {wt}" if out == "bf16" else ""
        ir = f"""
func.func @dequantize(%codes: {_ty("memref", cs, et)}, %scales: {_ty("memref", ss, "f32")},
                      %out: {_ty("memref", cs, "f32")}) {{
  %d = bufferization.to_tensor %codes restrict : {_ty("memref", cs, et)} to {_ty("tensor", cs, et)}
  %s = bufferization.to_tensor %scales restrict : {_ty("memref", ss, "f32")} to {_ty("tensor", ss, "f32")}
  %q = fp8.assemble %d, %s : {_ty("tensor", cs, et)}, {_ty("tensor", ss, "f32")} -> {st}
  %x = fp8.dequantize %q : {st} -> {ot}{widen}
  bufferization.materialize_in_destination {"%w" if widen else "%x"} in restrict writable %out
      : ({wt}, {_ty("memref", cs, "f32")}) -> ()
  return
}}
"""
        fn = _compile(ir)
        if cs[0] >= 0:
            fn.call("dequantize", codes, scales, result)
        else:
            _seams._by_rows(codes.shape[0], blk[0], codes.size // codes.shape[0], _seams._CHUNK_ELEMENTS,
                            lambda r0, r1, s0, s1: fn.call("dequantize", codes[r0:r1], scales[s0:s1],
                                                           result[r0:r1]))
    return result


def requantize(
    q: ScaledTensor,
    block: Sequence[Optional[int]],
    transpose: bool = False,
    eps: float = 1e-4,
    saturate: bool = True,
) -> ScaledTensor:
    """`fp8.requantize`: dequantize `q` to f32, optionally transpose it (2-D
    only: the Wgrad's 1x128 -> 128x1 re-layout, DeepSeek-V3 §3.5.2), and
    quantize again into `block` with `q`'s format and scale mode. Returns a
    ScaledTensor. Raises ValueError for a non-ScaledTensor or a transpose of
    a tensor that is not 2-D."""
    if not isinstance(q, ScaledTensor):
        raise ValueError(f"requantize needs a ScaledTensor (from quantize), got {type(q).__name__}")
    if transpose and len(q.shape) != 2:
        raise ValueError(f"transpose needs a 2-D tensor, got shape {q.shape}")
    eps = _eps(eps)
    et, _ = _format(q.fmt)
    mode, scale_et = SCALES[q.scale]
    shape = tuple(reversed(q.shape)) if transpose else q.shape
    blk = _blocks(block, shape, "block")
    sshape = _scale_shape(shape, blk)
    codes = np.zeros(shape, np.uint8)
    scales_raw = np.zeros(sshape, np.uint8 if scale_et == "f8E8M0FNU" else np.float32)
    if codes.size:
        in_s = _scale_shape(q.shape, q.block)
        it = _scaled(q.shape, et, q.block, "f32")
        ot = _scaled(shape, et, blk, scale_et)
        perm = " permutation = array<i64: 1, 0>," if transpose else ""
        ir = f"""
func.func @requantize(%codes: {_ty("memref", q.shape, et)}, %scales: {_ty("memref", in_s, "f32")},
                      %ocodes: {_ty("memref", shape, et)}, %oscales: {_ty("memref", sshape, scale_et)}) {{
  %d = bufferization.to_tensor %codes restrict : {_ty("memref", q.shape, et)} to {_ty("tensor", q.shape, et)}
  %s = bufferization.to_tensor %scales restrict : {_ty("memref", in_s, "f32")} to {_ty("tensor", in_s, "f32")}
  %q = fp8.assemble %d, %s : {_ty("tensor", q.shape, et)}, {_ty("tensor", in_s, "f32")} -> {it}
  %r = fp8.requantize %q {{{perm} eps = {_f32_attr(eps)}, scale_mode = #fp8.scale_mode<{mode}>,
                          saturate = {str(bool(saturate)).lower()}}} : {it} -> {ot}
  %rd, %rs = fp8.disassemble %r : {ot}
  bufferization.materialize_in_destination %rd in restrict writable %ocodes
      : ({_ty("tensor", shape, et)}, {_ty("memref", shape, et)}) -> ()
  bufferization.materialize_in_destination %rs in restrict writable %oscales
      : ({_ty("tensor", sshape, scale_et)}, {_ty("memref", sshape, scale_et)}) -> ()
  return
}}
"""
        _compile(ir).call("requantize", q.codes, q.scales, codes, scales_raw)
    scales = _e8m0_to_f32(scales_raw) if scale_et == "f8E8M0FNU" else scales_raw
    return ScaledTensor(codes, scales, blk, q.fmt, q.scale)
