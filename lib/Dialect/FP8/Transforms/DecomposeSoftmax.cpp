//===- DecomposeSoftmax.cpp - fp8-decompose-softmax -----------------------===//
//
// linalg.softmax replaced by upstream's decomposition into linalg.generic
// ops, which the lowering pipelines lower like any other softmax
// (Passes.td, fp8-decompose-softmax).
//
//===----------------------------------------------------------------------===//
#include "fp8/Dialect/FP8/Transforms/DecomposeSoftmax.h"
#include "fp8/Dialect/FP8/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::fp8 {
#define GEN_PASS_DEF_FP8DECOMPOSESOFTMAXPASS
#include "fp8/Dialect/FP8/Transforms/Passes.h.inc"
} // namespace mlir::fp8

using namespace mlir;

/// The decomposition's row max combines with `arith.maxnumf` from a NaN
/// start (its identity): rewritten to `arith.maximumf` from -inf, the
/// combiner fp8-split-reductions marks for the GPU's warp-per-row kernel
/// (a row max no order changes; maxnumf's result does depend on the order
/// in the sign of a zero maximum). No output of the softmax changes: a row
/// holding a NaN is NaN everywhere either way (its exp, hence its sum, is
/// NaN), and a maximum of +0.0 or -0.0 gives every element the same
/// difference but for a zero element's, whose exp is 1 for both signs.
/// `first` is the first op of the decomposition, `end` the softmax.
static void maxWithMaximumF(IRRewriter &rw, Operation *first, Operation *end) {
  for (Operation *op = first; op && op != end; op = op->getNextNode()) {
    auto generic = dyn_cast<linalg::GenericOp>(op);
    if (!generic || generic.getNumReductionLoops() != 1 ||
        generic.getNumDpsInits() != 1)
      continue;
    Operation *yielded =
        generic.getBlock()->getTerminator()->getOperand(0).getDefiningOp();
    auto max = dyn_cast_or_null<arith::MaxNumFOp>(yielded);
    auto fill =
        generic.getDpsInitOperand(0)->get().getDefiningOp<linalg::FillOp>();
    auto start = fill ? fill.value().getDefiningOp<arith::ConstantFloatOp>()
                      : arith::ConstantFloatOp();
    if (!max || !start || !fill->hasOneUse())
      continue;
    if (start.value().isNaN()) {
      rw.setInsertionPoint(fill);
      APFloat inf = APFloat::getInf(start.value().getSemantics(),
                                    /*Negative=*/true);
      Value minusInf = arith::ConstantFloatOp::create(
          rw, fill.getLoc(), cast<FloatType>(start.getType()), inf);
      rw.modifyOpInPlace(fill, [&] { fill->setOperand(0, minusInf); });
      if (start->use_empty())
        rw.eraseOp(start);
    }
    rw.setInsertionPoint(max);
    rw.replaceOpWithNewOp<arith::MaximumFOp>(max, max.getLhs(), max.getRhs(),
                                             max.getFastmathAttr());
  }
}

LogicalResult fp8::decomposeSoftmaxes(Operation *root, StringRef pass) {
  SmallVector<linalg::SoftmaxOp> softmaxes;
  root->walk([&](linalg::SoftmaxOp op) { softmaxes.push_back(op); });
  IRRewriter rw(root->getContext());
  for (linalg::SoftmaxOp op : softmaxes) {
    // Upstream's decomposition builds tensor ops: a softmax on buffers
    // would have no lowering.
    if (!op.hasPureTensorSemantics())
      return op.emitError() << pass
                            << ": linalg.softmax on buffers is not "
                               "supported: pass tensors";
    rw.setInsertionPoint(op);
    Operation *before = op->getPrevNode();
    FailureOr<SmallVector<Value>> parts = op.decomposeOperation(rw);
    if (failed(parts))
      return op.emitError() << pass
                            << ": linalg.softmax could not be decomposed "
                               "into linalg.generic ops";
    maxWithMaximumF(
        rw, before ? before->getNextNode() : &op->getBlock()->front(), op);
    rw.replaceOp(op, *parts);
  }
  return success();
}

namespace {

struct FP8DecomposeSoftmaxPass
    : fp8::impl::FP8DecomposeSoftmaxPassBase<FP8DecomposeSoftmaxPass> {
  void runOnOperation() override {
    if (failed(fp8::decomposeSoftmaxes(getOperation(), getArgument())))
      signalPassFailure();
  }
};

} // namespace
