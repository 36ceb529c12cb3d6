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
class CheckNestedModulesPass
    : public fp8::impl::FP8CheckNestedModulesPassBase<CheckNestedModulesPass> {
public:
  void runOnOperation() override {
    ModuleOp root = getOperation();
    bool failed = false;
    root.walk(
        [&](ModuleOp nested) {
          if (nested == root || nested.getOps<func::FuncOp>().empty())
            return;
          std::string name =
              nested.getSymName() ? ("@" + *nested.getSymName()).str() : "";
          nested.emitError()
              << "nested module " << name
              << " holds functions; the fp8 lowering pipelines lower the "
                 "functions of the module they run on: lower it on its own, "
                 "e.g. --pass-pipeline='builtin.module(builtin.module("
                 "fp8-cpu-pipeline))'";
          failed = true;
        });
    if (failed)
      signalPassFailure();
  }
};
} // namespace
