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
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir::fp8 {
#define GEN_PASS_DEF_FP8SPLITDEALLOCSPASS
#include "fp8/Dialect/FP8/Transforms/Passes.h.inc"
} // namespace mlir::fp8

using namespace mlir;

namespace {

/// Whether every `func.return` of the function `callee` (defined inside
/// the pass's operation) returns at `index` the result of a memref.alloc of
/// its own body, returned at no other index: each call then returns a
/// buffer of its own, allocated in that call, that none of the call's other
/// results aliases. Memoised per (callee, index): a graph calls one kernel
/// per GEMM signature from every layer.
class FreshCallResults {
public:
  explicit FreshCallResults(Operation *scope) : scope(scope) {}

  bool isFresh(func::CallOp call, unsigned index) {
    auto callee = symbols.lookupNearestSymbolFrom<func::FuncOp>(
        call, call.getCalleeAttr());
    // A function outside the pass's operation may be under rewrite by
    // another thread (the pass nested on func.func): not looked into.
    if (!callee || callee.isExternal() || !scope->isProperAncestor(callee))
      return false;
    auto [it, inserted] = known.try_emplace({callee, index}, true);
    if (inserted)
      for (Block &block : callee.getBody())
        if (auto ret = dyn_cast<func::ReturnOp>(block.getTerminator()))
          if (!isOwnAllocation(ret, index))
            it->second = false;
    return it->second;
  }

private:
  static bool isOwnAllocation(func::ReturnOp ret, unsigned index) {
    Value v = ret.getOperand(index);
    return v.getDefiningOp<memref::AllocOp>() &&
           llvm::count(ret.getOperands(), v) == 1;
  }

  Operation *scope;
  SymbolTableCollection symbols;
  DenseMap<std::pair<Operation *, unsigned>, bool> known;
};

/// The allocation that `m` is known to be the whole buffer of: a
/// memref.alloc, or a call result that `calls` knows fresh, through the
/// base buffer of memref.extract_strided_metadata (what the deallocation
/// frees of a call's result). Null when `m` may alias anything.
Value getFreshAllocation(Value m, FreshCallResults &calls) {
  if (m.getDefiningOp<memref::AllocOp>())
    return m;
  if (auto meta = m.getDefiningOp<memref::ExtractStridedMetadataOp>())
    return meta.getBaseBuffer() == m
               ? getFreshAllocation(meta.getSource(), calls)
               : Value();
  if (auto call = m.getDefiningOp<func::CallOp>())
    return calls.isFresh(call, cast<OpResult>(m).getResultNumber()) ? m
                                                                    : Value();
  return {};
}

/// True when every memref of `op` is its own fresh allocation: no two of
/// them alias.
bool allDistinctAllocations(bufferization::DeallocOp op,
                            FreshCallResults &calls) {
  llvm::SmallPtrSet<Value, 16> seen;
  for (Value m : op.getMemrefs()) {
    Value root = getFreshAllocation(m, calls);
    if (!root || !seen.insert(root).second)
      return false;
  }
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
    FreshCallResults calls(getOperation());
    getOperation()->walk([&](bufferization::DeallocOp op) {
      if (op.getMemrefs().size() > 1 && allDistinctAllocations(op, calls))
        deallocs.push_back(op);
    });
    for (bufferization::DeallocOp op : deallocs)
      split(op);
  }
};

} // namespace
