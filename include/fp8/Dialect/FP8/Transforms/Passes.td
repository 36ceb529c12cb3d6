//===- Passes.td - fp8 graph passes -------------------------*- tablegen -*-===//
//
// The graph-level passes: classify ops of an exported model graph, decide
// their precision under a policy, insert block-scaled FP8 quantization and
// report what happened. Lowerings live in lib/Conversion.
//
//===----------------------------------------------------------------------===//
#ifndef FP8_DIALECT_FP8_TRANSFORMS_PASSES_TD
#define FP8_DIALECT_FP8_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def FP8ConvertTosaPass : Pass<"fp8-convert-tosa", "::mlir::ModuleOp"> {
  let summary = "Convert TOSA to linalg, only when the module has TOSA ops";
  let description = [{
    Runs tosa-optional-decompositions, tosa-make-broadcastable,
    tosa-to-linalg-named, tosa-to-linalg, tosa-to-arith and tosa-to-tensor
    on every function, but only when the module holds a TOSA op. The
    conversions' greedy drivers fold constants on the whole function (a
    gather from a splat embedding table becomes a constant), which would
    hide ops from fp8-assign-precision on a linalg graph that needed no
    conversion. upstream tosa-to-linalg-pipeline is not used: its validation
    rejects exported graphs the conversions handle (the Qwen block's
    i64 -> f32 tosa.cast).
  }];
}

def FP8NormalizeFormsPass : Pass<"fp8-normalize-forms"> {
  let summary = "Rewrite LLVM 22 linalg forms into the ones the role analysis "
                "recognises (element-wise ops as linalg.generic, contractions "
                "as linalg.matmul / linalg.batch_matmul)";
  let description = [{
    Runs first in `fp8-pipeline` (after `fp8-convert-tosa`), so that the
    forms LLVM 22's linalg and its users write reach `fp8-assign-precision`
    as the forms it classifies:

    - the element-wise named ops (`linalg.elementwise` with any
      `#linalg.elementwise_kind`, and `linalg.add`, `sub`, `mul`, `div`,
      `max`, `min`, `exp`, `log`, `rsqrt`, `square`, `tanh`, ... ) become
      `linalg.generic` (upstream `linalg::generalizeNamedOp`): the
      normalization, attention and fusion analyses read generic bodies;
    - `linalg.softmax` (the named op torch-mlir and IREE may emit) becomes
      upstream's decomposition (as in `fp8-decompose-softmax`,
      `AggregatedOpInterface`: a max reduction,
      the exp of the difference, a sum reduction, a division, as
      `linalg.generic`; its max with `arith.maximumf`, as there): its ops
      get the roles of an exporter's decomposed
      softmax (attention's between QKᵀ and P * V), and `fp8-expand-math`
      reaches its exp (the CPU lowering's own exp, bit-exact);
    - a float contraction the role analysis does not take as a matmul (one
      N and one K loop, operands stored `[batch..., M..., K]` or `[K, M]`
      times `[batch..., N, K]` or `[batch..., K, N]`, result
      `[batch..., M..., N]`) becomes `linalg.matmul` (no batch loop) or
      `linalg.batch_matmul` between `linalg.transpose`,
      `tensor.collapse_shape` and `tensor.expand_shape` ops of its operands
      and result. The loops are grouped: batch and M in the order the left
      operand stores them, K and N in the order of the right one (the
      weight keeps its layout, NT `[N, K]` when it stores N first), so a
      weight is never copied for it. This covers `linalg.vecmat`
      (`[K] x [K, N]`: one token), `linalg.matvec` (`[N, K] x [K]`: the
      vector is the token, the matrix the NT weight, decode's `y = W x`),
      `linalg.batch_reduce_matmul` (`[R, M, K] x [R, K, N] -> [M, N]`: the
      reduced R folded into K), `linalg.contract` with several N or K loops
      (einsum `bsh,hnd->bsnd`: heads split in the weight), an activation
      stored `[batch, K, M]` and a result stored `[N, M]`. Element types are
      kept (a bf16 x bf16 -> f32 contraction stays one); a non-zero init is
      transposed and reshaped like the result, a `linalg.fill` init filled
      again in the new shape.

    A contraction already in a recognised form (`linalg.matmul` with or
    without `indexing_maps` transposes, `linalg.batch_matmul` with or
    without them, `linalg.contract` with matmul maps, contraction-shaped
    `linalg.generic`) is left unchanged, and so are integer contractions
    and generics whose body is not the one linalg.matmul builds (operands
    widened with `arith.extf` or already of the result type, `mulf`,
    `addf`). A matrix-vector
    product over fewer than 128 elements of K (less than one 1x128
    quantization block), or over a run-time K, is kept as it is with a
    remark: a dot product per row (a per-token scalar head, one query
    against one key) is not a linear layer.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def FP8AssignPrecisionPass : Pass<"fp8-assign-precision", "::mlir::ModuleOp"> {
  let summary = "Classify each op's role and decide its precision under a policy";
  let description = [{
    Walks every function of a linalg-on-tensors graph (TOSA graphs: run
    `tosa-to-linalg` first, as `fp8-pipeline` does; LLVM 22 forms such as
    `linalg.matvec`, `linalg.batch_reduce_matmul` or a `linalg.contract`
    with several N loops: run `fp8-normalize-forms` first, as
    `fp8-pipeline` does) and sets three
    discardable attributes on each linalg op it understands:

    - `fp8.role`: `linear`, `embedding`, `output_head`, `gating`,
      `normalization`, `attention` or `other`;
    - `fp8.precision`: `fp8`, `bf16` or `f32`, from the role and the policy;
    - `fp8.reason`: `heuristic: ...` or `override: ...`.

    The policy is stored on the module as `fp8.policy`. Role heuristics
    (docs/design.md §3.1, docs/policies.md): a contraction of an activation with a
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

    Option `promotion` sets the policy's `promote_interval`: `policy` (the
    default) keeps the preset's (128 for deepseek-v3); `none` makes it `?`,
    one promotion per GEMM at the end of its K (DeepSeek-V3 §3.3.2's
    experiment without promotion; fp8-insert-quant gives each
    `fp8.scaled_matmul` its own K). `none` needs a preset whose scale blocks
    span the whole K (per-tensor, rowwise); with another the pass fails
    with the policy verifier's error.

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
    // The description lists PolicyAttr::getPresetNames() by hand (ODS takes
    // no expression there): test/Dialect/FP8/Pipelines/policy-option-help.test
    // checks it against the table.
    Option<"policy", "policy", "std::string",
           /*default=*/"::mlir::fp8::PolicyAttr::getDefaultPresetName().str()",
           "Precision policy preset: deepseek-v3, hybrid, per-tensor, rowwise, "
           "mxfp8, bf16">,
    Option<"promotion", "promotion", "::mlir::fp8::Promotion",
           /*default=*/"::mlir::fp8::Promotion::policy",
           "Where FP8 GEMMs promote their partial sums into FP32: policy "
           "(every promote_interval K elements of the preset) or none (once "
           "per GEMM, at the end of its K)",
           [{::llvm::cl::values(
             clEnumValN(::mlir::fp8::Promotion::policy, "policy",
                        "every promote_interval K elements of the policy"),
             clEnumValN(::mlir::fp8::Promotion::none, "none",
                        "once per GEMM, at the end of its K"))}]>,
    Option<"wgradOperands", "wgrad-operands", "::mlir::fp8::WgradOperands",
           /*default=*/"::mlir::fp8::WgradOperands::requantize",
           "How a weight gradient's dY and X (1x128 tiles along the tokens) "
           "are made: requantize (from the forward's FP8 codes and scales, "
           "DeepSeek-V3 §3.5.2) or fresh (quantized along the tokens from the "
           "high-precision tensor); recorded as the policy's wgrad_operands",
           [{::llvm::cl::values(
             clEnumValN(::mlir::fp8::WgradOperands::requantize, "requantize",
                        "from the forward's FP8 codes and scales"),
             clEnumValN(::mlir::fp8::WgradOperands::fresh, "fresh",
                        "from the high-precision tensor"))}]>,
    ListOption<"overrides", "overrides", "std::string",
           "Comma-separated PATTERN:VALUE pairs; PATTERN is a glob (* and ?) "
           "matched against an op's loc names (whole name or a dot-separated "
           "suffix), VALUE a role (linear, embedding, output_head, gating, "
           "normalization, attention, dispatch, other) or a precision (fp8, "
           "bf16, f32)">,
    Option<"strict", "strict", "bool", /*default=*/"false",
           "Fail (instead of a remark) on a function with no recognised "
           "contraction">
  ];
  let dependentDialects = ["::mlir::fp8::FP8Dialect"];
}

def FP8InsertQuantPass : Pass<"fp8-insert-quant", "::mlir::ModuleOp"> {
  let summary = "Rewrite FP8 linears into fp8.quantize + fp8.scaled_matmul";
  let description = [{
    Every contraction with `fp8.precision = #fp8.precision<fp8>` becomes
    quantize + `fp8.scaled_matmul` under the module's `fp8.policy`
    (without one: the default preset, deepseek-v3):

    - the activation `[..., M, K]` is collapsed to `[M', K]`
      (`tensor.collapse_shape`) and quantized with the policy's activation
      block along K (1x128);
    - the weight is brought to NT layout `[N, K]` (looking through a
      transpose when there is one, else a `linalg.transpose`;
      docs/regression-cases.md case 16: FP8 wgmma has no transpose) and quantized with the weight
      block (128x128);
    - a whole-dimension block (`?`) becomes the dimension's size (1 for an
      empty dimension: blocks are positive);
    - an operand stored K-major in its first dimension (a contraction over
      tokens, as in a weight gradient) is quantized with 128x1 tiles of its
      stored layout and `fp8.requantize`d with permutation [1, 0], so the
      matmul stays NT with 1x128 tiles along K (DeepSeek-V3 §3.5.2);
    - the result is produced in the original result type (f32 or bf16;
      f16 via an f32 result and `arith.truncf`) and expanded back to the
      original shape; a non-zero init becomes the `acc` operand;
    - a grouped linear (one batch dimension G with per-group weights
      `[G, K, N]` or `[G, N, K]`: MoE routed experts) quantizes its stacked
      activations and NT weights once each, collapsed to `[G * rows, K]`
      when the row block divides the rows and viewed back as
      `[G, rows, K]` (`fp8.disassemble`, `tensor.expand_shape`,
      `fp8.assemble`; else quantized as `[G, rows, K]`), with blocks
      `[1, b0, b1]`: no block spans two groups. Then ONE
      `fp8.grouped_scaled_matmul` in the masked layout (no counts: every
      row valid; a non-zero init is its accumulator) for all groups: one
      GEMM launch per projection on the GPU, one GEMM body in a loop on the
      CPU, whatever the expert count (DeepSeek-V3 routes over 256).

    Contractions kept in `bf16` while their operands are f32 (attention,
    output head, gating in an f32 graph) get `arith.truncf` casts on their
    inputs and keep f32 accumulation. Role/precision/reason attributes move
    to the new ops. The token dimensions may be dynamic (M is a run-time
    value: `!fp8.scaled<?xK...>`); the weight's N and K must be static. A
    linear the pass cannot rewrite (a dynamic N or K, integer operands, an
    unsupported indexing form) stays as it is, with a remark (an error with
    `strict`), and its `fp8.precision` becomes its own type
    (`fp8.reason` says why), so fp8-report never counts it as FP8.
  }];
  let options = [
    Option<"strict", "strict", "bool", /*default=*/"false",
           "Fail (instead of a remark) on an FP8 linear that cannot be rewritten">
  ];
  let dependentDialects = ["::mlir::fp8::FP8Dialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
}

def FP8CacheActivationsPass
    : Pass<"fp8-cache-activations", "::mlir::ModuleOp"> {
  let summary = "Return the FP8 codes and scales of the activations the "
                "weight gradients read from a split forward (after "
                "fp8-insert-quant)";
  let description = [{
    FP8 activation caching (DeepSeek-V3 §3.3.3) in the split form of a
    training step: a forward function returns the activations X its
    backward's weight gradients (Wgrads) read. After `fp8-insert-quant`
    the forward quantizes X for its Fprop (1x128 tiles along the features)
    and the backward quantizes the argument again for the Wgrad (128x1
    tiles of the stored [T, F] layout). This pass makes the forward return
    the Fprop's quantization instead, as two results (`fp8.disassemble`:
    codes, then scales; the codes' result attribute `fp8.cached` holds the
    high-precision type they replace), and the backward take the two tensors
    (`fp8.assemble`) and requantize them for the Wgrad
    (`fp8.requantize` into the layout the backward's quantization had, with
    its eps, scale mode and saturation): the numbers of the joint graph,
    which requantizes the Fprop's X (§3.5.2), bit for bit.

    Which forward result feeds which backward argument (the linkage):

    - the data flow through a caller in the module: `%r = func.call @fwd`
      and `func.call @bwd(..., %r#i, ...)` link result i of @fwd to that
      argument of @bwd;
    - for modules without a caller, a string argument/result attribute
      `fp8.saved = "NAME"`: the result of one function and the arguments
      of others with the same NAME (error: a NAME on two results, an
      argument whose NAME no result has, or of another type).

    A linked activation is cached when every use of the backward argument
    is an `fp8.quantize` (only Wgrads read it) and the forward quantizes
    the value it returns in the block of its return. Otherwise, when a
    backward quantizes it, it stays high with a remark naming why: the
    backward also reads it in high precision (a ReLU mask; bit-exactness
    needs the exact values), the forward does not quantize it, or a call
    does not pass it straight from the forward to the backward. Arguments
    no Wgrad reads (norm statistics, attention's probabilities) are left
    alone. The calls of the rewritten functions are rebuilt with the new
    signatures. `fp8-pipeline{cache-activations=true}` runs it right
    after `fp8-insert-quant` (default off); `fp8-report` then measures
    the cached bytes from the forward's results.
  }];
  let dependentDialects = ["::mlir::fp8::FP8Dialect",
                           "::mlir::func::FuncDialect"];
}

def FP8ReportPass : Pass<"fp8-report", "::mlir::ModuleOp"> {
  let summary = "Print a table (or JSON) of the precision decisions and FLOP shares";
  let description = [{
    Lists every contraction and every op of a sensitive role (embedding,
    output head, gating, normalization, attention) that carries `fp8.role`:
    role, precision, reason, shapes, FLOPs (2*M*N*K for a contraction, one
    per output element otherwise). An op inside loops with static trip
    counts counts once per iteration: its FLOPs and weight bytes are
    totals, the table shows "<count> x MxNxK" and the JSON its `count`. An
    `fp8.grouped_scaled_matmul` is one GEMM ("G groups x MxNxK" of one
    group, JSON `groups`) whose FLOPs and weight bytes cover all G groups
    (every row counted valid). A GEMM whose token dimension M is dynamic
    is reported per token (`2*N*K` FLOP per row of M, `?` in its shape),
    or at `tokens=T` rows when given. Totals: the share of matmul FLOPs in
    FP8 (for dynamic GEMMs without `tokens`, the per-token share),
    and weight bytes before (original element type) and after (FP8 codes +
    scales), counted once per linear layer. Works before and after
    `fp8-insert-quant`. The IR is not changed.

    The JSON gives every FP8 GEMM of static N and K (M static, or `tokens`)
    a `kernel_config`: the sm_90a kernel configuration the cost model of
    docs/gpu-kernel.md chooses on `chip` (what `fp8-lower-to-nvvm
    config=auto device=<chip>` builds): `block_m`, `block_n`, `block_k`,
    `stages`, `cluster` (1), `consumers`, `group_m` (the tile order's group
    of tile rows, 1: row-major), `ctas`, `waves`, `modelled_us`,
    `modelled_tflops`, `hbm_bytes`, `why_fewer_ctas` (empty when every SM
    gets a CTA); null for other rows.
  }];
  let options = [
    Option<"format", "format", "std::string", /*default=*/"\"table\"",
           "Output format: table or json">,
    Option<"output", "output", "std::string", /*default=*/"\"-\"",
           "Output file ('-' = stdout)">,
    Option<"tokens", "tokens", "int64_t", /*default=*/"0",
           "Token count (the run-time M) at which GEMMs with a dynamic token "
           "dimension are evaluated; 0: report them per token">,
    Option<"chip", "chip", "std::string", /*default=*/"\"h200\"",
           "Chip of the GEMM cost model (kernel_config in the JSON): h200 or "
           "h100-sxm">
  ];
  // The report falls back to the default preset (an #fp8.policy) when
  // the module has none: the dialect must be loaded even for plain input.
  let dependentDialects = ["::mlir::fp8::FP8Dialect"];
}

def FP8FoldConstantWeightsPass : Pass<"fp8-fold-constant-weights"> {
  let summary = "Quantize constant weights at compile time";
  let description = [{
    Every `fp8.quantize` whose input is an `arith.constant` (possibly behind
    `tensor.expand_shape`, `tensor.collapse_shape` and `linalg.transpose`,
    as fp8-insert-quant leaves a weight stored [K, N]) becomes
    `fp8.assemble` of two constants: the FP8 codes and the block scales.

    The values are computed by the same operation sequence as the runtime
    lowering (`HostQuantizer` in fp8/Dialect/FP8/Utils/FP8Arith.h evaluates
    the builders' template on the host), so the folded constants are byte
    for byte what `fp8-lower-to-linalg` computes at run time, for every
    input including NaN, -0, subnormals and saturation, both formats and
    f32 / pow2 / E8M0 scales (docs/design.md §1).

    Splat constants (exported graphs with elided weights) fold to splats
    whatever their size; dense constants fold up to `max-elements`
    elements, which bounds compile time and memory (each folded weight is
    kept in the context: about 1.25 bytes per element for E4M3 codes and
    f32 scales). `dense_resource` blobs are left alone, as are dynamic
    shapes.
  }];
  let options = [
    Option<"maxElements", "max-elements", "int64_t",
           /*default=*/"int64_t(1) << 24",
           "Largest dense constant quantized at compile time, in elements "
           "(splats: any size)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::fp8::FP8Dialect"];
}

def FP8StripAnnotationsPass : Pass<"fp8-strip-annotations", "::mlir::ModuleOp"> {
  let summary = "Remove the fp8.role/precision/reason/policy annotations";
  let description = [{
    Drops the discardable attributes of fp8-assign-precision (`fp8.role`,
    `fp8.precision`, `fp8.reason` on ops, `fp8.policy` on the module). The
    lowering pipelines run it last, so a fully lowered module no longer
    refers to the fp8 dialect and parses in tools that do not register it
    (mlir-runner, mlir-translate).
  }];
}

def FP8UnshareDestinationsPass : Pass<"fp8-unshare-destinations"> {
  let summary = "Give each use of a tensor.empty, or of a linalg.fill of "
                "one, its own copy (before one-shot bufferization)";
  let description = [{
    CSE merges the identical `tensor.empty` ops of a model, and the
    identical zero `linalg.fill`s of them, into one value used as the
    destination (`outs`) of thousands of ops: one per layer and
    projection. One-shot bufferization's in-place analysis (MLIR 22)
    compares the uses of a buffer pairwise, so one such value costs time
    quadratic in the number of layers; and all but one of its users would
    copy it. This pass clones the op for every use but one (the clones
    sit next to the original, so they dominate every use; a cloned fill
    gets its own cloned empty), so every destination is its own buffer, as
    before CSE. Linear in the number of uses; values are
    unchanged. `fp8-cpu-pipeline` runs it right before bufferization.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def FP8DecomposeSoftmaxPass : Pass<"fp8-decompose-softmax"> {
  let summary = "Decompose linalg.softmax into upstream's linalg.generic ops";
  let description = [{
    `linalg.softmax` (the named op torch-mlir and IREE may emit) has no
    lowering of its own past bufferization: a graph handed to
    `fp8-cpu-pipeline` or `fp8-gpu-pipeline` without `fp8-pipeline` (whose
    `fp8-normalize-forms` decomposes it) kept the op, on memrefs, in the
    "lowered" LLVM-dialect module. This pass, first in both lowering
    pipelines, replaces each `linalg.softmax` on tensors by upstream's
    decomposition (`AggregatedOpInterface`: a max reduction, the exp of the
    difference, a sum reduction, a division, as `linalg.generic`), the same
    rewrite as `fp8-normalize-forms`, so that `fp8-split-reductions` orders
    its sums and `fp8-expand-math` reaches its exp like those of any other
    softmax (docs/numerics.md: the same bits on the CPU and the GPU).
    Upstream's row max combines with `arith.maxnumf` from a NaN start; the
    rewrite makes it `arith.maximumf` from -inf, the row max that
    `fp8-split-reductions{row-kernels}` marks for the GPU's warp-per-row
    kernel (otherwise one thread per row). No output of the softmax
    changes: a row holding a NaN is NaN everywhere under either max (its
    exps, hence its sum, are NaN), and a zero maximum's sign changes only
    a zero element's difference, whose exp is 1 either way.

    Errors: a `linalg.softmax` on memrefs ("linalg.softmax on buffers is
    not supported: pass tensors"); a decomposition upstream refuses.
  }];
}

def FP8FoldRotateHalfPass : Pass<"fp8-fold-rotate-half"> {
  let summary = "Rewrite RoPE's rotate_half (a concatenation of the two "
                "swapped halves of a tensor) into one element-wise op";
  let description = [{
    HF's `rotate_half(x) = cat(-x[..., D/2:], x[..., :D/2])` (and its
    transpose in RoPE's backward, `cat(u[..., D/2:], -u[..., :D/2])`) comes
    to linalg as two `tensor.extract_slice` of x, an element-wise
    `linalg.generic` on one or both halves, and two `tensor.insert_slice`
    into a fresh tensor. Bufferized, that is a kernel for the negated half
    (written in place into the concatenation) and a copy for the other:
    two passes over the data, and the products of RoPE read the
    concatenation back. This pass rewrites the concatenation into one
    `linalg.generic` over the whole tensor [..., D] that reads x through the
    indexing map `(..., d) -> (..., (d + D/2) mod D)` (the other half's
    element) and yields `select(d < D/2, f(x'), g(x'))`, f and g the bodies of
    the halves' ops (or nothing for a plain slice), cloned: an element-wise
    op that fp8-fuse-elementwise fuses with RoPE's products and with the
    head transposes around them.

    The rewrite takes `insert_slice(b, insert_slice(a, dest))` when

    - both inserts write a half of the last dimension (static shapes, unit
      strides, offsets 0 but the last, which is 0 or D/2, D even), the two
      halves distinct: together they cover the result, whose destination is
      never read;
    - each inserted value is a `tensor.extract_slice` of one tensor x of the
      result's shape, a half of its last dimension, or an element-wise
      `linalg.generic` of one use on such a slice (identity maps, parallel
      iterators, pure body ops that neither read the output nor use
      `linalg.index`, no `fp8.*` decision);
    - both slices are of the same x and each reads the half the other is
      written to (a rotation by D/2).

    Anything else (different sizes, different sources, halves not swapped,
    an offset other than 0 or D/2) is left alone.

    Values are unchanged, bit for bit: every element goes through the ops its
    half applied before (the other half's ops are computed too and
    discarded by the select; they are pure). It runs in both pipelines,
    before fp8-fuse-elementwise.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
}

def FP8FuseElementwisePass : Pass<"fp8-fuse-elementwise"> {
  let summary = "Fuse chains of element-wise linalg.generic ops on tensors "
                "into one op each (before the host kernels)";
  let description = [{
    A training step's high-precision side is mostly element-wise: SwiGLU's
    SiLU and product, RoPE's rotations, residual adds, the bf16/f32 casts
    around them, the expanded `exp`/`rsqrt` of fp8-expand-math. Each op is
    one `linalg.generic`, so under `fp8-gpu-pipeline{host=llvm}` each was one
    host-kernel launch that writes its whole result to device memory for
    the next op to read back. This pass fuses a producer into its consumer
    with upstream's element-wise fusion (`linalg::fuseElementwiseOps`: the
    producer's body inlined into the consumer's), when

    - both are `linalg.generic` on tensors with only parallel iterators,
      neither carrying an `fp8.*` attribute (a decision such as
      `fp8.reduction_lanes` that a rebuilt op would lose);
    - the producer's result has one use, this operand, and the consumer
      reads it at its own iteration (an indexing map that is a
      permutation, or whose results are distinct loop dimensions some of
      which rotated, `(d + c) mod N` with N the range of d: RoPE's read of
      the other half from fp8-fold-rotate-half, each element once): a
      broadcast operand (a per-row value read along the
      row) would recompute each produced element many times, and a
      producer with other users would be computed twice.

    Fusion repeats until no pair is left, so a chain becomes one op.

    The head permutations around RoPE join it (RopeLayouts.h): Q's and K's
    `collapse_shape(transpose(x))` ([B, S, H, D] -> [B * H, S, D]) read by
    RoPE's rotation becomes a generic reading x through the delinearized
    index (`(i floordiv H, s, i mod H, d)`), and dQ's and dK's
    `transpose(expand_shape(y))` back to [B, S, H, D], y the result of RoPE's
    backward used only there, a generic reading y through the linearized
    index (`(b * H + h, s, d)`): both fused with RoPE, which then reads its
    input, or writes its result, in the layout of the projection (a
    linearization of distinct loop dimensions reads each element once).
    Other permutations stay transposes (the tiled transpose kernels).

    Values are unchanged, bit for bit: every element goes through the same
    arith and math ops in the same order (the bf16 rounding of a stored
    intermediate is an explicit `arith.truncf` in the producer's body, kept),
    and neither lowering contracts separate multiplies and adds (the host's
    LLVM lowering has no contraction flags; the kernels' PTX uses
    `mul.rn.f32`/`add.rn.f32`, which ptxas does not fuse: docs/numerics.md,
    "Host kernels"). `fp8-gpu-pipeline{host=llvm}` runs it with its host
    kernels, after fp8-expand-math and before bufferization.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def FP8SplitReductionsPass : Pass<"fp8-split-reductions"> {
  let summary = "Sum each row reduction in the lane order of a warp: "
                "lane-strided partial sums, then a fixed halving tree";
  let description = [{
    The float sums of the high-precision ops (RMSNorm's sum of squares,
    softmax's sum, the loss) get one reduction order that a GPU row
    kernel runs in parallel and the CPU runs as loops, so both compute
    the same bits by construction (docs/numerics.md, "Reduction order").
    A linalg op on tensors (named ops are generalized) is split when:

    - it has one init, one reduction iterator `r` and the body yields
      `arith.addf` of the init's block argument (used by nothing else)
      and a value computed from the inputs: a sum;
    - `r` has a static size N >= `lanes` (a shorter row keeps the
      sequential order: a lane would hold at most one element);
    - every input that reads `r` reads it as a plain dimension in one
      result (of static size), and one of them reads every parallel
      iterator too: a row of the output's own index space, or a column
      when `r` is not the innermost dimension (RMSNorm's weight gradient,
      summed over the tokens: the same split along that dimension; its
      partial sums iterate the lane outermost, so that a GPU's threads
      over them read consecutive columns). Contractions (an input
      broadcast along a parallel iterator: matmuls) are left alone: the
      tensor-core kernels fix their order;
    - the output map is a projected permutation.

    The op becomes (1) partial sums into `[..., lanes]`, started at `-0.0`
    (the identity of the float addition), with the original body: with V =
    `vector` and N = q lanes V + s lanes + t (0 <= s lanes + t < lanes V,
    0 <= t < lanes), (1a) when V > 1 and q > 0, the rows' first q lanes V
    elements expanded to `[..., q, lanes, V]` (`tensor.expand_shape` of a
    `tensor.extract_slice`), lane `l` adding elements `(j lanes + l) V + v`
    for j = 0 .. q - 1 and, within each, v = 0 .. V - 1 (the lane parallel,
    j and v reductions, v innermost); (1b) the next s lanes elements
    expanded to `[..., s, lanes]`, lane `l` adding `q lanes V + j lanes + l`
    in increasing j (all of the row when V = 1); (1c) when t > 0, lane
    `l < t` adding element `q lanes V + s lanes + l` last (an all-parallel
    generic over the tail slices, inserted into the first t lanes). Column
    sums use V = 1 (no lane reads a contiguous run of a column). (2) a
    halving tree: `q[..., i] = p[..., i] + p[..., i + h]` for `h = lanes /
    2, ..., 2`; (3) the last level and the init: `out = init + (q[..., 0] +
    q[..., 1])`, with the init on the side of the addition where the body
    had its accumulator. Max and min reductions and everything else are
    left as they are.

    With `row-kernels` (fp8-gpu-pipeline with host kernels) a sum the GPU
    row kernel takes (a row, not a column: a warp's lanes would read one
    column; static shapes, an f32 sum, f32/bf16/f16 or i8..i64
    operands (the target ids of the cross-entropy's pick), a
    body of arith ops without fast-math flags and of the math ops
    fp8-expand-math expands) is not split here: it stays one
    `linalg.generic` (named ops are generalized) carrying
    `fp8.reduction_lanes = lanes : i64` and `fp8.reduction_vector = V :
    i64`, which fp8-outline-host-kernels lowers to one warp-per-row kernel
    computing the same additions in the same order (lane `l` the partial
    sum `l`, each vector step one aligned vector load where the buffer
    allows, the halving tree as
    `shfl.sync.bfly`, then the init). The other sums are split as above.
    A row max (the body yields `arith.maximumf` of the accumulator, under
    the same conditions) is marked too: `maximumf` gives the same result
    in any order. Without `row-kernels` maxima are left alone.
    A column sum under the same conditions (32 lanes, static shapes, an f32
    sum, operands and body the host kernels take) is not split either: it
    stays one `linalg.generic` carrying `fp8.column_lanes = lanes : i64`,
    which fp8-outline-host-kernels lowers to one launch whose CTAs run the
    lanes of 8 columns and the halving tree through shared memory, the same
    additions in the same order as the split (V = 1). It joins no row
    group; a group whose value it reads ends at it.

    With `row-kernels`, each marked sum (or max) whose init map is its
    parallel iterators in order also gathers the elementwise ops after it
    in its block that consume its per-row result: a `linalg.generic` using
    a value of the group joins it when it has only parallel iterators, one
    tensor output indexed by the identity whose initial value its body does
    not read, the sum's loop ranges (an elementwise op over the R x N
    elements) or its parallel ranges (a per-row op over the R rows),
    operands and a body the host kernels take (static shapes; f32, bf16,
    f16 or i8..i64 tensors; f32, integer or index scalars; arith and the
    math ops fp8-expand-math expands), and reads the group's per-row values
    by the sum's init map (elementwise) or the identity (per-row), the
    group's elementwise values by the identity, and other tensors anyhow
    (elementwise) or by the identity (per-row). The group ends at the
    first op using it that cannot join, or at an op between that may
    touch memory once bufferized (anything but a `tensor.empty`, a
    constant, scalar ops without memory effects and allocations: a
    `tensor.extract` is a load, a reshape or slice may be a copy). A
    group of the sum and at least one such op is marked `fp8.row_group =
    <id> : i64` on each (ids from 0 in the order of the sums);
    fp8-outline-host-kernels computes it in the row kernel's launch
    (docs/gpu-kernel.md, "Host kernels"). Each linalg op using a group's
    value that is in no group and no row kernel gets `remark: not fused
    into the row kernel of its operand (fp8-split-reductions): <why>`.

    A group also takes the element-wise producers of its sum: an
    all-parallel `linalg.generic` before the sum in its block whose result
    the sum reads by the identity, of an elementwise member's shape and
    kernel conditions, with nothing but constants, `tensor.empty` and the
    fill of the sum's init between (that fill moves before it); a refused
    all-parallel candidate gets `remark: not fused into the row kernel of
    its consumer (fp8-split-reductions): <why>`. And a chained reduction:
    a marked row reduction using the group's values with the sum's loop
    ranges, reduction dimension and init map, reading the group's
    elementwise values by the identity, none of its per-row values, its
    init no group value; the fill of its init between (a `linalg.fill`
    whose operands are defined before the group or are operand-less
    constants and `tensor.empty` ops) moves before the group's first op,
    and if the reduction does not join, the group ends at that fill as
    before. A marked reduction using a group's value that is not in that
    group gets `remark: not chained into the row kernel of its operand
    (fp8-split-reductions): <why>`. The row kernel then computes the
    producers, the sum, its consumers, the chained reduction over the
    elements each lane stored itself (no barrier) and its consumers in
    one launch, in the CPU's order of additions.

    Consumers after the group's end move into it: after the group is
    grown, each `linalg.generic` of the block after its last op that uses
    a value of the group, is not marked, would join it as a member (the
    conditions above), is a per-row op or an elementwise op reading an
    element value of the group (not a broadcast of its per-row values
    alone, which fp8-fuse-elementwise may compute inside its readers) and
    whose output init is a `tensor.empty`, moves to
    just after the group's last op and joins it, when every value it uses
    (operands, and values its body uses from above) is defined before that
    point or by an operand-less `tensor.empty` or constant after it (those
    move with it). On tensors the move changes no value: the op reads only
    values defined before its new place, and no op it passes uses its
    result. The cross-entropy's gradient `(softmax - onehot) / T`, written
    after the target pick (a gather) and the loss (a reduction over the
    rows), which end the log-sum-exp's group, and its conversion to bf16
    then run in the log-sum-exp's row kernel; a consumer using a value
    defined after the group's end (the fill or load that ended it) stays
    and says why as before.
  }];
  let options = [
    Option<"lanes", "lanes", "unsigned", /*default=*/"32",
           "Lanes of the partial sums (a power of two >= 2): a warp's "
           "threads">,
    Option<"vector", "vector", "unsigned", /*default=*/"4",
           "Consecutive elements a lane adds per step of a row sum (a power "
           "of two in [1, 16]; 1: lane-strided; column sums use 1): one "
           "vector load per lane and step in the row kernel">,
    Option<"rowKernels", "row-kernels", "bool", /*default=*/"false",
           "Mark the sums a GPU row kernel takes with fp8.reduction_lanes "
           "instead of splitting them into partial sums and a tree">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def FP8ConstantGlobalsPass : Pass<"fp8-constant-globals", "::mlir::ModuleOp"> {
  let summary = "Create the memref.global of each tensor constant in module "
                "order (before one-shot bufferization)";
  let description = [{
    One-shot bufferization (MLIR 22) replaces each tensor `arith.constant`
    by a `memref.get_global` of a `memref.global` it creates on first use
    (`bufferization::getGlobalFor`: named `__constant_<shape>`, `_0`, `_1`,
    ... on a clash, reused for an equal value), in the order it visits the
    functions, which comes from a map keyed by pointers: the globals' order
    and names changed from run to run. This pass creates them first, with
    the same function, in the order the constants appear in the module,
    after any globals already at the module's start; bufferization then
    finds and reuses them, so the output is the same on every run.
    `alignment` must be one-shot bufferization's `buffer-alignment` (64
    unless set). `fp8-cpu-pipeline` runs it right before bufferization.
  }];
  let options = [
    Option<"alignment", "alignment", "uint64_t", /*default=*/"64",
           "Alignment of the globals (one-shot-bufferize's buffer-alignment)">,
  ];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def FP8VectorizeContractionsPass : Pass<"fp8-vectorize-contractions"> {
  let summary = "Tile and vectorise the high-precision linalg.matmul and "
                "linalg.batch_matmul ops (CPU lowering, on tensors)";
  let description = [{
    What `fp8-insert-quant` leaves in high precision (attention's batch
    matmuls, an output head, every linear of an f32 or bf16 graph) is
    lowered by `convert-linalg-to-loops` to scalar loops, about 3 ns per
    multiply-add on the JIT: in a training step these dominate once the
    linears run in FP8. This pass tiles each static `linalg.matmul` /
    `linalg.batch_matmul` with an f32 result into MR x NR x 1 tiles (MR
    the largest of 16, 8, 4, 2, 1 dividing M, NR the largest of 32, 16, 8
    dividing N; ops with no such NR stay as they are), vectorises each
    tile (operands widened to f32 by the vectorizer, as the op's body
    does) and lowers the contraction to outer products, i.e. one
    `vector.fma` per row of the tile and k: the accumulation order over k
    is the loops', each step fused (one rounding instead of two).
    `fp8-cpu-pipeline{vectorize-contractions=true}` runs it before
    bufferization (and lowers the remaining vector transfers and
    `ub.poison` for it).
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::tensor::TensorDialect"];
}

def FP8VerifyDynamicShapesPass : Pass<"fp8-verify-dynamic-shapes"> {
  let summary = "Check at run time that the dynamic sizes of the operands "
                "of each linalg op and fp8 matmul agree (cf.assert)";
  let description = [{
    An op whose operands have dynamic sizes trusts them: a `linalg.matmul`
    whose C has another run-time M than A, a `linalg.generic` whose output
    is shorter than its input, an `fp8.scaled_matmul` whose A and B have
    different run-time K read and write out of bounds once lowered, or
    compute garbage. This pass inserts `cf.assert`s before such ops:

    - every linalg structured op with a dynamic operand size gets upstream's
      run-time checks (`RuntimeVerifiableOpInterface`, implemented for
      linalg in MLIR's Linalg/Transforms/RuntimeOpVerification.cpp): the
      loop ranges come from the first operand that sizes each loop, and
      every dimension of every operand is compared with the range its
      indexing map implies (equal for a plain loop index, at most the
      operand's size for a compound expression; no check when a loop is
      empty: no iteration touches memory). Message: `<op> at <location>:
      dimension #d of input/output operand #o is incompatible with inferred
      dimension size` (operands numbered ins first, then outs). An op whose
      sizes `ValueBoundsOpInterface` proves equal (an output `tensor.empty`
      sized by `tensor.dim` of the input, as the fp8 lowerings and
      `convert-elementwise-to-linalg` build them) gets none: upstream's
      checks would not fold away there.
    - `fp8.scaled_matmul` and `fp8.grouped_scaled_matmul`: the extents
      their operands share (M of A, C and a static result; N of B and C;
      K of A and B; G, and the rows of `counts` / `group_ids`), compared
      where one side is dynamic. Message: `fp8.scaled_matmul at
      <location>: the K of a (dimension 1) and of b (dimension 1) differ at
      run time`.

    Ops with static shapes only are left alone (the verifiers compared
    them). A failed `cf.assert` prints its message and aborts (non-zero
    exit; in Python's JIT an MLIRError). Cost: a few integer compares per
    execution of each checked op (about four per operand dimension for a
    linalg op, one per shared extent for an fp8 matmul). Upstream's
    `generate-runtime-verification` is not used: it would also check every
    memref load and store. `fp8-cpu-pipeline` runs it on tensors before the
    fp8 ops are lowered (option `verify-shapes`, on by default).
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::cf::ControlFlowDialect",
                           "::mlir::fp8::FP8Dialect",
                           "::mlir::index::IndexDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::tensor::TensorDialect"];
}

def FP8GuardGathersPass : Pass<"fp8-guard-gathers"> {
  let summary = "Turn a gather's out-of-range index into a NaN result and "
                "drop a scatter's out-of-range update, instead of an "
                "out-of-bounds read or write";
  let description = [{
    A gather is a `tensor.extract %table[%i, ...]` in the body of a
    `linalg.generic` whose index is computed from loaded data: from a block
    argument of the body (an element of an input, e.g. a token id), from
    another value read in the body (a `tensor.extract` of a captured ids
    tensor: any op reading a tensor but `tensor.dim`), or from a value
    defined outside the generic that depends on loaded data the same way
    (an id extracted before it), as torch-mlir lowers `aten.embedding`
    (`%i = arith.index_cast %id : i64 to index`). Once lowered, an id
    outside `[0, rows)` reads outside the table: undefined on the CPU (a
    crash or garbage), a fault in the emulator, garbage on a GPU. Indices
    computed only from `linalg.index`, constants, sizes, function
    arguments and loop induction variables are the program's own and are
    left alone.

    For every such data-dependent index `%i` of dimension `d` (any table
    rank, static or dynamic sizes: `tensor.dim` for a dynamic one):

        %ok   = arith.cmpi ult, %i, <size of dimension d> : index
        %safe = arith.select %ok, %i, %c0 : index

    and the extract reads at `%safe` (row 0: in bounds for a non-empty
    table). The compare is unsigned, so a negative id (-1 is 2^64 - 1 as an
    index) is out of range too. A float result of a type with a NaN (f64,
    f32, f16, bf16, f8E4M3FN, f8E5M2, ...) becomes `arith.select %all_ok, %value, NaN` (`%all_ok` the `and`
    of the new compares): an out-of-range id gives a NaN element, so a
    NaN row of an embedding and a NaN loss, never a silent number. An
    in-range read is unchanged bit for bit. A result type without NaN
    (integers, index, float types without one
    such as f4E2M1FN) is clamped only: an
    out-of-range id reads element 0 of that dimension, and the pass emits
    a remark saying so on the extract.

    An index already guarded this way (after `arith.index_cast`s, an
    `arith.select %ok, %x, 0` whose `%ok` is `arith.cmpi ult, %x, %bound`
    with `%bound` a constant no larger than the dimension, or its
    `tensor.dim`), as this pass or a graph by hand writes it, is left
    alone, so running the pass twice changes nothing.

    Writes, and reads outside linalg bodies. The same pass guards the
    tensor ops outside linalg bodies whose offsets or indices depend on
    loaded data: `tensor.insert_slice`, `tensor.insert` (writes: a
    scatter) and `tensor.extract_slice`, `tensor.extract` (reads). There
    an offset is data-dependent when it is computed from an element read
    from a tensor or memory (`tensor.extract`, `memref.load`), a
    loop-carried value or any other block argument; loop induction
    variables, function arguments, constants and `tensor.dim` (through
    pure ops) are the program's own. This is the embedding gradient of
    `fp8_mlir.training` (aten.embedding_dense_backward's accumulating
    index_put): an `scf.for` over the T tokens whose body extracts the
    token id from `%tokens : tensor<Txi64>`, casts it to index and adds
    the token's gradient row into row `%row` of the `[vocab, h]`
    accumulator (`tensor.extract_slice %acc[%row, 0] [1, h] [1, 1]`, a
    `linalg.generic` adding, `tensor.insert_slice` at the same place).

    An offset `%o` of dimension `d`, for a slice of `n` elements `s`
    apart (constants), is in range when, unsigned,

        %ok = arith.cmpi ule, %o, <size - 1 - (n - 1) * s> : index

    (`offset <= size - n` for stride 1; a negative id is a huge index, out
    of range; a slice that never fits compares with `false`; a dynamic
    size uses `tensor.dim` and an `ult` compare with
    `select(span ult size, size - span, 0)`), and the op uses
    `select(%ok, %o, 0)`: always in bounds. The semantics are JAX's
    default scatter mode FILL_OR_DROP:

    - an update at an out-of-range offset is DROPPED: the destination is
      unchanged. In the read-modify-write form (the inserted value a
      `linalg.generic` result whose init is an `extract_slice` of the
      same destination with the same offsets, sizes and strides, as the
      embedding gradient's) the read and the write use the clamped offset
      and the generic yields `select(%ok, update, old)`: the loop body
      stays free of regions (the GPU host lowering's loop kernel takes
      it) and bufferizes in place. Any other `insert_slice` runs under
      `scf.if %ok` (else the destination); a `tensor.insert` writes back
      the element it reads at the clamped index. In-range updates keep
      their bits;
    - a read at an out-of-range offset is clamped: `tensor.extract` gives
      NaN for a float with NaN (as a gather's) and element 0 otherwise
      (remark); an `extract_slice` that no guarded write reads back reads
      at offset 0 and the pass emits a remark saying so (a slice is not
      filled with NaN).

    An offset already guarded (the forms above, or a gather's `ult`
    guard for a one-element access) is left alone: idempotent. A
    data-dependent offset of a slice with a dynamic size or stride (or a
    stride below 1) cannot be bounded: the pass fails with an error
    naming the dimension. Not guarded: `tensor.parallel_insert_slice`,
    memref ops (the pass runs on tensors, before bufferization).

    `fp8-cpu-pipeline` and `fp8-gpu-pipeline` run it first. Cost: one
    compare and one select per guarded index, one select per float
    result, in the gather's body; for a guarded scatter row one compare
    and select per iteration and one select per element of the row.
    Source for the scatter semantics: JAX, `jax.lax.GatherScatterMode`
    (FILL_OR_DROP: out-of-bounds gathers fill, out-of-bounds scatter
    updates are dropped).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
}

def FP8ResolveExpandShapesPass : Pass<"fp8-resolve-expand-shapes"> {
  let summary = "Write the memref.expand_shape ops with several run-time "
                "sizes in one group as reinterpret_casts (before "
                "expand-strided-metadata)";
  let description = [{
    A `memref.expand_shape` splits each source dimension into a group of
    result dimensions, row-major: a `[B * S, H]` buffer viewed as `[B, S,
    H]`. MLIR 22's `expand-strided-metadata` rewrites it into a
    `memref.reinterpret_cast`, deriving a group's run-time size from the
    source's size divided by the group's static sizes; with more than one
    run-time size in a group (B and S both dynamic, as in a graph exported
    with a dynamic batch and sequence) it crashes instead. This pass
    rewrites exactly those ops first, into what that pass makes of the
    others, from the op's own output sizes (its `output_shape`):
    `memref.extract_strided_metadata` of the source, then a
    `memref.reinterpret_cast` of its base buffer at the source's offset,
    the op's sizes, and in each group the source dimension's stride on the
    innermost result dimension, each outer one the next one's stride times
    the next one's size (`arith.muli` where a factor is a run-time value).
    The other expand_shapes are left to `expand-strided-metadata`.
    `fp8-cpu-pipeline` and `fp8-gpu-pipeline`'s host lowering run it right
    before that pass.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

def FP8SplitBlocksPass : Pass<"fp8-split-blocks"> {
  let summary = "Split the blocks of function bodies after each op with "
                "regions (before convert-scf-to-cf)";
  let description = [{
    `convert-scf-to-cf` (MLIR 22) splits the block of every loop it lowers
    and moves each op after the loop into the new block, recording every
    move in the dialect conversion's undo log: on a function with L
    top-level loops (every linalg op of every layer after
    `convert-linalg-to-loops`) that costs time and memory O(L * ops).
    This pass splits each block of a function body after every op that has
    regions, from the last such op to the first, and joins the pieces with
    `cf.br`; each later split then moves only the ops up to the next loop,
    so the lowering is linear in the function. Semantics are unchanged (the
    canonicalizer merges the straight-line blocks again).

    With `max-block-ops` = N > 0 a run of more than N ops without one with
    regions is split after every N-th op too. A GPU host program's step
    holds no loops after `fp8-outline-host-kernels` (its loop nests are
    kernels), only launches, calls and their index arithmetic: one block
    of every layer's ops. The dialect conversions to LLVM insert ops into
    it, invalidating the block's op order, and their dominance checks
    recompute it (`Block::recomputeOpOrder`, linear in the block), so
    `convert-func-to-llvm` was quadratic in the layers (2.3 s of a 32-layer
    language-model step's 12.5, 0.13 s at 8 layers). Blocks of at most N
    ops keep each recomputation bounded.
    Both pipelines run it right before `convert-scf-to-cf`, with N = 64.
  }];
  let options = [
    Option<"maxBlockOps", "max-block-ops", "int64_t", /*default=*/"0",
           "Also split a run of more than this many ops without regions "
           "after every max-block-ops-th op (0: only after ops with "
           "regions; a negative value is an error)">,
  ];
  let dependentDialects = ["::mlir::cf::ControlFlowDialect"];
}

def FP8OutlineLoopsPass : Pass<"fp8-outline-loops", "::mlir::ModuleOp"> {
  let summary = "Outline each distinct top-level loop nest of a large "
                "function into one private function";
  let description = [{
    Keeps LLVM's work on a model's step linear in its depth. The lowered
    step of an L-layer model is one function holding every layer's
    elementwise, norm, softmax and attention loop nests (the GEMMs and the
    tiled quantizations are shared functions already); LLVM's analyses and
    code generation on one function grow faster than the function (scalar
    evolution for each loop at `-O2`, instruction selection and greedy
    register allocation at code generation), so its first call cost time
    superlinear in L.

    For each `func.func` with at least `min-loops` top-level loop nests
    (ops implementing `LoopLikeOpInterface` in its body), each nest is
    moved into a private function `<func>_loop<i>`, called in its place:
    its arguments are the values defined outside the nest that it uses, in
    first-use order (operand-free constants are cloned in instead, so LLVM
    still sees static bounds), its results the nest's. Nests that are
    structurally equal (the same ops, types and attributes, the same use
    of their arguments; their generic form without locations prints alike)
    share one function: the layers of a model repeat the same nests on the
    same shapes, so the number of outlined functions does not grow with
    the depth. The functions carry `passthrough = ["noinline"]` (kept by
    `convert-func-to-llvm`): LLVM's inliner would put a single-caller
    internal function back.

    With `straight-line-optnone` (default), a function left without any
    loop gets `passthrough = ["noinline", "optnone"]`: LLVM compiles it
    with its fast instruction selection and no IR optimisation. What is
    left is allocations, memref descriptors, calls and deallocations that
    run once per call, where the optimising code generation's cost grows
    faster than the function. The ops, and so the numerics, are
    unchanged. `fp8-cpu-pipeline` runs the pass once the loops are on
    memrefs, before `fp8-split-blocks`.
  }];
  let options = [
    Option<"minLoops", "min-loops", "unsigned", /*default=*/"16",
           "Outline the loop nests of functions with at least this many "
           "top-level loop nests">,
    Option<"straightLineOptnone", "straight-line-optnone", "bool",
           /*default=*/"true",
           "Mark a function left without loops noinline and optnone">,
  ];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

def FP8CheckMemRefLayoutsPass
    : Pass<"fp8-check-memref-layouts", "::mlir::ModuleOp"> {
  let summary = "Reject memrefs whose layout is not strided (first passes "
                "of the host lowering)";
  let description = [{
    `fp8-cpu-pipeline` and `fp8-gpu-pipeline{host=llvm}` lower memrefs with
    strided layouts: the identity layout or `strided<[...], offset: ...>`
    (static or `?`). Upstream's buffer deallocation and
    `expand-strided-metadata` build `memref.extract_strided_metadata` on
    the memrefs of the program, which does not verify on another layout,
    so a memref with an affine-map layout (`memref<2x4xf32,
    affine_map<(i, j) -> (j, i)>>`) stopped the pipeline in its middle with
    a verifier error on an op the input does not have. This pass, run by
    both pipelines before their host lowering, fails instead with an error
    on the function, op or region holding such a memref (a function
    argument or result, an op result, a block argument), naming its type
    and how to get a strided one (`memref.transpose`, a strided view, or
    upstream's `normalize-memrefs`).
  }];
}

def FP8CheckNestedModulesPass
    : Pass<"fp8-check-nested-modules", "::mlir::ModuleOp"> {
  let summary = "Reject functions in nested modules (first pass of the "
                "lowering pipelines)";
  let description = [{
    `fp8-cpu-pipeline` and `fp8-gpu-pipeline` lower the functions of the
    module they run on: upstream's one-shot bufferization (MLIR 22) does not
    descend into a nested `builtin.module`, so the functions of one would
    reach the LLVM conversion half lowered (tensors in a memref program,
    an internal error). This pass, the pipelines' first, fails with an error
    on each nested `builtin.module` that holds a `func.func`, naming it and
    how to lower it on its own (anchor the pipeline on it, e.g.
    `--pass-pipeline='builtin.module(builtin.module(fp8-cpu-pipeline))'`).
    Nested modules without functions (e.g. a `gpu.module`'s are not builtin
    modules) are left alone. The graph passes (`fp8-pipeline`) rewrite
    nested functions like top-level ones.
  }];
}

def FP8InternalizePrivatePass
    : Pass<"fp8-internalize-private", "::mlir::ModuleOp"> {
  let summary = "Give private func.func definitions internal linkage "
                "(before convert-func-to-llvm)";
  let description = [{
    `convert-func-to-llvm` (MLIR 22) gives every function external linkage,
    `sym_visibility = "private"` included, so two objects compiled by
    `fp8-cpu-pipeline` that each hold a helper of the same name (the tiled
    scaled_matmul kernel of one signature, `@__scaled_matmul_tiled_...`, or
    the ownership-based deallocation's `@dealloc_helper`) fail to link
    ("multiple definition"). This pass sets `llvm.linkage =
    #llvm.linkage<internal>` on every private `func.func` with a body, which
    `convert-func-to-llvm` carries to the `llvm.func`: the helpers stay
    local to their object. Public functions and declarations are unchanged.
    `fp8-cpu-pipeline` runs it right before `convert-func-to-llvm`.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def FP8SplitDeallocsPass : Pass<"fp8-split-deallocs"> {
  let summary = "Split a bufferization.dealloc into one per fresh allocation, "
                "each retaining only what may alias it (before "
                "buffer-deallocation-simplification)";
  let description = [{
    The ownership-based deallocation (MLIR 22) frees every buffer of a
    function body in one `bufferization.dealloc` at its end: one operand
    per buffer of every layer, retaining every buffer the function returns
    (one per result: of every layer too, e.g. a training step's
    gradients). `buffer-deallocation-simplification` then asks its alias
    analysis about every pair of operands, and `lower-deallocations`
    compares at run time every freed buffer with every retained one
    (`llvm.icmp` of pointers): time, memory and code quadratic in the
    number of layers. This pass does what the simplification would, in
    time linear in the operands and retained values:

    - every operand that is a fresh allocation, listed once, that no other
      operand may alias gets a `bufferization.dealloc` of its own with its
      condition; the other operands stay in one dealloc;
    - each such piece retains only the retained values that may alias its
      buffer: views of it and values of unknown origin. The updated
      condition of a retained value is the `or` of the pieces that retain
      it (false when none does).

    Fresh allocations are the results of `memref.alloc`s and of calls of a
    function (defined inside the pass's operation) each of whose
    `func.return`s returns there a `memref.alloc` of its own body, as the
    shared GEMM kernels of `fp8-lower-to-linalg` do once bufferized;
    through the base buffer of `memref.extract_strided_metadata`. Two
    distinct fresh allocations are distinct buffers; a value reached
    through views (`ViewLikeOpInterface`) is of its source's buffer; a
    block argument is another buffer than one allocated inside its block
    (it was passed before). Anything else may alias anything. Nested on
    `func.func` the pass does not read other functions (another thread may
    be rewriting them): `fp8-cpu-pipeline` runs it on the module, right
    before that simplification.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::bufferization::BufferizationDialect"];
}

def FP8ExpandArithPass : Pass<"fp8-expand-arith"> {
  let summary = "Expand arith.truncf/extf to and from FP8 into integer "
                "arithmetic";
  let description = [{
    MLIR 22 cannot lower `arith.truncf` to, or `arith.extf` from,
    `f8E4M3FN`/`f8E5M2` for LLVM. This pass rewrites them (scalar or vector
    operands, f32/f16/bf16 on the wide side) into `arith` integer ops on the
    bit patterns (the builders of fp8/Dialect/FP8/Utils/FP8Arith.h):

    - `arith.truncf` (no rounding mode or `to_nearest_even`): RNE with
      subnormals, NaN -> 0x7F. Overflow follows the op's IEEE semantics
      (NaN for E4M3FN, Inf for E5M2) unless `saturate=true`, which gives the
      satfinite conversion of the numerics contract (±max; what NVIDIA's
      `cvt.rn.satfinite` does).
    - `arith.extf` from FP8: exact.

    Conversions it cannot expand (other 8-bit float types such as
    `f8E4M3FNUZ`, an f64 source of `truncf`, a rounding mode other than
    RNE, tensor operands, conversions to or from narrower floats such as
    `f4E2M1FN`) are left unchanged with a remark naming the op, the types
    and what is supported, or an error under `strict=true`. So is any other
    `arith` or `math` op that computes in a float of 8 bits or fewer
    (`arith.addf`, `arith.cmpf`, `arith.sitofp`, `math.exp`, ... on
    `f8E4M3FN`): LLVM has no such type, and `convert-arith-to-llvm` would
    leave the op behind an `unrealized_conversion_cast` (or build an
    `llvm.sitofp` to `i8` that does not verify). Constants, selects and
    bitcasts only move bit patterns and are fine.

    Bit-exact against NVIDIA's host reference on all 2^32 inputs
    (test/Integration/CPU/conversion-exhaustive.test).
  }];
  let options = [
    Option<"saturate", "saturate", "bool", /*default=*/"false",
           "Saturate finite overflow and Inf to ±max (satfinite) instead of "
           "producing NaN/Inf">,
    Option<"strict", "strict", "bool", /*default=*/"false",
           "Fail (instead of a remark) on an FP8 truncf/extf that cannot be "
           "expanded, or arithmetic computed in FP8 (fp8-cpu-pipeline sets "
           "it: LLVM cannot lower them)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def FP8ExpandMathPass : Pass<"fp8-expand-math"> {
  let summary = "Expand transcendental math ops into arith, math.fma and "
                "math.sqrt (the same bits on the CPU and the GPU)";
  let description = [{
    The high-precision ops of a training step (softmax, SiLU/sigmoid, the
    loss, RMSNorm, GELU) call `math.exp`, `math.rsqrt`, `math.log`,
    `math.tanh`, `math.erf`. Lowered as they are, the CPU calls libm
    (`expf`, ...) and a GPU kernel libdevice or `ex2.approx`: different
    bits. This pass rewrites them into `arith` ops, `math.fma` and
    `math.sqrt` only, each of which is correctly rounded (or exact) on both
    targets, so that `fp8-cpu-pipeline` and `fp8-gpu-pipeline` (whose host
    lowering runs it at the same place, before bufferization) compute the
    same bits wherever the op runs.

    - `math.exp`, `math.exp2` (f32): the project's own expansion, Cephes'
      `expf` scheme: `n = round(x·log2 e)` by the 1.5·2^23 trick (no
      float-to-int conversion), Cody-Waite reduction `r = x - n·ln2` (two
      `math.fma`), Cephes' degree-5 polynomial for `e^r` on
      [-ln2/2, ln2/2], and a scaling by `2^n` in two exact powers of two so
      that subnormal results are rounded once and overflow gives +Inf. The
      argument is clamped to [-104, 89] (exp) or [-151, 129] (exp2): -Inf
      gives +0, +Inf gives +Inf, and a NaN is returned as it came.
      (MLIR's own exp approximation flushes results below 2^-126 to zero.)
    - `math.rsqrt`: `1 / math.sqrt(x)` (two correctly rounded ops; what
      `convert-math-to-llvm` does too, while the GPU math library's rsqrt
      is an approximation).
    - `math.log`, `math.log2`, `math.log1p`, `math.expm1`, `math.tanh`,
      `math.erf`: MLIR's polynomial approximations
      (`populateMathPolynomialApproximationPatterns`; Cephes-style range
      reduction: `frexp` for the logarithms, Eigen's rational tanh, a
      piecewise rational erf); `log1p`, `expm1` are built on log and exp.
    Every expanded op returns a NaN operand as it came (a select), so that
    its bits do not depend on the target's NaN propagation; `log1p`,
    `expm1`, `tanh` and `erf` return a zero operand as it came too (the
    sign of zero: MLIR's erf gives erf(-0) = +0).

    bf16 and f16 operands are extended to f32, computed there and truncated
    (`populateMathF32ExpansionPatterns`). Scalars and vectors are expanded;
    one of these ops on a tensor (of a type it would expand) is an error,
    as MLIR's approximations build scalar-only IR for tensors: element-wise
    math on tensors becomes linalg first (`convert-elementwise-to-linalg`,
    as `fp8-cpu-pipeline` does). f64 ops and the other math ops
    (`sin`, `cos`, `tan`, `atan`, `atan2`, `asin`, `acos`, `sinh`, `cosh`,
    `powf`, `cbrt`, `erfc`, ...) are left as they are: they still lower to
    a library call whose bits depend on the target (none of them is in the
    training step's ops).

    The measured error of each expansion against an FP64 oracle, and its
    special values, are in docs/numerics.md (test/Integration/CPU/math-ulp.test).
  }];
  // vector: MLIR's approximations broadcast their constants for vector
  // operands (vector.broadcast).
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::vector::VectorDialect"];
}

#endif // FP8_DIALECT_FP8_DIALECT_FP8_TRANSFORMS_PASSES_TD
