//===- ReductionLanes.h - the fp8.reduction_lanes attribute -----*- C++ -*-===//
//
// The discardable attribute of a float row sum whose order is
// fp8-split-reductions' lane split (or of a row max, which no order
// changes): fp8-split-reductions{row-kernels} writes it,
// fp8-outline-host-kernels lowers the reduction to one warp-per-row kernel,
// the dialect's verifier checks it (docs/numerics.md, "Reduction order").
//
//===----------------------------------------------------------------------===//
#ifndef FP8_DIALECT_FP8_IR_REDUCTIONLANES_H
#define FP8_DIALECT_FP8_IR_REDUCTIONLANES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace mlir::fp8 {

/// Name of the discardable attribute of a linalg.generic row sum (or row
/// max) whose order is the lane split with that many lanes (an i64 power of
/// two >= 2).
inline constexpr llvm::StringLiteral kReductionLanesAttrName =
    "fp8.reduction_lanes";

/// Name of the discardable attribute of a sum marked kReductionLanesAttrName:
/// the elements each lane adds per step, consecutive (an i64 power of two
/// in [1, 16]; fp8-split-reductions' `vector`). Absent means 1, the
/// lane-strided order of one element per lane and step.
inline constexpr llvm::StringLiteral kReductionVectorAttrName =
    "fp8.reduction_vector";

/// Name of the discardable attribute (an i64 >= 0, the group's id, unique
/// in the module) of a marked row sum and of the elementwise ops that
/// consume its per-row result (fp8-split-reductions{row-kernels}): the
/// row kernel computes them too, in the same launch (docs/gpu-kernel.md,
/// "Fused row kernels").
inline constexpr llvm::StringLiteral kRowGroupAttrName = "fp8.row_group";

/// Name of the discardable attribute of a linalg.generic column sum (the
/// reduction not the inputs' innermost dimension: RMSNorm's weight gradient
/// over the tokens) whose order is the lane split with that many lanes and
/// one element per lane and step (an i64 power of two >= 2):
/// fp8-split-reductions{row-kernels} writes it instead of splitting the sum,
/// fp8-outline-host-kernels lowers it to one launch whose CTAs hold the
/// lanes of a few columns and run the halving tree through shared memory
/// (docs/gpu-kernel.md, "Column-sum kernels").
inline constexpr llvm::StringLiteral kColumnLanesAttrName = "fp8.column_lanes";

/// The combiner of a one-init row reduction's body: the yielded
/// `arith.addf` (a sum) or `arith.maximumf` (a max) of the init's block
/// argument, which nothing else uses, and another value.
struct RowCombiner {
  Operation *op;
  /// The accumulator is the combiner's left operand.
  bool accumulatorFirst;
  bool max;
  arith::FastMathFlagsAttr fastmath;
};

/// `op`'s RowCombiner, or std::nullopt: what fp8-split-reductions splits or
/// marks, and what fp8-outline-host-kernels checks again on a marked op
/// (the attribute may be written by hand).
inline std::optional<RowCombiner> matchRowCombiner(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  auto yield = dyn_cast<linalg::YieldOp>(body->getTerminator());
  if (!yield || yield->getNumOperands() != 1)
    return std::nullopt;
  Operation *def = yield->getOperand(0).getDefiningOp();
  BlockArgument acc = body->getArgument(op.getNumDpsInputs());
  if (!isa_and_present<arith::AddFOp, arith::MaximumFOp>(def) ||
      def->getBlock() != body || !acc.hasOneUse() ||
      (def->getOperand(0) != acc && def->getOperand(1) != acc))
    return std::nullopt;
  return RowCombiner{
      def, def->getOperand(0) == acc, isa<arith::MaximumFOp>(def),
      cast<arith::ArithFastMathInterface>(def).getFastMathFlagsAttr()};
}

/// Why `op` has not the shape of an op of a row group (empty when it
/// has): all iterators parallel, one output indexed by the identity whose
/// initial value the body does not read, and a loop space equal to the
/// row reduction's `sumRanges` (an elementwise op: `element` is set) or to
/// its rows, the dimensions its output's `rowMap` (a projected permutation,
/// one result per row dimension) reads (a per-row op). The tensor side
/// (fp8-split-reductions, deciding the group) and the buffer side
/// (fp8-outline-host-kernels, checking it again: the attribute may be
/// written by hand) ask this one question.
inline std::string whyNotRowGroupShape(linalg::LinalgOp op,
                                       ArrayRef<int64_t> sumRanges,
                                       AffineMap rowMap, bool &element) {
  if (op.getNumParallelLoops() != op.getNumLoops())
    return "an iterator is not parallel";
  if (op.getNumDpsInits() != 1 || op->getNumResults() > 1)
    return "it has several outputs";
  OpOperand *init = op.getDpsInitOperand(0);
  if (!op.getMatchingBlockArgument(init).use_empty())
    return "its body reads its output's initial value";
  if (!op.getMatchingIndexingMap(init).isIdentity())
    return "its output's indexing map is not the identity";
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<int64_t> rows;
  for (auto [d, range] : llvm::enumerate(sumRanges))
    if (rowMap.isFunctionOfDim(d))
      rows.push_back(range);
  element = llvm::equal(ranges, sumRanges);
  if (!element &&
      !(llvm::equal(ranges, rows) && rowMap.isProjectedPermutation() &&
        rowMap.getNumResults() == rows.size()))
    return "its iteration space is neither the rows of the sum nor their "
           "elements";
  return "";
}

} // namespace mlir::fp8

#endif // FP8_DIALECT_FP8_IR_REDUCTIONLANES_H
