//===- InitAll.cpp - register the fp8 dialect's passes ---------------------===//
#include "fp8/InitAll.h"

#include "fp8/Conversion/FP8ToNVVM/Passes.h"
#include "fp8/Conversion/Passes.h"
#include "fp8/Transforms/Passes.h"

void mlir::fp8::registerFP8Passes() {
  // Each pass group registers itself here as it lands (graph passes in
  // lib/Transforms, lowerings in lib/Conversion).
  registerFP8TransformsPasses();
  registerFP8Pipelines();
  registerFP8ToNVVMPasses();
  registerFP8GPUPipeline();
  registerFP8ConversionPasses();
  registerFP8CPUPipeline();
}
