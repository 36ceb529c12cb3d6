"""The FP8 formats (read from the compiler) and scale modes, and the
decoding of storage formats NumPy lacks (bf16, E8M0 bit patterns)."""

from __future__ import annotations

from typing import Tuple

import numpy as np

from .. import _fp8_mlir as _native


#: FP8 formats as the compiler defines them: name -> FormatLimits (`mlir_type`,
#: `max`, `min_normal`, `min_subnormal`, `exponent_bits`, `mantissa_bits`,
#: `bias`, `has_inf`, `has_nan`; read from the C++, docs/design.md §1).
FORMAT_LIMITS = {f.name: f for f in _native.fp8_formats()}
#: FP8 formats: name -> (MLIR element type, largest finite value).
FORMATS = {name: (f.mlir_type, f.max) for name, f in FORMAT_LIMITS.items()}
#: Scale modes: name -> (scale_mode attribute, scale element type).
SCALES = {"f32": ("f32", "f32"), "pow2": ("pow2", "f32"), "e8m0": ("pow2", "f8E8M0FNU")}


def _format(fmt, what: str = "fmt") -> Tuple[str, float]:
    if not isinstance(fmt, str) or fmt not in FORMATS:
        raise ValueError(f"{what} must be one of {', '.join(repr(f) for f in FORMATS)}, got {fmt!r}")
    return FORMATS[fmt]


def _scale_mode(scale) -> Tuple[str, str]:
    if not isinstance(scale, str) or scale not in SCALES:
        raise ValueError(f"scale must be one of {', '.join(repr(s) for s in SCALES)}, got {scale!r}")
    return SCALES[scale]


def _bf16_bits_to_f32(bits: np.ndarray) -> np.ndarray:
    # One pass (the shift widens to uint32 as it writes). For bf16 data that
    # the compiled code does not widen itself: grouped_scaled_matmul's
    # result (its lowering inserts each group's rounded 2-D result into the
    # grouped one: no store to fuse a widening into). scaled_matmul and
    # dequantize end their IR in an arith.extf that the CPU kernels fuse
    # into their store.
    return np.left_shift(bits, 16, dtype=np.uint32).view(np.float32)


def _e8m0_to_f32(bits: np.ndarray) -> np.ndarray:
    """E8M0 (OCP MX): 2^(bits - 127); 0xFF is NaN."""
    out = np.ldexp(np.float32(1.0), bits.astype(np.int32) - 127).astype(np.float32)
    out[bits == 0xFF] = np.nan
    return out
