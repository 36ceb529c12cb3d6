//===- InitAll.cpp - register the fp8 dialect, passes and pipelines -------===//
#include "fp8/InitAll.h"

#include "fp8/Conversion/Passes.h"
#include "fp8/Dialect/FP8/IR/FP8.h"
#include "fp8/Dialect/FP8/Pipelines/Passes.h"
#include "fp8/Dialect/FP8/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

void mlir::fp8::registerFP8Dialect(DialectRegistry &registry) {
  registry.insert<FP8Dialect>();
}

void mlir::fp8::registerFP8RequiredDialects(DialectRegistry &registry) {
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
}

void mlir::fp8::registerFP8Passes() {
  registerFP8TransformsPasses();
  registerFP8ConversionPasses();
  registerFP8Pipelines();
}
