//===- UnshareDestinations.cpp - fp8-unshare-destinations -----------------===//
//
// Undoes what CSE does to destination tensors before bufferization: one
// tensor.empty (or zero fill of one) shared by every layer makes one-shot
// bufferization's in-place analysis quadratic in the graph (Passes.td).
//
//===----------------------------------------------------------------------===//
#include "fp8/Dialect/FP8/Transforms/Passes.h"

namespace mlir::fp8 {
#define GEN_PASS_DEF_FP8UNSHAREDESTINATIONSPASS
#include "fp8/Dialect/FP8/Transforms/Passes.h.inc"
} // namespace mlir::fp8

using namespace mlir;

namespace {

/// A fill of a tensor.empty with a tensor result: cloned with its own empty.
bool isFillOfEmpty(linalg::FillOp fill) {
  return fill.hasPureTensorSemantics() &&
         fill.getOutputs()[0].getDefiningOp<tensor::EmptyOp>();
}

/// Every use of `op`'s single result but one gets a clone of `op`, inserted
/// right after it (`cloneOne` builds one). The use list is newest first, so
/// in parsed IR the first use in program order keeps the original.
void unshare(Operation *op, function_ref<Value(OpBuilder &)> cloneOne) {
  Value v = op->getResult(0);
  SmallVector<OpOperand *> uses;
  for (OpOperand &use : v.getUses())
    uses.push_back(&use);
  if (uses.size() < 2)
    return;
  OpBuilder b(op->getContext());
  b.setInsertionPointAfter(op);
  for (OpOperand *use : llvm::reverse(ArrayRef(uses).drop_back()))
    use->set(cloneOne(b));
}

class UnshareDestinationsPass
    : public fp8::impl::FP8UnshareDestinationsPassBase<
          UnshareDestinationsPass> {
public:
  using FP8UnshareDestinationsPassBase::FP8UnshareDestinationsPassBase;
  void runOnOperation() override {
    SmallVector<linalg::FillOp> fills;
    SmallVector<tensor::EmptyOp> empties;
    getOperation()->walk([&](Operation *op) {
      if (auto fill = dyn_cast<linalg::FillOp>(op)) {
        if (isFillOfEmpty(fill))
          fills.push_back(fill);
      } else if (auto empty = dyn_cast<tensor::EmptyOp>(op)) {
        empties.push_back(empty);
      }
    });
    // Fills first: each clone gets a clone of the empty it fills, so the
    // empties are unshared afterwards with the fills' uses already split.
    for (linalg::FillOp fill : fills)
      unshare(fill, [&](OpBuilder &b) -> Value {
        Operation *empty = b.clone(*fill.getOutputs()[0].getDefiningOp());
        IRMapping map;
        map.map(fill.getOutputs()[0], empty->getResult(0));
        return b.clone(*fill, map)->getResult(0);
      });
    for (tensor::EmptyOp empty : empties)
      unshare(empty, [&](OpBuilder &b) -> Value {
        return b.clone(*empty)->getResult(0);
      });
  }
};

} // namespace
