//===- GuardGathers.cpp - fp8-guard-gathers -------------------------------===//
//
// A gather (a tensor.extract in a linalg.generic body at an index computed
// from loaded data, e.g. a token id) reads out of bounds for an id outside
// the table once lowered. This pass clamps each such index with an unsigned
// compare and makes a float result NaN where an index was out of range
// (Passes.td). It also drops the writes at such indices outside linalg
// bodies (a scatter: GuardSlices.cpp).
//
//===----------------------------------------------------------------------===//
#include "fp8/Dialect/FP8/Transforms/Passes.h"

#include "GuardIndices.h"
#include "fp8/Dialect/FP8/Utils/FP8Arith.h"

#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::fp8 {
#define GEN_PASS_DEF_FP8GUARDGATHERSPASS
#include "fp8/Dialect/FP8/Transforms/Passes.h.inc"
} // namespace mlir::fp8

using namespace mlir;

namespace {

/// Whether `index`, used in the body of `generic`, depends on loaded data:
/// on a block argument of the body (an input element), on a value the body
/// reads (a `tensor.extract` of a captured tensor: pure, so any op reading
/// a shaped operand but tensor.dim counts) or computes with side effects,
/// or on a value from outside the generic that depends on loaded data
/// (`isLoadedValue`: an id extracted before the generic). Loop indices,
/// constants, sizes and the other values from outside are the program's
/// own. Deep chains count as data: a needless guard is only slower, a
/// missing one reads out of bounds.
bool isDataDependent(Value index, linalg::GenericOp generic,
                     unsigned depth = 0) {
  if (depth > 16)
    return true;
  Operation *owner = isa<BlockArgument>(index)
                         ? cast<BlockArgument>(index).getOwner()->getParentOp()
                         : index.getDefiningOp();
  if (!generic->isAncestor(owner))
    return fp8::detail::isLoadedValue(index);
  if (isa<BlockArgument>(index))
    return true; // an input or output element of the body
  Operation *def = index.getDefiningOp();
  if (isa<linalg::IndexOp, tensor::DimOp>(def) ||
      matchPattern(index, m_Constant()))
    return false;
  if (!isMemoryEffectFree(def) || def->getNumRegions() != 0 ||
      llvm::any_of(def->getOperandTypes(), llvm::IsaPred<ShapedType>))
    return true;
  return llvm::any_of(def->getOperands(), [&](Value operand) {
    return isDataDependent(operand, generic, depth + 1);
  });
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
    if (!isDataDependent(index, generic) ||
        fp8::detail::isGuardedIndex(index, table, dim, /*span=*/0))
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

struct FP8GuardGathersPass
    : fp8::impl::FP8GuardGathersPassBase<FP8GuardGathersPass> {
  void runOnOperation() override {
    if (failed(fp8::detail::guardSlices(getOperation())))
      return signalPassFailure();
    SmallVector<std::pair<tensor::ExtractOp, linalg::GenericOp>> gathers;
    getOperation()->walk([&](linalg::GenericOp generic) {
      generic.getRegion().walk(
          [&](tensor::ExtractOp ex) { gathers.push_back({ex, generic}); });
    });
    OpBuilder b(&getContext());
    for (auto [ex, generic] : gathers) {
      b.setInsertionPoint(ex);
      SmallVector<Value> oks = clampIndices(b, ex, generic);
      if (!oks.empty())
        fp8::detail::guardExtractResult(b, ex, oks, "gather");
    }
  }
};

} // namespace

Value fp8::detail::allOf(OpBuilder &b, Location loc, ArrayRef<Value> oks) {
  Value all = oks.front();
  for (Value ok : oks.drop_front())
    all = arith::AndIOp::create(b, loc, all, ok);
  return all;
}

void fp8::detail::guardExtractResult(OpBuilder &b, tensor::ExtractOp ex,
                                     ArrayRef<Value> oks, StringRef what) {
  auto type = dyn_cast<FloatType>(ex.getType());
  if (!type || !APFloat::semanticsHasNaN(type.getFloatSemantics())) {
    ::mlir::emitRemark(ex.getLoc())
        << "fp8-guard-gathers: an out-of-range index of this " << what
        << " reads element 0 (its " << ex.getType() << " result has no NaN)";
    return;
  }
  Location loc = ex.getLoc();
  b.setInsertionPointAfter(ex);
  Value all = allOf(b, loc, oks);
  // The GPU's canonical NaN, so a NaN row has the same bits on both
  // pipelines (docs/numerics.md, "NaN encodings").
  Value nan = createCanonicalNaNConstant(b, loc, type);
  Value guarded = arith::SelectOp::create(b, loc, all, ex.getResult(), nan);
  ex.getResult().replaceAllUsesExcept(guarded, guarded.getDefiningOp());
}
