//===- FP8Attrs.td - fp8 enums and attributes ---------------*- tablegen -*-===//
#ifndef FP8_DIALECT_FP8ATTRS_TD
#define FP8_DIALECT_FP8ATTRS_TD

include "fp8/Dialect/FP8/IR/FP8Base.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def FP8_Role : I32EnumAttr<"Role", "role of an op in a model graph", [
    I32EnumAttrCase<"linear", 0>,
    I32EnumAttrCase<"embedding", 1>,
    I32EnumAttrCase<"output_head", 2>,
    I32EnumAttrCase<"gating", 3>,
    I32EnumAttrCase<"normalization", 4>,
    I32EnumAttrCase<"attention", 5>,
    I32EnumAttrCase<"other", 6>,
    I32EnumAttrCase<"dispatch", 7>]> {
  let cppNamespace = "::mlir::fp8";
  let genSpecializedAttr = 0;
}

def FP8_Precision : I32EnumAttr<"Precision", "numeric precision of an op", [
    I32EnumAttrCase<"fp8", 0>,
    I32EnumAttrCase<"bf16", 1>,
    I32EnumAttrCase<"f32", 2>]> {
  let cppNamespace = "::mlir::fp8";
  let genSpecializedAttr = 0;
}

def FP8_GemmKind : I32EnumAttr<"GemmKind", "which GEMM of a linear layer's training step", [
    I32EnumAttrCase<"fprop", 0>,
    I32EnumAttrCase<"dgrad", 1>,
    I32EnumAttrCase<"wgrad", 2>]> {
  let cppNamespace = "::mlir::fp8";
  let genSpecializedAttr = 0;
}

def FP8_ScaleMode : I32EnumAttr<"ScaleMode", "how a block's scale is derived from its amax", [
    // s = amax / fmax, any f32 value.
    I32EnumAttrCase<"f32", 0>,
    // s = smallest power of two >= amax / fmax (rounding up never clips).
    I32EnumAttrCase<"pow2", 1>]> {
  let cppNamespace = "::mlir::fp8";
  let genSpecializedAttr = 0;
}

def FP8_WgradOperands : I32EnumAttr<"WgradOperands", "how a weight gradient's operands are quantized", [
    // From the forward's FP8 codes and scales: dequantized, transposed and
    // quantized again along the tokens (DeepSeek-V3 §3.5.2).
    I32EnumAttrCase<"requantize", 0>,
    // Quantized along the tokens from the high-precision tensor, next to its
    // row quantization (TransformerEngine, torchao).
    I32EnumAttrCase<"fresh", 1>]> {
  let cppNamespace = "::mlir::fp8";
  let genSpecializedAttr = 0;
}

def FP8_GroupLayout : I32EnumAttr<"GroupLayout", "how a grouped GEMM assigns rows to groups", [
    // A is [G, M, K]: one M x K slab per group, optional per-group row counts.
    I32EnumAttrCase<"masked", 0>,
    // A is [M, K]: rows sorted by group, a per-row group index.
    I32EnumAttrCase<"contiguous", 1>,
    // A is [M, T], B is [N, T], D is [G, M, N]: the tokens (K) sorted by
    // group, a per-token group index (the MoE Wgrad).
    I32EnumAttrCase<"k_grouped", 2>]> {
  let cppNamespace = "::mlir::fp8";
  let genSpecializedAttr = 0;
}

def FP8_KernelEpilogue : I32EnumAttr<"KernelEpilogue", "what a GEMM kernel does with its accumulators", [
    // Scale-promoted FP32 accumulators (plus C) converted and stored to D.
    I32EnumAttrCase<"store", 0>,
    // D rounded to its element type and stored as FP8 codes with a scale
    // per 1x128 tile along N (what fp8.quantize makes of the stored D).
    I32EnumAttrCase<"quantize", 1>]> {
  let cppNamespace = "::mlir::fp8";
  let genSpecializedAttr = 0;
}

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
    /// Returns the named preset ("deepseek-v3", "hybrid", "per-tensor",
    /// "rowwise", "mxfp8"), or a null attribute for an unknown name.
    static PolicyAttr getPreset(::mlir::MLIRContext *ctx, ::llvm::StringRef name);
    /// Names of all presets, in documentation order.
    static ::llvm::ArrayRef<::llvm::StringRef> getPresetNames();
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

//===----------------------------------------------------------------------===//
// Generated sm_90a kernels
//===----------------------------------------------------------------------===//

def FP8_KernelSizeParameter
    : AttrOrTypeParameter<"int64_t", "a size; `?` when known at run time only"> {
  let parser = "::mlir::fp8::detail::parseKernelSize($_parser)";
  let printer = "::mlir::fp8::detail::printKernelSize($_printer, $_self)";
}

def FP8_GemmKernelAttr : AttrDef<FP8_Dialect, "GemmKernel"> {
  let mnemonic = "gemm_kernel";
  let summary = "The configuration of a generated sm_90a block-scaled GEMM kernel";
  let description = [{
    Carried by every GEMM kernel `fp8-lower-to-nvvm` generates (the
    `fp8.kernel` attribute of its `llvm.func`) and by its launcher
    (`fp8-launch-kernels`): the one record of what the kernel computes and
    how, which the launcher, the host runtime, the emulator (`fp8-emu`) and
    Python read. The kernel's symbol name is derived from it for humans
    (`getSymbolName`) and parsed by nobody; host ops and launchers name
    their kernel with `fp8.kernel_ref` (a symbol reference).

    | field | meaning |
    |---|---|
    | `m`, `n`, `k` | the problem (`m = ?`: M at run time, the kernel's i32 parameter 5; `k = ?`: K at run time, the kernel's last i32 parameter, a 2-D kernel with a scale per K block: the Wgrad GEMM over a run-time token count); for a grouped kernel `m` is a group's rows (masked) or all rows (contiguous) |
    | `a`, `b` | FP8 element types of the operands (`f8E4M3FN`, `f8E5M2`) |
    | `d` | element type of the result (`bf16`, `f32`) |
    | `c` | element type of the accumulator operand C (absent: none) |
    | `a_scale`, `b_scale` | scale element types (`f32`) |
    | `b_scale_rows` | B scales per 128 x 128 block (128) or per column and K block (1, the Wgrad GEMM); A scales are per row and K block |
    | `scale_k` | the K elements one scale covers: 128 (a scale per K block, the default), `k` (one scale along the whole K: the `rowwise` and `per-tensor` presets, with `b_scale_rows = 1`; a per-tensor scale reaches the kernel broadcast to every row and column) or 32 (`mxfp8`'s 1x32 blocks, with `b_scale_rows = 1` and a static K: a promotion after every wgmma k32 step, the last K block's steps past K skipped; E8M0 scales reach the kernel widened to f32) |
    | `layout`, `groups`, `counts` | a grouped (MoE) kernel: `masked` or `contiguous`, G, whether a masked kernel takes per-group row counts |
    | `block_m`, `block_n`, `block_k` | the CTA tile (`block_k` = 128, one promotion interval per stage) |
    | `stages` | depth of the shared-memory ring |
    | `consumers` | consumer warpgroups (`block_m` / 64 times the column splits) |
    | `cluster`, `multicast` | CTAs per cluster (1 or 2) and the CTAs each B load reaches by TMA multicast (= `cluster`): in a cluster of 2 (a 2-D kernel: no `layout`, no `swap_ab`) the CTAs compute vertically adjacent tiles and each loads half of their common B tile into both (`block_n` / 2 a multiple of 8) |
    | `group_m` | tile order: rows of tiles per group (1: row-major) |
    | `swap_ab` | whether the kernel computes D^T = B A^T (swap-AB, for a small M: its `m` x `n` are the op's N x M, `a` B's and `b` A's codes, `b_scale_rows = 1` A's per-row scales; B's 128x128 block scales reach it as one per row; `fp8-launch-kernels` transposes D^T into D) |
    | `epilogue` | what happens to the accumulators: `store` D, or `quantize` it (a 2-D kernel, `block_n` / splits a multiple of 128): D rounded to `d` and stored as `q` codes (`f8E4M3FN`, `f8E5M2`) with an f32 scale per 1x128 tile along N, computed as `fp8.quantize` with `eps = q_eps` and `scale_mode = pow2` when `q_pow2` (saturating): the GEMM and the quantize of the next linear's input in one kernel |
    | `q`, `q_eps`, `q_pow2` | the quantize epilogue's code type, amax floor and power-of-two scales (present with `epilogue = quantize` only) |
    | `chip`, `ctas`, `modelled_us`, `modelled_tflops` | the cost model's chip, persistent grid and modelled time (absent for a run-time M) |

    Fields at their default (`c`, `scale_k = 128`, `layout`, `groups = 1`, `counts`,
    `cluster = 1`, `multicast = 1`, `group_m = 1`, `swap_ab = false`,
    `epilogue = store`, the modelled fields) are not printed. The verifier
    checks the tile as the generator does (wgmma shapes, shared memory,
    consumer registers).

    Example:
    `#fp8.gemm_kernel<m = ?, n = 2112, k = 7168, a = f8E4M3FN, b = f8E4M3FN,
    d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128,
    block_n = 128, block_k = 128, stages = 6, consumers = 2, chip = "h200">`
  }];
  let parameters = (ins
    FP8_KernelSizeParameter:$m,
    "int64_t":$n,
    FP8_KernelSizeParameter:$k,
    "::mlir::Type":$a,
    "::mlir::Type":$b,
    "::mlir::Type":$d,
    OptionalParameter<"::mlir::Type">:$c,
    "::mlir::Type":$a_scale,
    "::mlir::Type":$b_scale,
    "int64_t":$b_scale_rows,
    DefaultValuedParameter<"int64_t", "128">:$scale_k,
    OptionalParameter<"std::optional<::mlir::fp8::GroupLayout>">:$layout,
    DefaultValuedParameter<"int64_t", "1">:$groups,
    OptionalParameter<"::mlir::BoolAttr">:$counts,
    "int64_t":$block_m,
    "int64_t":$block_n,
    "int64_t":$block_k,
    "int64_t":$stages,
    "int64_t":$consumers,
    DefaultValuedParameter<"int64_t", "1">:$cluster,
    DefaultValuedParameter<"int64_t", "1">:$multicast,
    DefaultValuedParameter<"int64_t", "1">:$group_m,
    OptionalParameter<"::mlir::BoolAttr">:$swap_ab,
    DefaultValuedParameter<"::mlir::fp8::KernelEpilogue",
                           "::mlir::fp8::KernelEpilogue::store">:$epilogue,
    OptionalParameter<"::mlir::Type">:$q,
    OptionalParameter<"::mlir::FloatAttr">:$q_eps,
    OptionalParameter<"::mlir::BoolAttr">:$q_pow2,
    OptionalParameter<"::mlir::StringAttr">:$chip,
    DefaultValuedParameter<"int64_t", "0">:$ctas,
    OptionalParameter<"::mlir::FloatAttr">:$modelled_us,
    OptionalParameter<"::mlir::FloatAttr">:$modelled_tflops
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The launch configuration (GemmKernelConfig.h) of the kernel, its `m`
    /// kDynamicM for a run-time M: tiles, ring and consumer registers.
    ::mlir::fp8::GemmKernelConfig getConfig() const;
    bool isGrouped() const { return getLayout().has_value(); }
    bool isMasked() const {
      return getLayout() == ::mlir::fp8::GroupLayout::masked;
    }
    bool hasCounts() const { return getCounts() && getCounts().getValue(); }
    bool hasBScalesPerColumn() const { return getBScaleRows() == 1; }
    bool hasQuantizeEpilogue() const {
      return getEpilogue() == ::mlir::fp8::KernelEpilogue::quantize;
    }
    /// The kernel's symbol (KernelNames.h), for humans: nothing parses it.
    std::string getSymbolName() const;
  }];
}

def FP8_QuantizeKernelAttr : AttrDef<FP8_Dialect, "QuantizeKernel"> {
  let mnemonic = "quantize_kernel";
  let summary = "The configuration of a generated sm_90a quantize kernel";
  let description = [{
    Carried by every quantize kernel `fp8-lower-to-nvvm` generates (the
    `fp8.kernel` attribute of its `llvm.func`) and by its launcher: a
    `rows` x `cols` input (`rows = ?`: at run time) of `input` (`f32`,
    `bf16`) quantized to `fp8` codes (`f8E4M3FN`, `f8E5M2`) in
    `block_rows` x `block_cols` blocks: `block_rows` 1 or 128 by 128
    columns (the default `block_cols`), or `block_rows = 1` by `block_cols
    = cols` (> 128; rowwise: one scale per row, a warp per row looping over
    its 128-column chunks, symbol `..._1x<cols>_...`) or by `block_cols =
    32` (MX blocks, mxfp8: a warp per block, one column per lane, symbol
    `..._1x32_...`), or `block_rows = 128` by `block_cols = 1` (column
    blocks, the `wgrad_operands = fresh` Wgrad operands: a CTA per 128 x
    128 region, one scale per column, scales `[ceil(rows / 128), cols]`,
    symbol `..._128x1_...`), scales of type
    `scale` (`f32`,
    or `f8E8M0FNU` with `scale_mode = pow2`: one byte per block, the
    biased exponent of the power-of-two scale; symbol suffix `_ue8m0`)
    derived as `scale_mode` says with the amax clamped below by `eps`
    (an f32). The symbol name is derived from it for humans.

    `transpose = true` is the transpose-requantize kernel of
    `fp8.requantize` (DeepSeek-V3 §3.5.2, the Wgrad operands): `input` is
    then FP8 (`f8E4M3FN`, `f8E5M2`), the `cols` x `rows` codes of the
    forward in 1x128 tiles with their f32 scales, dequantized, transposed
    and requantized into `rows` x `cols` 1x128 tiles (`block_rows = 1`,
    static `rows`).

    `per_tensor = true` is the per-tensor kernel (the `per-tensor` preset,
    TransformerEngine current scaling): one block, the whole tensor
    (`block_rows = rows`, `block_cols = cols`, a static `rows`), one scale;
    the warps walk the tensor in 1x128 tiles, and the launcher launches
    the kernel twice, a pass of the tensor's amax (a global atomic max)
    and one of the scale and codes (QuantizeKernelConfig.h). Symbol
    `..._<R>x<C>_tensor_...`.

    Example: `#fp8.quantize_kernel<rows = ?, cols = 7168, block_rows = 1,
    input = bf16, fp8 = f8E4M3FN, scale = f32, eps = 9.99999974E-5 : f32>`
  }];
  let parameters = (ins
    FP8_KernelSizeParameter:$rows,
    "int64_t":$cols,
    "int64_t":$block_rows,
    DefaultValuedParameter<"int64_t", "128">:$block_cols,
    "::mlir::Type":$input,
    "::mlir::Type":$fp8,
    "::mlir::Type":$scale,
    DefaultValuedParameter<"::mlir::fp8::ScaleMode",
                           "::mlir::fp8::ScaleMode::f32">:$scale_mode,
    "::mlir::FloatAttr":$eps,
    OptionalParameter<"::mlir::BoolAttr">:$transpose,
    OptionalParameter<"::mlir::BoolAttr">:$per_tensor
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Whether this is the transpose-requantize kernel (FP8 input).
    bool isTranspose() const {
      return getTranspose() && getTranspose().getValue();
    }
    /// Whether this is the per-tensor kernel (one scale, two passes).
    bool isPerTensor() const {
      return getPerTensor() && getPerTensor().getValue();
    }
    /// The launch configuration (QuantizeKernelConfig.h), `rows`
    /// kDynamicRows for a run-time row count.
    ::mlir::fp8::QuantizeKernelConfig getConfig() const;
    /// The kernel's symbol (KernelNames.h), for humans: nothing parses it.
    std::string getSymbolName() const;
  }];
}

def FP8_TransposeKernelAttr : AttrDef<FP8_Dialect, "TransposeKernel"> {
  let mnemonic = "transpose_kernel";
  let summary = "The configuration of a generated transpose kernel";
  let description = [{
    Carried by the transpose kernel `fp8-launch-kernels` generates (the
    `fp8.kernel` attribute of its `llvm.func`) and by its launcher: it
    moves elements of `bits` bits (8: FP8 codes of any format; 16: a bf16
    result; 32: f32 scales or results) from a row-major input `[B, R, C]`
    to a row-major output `[B, C, Rp]` with `out[b, c, r] = in[b, r /
    repeat_rows, c]` for `r / repeat_rows < R` and zero bits (+0.0, the
    zero code) for the other rows; every size is a run-time parameter
    (kernel ABI in TransposeKernelConfig.h). It keeps the operands that one
    kernel writes and another reads in a different layout on the device: a
    GEMM's A scales `[M, KB]` as the kernel's `[KB, roundUp(M, 4)]`
    (16-byte TMA strides), per-column B scales `[N, KB]` as `[KB, Np]`, the
    Dgrad's `W^T` (codes and 128x128 block scales) from the forward's
    quantized `W`, and the operands and result of a swap-AB GEMM (`D^T = B
    A^T`: B's 128x128 block scales as one per row, `repeat_rows = 128`, and
    `D^T` back to `D`). An exact permutation: no arithmetic on the
    elements, except with `widen_e8m0 = true` (`bits = 8`): the input is
    E8M0 (UE8M0) scale codes and the output their f32 values, 32 bits each
    (`2^(code - 127)`, code 0 is 2^-127, 0xFF NaN: the numerics contract's
    exact widening), so E8M0 scales reach the GEMM and requantize kernels,
    which read f32, without visiting the host. The symbol name
    `fp8_transpose_b<bits>[_r<repeat_rows>][_e8m0f32]` is derived from it
    for humans.

    Example: `#fp8.transpose_kernel<bits = 32, repeat_rows = 128>`
  }];
  let parameters = (ins "int64_t":$bits,
                        DefaultValuedParameter<"int64_t", "1">:$repeat_rows,
                        DefaultValuedParameter<"bool", "false">:$widen_e8m0);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The kernel's symbol (KernelNames.h), for humans: nothing parses it.
    std::string getSymbolName() const;
  }];
}

#endif // FP8_DIALECT_FP8ATTRS_TD
