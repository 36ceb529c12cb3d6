//===- GraphAnalysis.h - shared matchers for the fp8 graph passes -*- C++ -*-===//
//
// What fp8-assign-precision, fp8-insert-quant and fp8-report agree on: which
// linalg ops are matmul-like contractions, in which layout their operands
// are stored, and which values are weights (parameters) rather than
// activations.
//
//===----------------------------------------------------------------------===//
#ifndef FP8_LIB_TRANSFORMS_GRAPHANALYSIS_H
#define FP8_LIB_TRANSFORMS_GRAPHANALYSIS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Value.h"

#include <optional>

namespace mlir::fp8 {

/// A linalg contraction seen as D[m..., n] += A . B with one K and one N
/// loop. Batch loops (linalg.batch_matmul) count as leading M loops: for a
/// linear layer the weight is the same for every batch.
struct Contraction {
  linalg::LinalgOp op;
  /// Loop dims, from linalg::inferContractionDims (batch dims first in `m`).
  SmallVector<unsigned> mDims;
  unsigned nDim = 0, kDim = 0;
  /// Static extents (ShapedType::kDynamic when unknown); m = product.
  int64_t m = 0, n = 0, k = 0;
  /// Number of batch loops (a prefix of mDims).
  unsigned numBatch = 0;
  /// Operand layouts. A: true when stored [m..., k] (K last, M loops in
  /// order), false when stored [k, m] (rank 2, K first: contraction over
  /// tokens). Other layouts leave `supported` false.
  bool aKLast = true;
  /// B: true when stored [b..., n, k] (NT), false when [b..., k, n].
  bool bNK = false;
  /// True when the output is stored [m..., n] and the operands in one of the
  /// layouts above, i.e. fp8-insert-quant can rewrite it.
  bool supported = false;
  /// Why `supported` is false.
  std::string unsupportedReason;

  /// 2 * M * N * K, or 0 when a size is dynamic.
  int64_t flops() const;
};

/// Matches a matmul-like linalg contraction (linalg.matmul, batch_matmul,
/// contraction-shaped generics) with exactly one N and one K loop.
std::optional<Contraction> matchContraction(Operation *op);

/// True for ops that only move or reshape data: tensor reshapes and casts,
/// linalg.transpose/broadcast/copy, a linalg.generic whose body only yields
/// its single input (copy, transpose, broadcast), float casts.
bool isDataMovement(Operation *op);

/// What traceSource crossed on its way back.
struct TraceInfo {
  bool transpose = false; ///< a transposing copy or linalg.transpose
  bool broadcast = false; ///< a broadcast (a loop the input does not index)
};

/// Follows `v` back through data-movement ops to where it was computed.
Value traceSource(Value v, TraceInfo *info = nullptr);

/// What a weight traces back to, or "" when `v` is an activation: "function
/// argument", "constant" or "global".
StringRef weightSourceKind(Value v);

/// True for a linalg op with a reduction loop that is not a contraction.
bool isReduction(Operation *op);

/// True when `op`'s body (or the op itself) computes exp: softmax, sigmoid,
/// SiLU; or is a top-k / softmax op by name.
bool isSoftmaxLike(Operation *op);

/// For an embedding gather (a linalg.generic extracting rows of a captured
/// table indexed by its input), the table; else null.
Value getGatherTable(Operation *op);

/// Element type of an op's first result (or first tensor operand).
Type getComputeElementType(Operation *op);

} // namespace mlir::fp8

#endif // FP8_LIB_TRANSFORMS_GRAPHANALYSIS_H
