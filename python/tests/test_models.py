"""fp8_mlir.models: generated graphs parse, verify and round-trip through
fp8-opt, with the structure and torch-style locations documented."""

import os
import re

import pytest

import fp8_mlir
from fp8_mlir import models
from fp8_mlir.models import ModelConfig

from conftest import models_dir, require_passes

SMALL = ModelConfig.small()


def count(text, op):
    return len(re.findall(r"= " + re.escape(op) + r"[ {(]", text))


@pytest.mark.parametrize(
    "make",
    [
        lambda: models.llama_block(SMALL, 2),
        lambda: models.moe_block(SMALL, 2),
        lambda: models.model(SMALL, 2, mlp="moe", weights="args", dtype="bf16"),
        lambda: models.model(SMALL, 1, mlp="dense"),
        lambda: models.moe_block(ModelConfig.small(num_kv_heads=4, num_shared_experts=0, capacity_factor=4.0)),
    ],
    ids=["llama", "moe", "model-moe-args-bf16", "model-dense", "moe-mha-noshared"],
)
def test_generated_graph_roundtrips_through_fp8_opt(make, fp8_opt):
    text = make()
    rc, once, err = fp8_opt(text)
    assert rc == 0, err
    rc, twice, err = fp8_opt(once)
    assert rc == 0, err
    assert once == twice
    # And in-process, through the same registrations.
    assert fp8_mlir.run_pipeline(text).rstrip() == once.rstrip()


def test_llama_block_structure():
    text = models.llama_block(SMALL, 2)
    # Per layer: q, k, v, o, gate, up, down; attention QK^T and PV.
    assert count(text, "linalg.matmul") == 7 * 2
    assert count(text, "linalg.batch_matmul") == 2 * 2
    for name in ["input_layernorm", "self_attn.q_proj", "self_attn.k_proj", "self_attn.v_proj",
                 "self_attn.o_proj", "post_attention_layernorm", "mlp.gate_proj", "mlp.up_proj",
                 "mlp.down_proj", "self_attn.rotary_emb"]:
        for layer in (0, 1):
            assert f'loc("model.layers.{layer}.{name}")' in text, name
    assert "math.rsqrt" in text and "math.cos" in text and "math.sin" in text
    # GQA: k/v project to num_kv_heads * head_dim = 128 columns, q to 256.
    assert "tensor<8x128xf32>" in text and "tensor<4x8x64xf32>" in text
    # torch-style signature: hidden states in, hidden states out.
    assert "func.func @forward(%arg0: tensor<8x256xf32>) -> tensor<8x256xf32>" in fp8_mlir.run_pipeline(text)


def test_moe_block_structure():
    text = models.moe_block(SMALL, 1)
    # Router + attention (4) + shared expert (3) as matmuls; attention (2)
    # and routed experts gate/up/down (3) as batch matmuls over heads/experts.
    assert count(text, "linalg.matmul") == 8
    assert count(text, "linalg.batch_matmul") == 5
    assert 'loc("model.layers.0.mlp.gate")' in text
    assert 'loc("model.layers.0.mlp.shared_experts.gate_proj")' in text
    assert 'loc("model.layers.0.mlp.experts.down_proj")' in text
    # Router weight [experts, hidden]; grouped expert weights [E, out, in].
    assert 'tensor<8x256xf32> loc("model.layers.0.mlp.gate.weight")' in text
    assert 'tensor<8x128x256xf32> loc("model.layers.0.mlp.experts.gate_proj.weight")' in text
    # Expert buffers [E, capacity, hidden]: capacity = ceil(8 tokens * 2 / 8) = 2.
    assert SMALL.capacity == 2
    assert "tensor<8x2x256xf32>" in text
    # top-k = 2 masked maxima over the sigmoid scores.
    assert text.count("arith.cmpf olt") == SMALL.top_k


def test_moe_first_dense_layers():
    text = models.moe_block(SMALL, 3, first_dense_layers=2)
    assert 'loc("model.layers.1.mlp.gate_proj")' in text
    assert 'loc("model.layers.1.mlp.gate")' not in text
    assert 'loc("model.layers.2.mlp.gate")' in text


def test_weights_as_arguments():
    text = models.llama_block(SMALL, 1, weights="args")
    ir = fp8_mlir.run_pipeline(text)
    sig = ir[ir.index("func.func @forward(") : ir.index("{", ir.index("func.func @forward("))]
    # hidden states + 2 norm weights + 7 linear weights.
    assert sig.count("%arg") == 10
    assert 'loc("model.layers.0.self_attn.q_proj.weight")' in text
    assert "arith.constant dense" not in text


def test_constants_are_distinct_splats():
    text = models.llama_block(SMALL, 1)
    splats = re.findall(r"arith.constant (dense<[^>]*>) : (tensor<[^>]*>)", text)
    assert len(splats) == 9
    assert len(set(splats)) == len(splats)


def test_model_embedding_and_head():
    text = models.model(SMALL, 1)
    assert "func.func @forward(%input_ids: tensor<8xi64>) -> tensor<8x1024xf32>" in text
    assert 'loc("model.embed_tokens")' in text and "tensor.extract" in text
    assert 'loc("lm_head")' in text and 'loc("model.norm")' in text


def test_bf16_graph():
    text = models.moe_block(SMALL, 1, dtype="bf16")
    assert "xf32>" not in text
    fp8_mlir.run_pipeline(text)


def test_deepseek_v3_defaults():
    cfg = ModelConfig()
    assert (cfg.hidden, cfg.moe_intermediate, cfg.num_experts, cfg.num_shared_experts, cfg.top_k) == (
        7168, 2048, 256, 1, 8)
    text = models.moe_block()
    assert 'tensor<256x7168xf32> loc("model.layers.0.mlp.gate.weight")' in text
    assert "tensor<256x2048x7168xf32>" in text
    assert "tensor<2048x7168xf32>" in text  # shared expert gate/up
    fp8_mlir.run_pipeline(text)


def test_many_layers_stay_small():
    text = models.moe_block(SMALL, 8)
    assert len(text) < 8 * 60000
    assert 'loc("model.layers.7.mlp.gate")' in text
    fp8_mlir.run_pipeline(text)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(config=ModelConfig.small(num_kv_heads=3)), "multiple of num_kv_heads"),
        (dict(config=ModelConfig.small(top_k=9)), "top_k"),
        (dict(config=ModelConfig.small(hidden=0)), "hidden"),
        (dict(config=ModelConfig.small(head_dim=63)), "head_dim"),
        (dict(config=SMALL, num_layers=0), "num_layers"),
        (dict(config=SMALL, weights="files"), "weights"),
        (dict(config=SMALL, dtype="f16"), "dtype"),
        (dict(config=SMALL, func_name="bad name"), "func_name"),
        (dict(config=SMALL, first_dense_layers=-1), "first_dense_layers"),
    ],
)
def test_invalid_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        models.moe_block(**kwargs)


def test_config_type_checked():
    with pytest.raises(TypeError):
        models.llama_block({"hidden": 256})
    with pytest.raises(ValueError, match="mlp"):
        models.model(SMALL, mlp="sparse")


# -- through the graph passes (issue 4) ----------------------------------------


def op_roles(ir):
    """(loc name, op name, role, precision) of every op the precision
    analysis annotated; `ir` printed with locations=True."""
    out = []
    op_re = re.compile(r"= (linalg\.\w+|arith\.\w+|math\.\w+|tensor\.\w+)")
    lines = ir.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        m = op_re.search(line)
        if m and "fp8.role" in line:
            end = line
            if line.rstrip().endswith("{"):  # a region: the loc closes it
                depth = 1
                while depth:
                    i += 1
                    depth += lines[i].count("{") - lines[i].count("}")
                end = lines[i]
            loc = re.search(r'loc\("([^"]+)"\)\s*$', end)
            role = re.search(r"fp8.role = #fp8.role<(\w+)>", line).group(1)
            prec = re.search(r"fp8.precision = #fp8.precision<(\w+)>", line)
            out.append((loc.group(1) if loc else "", m.group(1), role, prec.group(1) if prec else None))
        i += 1
    return out


def select(roles, loc=None, op=None, suffix=None):
    return [r for r in roles if (loc is None or r[0] == loc) and (op is None or r[1] == op)
            and (suffix is None or r[0].endswith(suffix))]


@pytest.fixture(scope="module")
def moe_roles():
    if not fp8_mlir.has_pass("fp8-assign-precision"):
        pytest.skip("fp8-assign-precision not in this build")
    text = models.moe_block(SMALL, 2)
    return op_roles(fp8_mlir.run_pipeline(text, "fp8-assign-precision", locations=True))


@pytest.fixture(scope="module")
def llama_roles():
    if not fp8_mlir.has_pass("fp8-assign-precision"):
        pytest.skip("fp8-assign-precision not in this build")
    text = models.llama_block(ModelConfig.small(), 2)
    return op_roles(fp8_mlir.run_pipeline(text, "fp8-assign-precision", locations=True))


def test_moe_gating_found(moe_roles):
    for layer in (0, 1):
        router = select(moe_roles, loc=f"model.layers.{layer}.mlp.gate", op="linalg.matmul")
        assert [r[2] for r in router] == ["gating"] and router[0][3] != "fp8", router
    gating = [r for r in moe_roles if r[2] == "gating" and r[1] == "linalg.matmul"]
    assert len(gating) == 2


@pytest.mark.parametrize("roles_fixture", ["moe_roles", "llama_roles"])
def test_attention_kept_high_and_projections_fp8(roles_fixture, request):
    roles = request.getfixturevalue(roles_fixture)
    for layer in (0, 1):
        attn = select(roles, loc=f"model.layers.{layer}.self_attn", op="linalg.batch_matmul")
        assert len(attn) == 2  # QK^T and PV
        assert all(r[2] == "attention" and r[3] != "fp8" for r in attn), attn
        for proj in ("q_proj", "k_proj", "v_proj", "o_proj"):
            mm = select(roles, loc=f"model.layers.{layer}.self_attn.{proj}", op="linalg.matmul")
            assert [(r[2], r[3]) for r in mm] == [("linear", "fp8")], (proj, mm)
        for norm in ("input_layernorm", "post_attention_layernorm"):
            ops = select(roles, loc=f"model.layers.{layer}.{norm}", op="linalg.generic")
            assert ops and all(r[2] == "normalization" and r[3] != "fp8" for r in ops), (norm, ops)


def test_moe_shared_expert_fp8(moe_roles):
    for proj in ("gate_proj", "up_proj", "down_proj"):
        mm = select(moe_roles, loc=f"model.layers.0.mlp.shared_experts.{proj}", op="linalg.matmul")
        assert [(r[2], r[3]) for r in mm] == [("linear", "fp8")], mm


def test_llama_mlp_fp8(llama_roles):
    for proj in ("gate_proj", "up_proj", "down_proj"):
        mm = select(llama_roles, loc=f"model.layers.1.mlp.{proj}", op="linalg.matmul")
        assert [(r[2], r[3]) for r in mm] == [("linear", "fp8")], mm


def test_moe_routed_experts_fp8(moe_roles):
    for proj in ("gate_proj", "up_proj", "down_proj"):
        bmm = select(moe_roles, loc=f"model.layers.0.mlp.experts.{proj}", op="linalg.batch_matmul")
        assert [(r[2], r[3]) for r in bmm] == [("linear", "fp8")], bmm


@require_passes("fp8-pipeline")
def test_moe_expert_weights_as_arguments_are_grouped_linears(fp8_opt):
    """Per-expert weights passed as function arguments (torch-mlir's export
    of parameters): the routed experts are grouped linears in FP8 because
    their batch is the router's expert count and their tokens come from the
    dispatch; the dispatch/combine contraction has its own role and stays
    high; the FP8 share equals the one with constant weights."""
    import json

    reports = {}
    for weights in ("constants", "args"):
        rc, out, err = fp8_opt(models.model(SMALL, 2, mlp="moe", weights=weights),
                               "--fp8-pipeline=report-format=json", "-o", "/dev/null")
        assert rc == 0, err
        reports[weights] = json.loads(out)
    args = reports["args"]
    for layer in (0, 1):
        for proj in ("gate_proj", "up_proj", "down_proj"):
            ops = [o for o in args["ops"] if o["location"] == f"model.layers.{layer}.mlp.experts.{proj}"]
            assert ops and all((o["role"], o["precision"]) == ("linear", "fp8") for o in ops), ops
            assert all("per-group weights (function argument)" in o["reason"] for o in ops), ops
        dispatch = [o for o in args["ops"] if o["location"] == f"model.layers.{layer}.mlp.dispatch" and o["matmul"]]
        assert dispatch and all((o["role"], o["precision"]) == ("dispatch", "bf16") for o in dispatch), dispatch
    # Attention over activations stays attention.
    attn = [o for o in args["ops"] if o["location"] == "model.layers.0.self_attn" and o["matmul"]]
    assert attn and all(o["role"] == "attention" for o in attn)
    share = {w: r["totals"]["fp8_matmul_flop_share"] for w, r in reports.items()}
    assert share["args"] == share["constants"] and share["args"] > 0.5, share


def test_model_embedding_and_head_roles():
    if not fp8_mlir.has_pass("fp8-assign-precision"):
        pytest.skip("fp8-assign-precision not in this build")
    text = models.model(SMALL, 1, mlp="dense")
    roles = op_roles(fp8_mlir.run_pipeline(text, "fp8-assign-precision", locations=True))
    emb = select(roles, loc="model.embed_tokens", op="linalg.generic")
    head = select(roles, loc="lm_head", op="linalg.matmul")
    assert [r[2] for r in emb] == ["embedding"]
    assert [r[2] for r in head] == ["output_head"] and head[0][3] != "fp8"


@require_passes("fp8-pipeline")
def test_fp8_opt_pipeline_on_generated_graphs(fp8_opt):
    """fp8-opt --fp8-pipeline on the generated blocks: every projection and
    MLP linear becomes an fp8.scaled_matmul; attention's batch matmuls and
    the MoE router stay high-precision linalg ops; the output verifies."""
    flags = ["--fp8-pipeline=policy=deepseek-v3 report=false", "--mlir-print-debuginfo", "--mlir-print-local-scope"]
    rc, out, err = fp8_opt(models.llama_block(SMALL, 2), *flags)
    assert rc == 0, err
    assert count(out, "fp8.scaled_matmul") == 7 * 2
    assert count(out, "linalg.batch_matmul") == 2 * 2
    assert count(out, "linalg.matmul") == 0
    rc, again, err = fp8_opt(out)  # the FP8 graph parses and verifies
    assert rc == 0, err

    rc, out, err = fp8_opt(models.moe_block(SMALL, 2), *flags)
    assert rc == 0, err
    router = [l for l in out.splitlines() if "= linalg.matmul" in l and re.search(r'loc\("model\.layers\.\d\.mlp\.gate"\)', l)]
    assert len(router) == 2 and all("#fp8.role<gating>" in l for l in router)
    attn = [l for l in out.splitlines() if "= linalg.batch_matmul" in l and 'self_attn")' in l]
    assert len(attn) == 4 and all("#fp8.role<attention>" in l for l in attn)
    # q, k, v, o and the shared expert's gate, up, down: one
    # fp8.scaled_matmul each; the routed experts' gate, up, down: one
    # fp8.grouped_scaled_matmul each (masked layout, one launch for all
    # experts), per layer, with no loop over the experts; no batch_matmul
    # other than attention's is left.
    assert count(out, "fp8.scaled_matmul") == 7 * 2
    for layer in (0, 1):
        for proj in ("gate_proj", "up_proj", "down_proj"):
            grouped = [l for l in out.splitlines() if "fp8.grouped_scaled_matmul masked" in l
                       and f'loc("model.layers.{layer}.mlp.experts.{proj}")' in l]
            assert len(grouped) == 1, (layer, proj, grouped)
    assert count(out, "fp8.grouped_scaled_matmul") == 3 * 2
    assert count(out, "scf.for") == 0
    assert count(out, "linalg.batch_matmul") == len(attn)


REPORT_GRAPHS = {
    "llama_block": lambda: models.llama_block(SMALL, 2),
    "llama_block_args": lambda: models.llama_block(SMALL, 2, weights="args"),
    "moe_block": lambda: models.moe_block(SMALL, 2),
    "model_moe_args": lambda: models.model(SMALL, 2, mlp="moe", weights="args"),
    "model_dense_bf16": lambda: models.model(SMALL, 1, mlp="dense", dtype="bf16"),
}


def _shared_model(name):
    path = os.path.join(models_dir(), name + ".mlir")
    if not os.path.exists(path):
        pytest.skip(f"{path} not found (FP8_MODELS_DIR: a directory of real model graphs, optional)")
    with open(path) as f:
        return f.read()


for _name in ("bert_base_linalg", "berttiny_mlm_backward_linalg", "qwen_block_tosa", "mlp_fp32_3x1024",
              "mlp_bf16_3x1024"):
    REPORT_GRAPHS["shared:" + _name] = lambda n=_name: _shared_model(n)


@require_passes("fp8-pipeline")
@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.models) if n.startswith("shared:") else n
                                  for n in sorted(REPORT_GRAPHS)])
def test_report_precision_matches_the_ir(fp8_opt, name, tmp_path):
    """The report never says FP8 for an op the pipeline did not rewrite: every
    matmul row in FP8 is an fp8.scaled_matmul (or, for MoE routed experts,
    fp8.grouped_scaled_matmul) of the output IR, one for one,
    and no linalg contraction row says fp8 (generated models, and the real
    graphs beside the checkout when present)."""
    import json

    report = tmp_path / "report.json"
    rc, out, err = fp8_opt(REPORT_GRAPHS[name](), f"--fp8-pipeline=report-format=json report-output={report}")
    assert rc == 0, err
    rows = [o for o in json.loads(report.read_text())["ops"] if o["matmul"]]
    fp8_rows = [o for o in rows if o["precision"] == "fp8"]
    fp8_ops = ("fp8.scaled_matmul", "fp8.grouped_scaled_matmul")
    assert all(o["op"] in fp8_ops for o in fp8_rows), fp8_rows
    assert not [o for o in rows if o["op"].startswith("linalg.") and o["precision"] == "fp8"]
    assert len(fp8_rows) == sum(count(out, op) for op in fp8_ops) > 0


@require_passes("fp8-pipeline")
def test_moe_block_one_grouped_gemm_per_routed_projection(fp8_opt):
    """A DeepSeek-V3-style MoE layer after fp8-pipeline: each routed
    projection (gate, up, down) is exactly one fp8.grouped_scaled_matmul in
    the masked layout over all experts ([E, C, K] x [E, N, K]), with no loop
    over the experts and no per-expert fp8.scaled_matmul."""
    cfg = ModelConfig.small()
    rc, out, err = fp8_opt(models.moe_block(cfg, 1), "--fp8-pipeline=report=false",
                           "--mlir-print-debuginfo", "--mlir-print-local-scope")
    assert rc == 0, err
    grouped = [l for l in out.splitlines() if "= fp8.grouped_scaled_matmul" in l]
    assert len(grouped) == 3, grouped
    for proj in ("gate_proj", "up_proj", "down_proj"):
        ops = [l for l in grouped if f'loc("model.layers.0.mlp.experts.{proj}")' in l]
        assert len(ops) == 1, (proj, grouped)
        assert "grouped_scaled_matmul masked" in ops[0]
        # B holds every expert: [E, N, K] with the expert count leading.
        b_type = re.findall(r"!fp8\.scaled<(\d+)x\d+x\d+xf8E4M3FN", ops[0])
        assert len(b_type) == 2 and int(b_type[1]) == cfg.num_experts, ops[0]
    assert count(out, "scf.for") == 0 and "scf.for" not in out
    # Per-expert products would be fp8.scaled_matmul at the experts' locations.
    assert not [l for l in out.splitlines() if "= fp8.scaled_matmul" in l and ".mlp.experts." in l]


# -- parameters in one flat buffer (issue 29) -----------------------------------


def _report_ops(fp8_opt, text, *options):
    import json

    rc, out, err = fp8_opt(text, "--fp8-pipeline=report-format=json " + " ".join(options), "-o", "/dev/null")
    assert rc == 0, err
    return json.loads(out)


def _matmul_rows(report):
    return [(o["location"], o["role"], o["precision"], o.get("gemm")) for o in report["ops"] if o["matmul"]]


@require_passes("fp8-pipeline")
@pytest.mark.parametrize("tie", [False, True], ids=["untied", "tied"])
@pytest.mark.parametrize("mlp", ["dense", "moe"])
def test_flat_parameter_buffer_decoder(fp8_opt, mlp, tie):
    """Every weight a slice of one `%params` buffer: the same roles and
    precisions as with one argument per weight, op by op; every projection in
    FP8 (7 linears per dense layer), the head high precision, tied
    (reading the embedding table's slice) only when `tie_embeddings`."""
    text = models.model(SMALL, 2, mlp=mlp, weights="flat", tie_embeddings=tie)
    # Per layer 2 norms + 4 attention projections + 3 MLP weights (dense) or
    # router + 3 shared + 3 routed expert weights (MoE); table, final norm,
    # and the head's own weight unless tied.
    per_layer = 9 if mlp == "dense" else 13
    assert text.count("tensor.extract_slice %params[") == 2 * per_layer + 2 + (0 if tie else 1)
    flat = _report_ops(fp8_opt, text)
    args = _report_ops(fp8_opt, models.model(SMALL, 2, mlp=mlp, weights="args", tie_embeddings=tie))
    assert _matmul_rows(flat) == _matmul_rows(args)
    rows = _matmul_rows(flat)
    head = [r for r in rows if r[0] == "lm_head"]
    assert [(r[1], r[2]) for r in head] == [("output_head", "bf16")], head
    reason = [o["reason"] for o in flat["ops"] if o["location"] == "lm_head" and o["matmul"]][0]
    assert ("tied output head" in reason) == tie, reason
    # 4 attention projections + the dense MLP's or the shared expert's 3.
    projections = [r for r in rows if r[0].endswith("_proj") and ".experts." not in r[0]]
    assert len(projections) == 2 * 7, projections
    assert all(r[1:3] == ("linear", "fp8") for r in projections), projections
    assert flat["totals"]["fp8_matmul_flop_share"] == args["totals"]["fp8_matmul_flop_share"]


@require_passes("fp8-pipeline")
@pytest.mark.parametrize("split", [False, True], ids=["joint", "split"])
def test_flat_parameter_buffer_training_step(fp8_opt, split):
    """The MLP training step with its weights in one buffer: 3 fprops,
    2 dgrads (the first layer's input needs none), 3 wgrads, all FP8,
    exactly as with one argument per weight."""
    sizes = [128, 256, 256, 128]
    flat = _report_ops(fp8_opt, models.mlp_training_step(128, sizes, split=split, flat=True))
    args = _report_ops(fp8_opt, models.mlp_training_step(128, sizes, split=split))
    rows = _matmul_rows(flat)
    assert rows == _matmul_rows(args)
    kinds = sorted(r[3] for r in rows)
    assert kinds == ["dgrad"] * 2 + ["fprop"] * 3 + ["wgrad"] * 3, rows
    assert all(r[1:3] == ("linear", "fp8") for r in rows), rows
