"""quantize / dequantize / scaled_matmul, run by the compiler's CPU lowering,
checked against FP64 references computed here (fp8ref.py) and hand-derived
values."""

import os

import numpy as np
import pytest

import fp8_mlir
from fp8_mlir import numerics
from fp8_mlir.numerics import dequantize, quantize, scaled_matmul

import fp8ref
from conftest import require_passes

pytestmark = require_passes("fp8-cpu-pipeline")

# Reseeded for each test from its name (conftest.py).
RNG = np.random.default_rng(1234)


def test_exported_at_package_level():
    assert fp8_mlir.quantize is quantize
    assert fp8_mlir.dequantize is dequantize
    assert fp8_mlir.scaled_matmul is scaled_matmul


# -- quantize --------------------------------------------------------------------


def test_quantize_hand_derived_codes():
    # One 1x128 block whose amax is 448: scale 448 / 448 = 1, so every code is
    # the E4M3 encoding of the value itself (bias 7, 3 mantissa bits).
    x = np.zeros((1, 128), np.float32)
    x[0, :8] = [448.0, 1.0, -2.0, 0.5, 1.125, 2.0**-6, 2.0**-9, -448.0]
    codes, scales = quantize(x)
    assert scales.shape == (1, 1) and scales[0, 0] == 1.0
    assert codes[0, :8].tolist() == [0x7E, 0x38, 0xC0, 0x30, 0x39, 0x08, 0x01, 0xFE]
    assert not codes[0, 8:].any()


def test_quantize_e5m2_hand_derived_codes():
    x = np.zeros((1, 128), np.float32)
    x[0, :4] = [57344.0, 1.0, -1.5, 2.0**-16]  # max, 1, -1.5, min subnormal
    codes, scales = quantize(x, fmt="e5m2")
    assert scales[0, 0] == 1.0
    assert codes[0, :4].tolist() == [0x7B, 0x3C, 0xBE, 0x01]


@pytest.mark.parametrize("shape, block", [((4, 256), (1, 128)), ((3, 200), (1, 128)), ((130, 300), (128, 128)),
                                          ((5, 7), (None, None)), ((2, 3, 40), (1, 2, 16)), ((1000,), (128,))])
@pytest.mark.parametrize("scale", ["f32", "pow2", "e8m0"])
def test_quantize_scales_match_contract(shape, block, scale):
    x = (RNG.standard_normal(shape) * np.exp(RNG.uniform(-8, 8, shape))).astype(np.float32)
    codes, scales = quantize(x, block=block, scale=scale)
    full = tuple(d if b is None else b for d, b in zip(shape, block))
    ref = fp8ref.expected_scales(x, full, scale=scale)
    assert codes.shape == shape and codes.dtype == np.uint8
    assert scales.shape == ref.shape and scales.dtype == np.float32
    np.testing.assert_array_equal(scales, ref)


@pytest.mark.parametrize("fmt", ["e4m3", "e5m2"])
@pytest.mark.parametrize("scale", ["f32", "pow2"])
def test_quantize_dequantize_error_bound(fmt, scale):
    # Each code is the RNE rounding of x / s: relative error <= 2^-(m+1)
    # for normal results, absolute error <= half the subnormal spacing.
    e_bits, m_bits, bias, fmax, _ = fp8ref.FORMATS[fmt]
    x = RNG.standard_normal((16, 512)).astype(np.float32)
    x[:, 7] *= 100.0  # an outlier channel
    codes, scales = quantize(x, fmt=fmt, scale=scale)
    s = fp8ref.expand(scales, x.shape, (1, 128)).astype(np.float64)
    xq = fp8ref.decode(codes, fmt) * s
    half_sub = 2.0 ** (1 - bias - m_bits) / 2 * s
    err = np.abs(xq - x)
    assert np.all(err <= np.abs(x) * 2.0 ** -(m_bits + 1) + half_sub)
    # The codes are the nearest: no other code is closer (spot check the
    # rounding direction against the FP64 neighbours).
    rel = np.sqrt(np.mean(err**2) / np.mean(x.astype(np.float64) ** 2))
    assert rel < (0.04 if fmt == "e4m3" else 0.08)


def test_quantize_special_blocks():
    x = np.ones((4, 128), np.float32)
    x[0, 3] = np.nan      # NaN anywhere: amax NaN -> scale 1, NaN code
    x[1, 5] = np.inf      # Inf: scale 1, +Inf saturates to 448 (0x7E)
    x[2, :] = 0.0         # all zero: amax = eps -> scale eps / 448
    x[3, 0] = -np.inf
    codes, scales = quantize(x)
    assert scales[0, 0] == 1.0 and (codes[0, 3] & 0x7F) == 0x7F
    assert codes[0, 0] == 0x38  # 1.0 encoded with scale 1
    assert scales[1, 0] == 1.0 and codes[1, 5] == 0x7E
    assert scales[2, 0] == np.float32(np.float32(1e-4) / np.float32(448)) and not codes[2].any()
    assert scales[3, 0] == 1.0 and codes[3, 0] == 0xFE


def test_quantize_no_saturation():
    x = np.zeros((1, 128), np.float32)
    x[0, 0] = np.inf
    x[0, 1] = 500.0
    codes, _ = quantize(x, saturate=False)
    assert (codes[0, 0] & 0x7F) == 0x7F and (codes[0, 1] & 0x7F) == 0x7F  # E4M3FN overflow -> NaN
    codes, _ = quantize(x, fmt="e5m2", saturate=False)
    assert codes[0, 0] == 0x7C  # E5M2 keeps Inf


def test_quantize_eps_option():
    x = np.full((1, 128), 1e-6, np.float32)
    _, s_default = quantize(x)
    _, s_small = quantize(x, eps=0.0)
    assert s_default[0, 0] == np.float32(np.float32(1e-4) / np.float32(448))
    assert s_small[0, 0] == np.float32(np.float32(1e-6) / np.float32(448))


def test_quantize_accepts_float64_and_float16():
    x = RNG.standard_normal((2, 128))
    c64, s64 = quantize(x)
    c32, s32 = quantize(x.astype(np.float32))
    np.testing.assert_array_equal(c64, c32)
    np.testing.assert_array_equal(s64, s32)
    # float16 goes to the compiled code as f16 (extended exactly there):
    # the contract's scales of the f16 values (FP64 model), and the codes of
    # the same values given as float32.
    x16 = np.concatenate([x, [[np.inf, np.nan] + [0.0] * 126]]).astype(np.float16)
    c16, s16 = quantize(x16)
    np.testing.assert_array_equal(s16, fp8ref.expected_scales(x16.astype(np.float32), (1, 128)))
    c16f, _ = quantize(x16.astype(np.float32))
    np.testing.assert_array_equal(c16, c16f)
    assert c16[2, :2].tolist() == [0x7E, 0x7F]  # Inf (scale 1, satfinite), NaN


def _to_bf16_bits(x):
    """float32 -> bf16 bit patterns (uint16), round to nearest even, written
    here on the integer bits (finite inputs)."""
    u = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


@pytest.mark.parametrize("shape, block", [((130, 300), (1, 128)), ((130, 300), (128, 128)),
                                          ((3, 100), (1, 32)), ((1000,), (128,))])
@pytest.mark.parametrize("scale", ["f32", "pow2", "e8m0"])
def test_quantize_bf16_input_matches_fp64_reference(shape, block, scale):
    # bf16 input (uint16 bit patterns): the scales are the contract's on the
    # bf16 values (FP64 model, fp8ref), and the dequantized values stay
    # within half an FP8 step of them (E4M3: 3 mantissa bits, relative 2^-4).
    x = (RNG.standard_normal(shape) * np.exp2(RNG.uniform(-12, 12, shape))).astype(np.float32)
    bits = _to_bf16_bits(x)
    xb = (bits.astype(np.uint32) << 16).view(np.float32)
    q = quantize(bits, block=block, scale=scale, dtype="bf16")
    np.testing.assert_array_equal(q.scales, fp8ref.expected_scales(xb, block, scale=scale))
    s = fp8ref.expand(q.scales, shape, block).astype(np.float64)
    v = fp8ref.decode(q.codes, "e4m3") * s
    normal = np.abs(xb) >= 2.0**-6 * s  # above E4M3's subnormals
    err = np.abs(v - xb.astype(np.float64))
    assert (err[normal] <= np.abs(xb[normal]) * 2.0**-4 * (1 + 2.0**-20)).all()  # + the f32 quotient's rounding
    assert (err[~normal] <= 2.0**-10 * s[~normal] * (1 + 2.0**-20)).all()  # half the subnormal step


def test_quantize_bf16_specials():
    # NaN in one block, Inf in the next (scale 1: amax not finite), -0 and a
    # tiny block (amax < eps): codes hand-derived from the E4M3 encoding.
    bits = np.zeros((4, 128), np.uint16)
    bits[0, :3] = [0x7FC0, 0x3F80, 0xC000]  # NaN, 1.0, -2.0
    bits[1, :3] = [0x7F80, 0x3F80, 0xFF80]  # +Inf, 1.0, -Inf
    bits[2, :2] = [0x8000, 0x43E0]          # -0.0, 448.0
    bits[3, :1] = [0x3380]                  # 2^-24 (amax < eps = 1e-4)
    codes, scales = quantize(bits, dtype="bf16")
    assert scales[:2, 0].tolist() == [1.0, 1.0] and scales[2, 0] == 1.0
    assert scales[3, 0] == np.float32(np.float32(1e-4) / np.float32(448))
    assert codes[0, :3].tolist() == [0x7F, 0x38, 0xC0]
    assert codes[1, :3].tolist() == [0x7E, 0x38, 0xFE]  # satfinite
    assert codes[2, :2].tolist() == [0x80, 0x7E]
    assert not codes[0, 3:].any() and not codes[3, 1:].any()


@pytest.mark.parametrize(
    "x, dtype, message",
    [
        (np.zeros((2, 128), np.float32), "bf16", "uint16 array of bf16 bit patterns"),
        (np.zeros((2, 128), np.int16), "bf16", "uint16 array of bf16 bit patterns"),
        (np.zeros((2, 128), np.uint16), None, "dtype"),
        (np.zeros((2, 128), np.float32), "f8", "dtype must be None"),
        (np.uint16(0), "bf16", "at least one dimension"),
    ],
)
def test_quantize_bf16_bad_arguments(x, dtype, message):
    with pytest.raises(ValueError, match=message):
        quantize(x, dtype=dtype)


def test_quantize_empty():
    codes, scales = quantize(np.zeros((0, 128), np.float32))
    assert codes.shape == (0, 128) and scales.shape == (0, 1)


def test_whole_dimension_block_of_an_empty_dimension():
    """block None is the whole dimension; on an empty one that is a block of
    1 (a block must be positive, as fp8-insert-quant resolves `?`): zero
    blocks there, and the round trip keeps the empty shape."""
    q = quantize(np.zeros((0, 4), np.float32), block=(None, 4))
    assert q.block == (1, 4)
    codes, scales = q
    assert codes.shape == (0, 4) and scales.shape == (0, 1)
    assert dequantize(q).shape == (0, 4)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(x=np.zeros((2, 128), np.int32)), "dtype"),
        (dict(x=np.float32(1.0)), "at least one dimension"),
        (dict(x=np.zeros((2, 128), np.float32), block=(128,)), "1 sizes but the array has 2"),
        (dict(x=np.zeros((2, 128), np.float32), block=(0, 128)), "positive"),
        (dict(x=np.zeros((2, 128), np.float32), block=128), "tuple"),
        (dict(x=np.zeros((2, 128), np.float32), fmt="e3m4"), "fmt"),
        (dict(x=np.zeros((2, 128), np.float32), scale="e4m3"), "scale"),
        (dict(x=np.zeros((2, 128), np.float32), eps=-1.0), "eps"),
        (dict(x=np.zeros((2, 128), np.float32), eps=float("nan")), "eps"),
        (dict(x=np.zeros((2, 128), np.float32), saturate="yes"), "saturate"),
    ],
)
def test_quantize_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        quantize(**kwargs)


# -- dequantize ------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["e4m3", "e5m2"])
def test_dequantize_matches_fp64_decode(fmt):
    codes = RNG.integers(0, 256, size=(3, 300), dtype=np.uint8)
    nan_codes = np.isnan(fp8ref.decode(codes, fmt)) | np.isinf(fp8ref.decode(codes, fmt))
    codes[nan_codes] = 0
    scales = np.exp2(RNG.integers(-10, 10, size=(3, 3))).astype(np.float32) * np.float32(1.5)
    out = dequantize(codes, scales, block=(1, 128), fmt=fmt)
    ref = fp8ref.decode(codes, fmt) * fp8ref.expand(scales, codes.shape, (1, 128))
    assert out.dtype == np.float32
    np.testing.assert_array_equal(out, ref.astype(np.float32))


def test_dequantize_bf16_output():
    codes = np.full((1, 128), 0x39, np.uint8)  # 1.125
    scales = np.array([[1.0 + 2.0**-10]], np.float32)  # product needs rounding to bf16
    out = dequantize(codes, scales, out="bf16")
    exact = 1.125 * (1.0 + 2.0**-10)
    # bf16 keeps 8 significant bits: 1.125 * (1 + 2^-10) rounds to 1.125.
    assert out[0, 0] == 1.125 and exact != 1.125


@pytest.mark.parametrize("shape, block", [((130, 300), (1, 128)), ((37, 100), (128, 128)), ((1000,), (128,))])
def test_dequantize_bf16_is_rne_of_f32(shape, block):
    # out="bf16": the f32 values rounded to bf16 (RNE), returned widened to
    # float32 by the compiled code (fused into the kernel's store): bit for
    # bit the rounding of out="f32" written here on the integer bits.
    x = RNG.standard_normal(shape).astype(np.float32)
    q = quantize(x, block=block)
    scales = q.scales * np.float32(1.0 + 2.0**-10)  # products off the bf16 grid
    out = dequantize(q.codes, scales, block=block, out="bf16")
    f32 = dequantize(q.codes, scales, block=block, out="f32")
    assert out.dtype == np.float32 and out.shape == x.shape
    np.testing.assert_array_equal(out.view(np.uint32), _to_bf16_bits(f32).astype(np.uint32) << 16)
    assert (out != f32).any()


def test_dequantize_roundtrip_of_quantize():
    x = RNG.standard_normal((8, 256)).astype(np.float32)
    codes, scales = quantize(x, block=(1, 128))
    xq = dequantize(codes, scales, block=(1, 128))
    ref = fp8ref.decode(codes, "e4m3") * fp8ref.expand(scales, x.shape, (1, 128))
    np.testing.assert_array_equal(xq, ref.astype(np.float32))


@pytest.mark.parametrize(
    "args, kwargs, message",
    [
        ((np.zeros((2, 128), np.int8), np.ones((2, 1), np.float32)), {}, "uint8"),
        ((np.zeros((2, 128), np.uint8), np.ones((2, 2), np.float32)), {}, r"expected ceil\(shape / block\) = \(2, 1\)"),
        ((np.zeros((2, 128), np.uint8), np.ones((2, 1), np.int32)), {}, "float32"),
        ((np.zeros((2, 128), np.uint8), np.ones((2, 1), np.float32)), dict(fmt="fp8"), "fmt"),
        ((np.zeros((2, 128), np.uint8), np.ones((2, 1), np.float32)), dict(out="f16"), "out"),
    ],
)
def test_dequantize_bad_arguments(args, kwargs, message):
    with pytest.raises(ValueError, match=message):
        dequantize(*args, **kwargs)


# -- scaled_matmul -----------------------------------------------------------------


def _operands(m, n, k, a_block=(1, 128), b_block=(128, 128), fmt="e4m3"):
    a = RNG.standard_normal((m, k)).astype(np.float32)
    b = (RNG.standard_normal((n, k)) * 0.05).astype(np.float32)
    qa, sa = quantize(a, block=a_block, fmt=fmt)
    qb, sb = quantize(b, block=b_block, fmt=fmt)
    return qa, sa, qb, sb


_reference = fp8ref.scaled_matmul


@pytest.mark.parametrize("m, n, k", [(4, 128, 256), (3, 130, 200), (1, 1, 128), (17, 5, 384)])
def test_scaled_matmul_f32_matches_fp64(m, n, k):
    qa, sa, qb, sb = _operands(m, n, k)
    out = scaled_matmul(qa, sa, qb, sb, out="f32")
    ref = _reference(qa, sa, qb, sb, (1, 128), (128, 128))
    assert out.shape == (m, n) and out.dtype == np.float32
    # f32 partial sums over 128 products: |error| <= ~k * 2^-24 * sum|terms|.
    da = np.abs(fp8ref.decode(qa, "e4m3") * fp8ref.expand(sa, qa.shape, (1, 128)))
    db = np.abs(fp8ref.decode(qb, "e4m3") * fp8ref.expand(sb, qb.shape, (128, 128)))
    bound = 130 * 2.0**-24 * (da @ db.T) + 1e-30
    assert np.all(np.abs(out - ref) <= bound)


def test_scaled_matmul_bf16_output():
    qa, sa, qb, sb = _operands(8, 128, 256)
    out = scaled_matmul(qa, sa, qb, sb, out="bf16")
    f32 = scaled_matmul(qa, sa, qb, sb, out="f32")
    # bf16 values: the low 16 bits are zero, and RNE from f32 is within 2^-9.
    assert not (out.view(np.uint32) & 0xFFFF).any()
    assert np.all(np.abs(out - f32) <= np.abs(f32) * 2.0**-8)


@pytest.mark.parametrize("m, n, k, bits", [(37, 50, 100, None), (130, 131, 264, None), (5, 25, 136, 14),
                                           (257, 200, 160, 14), (1, 1, 1, None)])
def test_scaled_matmul_bf16_is_rne_of_f32(m, n, k, bits):
    # out="bf16" is the f32 result rounded to bf16 (RNE), returned widened to
    # float32 by the compiled code (the kernel's fused widening store): bit
    # for bit the rounding of out="f32" written here on the integer bits.
    # Tails of M, N, K off the kernel's tiles and chunks, K < 128, the
    # emulated accumulator.
    qa, sa, qb, sb = _operands(m, n, k)
    out = scaled_matmul(qa, sa, qb, sb, out="bf16", emulate_accumulator_bits=bits)
    f32 = scaled_matmul(qa, sa, qb, sb, out="f32", emulate_accumulator_bits=bits)
    assert out.dtype == np.float32 and out.shape == (m, n) and out.flags.c_contiguous
    expected = _to_bf16_bits(f32).astype(np.uint32) << 16
    np.testing.assert_array_equal(out.view(np.uint32), expected)
    assert (out != f32).any() or m * n == 1  # the rounding is visible


def test_scaled_matmul_per_tensor_and_e5m2():
    qa, sa, qb, sb = _operands(4, 64, 256, a_block=(None, None), b_block=(None, None), fmt="e5m2")
    out = scaled_matmul(qa, sa, qb, sb, a_block=(None, None), b_block=(None, None), fmt="e5m2", out="f32")
    ref = _reference(qa, sa, qb, sb, (4, 256), (64, 256), "e5m2")
    np.testing.assert_allclose(out, ref, rtol=1e-5, atol=1e-5 * np.abs(ref).max())


def test_promotion_reduces_limited_accumulator_error():
    # DeepSeek-V3 3.5.2: a ~14-bit tensor-core accumulator over K = 4096
    # loses precision; promoting to FP32 every 128 elements restores it.
    m, n, k = 8, 16, 4096
    # Row-wise scales (K-blocks spanning K) so that one promotion interval
    # may cover all of K.
    a = np.abs(RNG.standard_normal((m, k))).astype(np.float32)  # same-sign sums grow
    b = np.abs(RNG.standard_normal((n, k))).astype(np.float32)
    qa, sa = quantize(a, block=(1, k))
    qb, sb = quantize(b, block=(1, k))
    ref = _reference(qa, sa, qb, sb, (1, k), (1, k))

    def err(**kw):
        out = scaled_matmul(qa, sa, qb, sb, a_block=(1, k), b_block=(1, k), out="f32", **kw)
        return np.max(np.abs(out - ref) / np.abs(ref))

    exact = err()
    promoted = err(emulate_accumulator_bits=14, promote_interval=128)
    unpromoted = err(emulate_accumulator_bits=14, promote_interval=4096)
    assert exact < 1e-5
    assert promoted < unpromoted
    assert unpromoted > 1e-3  # visible loss without promotion


HOPPER_DATA = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "test", "Integration", "CPU", "Inputs", "hopper-accumulation"
)


def _hopper_vectors(name):
    """The measured H100 dot products (see the data's README.md): codes of a
    and b [1000, 32] (uint8) and the FP32 result bits [1000] (uint32)."""
    a, b, d = [], [], []
    with open(os.path.join(HOPPER_DATA, name), encoding="ascii") as f:
        for line in f:
            fa, fb, fd = line.split("|")
            a.append([int(x, 16) for x in fa.split()])
            b.append([int(x, 16) for x in fb.split()])
            d.append(int(fd, 16))
    return np.array(a, np.uint8), np.array(b, np.uint8), np.array(d, np.uint32)


@pytest.mark.parametrize("fmt, name", [("e4m3", "h100_e4m3_k32.txt"), ("e5m2", "h100_e5m2_k32.txt")])
def test_sm90_reproduces_measured_h100_outputs(fmt, name):
    # Every vector, bit for bit: one 1x32 x 1x32 product per vector (one
    # compiled function, cached), scales 1, f32 out.
    a, b, want = _hopper_vectors(name)
    ones = np.ones((1, 1), np.float32)

    def run(i, model):
        return scaled_matmul(
            a[i : i + 1], ones, b[i : i + 1], ones, a_block=(1, 32), b_block=(1, 32), fmt=fmt,
            promote_interval=32, out="f32", emulate_accumulator=model,
        )[0, 0]

    got = np.array([run(i, "sm90") for i in range(len(want))], np.float32).view(np.uint32)
    assert np.array_equal(got, want), f"{np.count_nonzero(got != want)} of {len(want)} differ"
    # The generic 14-bit model aligns by the normalised product exponent: the
    # data tell it apart.
    other = np.array([run(i, 14) for i in range(100)], np.float32).view(np.uint32)
    assert np.count_nonzero(other != want[:100]) > 0


def test_emulate_accumulator_models_hand_derived():
    # 1.5 * 1.5 (ea + eb = 0, normalised exponent 1), -1 * 1 twice, 2^-6 * 2^-7
    # = 2^-13 (ea + eb = -12): sm90/sm89 align at E = 0 (grid 2^-13) and keep
    # 2^-13; the 14-bit generic model aligns at E = 1 (grid 2^-12) and loses
    # it; exact f32 keeps it too.
    a = np.zeros((1, 32), np.uint8)
    b = np.zeros((1, 32), np.uint8)
    a[0, :4] = [0x3C, 0xB8, 0xB8, 0x08]
    b[0, :4] = [0x3C, 0x38, 0x38, 0x04]
    ones = np.ones((1, 1), np.float32)

    def run(**kw):
        return scaled_matmul(a, ones, b, ones, a_block=(1, 32), b_block=(1, 32), promote_interval=32, out="f32", **kw)[0, 0]

    assert run() == run(emulate_accumulator="exact") == 0.25 + 2.0**-13
    assert run(emulate_accumulator="sm90") == run(emulate_accumulator="sm89") == 0.25 + 2.0**-13
    assert run(emulate_accumulator=14) == run(emulate_accumulator_bits=14) == 0.25


@pytest.mark.parametrize(
    "change, message",
    [
        (dict(a_codes=np.zeros((4, 256), np.float32)), "uint8"),
        (dict(a_codes=np.zeros((4, 128), np.uint8), a_scales=np.ones((4, 1), np.float32)), "K of A"),
        (dict(a_codes=np.zeros((2, 4, 256), np.uint8)), "2-D"),
        (dict(a_scales=np.ones((4, 3), np.float32)), "a_scales"),
        (dict(b_scales=np.ones((2, 2), np.float32)), "b_scales"),
        (dict(promote_interval=100), "multiple of 32"),
        (dict(promote_interval=0), "multiple of 32"),
        (dict(promote_interval=96), "promote_interval"),
        (dict(a_block=(1, 64), a_scales=np.ones((4, 4), np.float32)), "multiple of promote_interval"),
        (dict(out="f16"), "out"),
        (dict(fmt="e4m3fnuz"), "fmt"),
        (dict(emulate_accumulator_bits=0), "emulate_accumulator_bits"),
        (dict(emulate_accumulator_bits=30), "emulate_accumulator_bits"),
        (dict(emulate_accumulator="sm100"), "emulate_accumulator must be"),
        (dict(emulate_accumulator=0), "1..24"),
        (dict(emulate_accumulator=25), "1..24"),
        (dict(emulate_accumulator=True), "emulate_accumulator must be"),
        (dict(emulate_accumulator=14.0), "emulate_accumulator must be"),
        (dict(emulate_accumulator="sm90", emulate_accumulator_bits=14), "not both"),
    ],
)
def test_scaled_matmul_bad_arguments(change, message):
    args = dict(
        a_codes=np.zeros((4, 256), np.uint8), a_scales=np.ones((4, 2), np.float32),
        b_codes=np.zeros((64, 256), np.uint8), b_scales=np.ones((1, 2), np.float32),
    )
    args.update(change)
    with pytest.raises(ValueError, match=message):
        scaled_matmul(**args)


def test_compiled_functions_are_cached():
    x = RNG.standard_normal((2, 128)).astype(np.float32)
    quantize(x)
    before = len(numerics._cache)
    quantize(x * 2)
    assert len(numerics._cache) == before


# -- ScaledTensor: a quantized array carries its layout ---------------------------

BLOCK_CASES = [((4, 256), (1, 128)), ((3, 200), (1, 128)), ((130, 300), (128, 128)), ((5, 7), (None, None)),
               ((2, 3, 40), (1, 2, 16)), ((1000,), (128,)), ((32, 4096), (32, 4096)), ((64, 256), (128, 1))]


@pytest.mark.parametrize("shape, block", BLOCK_CASES)
@pytest.mark.parametrize("fmt, scale", [("e4m3", "f32"), ("e5m2", "pow2"), ("e4m3", "e8m0")])
def test_dequantize_of_quantize_round_trips(shape, block, fmt, scale):
    x = (RNG.standard_normal(shape) * np.exp(RNG.uniform(-4, 4, shape))).astype(np.float32)
    q = quantize(x, block=block, fmt=fmt, scale=scale)
    assert isinstance(q, fp8_mlir.ScaledTensor)
    assert q.block == tuple(d if b is None else b for d, b in zip(shape, block))
    assert (q.fmt, q.scale, q.shape) == (fmt, scale, shape)
    codes, scales = q  # still unpacks as (codes, scales)
    # The object's layout is used: the same values as with every argument
    # spelled out, and within the format's half ulp of x (FP64 bound).
    got = dequantize(q)
    np.testing.assert_array_equal(got, dequantize(codes, scales, block=q.block, fmt=fmt))
    # Half an ulp relative (2^-4 for 3 mantissa bits, 2^-3 for 2), plus the
    # subnormal spacing of the largest scale for values near zero.
    rel = 2.0 ** -4 if fmt == "e4m3" else 2.0 ** -3
    tiny = float(np.max(scales)) * (2.0 ** -9 if fmt == "e4m3" else 2.0 ** -16)
    err = np.abs(got.astype(np.float64) - x.astype(np.float64))
    assert np.all(err <= rel * np.abs(x.astype(np.float64)) + tiny)


def test_scaled_tensor_rejects_contradicting_layout():
    q = quantize(np.ones((4, 256), np.float32), block=(1, 128))
    with pytest.raises(ValueError, match="differs from the ScaledTensor's block"):
        dequantize(q, block=(128, 128))
    with pytest.raises(ValueError, match="fmt 'e5m2' differs"):
        dequantize(q, fmt="e5m2")
    with pytest.raises(ValueError, match="scales"):
        fp8_mlir.ScaledTensor(q.codes, np.ones((4, 3), np.float32), (1, 128))


def test_scaled_matmul_accepts_scaled_tensors():
    a = RNG.standard_normal((16, 256)).astype(np.float32)
    b = RNG.standard_normal((32, 256)).astype(np.float32)
    qa, qb = quantize(a, block=(1, 128)), quantize(b, block=(128, 128))
    got = scaled_matmul(qa, qb, out="f32")
    np.testing.assert_array_equal(got, scaled_matmul(*qa, *qb, a_block=(1, 128), b_block=(128, 128), out="f32"))
    # FP64 reference of the dequantized operands (exact products, one
    # rounding per promotion interval at most).
    ref = dequantize(qa).astype(np.float64) @ dequantize(qb).astype(np.float64).T
    np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-5)


def test_requantize_transposed_is_dequantize_transpose_quantize():
    # The Wgrad re-layout (DeepSeek-V3 3.5.2): 1x128 tiles of X [T, K] become
    # 1x128 tiles of X^T [K, T]. By the contract it equals quantizing the
    # dequantized values, transposed.
    x = (RNG.standard_normal((256, 128)) * 3).astype(np.float32)
    q = quantize(x, block=(1, 128))
    r = fp8_mlir.requantize(q, block=(1, 128), transpose=True)
    assert r.shape == (128, 256) and r.block == (1, 128) and r.fmt == q.fmt
    ref = quantize(dequantize(q).T.copy(), block=(1, 128))
    np.testing.assert_array_equal(r.codes, ref.codes)
    np.testing.assert_array_equal(r.scales, ref.scales)
    with pytest.raises(ValueError, match="needs a ScaledTensor"):
        fp8_mlir.requantize(q.codes, block=(1, 128))


def test_scaled_tensor_equality_and_array_conversion():
    x = RNG.standard_normal((4, 100)).astype(np.float32)
    q1, q2 = quantize(x, block=(1, None)), quantize(x, block=(1, 128))
    # (1, None) and (1, 128) cut a 4x100 tensor the same way.
    assert q1 == q2 and not (q1 != q2)
    np.testing.assert_array_equal(dequantize(q1, block=(1, 128)), dequantize(q2))
    assert q1 != quantize(x * 2, block=(1, 128))
    assert q1 != quantize(x, block=(1, 128), fmt="e5m2")
    with pytest.raises(TypeError):
        hash(q1)
    with pytest.raises(TypeError, match="not one array"):
        np.asarray(q1)


def test_compiled_once_for_every_row_count():
    # The token dimension M is dynamic in the compiled functions: quantize,
    # dequantize and scaled_matmul compile once per (columns, block, options)
    # and run for any M; the scales still follow the contract at each M.
    numerics._cache.clear()
    w = quantize(RNG.standard_normal((256, 384)).astype(np.float32), block=(128, 128))
    compiled = len(numerics._cache)
    for m in (1, 7, 128, 200, 1000):
        x = (RNG.standard_normal((m, 384)) * 3).astype(np.float32)
        q = quantize(x)
        np.testing.assert_array_equal(q.scales, fp8ref.expected_scales(x, (1, 128), scale="f32"))
        y = scaled_matmul(q, w, out="f32")
        ref = dequantize(q).astype(np.float64) @ dequantize(w).astype(np.float64).T
        np.testing.assert_allclose(y, ref, rtol=1e-5, atol=1e-4)
    # One quantize, one dequantize (1x128) and one scaled_matmul for all M,
    # plus the weight's dequantize.
    assert len(numerics._cache) - compiled == 4, list(numerics._cache)


# -- whole-block row chunks and block partitions, against the FP64 oracle -----


@pytest.mark.parametrize("rows, block_rows, work", [(1, 1, 1), (7, 3, 2), (301, 5, 7), (1000, 128, 300),
                                                     (129, 128, 10**9)])
def test_row_chunks_are_whole_blocks(rows, block_rows, work):
    # numerics._by_rows: contiguous ranges covering [0, rows), each starting
    # on a block boundary, with the scale rows of exactly those blocks.
    seen = []
    numerics._by_rows(rows, block_rows, 1, work, lambda *r: seen.append(r))
    assert seen[0][0] == 0 and min(seen[-1][1], rows) == rows
    for (r0, r1, s0, s1), nxt in zip(seen, seen[1:] + [None]):
        assert r0 % block_rows == 0 and r1 > r0 and (nxt is None or nxt[0] == r1)
        assert (s0, s1) == (r0 // block_rows, -(-r1 // block_rows))
        assert r1 - r0 >= block_rows and (r1 - r0) % block_rows == 0


@pytest.mark.parametrize("block", [(3, 128), (5, 128), (128, 128), (7, 64)])
def test_chunked_calls_match_the_reference(monkeypatch, block):
    # With chunks of a few rows, quantize / dequantize / scaled_matmul still
    # give what the FP64 oracle derives from the whole array: the scales of
    # every block (a chunk cut inside a block would split its amax) and the
    # decoded values.
    monkeypatch.setattr(numerics, "_CHUNK_ELEMENTS", 700)
    monkeypatch.setattr(numerics, "_CHUNK_MACS", 50000)
    x = (RNG.standard_normal((301, 256)) * np.exp(RNG.uniform(-6, 6, (301, 1)))).astype(np.float32)
    q = quantize(x, block=block)
    np.testing.assert_array_equal(q.scales, fp8ref.expected_scales(x, block))
    deq = np.float32(fp8ref.decode(q.codes, "e4m3")) * fp8ref.expand(q.scales, x.shape, block)
    np.testing.assert_array_equal(dequantize(q), deq.astype(np.float32))
    # Each code is x / scale rounded to E4M3: within half an E4M3 step of it.
    err = np.abs(deq - x) / fp8ref.expand(q.scales, x.shape, block)
    assert (err <= np.maximum(np.abs(x) / fp8ref.expand(q.scales, x.shape, block) * 2.0**-4, 2.0**-10)
            * (1 + 1e-6)).all()
    if block[1] == 128:
        qb = quantize(RNG.standard_normal((96, 256)).astype(np.float32), block=(128, 128))
        got = scaled_matmul(q, qb, out="f32")
        args = (q.codes, q.scales, qb.codes, qb.scales, block, (128, 128))
        assert (np.abs(got - fp8ref.scaled_matmul(*args)) <= fp8ref.scaled_matmul_bound(*args)).all()


def test_block_partitions_compare_by_how_they_cut():
    # A block at least as large as its dimension is the whole dimension:
    # (1, None), (1, 256) and (1, 1000) cut a [4, 256] array alike, and so do
    # (4, 128) and (8, 128); (2, 128) and (1, 128) do not.
    x = (RNG.standard_normal((4, 256)) * [[1], [10], [100], [1000]]).astype(np.float32)
    whole = [quantize(x, block=b) for b in ((1, None), (1, 256), (1, 1000))]
    assert whole[0] == whole[1] == whole[2]
    np.testing.assert_array_equal(whole[2].scales, fp8ref.expected_scales(x, (1, 256)))
    deq = (np.float32(fp8ref.decode(whole[1].codes, "e4m3")) * whole[1].scales).astype(np.float32)
    np.testing.assert_array_equal(dequantize(whole[1], block=(1, 4096)), deq)
    with pytest.raises(ValueError, match=r"block \(1, 128\) differs from the ScaledTensor's block"):
        dequantize(whole[1], block=(1, 128))
    tall = quantize(x, block=(8, 128))
    assert tall == quantize(x, block=(4, 128)) and tall != quantize(x, block=(2, 128))
    np.testing.assert_array_equal(tall.scales, fp8ref.expected_scales(x, (4, 128)))
    np.testing.assert_array_equal(dequantize(tall, block=(4, 128)), dequantize(quantize(x, block=(4, 128))))
