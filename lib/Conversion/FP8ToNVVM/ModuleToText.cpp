//===- ModuleToText.cpp - fp8-gpu-module-to-text --------------------------===//
#include "fp8/Conversion/FP8ToNVVM/FP8ToNVVM.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir {
namespace fp8 {
#define GEN_PASS_DEF_FP8GPUMODULETOTEXTPASS
#include "fp8/Conversion/Passes.h.inc"
} // namespace fp8
} // namespace mlir

using namespace mlir;

namespace {

struct FP8GPUModuleToTextPass
    : public fp8::impl::FP8GPUModuleToTextPassBase<FP8GPUModuleToTextPass> {
  using Base::Base;

  /// With locations, the generic form: a custom assembly format that ends
  /// in an optional attribute group takes the trailing `loc(...)` for its
  /// attribute, so the text does not parse back (nvvm.barrier id = ..
  /// number_of_threads = .., whose `(qualified($reductionOp)^
  /// $reductionPredicate)?` precedes attr-dict: "expected operation name
  /// in quotes" in the emulator's module load). The generic form has no
  /// optional groups.
  OpPrintingFlags printingFlags() const {
    OpPrintingFlags flags;
    flags.enableDebugInfo(debugInfo);
    if (debugInfo)
      flags.printGenericOpForm();
    return flags;
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<gpu::GPUModuleOp> gpuModules(module.getOps<gpu::GPUModuleOp>());
    for (gpu::GPUModuleOp gpuModule : gpuModules) {
      ArrayAttr targets = gpuModule.getTargetsAttr();
      if (!targets || targets.empty()) {
        gpuModule.emitOpError("fp8-gpu-module-to-text: the gpu.module has no "
                              "target attribute (e.g. #nvvm.target) to "
                              "record in its object");
        return signalPassFailure();
      }
      std::string text;
      llvm::raw_string_ostream os(text);
      gpuModule->print(os, printingFlags());
      SmallVector<Attribute> objects;
      for (Attribute target : targets)
        objects.push_back(gpu::ObjectAttr::get(
            &getContext(), target, gpu::CompilationTarget::Binary,
            StringAttr::get(&getContext(), text), DictionaryAttr(),
            gpu::KernelTableAttr()));
      OpBuilder b(gpuModule);
      gpu::BinaryOp::create(b, gpuModule.getLoc(), gpuModule.getName(),
                            Attribute(), b.getArrayAttr(objects));
      gpuModule.erase();
    }
  }
};

} // namespace
