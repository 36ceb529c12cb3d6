"""compile(): the graph pipeline, the report and the CPU / GPU lowerings, on
generated blocks and on the real exported graphs."""

import os
import re
import subprocess
import sys
import tempfile

import pytest

import fp8_mlir
from fp8_mlir import MLIRError, models
from fp8_mlir.models import ModelConfig

from conftest import models_dir, require_passes

SMALL = ModelConfig.small()
GRAPH = ("fp8-pipeline", "fp8-report")


def test_compile_rejects_bad_overrides():
    with pytest.raises(ValueError, match="PATTERN"):
        fp8_mlir.compile("module {}", overrides=["lm_head"])
    with pytest.raises(ValueError, match="characters"):
        fp8_mlir.compile("module {}", overrides=["a b:linear"])


@require_passes(*GRAPH, "fp8-cpu-pipeline")
def test_compile_moe_block_cpu():
    res = fp8_mlir.compile(models.moe_block(SMALL, 1))
    assert res.policy == "deepseek-v3" and res.target == "cpu" and res.ptx is None
    report = res.report
    assert report["policy"] == "deepseek-v3"
    ops = report["ops"]
    gating = [o for o in ops if o["role"] == "gating" and o["matmul"]]
    assert len(gating) == 1 and "mlp.gate" in gating[0]["location"] and gating[0]["precision"] != "fp8"
    attention = [o for o in ops if o["role"] == "attention" and o["matmul"]]
    assert attention and all(o["precision"] != "fp8" for o in attention)
    fp8_mm = [o for o in ops if o["matmul"] and o["precision"] == "fp8"]
    # q, k, v, o and the shared expert's gate, up, down at least.
    assert len(fp8_mm) >= 7
    assert res.fp8_ir.count("fp8.scaled_matmul") >= 7
    assert 0 < report["totals"]["fp8_matmul_flop_share"] <= 1
    assert "fp8-report" in res.report_text
    assert "llvm.func" in res.ir
    assert not re.search(r"= fp8\.\w+", res.ir)  # every fp8 op lowered


@require_passes(*GRAPH, "fp8-cpu-pipeline")
def test_compile_moe_routed_experts_are_one_gemm_per_projection():
    """The routed experts of an MoE layer are one fp8.grouped_scaled_matmul
    per projection, lowered on the CPU to one GEMM body in a loop over the
    experts, never one per expert: the compiled code of a 32-expert block is
    the size of an 8-expert one (it was about 4x, with 3 GEMMs per expert),
    and the report counts every expert's FLOPs (2 * capacity * N * K per
    expert) in one row per projection."""
    sizes = {}
    for experts in (8, 32):
        cfg = ModelConfig.small(num_experts=experts)
        res = fp8_mlir.compile(models.moe_block(cfg, 1))
        sizes[experts] = len(res.ir.splitlines())
        assert res.fp8_ir.count("= fp8.scaled_matmul") == 7
        assert res.fp8_ir.count("= fp8.grouped_scaled_matmul masked") == 3
        routed = [o for o in res.report["ops"] if ".mlp.experts." in o["location"] and o["matmul"]]
        assert sorted(o["location"].rsplit(".", 1)[1] for o in routed) == ["down_proj", "gate_proj", "up_proj"]
        h, inter, c = cfg.hidden, cfg.moe_intermediate, cfg.capacity
        for o in routed:
            assert o["op"] == "fp8.grouped_scaled_matmul" and o["precision"] == "fp8"
            assert o["count"] == 1 and o["groups"] == experts
            assert o["flops"] == experts * 2 * c * h * inter
    assert abs(sizes[32] - sizes[8]) < 0.02 * sizes[8], sizes


@require_passes(*GRAPH, "fp8-gpu-pipeline")
def test_compile_moe_block_sm90a_one_kernel_per_shape():
    """On the GPU each routed projection (an fp8.grouped_scaled_matmul in the
    masked layout) is ONE grouped GEMM kernel for all experts, named for
    [experts, capacity, N, K] (gate and up share the shape, hence the
    kernel), and no per-expert 2-D GEMM kernel exists; the stacked
    activations are quantized by one GPU quantize kernel
    ([experts * capacity, K]), so no quantize is left on the host."""
    res = fp8_mlir.compile(models.moe_block(SMALL, 1), target="sm_90a")
    # config=auto (the default) may add the configuration suffix _t<BM>x<BN>s<S>[c<C>].
    entries = {re.sub(r"_t\d+x\d+s\d+(c\d+)?(g\d+)?$", "", e) for e in re.findall(r"\.entry\s+(fp8_\w+)", res.ptx)}
    c, h, inter, e = SMALL.capacity, SMALL.hidden, SMALL.moe_intermediate, SMALL.num_experts
    assert f"fp8_grouped_matmul_masked_{e}x{c}x{inter}x{h}_e4m3_e4m3_f32" in entries, entries
    assert f"fp8_grouped_matmul_masked_{e}x{c}x{h}x{inter}_e4m3_e4m3_f32" in entries, entries
    assert fp8_mlir.gemm_kernel_name(c, inter, h, "e4m3", "e4m3", "f32") not in entries
    assert fp8_mlir.gemm_kernel_name(c, h, inter, "e4m3", "e4m3", "f32") not in entries
    assert fp8_mlir.quantize_kernel_name(e * c, h, 1) in entries
    assert fp8_mlir.quantize_kernel_name(e * c, inter, 1) in entries
    assert not [d for d in res.diagnostics if "stays on the host" in str(d)]


@require_passes(*GRAPH, "fp8-gpu-pipeline")
def test_compile_llama_block_sm90a_ptx():
    res = fp8_mlir.compile(models.llama_block(SMALL, 1), target="sm_90a")
    assert res.ptx is not None
    assert ".target sm_90a" in res.ptx
    assert "wgmma.mma_async" in res.ptx and ".e4m3.e4m3" in res.ptx
    assert "gpu.binary" in res.ir
    # The PTX entries are the kernels gemm_kernel_name() names for the
    # GEMMs the host launches (fp8-launch-kernels: one launcher call per
    # scaled_matmul, on the operands' memrefs): one per distinct shape.
    # config=auto (the default) may add the configuration suffix _t<BM>x<BN>s<S>.
    entries = {re.sub(r"_t\d+x\d+s\d+(c\d+)?(g\d+)?$", "", e)
               for e in re.findall(r"\.entry\s+(fp8_scaled_matmul_\w+)", res.ptx)}
    gemms = re.findall(r"call @fp8_launch_fp8_scaled_matmul_\w+\(.*\) : \(memref<(\d+)x(\d+)xf8E4M3FN>, "
                       r"memref<(\d+)x\d+xf8E4M3FN>, .*, memref<\d+x\d+x(bf16|f32)>\) -> \(\)", res.ir)
    assert gemms
    assert entries == {fp8_mlir.gemm_kernel_name(int(m), int(n), int(k), "e4m3", "e4m3", out)
                       for (m, k, n, out) in gemms}


@pytest.mark.ptxas
@require_passes(*GRAPH, "fp8-gpu-pipeline")
def test_compile_llama_block_sm90a_ptx_assembles():
    # ptxas (CUDA toolkit, no GPU needed) assembles the kernels for sm_90a.
    res = fp8_mlir.compile(models.llama_block(SMALL, 1), target="sm_90a")
    try:
        from fp8_mlir import _build_config

        ptxas = getattr(_build_config, "PTXAS", "")
    except ImportError:  # pragma: no cover
        ptxas = ""
    if not ptxas or not os.path.exists(ptxas):
        pytest.skip("ptxas not found: the PTX was not assembled")
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "kernels.ptx")
        with open(src, "w") as f:
            f.write(res.ptx)
        # Through the suite's guard (scripts/ptxas_guard.py): no warning,
        # spill or wgmma serialisation (C7515/C7517/C7519 info lines).
        guard = os.path.join(os.path.dirname(__file__), "..", "..", "scripts", "ptxas_guard.py")
        if not os.path.exists(guard):
            pytest.skip("scripts/ptxas_guard.py not found (not a source tree)")
        proc = subprocess.run([sys.executable, guard, ptxas, "-arch=sm_90a", "-v", src, "-o",
                               os.path.join(tmp, "k.cubin")], capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr


@require_passes(*GRAPH, "fp8-cpu-pipeline")
def test_compile_overrides_win():
    res = fp8_mlir.compile(models.llama_block(SMALL, 1), overrides=["*.self_attn.q_proj:bf16"])
    q = [o for o in res.report["ops"] if o["location"].find("q_proj") >= 0 and o["matmul"]]
    assert q and all(o["precision"] == "bf16" for o in q)
    k = [o for o in res.report["ops"] if o["location"].find("k_proj") >= 0 and o["matmul"]]
    assert k and all(o["precision"] == "fp8" for o in k)


def _mlp(k1=256, k2=128):
    """x [16, k1] -> linear to k2 -> linear to 64, f32."""
    def linear(name, x, w, m, k, n):
        return (f"    %e{name} = tensor.empty() : tensor<{m}x{n}xf32>\n"
                f"    %z{name} = linalg.fill ins(%c0 : f32) outs(%e{name} : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>\n"
                f"    %{name} = linalg.matmul ins(%{x}, %{w} : tensor<{m}x{k}xf32>, tensor<{k}x{n}xf32>) "
                f"outs(%z{name} : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>\n")
    return (f"func.func @f(%x: tensor<16x{k1}xf32>, %w1: tensor<{k1}x{k2}xf32>, %w2: tensor<{k2}x64xf32>) "
            f"-> tensor<16x64xf32> {{\n    %c0 = arith.constant 0.0 : f32\n"
            + linear("h", "x", "w1", 16, k1, k2) + linear("y", "h", "w2", 16, k2, 64)
            + "    return %y : tensor<16x64xf32>\n}\n")


@require_passes(*GRAPH)
def test_compile_without_lowering():
    # lower=False: the FP8 graph and its report, as compile() makes them,
    # for a caller that lowers with its own options; `ir` is that graph.
    res = fp8_mlir.compile(_mlp(), lower=False)
    assert res.ir == res.fp8_ir and res.ptx is None
    assert res.fp8_ir.count("= fp8.scaled_matmul") == 2 and "llvm." not in res.ir
    assert [o["precision"] for o in res.report["ops"] if o["matmul"]] == ["fp8", "fp8"]
    if fp8_mlir.has_pass("fp8-cpu-pipeline"):
        full = fp8_mlir.compile(_mlp())
        assert full.fp8_ir == res.fp8_ir and full.report == res.report and "llvm.func" in full.ir
    for flag in ("lower", "cache_activations"):
        with pytest.raises(TypeError, match=flag):
            fp8_mlir.compile(_mlp(), **{flag: "no"})


@require_passes(*GRAPH)
def test_compile_bf16_baseline():
    # The bf16 preset, read from the compiler: both linears with BF16
    # operands and FP32 accumulation, nothing quantized.
    assert "bf16" in fp8_mlir.POLICIES and "bf16" not in fp8_mlir.FP8_POLICIES
    assert set(fp8_mlir.FP8_POLICIES) == {"deepseek-v3", "hybrid", "per-tensor", "rowwise", "mxfp8"}
    res = fp8_mlir.compile(_mlp(), "bf16", lower=False)
    assert "fp8.quantize" not in res.fp8_ir and "fp8.scaled_matmul" not in res.fp8_ir
    assert [o["precision"] for o in res.report["ops"] if o["matmul"]] == ["bf16", "bf16"]
    assert res.fp8_ir.count("tensor<16x256xf32> to tensor<16x256xbf16>") == 1


@require_passes(*GRAPH, "fp8-cpu-pipeline")
def test_compile_errors_carry_diagnostics():
    with pytest.raises(MLIRError) as info:
        fp8_mlir.compile("func.func @f( {", source_name="broken.mlir")
    assert info.value.errors[0].location.startswith("broken.mlir:1:")


@pytest.mark.models
@require_passes(*GRAPH, "fp8-cpu-pipeline")
def test_compile_real_mlp_graph():
    path = os.path.join(models_dir(), "mlp_fp32_3x1024.mlir")
    if not os.path.exists(path):
        pytest.skip(f"real model graphs not found ({path})")
    with open(path) as f:
        res = fp8_mlir.compile(f.read(), source_name="mlp_fp32_3x1024.mlir")
    mm = [o for o in res.report["ops"] if o["matmul"]]
    assert len(mm) == 3 and all(o["precision"] == "fp8" for o in mm)
    assert res.report["totals"]["fp8_matmul_flop_share"] == pytest.approx(1.0)


def test_kernel_names():
    # Hand-written expectations of the documented naming scheme.
    assert fp8_mlir.gemm_kernel_name(128, 2112, 7168) == "fp8_scaled_matmul_128x2112x7168_e4m3_e4m3_bf16"
    assert fp8_mlir.gemm_kernel_name(64, 256, 384, "e5m2", "e4m3", "f32") == \
        "fp8_scaled_matmul_64x256x384_e5m2_e4m3_f32"
    assert fp8_mlir.quantize_kernel_name(128, 7168, 1, "bf16") == "fp8_quantize_128x7168_1x128_bf16_e4m3"
    # eps = 0: its f32 bits (0) in hex; pow2 scales.
    assert fp8_mlir.quantize_kernel_name(256, 256, 128, "f32", "e5m2", True, 0.0) == \
        "fp8_quantize_256x256_128x128_f32_e5m2_pow2_eps0"
    with pytest.raises(ValueError, match="fp16"):
        fp8_mlir.gemm_kernel_name(1, 2, 3, "fp16")
