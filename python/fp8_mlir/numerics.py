"""The numerics contract on NumPy arrays, executed by the compiler's own
lowering.

Each call builds a small function around one fp8 op (`fp8.quantize`,
`fp8.dequantize`, `fp8.scaled_matmul`) for the requested shapes and options,
lowers it with `fp8-cpu-pipeline` (the reference CPU lowering of the numerics
contract, docs/numerics.md) and runs it through MLIR's ExecutionEngine. Nothing
here computes FP8 values in NumPy: NumPy only allocates the buffers and
decodes storage formats (bf16 and E8M0 bit patterns). Compiled functions are
cached per shape and option set, so a repeated call costs only the run.

Layouts (as the dialect): codes are `uint8` arrays holding FP8 bit patterns
(`f8E4M3FN` or `f8E5M2`), scales are `float32` dequantization multipliers
(`x ~ f32(code) * scale`), one per block, of shape `ceil(shape / block)`.
A block size of `None` spans the whole dimension. `scaled_matmul` is NT:
A is `[M, K]`, B is `[N, K]` (an nn.Linear weight), the result `[M, N]`.

`quantize` returns a `ScaledTensor`: the codes and scales together with their
layout (block, format, scale mode), which `dequantize`, `requantize` and
`scaled_matmul` accept as is. It unpacks as `(codes, scales)`.

The implementation is split by concern in `fp8_mlir._numerics` (formats,
argument checks, the compile cache, IR text, ScaledTensor, quantization,
matmul, grouped matmul, the gpu-emulator backend); this module is its
public face and holds the row-chunking knobs the implementation reads here
at each call.
"""

from __future__ import annotations

from . import _fp8_mlir as _native  # noqa: F401  (the native half, as before)
from .compiler import MLIRError, has_pass, run_pipeline  # noqa: F401
from .jit import JitModule, jit, openmp_runtime  # noqa: F401

#: Work per native call (multiply-adds of scaled_matmul, elements of
#: quantize/dequantize): long calls run as several row chunks, each without
#: the GIL, so that Python handles Ctrl-C between them within about a second.
#: Read from this module at each call (the implementation looks them up
#: here), so that they can be tuned, or set small to test the chunking.
_CHUNK_MACS = 1 << 30
_CHUNK_ELEMENTS = 1 << 22


def _by_rows(rows: int, block_rows: int, work_per_row: int, chunk_work: int, call) -> None:
    """Calls `call(r0, r1, s0, s1)` for consecutive row ranges [r0, r1) of
    about `chunk_work` each, made of whole blocks of `block_rows` rows (scale
    rows [s0, s1)); the compiled functions take any row count."""
    step = max(1, chunk_work // max(1, work_per_row) // block_rows) * block_rows
    for r in range(0, rows, step):
        call(r, r + step, r // block_rows, -(-(r + step) // block_rows))


# The implementation, re-exported: every name this module had before the
# split stays importable from here (the private ones the tests use too).
from ._numerics.cache import PIPELINE, _cache, _compile  # noqa: E402,F401
from ._numerics.emulator import BACKENDS  # noqa: E402,F401
from ._numerics.formats import FORMAT_LIMITS, FORMATS, SCALES  # noqa: E402,F401
from ._numerics.grouped import grouped_scaled_matmul  # noqa: E402,F401
from ._numerics.matmul import ACCUMULATORS, scaled_matmul  # noqa: E402,F401
from ._numerics.quantization import dequantize, quantize, requantize  # noqa: E402,F401
from ._numerics.scaled_tensor import ScaledTensor  # noqa: E402,F401

__all__ = ["ScaledTensor", "quantize", "dequantize", "requantize", "scaled_matmul", "grouped_scaled_matmul",
           "FORMATS", "FORMAT_LIMITS", "SCALES"]
