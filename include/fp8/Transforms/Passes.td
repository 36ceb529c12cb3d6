//===- Passes.td - fp8 graph passes -------------------------*- tablegen -*-===//
//
// The graph-level passes: classify ops of an exported model graph, decide
// their precision under a policy, insert block-scaled FP8 quantization and
// report what happened. Lowerings live in lib/Conversion.
//
//===----------------------------------------------------------------------===//
#ifndef FP8_TRANSFORMS_PASSES_TD
#define FP8_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def FP8AssignPrecision : Pass<"fp8-assign-precision", "::mlir::ModuleOp"> {
  let summary = "Classify each op's role and decide its precision under a policy";
  let description = [{
    Walks every function of a linalg-on-tensors graph (TOSA graphs: run
    `tosa-to-linalg` first, as `fp8-pipeline` does) and sets three
    discardable attributes on each linalg op it understands:

    - `fp8.role`: `linear`, `embedding`, `output_head`, `gating`,
      `normalization`, `attention` or `other`;
    - `fp8.precision`: `fp8`, `bf16` or `f32`, from the role and the policy;
    - `fp8.reason`: `heuristic: ...` or `override: ...`.

    The policy is stored on the module as `fp8.policy`. Role heuristics
    (DESIGN.md §3.1, docs/policies.md): a contraction of an activation with a
    weight (a function argument, a constant or a global, possibly behind
    transposes, reshapes and broadcasts) is `linear`; a contraction of two
    activations is `attention`, and so are the ops on the paths between
    contractions that feed an attention contraction (softmax, scaling,
    masking, RoPE, head reshapes); a gather from a table is `embedding`; a
    vocabulary-sized linear (N = an embedding table's row count, or
    N >= 32000) whose result reaches a function result is `output_head`; a
    linear with an expert-count N (N <= 512 and 4N <= K) that feeds a
    softmax, sigmoid or top-k is `gating`; reductions ending in `rsqrt`
    (LayerNorm, RMSNorm) and the elementwise ops around them are
    `normalization`.

    Overrides always win over heuristics, in this order: `fp8.role` /
    `fp8.precision` attributes already present on an op, then the
    `overrides` option (first matching pattern wins).

    Precision: `linear` gets `fp8`; a role the policy keeps high gets the
    policy's `high` type (`bf16`) when it is a contraction (its f32 operands
    are cast to bf16 by `fp8-insert-quant`, accumulation stays f32) and
    keeps its own type when that is at least as wide (an f32 LayerNorm
    stays f32); other ops keep their element type.

    A function in which no contraction is recognised is left unchanged, with
    a remark (an error with `strict`).
  }];
  let options = [
    Option<"policy", "policy", "std::string", /*default=*/"\"deepseek-v3\"",
           "Precision policy preset: deepseek-v3, per-tensor, rowwise, mxfp8">,
    ListOption<"overrides", "overrides", "std::string",
           "Comma-separated PATTERN:VALUE pairs; PATTERN is a glob (* and ?) "
           "matched against an op's loc names (whole name or a dot-separated "
           "suffix), VALUE a role (linear, embedding, output_head, gating, "
           "normalization, attention, other) or a precision (fp8, bf16, f32)">,
    Option<"strict", "strict", "bool", /*default=*/"false",
           "Fail (instead of a remark) on a function with no recognised "
           "contraction">
  ];
  let dependentDialects = ["::mlir::fp8::FP8Dialect"];
}

#endif // FP8_TRANSFORMS_PASSES_TD
