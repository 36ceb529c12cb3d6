//===- WeightView.h - which elements of which buffer a weight reads -*- C++
//-*-===//
//
// The identity of a weight (or an embedding table) as the analysis compares
// it: "the same weight" means the same elements of the same buffer, not the
// same root value. Exporters that pass every parameter in one flat buffer
// (`tensor<Nxf32>`, each weight a tensor.extract_slice + expand_shape
// (+ transpose) of it) give all weights one root; their views differ in
// the offsets, sizes and strides the view chain composes to.
//
// getWeightView follows a value back through the ops traceSource follows
// (isValuePreserving) and composes each view into a strided description of
// the elements it reads, in the row-major element order of the buffer it
// starts from: an offset and (size, stride) per dimension. The description
// is canonical in the element *set*: unit and broadcast (stride 0)
// dimensions are dropped, dimensions sorted by stride and contiguous ones
// merged, so a transpose or a reshape of the same elements compares equal
// (a weight W and the Wᵀ its fprop reads are one weight).
//
// Conservative rule: a step that cannot be composed exactly (dynamic
// offsets, sizes or shapes, a collapse of non-contiguous dimensions, a copy
// generic that is not a projected permutation, an unknown transpose
// attribute) ends the composition there: the view's base becomes that
// step's result, so two views are the same weight only when they read
// provably the same elements, and views through such steps are distinct
// unless they are the same SSA value.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_DIALECT_FP8_ANALYSIS_WEIGHTVIEW_H
#define FP8_DIALECT_FP8_ANALYSIS_WEIGHTVIEW_H

#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMapInfo.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <tuple>

namespace mlir::fp8 {

/// The elements a value reads of the buffer `base`: `layout` is
/// [offset, size0, stride0, size1, stride1, ...] in canonical form (see the
/// file comment), empty when `base`'s shape is not static (all of `base`).
struct WeightView {
  Value base;
  SmallVector<int64_t, 8> layout;

  bool operator==(const WeightView &o) const {
    return base == o.base && layout == o.layout;
  }
  bool operator!=(const WeightView &o) const { return !(*this == o); }
};

/// The view `v` is of its buffer, composed along its view chain.
WeightView getWeightView(Value v);

/// A function argument's parameter identity across functions (a split
/// backward gets the forward's parameters as its own arguments): the
/// argument's loc name and type, and the elements the view reads of it.
/// Opaque pointers of the name attribute and the type, then the layout.
using ParameterKey =
    std::tuple<const void *, const void *, SmallVector<int64_t, 8>>;

/// The ParameterKey of a view whose base is a named entry-block argument of
/// a function (`loc("mlp.gate.weight")`, as exporters name parameters);
/// none for other bases.
std::optional<ParameterKey> parameterKey(const WeightView &view);

} // namespace mlir::fp8

namespace llvm {
template <> struct DenseMapInfo<mlir::fp8::WeightView> {
  static mlir::fp8::WeightView getEmptyKey() {
    return {DenseMapInfo<mlir::Value>::getEmptyKey(), {}};
  }
  static mlir::fp8::WeightView getTombstoneKey() {
    return {DenseMapInfo<mlir::Value>::getTombstoneKey(), {}};
  }
  static unsigned getHashValue(const mlir::fp8::WeightView &v) {
    return static_cast<unsigned>(
        hash_combine(DenseMapInfo<mlir::Value>::getHashValue(v.base),
                     hash_combine_range(v.layout.begin(), v.layout.end())));
  }
  static bool isEqual(const mlir::fp8::WeightView &a,
                      const mlir::fp8::WeightView &b) {
    return a == b;
  }
};
} // namespace llvm

#endif // FP8_DIALECT_FP8_ANALYSIS_WEIGHTVIEW_H
