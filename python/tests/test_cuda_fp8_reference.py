"""quantize's codes, bit for bit, against NVIDIA's cuda_fp8.h host
conversion (__nv_cvt_float_to_fp8, RNE, satfinite or not) on edge values:
subnormals, ties, 448/464/480 (E4M3), 57344/61440 (E5M2), Inf, NaN.

The oracle is a tiny shared library compiled from cuda_fp8.h by the build
(python/tests/native/cuda_fp8_ref.cpp) when the CUDA toolkit's headers are
present; without it every test here is skipped with that reason."""

import ctypes
import os

import numpy as np
import pytest

from fp8_mlir.numerics import dequantize, quantize

from conftest import require_passes

try:
    from fp8_mlir import _build_config

    _LIB_PATH = _build_config.CUDA_FP8_REF
except ImportError:  # pragma: no cover
    _LIB_PATH = ""

if not _LIB_PATH or not os.path.exists(_LIB_PATH):
    pytest.skip("cuda_fp8.h reference helper not built (no CUDA toolkit headers)", allow_module_level=True)

pytestmark = require_passes("fp8-cpu-pipeline")

_lib = ctypes.CDLL(_LIB_PATH)
_FMT = {"e4m3": 0, "e5m2": 1}


def nv_encode(x, fmt, saturate=True):
    x = np.ascontiguousarray(x, dtype=np.float32)
    out = np.zeros(x.shape, np.uint8)
    _lib.fp8_ref_encode(
        x.ctypes.data_as(ctypes.c_void_p), out.ctypes.data_as(ctypes.c_void_p),
        ctypes.c_int64(x.size), ctypes.c_int(_FMT[fmt]), ctypes.c_int(int(saturate)),
    )
    return out


def nv_decode(codes, fmt):
    codes = np.ascontiguousarray(codes, dtype=np.uint8)
    out = np.zeros(codes.shape, np.uint16)
    _lib.fp8_ref_decode_half_bits(
        codes.ctypes.data_as(ctypes.c_void_p), out.ctypes.data_as(ctypes.c_void_p),
        ctypes.c_int64(codes.size), ctypes.c_int(_FMT[fmt]),
    )
    return out.view(np.float16).astype(np.float32)


def f32(bits):
    return np.array([bits], np.uint32).view(np.float32)[0]


def edge_values(fmt):
    """Values whose conversion exercises every rounding rule of `fmt`."""
    m_bits, bias = (3, 7) if fmt == "e4m3" else (2, 15)
    sub = 2.0 ** (1 - bias - m_bits)  # smallest subnormal
    vals = [0.0, -0.0, sub, -sub, sub / 2, sub * 1.5, sub * 2.5, sub * 0.75, sub / 4,
            sub * 3.5, 2.0 ** (1 - bias), 2.0 ** (1 - bias) * (1 - 2.0**-4),
            1.0, 1.0 + 2.0 ** -(m_bits + 1), 1.0 + 3 * 2.0 ** -(m_bits + 1),
            -(1.0 + 2.0 ** -(m_bits + 1)), 1.0 + 2.0 ** -(m_bits + 1) + 2.0**-20, 3.0, 0.1, -0.3]
    if fmt == "e4m3":
        vals += [448.0, 464.0, 464.0 + 2.0**-10, 480.0, 496.0, 512.0, -464.0, -480.0, 1e6, 416.0, 432.0]
    else:
        vals += [57344.0, 61440.0, 61440.0 - 1.0, 65536.0, -61440.0, 1e9, 49152.0, 53248.0]
    vals += [float(f32(0x00000001)), float(f32(0x00800000)), float(f32(0x7F7FFFFF)), -float(f32(0x7F7FFFFF))]
    return np.array(vals, np.float32)


@pytest.mark.parametrize("fmt", ["e4m3", "e5m2"])
@pytest.mark.parametrize("saturate", [True, False])
def test_edge_values_bit_exact(fmt, saturate):
    # A block holding +Inf has scale 1 (contract: amax Inf -> s = 1), so each
    # code is the direct conversion of the value; a second block holds NaN.
    vals = edge_values(fmt)
    x = np.zeros((2, 128), np.float32)
    x[0, : len(vals)] = vals
    x[0, len(vals)] = np.inf
    x[0, len(vals) + 1] = -np.inf
    x[1, : len(vals)] = vals
    x[1, len(vals)] = np.nan
    codes, scales = quantize(x, fmt=fmt, saturate=saturate)
    assert scales[0, 0] == 1.0 and scales[1, 0] == 1.0
    expected = nv_encode(x, fmt, saturate)
    for row in range(2):
        bad = np.nonzero(codes[row] != expected[row])[0]
        assert bad.size == 0, [
            (float(x[row, i]), hex(codes[row, i]), hex(expected[row, i])) for i in bad[:10]
        ]


@pytest.mark.parametrize("fmt", ["e4m3", "e5m2"])
@pytest.mark.parametrize("scale", ["f32", "pow2"])
def test_scaled_blocks_bit_exact(fmt, scale):
    # Wide dynamic range inside each block: many codes land on subnormals
    # and on ties after the division by the block scale.
    rng = np.random.default_rng(7)
    x = (rng.choice([-1.0, 1.0], size=(16, 512)) * np.exp2(rng.uniform(-24, 8, size=(16, 512)))).astype(np.float32)
    codes, scales = quantize(x, fmt=fmt, scale=scale)
    s = np.repeat(scales, 128, axis=1)
    expected = nv_encode(x / s, fmt)  # IEEE f32 division, as the contract
    np.testing.assert_array_equal(codes, expected)


@pytest.mark.parametrize("fmt", ["e4m3", "e5m2"])
@pytest.mark.parametrize("block", [(1, 128), (128, 128)])
def test_bf16_input_bit_exact(fmt, block):
    # bf16 input (uint16 bit patterns, fp8_mlir.quantize(dtype="bf16")):
    # each code is NVIDIA's conversion of the bf16 value (extended exactly
    # to f32) divided by its block's scale; tails in both dimensions, and
    # the edge values in the first rows (their bf16 truncations).
    rng = np.random.default_rng(11)
    shape = (130, 300)
    x = (rng.choice([-1.0, 1.0], size=shape) * np.exp2(rng.uniform(-24, 8, size=shape))).astype(np.float32)
    vals = edge_values(fmt)
    x[:3, : len(vals)] = vals
    bits = (x.view(np.uint32) >> 16).astype(np.uint16)  # truncation: any bf16 will do
    xb = (bits.astype(np.uint32) << 16).view(np.float32)
    codes, scales = quantize(bits, block=block, fmt=fmt, dtype="bf16")
    s = np.repeat(np.repeat(scales, block[0], axis=0), block[1], axis=1)[: shape[0], : shape[1]]
    expected = nv_encode(xb / s, fmt)  # IEEE f32 division, as the contract
    np.testing.assert_array_equal(codes, expected)


@pytest.mark.parametrize("fmt", ["e4m3", "e5m2"])
def test_dequantize_matches_nvidia_decode(fmt):
    codes = np.arange(256, dtype=np.uint8).reshape(2, 128)
    scales = np.array([[1.0], [0.375]], np.float32)
    out = dequantize(codes, scales, fmt=fmt)
    ref = nv_decode(codes, fmt) * np.repeat(scales, 128, axis=1)
    np.testing.assert_array_equal(out, ref)  # NaNs in the same places
