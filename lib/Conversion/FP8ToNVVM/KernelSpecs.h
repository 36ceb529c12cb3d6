//===- KernelSpecs.h - which fp8 ops get which sm_90a kernel ----*- C++ -*-===//
#ifndef FP8_LIB_CONVERSION_FP8TONVVM_KERNELSPECS_H
#define FP8_LIB_CONVERSION_FP8TONVVM_KERNELSPECS_H

#include "GemmKernel.h"
#include "QuantizeKernel.h"

#include "fp8/Dialect/FP8/IR/FP8.h"
#include "fp8/Target/Hopper/GemmCostModel.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <optional>
#include <string>

namespace mlir {
namespace fp8 {

/// Symbol of the gpu.module fp8-lower-to-nvvm creates and fp8-launch-kernels
/// launches from.
constexpr llvm::StringLiteral kKernelModuleName = "fp8_kernels";

/// Why `op` (a GEMM or quantize) needs no kernel: its result is empty (a
/// static dimension of 0) or its contraction is (static K = 0); empty when
/// it does. Such an op stays on the host, whose lowering computes it
/// without a launch (an empty result; C or +0.0).
std::string getEmptyProblemReason(Operation *op);

/// Why no sm_90a GEMM kernel implements `op` (an fp8.scaled_matmul or
/// fp8.grouped_scaled_matmul): a form the generator has no variant for
/// (blocks, scale types, promotion interval, dynamic N or K, sizes of 2^31),
/// phrased after "no GPU GEMM kernel (...)"; empty when a kernel does. Such
/// an op stays on the host, whose lowering (the CPU reference) computes it:
/// fp8-lower-to-nvvm decides this for every op before it lowers any and
/// remarks it, fp8-launch-kernels leaves the op alone.
std::string explainNoGemmKernel(Operation *op);

/// Checks that `op` is in the form the sm_90a GEMM kernel implements and
/// returns its spec; emits an error naming what is wrong otherwise (also an
/// invalid configuration, naming the options). The configuration: the
/// `overrides` when any is set; otherwise, with `model` (config=auto) and a
/// static M, the one the cost model chooses for that chip
/// (GemmCostModel.h); otherwise the shape's fixed default
/// (chooseGemmKernelConfig).
FailureOr<GemmKernelSpec>
getGemmKernelSpec(ScaledMatmulOp op, const GemmKernelOverrides &overrides,
                  const ChipSpec *model);

/// The fp8.quantize the quantize epilogue of `op`'s kernel can compute:
/// the only user of `op`'s result, quantizing it in 1x128 tiles along N
/// ([1, 128] blocks, f32 scales, E4M3FN or E5M2, saturating), for a static
/// K; null otherwise. getGemmKernelSpec fuses it when the tile allows
/// (GemmKernelConfig::quantizeEpilogue) and records it in the spec.
QuantizeOp getEpilogueQuantize(ScaledMatmulOp op);

/// The k_splits fp8-choose-k-splits gives `op` (Passes.td): the cost
/// model's chooseKSplitsByModel for the 2-D kernel on `chip`, or 1 where
/// the op does not get it (a dynamic M or K, other blocks or scales, a
/// quantize epilogue or a swap-AB kernel the model prefers).
int64_t chooseOpKSplits(ScaledMatmulOp op, const ChipSpec &chip);

/// The same for fp8.grouped_scaled_matmul (GemmGrouping): its spec's
/// config.m is M of one group (masked) or of A (contiguous); the model
/// (config=auto) chooses for G * M x N x K (masked) or M x N x K with
/// BLOCK_M dividing m_alignment (contiguous).
FailureOr<GemmKernelSpec>
getGroupedGemmKernelSpec(GroupedScaledMatmulOp op,
                         const GemmKernelOverrides &overrides,
                         const ChipSpec *model);

/// The BF16 kernel's spec for an op that runs on the BF16 tensor cores
/// (fp8::runsOnBF16TensorCores, TensorCoreMatmul.h): C is the op's init
/// (the accumulator's start). The tile: under config=auto (`model`, no
/// tile option, a static M) the BF16 cost model's (chooseGemmConfigByModel
/// with bf16 operands), else the tile options of `overrides`
/// (block-m, block-n, stages, consumers, group-m) where the bf16 kernel
/// takes them, else the shape's default (chooseGemmKernelConfig); an option
/// the bf16 kernel cannot take (cluster, store=tma, an overlapped
/// promotion, swap-ab=always, a tile it refuses) is not applied and a
/// remark on `op` names it and why (the options also configure the
/// module's FP8 kernels: not an error). A batch_matmul's kernel is grouped
/// (GemmGrouping::masked without counts, one group per batch).
FailureOr<GemmKernelSpec>
getMatmulKernelSpec(Operation *op, const GemmKernelOverrides &overrides,
                    const ChipSpec *model);

/// The f32 constant the BF16 kernel of `op` (a linalg.matmul or
/// batch_matmul that runs on the BF16 tensor cores) starts its
/// accumulators at in place of a C operand: the scalar of the linalg.fill
/// (on tensors) that wrote the op's f32 init, an arith.constant of f32;
/// null when the init is anything else (the kernel reads C). Shared by
/// fp8-lower-to-nvvm (the kernel's acc_init) and fp8-launch-kernels (which
/// checks that the kernel computes the op and drops the fill once no other
/// op reads it).
FloatAttr getMatmulAccInit(Operation *op);

/// An operand of a BF16 kernel's op that is a transpose of the two matrix
/// dimensions (a linalg.transpose on tensors whose permutation swaps the
/// last two dimensions and keeps a batch dimension in place), of bf16, or
/// of f32 followed by an arith.truncf to bf16 (`truncf`, else null): the
/// kernel reads `transpose`'s input with the other major instead
/// (GemmKernelConfig::aMajor, bMajor), with the truncf applied to it
/// untransposed (the same bits: a conversion per element). Shared by
/// fp8-lower-to-nvvm (the kernel's a_major / b_major) and
/// fp8-launch-kernels (which passes the source). Decided on tensors, where
/// the transpose is the operand's SSA producer.
struct TransposedMatmulOperand {
  linalg::TransposeOp transpose;
  arith::TruncFOp truncf;
};
std::optional<TransposedMatmulOperand> getTransposedMatmulOperand(Value v);

/// The packed [G, rows, cols] tensor a BF16 kernel's operand `v` reads, in
/// the graph's precision: the source of its matrix swap when the kernel
/// reads it with the other major (`swapped`: getTransposedMatmulOperand),
/// else `v` before its conversion to bf16 (an arith.truncf), else `v`.
Value getPackedMatmulOperand(Value v, bool swapped);

/// A packed batch operand that is a head permutation of a [B, rows, H,
/// cols] source (attention's [B, S, H, D] -> [B, H, S, D] linalg.transpose
/// of permutation [0, 2, 1, 3], then a tensor.collapse_shape of the batch
/// dimensions [[0, 1], [2], [3]]: G = B x H, batch g is head g % H of
/// sequence g / H), static, H > 1: the batch kernel reads the source in
/// place through a head view (GemmKernelConfig::aHeads, bHeads). Other
/// permutations stay transposes (one that moves the columns would make
/// them non-contiguous, the TMA map's innermost dimension). Shared by
/// fp8-lower-to-nvvm (the kernel's a_heads / b_heads) and
/// fp8-launch-kernels (which passes the source); decided on tensors. A
/// batch of one sequence has no collapse: the packed [H, rows, cols] is a
/// linalg.transpose [1, 0, 2] of the source [rows, H, cols] (B = 1, G = H;
/// fp8-launch-kernels passes the source expanded to [1, rows, H, cols]).
struct HeadViewOperand {
  tensor::CollapseShapeOp collapse; // null for the batch of one
  linalg::TransposeOp transpose;
  int64_t heads() const {
    linalg::TransposeOp t = transpose;
    auto source = cast<RankedTensorType>(t.getInput().getType());
    return source.getDimSize(source.getRank() - 2);
  }
};
std::optional<HeadViewOperand> getHeadViewOperand(Value packed);

/// A batch result whose only reader is attention's permutation back to [B,
/// M, H, N] (the [G, M, N] result expanded [[0, 1], [2], [3]] to [B, H, M,
/// N], its only reader a linalg.transpose of permutation [0, 2, 1, 3]:
/// the context [B, H, S, D] -> [B, S, H, D]), static, H > 1: the batch
/// kernel writes D through the head view (GemmKernelConfig::dHeads) and
/// the permutation needs no kernel. Another permutation (one that moves
/// the columns, or the batch as [H, B]) stays a transpose. Shared by
/// fp8-lower-to-nvvm (the kernel's d_heads) and fp8-launch-kernels (which
/// passes D in the permutation's place); decided on tensors. A batch of one
/// sequence has no expand: the [H, M, N] result's only reader a
/// linalg.transpose [1, 0, 2] to [M, H, N] (B = 1, H = G).
struct HeadViewResult {
  tensor::ExpandShapeOp expand; // null for the batch of one
  linalg::TransposeOp transpose;
  int64_t heads() const {
    if (tensor::ExpandShapeOp e = expand)
      return e.getResultType().getDimSize(1);
    linalg::TransposeOp t = transpose;
    return cast<RankedTensorType>(t.getInput().getType()).getDimSize(0);
  }
};
std::optional<HeadViewResult> getHeadViewResult(Value result);

/// The #fp8.gemm_kernel layout of a kernel's grouping (none: no layout),
/// and the grouping of a layout: the one map between the two.
std::optional<GroupLayout> getGroupLayout(GemmGrouping grouping);
GemmGrouping getGemmGrouping(std::optional<GroupLayout> layout);

/// The #fp8.gemm_kernel of the kernel of `spec`: the problem, element
/// types, grouping and tile of the spec (the decision, what the generator
/// and the launcher read).
GemmKernelAttr getGemmKernelAttr(MLIRContext *ctx, const GemmKernelSpec &spec);

/// The #fp8.kernel_model of the kernel of `spec` modelled on `chip`: the
/// chip and (for a static M and K) the persistent grid and modelled time
/// and TFLOPS. A masked grouped kernel is modelled as one GEMM of G *
/// roundUp(M, BLOCK_M) rows: its tiles and CTAs are the launch's (every
/// group's tiles), its FLOPs count the padding rows of each group's last
/// tile.
KernelModelAttr getKernelModelAttr(MLIRContext *ctx, const GemmKernelSpec &spec,
                                   const ChipSpec &chip);

/// The #fp8.quantize_kernel of the kernel of `spec`.
QuantizeKernelAttr getQuantizeKernelAttr(MLIRContext *ctx,
                                         const QuantizeKernelSpec &spec);

/// How fp8-lower-to-nvvm reports an op no kernel implements.
enum class NoKernelReport {
  /// Nothing (fp8-launch-kernels: fp8-lower-to-nvvm reported it).
  silent,
  /// A remark: the op stays on the host, whose lowering computes it.
  remark,
  /// An error (option require-kernels): no op may stay on the host.
  error,
};

/// The diagnostic of an op no kernel implements, at `loc`: a remark or an
/// error as `report` says (not `silent`).
InFlightDiagnostic emitNoKernel(Location loc, NoKernelReport report);

/// The quantize kernel's spec for `op`, or nullopt when the op stays a host
/// (CPU) op; `report` says how the reason is reported.
std::optional<QuantizeKernelSpec> getQuantizeSpec(QuantizeOp op,
                                                  NoKernelReport report);

/// The transpose-requantize kernel's spec for `op` ([T, F] -> [F, T], 1x128
/// tiles in and out), or nullopt when the op stays a host op; `report`
/// says how the reason is reported.
std::optional<QuantizeKernelSpec> getRequantizeSpec(RequantizeOp op,
                                                    NoKernelReport report);

} // namespace fp8
} // namespace mlir

#endif // FP8_LIB_CONVERSION_FP8TONVVM_KERNELSPECS_H
