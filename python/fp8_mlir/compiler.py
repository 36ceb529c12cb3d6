"""Drive the fp8-mlir compiler from Python: pass pipelines and compile().

Everything runs in-process through the project's own C++ (the `_fp8_mlir`
extension, the same registrations as `fp8-opt`). A bad input or a failing pass
raises `MLIRError` carrying the MLIR diagnostics with their locations; what
passes print (reports) goes to `sys.stdout` / `sys.stderr`, and the
interpreter is never aborted: the work runs on a thread with a large stack
where a crash inside MLIR is recovered (docs/robustness.md). Ctrl-C stops a
run at the next pass boundary and raises KeyboardInterrupt.
"""

from __future__ import annotations

import dataclasses
import sys
from typing import List, Optional, Sequence, Union

from . import _fp8_mlir as _native

__all__ = [
    "MLIRError",
    "Diagnostic",
    "run_pipeline",
    "has_pass",
    "compile",
    "CompiledResult",
    "POLICIES",
    "FP8_POLICIES",
    "DEFAULT_POLICY",
    "PROMOTIONS",
    "TARGETS",
]

#: Policy presets of `#fp8.policy<...>` (docs/design.md §2.2), as the
#: compiler defines them: the FP8 recipes, then `bf16` (every contraction
#: with BF16 operands and FP32 accumulation, nothing FP8: the baseline).
POLICIES = tuple(_native.policy_presets())
#: The presets that put linears in FP8 (all but the `bf16` baseline, which
#: keeps every role in high precision), as the compiler defines them.
FP8_POLICIES = tuple(p.name for p in _native.policy_preset_info() if p.fp8)
#: The policy of `compile` and of `fp8_mlir.training` when none is given:
#: fp8-pipeline's own default (its `policy` option), read from the compiler.
DEFAULT_POLICY = _native.default_policy()
#: Values of `compile(promotion=...)` (fp8-pipeline's `promotion`): the
#: policy's promote_interval, or one promotion per GEMM at the end of K.
PROMOTIONS = ("policy", "none")
#: Values of `compile(wgrad_operands=...)` (fp8-pipeline's `wgrad-operands`):
#: how a weight gradient's dY and X are made (docs/policies.md).
WGRAD_OPERANDS = ("requantize", "fresh")
#: Targets of `compile()`: the CPU lowering, or an NVIDIA chip (PTX).
TARGETS = ("cpu", "sm_90a")


@dataclasses.dataclass(frozen=True)
class Diagnostic:
    """One MLIR diagnostic.

    `location` is `file:line:col` for a position in the input (the input is
    named `<input>` unless `source_name` says otherwise) or the printed
    location (`loc("model.layers.3.mlp.gate")`) for a named one.
    """

    severity: str
    location: str
    message: str
    notes: tuple = ()

    def __str__(self) -> str:
        text = f"{self.location}: {self.severity}: {self.message}"
        for note in self.notes:
            text += f"\n  note: {note}"
        return text


class MLIRError(Exception):
    """Parsing, verification, pipeline parsing or a pass failed.

    `diagnostics` lists every diagnostic MLIR emitted (errors first-class,
    with warnings and notes); `rendered` is the same text as `fp8-opt` would
    print it, with the source line and a caret. `stage` says what failed:
    "pipeline" (the pass pipeline text), "parse" (the input does not parse),
    "verify" (it parses but the verifier rejects it), "pass", "jit", or
    "crash" (MLIR crashed and the crash was recovered), or "" when unknown.
    """

    def __init__(self, summary: str, diagnostics: Sequence[Diagnostic], rendered: str,
                 stage: str = ""):
        self.summary = summary
        self.stage = stage
        self.diagnostics = list(diagnostics)
        self.rendered = rendered
        errors = [d for d in self.diagnostics if d.severity == "error"] or self.diagnostics
        detail = "\n".join(str(d) for d in errors)
        super().__init__(f"{summary}\n{detail}" if detail else summary)

    @property
    def errors(self) -> List[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]


def _diagnostics(result) -> List[Diagnostic]:
    """The diagnostics of a native PipelineResult."""
    return [Diagnostic(d.severity, d.location, d.message, tuple(d.notes)) for d in result.diagnostics]


def _utf8(text: str, what: str) -> str:
    """`text` if it is valid Unicode for the native side (UTF-8); a lone
    surrogate (from a bad decode, or "\\ud800" typed in) is a short
    ValueError naming `what` and the position, not pybind11's echo of every
    argument."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as err:
        raise ValueError(
            f"{what} holds a lone surrogate {text[err.start]!r} at character {err.start}, which is not "
            "Unicode text (UTF-8 cannot encode it); decode the input with errors='strict' or 'replace'"
        ) from None
    return text


def _normalize_pipeline(pipeline: Union[str, Sequence[str]]) -> str:
    if isinstance(pipeline, str):
        return _utf8(pipeline, "the pass pipeline").strip()
    if isinstance(pipeline, (list, tuple)) and all(isinstance(p, str) for p in pipeline):
        return _utf8(",".join(p.strip() for p in pipeline if p.strip()), "the pass pipeline")
    raise TypeError("pipeline must be a string such as 'canonicalize,cse' or a list of pass strings")


def _text(mlir_text: Union[str, bytes]) -> str:
    if isinstance(mlir_text, bytes):
        try:
            return mlir_text.decode("utf-8")
        except UnicodeDecodeError as err:
            raise ValueError(f"MLIR input bytes are not UTF-8 text ({err}); pass str or UTF-8 bytes") from None
    if not isinstance(mlir_text, str):
        raise TypeError(f"MLIR input must be str or bytes, got {type(mlir_text).__name__}")
    return _utf8(mlir_text, "the MLIR input")


def _input_name(source_name: str) -> str:
    return "the input" if source_name == "<input>" else repr(source_name)


def _summary(stage: str, pipeline_label: str, source_name: str) -> str:
    src = _input_name(source_name)
    return {
        "pipeline": f"{pipeline_label} is invalid",
        "parse": f"{src} does not parse as MLIR",
        "verify": f"{src} parses but is not valid IR (the verifier rejects it)",
        "pass": f"{pipeline_label} failed on {src}",
        "jit": f"JIT compilation of {src} failed",
        "crash": f"MLIR crashed while processing {src}; the crash was recovered",
        "interrupted": f"{pipeline_label} was interrupted",
    }.get(stage, f"{pipeline_label} failed on {src}")


def _forward_output(result) -> None:
    """What the passes printed (reports on stdout, upstream passes' output
    on stderr) goes through Python's sys.stdout / sys.stderr, so that
    redirections and notebooks see it."""
    for data, stream in ((result.stdout, sys.stdout), (result.stderr, sys.stderr)):
        if data and stream is not None:
            stream.write(data.decode("utf-8", "replace"))
            stream.flush()


def _run(mlir_text, pipeline, source_name, capture_output=False, generic=False, locations=False,
         pipeline_label=None, report=False):
    """Runs the native pipeline. The output of the passes is always captured
    natively; it is returned in the result's `stdout`/`stderr` with
    `capture_output`, else written to sys.stdout / sys.stderr. `pipeline_label`
    names the pipeline in error summaries (default: the pipeline text).
    `report=True`: the result's `report` is fp8-report's `Report` of the
    resulting module (default options: chip h200, dynamic GEMMs per token)."""
    text = _text(mlir_text)
    pipe = _normalize_pipeline(pipeline)
    if not isinstance(source_name, str):
        raise TypeError(f"source_name must be a str, got {type(source_name).__name__}")
    _utf8(source_name, "source_name")
    result = _native.run_pipeline(text, pipe, source_name, True, generic, locations, report)
    if not capture_output:
        _forward_output(result)
    if not result.ok:
        label = pipeline_label or f"pass pipeline {pipe!r}"
        raise MLIRError(_summary(result.stage, label, source_name), _diagnostics(result),
                        result.rendered, result.stage)
    return result


def run_pipeline(
    mlir_text: Union[str, bytes],
    pipeline: Union[str, Sequence[str]] = "",
    *,
    source_name: str = "<input>",
    generic: bool = False,
    locations: bool = False,
) -> str:
    """Parse and verify `mlir_text`, run `pipeline`, return the resulting IR.

    `pipeline` is MLIR's textual pass pipeline: either anchored,
    ``"builtin.module(canonicalize,cse)"``, or a bare list nested under the
    module, ``"fp8-pipeline{policy=deepseek-v3},canonicalize"`` (a Python list
    of such strings is joined with commas). An empty pipeline only parses and
    verifies. Every upstream pass and every fp8 pass registered in `fp8-opt`
    is available. `generic=True` prints the generic op form; `locations=True`
    prints each op's location inline (`loc("model.layers.0.mlp.gate")`).

    What the passes print (e.g. `fp8-pipeline`'s report) is written to
    `sys.stdout` / `sys.stderr`.

    Raises `MLIRError` (with `.diagnostics` and `.stage`) when the input does
    not parse or verify, the pipeline does not parse (an invalid option value
    carries its reason), a pass fails, or MLIR crashes (recovered).
    """
    return _run(mlir_text, pipeline, source_name, generic=generic, locations=locations).ir


#: A generated GEMM kernel as its `#fp8.gemm_kernel` says (a read-only
#: object of the native module; fields in `gpu_kernels`).
GemmKernel = _native.GemmKernel
#: A generated quantize kernel as its `#fp8.quantize_kernel` says.
QuantizeKernel = _native.QuantizeKernel
#: The transpose kernel (a layout change between kernels) as its
#: `#fp8.transpose_kernel` says.
TransposeKernel = _native.TransposeKernel
#: fp8-report's report of a module (`CompiledResult.report`): the C++ struct
#: itself, read-only, and a mapping on the keys of fp8-report's JSON.
Report = _native.Report


def gpu_kernels(ir: Union[str, bytes]) -> List[Union[GemmKernel, QuantizeKernel, TransposeKernel]]:
    """The sm_90a kernels of a lowered module, read from their typed
    attributes (never from a symbol name), in module order, each once.

    `ir`: a module after `fp8-lower-to-nvvm`, or after `fp8-gpu-pipeline`
    (`compile(..., target="sm_90a").ir`; the launchers keep each kernel's
    attribute once the kernels are serialized). Returns a `GemmKernel` per
    `#fp8.gemm_kernel`, a `QuantizeKernel` per `#fp8.quantize_kernel` and a
    `TransposeKernel` per `#fp8.transpose_kernel` (after
    `fp8-launch-kernels`), read-only objects whose fields are the
    attribute's (docs in include/fp8/Dialect/FP8/IR/FP8Attrs.td):

    - all: `kind` ("gemm", "quantize" or "transpose"), `symbol` (the kernel's name, for
      humans and to pass back to the emulator: parse nothing out of it),
      `attribute` (the attribute as MLIR prints it);
    - GemmKernel: `m` (None for a run-time M; a group's rows for a masked
      grouped kernel), `n`, `k`; element types as MLIR prints them: `a`,
      `b` ("f8E4M3FN", "f8E5M2"), `d` ("bf16", "f32"), `c` (the
      accumulator operand's, or None), `acc_init` (the BF16 kernels of a
      constant-filled init: the float the accumulators start at, -0.0
      kept, with `c` None; else None), `a_major`, `b_major` ("k" or "mn":
      how A and B lie in memory, K-major or MN-major; the BF16 kernels
      default to A "k" and B "mn", a transposed operand's source read in
      place takes the other; FP8 operands are "k"), `a_heads`, `b_heads`
      (the BF16 batch kernels: 1, or the H heads of an operand read from its
      [B, rows, H, cols] source through a head view), `d_heads` (1, or the
      H heads of a result written as [B, M, H, N]), `a_scale`, `b_scale`;
      `b_scale_rows` (128, or 1 for per-column B scales); `scale_k` (the K
      elements one scale covers: 128, or `k`); `layout` (None,
      "masked", "contiguous"), `groups` (None for the bf16 batch kernel
      of a run-time batch count), `counts`; the tile configuration
      `block_m`, `block_n`, `block_k`, `stages`, `consumers`, `cluster`,
      `multicast`, `group_m`, `swap_ab`, `epilogue` ("store", or
      "quantize": D stored as 1x128-tile FP8 codes and scales, with `q`
      the code type or None, `q_eps`, `q_pow2`); the cost model's
      `chip` (or None), `ctas`, `modelled_us`, `modelled_tflops` (None for
      a run-time M), from the kernel's `#fp8.kernel_model`;
    - QuantizeKernel: `rows` (None for a run-time row count), `cols`,
      `block_rows` (1 or 128), `input` ("f32", "bf16", or FP8 for the
      transpose-requantize kernel), `fp8`, `scale`, `scale_mode` ("f32",
      "pow2"), `eps` (float), `transpose` (bool);
    - TransposeKernel: `bits` (8, 16, 32: the element width it moves),
      `repeat_rows` (each input row written that many times: 1, or 128 for
      a swap-AB GEMM's block scales), `widen_e8m0` (bool: E8M0 scale codes
      in, their f32 values out, `bits` 8).

    Raises TypeError when `ir` is not text, ValueError when it does not
    parse.
    """
    if isinstance(ir, bytes):
        ir = ir.decode("utf-8")
    if not isinstance(ir, str):
        raise TypeError(f"gpu_kernels needs the IR text (str), got {type(ir).__name__}")
    return list(_native.gpu_kernels(_utf8(ir, "the IR")))


def has_pass(name: str) -> bool:
    """True if `name` is a registered pass or pipeline (`fp8-opt --<name>`)."""
    if not isinstance(name, str):
        raise TypeError(f"has_pass needs a pass name (str), got {type(name).__name__}")
    _utf8(name, "the pass name")
    return bool(_native.is_registered_pass(name))


# ---------------------------------------------------------------------------
# compile()
# ---------------------------------------------------------------------------


@dataclasses.dataclass
class CompiledResult:
    """What `compile()` produced.

    - `fp8_ir`: the FP8 graph after `fp8-pipeline` (quantize +
      `fp8.scaled_matmul` for the linears, sensitive ops kept high, every op
      annotated with `fp8.role` / `fp8.precision` / `fp8.reason`);
    - `ir`: the module lowered for `target`: the LLVM dialect for "cpu"
      (`fp8-cpu-pipeline`); for a GPU chip, the FP8 graph plus a
      `gpu.binary` holding one GEMM kernel per distinct scaled_matmul shape
      (`fp8-gpu-pipeline`); with `lower=False`, the FP8 graph itself;
    - `report`: the `fp8-report` of the FP8 graph, a `Report` (each
      contraction and sensitive op with role, precision, reason, shapes,
      FLOPs; totals; the training step; the FP8 ops): the compiler's struct
      bound read-only, its fields as attributes (`report.ops[0].flops`) and
      also read by the keys of `fp8-report{format=json}`
      (`report["ops"][0]["flops"]`, `keys()`, `get()`, `in`, iteration;
      `to_dict()`, `json()`);
    - `report_text`: the same report as the table `fp8-opt` prints;
    - `ptx`: the PTX of the GPU kernels (GPU targets), else None;
    - `kernels`: those kernels as their typed attributes say (GemmKernel,
      QuantizeKernel, TransposeKernel; fields in `gpu_kernels`), in module
      order; empty for "cpu" and `lower=False`;
    - `diagnostics`: the remarks and warnings the passes emitted.
    """

    policy: str
    target: str
    fp8_ir: str
    ir: str
    report: Report
    report_text: str = ""
    ptx: Optional[str] = None
    diagnostics: List[Diagnostic] = dataclasses.field(default_factory=list)

    kernels: List[Union[GemmKernel, QuantizeKernel, TransposeKernel]] = dataclasses.field(
        default_factory=list)


# Pass names of the pipelines compile() runs (fp8-opt --help lists them).
GRAPH_PIPELINE = "fp8-pipeline"
CPU_PIPELINE = "fp8-cpu-pipeline"
GPU_PIPELINE = "fp8-gpu-pipeline"


def _require(names: Sequence[str], feature: str) -> None:
    missing = [n for n in names if not has_pass(n)]
    if missing:
        raise NotImplementedError(
            f"{feature} needs the pass(es) {', '.join(missing)}, which this build of "
            "fp8-mlir does not register"
        )


def _option_value(value: str, what: str) -> str:
    _utf8(value, what)
    if any(c in value for c in " {}\n\"'"):
        raise ValueError(f"{what} {value!r} contains characters a pass option cannot hold")
    return value


def compile(
    mlir_text: Union[str, bytes],
    policy: str = DEFAULT_POLICY,
    target: str = "cpu",
    *,
    overrides: Sequence[str] = (),
    cache_activations: bool = False,
    promotion: str = "policy",
    wgrad_operands: str = "requantize",
    lower: bool = True,
    source_name: str = "<input>",
) -> CompiledResult:
    """Compile a model graph (linalg on tensors, as torch-mlir exports it, or
    TOSA) for FP8 under a precision policy.

    1. `fp8-pipeline{policy=...}`: classify every op's role, keep the
       sensitive ones high, turn the linears into quantize +
       `fp8.scaled_matmul`, optimize;
    2. `fp8-report` of the FP8 graph, collected in-process (`.report`, and
       the text table `.report_text`);
    3. the lowering for `target`: "cpu" (`fp8-cpu-pipeline`, LLVM dialect) or
       a chip such as "sm_90a" (`fp8-gpu-pipeline{chip=...}`; the kernels'
       PTX in `.ptx`).

    `overrides`: "PATTERN:ROLE-or-PRECISION" pairs matched against loc names
    (e.g. "*.experts.*:linear", "lm_head:fp8"), as fp8-assign-precision's
    option.

    `cache_activations=True`: fp8-pipeline's `cache-activations` (a split
    forward returns the FP8 codes and scales of the activations its Wgrads
    read; docs/training.md).

    `promotion`: fp8-pipeline's `promotion` option: "policy" (the
    default: the policy's promote_interval, 128 for deepseek-v3) or "none"
    (every FP8 GEMM promotes its tensor-core partial sum into FP32 once, at
    the end of its K: DeepSeek-V3 §3.3.2's experiment without promotion;
    needs a policy whose scale blocks span the whole K, per-tensor or
    rowwise, else MLIRError).

    `wgrad_operands`: fp8-pipeline's `wgrad-operands` option: how each
    weight gradient's dY and X (1x128 tiles along the tokens) are made:
    "requantize" (the default, DeepSeek-V3 §3.5.2: from the forward's FP8
    codes and scales) or "fresh" (quantized along the tokens from the
    high-precision tensor, as TransformerEngine and torchao do).

    `lower=False` stops after step 2: `ir` is the FP8 graph (`fp8_ir`), for
    a caller that lowers it itself (e.g. `jit()` with its own
    `fp8-cpu-pipeline{...}` options); `target` is then only validated.

    Raises ValueError for an unknown policy or target, MLIRError when the
    input does not parse or a pass fails (with the diagnostics),
    NotImplementedError when this build lacks one of the passes.
    """
    if not isinstance(policy, str) or policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}; expected one of {', '.join(POLICIES)}")
    if not isinstance(target, str) or target not in TARGETS:
        raise ValueError(f"unknown target {target!r}; expected one of {', '.join(TARGETS)}")
    if not isinstance(source_name, str):
        raise TypeError(f"source_name must be a str, got {type(source_name).__name__}")
    if isinstance(overrides, str):
        overrides = [overrides]
    if not isinstance(overrides, (list, tuple)):
        raise TypeError(
            "overrides must be a list of 'PATTERN:ROLE-or-PRECISION' strings "
            f"(e.g. ['lm_head:f32', '*.experts.*:linear']) or (), got {overrides!r}"
        )
    for o in overrides:
        if not isinstance(o, str) or ":" not in o:
            raise ValueError(
                f"overrides: entry {o!r} must be a 'PATTERN:ROLE-or-PRECISION' string "
                "(e.g. 'lm_head:f32')"
            )
        _option_value(o, "overrides: entry")
    if promotion not in PROMOTIONS:
        raise ValueError(f"promotion must be one of {', '.join(PROMOTIONS)}, got {promotion!r}")
    if wgrad_operands not in WGRAD_OPERANDS:
        raise ValueError(f"wgrad_operands must be one of {', '.join(WGRAD_OPERANDS)}, got {wgrad_operands!r}")
    for name, flag in (("cache_activations", cache_activations), ("lower", lower)):
        if not isinstance(flag, bool):
            raise TypeError(f"{name} must be a bool, got {type(flag).__name__}")
    lowering = CPU_PIPELINE if target == "cpu" else GPU_PIPELINE
    _require([GRAPH_PIPELINE] + ([lowering] if lower else []), f"compile(target={target!r})")

    options = [f"policy={policy}", "report=false"]
    if cache_activations:
        options.append("cache-activations=true")
    if promotion != "policy":
        options.append(f"promotion={promotion}")
    if wgrad_operands != "requantize":
        options.append(f"wgrad-operands={wgrad_operands}")
    if overrides:
        options.append("overrides=" + ",".join(overrides))
    # One run: the graph pipeline, then fp8-report's collection on its
    # result. The FP8 graph is printed with its locations so the lowering
    # and the user keep the loc names.
    graph = _run(mlir_text, f"{GRAPH_PIPELINE}{{{' '.join(options)}}}", source_name, locations=True,
                 pipeline_label=f"the FP8 graph pipeline ({GRAPH_PIPELINE}, policy {policy!r})",
                 report=True)
    fp8_ir, report = graph.ir, graph.report
    report_text = report.table()
    if not lower:
        return CompiledResult(policy=policy, target=target, fp8_ir=fp8_ir, ir=fp8_ir, report=report,
                              report_text=report_text, diagnostics=_diagnostics(graph))
    if target == "cpu":
        lowered = _run(fp8_ir, CPU_PIPELINE, source_name,
                       pipeline_label=f"the CPU lowering ({CPU_PIPELINE})")
        ptx, kernels = None, []
    else:
        lowered = _run(fp8_ir, f"{GPU_PIPELINE}{{chip={target}}}", source_name,
                       pipeline_label=f"the GPU lowering ({GPU_PIPELINE}, chip {target})")
        isa = [o for o in lowered.gpu_objects if o.format == "isa"]
        ptx = "\n".join(o.data.decode("utf-8", "replace") for o in isa) or None
        kernels = list(lowered.kernels)
    diags = [d for r in (graph, lowered) for d in _diagnostics(r)]
    return CompiledResult(
        policy=policy,
        target=target,
        fp8_ir=fp8_ir,
        ir=lowered.ir,
        report=report,
        report_text=report_text,
        ptx=ptx,
        diagnostics=diags,
        kernels=kernels,
    )
