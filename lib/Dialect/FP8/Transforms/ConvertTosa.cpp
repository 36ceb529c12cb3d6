//===- ConvertTosa.cpp - fp8-convert-tosa ---------------------------------===//
//
// TOSA graphs become linalg-on-tensors before classification, but only when
// the module holds a TOSA op: the conversions' greedy drivers fold constants
// on the whole function, which would hide ops of a linalg graph from
// fp8-assign-precision.
//
//===----------------------------------------------------------------------===//
#include "fp8/Dialect/FP8/Transforms/Passes.h"

#include "mlir/Conversion/TosaToArith/TosaToArith.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Conversion/TosaToTensor/TosaToTensor.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tosa/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"

namespace mlir::fp8 {
#define GEN_PASS_DEF_FP8CONVERTTOSAPASS
#include "fp8/Dialect/FP8/Transforms/Passes.h.inc"
} // namespace mlir::fp8

using namespace mlir;

namespace {
void buildTosaConversion(OpPassManager &pm) {
  OpPassManager &fpm = pm.nest<func::FuncOp>();
  fpm.addPass(tosa::createTosaOptionalDecompositionsPass());
  fpm.addPass(tosa::createTosaMakeBroadcastablePass());
  fpm.addPass(tosa::createTosaToLinalgNamed());
  fpm.addPass(tosa::createTosaToLinalg());
  fpm.addPass(createTosaToArithPass());
  fpm.addPass(createTosaToTensorPass());
}

class ConvertTosaPass
    : public fp8::impl::FP8ConvertTosaPassBase<ConvertTosaPass> {
public:
  using FP8ConvertTosaPassBase::FP8ConvertTosaPassBase;
  void getDependentDialects(DialectRegistry &registry) const override {
    OpPassManager pm("builtin.module");
    buildTosaConversion(pm);
    pm.getDependentDialects(registry);
  }
  void runOnOperation() override {
    bool hasTosa =
        getOperation()
            ->walk([](Operation *op) {
              return op->getDialect() &&
                             op->getDialect()->getNamespace() == "tosa"
                         ? WalkResult::interrupt()
                         : WalkResult::advance();
            })
            .wasInterrupted();
    if (!hasTosa)
      return;
    // tosa-to-linalg only says "failed to legalize operation" on unranked
    // tensors: name the op and the type, and what to do, instead.
    bool unranked = false;
    getOperation()->walk([&](Operation *op) {
      if (!op->getDialect() || op->getDialect()->getNamespace() != "tosa")
        return;
      auto isUnranked = [](Type t) { return isa<UnrankedTensorType>(t); };
      for (Type t : llvm::concat<const Type>(op->getOperandTypes(),
                                             op->getResultTypes()))
        if (isUnranked(t)) {
          op->emitError() << "fp8-convert-tosa: " << op->getName()
                          << " has an unranked tensor " << t
                          << "; tosa-to-linalg needs ranked tensors (run "
                             "--tosa-infer-shapes first)";
          unranked = true;
          return;
        }
    });
    if (unranked)
      return signalPassFailure();
    OpPassManager pm("builtin.module");
    buildTosaConversion(pm);
    if (failed(runPipeline(pm, getOperation())))
      signalPassFailure();
  }
};
} // namespace
