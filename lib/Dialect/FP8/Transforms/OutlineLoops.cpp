//===- OutlineLoops.cpp - fp8-outline-loops -------------------------------===//
//
// Keeps LLVM's code generation linear in a model's depth (Passes.td): each
// top-level loop nest of a large function becomes a call of a private
// function, one per distinct nest (a model repeats the same nests per
// layer), and what is left of the function, straight-line code, is compiled
// without optimisation.
//
//===----------------------------------------------------------------------===//
#include "fp8/Dialect/FP8/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::fp8 {
#define GEN_PASS_DEF_FP8OUTLINELOOPSPASS
#include "fp8/Dialect/FP8/Transforms/Passes.h.inc"
} // namespace mlir::fp8

using namespace mlir;

namespace {

/// An operand-free constant is cloned into the outlined function rather
/// than passed: LLVM keeps seeing the static bounds and sizes, and nests
/// that differ only in which constant op they read stay equal.
bool isClonableConstant(Value value) {
  Operation *def = value.getDefiningOp();
  return def && def->getNumOperands() == 0 && def->getNumRegions() == 0 &&
         matchPattern(def, m_Constant());
}

/// The values `loop` uses that are defined outside it, in first-use order
/// (deterministic, and the same for equal nests), constants apart.
void collectCaptures(Operation *loop, SmallVectorImpl<Value> &args,
                     SmallVectorImpl<Operation *> &constants) {
  llvm::SetVector<Value> used;
  used.insert(loop->getOperands().begin(), loop->getOperands().end());
  loop->walk([&](Operation *op) {
    for (Value operand : op->getOperands()) {
      if (!loop->isAncestor(operand.getParentRegion()->getParentOp()))
        used.insert(operand);
    }
  });
  llvm::SetVector<Operation *> constantOps;
  for (Value value : used) {
    if (isClonableConstant(value))
      constantOps.insert(value.getDefiningOp());
    else
      args.push_back(value);
  }
  constants.assign(constantOps.begin(), constantOps.end());
}

/// A detached private function holding a copy of `loop` whose arguments are
/// `args` (the nest's values from above) and whose results are the nest's.
func::FuncOp buildOutlined(Operation *loop, ArrayRef<Value> args,
                           ArrayRef<Operation *> constants) {
  MLIRContext *ctx = loop->getContext();
  Location loc = loop->getLoc();
  auto funcType = FunctionType::get(ctx, ValueRange(args).getTypes(),
                                    loop->getResultTypes());
  OpBuilder b(ctx);
  auto func = func::FuncOp::create(b, loc, "outlined", funcType);
  func.setPrivate();
  // LLVM's inliner would put a single-caller internal function back.
  func->setAttr("passthrough", b.getArrayAttr({b.getStringAttr("noinline")}));
  Block *body = func.addEntryBlock();
  IRMapping mapping;
  for (auto [arg, blockArg] : llvm::zip(args, body->getArguments()))
    mapping.map(arg, blockArg);
  b.setInsertionPointToStart(body);
  for (Operation *constant : constants)
    b.clone(*constant, mapping);
  Operation *moved = b.clone(*loop, mapping);
  func::ReturnOp::create(b, loc, moved->getResults());
  return func;
}

/// The structural identity of a detached outlined function: its generic
/// form without locations (the printer numbers values by position, so two
/// nests with the same ops, types, attributes and use of their arguments
/// print alike, and no two different ones do). Printing is linear in the
/// nest: the whole pass stays linear in the function.
std::string structuralKey(func::FuncOp func) {
  std::string key;
  llvm::raw_string_ostream os(key);
  func->print(os, OpPrintingFlags().printGenericOpForm().useLocalScope());
  return key;
}

/// Whether `func` holds no loop at any depth: its code only runs once per
/// call, so how fast LLVM's code for it runs does not matter.
bool isStraightLine(func::FuncOp func) {
  return !func.walk([](LoopLikeOpInterface) { return WalkResult::interrupt(); })
              .wasInterrupted();
}

/// Adds LLVM function attributes to those `func` passes through already.
void addPassthrough(func::FuncOp func, ArrayRef<StringRef> names) {
  Builder b(func.getContext());
  SmallVector<Attribute> attrs;
  if (auto old = func->getAttrOfType<ArrayAttr>("passthrough"))
    attrs.assign(old.begin(), old.end());
  for (StringRef name : names)
    attrs.push_back(b.getStringAttr(name));
  func->setAttr("passthrough", b.getArrayAttr(attrs));
}

class OutlineLoopsPass
    : public fp8::impl::FP8OutlineLoopsPassBase<OutlineLoopsPass> {
public:
  using FP8OutlineLoopsPassBase::FP8OutlineLoopsPassBase;

  void runOnOperation() override {
    SymbolTable symbols(getOperation());
    SmallVector<func::FuncOp> funcs;
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (!func.isExternal())
        funcs.push_back(func);
    for (func::FuncOp func : funcs)
      outlineLoops(func, symbols);
  }

private:
  /// Outlines the top-level loop nests of `func` if it has at least
  /// min-loops of them; each distinct nest once.
  void outlineLoops(func::FuncOp func, SymbolTable &symbols) {
    SmallVector<Operation *> loops;
    for (Block &block : func.getBody())
      for (Operation &op : block)
        if (isa<LoopLikeOpInterface>(op))
          loops.push_back(&op);
    if (loops.size() < minLoops)
      return;
    llvm::StringMap<func::FuncOp> distinct;
    Operation *previous = func;
    for (Operation *loop : loops) {
      SmallVector<Value> args;
      SmallVector<Operation *> constants;
      collectCaptures(loop, args, constants);
      func::FuncOp outlined = buildOutlined(loop, args, constants);
      auto [it, inserted] =
          distinct.try_emplace(structuralKey(outlined), outlined);
      if (inserted) {
        // Placed after the previous one: the module keeps the nests' order.
        outlined.setSymName(
            (func.getSymName() + "_loop" + Twine(distinct.size() - 1)).str());
        symbols.insert(outlined, std::next(Block::iterator(previous)));
        previous = outlined;
      } else {
        outlined.erase();
      }
      OpBuilder b(loop);
      auto call = func::CallOp::create(b, loop->getLoc(), it->second, args);
      loop->replaceAllUsesWith(call.getResults());
      loop->erase();
    }
    // What is left is allocations, descriptors, calls and deallocations:
    // LLVM's optimising code generation of it (instruction selection and
    // register allocation over one block per nest and every value live
    // across many calls) grows faster than the function, and the code runs
    // once per call.
    if (straightLineOptnone && isStraightLine(func))
      addPassthrough(func, {"noinline", "optnone"});
  }
};

} // namespace
