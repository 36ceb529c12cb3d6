//===- SplitDeallocs.cpp - fp8-split-deallocs -----------------------------===//
//
// Keeps the deallocation pipeline linear in the function: the one dealloc
// of all of a function's buffers is split here, where distinct
// allocations are known not to alias without asking the alias analysis
// about every pair (Passes.td).
//
//===----------------------------------------------------------------------===//
#include "fp8/Dialect/FP8/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir::fp8 {
#define GEN_PASS_DEF_FP8SPLITDEALLOCSPASS
#include "fp8/Dialect/FP8/Transforms/Passes.h.inc"
} // namespace mlir::fp8

using namespace mlir;

namespace {

/// True when every memref of `op` is the result of its own memref.alloc:
/// no two of them alias.
bool allDistinctAllocations(bufferization::DeallocOp op) {
  llvm::SmallPtrSet<Value, 16> seen;
  for (Value m : op.getMemrefs())
    if (!m.getDefiningOp<memref::AllocOp>() || !seen.insert(m).second)
      return false;
  return true;
}

void split(bufferization::DeallocOp op) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  SmallVector<Value> updated(op.getRetained().size());
  for (auto [m, cond] : llvm::zip_equal(op.getMemrefs(), op.getConditions())) {
    auto one = bufferization::DeallocOp::create(
        b, loc, ValueRange{m}, ValueRange{cond}, op.getRetained());
    // A retained value is owned after the dealloc when any piece says so.
    for (auto [acc, c] : llvm::zip_equal(updated, one.getUpdatedConditions()))
      acc = acc ? arith::OrIOp::create(b, loc, acc, c).getResult() : c;
  }
  op.replaceAllUsesWith(updated);
  op.erase();
}

class SplitDeallocsPass
    : public fp8::impl::FP8SplitDeallocsPassBase<SplitDeallocsPass> {
public:
  using FP8SplitDeallocsPassBase::FP8SplitDeallocsPassBase;
  void runOnOperation() override {
    SmallVector<bufferization::DeallocOp> deallocs;
    getOperation()->walk([&](bufferization::DeallocOp op) {
      if (op.getMemrefs().size() > 1 && allDistinctAllocations(op))
        deallocs.push_back(op);
    });
    for (bufferization::DeallocOp op : deallocs)
      split(op);
  }
};

} // namespace
