"""Error of fp8-expand-math's expansions against an FP64 oracle (NumPy).

Usage: math_ulp.py LIB.so STRIDE

LIB.so is Inputs/math_funcs.mlir lowered by fp8-cpu-pipeline. Each f32 op
runs on every STRIDE-th f32 bit pattern of its domain (both signs where the
op takes them); the error of a result y against the exact value e (np.float64,
correctly rounded to 53 bits) is |y - e| / ulp(e), ulp(e) the spacing of the
f32 values at e (2^-149 below 2^-126: subnormal results are measured on
their own grid). A result that is Inf where e rounds to a finite f32, or
finite where e rounds to Inf, or NaN where e is not, is an error of its own.
Then every bit pattern of the binade(s) where each op's error peaks (PEAKS,
found by Inputs/math_ulp_exhaustive.c on every input); the special values,
each with its expected bits derived by hand; and
every bf16 input of exp_bf16 and rsqrt_bf16 against the correctly rounded
bf16 value. Prints one line per op and exits 1 if any op is over its bound
(BOUNDS, the documented maximum) or a special value differs.
"""

import ctypes
import math
import sys

import numpy as np

# Max ulp error allowed per op: the documented bounds (docs/numerics.md).
BOUNDS = {
    "exp": 1.02, "exp2": 1.02, "rsqrt": 1.5, "log": 1.0, "log2": 2.0,
    "log1p": 2.45, "expm1": 2.5, "tanh": 5.0, "erf": 4.8,
}

lib = ctypes.CDLL(sys.argv[1])
stride = int(sys.argv[2])
failed = False


def call(name, x):
    """Runs `name` (memref<?xT> in, memref<?xT> out) on the array x."""
    y = np.empty_like(x)
    fn = getattr(lib, name)
    desc = [ctypes.c_void_p, ctypes.c_void_p] + [ctypes.c_int64] * 3
    fn.argtypes = desc * 2
    fn.restype = None
    n = x.shape[0]
    fn(x.ctypes.data, x.ctypes.data, 0, n, 1, y.ctypes.data, y.ctypes.data, 0,
       n, 1)
    return y


def f32(bits):
    return np.asarray(bits, dtype=np.uint32).view(np.float32)


def ulp_error(y, e):
    """Per-element error of f32 results y against f64 exact values e."""
    y64 = y.astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        e32 = e.astype(np.float32)
    _, ex = np.frexp(e)  # e = m 2^ex, 0.5 <= |m| < 1
    ulp = np.ldexp(1.0, np.maximum(ex - 1, -126) - 23)
    with np.errstate(invalid="ignore"):
        err = np.abs(y64 - e) / ulp
    bad = (np.isnan(y) != np.isnan(e)) | (np.isinf(y) != np.isinf(e32))
    bad |= np.isinf(y) & np.isinf(e32) & (np.sign(y) != np.sign(e32))
    err[np.isinf(y) & ~bad] = 0.0
    err[np.isnan(y) & ~bad] = 0.0
    return err, bad


def sweep(lo_bits, hi_bits, step):
    """Every step-th bit pattern in [lo_bits, hi_bits] (plus the end)."""
    b = np.arange(lo_bits, hi_bits, step, dtype=np.uint64)
    return np.append(b, hi_bits).astype(np.uint32)


def erf64(x):
    return np.frompyfunc(math.erf, 1, 1)(x).astype(np.float64)


ORACLES = {
    "exp": np.exp, "exp2": np.exp2, "log": np.log, "log2": np.log2,
    "log1p": np.log1p, "expm1": np.expm1, "tanh": np.tanh, "erf": erf64,
    "rsqrt": lambda x: 1.0 / np.sqrt(x),
}
POS = 0x00000000
NEG = 0x80000000
# Domains as (first, last) f32 bit patterns; beyond them the results are
# constants (0, 1, ±1, Inf) checked with the special values.
DOMAINS = {
    "exp": [(POS, 0x42B40000), (NEG, 0xC2D00000)],  # [-104, 90]
    "exp2": [(POS, 0x43020000), (NEG, 0xC3170000)],  # [-151, 130]
    "log": [(POS, 0x7F7FFFFF)],
    "log2": [(POS, 0x7F7FFFFF)],
    "log1p": [(POS, 0x7F7FFFFF), (NEG, 0xBF7FFFFF)],  # (-1, max]
    "expm1": [(POS, 0x42B40000), (NEG, 0xC1A00000)],  # [-20, 90]
    "tanh": [(POS, 0x41200000), (NEG, 0xC1200000)],  # [-10, 10]
    "erf": [(POS, 0x40800000), (NEG, 0xC0800000)],  # [-4, 4]
    "rsqrt": [(POS, 0x7F7FFFFF)],
}
# erf's oracle is a Python loop: a coarser grid.
STRIDE_SCALE = {"erf": 64}
# Where each op's error peaks: the binade of x holding its largest error over
# every f32 input of its domain (Inputs/math_ulp_exhaustive.c, run with
# `--param long_tests=1` by math-ulp-exhaustive.test), swept here on every
# bit pattern, so that the maximum the documented bound rests on is measured
# in each run (the stride-64 sweep misses it).
PEAKS = {
    "exp": [(0x42000000, 0x427FFFFF)],  # [32, 64)
    "exp2": [(0x3F000000, 0x3F7FFFFF)],  # [0.5, 1)
    "log": [(0x3F000000, 0x3F7FFFFF)],  # [0.5, 1)
    "log2": [(0x3F800000, 0x3FFFFFFF)],  # [1, 2)
    "log1p": [(0x4B800000, 0x4BFFFFFF),  # [2^24, 2^25)
              (0xBE800000, 0xBEFFFFFF)],  # [-0.25, -0.5)
    "expm1": [(0x3C000000, 0x3C7FFFFF)],  # [2^-7, 2^-6)
    "tanh": [(0x40800000, 0x40FFFFFF)],  # [4, 8)
    "erf": [(0x3FC00000, 0x3FFFFFFF)],  # [1.5, 2)
    "rsqrt": [(0x3F800000, 0x3FFFFFFF)],  # [1, 2) (as every even binade)
}


def measure(op, ranges, step):
    """(max error, its x, inputs, wrong Inf/NaN, the first) on every step-th
    bit pattern of each (first, last) range."""
    worst, worst_x, count, nbad, bad_x = 0.0, 0.0, 0, 0, None
    for lo, hi in ranges:
        bits = sweep(lo, hi, step)
        for s in range(0, len(bits), 1 << 22):
            x = f32(bits[s:s + (1 << 22)])
            y = call(op + "_f32", x)
            with np.errstate(all="ignore"):
                e = ORACLES[op](x.astype(np.float64))
            err, bad = ulp_error(y, e)
            count += len(x)
            if bad.any():
                nbad += int(bad.sum())
                bad_x = x[bad][0]
            i = int(np.argmax(err))
            if err[i] > worst:
                worst, worst_x = float(err[i]), float(x[i])
    return worst, worst_x, count, nbad, bad_x


def report(name, op, stats):
    global failed
    worst, worst_x, count, nbad, bad_x = stats
    ok = worst <= BOUNDS[op] and nbad == 0
    failed |= not ok
    print(f"{name}: {count} inputs, max {worst:.3f} ulp at {worst_x!r} "
          f"(bound {BOUNDS[op]}), {nbad} wrong Inf/NaN"
          + (f" (first at {bad_x!r})" if nbad else "")
          + ("" if ok else "  FAIL"))


for op, domains in DOMAINS.items():
    report(op, op, measure(op, domains, stride * STRIDE_SCALE.get(op, 1)))
for op, peaks in PEAKS.items():
    ends = ", ".join(f"[{lo!r}, {hi!r}]" for lo, hi in
                     (f32(list(p)).tolist() for p in peaks))
    report(f"{op} peak {ends}", op, measure(op, peaks, 1))

# exp: the subnormal results, every input in [-103.972, -87.3365] (each
# result's error on the subnormal grid, 2^-149).
x = f32(np.arange(0xC2AEAC50, 0xC2CFF1B6, dtype=np.uint64).astype(np.uint32))
with np.errstate(all="ignore"):
    err, bad = ulp_error(call("exp_f32", x), np.exp(x.astype(np.float64)))
ok = err.max() <= BOUNDS["exp"] and not bad.any()
failed |= not ok
print(f"exp subnormal results: {len(x)} inputs, max {err.max():.3f} ulp"
      + ("" if ok else "  FAIL"))

# Special values: (op, input bits, expected result bits or 'nan'), by hand.
INF, NINF, QNAN = 0x7F800000, 0xFF800000, 0x7FC00000
ONE, NEG_ONE, ZERO, NZERO, MAX = 0x3F800000, 0xBF800000, 0, 0x80000000, 0x7F7FFFFF
SPECIALS = [
    ("exp", NINF, ZERO), ("exp", INF, INF), ("exp", QNAN, "nan"),
    ("exp", 0xFFC00001, 0xFFC00001),  # a NaN is returned as it came
    ("exp", ZERO, ONE), ("exp", NZERO, ONE),
    # 88.72284 > ln(FLT_MAX) = 88.7228391 (overflow), 88.72283 below it.
    ("exp", 0x42B17218, INF), ("exp", 0x42B17217, "finite"),
    ("exp", 0x42C80000, INF),  # 100
    ("exp", 0x7F7FFFFF, INF),
    # -103.972084 < ln(2^-150) = -103.97208142: rounds to +0; -103.97 to
    # the smallest subnormal 2^-149 = 0x00000001.
    ("exp", 0xC2CFF1B5, ZERO), ("exp", 0xC2CFF0A4, 0x00000001),
    ("exp", 0xC2D00000, ZERO), ("exp", 0xC3480000, ZERO),  # -104, -200
    ("exp", 0xFF7FFFFF, ZERO), ("exp", 0xF149F2CA, ZERO),  # -max, -1e30
    ("exp2", NINF, ZERO), ("exp2", INF, INF), ("exp2", 0x7FC12345, 0x7FC12345),
    ("exp2", ZERO, ONE), ("exp2", 0x42FE0000, 0x7F000000),  # 2^127
    ("exp2", 0x43000000, INF), ("exp2", 0xC3150000, 0x00000001),  # 2^-149
    ("exp2", 0xC3160000, ZERO), ("exp2", 0xC2FC0000, 0x00800000),  # 2^-126
    ("exp2", 0x41200000, 0x44800000),  # 2^10 = 1024
    ("rsqrt", ZERO, INF), ("rsqrt", NZERO, NINF), ("rsqrt", INF, ZERO),
    ("rsqrt", 0xBF800000, "nan"), ("rsqrt", QNAN, "nan"),
    ("rsqrt", 0x40800000, 0x3F000000),  # 1/sqrt(4) = 0.5
    ("rsqrt", 0x00000001, 0x64B504F3),  # 2^74.5 = 0x1.6a09e6p74 (RNE)
    # log of the smallest subnormal: -149 ln 2 = -103.27893 (0xC2CE8ED0).
    ("log", 0x00000001, 0xC2CE8ED0), ("log2", 0x00000001, 0xC3150000),
    ("log", ONE, ZERO), ("log", ZERO, NINF), ("log", INF, INF),
    ("log", 0xBF800000, "nan"), ("log", QNAN, "nan"),
    ("log2", ONE, ZERO), ("log2", ZERO, NINF), ("log2", INF, INF),
    ("log2", 0x41000000, 0x40400000),  # log2(8) = 3
    ("log1p", ZERO, ZERO), ("log1p", NZERO, NZERO), ("log1p", NEG_ONE, NINF),
    ("log1p", INF, INF),
    ("log1p", 0xC0000000, "nan"),
    ("expm1", ZERO, ZERO), ("expm1", NZERO, NZERO), ("expm1", NINF, NEG_ONE),
    ("expm1", INF, INF),
    ("expm1", QNAN, "nan"),
    ("tanh", ZERO, ZERO), ("tanh", NZERO, NZERO), ("tanh", INF, ONE),
    ("tanh", NINF, NEG_ONE), ("tanh", QNAN, "nan"),
    ("tanh", 0x41A00000, ONE),  # tanh(20) = 1 - 8e-18
    ("erf", ZERO, ZERO), ("erf", NZERO, NZERO),  # the sign of zero kept
    ("erf", INF, ONE), ("erf", NINF, NEG_ONE),
    ("erf", QNAN, "nan"), ("erf", 0x40A00000, ONE),  # erf(5) = 1 - 1.5e-12
]
# A NaN operand is returned as it came (its payload and sign: the bits are
# then the same on every target).
SPECIALS += [(op, 0xFFC00001, 0xFFC00001) for op in
             ("exp2", "rsqrt", "log", "log2", "log1p", "expm1", "tanh", "erf")]
for op, xb, want in SPECIALS:
    y = call(op + "_f32", f32([xb]))
    yb = int(y.view(np.uint32)[0])
    if want == "nan":
        ok = bool(np.isnan(y[0]))
    elif want == "finite":
        ok = bool(np.isfinite(y[0]))
    else:
        ok = yb == want
    failed |= not ok
    print(f"{op}(0x{xb:08X}) = 0x{yb:08X} " + ("ok" if ok else f"FAIL (want {want})"))


# bf16: all 65536 inputs; the result (f32 expansion, rounded to bf16) against
# the correctly rounded bf16 value, in bf16 ulps.
def bf16_to_f64(b):
    with np.errstate(invalid="ignore"):
        return (b.astype(np.uint32) << 16).view(np.float32).astype(np.float64)


for op in ("exp", "rsqrt"):
    b = np.arange(0, 1 << 16, dtype=np.uint32).astype(np.uint16)
    y = call(op + "_bf16", b.copy())
    y64 = bf16_to_f64(y)
    x64 = bf16_to_f64(b)
    with np.errstate(all="ignore"):
        e = ORACLES[op](x64)
        _, ex = np.frexp(e)
        ulp = np.ldexp(1.0, np.maximum(ex - 1, -126) - 7)
        err = np.abs(y64 - e) / ulp
    fin = np.isfinite(e) & np.isfinite(y64)
    # A bf16 result rounds the f32 one: at most 0.5 bf16 ulp plus the f32
    # error (2^-16 of a bf16 ulp per f32 ulp).
    worst = float(err[fin].max())
    with np.errstate(over="ignore"):
        e32 = e.astype(np.float32)
    nbad = int(((np.isnan(y64) != np.isnan(e)) |
                (np.isinf(y64) != np.isinf(e32))).sum())
    ok = worst <= 0.5 + BOUNDS[op] / 65536 and nbad == 0
    failed |= not ok
    print(f"{op} bf16: 65536 inputs, max {worst:.5f} bf16 ulp, {nbad} wrong "
          "Inf/NaN" + ("" if ok else "  FAIL"))

sys.exit(1 if failed else 0)
