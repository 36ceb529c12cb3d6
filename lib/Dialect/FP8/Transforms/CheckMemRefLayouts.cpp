//===- CheckMemRefLayouts.cpp - fp8-check-memref-layouts ------------------===//
//
// The lowering pipelines take memrefs with strided layouts only (identity
// or strided<...>): upstream's buffer deallocation and
// expand-strided-metadata build memref.extract_strided_metadata on every
// memref, which does not verify on another layout, so a memref with an
// affine-map layout failed in the middle of the pipeline with a verifier
// error about an op the user never wrote. A clear error first (Passes.td).
//
//===----------------------------------------------------------------------===//
#include "fp8/Dialect/FP8/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::fp8 {
#define GEN_PASS_DEF_FP8CHECKMEMREFLAYOUTSPASS
#include "fp8/Dialect/FP8/Transforms/Passes.h.inc"
} // namespace mlir::fp8

using namespace mlir;

namespace {
/// The first memref type in `types` whose layout is not strided, or null.
MemRefType findNonStrided(TypeRange types) {
  for (Type t : types)
    if (auto memref = dyn_cast<MemRefType>(t); memref && !memref.isStrided())
      return memref;
  return {};
}

class CheckMemRefLayoutsPass
    : public fp8::impl::FP8CheckMemRefLayoutsPassBase<CheckMemRefLayoutsPass> {
public:
  void runOnOperation() override {
    bool failed = false;
    auto report = [&](Operation *op, MemRefType type, StringRef what) {
      op->emitError() << "fp8-check-memref-layouts: the lowering pipelines "
                         "take memrefs with strided layouts (identity or "
                         "strided<[...], offset: ...>); "
                      << what << " has type " << type
                      << ", whose layout is not strided: rewrite it with "
                         "memref.transpose / a strided view, or "
                         "normalize-memrefs first";
      failed = true;
    };
    getOperation()->walk([&](Operation *op) {
      // A function's signature (arguments and results, also of a
      // declaration: a call passes such a memref).
      if (auto fn = dyn_cast<FunctionOpInterface>(op)) {
        if (MemRefType t = findNonStrided(fn.getArgumentTypes()))
          report(op, t, "an argument");
        else if (MemRefType t = findNonStrided(fn.getResultTypes()))
          report(op, t, "a result");
        return;
      }
      if (MemRefType t = findNonStrided(op->getResultTypes()))
        return report(
            op, t, "a result of '" + op->getName().getStringRef().str() + "'");
      for (Region &region : op->getRegions())
        for (Block &block : region)
          if (MemRefType t = findNonStrided(block.getArgumentTypes()))
            return report(op, t,
                          "a block argument of '" +
                              op->getName().getStringRef().str() + "'");
    });
    if (failed)
      signalPassFailure();
  }
};
} // namespace
