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

#include "llvm/ADT/StringRef.h"

namespace mlir::fp8 {

/// Name of the discardable attribute of a linalg.generic row sum (or row
/// max) whose order is the lane split with that many lanes (an i64 power of
/// two >= 2).
inline constexpr llvm::StringLiteral kReductionLanesAttrName =
    "fp8.reduction_lanes";

} // namespace mlir::fp8

#endif // FP8_DIALECT_FP8_IR_REDUCTIONLANES_H
