"""MLIR type and attribute text of the generated functions."""

from __future__ import annotations

import numpy as np


def _dim(d) -> str:
    return "?" if d < 0 else str(d)


def _ty(kind: str, shape, et: str) -> str:
    return f"{kind}<" + "".join(f"{_dim(d)}x" for d in shape) + f"{et}>"


def _scaled(shape, et, block, scale_et) -> str:
    dims = "x".join(_dim(d) for d in shape)
    return f"!fp8.scaled<{dims}x{et}, block = [{', '.join(str(b) for b in block)}], scale = {scale_et}>"


def _dynamic_rows(shape, block) -> tuple:
    """`shape` with its first dimension (the rows, M) dynamic, so that one
    compiled function serves every row count; kept static when the block
    spans the whole first dimension (its size is then part of the layout)."""
    shape = tuple(shape)
    if not shape or block is None or tuple(block)[0] is None:
        return shape
    return (-1,) + shape[1:]


def _f32_attr(v: float) -> str:
    return f"{float(np.float32(v)):.9e} : f32"
