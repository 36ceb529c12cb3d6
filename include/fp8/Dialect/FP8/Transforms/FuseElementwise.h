//===- FuseElementwise.h - What element-wise fusion may rebuild -*- C++ -*-===//
//
// The ops fp8-fuse-elementwise, fp8-fold-rotate-half and the RoPE layout
// rewrites may replace by a rebuilt op (Passes.td): element-wise ops on
// tensors that carry no decision of an earlier pass.
//
//===----------------------------------------------------------------------===//
#ifndef FP8_DIALECT_FP8_TRANSFORMS_FUSEELEMENTWISE_H
#define FP8_DIALECT_FP8_TRANSFORMS_FUSEELEMENTWISE_H

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"

namespace mlir::fp8 {

/// Whether `op` is marked for a lowering (fp8-split-reductions'
/// fp8.reduction_lanes or fp8.column_lanes, or any other fp8.* attribute but
/// the graph's annotations: role, precision, reason, GEMM kind): a rebuilt
/// op would lose its mark.
bool carriesDecision(Operation *op);

/// Whether `op` is an element-wise linalg op on tensors (every loop
/// parallel) that carries no decision: one the fusions may rebuild.
bool isFusableElementwise(linalg::LinalgOp op);

} // namespace mlir::fp8

#endif // FP8_DIALECT_FP8_TRANSFORMS_FUSEELEMENTWISE_H
