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
#include "mlir/Conversion/TosaToSCF/TosaToSCF.h"
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
  // tosa.cond_if / tosa.while_loop: scf.if / scf.while around their
  // regions, whose ops the conversions below then reach.
  fpm.addPass(createTosaToSCFPass());
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
    // tensors: name the op and the type, and what to do, instead. One error
    // for the first such op (the others counted): an unranked graph has them
    // everywhere. On the op's location, not the op, so that a tosa.cond_if
    // or tosa.while_loop is not printed with its regions.
    Operation *first = nullptr;
    Type firstType;
    int64_t others = 0;
    getOperation()->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (!op->getDialect() || op->getDialect()->getNamespace() != "tosa")
        return;
      for (Type t : llvm::concat<const Type>(op->getOperandTypes(),
                                             op->getResultTypes()))
        if (isa<UnrankedTensorType>(t)) {
          if (first) {
            ++others;
          } else {
            first = op;
            firstType = t;
          }
          return;
        }
    });
    if (first) {
      InFlightDiagnostic diag = mlir::emitError(first->getLoc())
                                << "fp8-convert-tosa: " << first->getName()
                                << " has an unranked tensor " << firstType
                                << "; tosa-to-linalg needs ranked tensors "
                                   "(run --tosa-infer-shapes first)";
      if (others)
        diag << " (and " << others << " more TOSA op"
             << (others == 1 ? "" : "s") << " with unranked tensors)";
      return signalPassFailure();
    }
    OpPassManager pm("builtin.module");
    buildTosaConversion(pm);
    if (failed(runPipeline(pm, getOperation())))
      signalPassFailure();
  }
};
} // namespace
