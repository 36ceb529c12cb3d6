//===- CPUPipeline.cpp - fp8-cpu-pipeline ---------------------------------===//
#include "HostLowering.h"
#include "fp8/Dialect/FP8/Pipelines/Passes.h"

using namespace mlir;

void fp8::buildFP8CPUPipeline(OpPassManager &pm,
                              const FP8CPUPipelineOptions &options) {
  fp8::detail::buildHostLowering(pm, options);
}
