"""The block-scaled matmul regression cases (public FP8 bug reports, reduced
to small inputs with hand-derived expected values) on the sm_90a GEMM kernel
through the CPU emulator (backend="gpu-emulator"), with the CPU backend
alongside: both must give the derived value exactly."""

import numpy as np
import pytest

import fp8_mlir

BACKENDS = ("cpu", "gpu-emulator")
ONE_E4M3 = 0x38  # 1.0 in f8E4M3FN: exponent 7 (bias 7), mantissa 0


def _decode_e4m3(code):
    e, m = (code >> 3) & 0xF, code & 7
    v = 2.0 ** (e - 7) * (1 + m / 8) if e else 2.0**-6 * (m / 8)
    return -v if code & 0x80 else v


def _ones(shape, code=ONE_E4M3):
    return np.full(shape, code, np.uint8)


def _mm(a_codes, a_scales, b_codes, b_scales, backend):
    return fp8_mlir.scaled_matmul(
        a_codes, np.asarray(a_scales, np.float32), b_codes, np.asarray(b_scales, np.float32), out="f32", backend=backend
    )


@pytest.mark.parametrize("backend", BACKENDS)
def test_k_tile_wider_than_scale_block(backend):
    # sglang #39626: K = 256, A row = [1]*128 + [2]*128 (codes 1.0, block
    # scales 1 and 2), B = ones -> 384 (one scale per 128-wide K block, not
    # the first block's for the whole tile: 256).
    d = _mm(_ones((1, 256)), [[1, 2]], _ones((8, 256)), [[1, 1]], backend)
    np.testing.assert_array_equal(d, np.full((1, 8), 384, np.float32))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("n,k", [(448, 128), (576, 2560)])
def test_n_not_a_multiple_of_the_block(backend, n, k):
    # vllm #49596/#47103: B's 128-row blocks hold 1, 2, 4, 8, ... (codes 1.0,
    # block scales), A = ones: D[0, j] = K * value[j // 128] (column 112 is
    # K, not 2K). N = 576, K = 2560: B scales [5, 20].
    values = np.array([1, 2, 4, 8, 16], np.float32)[: (n + 127) // 128]
    kb = (k + 127) // 128
    b_scales = np.repeat(values[:, None], kb, axis=1)
    d = _mm(_ones((1, k)), np.ones((1, kb)), _ones((n, k)), b_scales, backend)
    np.testing.assert_array_equal(d[0], k * values[np.arange(n) // 128])
    assert d[0, 112] == k


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("m", [200, 1])
def test_m_tail_on_scale_loads(backend, m):
    # pytorch #133334, cutlass #2154: A row i = i + 1 (codes 1.0, row scale
    # i + 1), B = ones, N = K = 128: D[i, n] = 128 (i + 1); row 199 = 25600.
    rows = np.arange(1, m + 1, dtype=np.float32)[:, None]
    d = _mm(_ones((m, 128)), rows, _ones((128, 128)), [[1]], backend)
    np.testing.assert_array_equal(d, np.broadcast_to(128 * rows, (m, 128)))
    if m == 200:
        assert d[199, 0] == 25600


@pytest.mark.parametrize("backend", BACKENDS)
def test_k_major_b_without_transpose(backend):
    # tilelang #3223, triton #7629 (kernel level): B [N = 256, K = 128] is
    # K-major; B[n][k] = 1 iff n = 0 and k < 64, A = ones:
    # D[:, 0] = 64, every other column 0.
    b = np.zeros((256, 128), np.uint8)
    b[0, :64] = ONE_E4M3
    d = _mm(_ones((64, 128)), np.ones((64, 1)), b, np.ones((2, 1)), backend)
    want = np.zeros((64, 256), np.float32)
    want[:, 0] = 64
    np.testing.assert_array_equal(d, want)


@pytest.mark.parametrize("backend", BACKENDS)
def test_accumulator_range(backend):
    # torch-mlir #4616: K = 128, every A and B value 448 (code 0x7E), scales
    # 1: D = 128 * 448^2 = 25,690,112, exact in f32.
    d = _mm(_ones((64, 128), 0x7E), np.ones((64, 1)), _ones((128, 128), 0x7E), [[1]], backend)
    np.testing.assert_array_equal(d, np.full((64, 128), 25690112, np.float32))


@pytest.mark.parametrize("backend", BACKENDS)
def test_swizzle_agreement(backend):
    # DeepGEMM #433: M = N = K = 128, A = identity, B[n][k] = the E4M3 code
    # (k mod 126) + 1, scales 1: D[m][n] = decode(B[n][m]) exactly; a TMA
    # swizzle / wgmma descriptor mismatch shows as a permutation.
    a_codes = np.where(np.eye(128, dtype=bool), ONE_E4M3, 0).astype(np.uint8)
    k = np.arange(128)
    b_codes = np.tile(((k % 126) + 1).astype(np.uint8), (128, 1))
    ones = np.ones((128, 1), np.float32)
    d = fp8_mlir.scaled_matmul(
        a_codes, ones, b_codes, np.ones((1, 1), np.float32), out="f32", backend=backend
    )
    want = np.array([[_decode_e4m3(int(b_codes[n, m])) for n in range(128)] for m in range(128)], np.float32)
    np.testing.assert_array_equal(d, want)
