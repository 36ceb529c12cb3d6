//===- TiledScaledMatmul.h - tiled exact fp8.scaled_matmul -*- C++ -*-===//
#ifndef FP8_LIB_CONVERSION_FP8TOLINALG_TILEDSCALEDMATMUL_H
#define FP8_LIB_CONVERSION_FP8TOLINALG_TILEDSCALEDMATMUL_H

#include "mlir/IR/Builders.h"

namespace mlir::fp8::detail {

/// The decomposed operands of one exact-path fp8.scaled_matmul (NT).
struct TiledScaledMatmulOperands {
  Value aCodes, aScales; // [M, K] FP8 codes, ceil([M, K] / aBlock) scales
  Value bCodes, bScales; // [N, K] FP8 codes, ceil([N, K] / bBlock) scales
  ArrayRef<int64_t> aBlock, bBlock;
  int64_t interval;
  Value c;             // optional f32 [M, N] initial accumulator
  int64_t vectorLanes; // f32 lanes of the kernel's vectors: 8 or 16
};

/// The f32 accumulator [M, N] of the exact path (partials of each promotion
/// interval in increasing k, promoted by fma(partial, sa * sb, acc)),
/// bit-identical to the reference generics, computed by a register-tiled,
/// vectorised kernel over MR x NR output tiles (one scf.forall): 4 x 24 with
/// 8 lanes, 8 x 48 with 16.
Value buildTiledScaledMatmul(OpBuilder &b, Location loc,
                             const TiledScaledMatmulOperands &op);

} // namespace mlir::fp8::detail

#endif // FP8_LIB_CONVERSION_FP8TOLINALG_TILEDSCALEDMATMUL_H
