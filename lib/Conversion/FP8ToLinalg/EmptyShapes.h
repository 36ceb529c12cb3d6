//===- EmptyShapes.h - fp8 ops with an empty result or K = 0 ----*- C++ -*-===//
#ifndef FP8_LIB_CONVERSION_FP8TOLINALG_EMPTYSHAPES_H
#define FP8_LIB_CONVERSION_FP8TOLINALG_EMPTYSHAPES_H

#include "mlir/Transforms/DialectConversion.h"

namespace mlir::fp8::detail {

/// Lowers the fp8 compute ops that compute nothing (a static dimension of
/// the result is 0: tensor.empty results) and the 2-D scaled_matmul of an
/// empty contraction (static K = 0: C, converted to the result type, or a
/// +0.0 fill), before the general patterns, which cannot build them.
void populateEmptyShapeLowering(const TypeConverter &converter,
                                RewritePatternSet &patterns);

/// D = C with K = 0: C (of `sizes`) widened to f32 and rounded to `outElt`
/// (the promotion's arithmetic with no interval), or +0.0 without C (`c`
/// empty).
Value emptySum(OpBuilder &b, Location loc, ValueRange c,
               ArrayRef<OpFoldResult> sizes, Type outElt);

/// The parts of a lowered value of `type` (one tensor, or the codes and
/// scales of a !fp8.scaled), each cast to the part's type where it differs:
/// a size the lowering folded to a constant (tensor.dim of a tensor.cast of
/// a static tensor) is dynamic in the op's type.
SmallVector<Value> castToParts(OpBuilder &b, Location loc, ValueRange parts,
                               Type type);

} // namespace mlir::fp8::detail

#endif // FP8_LIB_CONVERSION_FP8TOLINALG_EMPTYSHAPES_H
