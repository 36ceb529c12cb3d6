"""The "gpu-emulator" backend: the sm_90a kernels of fp8-lower-to-nvvm run on
the CPU emulator (fp8/Emulator) give the same bits as the default CPU backend
(the reference lowering, JIT-compiled), on random shapes with tails."""

import numpy as np
import pytest

import fp8_mlir


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


def test_unsupported_forms_are_errors():
    x = np.ones((4, 256), np.float32)
    with pytest.raises(ValueError, match="backend must be one of"):
        fp8_mlir.quantize(x, backend="tpu")
    with pytest.raises(ValueError, match="block \\(1, 128\\) or \\(128, 128\\)"):
        fp8_mlir.quantize(x, block=(1, 64), backend="gpu-emulator")
    with pytest.raises(ValueError, match="saturate=True"):
        fp8_mlir.quantize(x, saturate=False, backend="gpu-emulator")
    qa = fp8_mlir.quantize(np.ones((4, 256), np.float32))
    qb = fp8_mlir.quantize(np.ones((8, 256), np.float32), block=(128, 128))
    with pytest.raises(ValueError, match="exact partials"):
        fp8_mlir.scaled_matmul(qa, qb, emulate_accumulator_bits=14, backend="gpu-emulator")


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


def test_kernel_lookup_errors():
    # The emulator entry points name a kernel that is of the other kind, or
    # compiled for another shape, instead of running it.
    from fp8_mlir import _fp8_mlir as native
    from fp8_mlir._numerics.emulator import _lower_to_nvvm

    at = "!fp8.scaled<64x256xf8E4M3FN, block = [1, 128], scale = f32>"
    bt = "!fp8.scaled<128x256xf8E4M3FN, block = [128, 128], scale = f32>"
    ir = _lower_to_nvvm(f"""
func.func @gemm(%a: {at}, %b: {bt}) -> tensor<64x128xf32> {{
  %d = fp8.scaled_matmul %a, %b : {at}, {bt} -> tensor<64x128xf32>
  return %d : tensor<64x128xf32>
}}
""")
    kernel, = fp8_mlir.gpu_kernels(ir)
    codes = np.full((32, 256), 0x38, np.uint8)
    operands = (codes, np.ones((32, 2), np.float32), np.full((128, 256), 0x38, np.uint8), np.ones((1, 2), np.float32))
    for which in (kernel, None):  # passed, or the module's one GEMM kernel
        with pytest.raises(
            RuntimeError, match=f"^fp8-emu: error: kernel '{kernel.symbol}' is not compiled for 32x128x256$"
        ):
            native.emulate_gemm(ir, which, *operands)
    x = np.zeros((64, 256), np.float32).view(np.uint32)
    # A GEMM kernel is no quantize kernel (the types tell), and the module
    # has none to pick.
    with pytest.raises(TypeError):
        native.emulate_quantize(ir, kernel, x, 1)
    with pytest.raises(ValueError, match="^the module has 0 quantize kernels; pass the one to run"):
        native.emulate_quantize(ir, None, x, 1)
    # A quantize kernel of another module is not one of this module's.
    other, = fp8_mlir.gpu_kernels(_lower_to_nvvm("""
func.func @quantize(%x: tensor<64x256xf32>) -> !fp8.scaled<64x256xf8E4M3FN, block = [1, 128], scale = f32> {
  %q = fp8.quantize %x : tensor<64x256xf32> -> !fp8.scaled<64x256xf8E4M3FN, block = [1, 128], scale = f32>
  return %q : !fp8.scaled<64x256xf8E4M3FN, block = [1, 128], scale = f32>
}
"""))
    with pytest.raises(
        RuntimeError, match=f"^fp8-emu: error: '{other.symbol}' is not a quantize kernel \\(no #fp8.quantize_kernel\\)$"
    ):
        native.emulate_quantize(ir, other, x, 1)
    # A quantize kernel this single-launch runner does not run says why:
    # the per-tensor kernel (two launches), E8M0 scales.
    for block, scale, why in (("[64, 256]", "f32", "one scale per tensor \\(two launches\\)"),
                              ("[1, 128]", "f8E8M0FNU", "E8M0 scales")):
        ty = f"!fp8.scaled<64x256xf8E4M3FN, block = {block}, scale = {scale}>"
        module = _lower_to_nvvm(f"""
func.func @quantize(%x: tensor<64x256xf32>) -> {ty} {{
  %q = fp8.quantize %x {{scale_mode = #fp8.scale_mode<pow2>}} : tensor<64x256xf32> -> {ty}
  return %q : {ty}
}}
""")
        refused, = fp8_mlir.gpu_kernels(module)
        with pytest.raises(
            RuntimeError, match=f"^fp8-emu: error: quantize kernel '{refused.symbol}' has {why}: it runs through "
            "its compiled host program"
        ):
            native.emulate_quantize(module, refused, x, 1)
