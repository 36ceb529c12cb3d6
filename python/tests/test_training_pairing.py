"""Which GEMM of a linear's training step each contraction is follows the
data flow, not argument positions (issue 29): MLP training steps of 2-4
linears, joint with the loss gradient computed in the graph, joint with dY
as an argument (aot_autograd's tangent), and split, with and without ReLU
between the layers and with and without the input's gradient, through
`--fp8-pipeline` under `deepseek-v3` and `hybrid`.

The oracle is the generator's own naming: `layers.<i>` is the fprop,
`layers.<i>.dgrad` the dgrad and `layers.<i>.wgrad` the wgrad (dW = dYᵀ X,
its A operand the gradient). Formats: X and W E4M3 under both policies, dY
(the dgrad's A, the wgrad's A) E4M3 under deepseek-v3, E5M2 under hybrid."""

import itertools
import re

import pytest

from fp8_mlir import models

from conftest import require_passes

pytestmark = require_passes("fp8-pipeline")

SIZES = [128, 256, 384, 256, 128]
FORMS = {"joint-loss": {}, "joint-tangent": {"tangent": True}, "split": {"split": True}}
GRAD_FORMAT = {"deepseek-v3": "f8E4M3FN", "hybrid": "f8E5M2"}
E4M3 = "f8E4M3FN"


def scaled_matmuls(fp8_opt, text, policy):
    """{loc: (gemm kind, A format, B format)} of every fp8.scaled_matmul."""
    rc, out, err = fp8_opt(text, f"--fp8-pipeline=policy={policy} report=false",
                           "--mlir-print-debuginfo", "--mlir-print-local-scope")
    assert rc == 0, err
    rows = {}
    for line in out.splitlines():
        if "fp8.scaled_matmul" not in line:
            continue
        loc = re.search(r'loc\("([^"]+)"\)\s*$', line).group(1)
        gemm = re.search(r"fp8.gemm = #fp8.gemm<(\w+)>", line).group(1)
        formats = re.findall(r"!fp8\.scaled<[^,]*?x(f8E[0-9A-Z]+),", line)
        assert loc not in rows, loc
        rows[loc] = (gemm, formats[0], formats[1])
    return rows


@pytest.mark.parametrize("policy", ["deepseek-v3", "hybrid"])
@pytest.mark.parametrize("relu,input_grad", list(itertools.product([True, False], [False, True])),
                         ids=lambda v: str(v))
@pytest.mark.parametrize("form", list(FORMS))
@pytest.mark.parametrize("layers", [2, 3, 4])
def test_pairing_follows_the_data_flow(fp8_opt, layers, form, relu, input_grad, policy):
    text = models.mlp_training_step(128, SIZES[:layers + 1], relu=relu, input_grad=input_grad,
                                    **FORMS[form])
    got = scaled_matmuls(fp8_opt, text, policy)
    grad = GRAD_FORMAT[policy]
    want = {}
    for i in range(layers):
        want[f"layers.{i}"] = ("fprop", E4M3, E4M3)
        if i > 0 or input_grad:
            want[f"layers.{i}.dgrad"] = ("dgrad", grad, E4M3)
        want[f"layers.{i}.wgrad"] = ("wgrad", grad, E4M3)
    assert got == want
