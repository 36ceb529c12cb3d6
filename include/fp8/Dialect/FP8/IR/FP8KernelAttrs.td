//===- FP8KernelAttrs.td - generated kernel attributes -----*- tablegen -*-===//
//
// The typed records of the sm_90a kernels fp8-lower-to-nvvm and
// fp8-launch-kernels generate: the decision of each kernel
// (#fp8.gemm_kernel, #fp8.quantize_kernel, #fp8.transpose_kernel, the
// `fp8.kernel` attribute), by which kernels are known and reused, and the
// cost model's figures of a GEMM kernel (#fp8.kernel_model, its
// `fp8.kernel_model`). C++ in FP8KernelAttrs.h / FP8KernelAttrs.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef FP8_DIALECT_FP8KERNELATTRS_TD
#define FP8_DIALECT_FP8KERNELATTRS_TD

include "fp8/Dialect/FP8/IR/FP8Base.td"
include "fp8/Dialect/FP8/IR/FP8Enums.td"
include "mlir/IR/AttrTypeBase.td"

def FP8_KernelSizeParameter
    : AttrOrTypeParameter<"int64_t", "a size; `?` when known at run time only"> {
  let parser = "::mlir::fp8::detail::parseKernelSize($_parser)";
  let printer = "::mlir::fp8::detail::printKernelSize($_printer, $_self)";
}

// A kernel size that defaults to 1 (absent when 1): a grouped kernel's group
// count, `?` for a batch kernel taking its batch count at run time.
def FP8_KernelCountParameter
    : AttrOrTypeParameter<"int64_t", "a count, 1 by default; `?` when known at run time only"> {
  let parser = "::mlir::fp8::detail::parseKernelSize($_parser)";
  let printer = "::mlir::fp8::detail::printKernelSize($_printer, $_self)";
  let defaultValue = "1";
}

def FP8_GemmKernelAttr : AttrDef<FP8_Dialect, "GemmKernel"> {
  let mnemonic = "gemm_kernel";
  let summary = "The configuration of a generated sm_90a block-scaled GEMM kernel";
  let description = [{
    Carried by every GEMM kernel `fp8-lower-to-nvvm` generates (the
    `fp8.kernel` attribute of its `llvm.func`) and by its launcher
    (`fp8-launch-kernels`): the one record of what the kernel computes and
    how, which the launcher, the host runtime, the emulator (`fp8-emu`) and
    Python read. It holds the decision only, what the generator and the
    launcher read: `fp8-lower-to-nvvm` reuses a kernel for an op exactly
    when the kernel module holds one whose attribute is equal (never by its
    name). The kernel's symbol name is derived from it for humans
    (`getSymbolName`, made unique in the kernel module) and parsed by
    nobody; host ops and launchers name their kernel with `fp8.kernel_ref`
    (a symbol reference). What the cost model predicts for the kernel is
    beside it, in its `fp8.kernel_model` (`#fp8.kernel_model`).

    | field | meaning |
    |---|---|
    | `m`, `n`, `k` | the problem (`m = ?`: M at run time, the kernel's i32 parameter 5; `k = ?`: K at run time, the kernel's last i32 parameter, a 2-D kernel with a scale per K block: the Wgrad GEMM over a run-time token count); for a grouped kernel `m` is a group's rows (masked) or all rows (contiguous) |
    | `a`, `b` | FP8 element types of the operands (`f8E4M3FN`, `f8E5M2`), or `bf16` for both (the BF16 variant of a bf16 x bf16 -> f32 `linalg.matmul`: no scales, `block_k = 64`; with `layout = masked` and no counts (`m` static or `?`: the run-time M of every batch), the batch kernel of a `linalg.batch_matmul`: A [G, M, K], B [G, K, N], C and D [G, M, N]) |
    | `a_major`, `b_major` | the BF16 variant's operand majors where they differ from its default (A `k`: `[M, K]` row-major; B `mn`: `[K, N]` row-major): `a_major = mn`, A `[K, M]` row-major (`[G, K, M]` for the batch kernel) read by wgmma's transpose (imm-trans-a = 1; TMA boxes of 64 M columns x 64 K rows, one per 64 rows of the tile; `m` static, a multiple of 8), `b_major = k`, B `[N, K]` row-major (`[G, N, K]`) read K-major (imm-trans-b = 0; the FP8 kernel's box of `block_n` rows x 64 K): the untransposed source of an operand the graph transposes (`fp8-lower-to-nvvm` decides, `fp8-launch-kernels` passes the source). Absent at the default; refused on FP8 operands (wgmma transposes .f16/.bf16 only, PTX ISA `wgmma.mma_async`) and where written at the default (equal kernels, equal attributes); symbol suffixes `_am`, `_bk` |
    | `a_heads`, `b_heads` | the BF16 batch kernel's operand read through a head view (absent: 1, the packed `[G, rows, cols]`): with H > 1 the operand is the `[B, rows, H, cols]` row-major source of a head permutation (attention's `[B, S, H, D] -> [B, H, S, D]` `linalg.transpose` with the batch dimensions collapsed, G = B x H; `rows`, `cols` as `a_major` / `b_major` say), read in place through a rank-4 TMA map of dimensions (B, H, rows, cols) and the source's strides (`rows` x H x `cols`, `cols`, H x `cols`, 1 elements; PTX ISA `cp.async.bulk.tensor`, CUDA driver API `cuTensorMapEncodeTiled`: up to 5 dimensions, strides multiples of 16 bytes); batch g is the coordinates (g / H, g % H). A batch of one sequence (no collapse: a `linalg.transpose` `[1, 0, 2]` of a `[rows, H, cols]` source, G = H) is the same view with B = 1. `fp8-lower-to-nvvm` decides, `fp8-launch-kernels` passes the source `[B, rows, H, cols]` (a batch of one's expanded to `[1, rows, H, cols]`). Needs bf16 operands, `layout = masked` without counts, a static `groups` that H divides and a static `m` (1 is the packed operand, not printed); symbol suffixes `_ah<H>`, `_bh<H>` |
    | `d_heads` | the BF16 batch kernel's result D written through a head view (absent: 1, the packed `[G, M, N]`): with H > 1 D is `[B, M, H, N]` row-major, the result of attention's permutation back (the batch's `[G, M, N]` expanded to `[B, H, M, N]`, then `linalg.transpose` `[0, 2, 1, 3]`: the context `[B, H, S, D] -> [B, S, H, D]`, G = B x H; a batch of one sequence has no expand: the `[H, M, N]` result's only reader a `linalg.transpose` `[1, 0, 2]` to `[M, H, N]`, B = 1); batch g = b x H + h stores its row r (r < M) at row (b x M + r) x H + h of `[B x M x H, N]`, from the registers (`st.global`, masked to M rows and N columns as the packed D). `fp8-lower-to-nvvm` decides, `fp8-launch-kernels` passes D `[B, M, H, N]` in the permutation's place. Needs bf16 operands, `layout = masked` without counts, a static `groups` that H divides, a static `m` and no `c` (the op's C is its packed `[G, M, N]` init); symbol suffix `_dh<H>` |
    | `d` | element type of the result (`bf16`, `f32`) |
    | `c` | element type of the accumulator operand C (absent: none) |
    | `acc_init` | the BF16 variant without C (`c` absent): the f32 constant every accumulator starts at, the value of the `linalg.fill` that wrote the op's init (`fp8-lower-to-nvvm` decides it, `fp8-launch-kernels` drops the fill when no other op reads it); bit for bit the start a C of that value gives (wgmma adds onto it with scale-d = 1), -0.0 and +0.0 distinct kernels (0.0 + -0.0 = +0.0); symbol suffix `_init<bits>` (absent: the accumulators start at C, or +0.0 without C) |
    | `a_scale`, `b_scale` | scale element types (`f32`) |
    | `b_scale_rows` | B scales per 128 x 128 block (128) or per column and K block (1, the Wgrad GEMM); A scales are per row and K block |
    | `scale_k` | the K elements one scale covers: 128 (a scale per K block, the default), `k` (one scale along the whole K: the `rowwise` and `per-tensor` presets, with `b_scale_rows = 1`; a per-tensor scale reaches the kernel broadcast to every row and column) or 32 (`mxfp8`'s 1x32 blocks, with `b_scale_rows = 1` and a static K: a promotion after every wgmma k32 step, the last K block's steps past K skipped; E8M0 scales reach the kernel widened to f32) |
    | `layout`, `groups`, `counts` | a grouped (MoE) kernel: `masked` or `contiguous`, G, whether a masked kernel takes per-group row counts; `groups = ?`: the bf16 batch kernel's batch count at run time (its last parameter, an i32 after C: one kernel for every G) |
    | `block_m`, `block_n`, `block_k` | the CTA tile (`block_k` = 128, one promotion interval per stage) |
    | `stages` | depth of the shared-memory ring |
    | `consumers` | consumer warpgroups (`block_m` / 64 times the column splits) |
    | `cluster`, `multicast` | CTAs per cluster (1 or 2) and the CTAs each B load reaches by TMA multicast (= `cluster`): in a cluster of 2 (a 2-D kernel: no `layout`, no `swap_ab`) the CTAs compute vertically adjacent tiles and each loads half of their common B tile into both (`block_n` / 2 a multiple of 8) |
    | `group_m` | tile order: rows of tiles per group (1: row-major) |
    | `overlap` | the promotion: 0, lock-step (`wgmma.wait_group 0` after each K block's wgmma chain, then its FFMAs); 4 or 8, overlapped (two partial sets: block k promoted after `wgmma.wait_group 1` while block k + 1's wgmma chain runs, the K loop unrolled by `overlap` blocks per trip and drained with `wgmma.wait_group 0` before its back edge, the K blocks past the last trip in lock-step; 128 x 128 B blocks with a scale per K block, at most 144 columns per consumer, 2 stages or more) |
    | `swap_ab` | whether the kernel computes D^T = B A^T (swap-AB, for a small M: its `m` x `n` are the op's N x M, `a` B's and `b` A's codes, `b_scale_rows = 1` A's per-row scales; B's 128x128 block scales reach it as one per row; `fp8-launch-kernels` transposes D^T into D) |
    | `epilogue` | what happens to the accumulators: `store` D, or `quantize` it (a 2-D kernel, `block_n` / splits a multiple of 128): D rounded to `d` and stored as `q` codes (`f8E4M3FN`, `f8E5M2`) with an f32 scale per 1x128 tile along N, computed as `fp8.quantize` with `eps = q_eps` and `scale_mode = pow2` when `q_pow2` (saturating): the GEMM and the quantize of the next linear's input in one kernel |
    | `q`, `q_eps`, `q_pow2` | the quantize epilogue's code type, amax floor and power-of-two scales (present with `epilogue = quantize` only) |
    | `k_splits` | split-K: S contiguous ranges of the K blocks (the first `KB mod S` one block longer), each tile computed by S work units (split-major in the persistent loop), each promoting its range into its own FP32 accumulators (split 0 from C, the others from +0.0) and storing them as an f32 partial tile in a workspace the launcher allocates; the consumer thread that arrives last at a tile (one `atom.add` counter per thread and tile, `fence.acq_rel.gpu` around it) adds the S partials of its registers in split order and stores D (the op's `k_splits`; the 2-D FP8 kernel with the st.global store epilogue, lock-step or overlapped, static `m` and `k`, `k_splits` <= ceil(`k` / 128)) |
    | `tma_store` | the store epilogue through shared memory: each consumer warpgroup writes its 64 rows of D into a 128B-swizzled staging buffer (`stmatrix` for `bf16`, `st.shared.v2.f32` for `f32`) and one of its threads stores them with `cp.async.bulk.tensor` (D's parameter a tensor map of D), overlapping the next tile's main loop (the 2-D kernel, `block_n` / splits a multiple of 64, `n` a multiple of 8). With `epilogue = quantize` the staging holds the FP8 codes (one `st.shared.b16` per code pair, boxes of 64 rows x 128 codes: one 1x128 tile per row), D's parameter is a tensor map of the codes (u8 `[M, N]`, box `{128, 64}`, 128B swizzle) and `n` must be a multiple of 16 (a row of codes is a TMA global stride); the scales stay on `st.global`. The staging is 64 x `block_n` / splits x 4 bytes per consumer warpgroup (x 1 byte with the quantize epilogue); PTX ISA `cp.async.bulk.tensor`, `fence.proxy.async`, `cp.async.bulk.wait_group.read` |
    | `waves` | m64 waves per consumer warpgroup, 1 or 2: with 2 each consumer warpgroup computes 128 rows as two waves of 64 that reuse one wgmma partial set; per K block, for wave 0 then 1, its wgmma chain, `wgmma.wait_group 0` and its promotion into its own accumulators with its rows' A scales (`block_m` = 128 x `consumers` / splits; the 2-D FP8 kernel with 128 x 128 B blocks, `scale_k = 128`, `overlap = 0`, `epilogue = store`, no `tma_store`, `k_splits = 1`, a static `k`; 3/2 `block_n` / splits + 16 registers within 232: at most 144 columns per consumer) |

    Fields at their default (`a_major`, `b_major`, `a_heads = 1`, `b_heads = 1`, `d_heads = 1`, `c`, `acc_init`, `scale_k = 128`, `layout`, `groups = 1`, `counts`,
    `cluster = 1`, `multicast = 1`, `group_m = 1`, `overlap = 0`,
    `swap_ab = false`,
    `epilogue = store`, `tma_store = false`, `k_splits = 1`, `waves = 1`)
    are not printed. The verifier
    checks the tile as the generator does (wgmma shapes, shared memory,
    consumer registers).

    Example:
    `#fp8.gemm_kernel<m = ?, n = 2112, k = 7168, a = f8E4M3FN, b = f8E4M3FN,
    d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128,
    block_n = 128, block_k = 128, stages = 6, consumers = 2>`
  }];
  let parameters = (ins
    FP8_KernelSizeParameter:$m,
    "int64_t":$n,
    FP8_KernelSizeParameter:$k,
    "::mlir::Type":$a,
    "::mlir::Type":$b,
    OptionalParameter<"std::optional<::mlir::fp8::OperandMajor>">:$a_major,
    OptionalParameter<"std::optional<::mlir::fp8::OperandMajor>">:$b_major,
    DefaultValuedParameter<"int64_t", "1">:$a_heads,
    DefaultValuedParameter<"int64_t", "1">:$b_heads,
    DefaultValuedParameter<"int64_t", "1">:$d_heads,
    "::mlir::Type":$d,
    OptionalParameter<"::mlir::Type">:$c,
    OptionalParameter<"::mlir::FloatAttr">:$acc_init,
    "::mlir::Type":$a_scale,
    "::mlir::Type":$b_scale,
    "int64_t":$b_scale_rows,
    DefaultValuedParameter<"int64_t", "128">:$scale_k,
    OptionalParameter<"std::optional<::mlir::fp8::GroupLayout>">:$layout,
    FP8_KernelCountParameter:$groups,
    OptionalParameter<"::mlir::BoolAttr">:$counts,
    "int64_t":$block_m,
    "int64_t":$block_n,
    "int64_t":$block_k,
    "int64_t":$stages,
    "int64_t":$consumers,
    DefaultValuedParameter<"int64_t", "1">:$cluster,
    DefaultValuedParameter<"int64_t", "1">:$multicast,
    DefaultValuedParameter<"int64_t", "1">:$group_m,
    DefaultValuedParameter<"int64_t", "0">:$overlap,
    OptionalParameter<"::mlir::BoolAttr">:$swap_ab,
    DefaultValuedParameter<"::mlir::fp8::KernelEpilogue",
                           "::mlir::fp8::KernelEpilogue::store">:$epilogue,
    OptionalParameter<"::mlir::Type">:$q,
    OptionalParameter<"::mlir::FloatAttr">:$q_eps,
    OptionalParameter<"::mlir::BoolAttr">:$q_pow2,
    OptionalParameter<"::mlir::BoolAttr">:$tma_store,
    DefaultValuedParameter<"int64_t", "1">:$k_splits,
    DefaultValuedParameter<"int64_t", "1">:$waves
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  // The one map from a GemmKernelConfig to the parameters (getConfig is
  // its inverse), both in FP8KernelAttrs.cpp beside the verifier: a
  // configuration field becomes a parameter there and here, and no caller
  // passes the fields one by one.
  let builders = [
    AttrBuilder<(ins "const ::mlir::fp8::GemmKernelProblem &":$problem,
                     "const ::mlir::fp8::GemmKernelConfig &":$config)>
  ];
  let extraClassDeclaration = [{
    /// The launch configuration (GemmKernelConfig.h) of the kernel, its `m`
    /// kDynamicM for a run-time M: tiles, ring and consumer registers.
    ::mlir::fp8::GemmKernelConfig getConfig() const;
    /// What the kernel holds beside its configuration.
    ::mlir::fp8::GemmKernelProblem getProblem() const;
    bool isGrouped() const { return getLayout().has_value(); }
    bool isMasked() const {
      return getLayout() == ::mlir::fp8::GroupLayout::masked;
    }
    bool hasCounts() const { return getCounts() && getCounts().getValue(); }
    bool hasBScalesPerColumn() const { return getBScaleRows() == 1; }
    bool hasQuantizeEpilogue() const {
      return getEpilogue() == ::mlir::fp8::KernelEpilogue::quantize;
    }
    bool hasTmaStore() const { return getTmaStore() && getTmaStore().getValue(); }
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


def FP8_KernelModelAttr : AttrDef<FP8_Dialect, "KernelModel"> {
  let mnemonic = "kernel_model";
  let summary = "What the cost model predicts for a generated GEMM kernel";
  let description = [{
    Carried by every GEMM kernel `fp8-lower-to-nvvm` generates (the
    `fp8.kernel_model` attribute of its `llvm.func`, beside its
    `fp8.kernel`): the cost model's figures for the kernel's problem, which
    no generator or launcher reads. They are apart from the decision
    (`#fp8.gemm_kernel`) so that two ops share a kernel when their
    decisions are equal, whatever was modelled for them.

    | field | meaning |
    |---|---|
    | `chip` | the chip the cost model describes (`h200`, `h100-sxm`) |
    | `ctas` | the persistent grid on the chip's SMs (0: not modelled, a run-time M or K) |
    | `modelled_us`, `modelled_tflops` | the modelled time and throughput (absent for a run-time M or K) |

    Example: `#fp8.kernel_model<chip = "h200", ctas = 132,
    modelled_us = 1.250000e+01 : f64, modelled_tflops = 5.500000e+02 : f64>`
  }];
  let parameters = (ins
    "::mlir::StringAttr":$chip,
    DefaultValuedParameter<"int64_t", "0">:$ctas,
    OptionalParameter<"::mlir::FloatAttr">:$modelled_us,
    OptionalParameter<"::mlir::FloatAttr">:$modelled_tflops
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

#endif // FP8_DIALECT_FP8KERNELATTRS_TD
