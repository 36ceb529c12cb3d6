"""grouped_scaled_matmul: the MoE GEMMs, masked or contiguous."""

from __future__ import annotations

from typing import Optional, Sequence, Union

import numpy as np

from .. import numerics as _seams
from .cache import _compile
from .checks import _I64_MAX, _blocks, _codes_array, _is_int, _scale_shape, _scales_array
from .formats import _bf16_bits_to_f32
from .ir_text import _scaled, _ty
from .matmul import _accumulator_options
from .scaled_tensor import _matmul_operands, _matmul_options


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

        _seams._by_rows(a.shape[0], 1, m * n * k, _seams._CHUNK_MACS, call)
    elif whole_m:
        fn.call("grouped", a, sa, b, sb, rows, result)
    else:
        def call(r0, r1, _s0, _s1):
            s0, s1 = r0 // ab[0], -(-min(r1, a.shape[0]) // ab[0])
            fn.call("grouped", a[r0:r1], sa[s0:s1], b, sb, rows[r0:r1], result[r0:r1])

        _seams._by_rows(a.shape[0], m_alignment, n * k, _seams._CHUNK_MACS, call)
