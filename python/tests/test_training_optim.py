"""fp8_mlir.training.optim against values derived by hand: BF16 rounding
(round to nearest, ties to even) from bit patterns, the warmup + cosine
schedule, global-norm clipping and two AdamW steps with FP32 and with BF16
moments (DeepSeek-V3 §3.3.3)."""

import math

import numpy as np
import pytest

from fp8_mlir.training import optim


def f32(bits):
    return np.array(bits, np.uint32).view(np.float32)


def bits(x):
    return np.asarray(x, np.float32).view(np.uint32)


# (input, BF16 result), each derived from the bit pattern: BF16 keeps the top
# 16 bits; the dropped 16 decide (below 0x8000 down, above up, equal: to the
# even kept pattern).
ROUNDING = [
    (1.0, 1.0),                                   # exact
    (1 + 2**-8, 1.0),                             # half an ulp (2^-7) above 1: tie, 1 is even
    (1 + 3 * 2**-8, 1 + 2**-6),                   # tie between 1+2^-7 (odd) and 1+2^-6 (even)
    (1 + 2**-8 + 2**-20, 1 + 2**-7),              # just above the tie: up
    (1 + 2**-8 - 2**-20, 1.0),                    # just below: down
    (-(1 + 3 * 2**-8), -(1 + 2**-6)),             # the sign plays no part
    (2 - 2**-8, 2.0),                             # tie above 2 - 2^-7 (odd): carries into the exponent
    (0.25 + 2**-10, 0.25),                        # 0.25 (1 + 2^-8): tie, down to even
    (1e-45, 0.0),                                 # 2^-149 (f32's least subnormal): below half of BF16's
    (3 * 2**-134, 2**-132),                       # BF16 subnormal tie (0x00018000): up to 0x00020000
    (-0.0, -0.0),
]


@pytest.mark.parametrize("x,want", ROUNDING)
def test_round_bf16_hand_derived(x, want):
    got = optim.round_bf16(np.array([x], np.float32))
    assert bits(got)[0] == bits(np.float32(want)), (x, hex(bits(got)[0]), want)


def test_round_bf16_overflow_nan_and_inf():
    max_bf16 = f32([0x7F7F0000])[0]  # (2 - 2^-7) * 2^127
    x = np.array([max_bf16, f32([0x7F7F8000])[0], np.finfo(np.float32).max, -np.inf, np.inf], np.float32)
    got = optim.round_bf16(x)
    # The largest BF16 stays; the tie above it rounds to even, the carry
    # reaching the exponent of infinity; so does FP32's largest value.
    assert bits(got).tolist() == [0x7F7F0000, 0x7F800000, 0x7F800000, 0xFF800000, 0x7F800000]
    # A NaN whose payload lies only in the dropped bits stays NaN (not inf).
    nans = optim.round_bf16(f32([0x7F800001, 0xFFC00000, 0x7FBFFFFF]))
    assert np.isnan(nans).all()
    assert (bits(nans) & 0xFFFF).tolist() == [0, 0, 0]  # BF16 patterns


def test_round_bf16_keeps_shape_and_rejects_float64():
    x = np.arange(12, dtype=np.float32).reshape(3, 4) / 7
    assert optim.round_bf16(x).shape == (3, 4)
    assert optim.round_bf16(x[:, ::2]).shape == (3, 2)  # a strided view
    with pytest.raises(ValueError, match="float32"):
        optim.round_bf16(np.ones(3))


def test_schedule_warmup_and_cosine():
    s = optim.Schedule(peak_lr=1e-3, warmup_steps=4, total_steps=12, min_lr=1e-4)
    # Warmup: peak * (step + 1) / 4.
    assert [s(i) for i in range(4)] == pytest.approx([2.5e-4, 5e-4, 7.5e-4, 1e-3], rel=1e-12)
    # Cosine over steps 4..12: p = (step - 4) / 8.
    assert s(4) == pytest.approx(1e-3, rel=1e-12)
    assert s(6) == pytest.approx(1e-4 + 9e-4 * (1 + math.sqrt(0.5)) / 2, rel=1e-12)  # p = 1/4
    assert s(8) == pytest.approx(5.5e-4, rel=1e-12)  # p = 1/2: halfway between peak and min
    assert s(12) == s(100) == pytest.approx(1e-4, rel=1e-12)
    assert optim.Schedule(2e-3, 0, 10)(0) == pytest.approx(2e-3, rel=1e-12)
    for bad in (dict(peak_lr=0, warmup_steps=1, total_steps=2), dict(peak_lr=1, warmup_steps=3, total_steps=2),
                dict(peak_lr=1, warmup_steps=0, total_steps=2, min_lr=2)):
        with pytest.raises(ValueError, match="Schedule"):
            optim.Schedule(**bad)
    with pytest.raises(ValueError, match="step"):
        s(-1)


def test_clip_by_global_norm():
    grads = {"a": np.array([3.0, 0.0], np.float32), "b": np.array([[4.0]], np.float32)}
    assert optim.global_norm(grads) == 5.0
    clipped, norm = optim.clip_by_global_norm(grads, 1.0)
    assert norm == 5.0
    assert clipped["a"] == pytest.approx([0.6, 0.0], rel=1e-6)
    assert clipped["b"][0] == pytest.approx([0.8], rel=1e-6)
    kept, _ = optim.clip_by_global_norm(grads, 10.0)  # under the limit: unchanged
    assert kept["a"].tolist() == [3.0, 0.0] and kept["b"].tolist() == [[4.0]]
    with pytest.raises(FloatingPointError, match="b"):
        optim.clip_by_global_norm({"a": grads["a"], "b": np.array([np.inf], np.float32)}, 1.0)


def test_global_norm_against_fp64():
    """The compiled norm (float32) against NumPy's FP64 sum of squares:
    gradients of rank 0 to 3, rows that are and are not multiples of the
    32 lanes, an empty one. Tolerance: the longest chain of dependent
    float32 additions here is at most (200, 300)'s: 300 terms in a row
    (summed sequentially; the 32 lanes' order of a row of 300 has 10 + 5),
    its 200 row sums, the 7 gradients: 507
    additions of positive terms, each square rounded once: a relative
    error below 508 * 2^-24 = 3.0e-5 of the sum (Higham, 4.2), half of it
    on the norm, plus the square root's rounding: 2e-5."""
    rng = np.random.default_rng(5)
    shapes = [(), (7,), (96,), (64, 128), (3, 5, 33), (0, 4), (200, 300)]
    # Each gradient's own norm about i + 1: leaving any one out moves the
    # total by far more than the tolerance.
    grads = {f"g{i}": ((i + 1) * rng.standard_normal(s) / math.sqrt(max(1, math.prod(s)))).astype(np.float32)
             for i, s in enumerate(shapes)}
    ref = math.sqrt(sum(float(np.sum(g.astype(np.float64) ** 2)) for g in grads.values()))
    assert optim.global_norm(grads) == pytest.approx(ref, rel=2e-5, abs=0)


@pytest.mark.parametrize("max_norm", [1.0, 37.5])
def test_clip_factor_against_fp64(max_norm):
    """The factor min(1, max_norm / (norm + 1e-6)) against its FP64 value:
    within 2^-23 when the norm is above max_norm (norm 50; float32 rounds
    50 + 1e-6 and the quotient), exactly 1 below (norm 5)."""
    big = {"a": np.array([30.0, 0.0], np.float32), "b": np.array([[40.0]], np.float32)}
    norm, coef = optim.norm_and_factor(big, max_norm)
    assert norm == 50.0
    assert coef.dtype == np.float32 and coef == pytest.approx(max_norm / (50.0 + 1e-6), rel=2**-23)
    small = {"a": np.array([3.0, 0.0], np.float32), "b": np.array([[4.0]], np.float32)}
    norm, coef = optim.norm_and_factor(small, 10.0 + max_norm)
    assert norm == 5.0 and coef == np.float32(1.0)
    assert optim.norm_and_factor(big, None)[1] == np.float32(1.0)  # no clipping


def test_adamw_norm_sums_in_the_parameters_order():
    """AdamW.step sums the norm in its parameters' order, whatever order the
    gradients dict has (a device sums in that order too). Squares 2^24
    then eight 1s: each 2^24 + 1 is a float32 tie, to the even 2^24, so the
    norm is 4096; in the reverse order the 1s add up to 8 first, 2^24 + 8
    is exact and its root lies below 4096 + 2^-10 by less than 2^-32, far
    less than half an ulp (2^-12): it rounds to 4096 + 2^-10."""
    names = ["a"] + [f"b{i}" for i in range(8)]
    params = {k: np.zeros(1, np.float32) for k in names}
    grads = {k: np.array([4096.0 if k == "a" else 1.0], np.float32) for k in names}
    assert optim.global_norm(dict(reversed(list(grads.items())))) == 4096 + 2**-10
    opt = optim.AdamW(params, 1e-3, clip_norm=None)
    opt.step(dict(reversed(list(grads.items()))))
    assert opt.last_grad_norm == 4096.0


def test_adamw_two_steps_fp32_moments():
    """lr 0.1, weight decay 0.1, betas (0.9, 0.95), no clipping.
    Step 1: p * 0.99, then Adam's first step moves each weight by lr * sign(g).
    Step 2: m = (0.095, 0.0025), v = (0.024375, 0.00609375); bias
    corrections 0.19 and 0.0975 give m^ = (0.5, 0.25 / 19), sqrt(v^) = (0.5, 0.25)."""
    p0 = {"w": np.array([1.0, -2.0], np.float32)}
    opt = optim.AdamW(p0, 0.1, betas=(0.9, 0.95), eps=1e-8, weight_decay=0.1, clip_norm=None, moment_dtype="f32")
    opt.step({"w": np.array([0.5, -0.25], np.float32)})
    assert opt.params["w"] == pytest.approx([0.89, -1.88], rel=1e-6)
    assert opt.m["w"] == pytest.approx([0.05, -0.025], rel=1e-6)
    assert opt.v["w"] == pytest.approx([0.0125, 0.003125], rel=1e-6)
    opt.step({"w": np.array([0.5, 0.25], np.float32)})
    assert opt.m["w"] == pytest.approx([0.095, 0.0025], rel=1e-6)
    assert opt.v["w"] == pytest.approx([0.024375, 0.00609375], rel=1e-6)
    assert opt.params["w"] == pytest.approx([0.89 * 0.99 - 0.1, -1.88 * 0.99 - 0.1 * (0.25 / 19) / 0.25], rel=1e-6)
    assert p0["w"].tolist() == [1.0, -2.0]  # the caller's arrays are not touched


def test_adamw_bf16_moments_round_to_nearest_even():
    """betas (0.5, 0.5), lr 1, no decay: g1 = 1, g2 = 2^-9. Then
    m2 = 0.25 + 2^-10 (0.25 (1 + 2^-8): a BF16 tie, to 0.25) and
    v2 = 0.25 + 2^-19 (below half an ulp: 0.25); the update reads the
    stored moments: m^ = v^ = 0.25 / 0.75, a step of sqrt(1/3)."""
    def run(moment_dtype):
        opt = optim.AdamW({"w": np.array([4.0], np.float32)}, 1.0, betas=(0.5, 0.5), eps=1e-12,
                          weight_decay=0.0, clip_norm=None, moment_dtype=moment_dtype)
        opt.step({"w": np.array([1.0], np.float32)})
        assert opt.params["w"] == pytest.approx([3.0], rel=1e-7)
        opt.step({"w": np.array([2**-9], np.float32)})
        return opt

    bf = run("bf16")
    assert bf.m["w"].tolist() == [0.25] and bf.v["w"].tolist() == [0.25]
    assert bf.params["w"] == pytest.approx([3.0 - math.sqrt(1 / 3)], rel=1e-6)
    fp = run("f32")
    assert fp.m["w"].tolist() == [0.25 + 2**-10] and fp.v["w"].tolist() == [0.25 + 2**-19]
    want = 3.0 - ((0.25 + 2**-10) / 0.75) / math.sqrt((0.25 + 2**-19) / 0.75)
    assert fp.params["w"] == pytest.approx([want], rel=1e-6)
    assert bf.state_bytes() == 4 and fp.state_bytes() == 8


def test_adamw_clips_before_the_moments_and_skips_norm_decay():
    params = {"w": np.zeros(2, np.float32), "model.norm.weight": np.ones(2, np.float32),
              "v": np.ones(2, np.float32)}
    sched = optim.Schedule(peak_lr=0.2, warmup_steps=2, total_steps=10)
    opt = optim.AdamW(params, sched, betas=(0.9, 0.95), weight_decay=0.5, clip_norm=1.0, moment_dtype="f32")
    grads = {"w": np.array([30.0, 40.0], np.float32), "model.norm.weight": np.zeros(2, np.float32),
             "v": np.zeros(2, np.float32)}
    opt.step(grads)
    assert opt.last_lr == pytest.approx(0.1) and opt.last_grad_norm == pytest.approx(50.0)
    # Clipped to norm 1 (0.6, 0.8) before entering the first moment.
    assert opt.m["w"] == pytest.approx([0.06, 0.08], rel=1e-5)
    # Zero gradients: the norm gain stays 1 (no decay), "v" decays by 1 - lr * wd.
    assert opt.params["model.norm.weight"].tolist() == [1.0, 1.0]
    assert opt.params["v"] == pytest.approx([0.95, 0.95], rel=1e-7)


def test_adamw_rejects_bad_input():
    p = {"w": np.zeros(2, np.float32)}
    with pytest.raises(ValueError, match="moment_dtype"):
        optim.AdamW(p, 1e-3, moment_dtype="fp16")
    with pytest.raises(ValueError, match="float32"):
        optim.AdamW({"w": np.zeros(2)}, 1e-3)
    opt = optim.AdamW(p, 1e-3)
    with pytest.raises(ValueError, match="missing"):
        opt.step({})
    with pytest.raises(ValueError, match="shape"):
        opt.step({"w": np.zeros(3, np.float32)})


def _numpy_adamw(p, grads, lr, betas, eps, weight_decay):
    """AdamW as DeepSeek-V3 §3.3.3 and Loshchilov & Hutter write it, in
    float64, moments unrounded, no clipping: decay, then the moments, then
    p -= lr * m^ / (sqrt(v^) + eps), eps outside the square root."""
    b1, b2 = betas
    p = p.astype(np.float64)
    m, v = np.zeros_like(p), np.zeros_like(p)
    for t, g in enumerate(grads, start=1):
        g = g.astype(np.float64)
        p = p * (1 - lr * weight_decay)
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        p = p - lr * (m / (1 - b1**t)) / (np.sqrt(v / (1 - b2**t)) + eps)
    return p


def test_adamw_matches_numpy_reference_with_tiny_second_moments():
    """A parameter whose gradients are about 1e-7 (sqrt(v^) comparable to
    eps = 1e-8, where eps inside the square root would give sqrt(1e-14 +
    1e-8) = 1e-4 and steps a thousand times too small) and one with
    ordinary gradients, three steps with FP32 moments against the float64
    reference."""
    rng = np.random.default_rng(5)
    shapes = {"tiny": (64,), "usual": (8, 8)}
    params = {k: rng.standard_normal(s).astype(np.float32) for k, s in shapes.items()}
    scale = {"tiny": 1e-7, "usual": 1.0}
    grads = [{k: (scale[k] * rng.standard_normal(s)).astype(np.float32) for k, s in shapes.items()}
             for _ in range(3)]
    lr, betas, eps, wd = 1e-2, (0.9, 0.95), 1e-8, 0.1
    opt = optim.AdamW(params, lr, betas=betas, eps=eps, weight_decay=wd, clip_norm=None, moment_dtype="f32")
    for g in grads:
        opt.step(g)
    for k in shapes:
        want = _numpy_adamw(params[k], [g[k] for g in grads], lr, betas, eps, wd)
        moved = np.abs(want - params[k].astype(np.float64) * (1 - lr * wd) ** 3)
        assert np.median(moved) > 5e-3, k  # the weights moved by the update itself, not only the decay
        # float32 arithmetic against float64: within a few f32 ulps of the weights.
        np.testing.assert_allclose(opt.params[k], want, rtol=0, atol=4e-7 * np.abs(want).max(), err_msg=k)


@pytest.mark.parametrize("kwargs, what", [
    (dict(eps=float("nan")), "eps"), (dict(eps=0.0), "eps"), (dict(eps=float("inf")), "eps"),
    (dict(weight_decay=float("nan")), "weight_decay"), (dict(weight_decay=-0.1), "weight_decay"),
    (dict(weight_decay=float("inf")), "weight_decay"),
    (dict(clip_norm=float("nan")), "clip_norm"), (dict(clip_norm=-1.0), "clip_norm"),
    (dict(clip_norm=float("inf")), "clip_norm"),
    (dict(betas=(float("nan"), 0.95)), "betas"), (dict(betas=(0.9,)), "betas"),
    (dict(schedule=float("nan")), "lr"), (dict(schedule=-1e-3), "lr"), (dict(schedule=0.0), "lr"),
])
def test_adamw_rejects_non_finite_or_negative_hyperparameters(kwargs, what):
    """NaN passes a plain `eps <= 0` test, and a NaN weight decay, eps or
    learning rate makes every weight NaN; a NaN clip_norm silently turns
    clipping off (min(1, nan) is 1); a negative learning rate climbs the
    loss. Each is refused when the optimizer is made, naming the value."""
    kwargs = dict(kwargs)
    schedule = kwargs.pop("schedule", 1e-3)
    with pytest.raises(ValueError, match=what):
        optim.AdamW({"w": np.zeros(2, np.float32)}, schedule, **kwargs)


@pytest.mark.parametrize("rate", [float("nan"), -1e-3, float("inf"), "0.1"])
def test_adamw_rejects_a_bad_rate_from_the_schedule(rate):
    opt = optim.AdamW({"w": np.ones(2, np.float32)}, lambda step: rate, clip_norm=None)
    with pytest.raises(ValueError, match="learning rate"):
        opt.step({"w": np.ones(2, np.float32)})
    assert opt.params["w"].tolist() == [1.0, 1.0]  # nothing moved


def test_adamw_rejects_weights_and_gradients_it_would_convert_silently():
    with pytest.raises(ValueError, match="w must be a float32 NumPy array, got list"):
        optim.AdamW({"w": [1.0, 2.0]}, 1e-3)
    with pytest.raises(TypeError, match="dict"):
        optim.AdamW([np.zeros(2, np.float32)], 1e-3)
    opt = optim.AdamW({"w": np.ones(2, np.float32)}, 1e-3, clip_norm=None)
    with pytest.raises(ValueError, match="gradient w must hold real numbers"):
        opt.step({"w": np.array([1 + 1j, 2], np.complex64)})  # the imaginary part would be dropped
    with pytest.raises(ValueError, match="gradient w has shape"):
        opt.step({"w": [1.0, 2.0, 3.0]})  # a list: checked as an array (was AttributeError: no .shape)
    with pytest.raises(FloatingPointError, match="w"):  # no clipping: NaN would reach every weight
        opt.step({"w": np.array([np.nan, 1], np.float32)})
    assert opt.params["w"].tolist() == [1.0, 1.0] and opt.t == 0


@pytest.mark.parametrize("max_norm", [-1.0, 0.0, float("nan"), float("inf"), True])
def test_clip_by_global_norm_rejects_a_bad_limit(max_norm):
    """A negative limit flips every gradient (gradient ascent); NaN or
    infinity never clips."""
    with pytest.raises(ValueError, match="max_norm"):
        optim.clip_by_global_norm({"a": np.array([3.0, 4.0], np.float32)}, max_norm)
