//===- DecomposeSoftmax.cpp - fp8-decompose-softmax -----------------------===//
//
// linalg.softmax replaced by upstream's decomposition into linalg.generic
// ops, which the lowering pipelines lower like any other softmax
// (Passes.td, fp8-decompose-softmax).
//
//===----------------------------------------------------------------------===//
#include "fp8/Dialect/FP8/Transforms/DecomposeSoftmax.h"
#include "fp8/Dialect/FP8/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::fp8 {
#define GEN_PASS_DEF_FP8DECOMPOSESOFTMAXPASS
#include "fp8/Dialect/FP8/Transforms/Passes.h.inc"
} // namespace mlir::fp8

using namespace mlir;

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
    FailureOr<SmallVector<Value>> parts = op.decomposeOperation(rw);
    if (failed(parts))
      return op.emitError() << pass
                            << ": linalg.softmax could not be decomposed "
                               "into linalg.generic ops";
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
