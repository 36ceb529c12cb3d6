"""bench-gemmq.test: the CPU oracle library's gemmq_<M>x<N>x<K> (prepare.sh's
quantize epilogue functions, through fp8-cpu-pipeline) against an
independent NumPy quantize of the same library's gemm_ bf16 output (1x128
tiles, amax over the bf16 values, scale max(amax, 1e-4) / 448 in f32, "not a
normal f32 -> 1", codes E4M3FN round-to-nearest-even with satfinite),
both called through ctypes with harness.py's descriptor layout (a scaled
result is two rank-2 memrefs: codes u8, then scales f32). Exits 1 on any
mismatch.
  bench_gemmq_check.py LIB MxNxK..."""
import ctypes
import sys

import numpy as np

class MemRef2D(ctypes.Structure):
    _fields_ = [("allocated", ctypes.c_void_p), ("aligned", ctypes.c_void_p),
                ("offset", ctypes.c_int64), ("sizes", ctypes.c_int64 * 2),
                ("strides", ctypes.c_int64 * 2)]

def memref(a):
    assert a.flags.c_contiguous and a.ndim == 2
    d = MemRef2D(); d.allocated = d.aligned = a.ctypes.data; d.offset = 0
    d.sizes[0], d.sizes[1] = a.shape; d.strides[0], d.strides[1] = a.shape[1], 1
    return d

libc = ctypes.CDLL(None); libc.free.argtypes = [ctypes.c_void_p]
def take(d, dtype):
    r, c = d.sizes[0], d.sizes[1]
    assert d.strides[0] == c and d.strides[1] == 1
    out = np.empty((r, c), dtype=dtype)
    ctypes.memmove(out.ctypes.data, d.aligned + d.offset * out.itemsize, out.nbytes)
    libc.free(d.allocated)
    return out

def e4m3_values():
    """The values of the non-negative E4M3FN codes 0..0x7E (0x7F is NaN)."""
    v = np.zeros(128, np.float64)
    for code in range(127):  # 0x7F is NaN
        e, m = code >> 3, code & 7
        v[code] = m / 8 * 2.0 ** -6 if e == 0 else (1 + m / 8) * 2.0 ** (e - 7)
    return v[:127]

POS = e4m3_values()

def to_e4m3(q):
    """f32 array (finite, |q| <= 448) -> E4M3FN codes, RNE (ties to the even code)."""
    a = np.abs(q.astype(np.float64))
    hi = np.clip(np.searchsorted(POS, a), 0, 126)
    lo = np.clip(hi - 1, 0, 126)
    dlo, dhi = a - POS[lo], POS[hi] - a
    code = np.where(dlo < dhi, lo, np.where(dhi < dlo, hi, np.where(lo % 2 == 0, lo, hi)))
    return (code | np.where(np.signbit(q), 0x80, 0)).astype(np.uint8)

def quantize_1x128(x):
    m, n = x.shape
    nb = -(-n // 128)
    xp = np.zeros((m, nb * 128), np.float32); xp[:, :n] = x
    amax = np.abs(xp).reshape(m, nb, 128).max(axis=2)
    s = np.maximum(amax, np.float32(1e-4)) / np.float32(448.0)
    e = (s.view(np.int32) >> 23) & 0xFF
    s = np.where((e != 0) & (e != 0xFF), s, np.float32(1.0)).astype(np.float32)
    full = np.repeat(s, 128, axis=1)[:, :n]
    q = np.clip(x / full, np.float32(-448.0), np.float32(448.0)).astype(np.float32)
    return to_e4m3(q), s

def main(lib_path, shapes):
    lib = ctypes.CDLL(lib_path)
    rng = np.random.default_rng(7)
    for m, n, k in shapes:
        kb = -(-k // 128)
        def codes(r):  # random E4M3FN codes of both signs, NaN replaced
            c = rng.integers(0, 256, (r, k), dtype=np.uint8)
            return np.where((c & 0x7F) == 0x7F, 0x7E, c).astype(np.uint8)
        qa, qb = codes(m), codes(n)
        sa = (2.0 ** rng.integers(-12, -4, (m, kb))).astype(np.float32) * rng.uniform(1, 2, (m, kb)).astype(np.float32)
        sb = (2.0 ** rng.integers(-12, -4, (-(-n // 128), kb))).astype(np.float32)
        args = [ctypes.byref(memref(t)) for t in (qa, sa, qb, sb)]
        d = MemRef2D()
        getattr(lib, f"_mlir_ciface_gemm_{m}x{n}x{k}")(ctypes.byref(d), *args)
        bf16 = take(d, np.uint16)
        x = (bf16.astype(np.uint32) << 16).view(np.float32)
        res = (MemRef2D * 2)()
        getattr(lib, f"_mlir_ciface_gemmq_{m}x{n}x{k}")(ctypes.byref(res), *args)
        gc, gs = take(res[0], np.uint8), take(res[1], np.float32)
        rc, rs = quantize_1x128(x)
        bad_c = int((gc != rc).sum()) if gc.shape == rc.shape else -1
        bad_s = int((gs.view(np.int32) != rs.view(np.int32)).sum()) if gs.shape == rs.shape else -1
        print(f"{m}x{n}x{k}: codes {gc.shape} mismatches {bad_c}, scales {gs.shape} mismatches {bad_s}, "
              f"|D| max {np.abs(x).max():.3g}, distinct codes {len(np.unique(gc))}")
        if bad_c or bad_s:
            sys.exit(1)

if __name__ == "__main__":
    main(sys.argv[1], [tuple(int(v) for v in s.split("x")) for s in sys.argv[2:]])
