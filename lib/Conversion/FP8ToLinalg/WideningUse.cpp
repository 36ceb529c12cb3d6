//===- WideningUse.cpp - the widening of a lowered result -----------------===//
//
// Finds the use of a rounded (bf16/f16) result whose only work is to widen
// it back to f32, in any of the forms it takes before and after
// convert-elementwise-to-linalg, so that the lowering of the op producing
// the result can store it widened instead (WideningUse.h).
//
//===----------------------------------------------------------------------===//
#include "WideningUse.h"
#include "fp8/Dialect/FP8/Utils/FP8Arith.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

/// A body that yields `arith.extf` of its first argument (the input
/// element), nothing else.
static bool isExtFOfInput(Block &body) {
  if (body.getNumArguments() == 0 ||
      !llvm::hasSingleElement(body.without_terminator()))
    return false;
  auto ext = dyn_cast<arith::ExtFOp>(body.front());
  auto yield = dyn_cast<linalg::YieldOp>(body.getTerminator());
  return ext && yield && ext.getIn() == body.getArgument(0) &&
         yield->getNumOperands() == 1 &&
         yield->getOperand(0) == ext.getResult();
}

Operation *fp8::detail::getWideningUse(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!type || !isa<BFloat16Type, Float16Type>(type.getElementType()))
    return nullptr;
  Operation *user = nullptr;
  for (Operation *u : v.getUsers()) {
    if (isa<tensor::DimOp>(u))
      continue;
    if (user)
      return nullptr; // a second use that is not a size
    user = u;
  }
  if (!user)
    return nullptr;
  auto wide =
      RankedTensorType::get(type.getShape(), Float32Type::get(v.getContext()));
  if (user->getNumResults() != 1 || user->getResult(0).getType() != wide)
    return nullptr;
  if (isa<arith::ExtFOp>(user))
    return user;
  if (!isa<linalg::GenericOp, linalg::MapOp>(user))
    return nullptr;
  auto linalgOp = cast<linalg::LinalgOp>(user);
  if (linalgOp.getNumDpsInputs() != 1 || linalgOp.getNumDpsInits() != 1 ||
      linalgOp.getDpsInputOperand(0)->get() != v ||
      linalgOp.getNumParallelLoops() != linalgOp.getNumLoops() ||
      !llvm::all_of(linalgOp.getIndexingMapsArray(),
                    [](AffineMap m) { return m.isIdentity(); }))
    return nullptr;
  return isExtFOfInput(*linalgOp.getBlock()) ? user : nullptr;
}

void fp8::detail::replaceWidened(RewriterBase &rewriter, Operation *op,
                                 Operation *widening, Value wide) {
  Value narrow = op->getResult(0);
  for (Operation *user : llvm::make_early_inc_range(narrow.getUsers())) {
    if (auto dim = dyn_cast<tensor::DimOp>(user)) {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPoint(dim);
      rewriter.replaceOp(dim, tensor::DimOp::create(rewriter, dim.getLoc(),
                                                    wide, dim.getIndex())
                                  .getResult());
    }
  }
  Type wideType = widening->getResult(0).getType();
  if (wide.getType() != wideType) {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointAfterValue(wide);
    wide = tensor::CastOp::create(rewriter, op->getLoc(), wideType, wide);
  }
  rewriter.replaceOp(widening, wide);
  rewriter.eraseOp(op);
}

Value fp8::detail::createRoundedStoreValue(OpBuilder &b, Location loc, Value v,
                                           Type elt, Type storeElt,
                                           bool canonicalNaN) {
  auto withElt = [&](Type t) -> Type {
    if (auto vt = dyn_cast<VectorType>(v.getType()))
      return VectorType::get(vt.getShape(), t);
    return t;
  };
  Value rounded = v;
  if (!elt.isF32())
    rounded = canonicalNaN
                  ? createTruncFCanonicalNaN(b, loc, v, elt)
                  : Value(arith::TruncFOp::create(b, loc, withElt(elt), v));
  if (storeElt == elt)
    return rounded;
  return arith::ExtFOp::create(b, loc, withElt(storeElt), rounded);
}
