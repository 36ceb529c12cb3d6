//===- BatchBroadcast.cpp - a tensor broadcast over a batch ---------------===//
#include "fp8/Dialect/FP8/Analysis/BatchBroadcast.h"
#include "fp8/Dialect/FP8/Analysis/RoleAnalysis.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

using namespace mlir;
using namespace mlir::fp8;

unsigned Broadcast::getNumUnitDims() const {
  return llvm::count(sourceDims, kUnitDim);
}

SmallVector<unsigned> Broadcast::getReadDims() const {
  SmallVector<unsigned> dims;
  for (int64_t d : sourceDims)
    if (d != kUnitDim)
      dims.push_back(d);
  return dims;
}

namespace {
std::optional<Broadcast> matchLinalgBroadcast(linalg::BroadcastOp b) {
  Broadcast r;
  r.source = b.getInput();
  unsigned rank = cast<ShapedType>(b.getInit().getType()).getRank();
  for (unsigned d = 0; d < rank; ++d) {
    if (llvm::is_contained(b.getDimensions(), int64_t(d)))
      r.broadcastDims.push_back(d);
    else
      r.sourceDims.push_back(d);
  }
  if (r.broadcastDims.empty())
    return std::nullopt;
  return r;
}

/// A copy (or cast) generic: each source dim read along one loop, or a unit
/// dim at index 0; the output written through a permutation.
std::optional<Broadcast> matchBroadcastGeneric(linalg::GenericOp g) {
  AffineMap in = g.getIndexingMapsArray()[0];
  AffineMap out = g.getIndexingMapsArray()[1];
  if (!out.isPermutation())
    return std::nullopt;
  Broadcast r;
  r.source = g.getDpsInputOperand(0)->get();
  auto srcType = dyn_cast<ShapedType>(r.source.getType());
  if (!srcType || !srcType.hasRank())
    return std::nullopt;
  SmallVector<bool> loopRead(g.getNumLoops(), false);
  for (auto [i, e] : llvm::enumerate(in.getResults())) {
    if (auto d = dyn_cast<AffineDimExpr>(e)) {
      if (loopRead[d.getPosition()])
        return std::nullopt; // a diagonal, not a broadcast
      loopRead[d.getPosition()] = true;
      r.sourceDims.push_back(*out.getResultPosition(e));
      continue;
    }
    // A constant read of a dim longer than 1 is a slice, not a broadcast.
    auto c = dyn_cast<AffineConstantExpr>(e);
    if (!c || c.getValue() != 0 || srcType.getDimSize(i) != 1)
      return std::nullopt;
    r.sourceDims.push_back(Broadcast::kUnitDim);
  }
  for (unsigned d = 0; d < out.getNumResults(); ++d)
    if (!loopRead[out.getDimPosition(d)])
      r.broadcastDims.push_back(d);
  if (r.broadcastDims.empty() && r.getNumUnitDims() == 0)
    return std::nullopt;
  return r;
}

std::optional<Broadcast> matchProducer(Value v, bool allowCast) {
  Operation *def = v.getDefiningOp();
  if (auto b = dyn_cast_or_null<linalg::BroadcastOp>(def))
    return matchLinalgBroadcast(b);
  auto g = dyn_cast_or_null<linalg::GenericOp>(def);
  if (!g || !(isDataMovement(g) || (allowCast && isValuePreserving(g))))
    return std::nullopt;
  return matchBroadcastGeneric(g);
}

int64_t numElements(Value v) {
  auto t = dyn_cast<ShapedType>(v.getType());
  if (!t || !t.hasStaticShape())
    return -1;
  return t.getNumElements();
}
} // namespace

std::optional<Broadcast> fp8::matchBroadcast(Value v,
                                             BroadcastOptions options) {
  for (unsigned steps = 0; steps < kMaxTraceSteps; ++steps) {
    if (std::optional<Broadcast> r = matchProducer(v, options.allowCast))
      return r;
    Operation *def = v.getDefiningOp();
    if (!options.throughChain || !isValuePreserving(def))
      return std::nullopt;
    v = def->getOperand(0);
  }
  return std::nullopt;
}

std::optional<Broadcast> fp8::matchBatchBroadcast(Value v,
                                                  ArrayRef<unsigned> batchDims,
                                                  bool allowCast) {
  std::optional<Broadcast> r = matchProducer(v, allowCast);
  SmallVector<unsigned> batch(batchDims);
  llvm::sort(batch);
  if (!r || batch.empty() || r->broadcastDims != batch)
    return std::nullopt;
  return r;
}

bool fp8::isBroadcastOverBatch(Value v, unsigned numBatch) {
  std::optional<Broadcast> b =
      matchBroadcast(v, {/*allowCast=*/true, /*throughChain=*/true});
  if (!b)
    return false;
  Value src = b->source;
  ArrayRef<int64_t> batchShape =
      cast<ShapedType>(v.getType()).getShape().drop_front(numBatch);
  int64_t n = numElements(src), perBatch = 1;
  for (int64_t d : batchShape)
    perBatch = ShapedType::isDynamic(d) || perBatch < 0 ? -1 : perBatch * d;
  if (n >= 0 && perBatch >= 0)
    return n <= perBatch;
  auto srcType = dyn_cast<ShapedType>(src.getType());
  if (!srcType || !srcType.hasRank())
    return true;
  ArrayRef<int64_t> srcShape = srcType.getShape();
  while (!srcShape.empty() && srcShape.front() == 1)
    srcShape = srcShape.drop_front();
  return srcShape.size() <= batchShape.size();
}
