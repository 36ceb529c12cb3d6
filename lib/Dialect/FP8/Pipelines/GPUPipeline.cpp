//===- GPUPipeline.cpp - fp8-gpu-pipeline ---------------------------------===//
#include "HostLowering.h"
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
  // The GEMM configuration options go to fp8-lower-to-nvvm only: the
  // launchers read each kernel's fp8.kernel (#fp8.gemm_kernel).
  lowerOpts.config = opts.config;
  lowerOpts.device = opts.device;
  lowerOpts.blockM = opts.blockM;
  lowerOpts.blockN = opts.blockN;
  lowerOpts.stages = opts.stages;
  lowerOpts.consumers = opts.consumers;
  lowerOpts.groupM = opts.groupM;
  lowerOpts.cluster = opts.cluster;
  lowerOpts.swapAB = opts.swapAB;
  lowerOpts.quantizeEpilogue = opts.quantizeEpilogue;
  pm.addPass(createFP8LowerToNVVMPass(lowerOpts));
  StringRef host = opts.host;
  if (host != "none") {
    FP8LaunchKernelsPassOptions launchOpts;
    launchOpts.smCount = opts.smCount;
    launchOpts.emitCInterface = host == "llvm";
    // Lowered to LLVM: the launcher bodies come after buffer deallocation.
    launchOpts.launchers = host == "llvm" ? "declare" : "all";
    pm.addPass(createFP8LaunchKernelsPass(launchOpts));
  }
  if (StringRef(opts.target) == "emulator") {
    // The kernels as MLIR text, loaded by the emulator's mgpuModuleLoad, at
    // the level fp8-lower-to-nvvm produces and fp8-emu executes (NVVM and
    // LLVM ops with arith/scf control flow): the later lowering turns the
    // mbarrier waits into inline PTX, which the emulator does not read.
    pm.addPass(createFP8GPUModuleToTextPass());
  } else {
    OpPassManager &gpm = pm.nest<gpu::GPUModuleOp>();
    gpm.addPass(createSCFToControlFlowPass());
    gpm.addPass(createConvertNVVMToLLVMPass());
    // convert-gpu-to-nvvm runs on gpu.module and converts the remaining
    // arith and cf ops (convert-cf-to-llvm anchors on builtin.module only).
    gpm.addPass(createConvertGpuOpsToNVVMOps());
    gpm.addPass(createReconcileUnrealizedCastsPass());
    GpuModuleToBinaryPassOptions binOpts;
    binOpts.compilationTarget = opts.format;
    pm.addPass(createGpuModuleToBinaryPass(binOpts));
  }
  if (host == "llvm")
    fp8::detail::buildHostLowering(pm, FP8CPUPipelineOptions(), &opts);
}
