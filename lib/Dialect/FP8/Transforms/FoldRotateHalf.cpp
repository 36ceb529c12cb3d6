//===- FoldRotateHalf.cpp - fp8-fold-rotate-half --------------------------===//
//
// RoPE's rotate_half, cat(f(x[..., D/2:]), g(x[..., :D/2])) built as two
// tensor.extract_slice, element-wise ops on the halves and two
// tensor.insert_slice into a fresh tensor, rewritten into one
// linalg.generic over the whole tensor that reads x at the rotated index
// (d + D/2) mod D and selects f or g by the half it writes: an element-wise
// op that fp8-fuse-elementwise can fuse with RoPE's products, where the
// slices and inserts were each a pass over the data (Passes.td).
//
//===----------------------------------------------------------------------===//
#include "fp8/Dialect/FP8/Transforms/FuseElementwise.h"
#include "fp8/Dialect/FP8/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::fp8 {
#define GEN_PASS_DEF_FP8FOLDROTATEHALFPASS
#include "fp8/Dialect/FP8/Transforms/Passes.h.inc"
} // namespace mlir::fp8

using namespace mlir;

namespace {

/// A half of the concatenation: the slice of `source` it reads (offset
/// `readOffset` along the last dimension) and the element-wise op applied
/// to it, if any.
struct Half {
  Value source;
  int64_t readOffset = 0;
  linalg::GenericOp op; // null: the slice itself
};

/// Whether `slice` (extract or insert) is a half of a static tensor of
/// `full`'s shape along its last dimension: unit strides, offsets 0 but
/// the last, sizes those of `full` but the last, which is half of it.
/// Returns the last offset, or -1.
int64_t halfOffset(OffsetSizeAndStrideOpInterface slice, RankedTensorType full,
                   RankedTensorType half) {
  if (!full.hasStaticShape() || !half || half.getShape().empty() ||
      full.getRank() != half.getRank() || !slice.hasUnitStride())
    return -1;
  int64_t rank = full.getRank(), d = full.getShape().back();
  if (d % 2 != 0 || half.getShape().back() != d / 2 ||
      full.getShape().drop_back() != half.getShape().drop_back())
    return -1;
  ArrayRef<int64_t> offsets = slice.getStaticOffsets();
  ArrayRef<int64_t> sizes = slice.getStaticSizes();
  if (ShapedType::isDynamicShape(sizes) || sizes != half.getShape())
    return -1;
  for (int64_t i = 0; i < rank; ++i) {
    if (ShapedType::isDynamic(offsets[i]))
      return -1;
    if (i + 1 < rank && offsets[i] != 0)
      return -1;
  }
  return offsets.back() == 0 || offsets.back() == d / 2 ? offsets.back() : -1;
}

/// An element-wise op of one input and one output that the rotation can
/// apply per element: identity maps, parallel iterators, a body of pure
/// ops that neither reads the output nor asks for its index.
bool isPointwise(linalg::GenericOp op) {
  if (!fp8::isFusableElementwise(op) || op.getNumDpsInputs() != 1 ||
      op.getNumDpsInits() != 1)
    return false;
  if (!llvm::all_of(op.getIndexingMapsArray(),
                    [](AffineMap m) { return m.isIdentity(); }))
    return false;
  if (!op.getMatchingBlockArgument(op.getDpsInitOperand(0)).use_empty())
    return false;
  return llvm::all_of(op.getBlock()->without_terminator(), [](Operation &o) {
    return isPure(&o) && !isa<linalg::IndexOp>(o) && o.getNumRegions() == 0;
  });
}

/// The half `value` is: a slice of a tensor of `full`'s type (the rotated
/// source), directly or through a pointwise op.
FailureOr<Half> matchHalf(Value value, RankedTensorType full) {
  Half half;
  if (auto op = value.getDefiningOp<linalg::GenericOp>()) {
    if (!isPointwise(op) || !op->hasOneUse())
      return failure();
    half.op = op;
    value = op.getDpsInputOperand(0)->get();
  }
  auto slice = value.getDefiningOp<tensor::ExtractSliceOp>();
  if (!slice)
    return failure();
  auto sourceType = dyn_cast<RankedTensorType>(slice.getSourceType());
  // The rotation reads the source at the result's index: the same shape.
  if (!sourceType || sourceType.getShape() != full.getShape() ||
      sourceType.getElementType() !=
          (half.op ? getElementTypeOrSelf(
                         half.op.getDpsInputOperand(0)->get().getType())
                   : full.getElementType()))
    return failure();
  half.readOffset = halfOffset(slice, full, slice.getResultType());
  if (half.readOffset < 0)
    return failure();
  half.source = slice.getSource();
  return half;
}

/// The value `half` yields for the element `in` of its source, its ops
/// cloned into the block `b` builds.
Value applyHalf(OpBuilder &b, Half half, Value in) {
  if (!half.op)
    return in;
  IRMapping map;
  Block *body = half.op.getBlock();
  map.map(body->getArgument(0), in);
  for (Operation &o : body->without_terminator())
    b.clone(o, map);
  return map.lookup(body->getTerminator()->getOperand(0));
}

/// rotate_half as one op. The outer insert_slice writes one half of a
/// tensor whose other half the inner insert_slice wrote: the two cover it,
/// so the destination's own values are never read.
struct FoldRotateHalf : OpRewritePattern<tensor::InsertSliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::InsertSliceOp outer,
                                PatternRewriter &rewriter) const override {
    auto inner = outer.getDest().getDefiningOp<tensor::InsertSliceOp>();
    if (!inner || !inner->hasOneUse())
      return rewriter.notifyMatchFailure(outer,
                                         "not the second of two inserts");
    RankedTensorType full = outer.getType();
    int64_t outerAt = halfOffset(outer, full, outer.getSourceType());
    int64_t innerAt = halfOffset(inner, full, inner.getSourceType());
    if (outerAt < 0 || innerAt < 0 || outerAt == innerAt)
      return rewriter.notifyMatchFailure(outer, "not the two halves");
    FailureOr<Half> outerHalf = matchHalf(outer.getSource(), full);
    FailureOr<Half> innerHalf = matchHalf(inner.getSource(), full);
    if (failed(outerHalf) || failed(innerHalf) ||
        outerHalf->source != innerHalf->source)
      return rewriter.notifyMatchFailure(outer, "not halves of one tensor");
    // A rotation: each half reads the other half of the source.
    if (outerHalf->readOffset != innerAt || innerHalf->readOffset != outerAt)
      return rewriter.notifyMatchFailure(outer, "not a rotation");
    const Half &low = outerAt == 0 ? *outerHalf : *innerHalf;
    const Half &high = outerAt == 0 ? *innerHalf : *outerHalf;

    int64_t rank = full.getRank(), d = full.getShape().back();
    MLIRContext *ctx = rewriter.getContext();
    AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
    SmallVector<AffineExpr> rotated(identity.getResults());
    rotated.back() = (rotated.back() + d / 2) % d;
    AffineMap read = AffineMap::get(rank, 0, rotated, ctx);
    Location loc = outer.getLoc();
    Value init = tensor::EmptyOp::create(rewriter, loc, full.getShape(),
                                         full.getElementType());
    SmallVector<utils::IteratorType> parallel(rank,
                                              utils::IteratorType::parallel);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, full, ValueRange{low.source}, ValueRange{init},
        ArrayRef<AffineMap>{read, identity}, parallel,
        [&](OpBuilder &b, Location l, ValueRange args) {
          // Both halves' ops run on every element; the select keeps the
          // one the element's half computed before (the same ops, the
          // same bits).
          Value index = linalg::IndexOp::create(b, l, rank - 1);
          Value mid = arith::ConstantIndexOp::create(b, l, d / 2);
          Value isLow = arith::CmpIOp::create(b, l, arith::CmpIPredicate::ult,
                                              index, mid);
          Value lowValue = applyHalf(b, low, args[0]);
          Value highValue = applyHalf(b, high, args[0]);
          Value r = arith::SelectOp::create(b, l, isLow, lowValue, highValue);
          linalg::YieldOp::create(b, l, r);
        });
    for (const Half *h : {&low, &high})
      if (h->op)
        for (NamedAttribute attr : h->op->getDiscardableAttrs())
          generic->setAttr(attr.getName(), attr.getValue());
    rewriter.replaceOp(outer, generic.getResult(0));
    return success();
  }
};

struct FP8FoldRotateHalfPass
    : fp8::impl::FP8FoldRotateHalfPassBase<FP8FoldRotateHalfPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FoldRotateHalf>(&getContext());
    GreedyRewriteConfig config;
    // Only the rewrite: the slices and ops it leaves unused are erased as
    // dead, nothing else of the graph is folded.
    config.enableFolding(false);
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    if (failed(
            applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      return signalPassFailure();
  }
};

} // namespace
