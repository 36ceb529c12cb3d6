//===- HostLowering.cpp - tensors to the LLVM dialect, CPU or GPU host ----===//
//
// The host lowering fp8-cpu-pipeline and fp8-gpu-pipeline{host=llvm} share
// (HostLowering.h): bufferization, deallocation, the loops and the LLVM
// dialect, plus, for a GPU host, the launchers' bodies, the host kernels and
// the gpu.modules' serialization. CPUPipeline.cpp and GPUPipeline.cpp call
// it; it calls neither.
//
//===----------------------------------------------------------------------===//
#include "HostLowering.h"
#include "fp8/Conversion/Passes.h"
#include "fp8/Dialect/FP8/Pipelines/Passes.h"
#include "fp8/Dialect/FP8/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/TargetParser/Host.h"

using namespace mlir;

void fp8::detail::buildGPUModuleSerialization(
    OpPassManager &pm, const FP8GPUPipelineOptions &opts) {
  if (StringRef(opts.target) == "emulator") {
    // MLIR text in a gpu.binary, loaded by the emulator's mgpuModuleLoad.
    pm.addPass(createFP8GPUModuleToTextPass());
    return;
  }
  GpuModuleToBinaryPassOptions binOpts;
  binOpts.compilationTarget = opts.format;
  pm.addPass(createGpuModuleToBinaryPass(binOpts));
}

/// MLIR's buffer-deallocation-pipeline (its default options), with
/// fp8-split-deallocs before the simplification: the one dealloc of all the
/// buffers of a function body (its allocations and the results of its calls
/// of the shared GEMM kernels) would cost the simplification time quadratic
/// in the number of layers.
static void buildDeallocationPipeline(OpPassManager &pm) {
  memref::ExpandReallocPassOptions realloc;
  realloc.emitDeallocs = false;
  pm.addNestedPass<func::FuncOp>(memref::createExpandReallocPass(realloc));
  pm.addNestedPass<func::FuncOp>(createCanonicalizerPass());
  pm.addNestedPass<func::FuncOp>(
      bufferization::createOwnershipBasedBufferDeallocationPass());
  pm.addNestedPass<func::FuncOp>(createCanonicalizerPass());
  // On the module: a function's buffers include the results of its calls,
  // which the pass knows fresh only by reading the callees.
  pm.addPass(fp8::createFP8SplitDeallocsPass());
  pm.addNestedPass<func::FuncOp>(
      bufferization::createBufferDeallocationSimplificationPass());
  pm.addPass(bufferization::createLowerDeallocationsPass());
  pm.addNestedPass<func::FuncOp>(createCSEPass());
  pm.addNestedPass<func::FuncOp>(createCanonicalizerPass());
}

/// The host kernels' gpu.module (fp8-outline-host-kernels) to the NVVM
/// level and serialized: their bodies get the host's arith and math
/// lowering (below: bf16 casts as integer RNE code; math.sqrt as
/// llvm.intr.sqrt, not libdevice: fp8-host-kernels-to-nvvm), so the
/// kernels compute the host's bits
/// (docs/numerics.md, "Host kernels").
static void buildHostKernelLowering(OpPassManager &pm,
                                    const fp8::FP8GPUPipelineOptions &gpu) {
  OpPassManager &gpm = pm.nest<gpu::GPUModuleOp>();
  gpm.addPass(createLowerAffinePass());
  gpm.addPass(createSCFToControlFlowPass());
  arith::ArithExpandOpsPassOptions expandOptions;
  expandOptions.includeBf16 = true;
  gpm.addPass(arith::createArithExpandOpsPass(expandOptions));
  gpm.addPass(fp8::createFP8HostKernelsToNVVMPass());
  gpm.addPass(createReconcileUnrealizedCastsPass());
  fp8::detail::buildGPUModuleSerialization(pm, gpu);
}

void fp8::detail::buildHostLowering(OpPassManager &pm,
                                    const FP8CPUPipelineOptions &options,
                                    const FP8GPUPipelineOptions *gpu) {
  bool gpuHost = gpu;
  // The host program's ops become GPU kernels (fp8-outline-host-kernels),
  // which need the residency: their launches take device buffers only.
  bool hostKernels = gpuHost && gpu->hostKernels && gpu->resident;
  // Functions in a nested module would not be bufferized: an error first.
  pm.addPass(createFP8CheckNestedModulesPass());
  // Memrefs the LLVM lowering cannot describe: an error naming them first.
  pm.addPass(createFP8CheckMemRefLayoutsPass());
  // A gather at an out-of-range id reads NaN, not out of bounds; first, so
  // that no pass sees an unguarded gather. fp8-gpu-pipeline has run it
  // already, before its launches (buildFP8GPUPipelineAfterLowerToNVVM).
  if (!gpuHost)
    pm.addPass(createFP8GuardGathersPass());
  // A named linalg.softmax (a graph not run through fp8-pipeline) as
  // generics: before the sums are ordered and the exp expanded.
  pm.addPass(createFP8DecomposeSoftmaxPass());
  // Element-wise arith/math on tensors in user code (e.g. a bitcast of the
  // codes for printing) becomes linalg, which bufferizes.
  pm.addPass(createConvertElementwiseToLinalgPass());
  // The graph's float row sums in the lane order a GPU row kernel runs
  // (docs/numerics.md, "Reduction order"); before fp8-lower-to-linalg, so
  // the FP8 ops' own sums (their contract's order) are not touched.
  if (options.reductionLanes != 0) {
    FP8SplitReductionsPassOptions splitOptions;
    splitOptions.lanes = options.reductionLanes;
    splitOptions.vector = options.reductionVector;
    // The host kernels lower a marked sum to one warp-per-row kernel
    // (fp8-outline-host-kernels).
    splitOptions.rowKernels = hostKernels;
    pm.addPass(createFP8SplitReductionsPass(splitOptions));
  }
  // The user's linalg ops (element-wise arith among them, just converted)
  // and the fp8 matmuls, before the fp8 ops are lowered: the tiled
  // scaled_matmul kernel is loops, not linalg, and trusts the sizes it is
  // given; the linalg ops the lowering builds take theirs from its operands.
  if (options.verifyShapes)
    pm.addPass(createFP8VerifyDynamicShapesPass());
  FP8LowerToLinalgPassOptions lowerOptions;
  lowerOptions.accumulator = options.accumulator;
  lowerOptions.accumulatorBits = options.accumulatorBits;
  lowerOptions.tiled = options.tiled;
  lowerOptions.vectorLanes = options.vectorLanes;
  if (options.vectorLanes == 0) {
    // The code runs on the host (ExecutionEngine, mlir-runner, or compiled
    // for it): its vector registers size the register tile.
    llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
    lowerOptions.vectorLanes = features.lookup("avx512f") ? 16 : 8;
  }
  pm.addPass(createFP8LowerToLinalgPass(lowerOptions));
  // Any arith.truncf/extf to/from FP8 left in user code; strict: one it
  // cannot expand would otherwise survive into "lowered" LLVM-dialect IR.
  FP8ExpandArithPassOptions expandArithOptions;
  expandArithOptions.strict = true;
  pm.addPass(createFP8ExpandArithPass(expandArithOptions));
  // exp, rsqrt, log, tanh, erf ... as arith + math.fma/sqrt: the same bits
  // here and in a GPU kernel (libm's expf and the GPU's differ).
  pm.addPass(createFP8ExpandMathPass());
  // No CSE before bufferization: the lowered loop nests of same-shape ops
  // differ only in the values their bodies read from above, CSE would merge
  // their destinations (tensor.empty) and so give them equal operands, and
  // as it hashes an op without its regions, it would compare each loop
  // nest, region by region, with every earlier one: time quadratic in the
  // number of layers. After bufferization the loop nests write memory and
  // CSE leaves them alone.
  pm.addPass(createCanonicalizerPass());
  // RoPE's rotate_half as one element-wise op, not slices and inserts
  // (Passes.td): fused below with the host kernels, two loops fewer on the
  // CPU.
  pm.addPass(createFP8FoldRotateHalfPass());
  // One host kernel per element-wise chain, not one per op (the values are
  // the same: Passes.td). The CPU keeps its ops: its loops are not launches.
  if (hostKernels)
    pm.addPass(createFP8FuseElementwisePass());

  if (options.vectorizeContractions)
    pm.addPass(createFP8VectorizeContractionsPass());

  // fp8-pipeline's CSE has merged the destinations of every layer into one
  // tensor; one per use keeps bufferization linear in the graph.
  pm.addPass(createFP8UnshareDestinationsPass());
  bufferization::OneShotBufferizePassOptions bufOptions;
  bufOptions.bufferizeFunctionBoundaries = true;
  bufOptions.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  // A loop that carries an activation (scf.for iter_args) yields the
  // result of its FP8 GEMM, a new buffer each iteration, not the one it
  // was given: without this one-shot bufferization stops with "Yield
  // operand #0 is not equivalent to the corresponding iter bbArg". The
  // ownership-based deallocation below frees the buffers of each iteration.
  bufOptions.allowReturnAllocsFromLoops = true;
  // The globals of the tensor constants in module order: bufferization
  // would create them in an order that changes from run to run.
  FP8ConstantGlobalsPassOptions globalsOptions;
  globalsOptions.alignment = bufOptions.bufferAlignment;
  pm.addPass(createFP8ConstantGlobalsPass(globalsOptions));
  // An op whose result is inserted into a larger tensor (a concatenation;
  // RoPE's rotate_half was one before fp8-fold-rotate-half) writes into the
  // destination's view, not into a buffer of its own that a copy moves
  // afterwards: one pass over the data fewer (a launch each with host
  // kernels), and one allocation fewer.
  pm.addPass(bufferization::createEmptyTensorEliminationPass());
  pm.addPass(bufferization::createOneShotBufferizePass(bufOptions));
  pm.addNestedPass<func::FuncOp>(createCSEPass());
  if (options.deallocate)
    buildDeallocationPipeline(pm);
  // Deallocation clones buffers whose ownership is only known at run time
  // (dynamic shapes returned from a function): memref.alloc + copy.
  pm.addPass(createConvertBufferizationToMemRefPass());
  if (hostKernels) {
    FP8OutlineHostKernelsPassOptions outlineOpts;
    outlineOpts.chip = gpu->chip;
    outlineOpts.features = gpu->features;
    outlineOpts.requireKernels = gpu->gemm.requireKernels;
    pm.addPass(createFP8OutlineHostKernelsPass(outlineOpts));
  }
  if (gpuHost) {
    FP8LaunchKernelsPassOptions launchOpts;
    launchOpts.launchers = "define-only";
    launchOpts.smCount = gpu->smCount;
    launchOpts.resident = gpu->resident;
    pm.addPass(createFP8LaunchKernelsPass(launchOpts));
  }
  if (hostKernels)
    buildHostKernelLowering(pm, *gpu);

  // The tiled scaled_matmul's loop over output tiles: sequential, or an
  // OpenMP worksharing loop (static schedule: the tiles cost the same).
  if (options.threads == 1) {
    pm.addPass(createForallToForLoopPass());
  } else {
    pm.addPass(createForallToParallelLoopPass());
    ConvertSCFToOpenMPPassOptions ompOptions;
    ompOptions.numThreads = options.threads;
    pm.addPass(createConvertSCFToOpenMPPass(ompOptions));
    // The loop body's memref.alloca_scope (it holds no alloca) is inlined:
    // convert-scf-to-cf would otherwise give it several blocks.
    pm.addPass(createCanonicalizerPass());
  }
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  // Each distinct top-level loop nest of a large function (a model step
  // holds every layer's) as one function of its own, the rest compiled
  // unoptimised: LLVM's work then stays linear in the layers.
  pm.addPass(createFP8OutlineLoopsPass());
  // One block per top-level loop, and at most 64 ops per block:
  // convert-scf-to-cf and the conversions to LLVM then stay linear in the
  // function (a GPU host step has no loops left, only launches).
  FP8SplitBlocksPassOptions splitOptions;
  splitOptions.maxBlockOps = 64;
  pm.addPass(createFP8SplitBlocksPass(splitOptions));
  pm.addPass(createSCFToControlFlowPass());
  // expand-strided-metadata crashes on an expand_shape with two run-time
  // sizes in a group ([B * S, H] -> [B, S, H]): those are written first.
  pm.addPass(createFP8ResolveExpandShapesPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  // bf16 arithmetic (a bf16 graph's bias add and ReLU) in f32, rounded back
  // to bf16 after each op: what LLVM's x86 promotion computes, without its
  // __truncsfbf2 libcall (libgcc before GCC 13 has none: the host program
  // of a bf16 graph did not link).
  arith::ArithEmulateUnsupportedFloatsOptions emulateOptions;
  emulateOptions.sourceTypeStrs = {"bf16"};
  emulateOptions.targetTypeStr = "f32";
  pm.addPass(arith::createArithEmulateUnsupportedFloats(emulateOptions));
  // bf16 <-> f32 conversions become integer RNE code (no libcalls).
  arith::ArithExpandOpsPassOptions expandOptions;
  expandOptions.includeBf16 = true;
  pm.addPass(arith::createArithExpandOpsPass(expandOptions));
  // The vectorised contractions' 2-D transfers, unrolled into 1-D ones.
  if (options.vectorizeContractions)
    pm.addPass(createConvertVectorToSCFPass(
        VectorTransferToSCFOptions().enableFullUnroll()));
  // vector.print (tests) and any vector code in user functions.
  pm.addPass(createConvertVectorToLLVMPass());
  pm.addPass(createConvertMathToLLVMPass());
  // Kernel launchers (fp8-launch-kernels): the TMA descriptors become
  // mgpuTensorMapEncodeTiledMemref calls; before the memref conversion,
  // which lowers the unranked memrefs they take.
  if (gpuHost)
    pm.addPass(createConvertNVGPUToNVVMPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  // Helpers defined by every lowered module under the same name (the tiled
  // kernel of a signature, dealloc_helper) stay local to their object.
  pm.addPass(createFP8InternalizePrivatePass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  if (gpuHost) {
    // gpu.alloc/memcpy/dealloc/wait -> mgpu* calls; gpu.launch_func keeps
    // LLVM-typed operands (mlir-translate emits the launch through
    // mgpuModuleLoad/GetFunction/LaunchKernel). Kernels take bare pointers
    // (GemmKernelConfig.h / QuantizeKernelConfig.h ABI).
    GpuToLLVMConversionPassOptions gpuOptions;
    gpuOptions.kernelBarePtrCallConv = true;
    pm.addPass(createGpuToLLVMConversionPass(gpuOptions));
  }
  if (options.threads != 1)
    pm.addPass(createConvertOpenMPToLLVMPass());
  // The poison the vector lowering builds the tiles' vectors from.
  if (options.vectorizeContractions)
    pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
  // The graph passes' annotations (fp8.policy on the module, fp8.role ...):
  // the lowered module must parse without the fp8 dialect (mlir-runner).
  pm.addPass(createFP8StripAnnotationsPass());
}
