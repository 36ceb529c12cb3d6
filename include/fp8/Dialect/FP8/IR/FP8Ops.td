//===- FP8Ops.td - fp8 operations ---------------------------*- tablegen -*-===//
#ifndef FP8_DIALECT_FP8OPS_TD
#define FP8_DIALECT_FP8OPS_TD

include "fp8/Dialect/FP8/IR/FP8Base.td"
include "fp8/Dialect/FP8/IR/FP8Attrs.td"
include "fp8/Dialect/FP8/IR/FP8KernelAttrs.td"
include "fp8/Dialect/FP8/IR/FP8Types.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

def FP8_HighPrecisionTensor : RankedTensorOf<[F32, BF16, F16]>;
def FP8_CodeTensor : RankedTensorOf<[F8E4M3FN, F8E5M2]>;
def FP8_ScaleTensor : RankedTensorOf<[F32, F8E8M0FNU]>;
def FP8_ScaledTensor : Type<CPred<"::llvm::isa<::mlir::fp8::ScaledTensorType>($_self)">,
                            "block-scaled FP8 tensor", "::mlir::fp8::ScaledTensorType">;

//===----------------------------------------------------------------------===//
// quantize / dequantize / requantize
//===----------------------------------------------------------------------===//

def FP8_QuantizeOp : FP8_Op<"quantize", [Pure]> {
  let summary = "Quantize a high-precision tensor to block-scaled FP8";
  let description = [{
    Computes, per block of the result type (numerics contract §1, DeepSeek-V3
    §3.3.2): `amax = max(max |x_i| over the block's valid elements, eps)`
    (NaN propagates), the dequantization scale `s = amax / fmax` (`fmax` =
    448 for `f8E4M3FN`, 57344 for `f8E5M2`; with `scale_mode = pow2` the
    smallest power of two >= that quotient), and the codes
    `q_i = cvt_rne(x_i / s)`, saturating to ±fmax unless `saturate = false`.
    If amax is NaN or Inf, or `amax / fmax` is not a normal f32, the scale is
    1 and the block is still encoded element by element.

    - `input`: `tensor<d0 x ... x f32|bf16|f16>`.
    - `result`: `!fp8.scaled<d0 x ... x E, block = [...], scale = S>` with the
      same shape; its type fixes format, block shape and scale storage.
    - `eps`: lower clamp of amax, f32, default 1e-4 (DeepGEMM convention).
    - `scale_mode`: `f32` (default) or `pow2`; an `f8E8M0FNU` scale needs
      `pow2`.
    - `saturate`: RNE with satfinite (default) or overflow to NaN (E4M3) /
      Inf (E5M2).

    Example, a 1x128-tile activation:

    ```mlir
    %q = fp8.quantize %x : tensor<32x4096xbf16>
           -> !fp8.scaled<32x4096xf8E4M3FN, block = [1, 128], scale = f32>
    ```

    Errors: shapes that differ; a negative or non-finite `eps`; an E8M0 scale
    without `scale_mode = pow2`.
  }];
  let arguments = (ins
    FP8_HighPrecisionTensor:$input,
    DefaultValuedAttr<F32Attr, "1.0e-4">:$eps,
    DefaultValuedAttr<FP8_ScaleModeAttr, "::mlir::fp8::ScaleMode::f32">:$scale_mode,
    DefaultValuedAttr<BoolAttr, "true">:$saturate);
  let results = (outs FP8_ScaledTensor:$result);
  let assemblyFormat = "$input attr-dict `:` qualified(type($input)) `->` qualified(type($result))";
  let hasVerifier = 1;
  // quantize(dequantize(q)) -> q with an equal layout
  // (lib/Dialect/FP8/IR/FP8Canonicalize.cpp). Constant inputs are folded by
  // the fp8-fold-constant-weights pass, not here.
  let hasCanonicalizer = 1;
}

def FP8_DequantizeOp : FP8_Op<"dequantize", [Pure]> {
  let summary = "Dequantize a block-scaled FP8 tensor";
  let description = [{
    `result_i = f32(q_i) * scale[block(i)]`, rounded to the result element
    type (RNE) when that is `bf16`/`f16` (numerics contract §1.5).

    - `input`: `!fp8.scaled<shape x E, block = [...], scale = S>`.
    - `result`: `tensor<shape x f32|bf16|f16>`.

    ```mlir
    %x = fp8.dequantize %q : !fp8.scaled<32x4096xf8E4M3FN, block = [1, 128], scale = f32>
           -> tensor<32x4096xbf16>
    ```

    Errors: shapes that differ.
  }];
  let arguments = (ins FP8_ScaledTensor:$input);
  let results = (outs FP8_HighPrecisionTensor:$result);
  let assemblyFormat = "$input attr-dict `:` qualified(type($input)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

def FP8_RequantizeOp : FP8_Op<"requantize", [Pure]> {
  let summary = "Change the block layout (and optionally transpose) of an FP8 tensor";
  let description = [{
    Equivalent to `dequantize` to f32, an optional transpose by
    `permutation`, and `quantize` into the result type. This is the
    dequantize-transpose-requantize that DeepSeek-V3 §3.5.2 inserts in the
    backward pass so that a weight-gradient (Wgrad) matmul, which reduces
    over tokens, still receives K-major operands with 1x128 tiles: FP8 wgmma
    has no transpose flag.

    - `input`: `!fp8.scaled<...>`; `result`: `!fp8.scaled<...>` whose shape
      is the input shape permuted by `permutation` (identity when absent).
    - `eps`, `scale_mode`, `saturate`: as for `fp8.quantize`.

    ```mlir
    %t = fp8.requantize %g {permutation = array<i64: 1, 0>}
           : !fp8.scaled<4096x7168xf8E4M3FN, block = [128, 1], scale = f32>
          -> !fp8.scaled<7168x4096xf8E4M3FN, block = [1, 128], scale = f32>
    ```

    Errors: a permutation that is not a permutation of the input's
    dimensions; a result shape that is not the permuted input shape; the
    same conditions as `fp8.quantize`.
  }];
  let arguments = (ins
    FP8_ScaledTensor:$input,
    OptionalAttr<DenseI64ArrayAttr>:$permutation,
    DefaultValuedAttr<F32Attr, "1.0e-4">:$eps,
    DefaultValuedAttr<FP8_ScaleModeAttr, "::mlir::fp8::ScaleMode::f32">:$scale_mode,
    DefaultValuedAttr<BoolAttr, "true">:$saturate);
  let results = (outs FP8_ScaledTensor:$result);
  let assemblyFormat = "$input attr-dict `:` qualified(type($input)) `->` qualified(type($result))";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// scaled_matmul
//===----------------------------------------------------------------------===//

def FP8_ScaledMatmulOp : FP8_Op<"scaled_matmul", [Pure]> {
  let summary = "Block-scaled FP8 matmul in NT form with FP32 promotion";
  let description = [{
    `D[m, n] = C[m, n] + Σ_kb ( Σ_{k in kb} f32(qa[m, k]) · f32(qb[n, k]) )
    · sa[m / ba_m, k / ba_k] · sb[n / bb_n, k / bb_k]`, where `kb` runs over
    the promotion intervals of `promote_interval` K elements (numerics
    contract §1, DeepSeek-V3 §3.3.2). Each inner sum is the tensor-core
    partial (4 wgmma k32 steps for the default interval of 128); it is
    promoted into an FP32 accumulator with the two scales multiplied in.

    - `a`: `!fp8.scaled<M x K x E, ...>`, the activation, row-major (K
      contiguous);
    - `b`: `!fp8.scaled<N x K x E, ...>`, the weight in NT layout (K
      contiguous, as `nn.Linear` stores it and FP8 wgmma requires);
    - `c` (optional): `tensor<M x N x f32|bf16>`, added to the result;
    - `result`: `tensor<M x N x bf16|f32>`; bf16 is rounded RNE from f32.
    - `promote_interval`: K elements per FP32 promotion, default 128.
    - `k_splits` (split-K): the number S of K ranges summed apart, default 1
      (no split). The `KB = ceil(K / promote_interval)` promotion intervals
      are cut into S contiguous ranges, the first `KB mod S` of them
      `floor(KB / S) + 1` intervals long, the others `floor(KB / S)`: split
      s starts at interval `s * floor(KB / S) + min(s, KB mod S)`. Each split
      promotes its own intervals, in increasing K order, into its own FP32
      accumulator, split 0 starting from C (or +0.0) and the others from
      +0.0; the S accumulators are then added in split order,
      `((acc_0 + acc_1) + acc_2) + ...` in FP32, and the sum is rounded to
      the result type once (numerics contract, "Split-K"). S = 1 is the
      unsplit sum; S > 1 gives other bits, a declared choice that both
      pipelines reproduce exactly (the GPU kernel's split-K form,
      `#fp8.gemm_kernel<..., k_splits = S>`). Set by `fp8-choose-k-splits`
      or by hand.

    Both operands are rank 2. Activations with leading batch/sequence
    dimensions are collapsed into M by `fp8-insert-quant` (a
    `tensor.collapse_shape`, free for contiguous data) and the result is
    expanded back: one GEMM per linear, as DeepGEMM runs it.

    Their blocks must run along K: a K-block (`block[1]`) that spans the
    whole K (per-tensor, rowwise) or that `promote_interval` divides, so each
    promotion interval sees one scale per row of A and per column of B.

    ```mlir
    %d = fp8.scaled_matmul %a, %b
           : !fp8.scaled<128x7168xf8E4M3FN, block = [1, 128], scale = f32>,
             !fp8.scaled<2112x7168xf8E4M3FN, block = [128, 128], scale = f32>
          -> tensor<128x2112xbf16>
    ```

    Errors: operands that are not rank 2; K of A and K of B that differ;
    a block with K-size 1 and a larger M/N size (it runs along M/N, not K);
    a `promote_interval` that is not a positive multiple of 32 (the FP8
    wgmma K) or does not divide an operand's K-block; a result or `c` whose
    shape is not `M x N`; a `k_splits` below 1, above `KB` (a split without
    an interval), or above 1 with a dynamic K.
  }];
  let arguments = (ins
    FP8_ScaledTensor:$a,
    FP8_ScaledTensor:$b,
    Optional<RankedTensorOf<[F32, BF16]>>:$c,
    DefaultValuedAttr<I64Attr, "128">:$promote_interval,
    DefaultValuedAttr<I64Attr, "1">:$k_splits);
  let results = (outs RankedTensorOf<[F32, BF16]>:$result);
  let assemblyFormat = [{
    $a `,` $b (`acc` `(` $c^ `:` type($c) `)`)? attr-dict
    `:` qualified(type($a)) `,` qualified(type($b)) `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// grouped_scaled_matmul
//===----------------------------------------------------------------------===//

def FP8_GroupedScaledMatmulOp : FP8_Op<"grouped_scaled_matmul",
    [Pure, AttrSizedOperandSegments]> {
  let summary = "G block-scaled FP8 matmuls in one op (MoE experts)";
  let description = [{
    The routed experts of a MoE layer as one GEMM: group `g` multiplies its
    rows of A by its own weight `B[g]`. DeepGEMM's two m-grouped layouts
    (DeepSeek-V3 §2.1.2 and §3.3: routed experts, FP8 fine-grained
    quantization) are selected by `layout`:

    - `masked` (decode, dense dispatch): `a` is `!fp8.scaled<G x M x K x E>`,
      `b` is `!fp8.scaled<G x N x K x E>`, the result and the optional `c`
      are `tensor<G x M x N x f32|bf16>`. The optional `counts`
      (`tensor<G x i32>`) gives the valid rows of each group: rows
      `m >= counts[g]` are not computed and hold +0.0 (also when `c` is
      given); without `counts` all M rows are valid. A count outside
      `[0, M]` is clamped to it.
    - `contiguous` (prefill, training: tokens sorted by expert): `a` is
      `!fp8.scaled<M x K x E>`, `b` is `!fp8.scaled<G x N x K x E>`, the
      result and the optional `c` are `tensor<M x N x f32|bf16>`, and
      `group_ids` (`tensor<M x i32>`, required) names the group of every row:
      rows of one group are consecutive and each maximal run of one group
      starts at a row that is a multiple of `m_alignment` (default 128: the
      GPU kernel needs one group per BLOCK_M tile, and BLOCK_M divides it).
      A row with group index -1 is padding and holds +0.0. An index outside
      `[-1, G)` is an error at run time (the CPU lowering asserts, naming the
      op); so is a run of a group that starts off the alignment.

    - `k_grouped` (training, the routed experts' weight gradients, DeepSeek-V3
      §3.3: Wgrad `dW[g] = dY_g^T X_g` of every expert in one op): `a` is
      `!fp8.scaled<M x T x E, block = [1, 128]>` (e.g. dY^T: M output
      features, K = T tokens), `b` is `!fp8.scaled<N x T x E, block = [1,
      128]>` (e.g. X^T, one scale per row of `b` and 128 tokens), the result
      and the optional `c` are `tensor<G x M x N x f32|bf16>` with a static G
      (the result's leading dimension), and `group_ids` (`tensor<T x i32>`,
      required) names the group of every token: tokens of one group are
      consecutive, a token with index -1 is padding and contributes nothing.
      Every maximal run of one index (-1 included) starts at a token that is
      a multiple of `m_alignment` (default 128; a multiple of 128 here) and
      ends at a multiple of 128 or at T, so every 128-token K block belongs
      to one group or is padding (a contiguous forward's ids, -1 in a
      group's last block, become Wgrad ids by giving those tokens the
      group's index: their rows are zero). A group without tokens gives
      +0.0 (or `c[g]`). An index outside `[-1, G)`, a run off the alignment
      or ending inside a K block, and a group in two runs are errors at
      run time (the CPU lowering asserts, naming the op; the k-grouped GPU
      kernel traps on a K block whose first and last token indices differ
      and on a group whose K blocks are not consecutive).

    Every computed element is bit-identical to `fp8.scaled_matmul` on the
    group's 2-D slices (the same K order, promotion every
    `promote_interval` K elements, scales multiplied in at promotion,
    `c` added, bf16 rounded RNE from f32):
    `D[g, m, :] = scaled_matmul(A[g, m, :], B[g])` (masked),
    `D[m, :] = scaled_matmul(A[m, :], B[group_ids[m]])` (contiguous),
    `D[g] = scaled_matmul(A[:, Tg], B[:, Tg])` with Tg the tokens of group
    g (k_grouped).

    Scales: A keeps its own blocks (1x128 activation tiles, DeepSeek-V3
    §3.3.2); B's block along G must be 1 (each expert has its own 128x128
    weight blocks), as must A's in the masked layout. The K-block rules of
    `fp8.scaled_matmul` apply to the trailing `[rows, K]` dimensions. In
    the contiguous layout A's M-block must divide `m_alignment`, so every
    group starts on a scale-block boundary of A.

    ```mlir
    %d = fp8.grouped_scaled_matmul masked %a, %b counts(%n : tensor<8xi32>)
           : !fp8.scaled<8x64x7168xf8E4M3FN, block = [1, 1, 128], scale = f32>,
             !fp8.scaled<8x4096x7168xf8E4M3FN, block = [1, 128, 128], scale = f32>
          -> tensor<8x64x4096xbf16>
    %e = fp8.grouped_scaled_matmul contiguous %x, %b group_ids(%ids : tensor<1024xi32>)
           : !fp8.scaled<1024x7168xf8E4M3FN, block = [1, 128], scale = f32>,
             !fp8.scaled<8x4096x7168xf8E4M3FN, block = [1, 128, 128], scale = f32>
          -> tensor<1024x4096xbf16>
    ```

    Errors: ranks other than the above; G of A, B, `counts` or the result
    that differ; K of A and K of B that differ; a result, `c`, `counts` or
    `group_ids` of the wrong shape; `counts` on the contiguous layout,
    `group_ids` on the masked one or a missing `group_ids`; a block along G
    other than 1; the K-block and `promote_interval` errors of
    `fp8.scaled_matmul`; an `m_alignment` that is not positive, that is set
    on the masked layout, or that A's M-block does not divide. In the
    k_grouped layout: `a` or `b` not rank 2 or not in `[1, 128]` blocks, a
    result or `c` not rank 3 or with a dynamic G, an `m_alignment` that is
    not a positive multiple of 128.

    ```mlir
    %dw = fp8.grouped_scaled_matmul k_grouped %dyt, %xt group_ids(%ids : tensor<4096xi32>)
           : !fp8.scaled<2048x4096xf8E4M3FN, block = [1, 128], scale = f32>,
             !fp8.scaled<7168x4096xf8E4M3FN, block = [1, 128], scale = f32>
          -> tensor<8x2048x7168xf32>
    ```
  }];
  let arguments = (ins
    FP8_GroupLayoutAttr:$layout,
    FP8_ScaledTensor:$a,
    FP8_ScaledTensor:$b,
    Optional<RankedTensorOf<[I32]>>:$counts,
    Optional<RankedTensorOf<[I32]>>:$group_ids,
    Optional<RankedTensorOf<[F32, BF16]>>:$c,
    DefaultValuedAttr<I64Attr, "128">:$promote_interval,
    DefaultValuedAttr<I64Attr, "128">:$m_alignment);
  let results = (outs RankedTensorOf<[F32, BF16]>:$result);
  let assemblyFormat = [{
    `` $layout $a `,` $b
    (`counts` `(` $counts^ `:` type($counts) `)`)?
    (`group_ids` `(` $group_ids^ `:` type($group_ids) `)`)?
    (`acc` `(` $c^ `:` type($c) `)`)? attr-dict
    `:` qualified(type($a)) `,` qualified(type($b)) `->` type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Number of groups G (B's leading dimension, the result's in the
    /// k_grouped layout; dynamic if unknown).
    int64_t getNumGroups() {
      return isKGrouped() ? getResult().getType().getShape()[0]
                          : getB().getType().getShape()[0];
    }
    /// The k_grouped layout: the groups are ranges of K (tokens).
    bool isKGrouped() { return getLayout() == GroupLayout::k_grouped; }
  }];
}

//===----------------------------------------------------------------------===//
// assemble / disassemble
//===----------------------------------------------------------------------===//

def FP8_AssembleOp : FP8_Op<"assemble", [Pure]> {
  let summary = "Build a block-scaled FP8 tensor from its data and scales";
  let description = [{
    Wraps FP8 codes and their scales into one `!fp8.scaled` value, for
    function boundaries and interop (named after `sparse_tensor.assemble`).
    The block shape cannot be recovered from the two tensors (ceil division
    is not invertible), so the result type is written out.

    - `data`: `tensor<shape x f8E4M3FN|f8E5M2>`;
    - `scales`: `tensor<ceil(shape / block) x f32|f8E8M0FNU>`.

    ```mlir
    %q = fp8.assemble %data, %scales : tensor<256x512xf8E4M3FN>, tensor<2x4xf32>
           -> !fp8.scaled<256x512xf8E4M3FN, block = [128, 128], scale = f32>
    ```

    Errors: a data type or scale type that differs from the one the result
    type implies.
  }];
  let arguments = (ins FP8_CodeTensor:$data, FP8_ScaleTensor:$scales);
  let results = (outs FP8_ScaledTensor:$result);
  let assemblyFormat = [{
    $data `,` $scales attr-dict `:` type($data) `,` type($scales) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def FP8_DisassembleOp : FP8_Op<"disassemble", [Pure,
    DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "Split a block-scaled FP8 tensor into its data and scales";
  let description = [{
    The inverse of `fp8.assemble`; both result types follow from the input
    type (`getDataTensorType()`, `getScaleTensorType()`).

    ```mlir
    %data, %scales = fp8.disassemble %q
        : !fp8.scaled<256x512xf8E4M3FN, block = [128, 128], scale = f32>
    // %data: tensor<256x512xf8E4M3FN>, %scales: tensor<2x4xf32>
    ```
  }];
  let arguments = (ins FP8_ScaledTensor:$input);
  let results = (outs FP8_CodeTensor:$data, FP8_ScaleTensor:$scales);
  let assemblyFormat = "$input attr-dict `:` qualified(type($input))";
  let hasFolder = 1;
}

#endif // FP8_DIALECT_FP8OPS_TD
