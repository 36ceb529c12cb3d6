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
"""

from __future__ import annotations

import collections
import math
from typing import Optional, Sequence, Tuple, Union

import numpy as np

from . import _fp8_mlir as _native
from ._fp8_mlir import gemm_kernel_name, quantize_kernel_name
from .compiler import MLIRError, has_pass, run_pipeline
from .jit import JitModule, jit, openmp_runtime

__all__ = ["ScaledTensor", "quantize", "dequantize", "requantize", "scaled_matmul", "grouped_scaled_matmul",
           "FORMATS", "FORMAT_LIMITS", "SCALES"]

#: FP8 formats as the compiler defines them: name -> FormatLimits (`mlir_type`,
#: `max`, `min_normal`, `min_subnormal`, `exponent_bits`, `mantissa_bits`,
#: `bias`, `has_inf`, `has_nan`; read from the C++, docs/design.md §1).
FORMAT_LIMITS = {f.name: f for f in _native.fp8_formats()}
#: FP8 formats: name -> (MLIR element type, largest finite value).
FORMATS = {name: (f.mlir_type, f.max) for name, f in FORMAT_LIMITS.items()}
#: Scale modes: name -> (scale_mode attribute, scale element type).
SCALES = {"f32": ("f32", "f32"), "pow2": ("pow2", "f32"), "e8m0": ("pow2", "f8E8M0FNU")}

PIPELINE = "fp8-cpu-pipeline"

_CACHE_SIZE = 64
#: Work per native call (multiply-adds of scaled_matmul, elements of
#: quantize/dequantize): long calls run as several row chunks, each without
#: the GIL, so that Python handles Ctrl-C between them within about a second.
_CHUNK_MACS = 1 << 30
_CHUNK_ELEMENTS = 1 << 22


def _by_rows(rows: int, block_rows: int, work_per_row: int, chunk_work: int, call) -> None:
    """Calls `call(r0, r1, s0, s1)` for consecutive row ranges [r0, r1) of
    about `chunk_work` each, made of whole blocks of `block_rows` rows (scale
    rows [s0, s1)); the compiled functions take any row count."""
    step = max(1, chunk_work // max(1, work_per_row) // block_rows) * block_rows
    for r in range(0, rows, step):
        call(r, r + step, r // block_rows, -(-(r + step) // block_rows))
_cache: "collections.OrderedDict[str, JitModule]" = collections.OrderedDict()


def _threads_option() -> str:
    """The tiled scaled_matmul runs as an OpenMP loop over output chunks
    (`threads=0`: OMP_NUM_THREADS, else every core) where the build found the
    OpenMP runtime; sequential code otherwise."""
    return "threads=0" if openmp_runtime() else ""


def _compile(ir: str, options: str = "") -> JitModule:
    options = " ".join(o for o in (options, _threads_option()) if o)
    pipeline = f"{PIPELINE}{{{options}}}" if options else PIPELINE
    key = pipeline + "\n" + ir
    module = _cache.get(key)
    if module is not None:
        _cache.move_to_end(key)
        return module
    if not has_pass(PIPELINE):
        raise NotImplementedError(
            f"the numerics functions run the compiler's CPU lowering ({PIPELINE}), "
            "which this build of fp8-mlir does not register"
        )
    try:
        module = jit(ir, pipeline)
    except MLIRError as err:
        # The op verifiers are the final judges of shapes, blocks and
        # intervals: what they reject is a bad argument.
        errors = "; ".join(d.message for d in err.errors) or str(err)
        raise ValueError(f"invalid arguments: {errors}") from None
    _cache[key] = module
    if len(_cache) > _CACHE_SIZE:
        _cache.popitem(last=False)
    return module


# ---------------------------------------------------------------------------
# Argument checks
# ---------------------------------------------------------------------------


def _format(fmt, what: str = "fmt") -> Tuple[str, float]:
    if not isinstance(fmt, str) or fmt not in FORMATS:
        raise ValueError(f"{what} must be one of {', '.join(repr(f) for f in FORMATS)}, got {fmt!r}")
    return FORMATS[fmt]


def _scale_mode(scale) -> Tuple[str, str]:
    if not isinstance(scale, str) or scale not in SCALES:
        raise ValueError(f"scale must be one of {', '.join(repr(s) for s in SCALES)}, got {scale!r}")
    return SCALES[scale]


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
    if block is None or isinstance(block, (int, np.integer)):
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


def _bf16_bits_to_f32(bits: np.ndarray) -> np.ndarray:
    # One pass (the shift widens to uint32 as it writes). For bf16 data that
    # the compiled code does not widen itself: an input to the
    # gpu-emulator's quantize, the emulated GPU kernels' results, and
    # grouped_scaled_matmul's result (its lowering inserts each group's
    # rounded 2-D result into the grouped one: no store to fuse a widening
    # into). scaled_matmul and dequantize end their IR in an arith.extf that
    # the CPU kernels fuse into their store.
    return np.left_shift(bits, 16, dtype=np.uint32).view(np.float32)


def _e8m0_to_f32(bits: np.ndarray) -> np.ndarray:
    """E8M0 (OCP MX): 2^(bits - 127); 0xFF is NaN."""
    out = np.ldexp(np.float32(1.0), bits.astype(np.int32) - 127).astype(np.float32)
    out[bits == 0xFF] = np.nan
    return out


# ---------------------------------------------------------------------------
# ScaledTensor: FP8 codes with their block scales and layout
# ---------------------------------------------------------------------------


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


# ---------------------------------------------------------------------------
# quantize / dequantize
# ---------------------------------------------------------------------------


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
      "gpu-emulator" (the sm_90a quantize kernel of fp8-lower-to-nvvm run on
      the CPU emulator, fp8-emu; 2-D x, block (1, 128) or (128, 128), scale
      "f32" or "pow2", saturate=True; bit-equal to "cpu"; bf16 input is
      extended to f32 first, the same values);
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
    if backend == "gpu-emulator":
        if in_et == "bf16":
            x = _bf16_bits_to_f32(x)  # exact: the values the contract quantizes
        elif in_et == "f16":
            x = x.astype(np.float32)  # exact
        return _quantize_on_emulator(x, blk, fmt, scale, eps, saturate)
    # Every element is written by the compiled code (empty, not zeros: no
    # memset of the codes per call); an empty x gives empty results.
    codes = np.empty(x.shape, np.uint8)
    scales_raw = np.empty(sshape, np.uint8 if scale_et == "f8E8M0FNU" else np.float32)
    if x.size:
        # One compiled function for every row count (M dynamic).
        xs, ss = _dynamic_rows(x.shape, block), _dynamic_rows(sshape, block)
        xt = _ty("tensor", xs, in_et)
        st = _scaled(xs, et, blk, scale_et)
        ir = f"""
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
        fn = _compile(ir)
        if xs[0] >= 0:  # the rows are static (a block spans them): one call
            fn.call("quantize", x, codes, scales_raw)
        else:
            _by_rows(x.shape[0], blk[0], x.size // x.shape[0], _CHUNK_ELEMENTS,
                     lambda r0, r1, s0, s1: fn.call("quantize", x[r0:r1], codes[r0:r1],
                                                    scales_raw[s0:s1]))
    scales = _e8m0_to_f32(scales_raw) if scale_et == "f8E8M0FNU" else scales_raw
    return ScaledTensor(codes, scales, blk, fmt, scale)


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
            _by_rows(codes.shape[0], blk[0], codes.size // codes.shape[0], _CHUNK_ELEMENTS,
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


# ---------------------------------------------------------------------------
# scaled_matmul
# ---------------------------------------------------------------------------


#: Hardware accumulation models of `emulate_accumulator` (the pipeline's
#: `accumulator` option).
ACCUMULATORS = ("exact", "sm90", "sm89")


def _is_int(v) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, bool)


def _accumulator_options(model, bits) -> str:
    """fp8-cpu-pipeline options for `emulate_accumulator` and
    `emulate_accumulator_bits` ("" for exact f32 sums)."""
    if bits is not None:
        if model is not None:
            raise ValueError(
                f"give emulate_accumulator or emulate_accumulator_bits, not both "
                f"(got {model!r} and {bits!r})"
            )
        if not _is_int(bits) or not 1 <= bits <= 24:
            raise ValueError(f"emulate_accumulator_bits must be None or 1..24, got {bits!r}")
        return f"accumulator-bits={int(bits)}"
    if model is None or model == "exact":
        return ""
    if _is_int(model):
        if not 1 <= model <= 24:
            raise ValueError(f"emulate_accumulator as a number of bits must be 1..24, got {model!r}")
        return f"accumulator-bits={int(model)}"
    if isinstance(model, str) and model in ACCUMULATORS:
        return f"accumulator={model}"
    raise ValueError(
        f"emulate_accumulator must be None, 'exact', 'sm90', 'sm89' or a number of bits 1..24, got {model!r}"
    )


def scaled_matmul(
    a_codes,
    a_scales,
    b_codes=None,
    b_scales=None,
    a_block: Optional[Sequence[Optional[int]]] = None,
    b_block: Optional[Sequence[Optional[int]]] = None,
    fmt: Optional[str] = None,
    promote_interval: int = 128,
    out: str = "bf16",
    emulate_accumulator_bits: Optional[int] = None,
    b_fmt: Optional[str] = None,
    emulate_accumulator: Union[None, str, int] = None,
    backend: str = "cpu",
) -> np.ndarray:
    """Block-scaled FP8 matmul in NT form with FP32 promotion (contract
    section 1, `fp8.scaled_matmul`):
    `D[m, n] = sum_kb (sum_{k in kb} f32(qa[m, k]) * f32(qb[n, k])) * sa * sb`.

    - `a_codes` uint8 [M, K], `a_scales` float32 ceil([M, K] / a_block);
    - `b_codes` uint8 [N, K] (NT: K contiguous, as an nn.Linear weight),
      `b_scales` float32 ceil([N, K] / b_block);
    - each block's K size must span K or be a multiple of
      `promote_interval`, itself a positive multiple of 32 (one wgmma k32);
    - `fmt` of A (and of B unless `b_fmt` is given);
    - `out`: "bf16" (RNE from the f32 accumulator; returned as float32
      holding bf16 values) or "f32";
    - `emulate_accumulator`: how the partial sum of each promotion interval
      is formed: None or "exact" for f32 sums; "sm90" for Hopper's `wgmma`
      FP8 accumulation, bit-exact against measured H100 outputs (32-product
      groups, products aligned by their inputs' exponents, terms truncated
      to 13 fraction bits of the largest, sums to 14 significant bits; see
      docs/numerics.md); "sm89" for Ada's `mma.sync` (16-product groups);
      an int N in 1..24 for the generic N-bit model (`accumulator-bits=N`);
    - `emulate_accumulator_bits`: the same as `emulate_accumulator=N` (kept
      for existing callers; give only one of the two).
    - `backend`: "cpu" (the reference lowering, JIT-compiled) or
      "gpu-emulator" (the sm_90a GEMM kernel of fp8-lower-to-nvvm run on the
      CPU emulator, fp8-emu: blocks (1, 128) and (128, 128), promote_interval
      128, any K (rows padded with zero codes to 16 bytes, as the compiled
      host program pads them); its wgmma accumulates exactly or, with
      emulate_accumulator="sm90"/"sm89", by that model; bit-equal to "cpu").

    Also `scaled_matmul(qa, qb, ...)` with two ScaledTensors (A [M, K] and
    B [N, K], each with its own block and format; the other arguments by
    keyword).

    Returns a float32 array [M, N].
    """
    (a_codes, a_scales, b_codes, b_scales), (a_block, b_block, fmt, b_fmt) = _matmul_operands(
        "scaled_matmul", (a_codes, a_scales, b_codes, b_scales), (a_block, b_block, fmt, b_fmt))
    a_block = (1, 128) if a_block is None else a_block
    b_block = (128, 128) if b_block is None else b_block
    fmt, a_et, b_et = _matmul_options(fmt, b_fmt, out, promote_interval)
    options = _accumulator_options(emulate_accumulator, emulate_accumulator_bits)
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(BACKENDS)}, got {backend!r}")
    a = _codes_array(a_codes, "a_codes")
    b = _codes_array(b_codes, "b_codes")
    if a.ndim != 2 or b.ndim != 2:
        raise ValueError(f"a_codes [M, K] and b_codes [N, K] must be 2-D, got shapes {a.shape} and {b.shape}")
    (m, k), (n, kb) = a.shape, b.shape
    if k != kb:
        raise ValueError(f"K of A ({k}) and K of B ({kb}) differ (NT layout: A [M, K], B [N, K])")
    ab = _blocks(a_block, a.shape, "a_block")
    bb = _blocks(b_block, b.shape, "b_block")
    for name, blk in (("a_block", ab), ("b_block", bb)):
        if blk[1] < k and blk[1] % promote_interval:
            raise ValueError(
                f"{name} K size {blk[1]} is neither the whole K ({k}) nor a multiple of "
                f"promote_interval ({promote_interval}): each promotion interval needs one scale"
            )
    a_sshape = _scale_shape(a.shape, ab)
    b_sshape = _scale_shape(b.shape, bb)
    sa = _scales_array(a_scales, a_sshape, "a_scales")
    sb = _scales_array(b_scales, b_sshape, "b_scales")
    # With K > 0 the compiled code writes every element (no memset of
    # M x N per call); an empty K contributes nothing: zeros. A bf16 result
    # comes back as float32: the IR widens the rounded result (arith.extf),
    # which the CPU kernel fuses into its store, so there is nothing to decode.
    result = (np.empty if k else np.zeros)((m, n), np.float32)
    if backend == "gpu-emulator" and m and n and k:
        b_fmt = b_fmt if b_fmt is not None else fmt
        return _scaled_matmul_on_emulator(a, sa, b, sb, ab, bb, fmt, b_fmt, promote_interval, options, out)
    if m and n and k:
        a_s, a_ss = _dynamic_rows(a.shape, a_block), _dynamic_rows(a_sshape, a_block)
        ms = -1 if a_s[0] < 0 else m
        at, bt = _scaled(a_s, a_et, ab, "f32"), _scaled(b.shape, b_et, bb, "f32")
        ot, wt = _ty("tensor", (ms, n), out), _ty("tensor", (ms, n), "f32")
        widen = f"\n  %w = arith.extf %d : {ot} to {wt}" if out == "bf16" else ""
        ir = f"""
func.func @scaled_matmul(%ad: {_ty("memref", a_s, a_et)}, %as: {_ty("memref", a_ss, "f32")},
                         %bd: {_ty("memref", b.shape, b_et)}, %bs: {_ty("memref", b_sshape, "f32")},
                         %out: {_ty("memref", (ms, n), "f32")}) {{
  %a0 = bufferization.to_tensor %ad restrict : {_ty("memref", a_s, a_et)} to {_ty("tensor", a_s, a_et)}
  %a1 = bufferization.to_tensor %as restrict : {_ty("memref", a_ss, "f32")} to {_ty("tensor", a_ss, "f32")}
  %b0 = bufferization.to_tensor %bd restrict : {_ty("memref", b.shape, b_et)} to {_ty("tensor", b.shape, b_et)}
  %b1 = bufferization.to_tensor %bs restrict : {_ty("memref", b_sshape, "f32")} to {_ty("tensor", b_sshape, "f32")}
  %a = fp8.assemble %a0, %a1 : {_ty("tensor", a_s, a_et)}, {_ty("tensor", a_ss, "f32")} -> {at}
  %b = fp8.assemble %b0, %b1 : {_ty("tensor", b.shape, b_et)}, {_ty("tensor", b_sshape, "f32")} -> {bt}
  %d = fp8.scaled_matmul %a, %b {{promote_interval = {int(promote_interval)} : i64}} : {at}, {bt} -> {ot}{widen}
  bufferization.materialize_in_destination {"%w" if widen else "%d"} in restrict writable %out
      : ({wt}, {_ty("memref", (ms, n), "f32")}) -> ()
  return
}}
"""
        fn = _compile(ir, options)
        if a_s[0] >= 0:  # M is static (a block spans it): one call
            fn.call("scaled_matmul", a, sa, b, sb, result)
        else:
            _by_rows(m, ab[0], n * k, _CHUNK_MACS,
                     lambda r0, r1, s0, s1: fn.call("scaled_matmul", a[r0:r1], sa[s0:s1], b, sb,
                                                    result[r0:r1]))
    return result


# ---------------------------------------------------------------------------
# grouped_scaled_matmul
# ---------------------------------------------------------------------------


def _row_indices(v, what: str, length: int, expected: str, low: int, high: int) -> np.ndarray:
    """An integer array of shape [length] with every value in [low, high],
    as int64 (then int32, the op's operand, in the caller); other dtypes are
    rejected, not cast. The range is checked in the array's own dtype, so a
    uint64 value above 2**63 is reported as it is, not wrapped. An empty
    list (NumPy makes it float64) is an empty integer array."""
    arr = np.asarray(v)
    if arr.size == 0 and not isinstance(v, np.ndarray):
        arr = arr.astype(np.int64)
    if arr.dtype.kind not in "iu":
        raise ValueError(f"{what} must be an integer array, got dtype {arr.dtype}")
    if arr.shape != (length,):
        raise ValueError(f"{what} has shape {arr.shape}, expected {expected} = ({length},)")
    below = np.zeros(arr.shape, bool) if arr.dtype.kind == "u" and low <= 0 else arr < low
    bad = np.flatnonzero(below | (arr > high))
    if bad.size:
        i = int(bad[0])
        raise ValueError(f"{what}[{i}] = {int(arr[i])} is outside {_range_text(what, low, high)}")
    return np.ascontiguousarray(arr, dtype=np.int64)


def _range_text(what: str, low: int, high: int) -> str:
    if what == "counts":
        return f"[0, M] with M = {high}"
    return f"[-1, G) with G = {high + 1} (-1 marks padding)"


def _check_group_ids(ids: np.ndarray, groups: int, m_alignment: int) -> None:
    """The contiguous layout's contract on `group_ids` (the op asserts the
    first two at run time; checked here to name the row): indices in
    [-1, G) (checked by _row_indices), rows of one group consecutive, each
    group's run starting at a multiple of m_alignment."""
    if not ids.size:
        return
    starts = np.flatnonzero(np.concatenate(([True], ids[1:] != ids[:-1])))
    seen = set()
    for r in starts.tolist():
        g = int(ids[r])
        if g < 0:
            continue
        if g in seen:
            raise ValueError(
                f"group_ids: the rows of group {g} are not consecutive (a second run starts at row {r}); "
                "sort the tokens by group"
            )
        seen.add(g)
        if r % m_alignment:
            raise ValueError(
                f"group_ids: group {g} starts at row {r}, not a multiple of m_alignment ({m_alignment}); "
                "pad the previous group with -1 rows"
            )


def grouped_scaled_matmul(
    a_codes,
    a_scales,
    b_codes=None,
    b_scales=None,
    counts=None,
    group_ids=None,
    m_alignment: int = 128,
    a_block: Optional[Sequence[Optional[int]]] = None,
    b_block: Optional[Sequence[Optional[int]]] = None,
    fmt: Optional[str] = None,
    promote_interval: int = 128,
    out: str = "bf16",
    b_fmt: Optional[str] = None,
    emulate_accumulator: Union[None, str, int] = None,
    backend: str = "cpu",
) -> np.ndarray:
    """G block-scaled FP8 matmuls in one call, the MoE routed experts
    (`fp8.grouped_scaled_matmul`, DeepGEMM's m-grouped layouts): group g
    multiplies its rows of A by its own weight B[g] (NT, [N, K]), each
    product exactly `scaled_matmul` on the group's 2-D slices.

    The layout follows A's rank:

    - masked (A 3-D): `a_codes` uint8 [G, M, K], `a_scales` float32
      ceil([G, M, K] / a_block) (default block (1, 1, 128)); optional
      `counts` (integers [G], each in [0, M]): the valid rows of each
      group, rows m >= counts[g] are +0.0 (all M rows without counts).
      Returns [G, M, N].
    - contiguous (A 2-D): `a_codes` uint8 [M, K] (tokens sorted by group),
      `a_scales` ceil([M, K] / a_block) (default (1, 128)); `group_ids`
      (integers [M], required): the group of every row, -1 for a padding
      row (+0.0); a group's rows are consecutive and start at a multiple
      of `m_alignment` (default 128, the GPU kernel's BLOCK_M; A's M-block
      must divide it). Returns [M, N].

    B: `b_codes` uint8 [G, N, K], `b_scales` ceil([G, N, K] / b_block)
    (default (1, 128, 128): each expert's 128x128 weight blocks). Blocks
    along G must be 1. `fmt`, `b_fmt`, `promote_interval`, `out` and
    `emulate_accumulator` are those of `scaled_matmul`. Also
    `grouped_scaled_matmul(qa, qb, ...)` with two ScaledTensors.
    `backend`: "cpu" only (the reference lowering, JIT-compiled).

    Returns a float32 array (bf16 values with out="bf16").
    """
    (a_codes, a_scales, b_codes, b_scales), (a_block, b_block, fmt, b_fmt) = _matmul_operands(
        "grouped_scaled_matmul", (a_codes, a_scales, b_codes, b_scales), (a_block, b_block, fmt, b_fmt))
    fmt, a_et, b_et = _matmul_options(fmt, b_fmt, out, promote_interval)
    options = _accumulator_options(emulate_accumulator, None)
    if backend != "cpu":
        raise ValueError(
            f"backend must be 'cpu' (the grouped GEMM kernel has no Python emulator path), got {backend!r}"
        )
    a = _codes_array(a_codes, "a_codes")
    b = _codes_array(b_codes, "b_codes")
    if a.ndim not in (2, 3):
        raise ValueError(
            "a_codes must be 3-D [G, M, K] (masked layout) or 2-D [M, K] (contiguous layout), "
            f"got shape {a.shape}"
        )
    masked = a.ndim == 3
    if b.ndim != 3:
        raise ValueError(f"b_codes must be 3-D [G, N, K] (one NT weight per group), got shape {b.shape}")
    (groups, n, kb), k, m = b.shape, a.shape[-1], a.shape[-2]
    if masked and a.shape[0] != groups:
        raise ValueError(f"G of a_codes ({a.shape[0]}) and G of b_codes ({groups}) differ")
    if k != kb:
        raise ValueError(f"K of A ({k}) and K of B ({kb}) differ (NT layout: B [G, N, K])")
    user_a_block = a_block
    default_a_block = (1, 1, 128) if masked else (1, 128)
    ab = _blocks(default_a_block if a_block is None else a_block, a.shape, "a_block")
    bb = _blocks((1, 128, 128) if b_block is None else b_block, b.shape, "b_block")
    if bb[0] != 1 and groups > 1:
        raise ValueError(f"b_block {tuple(b_block)} spans {bb[0]} groups: its size along G must be 1")
    bb = (1,) + bb[1:]
    if masked:
        if ab[0] != 1 and groups > 1:
            raise ValueError(f"a_block {tuple(user_a_block)} spans {ab[0]} groups: its size along G must be 1")
        ab = (1,) + ab[1:]
    for name, blk in (("a_block", ab), ("b_block", bb)):
        if blk[-1] < k and blk[-1] % promote_interval:
            raise ValueError(
                f"{name} K size {blk[-1]} is neither the whole K ({k}) nor a multiple of "
                f"promote_interval ({promote_interval}): each promotion interval needs one scale"
            )
    a_sshape, b_sshape = _scale_shape(a.shape, ab), _scale_shape(b.shape, bb)
    sa = _scales_array(a_scales, a_sshape, "a_scales")
    sb = _scales_array(b_scales, b_sshape, "b_scales")
    rows = None
    if masked:
        if group_ids is not None:
            raise ValueError(
                "group_ids belongs to the contiguous layout (2-D a_codes); the masked layout takes counts"
            )
        if counts is not None:
            rows = _row_indices(counts, "counts", groups, "[G]", 0, m)
    else:
        if counts is not None:
            raise ValueError(
                "counts belongs to the masked layout (3-D a_codes); the contiguous layout takes group_ids"
            )
        if group_ids is None:
            raise ValueError(
                "the contiguous layout (2-D a_codes) needs group_ids: the group of every row of A, -1 for padding"
            )
        if not _is_int(m_alignment) or not 0 < m_alignment <= _I64_MAX:
            raise ValueError(f"m_alignment must be a positive integer below 2**63, got {m_alignment!r}")
        if m_alignment % ab[0]:
            raise ValueError(
                f"a_block M size {ab[0]} does not divide m_alignment ({m_alignment}): "
                "a group would start inside a scale block"
            )
        rows = _row_indices(group_ids, "group_ids", m, "[M]", -1, groups - 1)
        _check_group_ids(rows, groups, int(m_alignment))
    if rows is not None:
        rows = rows.astype(np.int32)
    # Rows that are not computed hold +0.0; with K > 0 the compiled code
    # writes every element of what it is given.
    result = (np.empty if k else np.zeros)(a.shape[:-1] + (n,), np.float32 if out == "f32" else np.uint16)
    if result.size and k:
        _grouped_on_cpu(a, sa, b, sb, rows, ab, bb, user_a_block, a_et, b_et, masked, int(m_alignment),
                        int(promote_interval), options, out, result)
    return result if out == "f32" else _bf16_bits_to_f32(result)


def _grouped_on_cpu(a, sa, b, sb, rows, ab, bb, user_a_block, a_et, b_et, masked, m_alignment,
                    promote_interval, options, out, result):
    """Compiles (cached) and runs the grouped op: G dynamic, M dynamic unless
    A's block spans it; calls in chunks of whole groups (masked) or of
    m_alignment-aligned rows (contiguous: a run cut at such a row still
    starts aligned) so that Ctrl-C is handled between them."""
    (_, n, k) = b.shape
    whole_m = user_a_block is not None and tuple(user_a_block)[-2] is None
    if masked:
        a_s = (-1, a.shape[1] if whole_m else -1, k)
        a_ss = (-1, a_s[1] if whole_m else -1, sa.shape[2])
        o_s = (-1, a_s[1], n)
        row_arg = rows is not None
    else:
        a_s = (a.shape[0] if whole_m else -1, k)
        a_ss = (a_s[0] if whole_m else -1, sa.shape[1])
        o_s = (a_s[0], n)
        row_arg = True
    b_s, b_ss = (-1, n, k), (-1, sb.shape[1], sb.shape[2])
    at, bt = _scaled(a_s, a_et, ab, "f32"), _scaled(b_s, b_et, bb, "f32")
    ot = _ty("tensor", o_s, out)
    layout = "masked" if masked else "contiguous"
    rows_ty = _ty("tensor", (-1,), "i32")
    rows_arg = f", %rows: {_ty('memref', (-1,), 'i32')}" if row_arg else ""
    rows_val = (f"\n  %r = bufferization.to_tensor %rows restrict : {_ty('memref', (-1,), 'i32')} to {rows_ty}"
                if row_arg else "")
    rows_use = (f" counts(%r : {rows_ty})" if masked else f" group_ids(%r : {rows_ty})") if row_arg else ""
    attrs = f"promote_interval = {promote_interval} : i64"
    if not masked:
        attrs += f", m_alignment = {m_alignment} : i64"
    ir = f"""
func.func @grouped(%ad: {_ty("memref", a_s, a_et)}, %as: {_ty("memref", a_ss, "f32")},
                   %bd: {_ty("memref", b_s, b_et)}, %bs: {_ty("memref", b_ss, "f32")}{rows_arg},
                   %out: {_ty("memref", o_s, out)}) {{
  %a0 = bufferization.to_tensor %ad restrict : {_ty("memref", a_s, a_et)} to {_ty("tensor", a_s, a_et)}
  %a1 = bufferization.to_tensor %as restrict : {_ty("memref", a_ss, "f32")} to {_ty("tensor", a_ss, "f32")}
  %b0 = bufferization.to_tensor %bd restrict : {_ty("memref", b_s, b_et)} to {_ty("tensor", b_s, b_et)}
  %b1 = bufferization.to_tensor %bs restrict : {_ty("memref", b_ss, "f32")} to {_ty("tensor", b_ss, "f32")}{rows_val}
  %a = fp8.assemble %a0, %a1 : {_ty("tensor", a_s, a_et)}, {_ty("tensor", a_ss, "f32")} -> {at}
  %b = fp8.assemble %b0, %b1 : {_ty("tensor", b_s, b_et)}, {_ty("tensor", b_ss, "f32")} -> {bt}
  %d = fp8.grouped_scaled_matmul {layout} %a, %b{rows_use} {{{attrs}}} : {at}, {bt} -> {ot}
  bufferization.materialize_in_destination %d in restrict writable %out : ({ot}, {_ty("memref", o_s, out)}) -> ()
  return
}}
"""
    fn = _compile(ir, options)
    if masked:
        m = a.shape[1]

        def call(g0, g1, _s0, _s1):
            extra = (rows[g0:g1],) if row_arg else ()
            fn.call("grouped", a[g0:g1], sa[g0:g1], b[g0:g1], sb[g0:g1], *extra, result[g0:g1])

        _by_rows(a.shape[0], 1, m * n * k, _CHUNK_MACS, call)
    elif whole_m:
        fn.call("grouped", a, sa, b, sb, rows, result)
    else:
        def call(r0, r1, _s0, _s1):
            s0, s1 = r0 // ab[0], -(-min(r1, a.shape[0]) // ab[0])
            fn.call("grouped", a[r0:r1], sa[s0:s1], b, sb, rows[r0:r1], result[r0:r1])

        _by_rows(a.shape[0], m_alignment, n * k, _CHUNK_MACS, call)


# ---------------------------------------------------------------------------
# The "gpu-emulator" backend: the sm_90a kernels on the CPU emulator
# ---------------------------------------------------------------------------

BACKENDS = ("cpu", "gpu-emulator")


def _lower_to_nvvm(graph: str) -> str:
    # The shape's fixed configuration: the kernel is then found by the name
    # gemm_kernel_name() gives (config=auto would add a `_t...` suffix).
    return run_pipeline(graph, "fp8-lower-to-nvvm{config=fixed}")


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
    kernel = gemm_kernel_name(m, n, k, fmt, b_fmt, out)
    bits_out = _native.emulate_gemm(
        _lower_to_nvvm(graph),
        kernel,
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
    kernel = quantize_kernel_name(rows, cols, blk[0], "f32", fmt, scale == "pow2", float(eps))
    codes, scale_bits = _native.emulate_quantize(
        _lower_to_nvvm(graph), kernel, np.ascontiguousarray(x, np.float32).view(np.uint32), blk[0]
    )
    return ScaledTensor(codes, scale_bits.view(np.float32).copy(), blk, fmt, scale)
