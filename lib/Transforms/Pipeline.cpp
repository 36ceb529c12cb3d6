//===- Pipeline.cpp - fp8-pipeline -----------------------------------------===//
#include "fp8/Transforms/Passes.h"

#include "mlir/Conversion/TosaToArith/TosaToArith.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Conversion/TosaToTensor/TosaToTensor.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tosa/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

namespace mlir::fp8 {
#define GEN_PASS_DEF_FP8CONVERTTOSA
#define GEN_PASS_DEF_FP8STRIPANNOTATIONS
#include "fp8/Transforms/Passes.h.inc"
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
    : public fp8::impl::FP8ConvertTosaBase<ConvertTosaPass> {
public:
  using FP8ConvertTosaBase::FP8ConvertTosaBase;
  void getDependentDialects(DialectRegistry &registry) const override {
    OpPassManager pm("builtin.module");
    buildTosaConversion(pm);
    pm.getDependentDialects(registry);
  }
  void runOnOperation() override {
    bool hasTosa = getOperation()
                       ->walk([](Operation *op) {
                         return op->getDialect() &&
                                        op->getDialect()->getNamespace() ==
                                            "tosa"
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
class StripAnnotationsPass
    : public fp8::impl::FP8StripAnnotationsBase<StripAnnotationsPass> {
public:
  using FP8StripAnnotationsBase::FP8StripAnnotationsBase;
  void runOnOperation() override {
    getOperation()->walk([](Operation *op) {
      for (StringRef name :
           {fp8::FP8Dialect::kRoleAttrName, fp8::FP8Dialect::kPrecisionAttrName,
            fp8::FP8Dialect::kReasonAttrName,
            fp8::FP8Dialect::kPolicyAttrName})
        op->removeAttr(name);
    });
  }
};
} // namespace

void fp8::buildFP8Pipeline(OpPassManager &pm,
                           const FP8PipelineOptions &options) {
  // TOSA inputs become linalg-on-tensors (a no-op without TOSA ops).
  pm.addPass(createFP8ConvertTosa());

  FP8AssignPrecisionOptions assign;
  assign.policy = options.policy;
  assign.overrides.assign(options.overrides.begin(), options.overrides.end());
  assign.strict = options.strict;
  pm.addPass(createFP8AssignPrecision(assign));
  FP8InsertQuantOptions insert;
  insert.strict = options.strict;
  pm.addPass(createFP8InsertQuant(insert));
  // The report describes the decisions on the graph as classified: the
  // cleanup below may fold ops away (a gather from a splat table becomes a
  // constant), which would hide them.
  if (options.report) {
    FP8ReportOptions report;
    report.format = options.reportFormat;
    report.output = options.reportOutput;
    pm.addPass(createFP8Report(report));
  }
  // Shared quantizations (identical quantize ops of one value merge), folded
  // quantize(dequantize), compile-time quantized constant weights.
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createCanonicalizerPass());
}

void fp8::registerFP8Pipelines() {
  PassPipelineRegistration<FP8PipelineOptions>(
      "fp8-pipeline",
      "Model graph (linalg-on-tensors or TOSA) -> FP8 graph under a precision "
      "policy, with a report: tosa-to-linalg, fp8-assign-precision, "
      "fp8-insert-quant, canonicalize, cse, fp8-report",
      buildFP8Pipeline);
}
