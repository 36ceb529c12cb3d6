//===- SplitBlocks.cpp - fp8-split-blocks ---------------------------------===//
//
// Keeps convert-scf-to-cf linear in the function: it splits a block at
// every loop it lowers and moves all the ops after it (Passes.td), so the
// blocks are split here first, from the end, where each split is cheap.
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

/// Splits `block` after each op with regions, last first: each split moves
/// the ops up to the previous split point, so the work is linear in the
/// block.
void splitAfterRegionOps(Block &block) {
  SmallVector<Operation *> points;
  for (Operation &op : block.without_terminator())
    if (op.getNumRegions() > 0 && op.getNextNode() != block.getTerminator())
      points.push_back(&op);
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
    getOperation()->walk([](FunctionOpInterface func) {
      if (func.isExternal())
        return;
      // The original blocks only: the new ones hold no region op to split
      // after.
      SmallVector<Block *> blocks;
      for (Block &block : func.getFunctionBody())
        blocks.push_back(&block);
      for (Block *block : blocks)
        if (block->mightHaveTerminator())
          splitAfterRegionOps(*block);
    });
  }
};

} // namespace
