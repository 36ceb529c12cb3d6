//===- HostKernelsToNVVM.cpp - fp8-host-kernels-to-nvvm -------------------===//
//
// The host kernels' gpu.module (fp8-outline-host-kernels) to the LLVM and
// NVVM dialects, with the host's math lowering: convert-gpu-to-nvvm's
// patterns and type conversion without its libdevice patterns, and without
// its legality rule that turns llvm.intr.sqrt and llvm.intr.fabs into
// libdevice calls (__nv_sqrtf depends on the nvvm-reflect flags, and
// __nv_rsqrtf is rsqrt.approx): math ops become the LLVM intrinsics the
// host's convert-math-to-llvm makes of them, which NVPTX lowers to correctly
// rounded instructions (docs/numerics.md, "Host kernels").
//
//===----------------------------------------------------------------------===//
#include "fp8/Conversion/FP8ToNVVM/FP8ToNVVM.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir {
namespace fp8 {
#define GEN_PASS_DEF_FP8HOSTKERNELSTONVVMPASS
#include "fp8/Conversion/Passes.h.inc"
} // namespace fp8
} // namespace mlir

using namespace mlir;

namespace {

struct FP8HostKernelsToNVVMPass
    : public fp8::impl::FP8HostKernelsToNVVMPassBase<FP8HostKernelsToNVVMPass> {
  void runOnOperation() override {
    gpu::GPUModuleOp m = getOperation();
    LowerToLLVMOptions options(&getContext(), DataLayout(m));
    // Kernel parameters as bare pointers: the launch's ABI (gpu-to-llvm
    // with kernelBarePtrCallConv on the host side).
    options.useBarePtrCallConv = true;
    LLVMTypeConverter converter(&getContext(), options);
    configureGpuToNVVMTypeConverter(converter);
    // Math first, alone: upstream's GPU patterns also lower some math ops
    // (math.rsqrt) to libdevice calls.
    {
      RewritePatternSet mathPatterns(&getContext());
      populateMathToLLVMConversionPatterns(converter, mathPatterns);
      ConversionTarget mathTarget(getContext());
      mathTarget.addLegalDialect<LLVM::LLVMDialect>();
      mathTarget.addIllegalDialect<math::MathDialect>();
      if (failed(
              applyPartialConversion(m, mathTarget, std::move(mathPatterns))))
        return signalPassFailure();
    }
    RewritePatternSet patterns(&getContext());
    arith::populateArithToLLVMConversionPatterns(converter, patterns);
    cf::populateControlFlowToLLVMConversionPatterns(converter, patterns);
    populateFinalizeMemRefToLLVMConversionPatterns(converter, patterns);
    // The row kernels' vector loads and element extractions.
    populateVectorToLLVMConversionPatterns(converter, patterns);
    populateGpuToNVVMConversionPatterns(converter, patterns);
    LLVMConversionTarget target(getContext());
    target.addLegalDialect<NVVM::NVVMDialect>();
    target.addIllegalDialect<gpu::GPUDialect, arith::ArithDialect,
                             math::MathDialect, memref::MemRefDialect,
                             vector::VectorDialect, cf::ControlFlowDialect>();
    target.addLegalOp<gpu::GPUModuleOp>();
    if (failed(applyPartialConversion(m, target, std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
