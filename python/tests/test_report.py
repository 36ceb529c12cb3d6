"""fp8_mlir.Report: fp8-report's C++ struct bound as it is (collected
in-process by compile() and run_pipeline(report=True)), its fields against
values derived by hand, and its mapping interface against the JSON document
fp8-report{format=json} prints."""

import json
import os
import tempfile

import pytest

import fp8_mlir
from fp8_mlir import _fp8_mlir as native
from fp8_mlir import models

from conftest import require_passes

# A two-layer MLP's training step, X [256, 512] -> 1024 -> 256 (ReLU
# between): Y0 = X W0^T (W0 [1024, 512]), Y1 = H W1^T (W1 [256, 1024]); the
# first layer's input needs no gradient, so it has no dgrad.
TOKENS, SIZES = 256, [512, 1024, 256]


@pytest.fixture(scope="module")
def step():
    return fp8_mlir.compile(models.mlp_training_step(TOKENS, SIZES), "deepseek-v3", lower=False)


def _rows(report, gemm):
    return [r for r in report.ops if r.matmul and r.gemm == gemm]


@require_passes("fp8-pipeline")
def test_fields_derived_by_hand(step):
    report = step.report
    assert isinstance(report, fp8_mlir.Report)
    assert report.policy == "deepseek-v3" and report.chip == "h200"
    info = report.policy_info
    # DeepSeek-V3's recipe: E4M3 with 1x128 activation tiles and 128x128
    # weight blocks, f32 scales.
    assert (info.format, info.activation_block, info.weight_block, info.scale_type) == (
        "f8E4M3FN", "1x128", "128x128", "f32")

    # fprop GEMMs, 2*M*N*K: 2*256*1024*512 and 2*256*256*1024.
    fprop = _rows(report, "fprop")
    assert [(r.m, r.n, r.k) for r in fprop] == [(256, 1024, 512), (256, 256, 1024)]
    assert [r.flops for r in fprop] == [268435456, 134217728]
    assert all(r.precision == "fp8" and r.role == "linear" and r.count == 1 for r in fprop)
    # W0 in f32 is 1024*512*4 B; as FP8 1024*512 codes + 8*4 f32 scales.
    assert (fprop[0].weight_bytes_before, fprop[0].weight_bytes_after) == (2097152, 524288 + 32 * 4)
    kernel = fprop[0].kernel_config
    # Two tile rows (M = 256) in one cluster of 2 (B by multicast) or two
    # single CTAs: what the kernel's configuration says.
    assert (kernel.m, kernel.n, kernel.k) == (256, 1024, 512)
    assert kernel.cluster == kernel.config.cluster and kernel.cluster in (1, 2)
    assert (kernel.config.m, kernel.config.block_n) == (256, kernel.block_n) and "config" not in kernel
    assert len(_rows(report, "dgrad")) == 1 and len(_rows(report, "wgrad")) == 2

    totals = report.totals
    # Every GEMM in FP8: 2 x 402653184 (fprop, wgrad) + 134217728 (dgrad).
    assert totals.matmul_flops == totals.fp8_matmul_flops == 939524096
    assert totals.fp8_matmul_flop_share == 1.0 and totals.fp8_share_percent == 100.0
    assert totals.tokens == 0 and totals.matmul_flops_per_token == 0
    # Both weights counted once: (524288 + 262144) f32; FP8 codes + 48 scales.
    assert (totals.weight_bytes_before, totals.weight_bytes_after) == (3145728, 786432 + 48 * 4)

    training = report.training
    gemms = training.gemms
    assert (gemms.fprop.count, gemms.fprop.fp8_flops, gemms.fprop.high_flops) == (2, 402653184, 0)
    assert (gemms.dgrad.count, gemms.dgrad.fp8_flops) == (1, 2 * 256 * 1024 * 256)
    assert (gemms.wgrad.count, gemms.wgrad.fp8_flops) == (2, 402653184)
    # The wgrads' X: X [256, 512] and H [256, 1024] in f32; as FP8 codes +
    # one f32 scale per 1x128 tile.
    assert training.saved_activation_bytes_before == (256 * 512 + 256 * 1024) * 4
    assert training.saved_activation_bytes_after == 393216 + 393216 // 128 * 4
    # DeepSeek-V3 §3.3.3: f32 master weights and gradients, bf16 moments (2).
    assert training.weight_elements == 786432
    assert (training.master_weights, training.weight_gradients, training.optimizer_moments) == (
        "f32", "f32", "bf16")
    assert (training.master_weight_bytes, training.weight_gradient_bytes,
            training.optimizer_moment_bytes) == (786432 * 4, 786432 * 4, 786432 * 2 * 2)
    assert training.cached_activations.tensors == 0

    ops = [o.op for o in report.fp8_ops]
    assert ops.count("fp8.scaled_matmul") == 5
    matmul = next(o for o in report.fp8_ops if o.op == "fp8.scaled_matmul")
    assert matmul.a.scaled and matmul.promote_interval == 128 and matmul.input is None


def _pass_json(fp8_ir, options=""):
    """The JSON of the fp8-report pass itself, written to a file."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "report.json")
        fp8_mlir.run_pipeline(fp8_ir, f"fp8-report{{format=json output={path} {options}}}")
        with open(path, encoding="utf-8") as f:
            return json.load(f)


def _same_keys(bound, document, where="report"):
    """The bound object's keys are the document's, at every level."""
    if isinstance(document, dict):
        assert set(bound.keys()) == set(document) and len(bound) == len(document), where
        for key, value in document.items():
            assert key in bound, f"{where}[{key!r}]"
            _same_keys(bound[key], value, f"{where}[{key!r}]")
    elif isinstance(document, list):
        assert len(bound) == len(document), where
        for i, (b, d) in enumerate(zip(bound, document)):
            _same_keys(b, d, f"{where}[{i}]")
    else:
        # (JSON prints a whole double without a fraction: 1 for 1.0.)
        assert bound == document and isinstance(bound, bool) == isinstance(document, bool), where


@require_passes("fp8-pipeline", "fp8-report")
def test_mapping_is_the_json_document(step):
    document = _pass_json(step.fp8_ir)
    _same_keys(step.report, document)
    assert step.report.to_dict() == document and step.report == document
    assert json.loads(step.report.json()) == document
    assert step.report_text == step.report.table() and "fp8-report: policy deepseek-v3" in step.report_text


@require_passes("fp8-pipeline", "fp8-report")
def test_mapping_of_quantize_ops(step):
    """The keys of an FP8 op depend on its kind, as in the JSON."""
    document = _pass_json(step.fp8_ir)["fp8_ops"]
    kinds = {o.op for o in step.report.fp8_ops}
    assert {"fp8.quantize", "fp8.requantize", "fp8.scaled_matmul"} <= kinds
    for bound, op in zip(step.report.fp8_ops, document):
        assert set(bound) == set(op)
        assert ("permutation" in bound) == (bound.op == "fp8.requantize")
        assert ("a" in bound) == (bound.op == "fp8.scaled_matmul")
        assert ("block" in bound["result"]) == bound.result.scaled


@require_passes("fp8-pipeline", "fp8-report")
@pytest.mark.parametrize("graph, cache", [
    (lambda: models.moe_block(models.ModelConfig.small(), 1), False),
    (lambda: models.mlp_training_step(TOKENS, SIZES, split=True), True),
])
def test_in_process_report_is_the_pipeline_pass_report(graph, cache):
    """compile() collects on the pipeline's result with a fresh role
    analysis; the pass at the end of the same pass pipeline prints the same
    document, byte for byte."""
    text = graph()
    options = "policy=deepseek-v3 report=false" + (" cache-activations=true" if cache else "")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "report.json")
        fp8_mlir.run_pipeline(text, f"fp8-pipeline{{{options}}},fp8-report{{format=json output={path}}}")
        with open(path, encoding="utf-8") as f:
            printed = f.read()
    report = fp8_mlir.compile(text, cache_activations=cache, lower=False).report
    assert report.json() == printed
    assert (report.training is not None) == cache


HUGE_AND_DYNAMIC = """
func.func @huge(%x: tensor<4611686018427387904x4611686018427387904xf32>, %w: tensor<4611686018427387904x4096xf32>) -> tensor<4611686018427387904x4096xf32> {
  %e = tensor.empty() : tensor<4611686018427387904x4096xf32>
  %y = linalg.matmul ins(%x, %w : tensor<4611686018427387904x4611686018427387904xf32>, tensor<4611686018427387904x4096xf32>) outs(%e : tensor<4611686018427387904x4096xf32>) -> tensor<4611686018427387904x4096xf32>
  return %y : tensor<4611686018427387904x4096xf32>
}
func.func @tokens(%x: tensor<?x7168xf32>, %w: tensor<7168x2112xf32>) -> tensor<?x2112xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x7168xf32>
  %e = tensor.empty(%m) : tensor<?x2112xf32>
  %y = linalg.matmul ins(%x, %w : tensor<?x7168xf32>, tensor<7168x2112xf32>) outs(%e : tensor<?x2112xf32>) -> tensor<?x2112xf32>
  return %y : tensor<?x2112xf32>
}
"""


def _report(text, **options):
    result = native.run_pipeline(text, "fp8-assign-precision", report=True, **options)
    assert result.ok, result.rendered
    return result.report


@require_passes("fp8-assign-precision")
def test_counts_past_int64_and_dynamic_sizes():
    huge, tokens = _report(HUGE_AND_DYNAMIC).ops
    # 2 * 2^62 * 2^12 * 2^62 = 2^137: past int64, the nearest float.
    assert isinstance(huge.flops, float) and huge.flops == float(2**137)
    assert (huge.m, huge.n, huge.k) == (2**62, 4096, 2**62)
    # ?x2112x7168 per token: 2 * 2112 * 7168; M None; no kernel without tokens.
    assert (tokens.m, tokens.n, tokens.k, tokens.shape) == (None, 2112, 7168, "?x2112x7168")
    assert (tokens.flops, tokens.flops_per_token) == (0, 2 * 2112 * 7168)
    assert tokens.kernel_config is None and tokens["kernel_config"] is None
    # At tokens = 3e11: 9083289600000000000, exact just below 2^63.
    at = _report(HUGE_AND_DYNAMIC, report_tokens=300000000000).ops[1]
    assert at.flops == 9083289600000000000 and isinstance(at.flops, int) and at.flops_per_token == 0


@require_passes("fp8-pipeline")
def test_mapping_errors_and_read_only(step):
    report = step.report
    with pytest.raises(KeyError, match=r"'flop' is not a key of fp8_mlir.ReportTotals \(its keys: matmul_flops,"):
        report["totals"]["flop"]
    with pytest.raises(KeyError, match="is not a key of fp8_mlir.Report"):
        report[0]
    # Attributes that are not JSON keys are not keys.
    assert "policy_info" not in report and report.get("policy_info", "none") == "none"
    with pytest.raises(KeyError):
        report.ops[0]["m"]
    assert report.get("training") is report.training or report.get("training") == report.training
    with pytest.raises(AttributeError):
        report.chip = "h100-sxm"
    assert report != {"policy": "deepseek-v3"}


def test_report_options_are_checked():
    result = native.run_pipeline("module {}", "", report=True, report_chip="b200")
    assert not result.ok and result.stage == "report"
    assert "unknown chip 'b200'" in result.diagnostics[0].message
    result = native.run_pipeline("module {}", "", report=True, report_tokens=-1)
    assert not result.ok and "tokens=-1 is negative" in result.diagnostics[0].message
    assert native.run_pipeline("module {}", "").report is None
