//===- FP8Attrs.td - fp8 enum and policy attributes ---------*- tablegen -*-===//
//
// The attributes of the graph-level decisions: role, precision, GEMM kind,
// scale mode, group layout and the precision policy. The generated kernels'
// attributes are in FP8KernelAttrs.td, the enums in FP8Enums.td.
//
//===----------------------------------------------------------------------===//
#ifndef FP8_DIALECT_FP8ATTRS_TD
#define FP8_DIALECT_FP8ATTRS_TD

include "fp8/Dialect/FP8/IR/FP8Base.td"
include "fp8/Dialect/FP8/IR/FP8Enums.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

def FP8_RoleAttr : EnumAttr<FP8_Dialect, FP8_Role, "role"> {
  let summary = "Role of an op in a model graph";
  let description = [{
    What an op does in the model, as decided by `fp8-assign-precision` or set
    by the user: `linear` (a contraction with a weight), `embedding` (a gather
    from a table), `output_head` (the last, vocabulary-sized linear),
    `gating` (a MoE router linear), `normalization` (LayerNorm/RMSNorm),
    `attention` (QK^T, softmax, PV), `dispatch` (a MoE token dispatch or
    combine contraction, driven by the router's output: always kept high) or
    `other`. DeepSeek-V3 §3.3.1 keeps every role but `linear` in BF16/FP32.

    Example: `#fp8.role<gating>`
  }];
  let assemblyFormat = "`<` $value `>`";
}

def FP8_PrecisionAttr : EnumAttr<FP8_Dialect, FP8_Precision, "precision"> {
  let summary = "Numeric precision chosen for an op";
  let description = [{
    `fp8` (block-scaled FP8 operands, FP32 accumulation), `bf16` or `f32`.

    Example: `#fp8.precision<bf16>`
  }];
  let assemblyFormat = "`<` $value `>`";
}

def FP8_GemmKindAttr : EnumAttr<FP8_Dialect, FP8_GemmKind, "gemm"> {
  let summary = "Which of the three GEMMs of a linear layer a contraction is";
  let description = [{
    Set by `fp8-assign-precision` (as the `fp8.gemm` discardable attribute)
    on the contractions of a training graph, i.e. a module in which a weight
    gradient is recognised (docs/training.md). For a linear `Y = X·Wᵀ` with
    `X: [T, in]` (T tokens), `W: [out, in]` (DeepSeek-V3 §3.3, Figure 6):

    | kind | product | contraction over | FP8 operands (deepseek-v3) |
    |---|---|---|---|
    | `fprop` | `Y = X·Wᵀ`, `[T, out]` | `in` | X 1x128, W 128x128 |
    | `dgrad` | `dX = dY·W`, `[T, in]` | `out` | dY 1x128, W 128x128 (Fprop's codes, transposed) |
    | `wgrad` | `dW = dYᵀ·X`, `[out, in]` | the T tokens | dY and X 1x128 along T (`fp8.requantize`) |

    The kind is recorded next to the role (`linear`, or the sensitive role
    of the layer, e.g. `output_head`, whose three GEMMs stay high): the
    report splits FLOPs by kind, and `fp8-insert-quant` shares one
    quantization of W, X and dY between the three GEMMs. Only on a
    contraction (a linalg op or `fp8.scaled_matmul`).

    Example: `#fp8.gemm<wgrad>`
  }];
  let assemblyFormat = "`<` $value `>`";
}

def FP8_ScaleModeAttr : EnumAttr<FP8_Dialect, FP8_ScaleMode, "scale_mode"> {
  let summary = "How a block's dequantization scale is derived from its amax";
  let description = [{
    `f32`: `s = amax / fmax`. `pow2`: `s` is the smallest power of two that is
    >= `amax / fmax`, taken from the exponent and mantissa bits of the f32
    quotient (numerics contract §1.3). A scale stored as `f8E8M0FNU` requires
    `pow2`.

    Example: `#fp8.scale_mode<pow2>`
  }];
  let assemblyFormat = "`<` $value `>`";
}

def FP8_GroupLayoutAttr : EnumAttr<FP8_Dialect, FP8_GroupLayout, "group_layout"> {
  let summary = "Row layout of a grouped (MoE) GEMM";
  let description = [{
    The two m-grouped layouts of DeepGEMM, used by
    `fp8.grouped_scaled_matmul`: `masked` (A is `[G, M, K]`, one slab of M
    rows per group, of which the first `counts[g]` are valid: decode with
    dense expert dispatch) and `contiguous` (A is `[M, K]` with the tokens
    sorted by group and a per-row group index: prefill and training).

    Printed bare in the op's custom form; the attribute form is
    `#fp8<group_layout masked>`.
  }];
}

//===----------------------------------------------------------------------===//
// Precision policy
//===----------------------------------------------------------------------===//

def FP8_PolicyAttr : AttrDef<FP8_Dialect, "Policy"> {
  let mnemonic = "policy";
  let summary = "A precision policy (an FP8 training/inference recipe)";
  let description = [{
    Which tensors become FP8 and how they are scaled. Fields:

    | field | meaning |
    |---|---|
    | `name` | the preset this policy came from, or a user name |
    | `format` | FP8 type of forward tensors (activations, weights) |
    | `grad_format` | FP8 type of gradients |
    | `activation_block` | block of an activation/gradient `[M, K]`, along K |
    | `weight_block` | block of a weight `[N, K]` |
    | `scale_mode` | `f32` or `pow2` |
    | `scale_type` | storage of the scales: `f32` or `f8E8M0FNU` |
    | `eps` | lower clamp of the block amax (f32) |
    | `promote_interval` | K elements per FP32 promotion, multiple of 32; `?`: one promotion per GEMM, at the end of its K (DeepSeek-V3 §3.3.2's experiment without promotion, `fp8-pipeline{promotion=none}`; only when both K-blocks span K) |
    | `high` | the type sensitive ops keep (`bf16` or `f32`) |
    | `keep_high` | the roles that stay in `high` precision |
    | `wgrad_operands` | how a weight gradient's dY and X (1x128 tiles along the tokens) are made: `requantize` (from the forward's FP8 codes and scales, DeepSeek-V3 §3.5.2; every preset's) or `fresh` (quantized along the tokens from the high-precision tensor); printed only when `fresh` |

    A block size of `?` means "the whole dimension" (per-tensor and rowwise
    scaling). Presets, parsed by name:

    | preset | blocks (act / weight) | scales | interval | source |
    |---|---|---|---|---|
    | `deepseek-v3` | 1x128 / 128x128 | f32 | 128 | DeepSeek-V3 §3.3.2 |
    | `hybrid` | 1x128 / 128x128, E5M2 gradients | f32 | 128 | TransformerEngine `Format.HYBRID` |
    | `per-tensor` | ?x? / ?x? | f32 | 128 | TransformerEngine per-tensor current scaling |
    | `rowwise` | 1x? / 1x? | pow2 f32 | 128 | torchao float8 rowwise |
    | `mxfp8` | 1x32 / 1x32 | E8M0 | 32 | OCP Microscaling Formats v1.0 |
    | `bf16` | none: every role in `keep_high` (BF16 GEMMs, FP32 accumulation; the FP8 fields are deepseek-v3's, unused) | - | - | DeepSeek-V3 §3.3, Appendix B.1 (the baseline FP8 is measured against) |

    A module without an `fp8.policy` is compiled under `deepseek-v3`
    (`PolicyAttr::getDefaultPresetName()`, the default of every `policy`
    option).

    Syntax: `#fp8.policy<"deepseek-v3">` (a preset) or
    `#fp8.policy<"deepseek-v3", eps = 1.0e-12>` (a preset with fields
    overridden) or the full field list, which is what the printer emits.
  }];
  let parameters = (ins
    "::mlir::StringAttr":$name,
    "::mlir::Type":$format,
    "::mlir::Type":$gradFormat,
    ArrayRefParameter<"int64_t">:$activationBlock,
    ArrayRefParameter<"int64_t">:$weightBlock,
    "::mlir::fp8::ScaleMode":$scaleMode,
    "::mlir::Type":$scaleType,
    "::llvm::APFloat":$eps,
    "int64_t":$promoteInterval,
    "::mlir::Type":$high,
    ArrayRefParameter<"::mlir::fp8::Role">:$keepHigh,
    "::mlir::fp8::WgradOperands":$wgradOperands
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Returns the named preset (one of getPresetNames()), or a null
    /// attribute for an unknown name.
    static PolicyAttr getPreset(::mlir::MLIRContext *ctx, ::llvm::StringRef name);
    /// Names of all presets, in documentation order.
    static ::llvm::ArrayRef<::llvm::StringRef> getPresetNames();
    /// getPresetNames() joined by ", ": what option help and diagnostics
    /// list as the known presets.
    static ::llvm::StringRef getPresetNameList();
    /// The preset a module without an `fp8.policy` is compiled under, and
    /// the default of every `policy` option: "deepseek-v3".
    static ::llvm::StringRef getDefaultPresetName();
    /// getPreset(ctx, getDefaultPresetName()).
    static PolicyAttr getDefaultPreset(::mlir::MLIRContext *ctx);
    /// True when ops of `role` stay in the high-precision type.
    bool keepsHigh(::mlir::fp8::Role role) const;
    /// `eps` as a float.
    float getEpsValue() const;

    /// Every field of a policy as values, to change before building another
    /// one: getFields(), set what differs, getChecked(emitError, ctx, fields).
    struct Fields {
      ::mlir::StringAttr name;
      ::mlir::Type format, gradFormat;
      ::llvm::SmallVector<int64_t, 2> activationBlock, weightBlock;
      ::mlir::fp8::ScaleMode scaleMode;
      ::mlir::Type scaleType;
      ::llvm::APFloat eps;
      int64_t promoteInterval;
      ::mlir::Type high;
      ::llvm::SmallVector<::mlir::fp8::Role> keepHigh;
      ::mlir::fp8::WgradOperands wgradOperands;
    };
    Fields getFields() const;
    /// The policy of `fields`, or null after a diagnostic (through
    /// `emitError`) naming what the verifier rejects.
    static PolicyAttr
    getChecked(::llvm::function_ref<::mlir::InFlightDiagnostic()> emitError,
               ::mlir::MLIRContext *ctx, const Fields &fields);
    /// This policy with `promote_interval` replaced (ShapedType::kDynamic:
    /// one promotion per GEMM, at the end of its K), every other field
    /// kept; null after a diagnostic where the result is not a valid policy.
    PolicyAttr withPromoteInterval(
        int64_t interval,
        ::llvm::function_ref<::mlir::InFlightDiagnostic()> emitError) const;
  }];
}

#endif // FP8_DIALECT_FP8ATTRS_TD
