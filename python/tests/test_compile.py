"""compile(): the graph pipeline, the report and the CPU / GPU lowerings, on
generated blocks and on the real exported graphs."""

import math
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
    masked layout) is ONE grouped GEMM kernel for all experts, of
    [experts, capacity, N, K] (gate and up share the shape, hence the
    kernel), and no per-expert 2-D GEMM kernel exists; the stacked
    activations are quantized by one GPU quantize kernel
    ([experts * capacity, K]), so no quantize is left on the host. The
    kernels are read from their attributes (res.kernels), never from names."""
    res = fp8_mlir.compile(models.moe_block(SMALL, 1), target="sm_90a")
    c, h, inter, e = SMALL.capacity, SMALL.hidden, SMALL.moe_intermediate, SMALL.num_experts
    # Every PTX entry is one of the listed kernels (their symbols as given).
    assert set(re.findall(r"\.entry\s+(\w+)", res.ptx)) == {k.symbol for k in res.kernels}
    gemms = {(k.layout, k.groups, k.m, k.n, k.k, k.a, k.b, k.d) for k in res.kernels if k.kind == "gemm"}
    e4m3 = "f8E4M3FN"
    assert ("masked", e, c, inter, h, e4m3, e4m3, "f32") in gemms, gemms
    assert ("masked", e, c, h, inter, e4m3, e4m3, "f32") in gemms, gemms
    # No 2-D kernel of one expert's GEMM.
    assert not {g for g in gemms if g[0] is None and g[2:5] in ((c, inter, h), (c, h, inter))}, gemms
    quantizes = {(k.rows, k.cols, k.block_rows, k.input, k.fp8) for k in res.kernels if k.kind == "quantize"}
    assert (e * c, h, 1, "f32", e4m3) in quantizes, quantizes
    assert (e * c, inter, 1, "f32", e4m3) in quantizes, quantizes
    assert not [d for d in res.diagnostics if "stays on the host" in str(d)]


@require_passes(*GRAPH, "fp8-gpu-pipeline")
def test_compile_llama_block_sm90a_ptx():
    res = fp8_mlir.compile(models.llama_block(SMALL, 1), target="sm_90a")
    assert res.ptx is not None
    assert ".target sm_90a" in res.ptx
    assert "wgmma.mma_async" in res.ptx and ".e4m3.e4m3" in res.ptx
    assert "gpu.binary" in res.ir
    # The PTX entries are the kernels res.kernels lists; its GEMM kernels
    # (read from their #fp8.gemm_kernel) are those of the GEMMs the host
    # launches (fp8-launch-kernels: one launcher call per scaled_matmul, on
    # the operands' memrefs): one per distinct shape.
    assert set(re.findall(r"\.entry\s+(\w+)", res.ptx)) == {k.symbol for k in res.kernels}
    # The A scales reach each GEMM in its [KB, roundUp(M, 4)] layout through
    # the transpose kernel of f32 elements (#fp8.transpose_kernel).
    assert ("fp8_transpose_b32", 32, 1) in {
        (k.symbol, k.bits, k.repeat_rows) for k in res.kernels if k.kind == "transpose"}
    gemms = re.findall(r"call @fp8_launch_\w+\(.*\) : \(memref<(\d+)x(\d+)xf8E4M3FN>, "
                       r"memref<(\d+)x\d+xf8E4M3FN>, .*, memref<\d+x\d+x(bf16|f32)>\) -> \(\)", res.ir)
    assert gemms
    kernels = [k for k in res.kernels if k.kind == "gemm" and k.a != "bf16"]
    assert all((k.a, k.b, k.layout, k.c) == ("f8E4M3FN", "f8E4M3FN", None, None) for k in kernels), kernels
    assert {(k.m, k.n, k.k, k.d) for k in kernels} == {(int(m), int(n), int(k), out) for (m, k, n, out) in gemms}
    # Attention's bf16 batch contractions (QK^T, PV) are the BF16 kernel's
    # batch form (layout masked, one group per batch), launched on their
    # [G, M, K] x [G, K, N] memrefs, or on a transposed operand's source:
    # A [G, K, M] (a_major "mn"), B [G, N, K] (b_major "k": QK^T reads K
    # in place of K^T).
    bmms = re.findall(r"call @fp8_launch_(\w+)\(.*\) : \(memref<(\d+)x(\d+)x(\d+)xbf16>, "
                      r"memref<\d+x(\d+)x(\d+)xbf16>, .*\) -> \(\)", res.ir)
    assert bmms
    batch = [k for k in res.kernels if k.kind == "gemm" and k.a == "bf16"]
    by_symbol = {k.symbol: k for k in batch}

    def problem(symbol, g, a1, a2, b1, b2):
        k = by_symbol[symbol]
        m, depth = (a2, a1) if k.a_major == "mn" else (a1, a2)
        n = b1 if k.b_major == "k" else b2
        return (int(g), int(m), int(n), int(depth))

    assert any(k.b_major == "k" for k in batch), batch
    # Their inits are zero fills: no C, the accumulators start at +0.0
    # (acc_init, the fill folded into the kernel).
    assert all((k.b, k.layout, k.d, k.c) == ("bf16", "masked", "f32", None) for k in batch), batch
    assert all(k.acc_init == 0.0 and math.copysign(1.0, k.acc_init) == 1.0 for k in batch), batch
    assert {(k.groups, k.m, k.n, k.k) for k in batch} == {problem(*call) for call in bmms}


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


_GEMM_GRAPH = """
func.func @gemm(%a: !fp8.scaled<{m}x256xf8E5M2, block = [1, 128], scale = f32>,
                %b: !fp8.scaled<128x256xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<{m}x128xf32> {{
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<{m}x256xf8E5M2, block = [1, 128], scale = f32>,
       !fp8.scaled<128x256xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<{m}x128xf32>
  return %d : tensor<{m}x128xf32>
}}
"""

_QUANTIZE_GRAPH = """
func.func @quantize(%x: tensor<256x384xf32>) -> !fp8.scaled<256x384xf8E5M2, block = [128, 128], scale = f32> {
  %q = fp8.quantize %x {eps = 0.0 : f32, scale_mode = #fp8.scale_mode<pow2>}
       : tensor<256x384xf32> -> !fp8.scaled<256x384xf8E5M2, block = [128, 128], scale = f32>
  return %q : !fp8.scaled<256x384xf8E5M2, block = [128, 128], scale = f32>
}
"""

_DYNAMIC_K_GRAPH = """
func.func @wgrad(%a: !fp8.scaled<300x?xf8E5M2, block = [1, 128], scale = f32>,
                 %b: !fp8.scaled<400x?xf8E4M3FN, block = [1, 128], scale = f32>) -> tensor<300x400xf32> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<300x?xf8E5M2, block = [1, 128], scale = f32>,
       !fp8.scaled<400x?xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<300x400xf32>
  return %d : tensor<300x400xf32>
}
"""

_ROW_MX_GRAPH = """
func.func @row(%x: tensor<200x400xf32>) -> !fp8.scaled<200x400xf8E4M3FN, block = [1, 400], scale = f32> {
  %q = fp8.quantize %x : tensor<200x400xf32> -> !fp8.scaled<200x400xf8E4M3FN, block = [1, 400], scale = f32>
  return %q : !fp8.scaled<200x400xf8E4M3FN, block = [1, 400], scale = f32>
}
func.func @mx(%x: tensor<200x400xf32>) -> !fp8.scaled<200x400xf8E4M3FN, block = [1, 32], scale = f8E8M0FNU> {
  %q = fp8.quantize %x {scale_mode = #fp8.scale_mode<pow2>}
       : tensor<200x400xf32> -> !fp8.scaled<200x400xf8E4M3FN, block = [1, 32], scale = f8E8M0FNU>
  return %q : !fp8.scaled<200x400xf8E4M3FN, block = [1, 32], scale = f8E8M0FNU>
}
func.func @tensor(%x: tensor<200x400xf32>) -> !fp8.scaled<200x400xf8E4M3FN, block = [200, 400], scale = f32> {
  %q = fp8.quantize %x : tensor<200x400xf32> -> !fp8.scaled<200x400xf8E4M3FN, block = [200, 400], scale = f32>
  return %q : !fp8.scaled<200x400xf8E4M3FN, block = [200, 400], scale = f32>
}
func.func @columns(%x: tensor<300x200xf32>) -> !fp8.scaled<300x200xf8E4M3FN, block = [128, 1], scale = f32> {
  %q = fp8.quantize %x : tensor<300x200xf32> -> !fp8.scaled<300x200xf8E4M3FN, block = [128, 1], scale = f32>
  return %q : !fp8.scaled<300x200xf8E4M3FN, block = [128, 1], scale = f32>
}
"""

_FUSED_GRAPH = """
func.func @fused(%a: !fp8.scaled<130x256xf8E4M3FN, block = [1, 128], scale = f32>,
                 %b: !fp8.scaled<200x256xf8E4M3FN, block = [128, 128], scale = f32>)
    -> !fp8.scaled<130x200xf8E5M2, block = [1, 128], scale = f32> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<130x256xf8E4M3FN, block = [1, 128], scale = f32>,
       !fp8.scaled<200x256xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<130x200xbf16>
  %q = fp8.quantize %d {eps = 1.0e-3 : f32, scale_mode = #fp8.scale_mode<pow2>}
       : tensor<130x200xbf16> -> !fp8.scaled<130x200xf8E5M2, block = [1, 128], scale = f32>
  return %q : !fp8.scaled<130x200xf8E5M2, block = [1, 128], scale = f32>
}
"""

_E8M0_GRAPH = """
func.func @e8m0(%a: !fp8.scaled<200x256xf8E4M3FN, block = [1, 128], scale = f8E8M0FNU>,
                %b: !fp8.scaled<300x256xf8E4M3FN, block = [128, 128], scale = f8E8M0FNU>) -> tensor<200x300xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<200x256xf8E4M3FN, block = [1, 128], scale = f8E8M0FNU>,
       !fp8.scaled<300x256xf8E4M3FN, block = [128, 128], scale = f8E8M0FNU> -> tensor<200x300xbf16>
  return %d : tensor<200x300xbf16>
}
"""


_BATCH_GRAPH = """
func.func @bmm(%a: tensor<{g}x100x40xbf16>, %b: tensor<{g}x40x72xbf16>,
               %c: tensor<{g}x100x72xf32>) -> tensor<{g}x100x72xf32> {{
  %y = linalg.batch_matmul ins(%a, %b : tensor<{g}x100x40xbf16>, tensor<{g}x40x72xbf16>)
       outs(%c : tensor<{g}x100x72xf32>) -> tensor<{g}x100x72xf32>
  return %y : tensor<{g}x100x72xf32>
}}
"""


@require_passes("fp8-lower-to-nvvm")
def test_gpu_kernels_batch_groups():
    # The bf16 batch kernel's batch count: G, or None for the kernel of a
    # run-time G (groups = ?), which has no modelled time (config=auto
    # prices known shapes only: the shape's default tile, no name suffix).
    static, = fp8_mlir.gpu_kernels(fp8_mlir.run_pipeline(_BATCH_GRAPH.format(g=3), "fp8-lower-to-nvvm"))
    assert (static.layout, static.groups, static.m) == ("masked", 3, 100)
    assert static.symbol.startswith("fp8_batch_matmul_3x100x72x40_") and static.modelled_us is not None
    dyn, = fp8_mlir.gpu_kernels(fp8_mlir.run_pipeline(_BATCH_GRAPH.format(g="?"), "fp8-lower-to-nvvm"))
    assert (dyn.layout, dyn.groups, dyn.m, dyn.modelled_us) == ("masked", None, 100, None)
    assert dyn.symbol == "fp8_batch_matmul_dynx100x72x40_bf16_bf16_f32_accf32"


_CONTEXT_GRAPH = """
func.func @context(%p: tensor<6x200x128xbf16>, %v2: tensor<256x192xbf16>) -> tensor<2x200x3x64xf32> {
  %zero = arith.constant 0.0 : f32
  %v4 = tensor.expand_shape %v2 [[0, 1], [2, 3]] output_shape [2, 128, 3, 64]
        : tensor<256x192xbf16> into tensor<2x128x3x64xbf16>
  %ev = tensor.empty() : tensor<2x3x128x64xbf16>
  %vt = linalg.transpose ins(%v4 : tensor<2x128x3x64xbf16>) outs(%ev : tensor<2x3x128x64xbf16>)
        permutation = [0, 2, 1, 3]
  %v = tensor.collapse_shape %vt [[0, 1], [2], [3]] : tensor<2x3x128x64xbf16> into tensor<6x128x64xbf16>
  %e = tensor.empty() : tensor<6x200x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<6x200x64xf32>) -> tensor<6x200x64xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<6x200x128xbf16>, tensor<6x128x64xbf16>)
       outs(%z : tensor<6x200x64xf32>) -> tensor<6x200x64xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [2, 3, 200, 64]
        : tensor<6x200x64xf32> into tensor<2x3x200x64xf32>
  %et = tensor.empty() : tensor<2x200x3x64xf32>
  %ot = linalg.transpose ins(%o4 : tensor<2x3x200x64xf32>) outs(%et : tensor<2x200x3x64xf32>)
        permutation = [0, 2, 1, 3]
  return %ot : tensor<2x200x3x64xf32>
}
"""


@require_passes("fp8-lower-to-nvvm")
def test_gpu_kernels_head_views():
    # Attention's context P V with V read through a head view ([B, S, H, D]
    # source, b_heads = H) and D written through one ([B, S, H, D], d_heads =
    # H): the head counts as the kernel's attribute says, A packed (1).
    k, = fp8_mlir.gpu_kernels(fp8_mlir.run_pipeline(_CONTEXT_GRAPH, "fp8-lower-to-nvvm{config=fixed}"))
    assert (k.a_heads, k.b_heads, k.d_heads) == (1, 3, 3)
    assert (k.groups, k.m, k.n, k.k) == (6, 200, 64, 128)
    assert k.symbol == "fp8_batch_matmul_6x200x64x128_bf16_bf16_f32_init0_bh3_dh3"


@require_passes("fp8-lower-to-nvvm")
def test_gpu_kernels_attributes():
    # The kernels of a lowered module as their attributes say, against the
    # hand-written ops they implement: shapes, element types, blocks.
    ir = fp8_mlir.run_pipeline(_GEMM_GRAPH.format(m=64) + _QUANTIZE_GRAPH, "fp8-lower-to-nvvm{config=fixed}")
    gemm, quantize = sorted(fp8_mlir.gpu_kernels(ir), key=lambda k: k.kind)
    assert isinstance(gemm, fp8_mlir.GemmKernel) and gemm.kind == "gemm"
    assert (gemm.m, gemm.n, gemm.k) == (64, 128, 256)
    assert (gemm.a, gemm.b, gemm.d, gemm.c) == ("f8E5M2", "f8E4M3FN", "f32", None)
    assert (gemm.a_scale, gemm.b_scale, gemm.b_scale_rows, gemm.scale_k) == ("f32", "f32", 128, 128)
    assert (gemm.layout, gemm.groups, gemm.counts, gemm.block_k, gemm.epilogue) == (None, 1, False, 128, "store")
    # A CTA tile of whole wgmma shapes, consumers warpgroups of 64 rows.
    assert gemm.block_m % 64 == 0 and gemm.block_n % 8 == 0 and gemm.stages >= 1
    assert gemm.modelled_us is not None and gemm.modelled_us > 0
    # The cost model's figures, from the kernel's #fp8.kernel_model (not
    # part of its decision): the default chip, a 64x128 output in one tile
    # of the fixed 64x128 configuration (M <= 64): one CTA.
    assert (gemm.chip, gemm.ctas) == ("h200", 1) and gemm.modelled_tflops > 0
    assert "chip" not in gemm.attribute and "#fp8.kernel_model<chip = \"h200\", ctas = 1," in ir
    assert repr(gemm).startswith("GemmKernel(#fp8.gemm_kernel<m = 64, n = 128, k = 256,")
    assert gemm.symbol in ir and gemm.attribute in ir
    # The attribute's GemmKernelConfig, bound as it is: the same tile; a
    # producer warpgroup and `consumers` consumer warpgroups of 128 threads.
    config = gemm.config
    assert (config.m, config.n, config.k, config.scale_k) == (64, 128, 256, 128)
    assert (config.block_m, config.block_n, config.stages) == (gemm.block_m, gemm.block_n, gemm.stages)
    assert config.threads == 128 * (gemm.consumers + 1) and not config.b_scales_per_column
    assert (gemm.q, gemm.q_eps, gemm.q_pow2, config.quantize_epilogue) == (None, None, False, False)
    assert (gemm.waves, config.waves, gemm.tma_store, config.tma_store) == (1, 1, False, False)
    # Two m64 waves per consumer (256 rows on two consumers), and the TMA
    # store, as the options asked: the attribute's fields, not the name's.
    two, = fp8_mlir.gpu_kernels(fp8_mlir.run_pipeline(
        _GEMM_GRAPH.format(m=512), "fp8-lower-to-nvvm{block-m=256 block-n=128 waves=2}"))
    assert (two.block_m, two.consumers, two.waves, two.config.waves, two.tma_store) == (256, 2, 2, 2, False)
    tma, = fp8_mlir.gpu_kernels(fp8_mlir.run_pipeline(_GEMM_GRAPH.format(m=512), "fp8-lower-to-nvvm{store=tma}"))
    assert tma.tma_store and tma.config.tma_store and tma.waves == 1 and "tma_store = true" in tma.attribute
    assert isinstance(quantize, fp8_mlir.QuantizeKernel) and quantize.kind == "quantize"
    assert (quantize.rows, quantize.cols, quantize.block_rows, quantize.block_cols) == (256, 384, 128, 128)
    # Its QuantizeKernelConfig: 2 x 3 blocks of 128x128, each one CTA's 8 warps.
    assert (quantize.config.rows, quantize.config.block_rows, quantize.config.grid_size) == (256, 128, 6)
    assert (quantize.input, quantize.fp8, quantize.scale) == ("f32", "f8E5M2", "f32")
    assert (quantize.scale_mode, quantize.eps, quantize.transpose) == ("pow2", 0.0, False)
    # A run-time M is None; the kernel has no modelled time.
    dyn, = fp8_mlir.gpu_kernels(fp8_mlir.run_pipeline(_GEMM_GRAPH.format(m="?"), "fp8-lower-to-nvvm"))
    assert (dyn.m, dyn.n, dyn.k, dyn.modelled_us) == (None, 128, 256, None) and dyn.config.m is None
    assert (dyn.chip, dyn.ctas, dyn.modelled_tflops) == ("h200", 0, None)
    # A run-time K (the Wgrad over a dynamic token count) is None too, on the
    # kernel and its config; its per-column B scales are recorded.
    wgrad, = fp8_mlir.gpu_kernels(fp8_mlir.run_pipeline(_DYNAMIC_K_GRAPH, "fp8-lower-to-nvvm"))
    assert (wgrad.m, wgrad.n, wgrad.k, wgrad.config.k) == (300, 400, None, None)
    assert wgrad.b_scale_rows == 1 and wgrad.config.b_scales_per_column
    # Rowwise blocks [1, 400] (a warp per row: 200 rows / 8 per CTA) and MX
    # blocks [1, 32] (a warp per block: 200 * 13 / 8) record their columns;
    # the per-tensor kernel (one block [200, 400]) walks 1x128 tiles, 8 per
    # CTA: 200 * 4 / 8; the per-column kernel ([128, 1] blocks) one CTA per
    # 128 x 128 region: ceil(300 / 128) * ceil(200 / 128) = 3 * 2.
    rowwise, mx, tensor, columns = fp8_mlir.gpu_kernels(fp8_mlir.run_pipeline(_ROW_MX_GRAPH, "fp8-lower-to-nvvm"))
    assert (rowwise.block_rows, rowwise.block_cols, rowwise.config.grid_size) == (1, 400, 25)
    assert (mx.block_rows, mx.block_cols, mx.config.grid_size, mx.scale) == (1, 32, 325, "f8E8M0FNU")
    assert not rowwise.per_tensor and not mx.per_tensor
    assert (tensor.per_tensor, tensor.config.per_tensor, tensor.block_rows, tensor.block_cols) == (True, True, 1, 128)
    assert tensor.config.grid_size == 100 and "per_tensor = true" in tensor.attribute
    assert (columns.rows, columns.cols, columns.block_rows, columns.block_cols) == (300, 200, 128, 1)
    assert columns.config.grid_size == 6 and not columns.per_tensor
    # A GEMM whose result only a 1x128 quantize reads: one kernel with the
    # quantize epilogue and the quantize's code type, eps (0.001 as f32) and
    # pow2 scales; no quantize kernel.
    fused, = fp8_mlir.gpu_kernels(fp8_mlir.run_pipeline(_FUSED_GRAPH, "fp8-lower-to-nvvm{config=fixed}"))
    assert (fused.m, fused.n, fused.k, fused.d, fused.epilogue) == (130, 200, 256, "bf16", "quantize")
    assert (fused.q, fused.q_pow2, fused.config.quantize_epilogue) == ("f8E5M2", True, True)
    assert fused.q_eps == pytest.approx(0.001, rel=1e-7) and fused.q_eps != 0.001
    assert "_qe5m2_pow2_eps3a83126f" in fused.symbol
    # E8M0 scales reach the GEMM as f32 through the transpose kernel's
    # widening variant (fp8-launch-kernels builds it): the A scales on their
    # way to [KB, Mpad], the B block scales in place; one kernel for both.
    ir = fp8_mlir.run_pipeline(_E8M0_GRAPH, "fp8-lower-to-nvvm{config=fixed},fp8-launch-kernels")
    transposes = [k for k in fp8_mlir.gpu_kernels(ir) if k.kind == "transpose"]
    assert [(k.symbol, k.bits, k.repeat_rows, k.widen_e8m0) for k in transposes] == [
        ("fp8_transpose_b8_e8m0f32", 8, 1, True)]
    # A module without kernels has none; text only; it must parse.
    assert fp8_mlir.gpu_kernels("module {}") == []
    with pytest.raises(TypeError, match="IR text"):
        fp8_mlir.gpu_kernels(1)
    with pytest.raises(ValueError, match="does not parse"):
        fp8_mlir.gpu_kernels("junk")