"""The "gpu-emulator" backend: the host program of
fp8-gpu-pipeline{host=llvm target=emulator} run on the emulated CUDA runtime
(libfp8_emu_mgpu) gives the same bits as the default CPU backend (the
reference lowering, JIT-compiled), on random shapes with tails; the
per-tensor kernel also against an FP64 reference of the contract (fp8ref);
what the kernels do not take is the compiler's error."""

import os
import shutil
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import fp8_mlir
import fp8ref


def _random(rng, shape, scale_spread=6):
    rows = rng.integers(-scale_spread, scale_spread + 1, size=(shape[0], 1))
    x = rng.standard_normal(shape).astype(np.float32) * np.ldexp(np.float32(1), rows).astype(np.float32)
    x[rng.random(shape) < 1 / 32] = 0
    return x


# (M, N, K, a fmt, b fmt, out): M, N, K tails, K < 128, e4m3/e5m2, bf16/f32.
GEMMS = [
    (1, 65, 128, "e4m3", "e4m3", "bf16"),
    (65, 127, 144, "e4m3", "e5m2", "f32"),
    (127, 129, 96, "e5m2", "e4m3", "bf16"),
    (129, 200, 272, "e4m3", "e4m3", "bf16"),
    (200, 1, 400, "e5m2", "e5m2", "f32"),
    # K not a multiple of 16: the codes' rows are padded with zero codes.
    (130, 136, 136, "e4m3", "e4m3", "bf16"),
    (65, 64, 40, "e5m2", "e4m3", "f32"),
]


@pytest.mark.parametrize("m,n,k,fa,fb,out", GEMMS)
def test_scaled_matmul_bit_equal(m, n, k, fa, fb, out):
    rng = np.random.default_rng(m * 1000 + n * 10 + k)
    qa = fp8_mlir.quantize(_random(rng, (m, k)), block=(1, 128), fmt=fa)
    qb = fp8_mlir.quantize(_random(rng, (n, k)), block=(128, 128), fmt=fb)
    cpu = fp8_mlir.scaled_matmul(qa, qb, out=out)
    emu = fp8_mlir.scaled_matmul(qa, qb, out=out, backend="gpu-emulator")
    assert emu.dtype == cpu.dtype and emu.shape == (m, n)
    np.testing.assert_array_equal(emu.view(np.uint32), cpu.view(np.uint32))


def test_scaled_matmul_random_shapes():
    rng = np.random.default_rng(7)
    for _ in range(3):
        m, n = (int(v) for v in rng.integers(1, 260, size=2))
        k = int(rng.integers(1, 640))
        qa = fp8_mlir.quantize(_random(rng, (m, k)), block=(1, 128))
        qb = fp8_mlir.quantize(_random(rng, (n, k)), block=(128, 128))
        cpu = fp8_mlir.scaled_matmul(qa, qb)
        emu = fp8_mlir.scaled_matmul(qa, qb, backend="gpu-emulator")
        np.testing.assert_array_equal(emu.view(np.uint32), cpu.view(np.uint32), err_msg=f"{m}x{n}x{k}")


# (rows, cols, block, fmt, scale, eps, specials)
QUANTIZES = [
    (130, 300, (1, 128), "e4m3", "f32", 1e-4, False),
    (65, 127, (1, 128), "e5m2", "pow2", 1e-4, True),
    (200, 270, (128, 128), "e4m3", "f32", 1e-6, True),
    (129, 256, (128, 128), "e5m2", "pow2", 1e-4, False),
    # The kernels the single-launch runner of the old backend refused: E8M0
    # scales, the per-tensor kernel (two launches), MX, column and rowwise
    # blocks.
    (64, 256, (1, 128), "e4m3", "e8m0", 1e-4, True),
    (130, 301, (None, None), "e5m2", "f32", 1e-4, True),
    (40, 2100, (None, None), "e4m3", "pow2", 1e-4, False),
    (64, 256, (None, None), "e4m3", "e8m0", 1e-4, False),
    (70, 96, (1, 32), "e4m3", "e8m0", 1e-4, True),
    (200, 130, (128, 1), "e4m3", "f32", 1e-4, False),
    (33, 300, (1, None), "e5m2", "f32", 1e-4, True),
]


@pytest.mark.parametrize("rows,cols,block,fmt,scale,eps,specials", QUANTIZES)
def test_quantize_bit_equal(rows, cols, block, fmt, scale, eps, specials):
    rng = np.random.default_rng(rows + cols)
    x = _random(rng, (rows, cols))
    if specials:
        picks = rng.random(x.shape) < 1 / 300
        x[picks] = rng.choice(np.array([np.inf, -np.inf, np.nan, 1e30, -3e38, 1e-40, -0.0], np.float32), picks.sum())
    cpu = fp8_mlir.quantize(x, block=block, fmt=fmt, scale=scale, eps=eps)
    emu = fp8_mlir.quantize(x, block=block, fmt=fmt, scale=scale, eps=eps, backend="gpu-emulator")
    np.testing.assert_array_equal(emu.codes, cpu.codes)
    np.testing.assert_array_equal(emu.scales.view(np.uint32), cpu.scales.view(np.uint32))
    assert (emu.block, emu.fmt, emu.scale) == (cpu.block, cpu.fmt, cpu.scale)


def _nearest_codes(v, fmt):
    """FP64 reference of cvt_rne_satfinite on finite f32 values `v`: the
    nearest FP8 value (ties to the even code), beyond fmax saturated."""
    codes = np.arange(256)
    values = fp8ref.decode(codes, fmt)
    keep = np.isfinite(values) & (codes < 0x80)  # the non-negative values, +0 once
    mags, mcodes = values[keep], codes[keep]
    order = np.argsort(mags)
    mags, mcodes = mags[order], mcodes[order]
    a = np.minimum(np.abs(v.astype(np.float64)), mags[-1])
    hi = np.clip(np.searchsorted(mags, a), 1, len(mags) - 1)
    lo = hi - 1
    d_lo, d_hi = a - mags[lo], mags[hi] - a
    pick = np.where((d_hi < d_lo) | ((d_hi == d_lo) & (mcodes[hi] % 2 == 0)), hi, lo)
    return (mcodes[pick] | np.where(np.signbit(v), 0x80, 0)).astype(np.uint8)


@pytest.mark.parametrize("fmt,scale,dtype", [("e4m3", "f32", None), ("e5m2", "pow2", "bf16"),
                                             ("e4m3", "e8m0", None)])
def test_quantize_per_tensor_matches_fp64_reference(fmt, scale, dtype):
    # The per-tensor kernel (one scale: amax over every CTA's rows, then the
    # codes) against the contract computed here in FP64 (fp8ref): the scale
    # from the whole tensor's amax, each code the nearest FP8 value of the
    # f32 quotient x / s. One element in ~97 is an outlier, so the amax is
    # one CTA's: a scale from any other part of the tensor differs. bf16
    # input runs the bf16 kernel (the values: bf16 extended exactly).
    rng = np.random.default_rng(11)
    x = _random(rng, (130, 301))
    x[rng.random(x.shape) < 1 / 97] *= 300
    arg = x
    if dtype == "bf16":
        bits = (x.view(np.uint32) >> 16).astype(np.uint16)
        x = np.left_shift(bits, 16, dtype=np.uint32).view(np.float32)
        arg = bits
    q = fp8_mlir.quantize(arg, block=(None, None), fmt=fmt, scale=scale, dtype=dtype, backend="gpu-emulator")
    ref_scale = fp8ref.expected_scales(x, x.shape, fmt=fmt, scale=scale)
    assert q.scales.shape == (1, 1) and q.block == x.shape
    np.testing.assert_array_equal(q.scales, ref_scale)
    np.testing.assert_array_equal(q.codes, _nearest_codes(x / ref_scale[0, 0], fmt))
    cpu = fp8_mlir.quantize(arg, block=(None, None), fmt=fmt, scale=scale, dtype=dtype)
    np.testing.assert_array_equal(q.codes, cpu.codes)
    np.testing.assert_array_equal(q.scales.view(np.uint32), cpu.scales.view(np.uint32))


def test_what_no_kernel_takes_is_the_compilers_error():
    # The backend restates no kernel rule: the compiler's error on an op no
    # GPU kernel implements (fp8-gpu-pipeline's require-kernels; the op
    # would otherwise stay on the host, computed by the CPU lowering) is the
    # ValueError, naming what the kernel implements and what it got.
    x = np.ones((4, 256), np.float32)
    with pytest.raises(ValueError, match="backend must be one of"):
        fp8_mlir.quantize(x, backend="tpu")
    with pytest.raises(ValueError, match=r"^backend 'gpu-emulator': the compiler's GPU pipeline fails on the op: "
                                         r"fp8-lower-to-nvvm: no GPU quantize kernel \(implements blocks "
                                         r"\[1, 128\], .* got \[1, 64\]\)"):
        fp8_mlir.quantize(x, block=(1, 64), backend="gpu-emulator")
    with pytest.raises(ValueError, match="no GPU quantize kernel \\(the hardware conversion "
                                         "cvt.rn.satfinite needs saturate = true\\)"):
        fp8_mlir.quantize(x, saturate=False, backend="gpu-emulator")
    qa = fp8_mlir.quantize(np.ones((4, 256), np.float32), block=(1, 256))
    qb = fp8_mlir.quantize(np.ones((8, 256), np.float32), block=(128, 128))
    with pytest.raises(ValueError, match="no GPU GEMM kernel for 'fp8.scaled_matmul' .*got a: "
                                         "!fp8.scaled<4x256xf8E4M3FN, block = \\[1, 256\\]"):
        fp8_mlir.scaled_matmul(qa, qb, backend="gpu-emulator")
    # The generic N-bit accumulator is no hardware model: the emulated
    # runtime names the models it has.
    qa = fp8_mlir.quantize(np.ones((4, 256), np.float32))
    with pytest.raises(RuntimeError, match="FP8_EMU_ACCUMULATOR='14' is invalid: expected exact, sm90 or sm89"):
        fp8_mlir.scaled_matmul(qa, qb, emulate_accumulator_bits=14, backend="gpu-emulator")


def test_wgrad_and_rowwise_gemms_bit_equal():
    # GEMM kernels beyond DeepSeek-V3's forward blocks, which the compiler
    # has and the old backend refused: the Wgrad GEMM (B in 1x128 tiles)
    # and per-row scales along the whole K.
    rng = np.random.default_rng(5)
    for block, k in (((1, 128), 256), ((1, None), 200)):
        qa = fp8_mlir.quantize(_random(rng, (65, k)), block=block)
        qb = fp8_mlir.quantize(_random(rng, (130, k)), block=block)
        cpu = fp8_mlir.scaled_matmul(qa, qb, out="f32")
        emu = fp8_mlir.scaled_matmul(qa, qb, out="f32", backend="gpu-emulator")
        np.testing.assert_array_equal(emu.view(np.uint32), cpu.view(np.uint32), err_msg=str(block))


def test_runtime_found_in_a_copy_of_the_package(tmp_path):
    # The emulated runtime travels with the package (beside the extension):
    # a copy of the package directory without the build's paths
    # (_build_config) runs the backend.
    package = os.path.dirname(fp8_mlir.__file__)
    shutil.copytree(package, tmp_path / "fp8_mlir", ignore=shutil.ignore_patterns("_build_config.py", "__pycache__"))
    code = textwrap.dedent("""
        import numpy as np, fp8_mlir
        from fp8_mlir._numerics import emulator
        print(emulator.emulator_runtime())
        x = np.arange(64 * 256, dtype=np.float32).reshape(64, 256) / 100
        q = fp8_mlir.quantize(x, block=(None, None), backend="gpu-emulator")
        print(q.codes.max(), q.scales[0, 0] == np.float32(np.float32(163.83) / np.float32(448)))
    """)
    env = dict(os.environ, PYTHONPATH=str(tmp_path), PYTHONDONTWRITEBYTECODE="1")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == [str(tmp_path / "fp8_mlir" / "libfp8_emu_mgpu.so"), "126", "True"], proc.stdout


@pytest.mark.parametrize("model", ["sm90", "sm89"])
@pytest.mark.parametrize("m,n,k,fa,fb", [(65, 127, 272, "e4m3", "e4m3"), (129, 200, 144, "e5m2", "e4m3")])
def test_scaled_matmul_accumulation_models(model, m, n, k, fa, fb):
    # The emulator's wgmma with a tensor-core accumulation model
    # (fp8/Target/Hopper/TensorCoreAccumulation.h, one k32 step per wgmma)
    # against the CPU lowering's IR of the same model (accumulator=sm90|sm89),
    # bit for bit; and different from the exact sums, so the model is used.
    rng = np.random.default_rng(m + n + k)
    qa = fp8_mlir.quantize(_random(rng, (m, k)), block=(1, 128), fmt=fa)
    qb = fp8_mlir.quantize(_random(rng, (n, k)), block=(128, 128), fmt=fb)
    cpu = fp8_mlir.scaled_matmul(qa, qb, out="f32", emulate_accumulator=model)
    emu = fp8_mlir.scaled_matmul(qa, qb, out="f32", emulate_accumulator=model, backend="gpu-emulator")
    np.testing.assert_array_equal(emu.view(np.uint32), cpu.view(np.uint32))
    exact = fp8_mlir.scaled_matmul(qa, qb, out="f32", backend="gpu-emulator")
    assert np.any(exact != emu)


def test_runtime_options_take_the_place_of_the_environment():
    # fp8_mgpu_set_option (how the backend sets FP8_EMU_ACCUMULATOR and
    # FP8_EMU_CONTINUE_ON_FAULT, never through os.environ) wins over the
    # environment until reset; it refuses a name the runtime does not read.
    import ctypes
    from fp8_mlir._numerics import emulator
    lib = emulator._runtime()
    lib.fp8_mgpu_sm_count.restype = ctypes.c_int32
    assert lib.fp8_mgpu_set_option(b"FP8_EMU_NO_SUCH_OPTION", b"1") == -1
    environment = os.environ.get("FP8_EMU_SM_COUNT")
    before = lib.fp8_mgpu_sm_count()
    assert before == (int(environment) if environment else 132)
    assert lib.fp8_mgpu_set_option(b"FP8_EMU_SM_COUNT", b"78") == 0
    try:
        assert lib.fp8_mgpu_sm_count() == 78  # an H20's
    finally:
        assert lib.fp8_mgpu_set_option(b"FP8_EMU_SM_COUNT", None) == 0
    assert lib.fp8_mgpu_sm_count() == before
