"""scaled_matmul and its accumulator models."""

from __future__ import annotations

from typing import Optional, Sequence, Union

import numpy as np

from .. import numerics as _seams
from .cache import _compile
from .checks import _blocks, _codes_array, _is_int, _scale_shape, _scales_array
from .emulator import BACKENDS, GPU_BACKENDS, _run_on_gpu
from .ir_text import _dynamic_rows, _scaled, _ty
from .scaled_tensor import _matmul_operands, _matmul_options


#: Hardware accumulation models of `emulate_accumulator` (the pipeline's
#: `accumulator` option).
ACCUMULATORS = ("exact", "sm90", "sm89")


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
      "gpu-emulator" (the same function through fp8-gpu-pipeline, its host
      program run on the emulated CUDA runtime with the sm_90a GEMM kernel;
      its wgmma accumulates exactly or, with emulate_accumulator="sm90" /
      "sm89", by that model; bit-equal to "cpu"; a form no kernel
      implements is a ValueError carrying the compiler's remark, a fault of
      a launch a RuntimeError carrying the emulator's report), or "cuda"
      (the same host program with the kernels as PTX, run on device 0, an
      sm_90a GPU, through the project's CUDA runtime; its wgmma accumulates
      as the hardware does, so the result equals "cpu" with
      emulate_accumulator="sm90"; emulate_accumulator must be None or
      "sm90"; no runtime, driver or device is a RuntimeError naming what is
      missing, as is a driver error).

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
    if backend in GPU_BACKENDS and m and n and k:
        # Static shapes: the host program of this one problem, in one call;
        # the emulated wgmma accumulates by the requested model, the
        # device's as the device does.
        ir = _scaled_matmul_ir(a.shape, a_sshape, b.shape, b_sshape, a_et, b_et, ab, bb, out, promote_interval)
        model = options.split("=", 1)[1] if options else emulate_accumulator  # None or "exact"
        _run_on_gpu(backend, ir, "scaled_matmul", (a, sa, b, sb, result), model)
    elif m and n and k:
        a_s, a_ss = _dynamic_rows(a.shape, a_block), _dynamic_rows(a_sshape, a_block)
        fn = _compile(_scaled_matmul_ir(a_s, a_ss, b.shape, b_sshape, a_et, b_et, ab, bb, out, promote_interval),
                      options)
        if a_s[0] >= 0:  # M is static (a block spans it): one call
            fn.call("scaled_matmul", a, sa, b, sb, result)
        else:
            _seams._by_rows(m, ab[0], n * k, _seams._CHUNK_MACS,
                            lambda r0, r1, s0, s1: fn.call("scaled_matmul", a[r0:r1], sa[s0:s1], b, sb,
                                                           result[r0:r1]))
    return result


def _scaled_matmul_ir(a_s, a_ss, b_s, b_ss, a_et, b_et, ab, bb, out, promote_interval) -> str:
    """`@scaled_matmul(ad, as, bd, bs, out)`: fp8.scaled_matmul of A [a_s]
    (scales [a_ss]; a -1 M: dynamic) and B [b_s] (scales [b_ss]) into out
    [M, N] f32 (a bf16 result widened), the function both backends compile."""
    ms, n = a_s[0], b_s[0]
    at, bt = _scaled(a_s, a_et, ab, "f32"), _scaled(b_s, b_et, bb, "f32")
    ot, wt = _ty("tensor", (ms, n), out), _ty("tensor", (ms, n), "f32")
    widen = f"\n  %w = arith.extf %d : {ot} to {wt}" if out == "bf16" else ""
    return f"""
func.func @scaled_matmul(%ad: {_ty("memref", a_s, a_et)}, %as: {_ty("memref", a_ss, "f32")},
                         %bd: {_ty("memref", b_s, b_et)}, %bs: {_ty("memref", b_ss, "f32")},
                         %out: {_ty("memref", (ms, n), "f32")}) {{
  %a0 = bufferization.to_tensor %ad restrict : {_ty("memref", a_s, a_et)} to {_ty("tensor", a_s, a_et)}
  %a1 = bufferization.to_tensor %as restrict : {_ty("memref", a_ss, "f32")} to {_ty("tensor", a_ss, "f32")}
  %b0 = bufferization.to_tensor %bd restrict : {_ty("memref", b_s, b_et)} to {_ty("tensor", b_s, b_et)}
  %b1 = bufferization.to_tensor %bs restrict : {_ty("memref", b_ss, "f32")} to {_ty("tensor", b_ss, "f32")}
  %a = fp8.assemble %a0, %a1 : {_ty("tensor", a_s, a_et)}, {_ty("tensor", a_ss, "f32")} -> {at}
  %b = fp8.assemble %b0, %b1 : {_ty("tensor", b_s, b_et)}, {_ty("tensor", b_ss, "f32")} -> {bt}
  %d = fp8.scaled_matmul %a, %b {{promote_interval = {int(promote_interval)} : i64}} : {at}, {bt} -> {ot}{widen}
  bufferization.materialize_in_destination {"%w" if widen else "%d"} in restrict writable %out
      : ({wt}, {_ty("memref", (ms, n), "f32")}) -> ()
  return
}}
"""
