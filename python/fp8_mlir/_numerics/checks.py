"""Argument checks: arrays, block shapes, eps and the float32 range the
ops compute in; a bad argument is a ValueError naming it."""

from __future__ import annotations

import math
from typing import Sequence, Tuple

import numpy as np


#: Largest finite float32: the ops take eps and scales as f32.
_F32_MAX = float(np.finfo(np.float32).max)


#: Block sizes and the promotion interval are i64 attributes of the ops.
_I64_MAX = 2**63 - 1


def _f32_rounding(values: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """Where float32 conversion (round to nearest even, as every f64 -> f32
    conversion of the package and of the ops) turns a finite value into
    +-Inf, and a nonzero one into 0: the two masks. The rule is the
    conversion itself, so both boundaries are exact: 2**-150 rounds to 0 (a
    tie, to even) while anything above it rounds to 2**-149; the largest
    float32 plus half its ulp rounds to Inf while anything below it rounds to
    the largest float32."""
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        f32 = values.astype(np.float32)
    overflow = np.isfinite(values) & np.isinf(f32)
    underflow = (values != 0) & (f32 == 0)
    return overflow, underflow


def _eps(eps) -> float:
    """eps is an f32 attribute: a value that rounds to Inf in f32, or a
    positive one that rounds to 0, would be silently changed."""
    if (not isinstance(eps, (int, float, np.floating, np.integer)) or isinstance(eps, bool)
            or not math.isfinite(eps) or eps < 0):
        raise ValueError(f"eps must be a finite number >= 0, got {eps!r}")
    overflow, underflow = _f32_rounding(np.array([eps], np.float64))
    if overflow[0]:
        raise ValueError(f"eps={eps!r} does not fit float32 (the op's eps is f32): expected <= {_F32_MAX:.8g}")
    if underflow[0]:
        raise ValueError(f"eps={eps!r} rounds to 0 in float32 (the op's eps is f32): expected 0 or >= 1.4e-45")
    return float(eps)


def _check_f32_range(arr: np.ndarray, what: str) -> None:
    """Values a conversion to float32 would turn into Inf or 0 are rejected,
    not silently flushed (a float64 array beyond the f32 range); values it
    rounds to the largest or the smallest float32 are accepted."""
    if arr.dtype.itemsize <= 4 or arr.size == 0:
        return
    overflow, underflow = _f32_rounding(arr)
    if overflow.any():
        raise ValueError(
            f"{what} holds {np.abs(arr[overflow]).max():.6g}, beyond the float32 range (max {_F32_MAX:.8g}); "
            "the op computes in float32: rescale the input"
        )
    if underflow.any():
        tiny = float(np.finfo(np.float32).smallest_subnormal)
        raise ValueError(
            f"{what} holds nonzero values that round to 0 in float32 (below half the smallest "
            f"float32, {tiny:.3g}), which would become 0: rescale the input"
        )


def _blocks(block, shape: Sequence[int], what: str) -> Tuple[int, ...]:
    # A string is a sequence of characters and a float is not iterable: both
    # were taken apart ("block ('1', 'x', '1', '2', '8') has 5 sizes") or
    # failed inside tuple() without naming the argument.
    if (block is None or isinstance(block, (int, np.integer, str, bytes, float, np.floating))
            or not hasattr(block, "__iter__")):
        raise ValueError(f"{what} must be a tuple with one size per dimension ({len(shape)}), got {block!r}")
    block = tuple(block)
    if len(block) != len(shape):
        raise ValueError(
            f"{what} {block} has {len(block)} sizes but the array has {len(shape)} dimensions {tuple(shape)}"
        )
    out = []
    for b, d in zip(block, shape):
        if b is None:
            out.append(max(int(d), 1))
        elif isinstance(b, (int, np.integer)) and not isinstance(b, bool) and 0 < b <= _I64_MAX:
            out.append(int(b))
        else:
            raise ValueError(
                f"{what} sizes must be positive integers below 2**63 or None (the whole dimension), "
                f"got {block!r}"
            )
    return tuple(out)


def _scale_shape(shape, block) -> Tuple[int, ...]:
    return tuple(-(-int(d) // b) for d, b in zip(shape, block))


def _float_array(x, what: str) -> np.ndarray:
    arr = np.asarray(x)
    if arr.dtype.kind != "f" or arr.dtype.itemsize > 8:
        raise ValueError(f"{what} must be a float16/float32/float64 array, got dtype {arr.dtype}")
    if arr.ndim == 0:
        raise ValueError(f"{what} must have at least one dimension")
    _check_f32_range(arr, what)
    return np.ascontiguousarray(arr, dtype=np.float32)


def _quantize_input(x, dtype) -> Tuple[np.ndarray, str]:
    """quantize's input as a contiguous array and its MLIR element type:
    float16 as is, float32 (from float32/64), or bf16 bit patterns (uint16)
    with dtype="bf16" or an ml_dtypes bfloat16 array."""
    if dtype is not None and dtype != "bf16":
        raise ValueError(f"dtype must be None (x's float type) or 'bf16', got {dtype!r}")
    arr = np.asarray(x)
    if arr.dtype.name == "bfloat16":  # ml_dtypes.bfloat16: 2-byte bf16 values
        arr = arr.view(np.uint16)
        dtype = "bf16"
    if dtype is None:
        if arr.dtype == np.float16 and arr.ndim:
            # Passed as is: the compiled code extends f16 exactly, as NumPy would.
            return np.ascontiguousarray(arr), "f16"
        return _float_array(arr, "x"), "f32"
    if arr.dtype != np.uint16:
        raise ValueError(
            "with dtype='bf16', x must be a uint16 array of bf16 bit patterns (NumPy has no bf16), "
            f"got dtype {arr.dtype}"
        )
    if arr.ndim == 0:
        raise ValueError("x must have at least one dimension")
    return np.ascontiguousarray(arr), "bf16"


def _codes_array(codes, what: str) -> np.ndarray:
    arr = np.asarray(codes)
    if arr.dtype != np.uint8:
        raise ValueError(f"{what} must be a uint8 array of FP8 bit patterns, got dtype {arr.dtype}")
    if arr.ndim == 0:
        raise ValueError(f"{what} must have at least one dimension")
    return np.ascontiguousarray(arr)


def _scales_array(scales, expected_shape, what: str) -> np.ndarray:
    arr = np.asarray(scales)
    if arr.dtype.kind != "f" or arr.dtype.itemsize > 8:
        raise ValueError(f"{what} must be a float32 array, got dtype {arr.dtype}")
    if tuple(arr.shape) != tuple(expected_shape):
        raise ValueError(
            f"{what} has shape {tuple(arr.shape)}, expected ceil(shape / block) = {tuple(expected_shape)}"
        )
    _check_f32_range(arr, what)
    return np.ascontiguousarray(arr, dtype=np.float32)


def _is_int(v) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, bool)
