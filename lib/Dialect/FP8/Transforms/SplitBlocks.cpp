//===- SplitBlocks.cpp - fp8-split-blocks ---------------------------------===//
//
// Keeps convert-scf-to-cf linear in the function: it splits a block at
// every loop it lowers and moves all the ops after it (Passes.td), so the
// blocks are split here first, from the end, where each split is cheap.
// Bounded blocks (max-block-ops) keep the conversions to LLVM linear too:
// their dominance checks recompute a block's op order.
//
//===----------------------------------------------------------------------===//
#include "fp8/Dialect/FP8/Transforms/Passes.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::fp8 {
#define GEN_PASS_DEF_FP8SPLITBLOCKSPASS
#include "fp8/Dialect/FP8/Transforms/Passes.h.inc"
} // namespace mlir::fp8

using namespace mlir;

namespace {

/// Splits `block` after each op with regions and, `maxOps` > 0, after
/// every `maxOps`-th op of a run without one, last first: each split moves
/// the ops up to the previous split point, so the work is linear in the
/// block.
void splitBlock(Block &block, int64_t maxOps) {
  SmallVector<Operation *> points;
  int64_t run = 0;
  for (Operation &op : block.without_terminator()) {
    ++run;
    bool split = op.getNumRegions() > 0 || (maxOps > 0 && run == maxOps);
    if (split && op.getNextNode() != block.getTerminator()) {
      points.push_back(&op);
      run = 0;
    }
  }
  OpBuilder b(block.getParent()->getContext());
  for (Operation *op : llvm::reverse(points)) {
    Block *rest = block.splitBlock(op->getNextNode());
    b.setInsertionPointToEnd(&block);
    cf::BranchOp::create(b, op->getLoc(), rest);
  }
}

class SplitBlocksPass
    : public fp8::impl::FP8SplitBlocksPassBase<SplitBlocksPass> {
public:
  using FP8SplitBlocksPassBase::FP8SplitBlocksPassBase;
  void runOnOperation() override {
    if (maxBlockOps < 0) {
      ::mlir::emitError(getOperation()->getLoc(),
                        "fp8-split-blocks: max-block-ops must be >= 0, got ")
          << static_cast<int64_t>(maxBlockOps);
      return signalPassFailure();
    }
    getOperation()->walk([&](FunctionOpInterface func) {
      if (func.isExternal())
        return;
      // The original blocks only: the new ones hold no region op to split
      // after.
      SmallVector<Block *> blocks;
      for (Block &block : func.getFunctionBody())
        blocks.push_back(&block);
      for (Block *block : blocks)
        if (block->mightHaveTerminator())
          splitBlock(*block, maxBlockOps);
    });
  }
};

} // namespace
