//===- GuardGathers.cpp - fp8-guard-gathers -------------------------------===//
//
// A gather (a tensor.extract in a linalg.generic body at an index computed
// from loaded data, e.g. a token id) reads out of bounds for an id outside
// the table once lowered. This pass clamps each such index with an unsigned
// compare and makes a float result NaN where an index was out of range
// (Passes.td).
//
//===----------------------------------------------------------------------===//
#include "fp8/Dialect/FP8/Transforms/Passes.h"

#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::fp8 {
#define GEN_PASS_DEF_FP8GUARDGATHERSPASS
#include "fp8/Dialect/FP8/Transforms/Passes.h.inc"
} // namespace mlir::fp8

using namespace mlir;

namespace {

/// Whether `index`, used in the body of `generic`, depends on loaded data:
/// on a block argument of the body (an input element) or on a value the
/// body reads or computes with side effects (another extract). Loop
/// indices, constants and values from outside the generic are the
/// program's own. Deep chains count as data: a needless guard is only
/// slower, a missing one reads out of bounds.
bool isDataDependent(Value index, linalg::GenericOp generic,
                     unsigned depth = 0) {
  if (depth > 16)
    return true;
  if (auto arg = dyn_cast<BlockArgument>(index))
    return arg.getOwner() == generic.getBody();
  Operation *def = index.getDefiningOp();
  if (!generic->isProperAncestor(def))
    return false;
  if (isa<linalg::IndexOp>(def) || matchPattern(index, m_Constant()))
    return false;
  if (!isMemoryEffectFree(def) || def->getNumRegions() != 0)
    return true;
  return llvm::any_of(def->getOperands(), [&](Value operand) {
    return isDataDependent(operand, generic, depth + 1);
  });
}

/// Whether `bound` is at most dimension `dim` of `table`: a constant no
/// larger than its static size, or `tensor.dim %table, dim`.
bool boundsDimension(Value bound, Value table, int64_t dim) {
  APInt c;
  auto type = cast<RankedTensorType>(table.getType());
  if (matchPattern(bound, m_ConstantInt(&c)))
    return !type.isDynamicDim(dim) && c.getActiveBits() <= 63 &&
           static_cast<int64_t>(c.getZExtValue()) <= type.getDimSize(dim);
  auto dimOp = bound.getDefiningOp<tensor::DimOp>();
  std::optional<int64_t> d = dimOp ? dimOp.getConstantIndex() : std::nullopt;
  return dimOp && dimOp.getSource() == table && d == dim;
}

/// Whether `index` is already guarded as this pass (or a graph by hand)
/// guards it: after index casts, `select(x ult bound, x, 0)`
/// with `bound` within dimension `dim` of `table`.
bool isGuarded(Value index, Value table, int64_t dim) {
  while (Operation *cast = index.getDefiningOp()) {
    if (!isa<arith::IndexCastOp, arith::IndexCastUIOp>(cast))
      break;
    index = cast->getOperand(0);
  }
  auto select = index.getDefiningOp<arith::SelectOp>();
  if (!select || !matchPattern(select.getFalseValue(), m_Zero()))
    return false;
  auto cmp = select.getCondition().getDefiningOp<arith::CmpIOp>();
  return cmp && cmp.getPredicate() == arith::CmpIPredicate::ult &&
         cmp.getLhs() == select.getTrueValue() &&
         boundsDimension(cmp.getRhs(), table, dim);
}

/// The size of dynamic dimension `dim` of `table`: a `tensor.dim` before
/// `generic` when the table comes from outside it (a captured table, as an
/// embedding's): computed once, not per element, and the body gains no
/// tensor op besides its read; else before the read.
Value dynamicSize(OpBuilder &b, Value table, int64_t dim,
                  linalg::GenericOp generic, Location loc) {
  OpBuilder::InsertionGuard guard(b);
  if (!generic->isAncestor(table.getParentRegion()->getParentOp()))
    b.setInsertionPoint(generic);
  return tensor::DimOp::create(b, loc, table, dim);
}

/// Clamps the unguarded data-dependent indices of `ex` (in the body of
/// `generic`) to 0 where out of range; returns their in-range flags.
SmallVector<Value> clampIndices(OpBuilder &b, tensor::ExtractOp ex,
                                linalg::GenericOp generic) {
  SmallVector<Value> oks;
  Value table = ex.getTensor();
  auto type = cast<RankedTensorType>(table.getType());
  Location loc = ex.getLoc();
  for (auto [dim, operand] : llvm::enumerate(ex.getIndicesMutable())) {
    Value index = operand.get();
    if (!isDataDependent(index, generic) || isGuarded(index, table, dim))
      continue;
    Value size = type.isDynamicDim(dim)
                     ? dynamicSize(b, table, dim, generic, loc)
                     : Value(arith::ConstantIndexOp::create(
                           b, loc, type.getDimSize(dim)));
    // Unsigned: a negative id is a huge index, out of range too.
    Value ok =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, index, size);
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    operand.set(arith::SelectOp::create(b, loc, ok, index, zero));
    oks.push_back(ok);
  }
  return oks;
}

/// Replaces the uses of `ex`'s result by NaN where one of `oks` is false.
void selectNaN(OpBuilder &b, tensor::ExtractOp ex, FloatType type,
               ArrayRef<Value> oks) {
  Location loc = ex.getLoc();
  b.setInsertionPointAfter(ex);
  Value all = oks.front();
  for (Value ok : oks.drop_front())
    all = arith::AndIOp::create(b, loc, all, ok);
  Value nan = arith::ConstantOp::create(
      b, loc, type,
      b.getFloatAttr(type, APFloat::getNaN(type.getFloatSemantics())));
  Value guarded = arith::SelectOp::create(b, loc, all, ex.getResult(), nan);
  ex.getResult().replaceAllUsesExcept(guarded, guarded.getDefiningOp());
}

struct FP8GuardGathersPass
    : fp8::impl::FP8GuardGathersPassBase<FP8GuardGathersPass> {
  void runOnOperation() override {
    SmallVector<std::pair<tensor::ExtractOp, linalg::GenericOp>> gathers;
    getOperation()->walk([&](linalg::GenericOp generic) {
      generic.getRegion().walk(
          [&](tensor::ExtractOp ex) { gathers.push_back({ex, generic}); });
    });
    OpBuilder b(&getContext());
    for (auto [ex, generic] : gathers) {
      b.setInsertionPoint(ex);
      SmallVector<Value> oks = clampIndices(b, ex, generic);
      if (oks.empty())
        continue;
      auto floatType = dyn_cast<FloatType>(ex.getType());
      if (floatType &&
          APFloat::semanticsHasNaN(floatType.getFloatSemantics())) {
        selectNaN(b, ex, floatType, oks);
        continue;
      }
      ex.emitRemark() << "fp8-guard-gathers: an out-of-range index of this "
                         "gather reads element 0 (its "
                      << ex.getType() << " result has no NaN)";
    }
  }
};

} // namespace
