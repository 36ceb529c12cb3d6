//===- SplitDeallocs.cpp - fp8-split-deallocs -----------------------------===//
//
// Keeps the deallocation pipeline linear in the function: the one dealloc
// of all of a function's buffers is split here, where distinct
// allocations are known not to alias without asking the alias analysis
// about every pair, and each piece retains only the returned buffers that
// may be its own, not every one of them (Passes.td).
//
//===----------------------------------------------------------------------===//
#include "fp8/Dialect/FP8/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::fp8 {
#define GEN_PASS_DEF_FP8SPLITDEALLOCSPASS
#include "fp8/Dialect/FP8/Transforms/Passes.h.inc"
} // namespace mlir::fp8

using namespace mlir;

namespace {

class FreshCallResults;
Value getFreshAllocation(Value m, FreshCallResults &calls);

/// Whether every `func.return` of the function `callee` (defined inside
/// the pass's operation) returns at `index` a fresh allocation of its own
/// body (a memref.alloc, or the result of a call that is one: a step
/// function returning the results of its GEMM kernels), returned at no
/// other index: each call then returns a buffer of its own, allocated in
/// that call, that none of the call's other results aliases. Memoised per
/// (callee, index): a graph calls one kernel per GEMM signature from every
/// layer.
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
    std::pair<Operation *, unsigned> key{callee, index};
    if (auto it = known.find(key); it != known.end())
      return it->second;
    // A recursive call is not known fresh while its callee is looked into.
    known[key] = false;
    bool fresh = llvm::all_of(callee.getBody(), [&](Block &block) {
      auto ret = dyn_cast<func::ReturnOp>(block.getTerminator());
      return !ret || isOwnAllocation(ret, index);
    });
    known[key] = fresh;
    return fresh;
  }

private:
  bool isOwnAllocation(func::ReturnOp ret, unsigned index) {
    Value v = ret.getOperand(index);
    return getFreshAllocation(v, *this) == v &&
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

/// Where a memref's buffer comes from, as far as aliasing a fresh
/// allocation goes: the fresh allocation it is (a view of), or a block
/// argument (a buffer that existed before the ops of its block ran), or
/// neither (it may alias anything).
struct BufferOrigin {
  Value allocation;
  BlockArgument argument;
};

BufferOrigin getBufferOrigin(Value m, FreshCallResults &calls) {
  Value base = m;
  while (auto view = base.getDefiningOp<ViewLikeOpInterface>())
    base = view.getViewSource();
  if (Value allocation = getFreshAllocation(base, calls))
    return {allocation, {}};
  return {{}, dyn_cast<BlockArgument>(base)};
}

/// Whether a buffer that is no fresh allocation, a view of the block
/// argument `argument` (null: of unknown origin), may be the fresh
/// allocation `allocation`. A block argument of a block enclosing the
/// allocating op was passed before that op allocated its buffer: another
/// buffer. (Two distinct fresh allocations are two buffers.)
bool mayAlias(BlockArgument argument, Value allocation) {
  return !argument || !argument.getOwner()->findAncestorOpInBlock(
                          *allocation.getDefiningOp());
}

/// A dealloc cut into pieces: each memref that is a fresh allocation no
/// other operand may alias gets a dealloc of its own, retaining only the
/// retained values that may alias it; the other memrefs stay in one
/// dealloc with every retained value (left to the simplification).
class DeallocSplitter {
public:
  DeallocSplitter(bufferization::DeallocOp op, FreshCallResults &calls)
      : op(op) {
    for (Value m : op.getMemrefs()) {
      BufferOrigin origin = getBufferOrigin(m, calls);
      if (origin.allocation)
        ++allocationCount[origin.allocation];
      else
        otherMemrefs.push_back(origin.argument);
      allocations.push_back(getFreshAllocation(m, calls));
    }
    for (auto [index, r] : llvm::enumerate(op.getRetained())) {
      BufferOrigin origin = getBufferOrigin(r, calls);
      if (origin.allocation)
        retainedOf[origin.allocation].push_back(index);
      else
        otherRetained.push_back({index, origin.argument});
    }
  }

  /// Whether memref `i` is a fresh allocation that no other operand may
  /// alias: it can be freed by a dealloc of its own.
  bool canSplitOff(unsigned i) const {
    Value allocation = allocations[i];
    if (!allocation || allocationCount.lookup(allocation) != 1)
      return false;
    return llvm::none_of(otherMemrefs, [&](BlockArgument argument) {
      return mayAlias(argument, allocation);
    });
  }

  /// The retained values (indices, in order) that may alias memref `i` (one
  /// that can be split off): those of its allocation and those of no known
  /// allocation, not every retained value of the function.
  SmallVector<unsigned> retainedAliasing(unsigned i) const {
    SmallVector<unsigned> kept(retainedOf.lookup(allocations[i]));
    for (auto [index, argument] : otherRetained)
      if (mayAlias(argument, allocations[i]))
        kept.push_back(index);
    llvm::sort(kept);
    return kept;
  }

  /// Rewrites the dealloc; false (and nothing changed) when no piece would
  /// be smaller than it.
  bool run();

private:
  bufferization::DeallocOp op;
  /// Per memref: its fresh allocation (null if it is not one).
  SmallVector<Value> allocations;
  /// How many memrefs are (views of) each fresh allocation.
  DenseMap<Value, unsigned> allocationCount;
  /// The memrefs of no known allocation: their block arguments (null for
  /// unknown origins).
  SmallVector<BlockArgument> otherMemrefs;
  /// The retained values (indices) that are (views of) each allocation,
  /// and the others with their block arguments (null for unknown origins).
  DenseMap<Value, SmallVector<unsigned>> retainedOf;
  SmallVector<std::pair<unsigned, BlockArgument>> otherRetained;
};

bool DeallocSplitter::run() {
  unsigned numMemrefs = op.getMemrefs().size();
  unsigned numRetained = op.getRetained().size();
  SmallVector<unsigned> pieces, rest;
  for (unsigned i = 0; i < numMemrefs; ++i)
    (canSplitOff(i) ? pieces : rest).push_back(i);
  if (pieces.empty() ||
      (numMemrefs == 1 && retainedAliasing(0).size() == numRetained))
    return false;

  OpBuilder b(op);
  Location loc = op.getLoc();
  // A retained value is owned after the dealloc when any piece says so; a
  // piece that does not retain it says no.
  SmallVector<Value> updated(numRetained);
  auto orInto = [&](unsigned index, Value cond) {
    Value &acc = updated[index];
    acc = acc ? arith::OrIOp::create(b, loc, acc, cond).getResult() : cond;
  };
  for (unsigned i : pieces) {
    SmallVector<unsigned> kept = retainedAliasing(i);
    SmallVector<Value> retained;
    for (unsigned index : kept)
      retained.push_back(op.getRetained()[index]);
    auto piece = bufferization::DeallocOp::create(
        b, loc, ValueRange{op.getMemrefs()[i]},
        ValueRange{op.getConditions()[i]}, retained);
    for (auto [index, cond] :
         llvm::zip_equal(kept, piece.getUpdatedConditions()))
      orInto(index, cond);
  }
  if (!rest.empty()) {
    SmallVector<Value> memrefs, conditions;
    for (unsigned i : rest) {
      memrefs.push_back(op.getMemrefs()[i]);
      conditions.push_back(op.getConditions()[i]);
    }
    auto remaining = bufferization::DeallocOp::create(
        b, loc, memrefs, conditions, op.getRetained());
    for (auto [index, cond] : llvm::enumerate(remaining.getUpdatedConditions()))
      orInto(index, cond);
  }
  Value no;
  for (Value &acc : updated) {
    if (acc)
      continue;
    if (!no)
      no = arith::ConstantOp::create(b, loc, b.getBoolAttr(false));
    acc = no;
  }
  op.replaceAllUsesWith(updated);
  op.erase();
  return true;
}

class SplitDeallocsPass
    : public fp8::impl::FP8SplitDeallocsPassBase<SplitDeallocsPass> {
public:
  using FP8SplitDeallocsPassBase::FP8SplitDeallocsPassBase;
  void runOnOperation() override {
    SmallVector<bufferization::DeallocOp> deallocs;
    FreshCallResults calls(getOperation());
    getOperation()->walk(
        [&](bufferization::DeallocOp op) { deallocs.push_back(op); });
    for (bufferization::DeallocOp op : deallocs)
      if (!op.getMemrefs().empty())
        DeallocSplitter(op, calls).run();
  }
};

} // namespace
