//===- GPUPipeline.cpp - fp8-gpu-pipeline ---------------------------------===//
#include "fp8/Conversion/Passes.h"
#include "fp8/Dialect/FP8/Pipelines/Passes.h"

#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;

void fp8::buildFP8GPUPipeline(OpPassManager &pm,
                              const FP8GPUPipelineOptions &opts) {
  FP8LowerToNVVMPassOptions lowerOpts;
  lowerOpts.chip = opts.chip;
  lowerOpts.features = opts.features;
  pm.addPass(createFP8LowerToNVVMPass(lowerOpts));
  OpPassManager &gpm = pm.nest<gpu::GPUModuleOp>();
  gpm.addPass(createSCFToControlFlowPass());
  gpm.addPass(createConvertNVVMToLLVMPass());
  // convert-gpu-to-nvvm runs on gpu.module and converts the remaining arith
  // and cf ops (convert-cf-to-llvm anchors on builtin.module only).
  gpm.addPass(createConvertGpuOpsToNVVMOps());
  gpm.addPass(createReconcileUnrealizedCastsPass());
  GpuModuleToBinaryPassOptions binOpts;
  binOpts.compilationTarget = opts.format;
  pm.addPass(createGpuModuleToBinaryPass(binOpts));
}
