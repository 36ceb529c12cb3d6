//===- GraphPipeline.cpp - fp8-pipeline -----------------------------------===//
#include "fp8/Dialect/FP8/Pipelines/Passes.h"
#include "fp8/Dialect/FP8/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

StringRef fp8::getPolicyOptionDescription() {
  static const std::string description =
      ("Precision policy preset: " + PolicyAttr::getPresetNameList()).str();
  return description;
}

void fp8::buildFP8Pipeline(OpPassManager &pm,
                           const FP8PipelineOptions &options) {
  // TOSA inputs become linalg-on-tensors (a no-op without TOSA ops).
  pm.addPass(createFP8ConvertTosaPass());
  // LLVM 22 forms (linalg.elementwise, linalg.contract with several N or K
  // loops, matvec/vecmat, batch_reduce_matmul, transposed layouts) become
  // the generic and matmul forms the role analysis classifies.
  pm.addPass(createFP8NormalizeFormsPass());

  FP8AssignPrecisionPassOptions assign;
  assign.policy = options.policy;
  assign.promotion = options.promotion;
  assign.wgradOperands = options.wgradOperands;
  assign.overrides.assign(options.overrides.begin(), options.overrides.end());
  assign.strict = options.strict;
  pm.addPass(createFP8AssignPrecisionPass(assign));
  FP8InsertQuantPassOptions insert;
  insert.strict = options.strict;
  pm.addPass(createFP8InsertQuantPass(insert));
  if (options.cacheActivations)
    pm.addPass(createFP8CacheActivationsPass());
  // The report describes the decisions on the graph as classified: the
  // cleanup below may fold ops away (a gather from a splat table becomes a
  // constant), which would hide them.
  if (options.report) {
    FP8ReportPassOptions report;
    report.format = options.reportFormat;
    report.output = options.reportOutput;
    report.tokens = options.reportTokens;
    pm.addPass(createFP8ReportPass(report));
  }
  // Shared quantizations (identical quantize ops of one value merge) and
  // folded quantize(dequantize); the canonicalizer also folds reshapes of
  // constants, which exposes constant weights to the fold below.
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  FP8FoldConstantWeightsPassOptions fold;
  fold.maxElements = options.foldMaxElements;
  pm.addPass(createFP8FoldConstantWeightsPass(fold));
  pm.addPass(createCanonicalizerPass());
}
