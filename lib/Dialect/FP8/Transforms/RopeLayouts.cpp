//===- RopeLayouts.cpp - RoPE's reads and head permutations ---------------===//
//
// The indexing maps fp8-fuse-elementwise may fuse through (each element
// read at most once) and the rewrites of the head permutations around RoPE
// into element-wise generics it fuses with RoPE (RopeLayouts.h).
//
//===----------------------------------------------------------------------===//
#include "fp8/Dialect/FP8/Transforms/RopeLayouts.h"
#include "fp8/Dialect/FP8/Transforms/FuseElementwise.h"

#include "fp8/Dialect/FP8/IR/FP8.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;

namespace {

/// The dimension `expr` rotates, (d + c) mod N with N the range of d and
/// 0 <= c, or -1.
int64_t rotatedDim(AffineExpr expr, ArrayRef<int64_t> ranges) {
  auto mod = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!mod || mod.getKind() != AffineExprKind::Mod)
    return -1;
  auto sum = dyn_cast<AffineBinaryOpExpr>(mod.getLHS());
  auto n = dyn_cast<AffineConstantExpr>(mod.getRHS());
  if (!sum || sum.getKind() != AffineExprKind::Add || !n)
    return -1;
  auto dim = dyn_cast<AffineDimExpr>(sum.getLHS());
  auto c = dyn_cast<AffineConstantExpr>(sum.getRHS());
  if (!dim || !c || c.getValue() < 0)
    return -1;
  if (!ranges.empty() && ranges[dim.getPosition()] != n.getValue())
    return -1;
  return dim.getPosition();
}

/// The terms c * d of `expr`, a sum of dimensions times constants.
bool collectTerms(AffineExpr expr, int64_t scale,
                  SmallVectorImpl<std::pair<int64_t, unsigned>> &terms) {
  if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
    terms.push_back({scale, dim.getPosition()});
    return true;
  }
  auto bin = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!bin)
    return false;
  if (bin.getKind() == AffineExprKind::Add)
    return collectTerms(bin.getLHS(), scale, terms) &&
           collectTerms(bin.getRHS(), scale, terms);
  auto c = dyn_cast<AffineConstantExpr>(bin.getRHS());
  if (bin.getKind() == AffineExprKind::Mul && c && c.getValue() > 0)
    return collectTerms(bin.getLHS(), scale * c.getValue(), terms);
  return false;
}

/// The dimensions of `expr` when it is a rotation of one or a mixed-radix
/// linearization (each coefficient at least the previous one times its
/// dimension's range: distinct dimension values, distinct results).
std::optional<SmallVector<unsigned>> injectiveDims(AffineExpr expr,
                                                   ArrayRef<int64_t> ranges) {
  int64_t rotated = rotatedDim(expr, ranges);
  if (rotated >= 0)
    return SmallVector<unsigned>{static_cast<unsigned>(rotated)};
  SmallVector<std::pair<int64_t, unsigned>> terms;
  if (!collectTerms(expr, 1, terms))
    return std::nullopt;
  llvm::sort(terms);
  int64_t next = 1;
  SmallVector<unsigned> dims;
  for (auto [coefficient, dim] : terms) {
    if (coefficient < next || ShapedType::isDynamic(ranges[dim]))
      return std::nullopt;
    next = coefficient * ranges[dim];
    dims.push_back(dim);
  }
  return dims;
}

/// A copy of `input` into a new tensor of `type` reading it through `map`.
Value copyThrough(PatternRewriter &rewriter, Location loc, Value input,
                  AffineMap map, RankedTensorType type) {
  Value init = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                       type.getElementType());
  SmallVector<utils::IteratorType> parallel(type.getRank(),
                                            utils::IteratorType::parallel);
  auto copy = linalg::GenericOp::create(
      rewriter, loc, type, ValueRange{input}, ValueRange{init},
      ArrayRef<AffineMap>{map, rewriter.getMultiDimIdentityMap(type.getRank())},
      parallel, [](OpBuilder &b, Location l, ValueRange args) {
        linalg::YieldOp::create(b, l, args[0]);
      });
  return copy.getResult(0);
}

/// Q's and K's permutation before RoPE: collapse_shape(transpose(x)) read
/// by a generic through a rotation becomes one generic over the collapsed
/// shape that reads x at the transpose's index of each collapsed index,
/// delinearized ((i floordiv H, i mod H) for [B * H] -> [B, H]).
struct FoldCollapsedPermutation : OpRewritePattern<tensor::CollapseShapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::CollapseShapeOp collapse,
                                PatternRewriter &rewriter) const override {
    auto transpose = collapse.getSrc().getDefiningOp<linalg::TransposeOp>();
    if (!transpose || !transpose->hasOneUse() ||
        !fp8::isFusableElementwise(transpose))
      return rewriter.notifyMatchFailure(collapse, "not of a transpose");
    RankedTensorType from = collapse.getSrcType(),
                     to = collapse.getResultType();
    if (!from.hasStaticShape() || !to.hasStaticShape())
      return rewriter.notifyMatchFailure(collapse, "dynamic shape");
    bool rotated = llvm::any_of(collapse->getUses(), [](OpOperand &use) {
      auto generic = dyn_cast<linalg::GenericOp>(use.getOwner());
      return generic && generic.isDpsInput(&use) &&
             fp8::readsRotated(generic.getMatchingIndexingMap(&use));
    });
    if (!rotated)
      return rewriter.notifyMatchFailure(collapse, "not read by a rotation");
    // The transposed index of each collapsed one.
    SmallVector<AffineExpr> delinearized;
    for (auto [i, group] :
         llvm::enumerate(collapse.getReassociationIndices())) {
      AffineExpr index = rewriter.getAffineDimExpr(i);
      int64_t stride = 1;
      for (int64_t dim : group)
        stride *= from.getDimSize(dim);
      for (auto [k, dim] : llvm::enumerate(group)) {
        stride /= from.getDimSize(dim);
        AffineExpr digit = index.floorDiv(stride);
        delinearized.push_back(k == 0 ? digit : digit % from.getDimSize(dim));
      }
    }
    AffineMap toTransposed =
        AffineMap::get(to.getRank(), 0, delinearized, rewriter.getContext());
    AffineMap read = transpose.getIndexingMapsArray()[0].compose(toTransposed);
    rewriter.replaceOp(collapse, copyThrough(rewriter, collapse.getLoc(),
                                             transpose.getInput(), read, to));
    return success();
  }
};

/// Whether `op`, or the generic producing one of its inputs, reads through
/// a rotation: RoPE's op, before or after fp8-fuse-elementwise fused the
/// rotation into it.
bool isRope(linalg::GenericOp op) {
  for (OpOperand *input : op.getDpsInputOperands()) {
    if (fp8::readsRotated(op.getMatchingIndexingMap(input)))
      return true;
    auto producer = input->get().getDefiningOp<linalg::GenericOp>();
    if (producer &&
        llvm::any_of(producer.getDpsInputOperands(), [&](OpOperand *in) {
          return fp8::readsRotated(producer.getMatchingIndexingMap(in));
        }))
      return true;
  }
  return false;
}

/// dQ's and dK's permutation after RoPE's backward: transpose(expand_shape
/// (y)), y RoPE's result and only used there, becomes one generic over the
/// transposed shape that reads y at the linearized index of each expanded
/// one (b * H + h for [B, H] -> [B * H]).
struct FoldExpandedPermutation : OpRewritePattern<linalg::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::TransposeOp transpose,
                                PatternRewriter &rewriter) const override {
    auto expand = transpose.getInput().getDefiningOp<tensor::ExpandShapeOp>();
    if (!expand || !expand->hasOneUse() ||
        !fp8::isFusableElementwise(transpose))
      return rewriter.notifyMatchFailure(transpose, "not of an expand_shape");
    auto rope = expand.getSrc().getDefiningOp<linalg::GenericOp>();
    if (!rope || !rope->hasOneUse() || !fp8::isFusableElementwise(rope) ||
        !rope.getIndexingMapMatchingResult(cast<OpResult>(expand.getSrc()))
             .isPermutation() ||
        !isRope(rope))
      return rewriter.notifyMatchFailure(transpose, "not of RoPE's result");
    RankedTensorType from = expand.getSrcType(), to = expand.getResultType();
    if (!from.hasStaticShape() || !to.hasStaticShape())
      return rewriter.notifyMatchFailure(transpose, "dynamic shape");
    SmallVector<AffineExpr> linearized;
    for (ReassociationIndices group : expand.getReassociationIndices()) {
      AffineExpr index = rewriter.getAffineConstantExpr(0);
      for (int64_t dim : group)
        index = index * to.getDimSize(dim) + rewriter.getAffineDimExpr(dim);
      linearized.push_back(index);
    }
    AffineMap fromExpanded =
        AffineMap::get(to.getRank(), 0, linearized, rewriter.getContext());
    AffineMap read = fromExpanded.compose(transpose.getIndexingMapsArray()[0]);
    // RoPE's location: fused, the copy is RoPE's backward writing dQ (or
    // dK) in the projection's layout, and the fused op keeps the copy's.
    rewriter.replaceOp(
        transpose,
        copyThrough(rewriter, rope.getLoc(), expand.getSrc(), read,
                    cast<RankedTensorType>(transpose.getInit().getType())));
    return success();
  }
};

} // namespace

bool fp8::readsEachElementOnce(AffineMap map, ArrayRef<int64_t> ranges) {
  if (map.isPermutation())
    return true;
  if (map.getNumSymbols() != 0 || ranges.size() != map.getNumDims())
    return false;
  llvm::SmallBitVector seen(map.getNumDims());
  for (AffineExpr result : map.getResults()) {
    std::optional<SmallVector<unsigned>> dims = injectiveDims(result, ranges);
    if (!dims)
      return false;
    for (unsigned d : *dims) {
      if (seen.test(d))
        return false;
      seen.set(d);
    }
  }
  // A loop dimension no result reads would read each element again.
  return seen.all();
}

bool fp8::readsRotated(AffineMap map) {
  return llvm::any_of(map.getResults(),
                      [](AffineExpr e) { return rotatedDim(e, {}) >= 0; });
}

void fp8::populateFoldRopePermutationsPatterns(RewritePatternSet &patterns) {
  patterns.add<FoldCollapsedPermutation, FoldExpandedPermutation>(
      patterns.getContext());
}
