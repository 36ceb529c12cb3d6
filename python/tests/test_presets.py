"""The format limits and policy presets the package reads from the compiler,
against the documented values (docs/design.md §1, docs/policies.md), written
out here by hand."""

import inspect
import re

import fp8_mlir
from conftest import load_example
from fp8_mlir import models, numerics
from fp8_mlir.training import LanguageModel, saved_activations
from fp8_mlir.training.lm import LM_POLICIES

# docs/design.md §1: f8E4M3FN (bias 7, max 448, min normal 2^-6, min
# subnormal 2^-9, no Inf, NaN) and f8E5M2 (bias 15, max 57344, Inf, NaN);
# E5M2's min normal 2^-14 and min subnormal 2^-16 (OCP FP8 v1.0).
DOCUMENTED_FORMATS = {
    "e4m3": dict(mlir_type="f8E4M3FN", max=448.0, min_normal=2.0**-6, min_subnormal=2.0**-9,
                 exponent_bits=4, mantissa_bits=3, bias=7, has_inf=False, has_nan=True),
    "e5m2": dict(mlir_type="f8E5M2", max=57344.0, min_normal=2.0**-14, min_subnormal=2.0**-16,
                 exponent_bits=5, mantissa_bits=2, bias=15, has_inf=True, has_nan=True),
}

# docs/policies.md's table: preset -> FP8 formats (forward, gradient), None
# for the bf16 baseline (no FP8).
DOCUMENTED_PRESETS = {
    "deepseek-v3": ("e4m3", "e4m3"),
    "hybrid": ("e4m3", "e5m2"),
    "per-tensor": ("e4m3", "e5m2"),
    "rowwise": ("e4m3", "e4m3"),
    "mxfp8": ("e4m3", "e4m3"),
    "bf16": None,
}


def test_format_limits_are_the_documented_ones():
    view = {name: {field: getattr(f, field) for field in DOCUMENTED_FORMATS["e4m3"]}
            for name, f in numerics.FORMAT_LIMITS.items()}
    assert view == DOCUMENTED_FORMATS
    assert list(numerics.FORMAT_LIMITS) == ["e4m3", "e5m2"]


def test_formats_view_follows_the_limits():
    assert numerics.FORMATS == {"e4m3": ("f8E4M3FN", 448.0), "e5m2": ("f8E5M2", 57344.0)}


def test_limits_are_read_only():
    f = numerics.FORMAT_LIMITS["e4m3"]
    try:
        f.max = 1.0
    except AttributeError:
        pass
    else:
        raise AssertionError("FormatLimits.max is writable")
    assert numerics.FORMAT_LIMITS["e4m3"].max == 448.0


def test_policy_presets_are_the_documented_ones():
    assert fp8_mlir.POLICIES == tuple(DOCUMENTED_PRESETS)
    assert fp8_mlir.FP8_POLICIES == tuple(p for p, f in DOCUMENTED_PRESETS.items() if f)
    presets = fp8_mlir.compiler._native.policy_preset_info()
    assert [p.name for p in presets] == list(DOCUMENTED_PRESETS)
    for p in presets:
        documented = DOCUMENTED_PRESETS[p.name]
        assert p.fp8 == (documented is not None), p.name
        if documented:
            assert (p.format, p.grad_format) == documented, p.name


def _fp8_opt_presets(fp8_opt):
    """The presets fp8-opt knows, from the tool itself: its diagnostic for
    an unknown preset lists them."""
    rc, _, err = fp8_opt('module attributes {fp8.policy = #fp8.policy<"no-such-preset">} {}')
    assert rc != 0
    m = re.search(r'unknown policy preset "no-such-preset" \(known: ([^)]*)\)', err)
    assert m, err
    return m.group(1).split(", ")


def test_preset_lists_follow_the_compiler(fp8_opt):
    """Every list of presets the package and the examples keep is the
    compiler's: bf16 and any preset added later appear in each."""
    known = _fp8_opt_presets(fp8_opt)
    assert set(DOCUMENTED_PRESETS) <= set(known)
    assert list(fp8_mlir.POLICIES) == known
    assert LM_POLICIES == ("f32",) + tuple(known)
    runs = load_example("train_lm").RUN_SPECS
    for preset in known:
        assert runs[preset] == (preset, {}), preset


def test_default_policy_is_fp8_pipelines(fp8_opt):
    """DEFAULT_POLICY is the documented default (docs/policies.md) and what
    fp8-opt's fp8-pipeline applies without a policy option; every default
    of the package is it."""
    assert fp8_mlir.DEFAULT_POLICY == "deepseek-v3"
    text = models.mlp_training_step(128, [128, 128])

    def pipeline(options):
        rc, out, err = fp8_opt(text, f"--pass-pipeline=builtin.module(fp8-pipeline{options})")
        assert rc == 0, err
        return out

    default = pipeline("")
    assert default == pipeline(f"{{policy={fp8_mlir.DEFAULT_POLICY}}}")
    assert default != pipeline("{policy=hybrid}")
    for fn, name in ((fp8_mlir.compile, "policy"), (LanguageModel.__init__, "policy"),
                     (saved_activations, "policy")):
        assert inspect.signature(fn).parameters[name].default == fp8_mlir.DEFAULT_POLICY, fn
