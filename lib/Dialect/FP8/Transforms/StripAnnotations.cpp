//===- StripAnnotations.cpp - fp8-strip-annotations -----------------------===//
//
// The lowering pipelines end with this pass so a fully lowered module no
// longer refers to the fp8 dialect (mlir-runner and mlir-translate do not
// register it).
//
//===----------------------------------------------------------------------===//
#include "fp8/Dialect/FP8/Transforms/Passes.h"

namespace mlir::fp8 {
#define GEN_PASS_DEF_FP8STRIPANNOTATIONSPASS
#include "fp8/Dialect/FP8/Transforms/Passes.h.inc"
} // namespace mlir::fp8

using namespace mlir;

namespace {
class StripAnnotationsPass
    : public fp8::impl::FP8StripAnnotationsPassBase<StripAnnotationsPass> {
public:
  using FP8StripAnnotationsPassBase::FP8StripAnnotationsPassBase;
  void runOnOperation() override {
    getOperation()->walk([](Operation *op) {
      for (StringRef name :
           {fp8::FP8Dialect::kRoleAttrName, fp8::FP8Dialect::kPrecisionAttrName,
            fp8::FP8Dialect::kReasonAttrName, fp8::FP8Dialect::kPolicyAttrName})
        op->removeAttr(name);
    });
  }
};
} // namespace
