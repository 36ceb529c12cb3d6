//===- InternalizePrivate.cpp - fp8-internalize-private -------------------===//
//
// convert-func-to-llvm gives private functions external linkage; helpers
// that every lowered module may define under the same name (the tiled
// scaled_matmul kernel of a signature, the deallocation's dealloc_helper)
// would then clash when two objects are linked together (Passes.td).
//
//===----------------------------------------------------------------------===//
#include "fp8/Dialect/FP8/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::fp8 {
#define GEN_PASS_DEF_FP8INTERNALIZEPRIVATEPASS
#include "fp8/Dialect/FP8/Transforms/Passes.h.inc"
} // namespace mlir::fp8

using namespace mlir;

namespace {
class InternalizePrivatePass
    : public fp8::impl::FP8InternalizePrivatePassBase<InternalizePrivatePass> {
public:
  void runOnOperation() override {
    auto internal =
        LLVM::LinkageAttr::get(&getContext(), LLVM::linkage::Linkage::Internal);
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (func.isPrivate() && !func.isExternal())
        func->setAttr("llvm.linkage", internal);
  }
};
} // namespace
