"""ScaledTensor (FP8 codes with their block scales and layout) and the
matmul operands given as ScaledTensors or as arrays."""

from __future__ import annotations

import numpy as np

from .checks import _I64_MAX, _blocks, _codes_array, _is_int, _scale_shape, _scales_array
from .formats import _format, _scale_mode


class ScaledTensor(tuple):
    """An FP8 tensor with its block scales and layout, the NumPy side of
    `!fp8.scaled` (as torchao's Float8Tensor carries its scale).

    - `codes`: uint8 array of FP8 bit patterns, any rank >= 1;
    - `scales`: float32 dequantization multipliers, shape
      ceil(codes.shape / block) (E8M0 scales are kept decoded);
    - `block`: one int per dimension (a whole-dimension `None` resolved);
    - `fmt`: "e4m3" or "e5m2"; `scale`: "f32", "pow2" or "e8m0", the mode it
      was quantized with.

    It is a 2-tuple, so `codes, scales = quantize(x)` keeps working. Raises
    ValueError when the scales' shape does not match codes and block.
    """

    def __new__(cls, codes, scales, block, fmt: str = "e4m3", scale: str = "f32"):
        _format(fmt)
        _scale_mode(scale)
        codes = _codes_array(codes, "codes")
        blk = _blocks(block, codes.shape, "block")
        scales = _scales_array(scales, _scale_shape(codes.shape, blk), "scales")
        obj = super().__new__(cls, (codes, scales))
        obj._layout = (blk, fmt, scale)
        return obj

    codes = property(lambda self: self[0], doc="uint8 FP8 bit patterns")
    scales = property(lambda self: self[1], doc="float32 block scales")
    block = property(lambda self: self._layout[0], doc="block shape (ints)")
    fmt = property(lambda self: self._layout[1], doc='"e4m3" or "e5m2"')
    scale = property(lambda self: self._layout[2], doc='"f32", "pow2" or "e8m0"')
    shape = property(lambda self: self[0].shape, doc="shape of the tensor")

    def __repr__(self) -> str:
        return (f"ScaledTensor(shape={self.shape}, block={self.block}, "
                f"fmt={self.fmt!r}, scale={self.scale!r})")

    def __eq__(self, other) -> bool:
        """Equal layouts (blocks compared as the partitions they make) and
        identical codes and scales (NaN scales compare by position)."""
        if not isinstance(other, ScaledTensor):
            return NotImplemented
        return (self.shape == other.shape and self.fmt == other.fmt and self.scale == other.scale
                and _same_partition(self.block, other.block, self.shape)
                and np.array_equal(self.codes, other.codes)
                and np.array_equal(self.scales, other.scales, equal_nan=True))

    def __ne__(self, other) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    __hash__ = None  # mutable arrays inside, as numpy arrays

    def __array__(self, *args, **kwargs):
        raise TypeError("a ScaledTensor is not one array: use .codes and .scales, or "
                        "fp8_mlir.dequantize(q) for the values")

    def __reduce__(self):
        return (ScaledTensor, (self.codes, self.scales, self.block, self.fmt, self.scale))


def _same_partition(a, b, shape) -> bool:
    """True when blocks `a` and `b` cut `shape` the same way (a block at
    least as large as its dimension is the whole dimension)."""
    return all(min(x, d) == min(y, d) for x, y, d in zip(a, b, shape))


def _matmul_operands(fn: str, arrays, layout):
    """The (a_codes, a_scales, b_codes, b_scales) and (a_block, b_block, fmt,
    b_fmt) of a matmul called either as fn(qa, qb) with two ScaledTensors
    (their blocks and formats unless given) or with the four arrays."""
    a_codes, a_scales, b_codes, b_scales = arrays
    a_block, b_block, fmt, b_fmt = layout
    if isinstance(a_codes, ScaledTensor) or isinstance(a_scales, ScaledTensor):
        qa, qb = a_codes, a_scales
        if not (isinstance(qa, ScaledTensor) and isinstance(qb, ScaledTensor)):
            raise ValueError(f"{fn}(qa, qb) needs two ScaledTensors")
        if b_codes is not None or b_scales is not None:
            raise ValueError("pass either two ScaledTensors or (a_codes, a_scales, b_codes, b_scales)")
        a_block, fmt = _layout_of(qa, a_block, fmt, "a_block")
        b_block, b_fmt = _layout_of(qb, b_block, b_fmt, "b_block")
        (a_codes, a_scales), (b_codes, b_scales) = qa, qb
    elif b_codes is None or b_scales is None:
        raise ValueError(f"{fn} needs (a_codes, a_scales, b_codes, b_scales) or two ScaledTensors")
    return (a_codes, a_scales, b_codes, b_scales), (a_block, b_block, fmt, b_fmt)


def _matmul_options(fmt, b_fmt, out, promote_interval):
    """Checks a matmul's formats (A's `fmt`, default "e4m3"; B's `b_fmt`,
    default A's), `out` and `promote_interval`; returns (fmt, A's element
    type, B's element type)."""
    fmt = "e4m3" if fmt is None else fmt
    a_et, _ = _format(fmt)
    b_et, _ = _format(b_fmt if b_fmt is not None else fmt, "b_fmt")
    if not isinstance(out, str) or out not in ("f32", "bf16"):
        raise ValueError(f"out must be 'bf16' or 'f32', got {out!r}")
    if not _is_int(promote_interval) or not 0 < promote_interval <= _I64_MAX or promote_interval % 32:
        raise ValueError(
            "promote_interval must be a positive multiple of 32 (the wgmma K) below 2**63, "
            f"got {promote_interval!r}"
        )
    return fmt, a_et, b_et


def _layout_of(q, block, fmt, what: str):
    """The (block, fmt) to use for `q`: a ScaledTensor's own, unless the
    caller passes a different one (an error), else the given defaults."""
    if isinstance(q, ScaledTensor):
        if block is not None and not _same_partition(_blocks(block, q.shape, what), q.block, q.shape):
            raise ValueError(f"{what} {tuple(block)} differs from the ScaledTensor's block {q.block}")
        if fmt is not None and fmt != q.fmt:
            raise ValueError(f"fmt {fmt!r} differs from the ScaledTensor's fmt {q.fmt!r}")
        return q.block, q.fmt
    return block, fmt
