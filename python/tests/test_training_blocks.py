"""The generated Llama-style and DeepSeek-style MoE blocks' joint training
steps (fp8_mlir.models.llama_training_step / moe_training_step) through
`fp8-pipeline`: every linear's fprop, dgrad and wgrad in FP8, attention's
batch matmuls and the router's three GEMMs in high precision.

Every expected number below is derived by hand from the generated graph
(sizes: T = 256 tokens, H = 256, 2 heads of 128, Llama MLP 512, MoE: 4
routed experts of 128, top-2, 1 shared expert of 128), not read off the
passes' output."""

import re

import pytest

import fp8_mlir
from fp8_mlir import models

from conftest import require_passes

pytestmark = require_passes("fp8-pipeline")

T, H = 256, 256
PRE = "model.layers.0"
ATTN = [f"{PRE}.self_attn.{p}_proj" for p in "qkvo"]


def _swiglu(name):
    return [f"{name}.{p}_proj" for p in ("gate", "up", "down")]


def _counts(ir):
    return {k: ir.count(s) for k, s in [("gemm", "= fp8.scaled_matmul"), ("quantize", "= fp8.quantize"),
                                         ("requantize", "= fp8.requantize"), ("matmul", "= linalg.matmul"),
                                         ("bmm", "= linalg.batch_matmul"),
                                         ("fprop", "fp8.gemm = #fp8.gemm<fprop>"),
                                         ("dgrad", "fp8.gemm = #fp8.gemm<dgrad>"),
                                         ("wgrad", "fp8.gemm = #fp8.gemm<wgrad>")]}


def _ops_at(ir, loc):
    """(op name, role) of every contraction located at `loc` exactly."""
    out = []
    for line in ir.splitlines():
        m = re.search(r"= (fp8\.scaled_matmul|linalg\.matmul|linalg\.batch_matmul)\b", line)
        if m and f'loc("{loc}")' in line:
            role = re.search(r"fp8\.role = #fp8\.role<(\w+)>", line)
            gemm = re.search(r"fp8\.gemm = #fp8\.gemm<(\w+)>", line)
            out.append((m.group(1), role.group(1) if role else None, gemm.group(1) if gemm else None))
    return out


def _check_linears(ir, linears):
    # Each linear: its fprop, dgrad and wgrad, one each, all FP8.
    for name in linears:
        for suffix, kind in (("", "fprop"), (".dgrad", "dgrad"), (".wgrad", "wgrad")):
            assert _ops_at(ir, name + suffix) == [("fp8.scaled_matmul", "linear", kind)], (name, suffix)


def _check_attention(ir):
    # scores = Q K^T and context = P V forward; backward dP = dO V^T, dV =
    # P^T dO (context.grad), dQ = dS K, dK = dS^T Q (scores.grad): all
    # batch matmuls over the heads, high precision.
    for loc, n in (("scores", 1), ("context", 1), ("scores.grad", 2), ("context.grad", 2)):
        assert _ops_at(ir, f"{PRE}.self_attn.{loc}") == [("linalg.batch_matmul", "attention", None)] * n, loc


def test_llama_block_training_step():
    # 7 linears (q, k, v, o, gate, up, down) -> 7 fprop + 7 dgrad + 7 wgrad
    # FP8 GEMMs. quantize: 7 W; 4 distinct fprop X (n1 shared by q/k/v, the
    # attention context a, n2 shared by gate/up, the SwiGLU product h); 7
    # dgrad dY (dq, dk, dv, dr1 for o_proj, d gate, d up, dY for down) = 18.
    # requantize for the wgrads: the 4 X and the 7 dY = 11. 6 attention
    # batch matmuls stay linalg; no linalg.matmul is left.
    r = fp8_mlir.compile(models.llama_training_step())
    ir = r.fp8_ir
    assert _counts(ir) == {"gemm": 21, "quantize": 18, "requantize": 11, "matmul": 0, "bmm": 6,
                           "fprop": 7, "dgrad": 7, "wgrad": 7}
    _check_linears(ir, ATTN + _swiglu(f"{PRE}.mlp"))
    _check_attention(ir)
    # FLOPs per kind, 2*M*N*K: q/k/v/o 4 x 2*256*256*256 = 134217728,
    # gate/up 2 x 2*256*512*256 = 134217728, down 67108864: 335544320 each.
    g = r.report["training"]["gemms"]
    for kind in ("fprop", "dgrad", "wgrad"):
        assert g[kind] == {"count": 7, "fp8_flops": 335544320, "high_flops": 0}, kind
    # Saved activations (the wgrads' X): n1, a, n2 [256, 256] and h [256,
    # 512] in f32 = 1310720 B; as FP8: 327680 codes + 327680/128 f32 scales.
    assert r.report["training"]["saved_activation_bytes_before"] == 1310720
    assert r.report["training"]["saved_activation_bytes_after"] == 327680 + 327680 // 128 * 4
    assert re.search(r"fprop\s+7\s+335\.54 MFLOP\s+0 FLOP\s+100\.0%", r.report_text)


def test_moe_block_training_step():
    # Linears in FP8: 4 attention + 3 x (4 routed + 1 shared) = 19 -> 57
    # GEMMs; the router (mlp.gate [4, 256], softmax + top-k) keeps its
    # fprop, dgrad and wgrad as linalg.matmul with role gating (3).
    # quantize: 19 W; fprop X: n1, a, n2 (shared by the 10 expert gate/up
    # projections; the router reads it in high precision), 5 SwiGLU
    # products = 8; dgrad dY: dq, dk, dv, dr1, per routed expert d out_e
    # (the combine weight times dY), d gate_e, d up_e (12), the shared
    # expert's dY, d gate, d up (3) = 19. Total 46; requantize 8 + 19 = 27.
    r = fp8_mlir.compile(models.moe_training_step())
    ir = r.fp8_ir
    assert _counts(ir) == {"gemm": 57, "quantize": 46, "requantize": 27, "matmul": 3, "bmm": 6,
                           "fprop": 20, "dgrad": 20, "wgrad": 20}
    experts = [n for e in range(4) for n in _swiglu(f"{PRE}.mlp.experts.{e}")]
    _check_linears(ir, ATTN + experts + _swiglu(f"{PRE}.mlp.shared_experts"))
    _check_attention(ir)
    router = f"{PRE}.mlp.gate"
    for suffix, kind in (("", "fprop"), (".dgrad", "dgrad"), (".wgrad", "wgrad")):
        assert _ops_at(ir, router + suffix) == [("linalg.matmul", "gating", kind)], suffix
    # FP8 FLOPs per kind: attention 134217728 + 5 experts x 3 x
    # 2*256*128*256 (50331648 each expert) = 385875968; high: the router's
    # 2*256*4*256 = 524288.
    g = r.report["training"]["gemms"]
    for kind in ("fprop", "dgrad", "wgrad"):
        assert g[kind] == {"count": 20, "fp8_flops": 385875968, "high_flops": 524288}, kind
    # Saved: n1, a, n2 (3 x 262144 B) + 5 expert products [256, 128] f32.
    assert r.report["training"]["saved_activation_bytes_before"] == 3 * 262144 + 5 * 131072
    assert re.search(r"wgrad\s+20\s+385\.88 MFLOP\s+524288 FLOP\s+99\.9%", r.report_text)


def test_moe_without_shared_expert():
    # 4 + 3 x 2 = 10 FP8 linears, the router's 3 GEMMs high.
    ir = fp8_mlir.compile(models.moe_training_step(num_experts=2, top_k=1, num_shared_experts=0)).fp8_ir
    c = _counts(ir)
    assert (c["gemm"], c["matmul"], c["fprop"]) == (30, 3, 11)


@pytest.mark.parametrize("fn,kwargs,what", [
    (models.llama_training_step, {"tokens": 0}, "tokens"),
    (models.llama_training_step, {"hidden": 256, "num_heads": 3}, "multiple of num_heads"),
    (models.llama_training_step, {"intermediate": 1.5}, "intermediate"),
    (models.llama_training_step, {"rms_eps": float("nan")}, "rms_eps"),
    (models.llama_training_step, {"tokens": True}, "tokens"),
    (models.moe_training_step, {"num_experts": 2, "top_k": 3}, "top_k"),
    (models.moe_training_step, {"num_shared_experts": -1}, "num_shared_experts"),
    (models.moe_training_step, {"num_experts": 513}, "num_experts"),
    (models.moe_training_step, {"moe_intermediate": 1 << 21}, "moe_intermediate"),
    (models.llama_training_step, {"split": 1}, "split"),
])
def test_bad_parameters(fn, kwargs, what):
    with pytest.raises(ValueError, match=what):
        fn(**kwargs)


@pytest.mark.parametrize("fn,kwargs", [
    (models.llama_training_step, {"tokens": 3, "hidden": 6, "num_heads": 3, "intermediate": 5}),
    (models.moe_training_step, {"tokens": 5, "hidden": 4, "num_heads": 1, "num_experts": 3, "top_k": 3,
                                "moe_intermediate": 2, "num_shared_experts": 2}),
])
def test_odd_sizes_parse(fn, kwargs, fp8_opt):
    # Odd, tiny sizes still give IR that parses and verifies (fp8-opt with
    # no pass: these sizes are not multiples of the FP8 tiles).
    rc, _, err = fp8_opt(fn(**kwargs))
    assert rc == 0, err


def _split_counts(text):
    r = fp8_mlir.compile(text)
    fwd, bwd = r.fp8_ir.split("func.func @backward")
    return r, _counts(fwd), _counts(bwd)


def test_llama_block_split_step():
    # @forward: the 7 fprops; 7 W + the 4 distinct X quantized. @backward
    # (the saved tensors and the weights are its arguments): 7 dgrads and 7
    # wgrads; 7 W quantized again (for the dgrads), the 7 dgrad dY
    # (requantized for their wgrads: 7), and the 4 saved X, read by wgrads
    # only (quantized along the tokens, not requantized): 18.
    r, fwd, bwd = _split_counts(models.llama_training_step(split=True))
    assert fwd == {"gemm": 7, "quantize": 11, "requantize": 0, "matmul": 0, "bmm": 2,
                   "fprop": 7, "dgrad": 0, "wgrad": 0}
    assert bwd == {"gemm": 14, "quantize": 18, "requantize": 7, "matmul": 0, "bmm": 4,
                   "fprop": 0, "dgrad": 7, "wgrad": 7}
    _check_linears(r.fp8_ir, ATTN + _swiglu(f"{PRE}.mlp"))


def test_moe_block_split_step():
    # @forward: 19 FP8 fprops + the router's (high); 19 W + 8 X. @backward:
    # 19 dgrads + 19 wgrads in FP8; the router's dgrad and wgrad stay high
    # although its gating fprop is in @forward (the same parameter, by loc
    # name); 19 W + 19 dY + the 8 saved X = 46 quantizations, 19
    # requantizations (the dY).
    r, fwd, bwd = _split_counts(models.moe_training_step(split=True))
    assert fwd == {"gemm": 19, "quantize": 27, "requantize": 0, "matmul": 1, "bmm": 2,
                   "fprop": 20, "dgrad": 0, "wgrad": 0}
    assert bwd == {"gemm": 38, "quantize": 46, "requantize": 19, "matmul": 2, "bmm": 4,
                   "fprop": 0, "dgrad": 20, "wgrad": 20}
    router = f"{PRE}.mlp.gate"
    for suffix, kind in (("", "fprop"), (".dgrad", "dgrad"), (".wgrad", "wgrad")):
        assert _ops_at(r.fp8_ir, router + suffix) == [("linalg.matmul", "gating", kind)], suffix
    for kind in ("fprop", "dgrad", "wgrad"):
        assert r.report["training"]["gemms"][kind] == {"count": 20, "fp8_flops": 385875968,
                                                       "high_flops": 524288}, kind


@pytest.mark.parametrize("split", [False, True])
def test_vocabulary_wide_mlp_is_not_the_head(split):
    # A SwiGLU width of 32768 (>= the 32000 words at which a linear counts as
    # vocabulary-sized without an embedding in the graph): gate/up's results
    # reach a function result (the joint step's norm-weight gradients; the
    # split forward returns them as saved activations) but feed down_proj
    # first, and their dgrads' dY comes through down_proj's dgrad (the split
    # backward has no fprop to pair with). Every linear's three GEMMs stay
    # FP8 linears; nothing is an output head.
    text = models.llama_training_step(tokens=8, hidden=64, num_heads=2, intermediate=32768, split=split)
    ir = fp8_mlir.run_pipeline(text, "fp8-assign-precision", locations=True)
    assert "#fp8.role<output_head>" not in ir
    for name in ATTN + _swiglu(f"{PRE}.mlp"):
        for suffix, kind in (("", "fprop"), (".dgrad", "dgrad"), (".wgrad", "wgrad")):
            ops = [line for line in ir.splitlines() if "= linalg.matmul" in line and f'loc("{name}{suffix}")' in line]
            assert len(ops) == 1, (name, suffix)
            assert "#fp8.role<linear>" in ops[0] and "#fp8.precision<fp8>" in ops[0], (name, suffix)
            assert f"#fp8.gemm<{kind}>" in ops[0], (name, suffix)
