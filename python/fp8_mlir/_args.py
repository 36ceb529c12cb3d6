"""Argument checks shared by every graph generator (models.py,
training_graphs.py): one rule per kind of parameter, so that no generator
emits IR that does not parse, silently takes a value of the wrong kind, or
builds a graph the compiler cannot handle.

- sizes: Python or NumPy integers (never bool, never float), within
  [low, MAX_SIZE]: a tensor of rank <= 3 in such sizes then has fewer than
  2**63 elements (MLIR counts them in int64); a graph's FLOPs may pass
  2**63 (fp8-report counts past int64, as the nearest double);
- float parameters: Python or NumPy reals (never bool or str), finite and
  within the normal range of both f32 and bf16, so that the constant the
  generator prints is the value asked for;
- flags: bool (or NumPy bool) only, not 1 or "yes";
- choices: one of the listed strings.

Each check returns the value as a plain Python int / float / bool, so the
generated text never shows a NumPy repr.
"""

from __future__ import annotations

import math
import numbers
import struct
from typing import Sequence

#: Largest accepted size (see the module docstring).
MAX_SIZE = 1 << 20
#: Magnitudes a float parameter may take: the normal range shared by f32 and
#: bf16 (bf16's max is 3.39e38, f32's smallest normal 1.18e-38).
MIN_FLOAT, MAX_FLOAT = 1e-37, 1e38
#: Learning rates: positive, and small enough that a step of it on weights and
#: gradients of order 1 stays far from the f32 range (a larger one is a typo).
MIN_LR, MAX_LR = 1e-12, 1e3


def _is_bool(value) -> bool:
    return isinstance(value, bool) or type(value).__name__ == "bool_"


def size(name: str, value, low: int = 1, high: int = MAX_SIZE, type_error=ValueError) -> int:
    """An integer size in [low, high]; NumPy integers accepted."""
    if _is_bool(value) or not isinstance(value, numbers.Integral):
        raise type_error(f"{name} must be an integer in [{low}, {high}], got {value!r}")
    if not low <= int(value) <= high:
        raise ValueError(f"{name} must be an integer in [{low}, {high}], got {int(value)}")
    return int(value)


def sizes(name: str, values, min_len: int, max_len: int) -> list:
    """A list of min_len..max_len positive sizes (a list or tuple of them)."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence) and not hasattr(values, "tolist"):
        raise ValueError(f"{name} must be a list of {min_len} to {max_len} sizes, got {values!r}")
    values = list(values)
    if not min_len <= len(values) <= max_len:
        raise ValueError(f"{name} must list {min_len} to {max_len} sizes, got {len(values)}: {values!r}")
    return [size(f"{name}[{i}]", v) for i, v in enumerate(values)]


def real(name: str, value, expected: str, positive: bool = True, low: float = MIN_FLOAT,
         high: float = MAX_FLOAT, type_error=ValueError) -> float:
    """A finite real of magnitude at most `high` and, when `positive`, in
    [low, high] (a nonzero magnitude below `low` would be flushed)."""
    if _is_bool(value) or not isinstance(value, numbers.Real):
        raise type_error(f"{name} must be {expected}, got {value!r}")
    v = float(value)
    ok = math.isfinite(v) and abs(v) <= high and (not positive or v >= low)
    if not ok:
        raise ValueError(f"{name} must be {expected} (magnitude in [{low:g}, {high:g}]), got {value!r}")
    return v


def learning_rate(value) -> float:
    return real("lr", value, "a finite positive learning rate", low=MIN_LR, high=MAX_LR)


def flag(name: str, value, type_error=ValueError) -> bool:
    if not _is_bool(value):
        raise type_error(f"{name} must be a bool (True or False), got {value!r}")
    return bool(value)


def choice(name: str, value, options: Sequence[str]) -> str:
    if not isinstance(value, str) or value not in options:
        raise ValueError(f"{name} must be one of {', '.join(repr(o) for o in options)}, got {value!r}")
    return value


def f32_literal(value: float) -> str:
    """An MLIR float literal of `value` rounded to f32 (round to nearest
    even): always with a '.', which MLIR's float literals need ("1e-06" is
    an integer and an identifier to the lexer), and with enough digits that
    the parser gets that f32 back exactly."""
    return f"{struct.unpack('<f', struct.pack('<f', value))[0]:.9e}"
