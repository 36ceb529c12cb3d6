//===- GuardIndices.h - fp8-guard-gathers' shared pieces --------*- C++ -*-===//
//
// fp8-guard-gathers guards the gathers of linalg bodies (GuardGathers.cpp)
// and the slices, inserts and extracts outside them (GuardSlices.cpp); both
// recognize an index already guarded the same way (Passes.td).
//
//===----------------------------------------------------------------------===//
#ifndef FP8_DIALECT_FP8_TRANSFORMS_GUARDINDICES_H
#define FP8_DIALECT_FP8_TRANSFORMS_GUARDINDICES_H

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"

namespace mlir::fp8::detail {

/// Whether `index` is already in range for an access of `span + 1`
/// elements along dimension `dim` of `table` (`span` the distance from the
/// first element to the last, 0 for one element), as this pass (or a graph
/// by hand) guards it: after index casts,
/// `select(x cmp bound, x, 0)` with `ult` and `bound <= size - span`, or
/// `ule` and `bound <= size - 1 - span`.
bool isGuardedIndex(Value index, Value table, int64_t dim, int64_t span);

/// Whether `index` (outside linalg bodies) depends on loaded data: on an
/// element read from a tensor or memory (any op reading a shaped operand
/// but tensor.dim / memref.dim), a loop-carried value or another block
/// argument that is not a function argument or loop induction variable.
bool isLoadedValue(Value index);

/// The conjunction of the in-range flags `oks` (at least one).
Value allOf(OpBuilder &b, Location loc, ArrayRef<Value> oks);

/// The result of `ex`, whose indices were clamped with the in-range flags
/// `oks`: a float with NaN becomes NaN where a flag is false (the uses of
/// `ex` replaced); any other type keeps the clamped read, and a remark on
/// `ex` (called a `what`) says an out-of-range index reads element 0.
void guardExtractResult(OpBuilder &b, tensor::ExtractOp ex, ArrayRef<Value> oks,
                        StringRef what);

/// Guards the data-dependent offsets and indices of the tensor slices,
/// inserts and extracts of `root` outside linalg bodies: an out-of-range
/// update is dropped, a read clamped (Passes.td, fp8-guard-gathers).
/// Fails, with an error on the op, where a slice at a data-dependent
/// offset has a size or stride that is not a constant.
LogicalResult guardSlices(Operation *root);

} // namespace mlir::fp8::detail

#endif // FP8_DIALECT_FP8_TRANSFORMS_GUARDINDICES_H
