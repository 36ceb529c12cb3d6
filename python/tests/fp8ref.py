"""Independent FP64 references for the numerics tests, written from the
format definitions (OCP FP8 / docs/design.md §1), not from the code under
test."""

import math

import numpy as np

#: name -> (exponent bits, mantissa bits, bias, largest finite, has Inf)
FORMATS = {"e4m3": (4, 3, 7, 448.0, False), "e5m2": (5, 2, 15, 57344.0, True)}


def decode(codes, fmt):
    """FP8 bit patterns -> float64 values (NaN for NaN codes)."""
    e_bits, m_bits, bias, _, has_inf = FORMATS[fmt]
    codes = np.asarray(codes, dtype=np.int64)
    sign = np.where(codes & 0x80, -1.0, 1.0)
    exp = (codes >> m_bits) & ((1 << e_bits) - 1)
    man = codes & ((1 << m_bits) - 1)
    normal = sign * (1.0 + man / (1 << m_bits)) * np.exp2(exp.astype(np.float64) - bias)
    sub = sign * (man / (1 << m_bits)) * 2.0 ** (1 - bias)
    out = np.where(exp == 0, sub, normal)
    top = (1 << e_bits) - 1
    if has_inf:  # E5M2: exponent all ones is Inf (mantissa 0) or NaN
        out = np.where((exp == top) & (man == 0), sign * np.inf, out)
        out = np.where((exp == top) & (man != 0), np.nan, out)
    else:  # E4M3FN: only S.1111.111 is NaN
        out = np.where((exp == top) & (man == (1 << m_bits) - 1), np.nan, out)
    return out


def pow2_ceil(v):
    """The smallest power of two >= v (v > 0, finite), exactly."""
    m, e = math.frexp(v)  # v = m * 2^e, 0.5 <= m < 1
    return math.ldexp(1.0, e - 1) if m == 0.5 else math.ldexp(1.0, e)


def block_amax(x, block):
    """max |x| per block (tails cover the valid elements), float64; NaN
    propagates."""
    x = np.asarray(x, dtype=np.float64)
    shape = tuple(-(-d // b) for d, b in zip(x.shape, block))
    out = np.zeros(shape)
    for idx in np.ndindex(*shape):
        sl = tuple(slice(i * b, (i + 1) * b) for i, b in zip(idx, block))
        blk = np.abs(x[sl])
        out[idx] = np.nan if np.isnan(blk).any() else blk.max()
    return out


def expected_scales(x, block, fmt="e4m3", scale="f32", eps=1e-4):
    """Dequantization scales per the contract: amax = max(amax, eps);
    s = amax / fmax in f32; s = 1 if amax is NaN/Inf or s is not a normal
    f32; pow2: the smallest power of two >= s."""
    fmax = np.float32(FORMATS[fmt][3])
    amax = block_amax(x, block)
    out = np.zeros(amax.shape, np.float32)
    tiny = np.finfo(np.float32).tiny
    for idx, a in np.ndenumerate(amax):
        a32 = np.float32(a)
        if not np.isfinite(a32):
            out[idx] = 1.0
            continue
        a32 = max(a32, np.float32(eps))
        s = np.float32(a32 / fmax)
        if not (np.isfinite(s) and s >= tiny):
            out[idx] = 1.0
        elif scale == "f32":
            out[idx] = s
        else:
            out[idx] = pow2_ceil(float(s))
    return out


def expand(scales, shape, block):
    """Per-element scale of each element of `shape`."""
    s = np.asarray(scales)
    for axis, b in enumerate(block):
        s = np.repeat(s, b, axis=axis)
    return s[tuple(slice(0, d) for d in shape)]


def scaled_matmul(qa, sa, qb, sb, a_block, b_block, fmt="e4m3", b_fmt=None):
    """FP64 D = sum_kb (sum_k qa qb) sa sb, from the decoded codes (NT:
    A [M, K], B [N, K])."""
    da = decode(qa, fmt) * expand(sa, qa.shape, a_block)
    db = decode(qb, b_fmt or fmt) * expand(sb, qb.shape, b_block)
    return da @ db.T


def scaled_matmul_bound(qa, sa, qb, sb, a_block, b_block, fmt="e4m3", b_fmt=None):
    """|f32 result - FP64 reference| allowed by f32 partial sums promoted
    every 128 products: about K * 2^-24 * sum |terms| (K <= 128 terms per
    interval plus the promotion adds)."""
    da = np.abs(decode(qa, fmt) * expand(sa, qa.shape, a_block))
    db = np.abs(decode(qb, b_fmt or fmt) * expand(sb, qb.shape, b_block))
    return 130 * 2.0**-24 * (da @ db.T) + 1e-30
