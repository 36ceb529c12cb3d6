//===- CPUPipeline.cpp - fp8-cpu-pipeline ---------------------------------===//
#include "fp8/Conversion/Passes.h"
#include "fp8/Dialect/FP8/Pipelines/Passes.h"
#include "fp8/Dialect/FP8/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void fp8::buildFP8CPUPipeline(OpPassManager &pm,
                              const FP8CPUPipelineOptions &options) {
  // Element-wise arith/math on tensors in user code (e.g. a bitcast of the
  // codes for printing) becomes linalg, which bufferizes.
  pm.addPass(createConvertElementwiseToLinalgPass());
  FP8LowerToLinalgPassOptions lowerOptions;
  lowerOptions.accumulator = options.accumulator;
  lowerOptions.accumulatorBits = options.accumulatorBits;
  pm.addPass(createFP8LowerToLinalgPass(lowerOptions));
  // Any arith.truncf/extf to/from FP8 left in user code; strict: one it
  // cannot expand would otherwise survive into "lowered" LLVM-dialect IR.
  FP8ExpandArithPassOptions expandArithOptions;
  expandArithOptions.strict = true;
  pm.addPass(createFP8ExpandArithPass(expandArithOptions));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  bufferization::OneShotBufferizePassOptions bufOptions;
  bufOptions.bufferizeFunctionBoundaries = true;
  bufOptions.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufOptions));
  if (options.deallocate)
    bufferization::buildBufferDeallocationPipeline(pm);
  // Deallocation clones buffers whose ownership is only known at run time
  // (dynamic shapes returned from a function): memref.alloc + copy.
  pm.addPass(createConvertBufferizationToMemRefPass());

  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  // bf16 <-> f32 conversions become integer RNE code (no libcalls).
  arith::ArithExpandOpsPassOptions expandOptions;
  expandOptions.includeBf16 = true;
  pm.addPass(arith::createArithExpandOpsPass(expandOptions));
  // vector.print (tests) and any vector code in user functions.
  pm.addPass(createConvertVectorToLLVMPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
  // The graph passes' annotations (fp8.policy on the module, fp8.role ...):
  // the lowered module must parse without the fp8 dialect (mlir-runner).
  pm.addPass(createFP8StripAnnotationsPass());
}
