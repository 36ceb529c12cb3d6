"""grouped_scaled_matmul (fp8.grouped_scaled_matmul run by the compiler's CPU
lowering), checked per group against the FP64 scaled_matmul reference of
fp8ref.py: masked and contiguous layouts, empty and single-row groups, G = 1,
padding rows, and bad arguments."""

import numpy as np
import pytest

import fp8_mlir
from fp8_mlir import numerics
from fp8_mlir.numerics import ScaledTensor, grouped_scaled_matmul, quantize, scaled_matmul

import fp8ref
from conftest import require_passes

pytestmark = require_passes("fp8-cpu-pipeline")

# Reseeded for each test from its name (conftest.py).
RNG = np.random.default_rng(4321)


def _weights(g, n, k, fmt="e4m3", block=(1, 128, 128)):
    """B [G, N, K], each expert with its own magnitude."""
    w = RNG.standard_normal((g, n, k)) * (0.05 * (1 + np.arange(g)))[:, None, None]
    return quantize(w.astype(np.float32), block=block, fmt=fmt)


def _activations(shape, fmt="e4m3", block=None):
    x = RNG.standard_normal(shape) * (1 + RNG.integers(0, 8, shape[:-1] + (1,)))
    return quantize(x.astype(np.float32), block=block or (1,) * (len(shape) - 1) + (128,), fmt=fmt)


def _group_ref(qa_codes, qa_scales, a_block, qb, g, fmt="e4m3", b_fmt=None):
    """FP64 reference and f32 error bound of rows `qa_codes` times B[g]."""
    args = (qa_codes, qa_scales, qb.codes[g], qb.scales[g], a_block, qb.block[1:], fmt, b_fmt)
    return fp8ref.scaled_matmul(*args), fp8ref.scaled_matmul_bound(*args)


def _assert_zero_bits(x):
    """+0.0 bit for bit (not -0.0, not a tiny value)."""
    assert not x.view(np.uint32).any(), x


def test_exported_at_package_level():
    assert fp8_mlir.grouped_scaled_matmul is grouped_scaled_matmul
    assert "grouped_scaled_matmul" in fp8_mlir.__all__


# -- masked layout -------------------------------------------------------------------


@pytest.mark.parametrize(
    "g, m, n, k, counts",
    [
        (4, 6, 40, 200, [6, 0, 1, 3]),  # a full, an empty, a single-row and a partial group; K tail
        (3, 5, 130, 256, None),  # no counts: every row; N across two weight blocks
        (1, 7, 16, 128, [7]),  # G = 1
        (1, 1, 8, 384, [1]),  # one row in one group
        (2, 4, 24, 128, [0, 0]),  # nothing to compute
    ],
)
def test_masked_matches_fp64_per_group(g, m, n, k, counts):
    qa, qb = _activations((g, m, k)), _weights(g, n, k)
    out = grouped_scaled_matmul(qa, qb, counts=counts, out="f32")
    assert out.shape == (g, m, n) and out.dtype == np.float32
    for i in range(g):
        rows = m if counts is None else counts[i]
        ref, bound = _group_ref(qa.codes[i, :rows], qa.scales[i, :rows], (1, 128), qb, i)
        assert np.all(np.abs(out[i, :rows] - ref) <= bound), i
        _assert_zero_bits(out[i, rows:])


def test_masked_bf16_and_bit_identical_to_scaled_matmul_per_group():
    # The op's contract: each computed row is scaled_matmul on the group's
    # 2-D slices, bit for bit (here with Hopper's accumulation model too).
    g, m, n, k, counts = 3, 5, 48, 256, [2, 5, 1]
    qa, qb = _activations((g, m, k)), _weights(g, n, k)
    for acc in (None, "sm90"):
        out = grouped_scaled_matmul(qa, qb, counts=np.array(counts, np.int64), emulate_accumulator=acc)
        assert not (out.view(np.uint32) & 0xFFFF).any()  # bf16 values
        for i in range(g):
            two_d = scaled_matmul(ScaledTensor(qa.codes[i], qa.scales[i], (1, 128)),
                                  ScaledTensor(qb.codes[i], qb.scales[i], (128, 128)), emulate_accumulator=acc)
            np.testing.assert_array_equal(out[i, :counts[i]], two_d[:counts[i]])
            _assert_zero_bits(out[i, counts[i]:])
            if acc is not None:
                continue  # Hopper's truncating adds are not within the f32 bound
            ref, bound = _group_ref(qa.codes[i, :counts[i]], qa.scales[i, :counts[i]], (1, 128), qb, i)
            # RNE to bf16: within 2^-9 relative of the f32 value.
            assert np.all(np.abs(out[i, :counts[i]] - ref) <= bound + np.abs(ref) * 2.0**-8)


def test_masked_e5m2_weights_and_other_blocks():
    # (1, 2, 128) activation blocks (two rows per scale, one of them past a
    # count of 3) and E5M2 weights with (1, 32, 128) blocks.
    g, m, n, k, counts = 2, 5, 40, 256, [3, 5]
    qa = _activations((g, m, k), block=(1, 2, 128))
    qb = _weights(g, n, k, fmt="e5m2", block=(1, 32, 128))
    out = grouped_scaled_matmul(qa, qb, counts=counts, out="f32")
    for i in range(g):
        r = counts[i]
        # The group's scale rows: ceil(r / 2), the last one shared by the
        # valid row and a row past the count.
        ref, bound = _group_ref(qa.codes[i, :r], qa.scales[i, :-(-r // 2)], (2, 128), qb, i, b_fmt="e5m2")
        assert np.all(np.abs(out[i, :r] - ref) <= bound), i
        _assert_zero_bits(out[i, r:])


# -- contiguous layout ---------------------------------------------------------------


@pytest.mark.parametrize(
    "ids, groups, m_alignment",
    [
        # Group 1 (three rows), padding, group 0 (one row), padding, group 2;
        # group 3 empty.
        ([1, 1, 1, -1, 0, -1, 2, 2, 2], 4, 2),
        ([0, 0, 0, 0, 0], 1, 128),  # G = 1, one run
        ([-1, -1, -1], 2, 128),  # padding only
        ([2], 3, 1),  # a single row
    ],
)
def test_contiguous_matches_fp64_per_row(ids, groups, m_alignment):
    k, n = 200, 40
    qa, qb = _activations((len(ids), k)), _weights(groups, n, k)
    out = grouped_scaled_matmul(qa, qb, group_ids=ids, m_alignment=m_alignment, out="f32")
    assert out.shape == (len(ids), n) and out.dtype == np.float32
    for r, gid in enumerate(ids):
        if gid < 0:
            _assert_zero_bits(out[r])
            continue
        ref, bound = _group_ref(qa.codes[r:r + 1], qa.scales[r:r + 1], (1, 128), qb, gid)
        assert np.all(np.abs(out[r] - ref[0]) <= bound[0]), r


def test_contiguous_default_alignment_bf16():
    # m_alignment 128 (the kernel's BLOCK_M): groups at rows 0, 128 and 256,
    # the first run padded with -1, the last one shorter.
    ids = np.full(300, -1, np.int32)
    ids[0:100], ids[128:256], ids[256:300] = 2, 0, 1
    k, n = 128, 24
    qa, qb = _activations((300, k)), _weights(3, n, k)
    out = grouped_scaled_matmul(qa, qb, group_ids=ids)
    for g, (r0, r1) in ((2, (0, 100)), (0, (128, 256)), (1, (256, 300))):
        ref, bound = _group_ref(qa.codes[r0:r1], qa.scales[r0:r1], (1, 128), qb, g)
        assert np.all(np.abs(out[r0:r1] - ref) <= bound + np.abs(ref) * 2.0**-8), g
    _assert_zero_bits(out[100:128])


def test_unsigned_counts_and_group_ids():
    # uint64 / uint32 arrays in range: the same products as int64 ones.
    qa, qb = _activations((2, 5, 128)), _weights(2, 16, 128)
    want = grouped_scaled_matmul(qa, qb, counts=np.array([3, 5], np.int64), out="f32")
    for dt in (np.uint64, np.uint32, np.uint8):
        got = grouped_scaled_matmul(qa, qb, counts=np.array([3, 5], dt), out="f32")
        np.testing.assert_array_equal(got, want)
    _assert_zero_bits(want[0, 3:])
    x = _activations((4, 128))
    ids = grouped_scaled_matmul(x, qb, group_ids=np.array([0, 0, 1, 1], np.uint64), m_alignment=2, out="f32")
    np.testing.assert_array_equal(ids, grouped_scaled_matmul(x, qb, group_ids=[0, 0, 1, 1], m_alignment=2, out="f32"))


def test_chunked_calls_give_the_same_result(monkeypatch):
    # Long calls run in chunks (whole groups; m_alignment-aligned rows): a
    # run cut by a chunk boundary must still give the one-call result.
    qa, qb = _activations((5, 7, 128)), _weights(5, 16, 128)
    counts = [7, 2, 0, 7, 1]
    x = _activations((12, 128))
    ids = [0, 0, 0, 0, 0, 0, -1, -1, 1, 1, 1, 1]
    whole_m = grouped_scaled_matmul(qa, qb, counts=counts, out="f32")
    whole_c = grouped_scaled_matmul(x, qb, group_ids=ids, m_alignment=4, out="f32")
    monkeypatch.setattr(numerics, "_CHUNK_MACS", 1)
    np.testing.assert_array_equal(grouped_scaled_matmul(qa, qb, counts=counts, out="f32"), whole_m)
    np.testing.assert_array_equal(grouped_scaled_matmul(x, qb, group_ids=ids, m_alignment=4, out="f32"), whole_c)


def test_compiled_once_for_every_group_and_row_count():
    numerics._cache.clear()
    for g, m in ((1, 1), (3, 5), (8, 2)):
        qa, qb = _activations((g, m, 128)), _weights(g, 16, 128)
        grouped_scaled_matmul(qa, qb, counts=[m] * g)
        grouped_scaled_matmul(quantize(np.ones((m, 128), np.float32)), qb, group_ids=[0] * m, m_alignment=1)
    # One masked and one contiguous function (plus the quantize calls).
    assert sum("grouped_scaled_matmul" in key for key in numerics._cache) == 2


def test_empty_dimensions():
    qb = _weights(2, 8, 128)
    out = grouped_scaled_matmul(np.zeros((2, 0, 128), np.uint8), np.ones((2, 0, 1), np.float32), qb.codes, qb.scales)
    assert out.shape == (2, 0, 8)
    out = grouped_scaled_matmul(np.zeros((0, 128), np.uint8), np.ones((0, 1), np.float32), qb.codes, qb.scales,
                                group_ids=np.zeros(0, np.int32))
    assert out.shape == (0, 8)
    # Empty counts and group_ids as plain lists (NumPy makes them float64).
    out = grouped_scaled_matmul(np.zeros((0, 3, 128), np.uint8), np.ones((0, 3, 1), np.float32),
                                np.zeros((0, 8, 128), np.uint8), np.ones((0, 1, 1), np.float32), counts=[])
    assert out.shape == (0, 3, 8)
    out = grouped_scaled_matmul(np.zeros((0, 128), np.uint8), np.ones((0, 1), np.float32), qb.codes, qb.scales,
                                group_ids=[])
    assert out.shape == (0, 8)
    # K = 0: every product is empty, +0.0.
    out = grouped_scaled_matmul(np.zeros((2, 3, 0), np.uint8), np.ones((2, 3, 0), np.float32),
                                np.zeros((2, 8, 0), np.uint8), np.ones((2, 1, 0), np.float32), out="f32")
    _assert_zero_bits(out)


# -- bad arguments -------------------------------------------------------------------


def _masked_args():
    return dict(a_codes=np.zeros((2, 4, 256), np.uint8), a_scales=np.ones((2, 4, 2), np.float32),
                b_codes=np.zeros((2, 64, 256), np.uint8), b_scales=np.ones((2, 1, 2), np.float32))


def _contiguous_args():
    args = _masked_args()
    args.update(a_codes=np.zeros((4, 256), np.uint8), a_scales=np.ones((4, 2), np.float32),
                group_ids=[0, 0, 1, 1], m_alignment=2)
    return args


@pytest.mark.parametrize(
    "base, change, message",
    [
        (_masked_args, dict(a_codes=np.zeros((2, 4, 256), np.float32)), "a_codes must be a uint8"),
        (_masked_args, dict(b_codes=np.zeros((64, 256), np.uint8)), "b_codes must be 3-D"),
        (_masked_args, dict(a_codes=np.zeros((2, 2, 4, 256), np.uint8)), "a_codes must be 3-D .* or 2-D"),
        (_masked_args, dict(a_codes=np.zeros((3, 4, 256), np.uint8)), "G of a_codes"),
        (_masked_args, dict(b_codes=np.zeros((2, 64, 128), np.uint8)), "K of A"),
        (_masked_args, dict(a_scales=np.ones((2, 4, 3), np.float32)), "a_scales has shape"),
        (_masked_args, dict(b_scales=np.ones((1, 1, 2), np.float32)), "b_scales has shape"),
        (_masked_args, dict(a_block=(2, 1, 128), a_scales=np.ones((1, 4, 2), np.float32)), "a_block .* along G"),
        (_masked_args, dict(b_block=(2, 128, 128), b_scales=np.ones((1, 1, 2), np.float32)), "b_block .* along G"),
        (_masked_args, dict(a_block=(1, 128)), "a_block"),
        (_masked_args, dict(a_block=(1, 1, 64), a_scales=np.ones((2, 4, 4), np.float32)),
         "multiple of promote_interval"),
        (_masked_args, dict(promote_interval=100), "promote_interval"),
        (_masked_args, dict(counts=[1, 2, 3]), r"counts has shape \(3,\), expected \[G\]"),
        (_masked_args, dict(counts=[1.0, 2.0]), "counts must be an integer array"),
        (_masked_args, dict(counts=[1, 5]), r"counts\[1\] = 5 is outside \[0, M\]"),
        (_masked_args, dict(counts=[-1, 0]), r"counts\[0\] = -1"),
        # Unsigned values are reported as they are, not wrapped to int64.
        (_masked_args, dict(counts=np.array([2**64 - 1, 0], np.uint64)),
         r"counts\[0\] = 18446744073709551615 is outside \[0, M\]"),
        (_masked_args, dict(counts=np.array([1, 2**63], np.uint64)), r"counts\[1\] = 9223372036854775808 is"),
        (_masked_args, dict(counts=[]), r"counts has shape \(0,\), expected \[G\]"),
        (_masked_args, dict(group_ids=[0, 0, 0, 0]), "group_ids belongs to the contiguous layout"),
        (_masked_args, dict(out="f16"), "out"),
        (_masked_args, dict(fmt="e4m3fnuz"), "fmt"),
        (_masked_args, dict(b_fmt="e3m4"), "b_fmt"),
        (_masked_args, dict(emulate_accumulator="sm100"), "emulate_accumulator"),
        (_masked_args, dict(backend="gpu-emulator"), "backend must be 'cpu'"),
        (_masked_args, dict(b_codes=None), "needs"),
        (_contiguous_args, dict(group_ids=None), "needs group_ids"),
        (_contiguous_args, dict(counts=[1, 1]), "counts belongs to the masked layout"),
        (_contiguous_args, dict(group_ids=[0, 0, 1]), r"group_ids has shape \(3,\), expected \[M\]"),
        (_contiguous_args, dict(group_ids=np.zeros(4, np.float32)), "group_ids must be an integer array"),
        (_contiguous_args, dict(group_ids=[0, 0, 2, 2]), r"group_ids\[2\] = 2 is outside \[-1, G\)"),
        (_contiguous_args, dict(group_ids=[0, -2, 1, 1]), r"group_ids\[1\] = -2"),
        (_contiguous_args, dict(group_ids=np.array([0, 0, 2**64 - 1, 1], np.uint64)),
         r"group_ids\[2\] = 18446744073709551615 is outside \[-1, G\)"),
        (_contiguous_args, dict(group_ids=[0, 1, 1, -1]), "group 1 starts at row 1, not a multiple of m_alignment"),
        (_contiguous_args, dict(group_ids=[0, 0, 1, 1], m_alignment=4), "not a multiple of m_alignment"),
        (_contiguous_args, dict(group_ids=[0, 0, 1, 0], m_alignment=1), "rows of group 0 are not consecutive"),
        (_contiguous_args, dict(m_alignment=0), "m_alignment must be a positive integer"),
        (_contiguous_args, dict(m_alignment=True), "m_alignment must be a positive integer"),
        (_contiguous_args, dict(a_block=(4, 128), a_scales=np.ones((1, 2), np.float32)),
         "a_block M size 4 does not divide m_alignment"),
    ],
)
def test_bad_arguments_name_the_argument(base, change, message):
    args = base()
    args.update(change)
    with pytest.raises(ValueError, match=message):
        grouped_scaled_matmul(**args)
