//===- BatchBroadcast.h - a tensor broadcast over a batch -------*- C++ -*-===//
//
// One matcher for "this operand is one tensor broadcast over the batch", which
// the role analysis (is an argument a weight shared by every batch, or a KV
// cache?), fp8-normalize-forms (lay the weight out once, not once per batch)
// and fp8-insert-quant (quantize the weight once) all ask.
//
// A broadcast is a linalg.broadcast, or a copy generic (torch-mlir's
// `expand`, StableHLO's broadcast_in_dim written out) whose output map is a
// permutation and whose input map reads each source dim either along a loop
// or, for a unit dim, at index 0 (`(d0, d1, d2) -> (0, d1, d2)`: torch-mlir's
// expand of a size-1 dim). The loops the input does not read are the
// broadcast dims of the result.
//
//===----------------------------------------------------------------------===//
#ifndef FP8_DIALECT_FP8_ANALYSIS_BATCHBROADCAST_H
#define FP8_DIALECT_FP8_ANALYSIS_BATCHBROADCAST_H

#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mlir::fp8 {

/// A result computed by broadcasting `source`.
struct Broadcast {
  /// The `sourceDims` entry of a unit dim read at index 0.
  static constexpr int64_t kUnitDim = -1;

  Value source;
  /// For each dim of `source`, the dim of the result it is read along, or
  /// kUnitDim.
  SmallVector<int64_t> sourceDims;
  /// The dims of the result the source does not vary over, ascending.
  SmallVector<unsigned> broadcastDims;

  /// The number of unit source dims read at index 0.
  unsigned getNumUnitDims() const;
  /// The result dims the other source dims are read along, in source order.
  SmallVector<unsigned> getReadDims() const;
};

/// Which producers the matcher looks through; each pass asks for what it can
/// use (see docs/policies.md, "Accepted forms").
struct BroadcastOptions {
  /// Also accept a generic that casts as it broadcasts (`weight.to(bf16)`
  /// fused into the expand). The role analysis asks only what the operand
  /// varies over; a pass that replaces the operand by the source must not
  /// take it (the source holds other values).
  bool allowCast = false;
  /// Follow a chain of value-preserving ops (reshapes, slices, transposes,
  /// copies, casts) to the first broadcast on it. The dims then no longer
  /// line up with the operand's: only the role analysis, which compares
  /// element counts, asks for it.
  bool throughChain = false;
};

/// `v` as a broadcast of its producer's input (a result dim not read, or a
/// unit dim read at index 0); none when the producer broadcasts nothing.
std::optional<Broadcast> matchBroadcast(Value v, BroadcastOptions options = {});

/// `v` as a broadcast over exactly the result dims `batchDims` (any order):
/// one tensor shared by every batch. Not through a chain.
std::optional<Broadcast> matchBatchBroadcast(Value v,
                                             ArrayRef<unsigned> batchDims,
                                             bool allowCast = false);

/// True when `v`, an operand with `numBatch` leading batch dims, is one
/// tensor broadcast over the batch, as the role analysis reads it: the first
/// broadcast on its value-preserving chain (casts included) has a source
/// with no more elements than one batch of `v` (a weight [K, N], or a slice
/// of a fused weight, broadcast to [B, K, N]; tokens [T, H] broadcast to
/// every expert). A KV cache repeated over the query heads of a group
/// (GQA's repeat_kv: [B, Hkv, S, D] to [B * H, S, D]) has more: it varies
/// over the batch. With run-time sizes, the source less its leading unit
/// dims must have no more dims than one batch (a dynamic cache [Hkv, S, D]
/// has one more than [S, D]).
bool isBroadcastOverBatch(Value v, unsigned numBatch);

} // namespace mlir::fp8

#endif // FP8_DIALECT_FP8_ANALYSIS_BATCHBROADCAST_H
