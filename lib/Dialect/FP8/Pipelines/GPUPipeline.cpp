//===- GPUPipeline.cpp - fp8-gpu-pipeline ---------------------------------===//
#include "HostLowering.h"
#include "fp8/Conversion/Passes.h"
#include "fp8/Dialect/FP8/Pipelines/Passes.h"
#include "fp8/Dialect/FP8/Transforms/Passes.h"

#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;

void fp8::buildFP8GPUPipeline(OpPassManager &pm,
                              const FP8GPUPipelineOptions &opts) {
  FP8LowerToNVVMPassOptions lowerOpts;
  lowerOpts.chip = opts.chip;
  lowerOpts.features = opts.features;
  // The GEMM kernel options go to fp8-lower-to-nvvm only: the launchers
  // read each kernel's fp8.kernel (#fp8.gemm_kernel).
  pm.addPass(createFP8LowerToNVVMPass(lowerOpts, opts.gemm));
  buildFP8GPUPipelineAfterLowerToNVVM(pm, opts);
}

void fp8::buildFP8GPUPipelineAfterLowerToNVVM(OpPassManager &pm,
                                              const FP8GPUPipelineOptions &opts,
                                              bool kernelLocations) {
  // Before the launches and the host kernels: a gather at an out-of-range
  // id reads NaN, not out of bounds, on the device as on the CPU (the host
  // lowering below does not run it again). fp8-lower-to-nvvm builds the
  // GEMM and quantize kernels only: it neither reads nor writes a gather.
  pm.addPass(createFP8GuardGathersPass());
  StringRef host = opts.host;
  if (host != "none") {
    FP8LaunchKernelsPassOptions launchOpts;
    launchOpts.smCount = opts.smCount;
    launchOpts.emitCInterface = host == "llvm";
    // Lowered to LLVM: the launcher bodies come after buffer deallocation.
    launchOpts.launchers = host == "llvm" ? "declare" : "all";
    pm.addPass(createFP8LaunchKernelsPass(launchOpts));
  }
  // The emulator reads the kernels at the level fp8-lower-to-nvvm produces
  // (NVVM and LLVM ops with arith/scf control flow): the later lowering
  // turns the mbarrier waits into inline PTX, which it does not read.
  if (StringRef(opts.target) != "emulator") {
    OpPassManager &gpm = pm.nest<gpu::GPUModuleOp>();
    gpm.addPass(createSCFToControlFlowPass());
    gpm.addPass(createConvertNVVMToLLVMPass());
    // convert-gpu-to-nvvm runs on gpu.module and converts the remaining
    // arith and cf ops (convert-cf-to-llvm anchors on builtin.module only).
    gpm.addPass(createConvertGpuOpsToNVVMOps());
    gpm.addPass(createReconcileUnrealizedCastsPass());
  }
  if (kernelLocations && StringRef(opts.target) == "emulator") {
    FP8GPUModuleToTextPassOptions textOpts;
    textOpts.debugInfo = true;
    pm.addPass(createFP8GPUModuleToTextPass(textOpts));
  } else {
    fp8::detail::buildGPUModuleSerialization(pm, opts);
  }
  if (host == "llvm") {
    // The host program's reductions in the CPU pipeline's order.
    FP8CPUPipelineOptions hostOpts;
    hostOpts.reductionLanes = opts.reductionLanes;
    // The launchers assert their operands' sizes (fp8-launch-kernels).
    hostOpts.verifyShapes = false;
    hostOpts.reductionVector = opts.reductionVector;
    fp8::detail::buildHostLowering(pm, hostOpts, &opts);
  }
}
