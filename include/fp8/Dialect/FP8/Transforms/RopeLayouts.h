//===- RopeLayouts.h - RoPE's reads and head permutations -------*- C++ -*-===//
//
// What fp8-fuse-elementwise needs to fuse RoPE with the head permutations
// around it (Passes.td, fp8-fold-rotate-half and fp8-fuse-elementwise): the
// indexing maps that read each element of an operand at most once, and the
// rewrites that fold a permutation's reshape into an indexing map.
//
//===----------------------------------------------------------------------===//
#ifndef FP8_DIALECT_FP8_TRANSFORMS_ROPELAYOUTS_H
#define FP8_DIALECT_FP8_TRANSFORMS_ROPELAYOUTS_H

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::fp8 {

/// Whether `map` (over loops of the static `ranges`) reads no element
/// twice: every loop dimension appears once, in a result that is the
/// dimension, a rotation of it ((d + c) mod N, N its range:
/// fp8-fold-rotate-half's read of the other half), or a mixed-radix
/// linearization of several (sum of c_k * d_k, each c_k at least the
/// previous one times its dimension's range: a collapsed head view).
bool readsEachElementOnce(AffineMap map, ArrayRef<int64_t> ranges);

/// Whether a result of `map` is a rotation, (d + c) mod N.
bool readsRotated(AffineMap map);

/// The head permutations around RoPE as element-wise generics that
/// fp8-fuse-elementwise fuses with RoPE's own op:
/// collapse_shape(transpose(x)) read through a rotation (Q's and K's
/// [B, S, H, D] -> [B * H, S, D] before RoPE) becomes a generic over the
/// collapsed shape reading x through the delinearized permutation, and
/// transpose(expand_shape(y)), y the result of an element-wise generic of
/// one use (dQ's and dK's [B * H, S, D] -> [B, S, H, D] after RoPE's
/// backward), a generic reading y through the linearized permutation.
void populateFoldRopePermutationsPatterns(RewritePatternSet &patterns);

} // namespace mlir::fp8

#endif // FP8_DIALECT_FP8_TRANSFORMS_ROPELAYOUTS_H
