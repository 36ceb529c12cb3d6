//===- ChooseKSplits.cpp - fp8-choose-k-splits ----------------------------===//
//
// Writes the cost model's split-K choice on each fp8.scaled_matmul
// (k_splits, Passes.td), on the graph both pipelines take: the CPU
// lowering reproduces the split, the GPU kernel reads it.
//
//===----------------------------------------------------------------------===//
#include "KernelSpecs.h"

#include "fp8/Conversion/FP8ToNVVM/FP8ToNVVM.h"
#include "fp8/Dialect/FP8/IR/FP8.h"

namespace mlir {
namespace fp8 {
#define GEN_PASS_DEF_FP8CHOOSEKSPLITSPASS
#include "fp8/Conversion/Passes.h.inc"
} // namespace fp8
} // namespace mlir

using namespace mlir;
using namespace mlir::fp8;

namespace {

struct FP8ChooseKSplitsPass
    : public fp8::impl::FP8ChooseKSplitsPassBase<FP8ChooseKSplitsPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *ctx) override {
    chip = lookupChip(device);
    if (!chip)
      return emitError(UnknownLoc::get(ctx))
             << "fp8-choose-k-splits: option device='" << device
             << "' is unknown: expected one of " << knownChipNames();
    return success();
  }

  void runOnOperation() override {
    Builder b(&getContext());
    // An op that already has a split (a hand-written one) keeps it.
    getOperation().walk([&](ScaledMatmulOp op) {
      if (op.getKSplits() != 1)
        return;
      int64_t splits = chooseOpKSplits(op, *chip);
      if (splits > 1)
        op.setKSplits(splits);
    });
  }

  const ChipSpec *chip = nullptr;
};

} // namespace
