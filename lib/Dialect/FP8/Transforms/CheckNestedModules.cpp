//===- CheckNestedModules.cpp - fp8-check-nested-modules ------------------===//
//
// The lowering pipelines lower the functions of the module they run on;
// one-shot bufferization does not enter nested builtin modules, so their
// functions would be left half lowered. A clear error instead (Passes.td).
//
//===----------------------------------------------------------------------===//
#include "fp8/Dialect/FP8/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::fp8 {
#define GEN_PASS_DEF_FP8CHECKNESTEDMODULESPASS
#include "fp8/Dialect/FP8/Transforms/Passes.h.inc"
} // namespace mlir::fp8

using namespace mlir;

namespace {
/// `nested` as the diagnostic names it: its symbol, or that it has none.
std::string describe(ModuleOp nested) {
  if (std::optional<StringRef> name = nested.getSymName())
    return ("nested module @" + *name).str();
  return "a nested module without a name";
}

/// The --pass-pipeline that runs fp8-cpu-pipeline on `nested`: anchored
/// through every op above it up to the outermost one, so that it is right
/// also when the pass itself runs on a nested module. Empty when an op
/// above it cannot anchor a pass pipeline (not isolated from above).
std::string anchoredPipeline(ModuleOp nested) {
  SmallVector<StringRef> path;
  for (Operation *op = nested; op; op = op->getParentOp()) {
    if (!op->hasTrait<OpTrait::IsIsolatedFromAbove>())
      return "";
    path.push_back(op->getName().getStringRef());
  }
  std::string text;
  for (StringRef name : llvm::reverse(path))
    text += (name + "(").str();
  text += "fp8-cpu-pipeline";
  text.append(path.size(), ')');
  return text;
}

/// Whether a module nested in `module` holds functions.
bool holdsNestedFunctions(ModuleOp module) {
  return module
      .walk([&](ModuleOp inner) {
        return inner != module && !inner.getOps<func::FuncOp>().empty()
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

class CheckNestedModulesPass
    : public fp8::impl::FP8CheckNestedModulesPassBase<CheckNestedModulesPass> {
public:
  void runOnOperation() override {
    ModuleOp root = getOperation();
    bool failed = false;
    root.walk([&](ModuleOp nested) {
      if (nested == root || nested.getOps<func::FuncOp>().empty())
        return;
      InFlightDiagnostic diag = nested.emitError();
      diag << describe(nested)
           << " holds functions; the fp8 lowering pipelines lower the "
              "functions of the module they run on: lower it on its own";
      // The modules nested in it first: their functions would stop this
      // pass again, run on it.
      if (holdsNestedFunctions(nested))
        diag << " after the modules nested in it";
      std::string pipeline = anchoredPipeline(nested);
      if (!pipeline.empty())
        diag << ", e.g. --pass-pipeline='" << pipeline << "'";
      failed = true;
    });
    if (failed)
      signalPassFailure();
  }
};
} // namespace
