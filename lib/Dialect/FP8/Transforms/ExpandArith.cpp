//===- ExpandArith.cpp - arith.truncf/extf to/from FP8 as integer ops -----===//
#include "fp8/Dialect/FP8/IR/FP8.h"
#include "fp8/Dialect/FP8/Transforms/Passes.h"
#include "fp8/Dialect/FP8/Utils/FP8Arith.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::fp8 {
#define GEN_PASS_DEF_FP8EXPANDARITHPASS
#include "fp8/Dialect/FP8/Transforms/Passes.h.inc"
} // namespace mlir::fp8

using namespace mlir;
using namespace mlir::fp8;

/// `t` with its element type replaced by `elt` (scalar or vector).
static Type withElement(Type t, Type elt) {
  if (auto v = dyn_cast<VectorType>(t))
    return v.clone(elt);
  return elt;
}

static bool isScalarOrVector(Type t) {
  return !isa<ShapedType>(t) || isa<VectorType>(t);
}

/// A float type of 8 bits or fewer (f8E4M3FN, f8E5M2FNUZ, f4E2M1FN, ...).
static bool isNarrowFloat(Type t) {
  auto f = dyn_cast<FloatType>(getElementTypeOrSelf(t));
  return f && f.getWidth() <= 8;
}

/// Reports (through `report`) an arith or math op other than a conversion
/// that computes on a narrow float: LLVM has no such float types, so
/// convert-arith-to-llvm leaves the op and an unrealized_conversion_cast in
/// llvm.func (arith.sitofp even yields an llvm.sitofp of i8 that does not
/// verify). Constants, selects and bitcasts only move the bit pattern and
/// lower as i8.
template <typename ReportFn>
static void reportNarrowArithmetic(Operation *op, ReportFn report) {
  StringRef dialect = op->getDialect() ? op->getDialect()->getNamespace() : "";
  if ((dialect != "arith" && dialect != "math") ||
      isa<arith::ConstantOp, arith::SelectOp, arith::BitcastOp>(op))
    return;
  auto narrow = [](Value v) { return isNarrowFloat(v.getType()); };
  Value bad;
  if (auto it = llvm::find_if(op->getResults(), narrow); it != op->result_end())
    bad = *it;
  else if (auto it = llvm::find_if(op->getOperands(), narrow);
           it != op->operand_end())
    bad = *it;
  if (!bad)
    return;
  report(op) << "fp8-expand-arith: '" << op->getName() << "' computes in "
             << getElementTypeOrSelf(bad.getType())
             << ", which has no LLVM type: narrow floats are storage formats "
                "here; extend the operands to f32 (arith.extf), compute "
                "there and round once (arith.truncf)";
}

namespace {
struct ExpandTruncF : OpRewritePattern<arith::TruncFOp> {
  ExpandTruncF(MLIRContext *ctx, bool saturate)
      : OpRewritePattern(ctx), saturate(saturate) {}
  LogicalResult matchAndRewrite(arith::TruncFOp op,
                                PatternRewriter &rewriter) const override {
    Type dst = getElementTypeOrSelf(op.getType());
    if (!isSupportedFP8Type(dst) || !isScalarOrVector(op.getType()))
      return failure();
    if (std::optional<arith::RoundingMode> mode = op.getRoundingmode();
        mode && *mode != arith::RoundingMode::to_nearest_even)
      return rewriter.notifyMatchFailure(op, "only RNE is expanded");
    Location loc = op.getLoc();
    Value in = op.getIn();
    Type srcElt = getElementTypeOrSelf(in.getType());
    Type f32 = rewriter.getF32Type();
    if (srcElt.isF16() || srcElt.isBF16())
      in = arith::ExtFOp::create(rewriter, loc, withElement(in.getType(), f32),
                                 in); // exact, so one rounding in total
    else if (!srcElt.isF32())
      return rewriter.notifyMatchFailure(op, "source must be f32/f16/bf16");
    rewriter.replaceOp(op, createF32ToFP8(rewriter, loc, in, dst, saturate));
    return success();
  }
  bool saturate;
};

struct ExpandExtF : OpRewritePattern<arith::ExtFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::ExtFOp op,
                                PatternRewriter &rewriter) const override {
    Type src = getElementTypeOrSelf(op.getIn().getType());
    if (!isSupportedFP8Type(src) || !isScalarOrVector(op.getType()))
      return failure();
    Type dst = getElementTypeOrSelf(op.getType());
    if (!dst.isF32() && !dst.isF16() && !dst.isBF16() && !dst.isF64())
      return rewriter.notifyMatchFailure(op, "unsupported destination");
    Location loc = op.getLoc();
    Value f = createFP8ToF32(rewriter, loc, op.getIn());
    // Every FP8 value is exact in f16, bf16 and f64: no second rounding.
    if (dst.isF64())
      f = arith::ExtFOp::create(rewriter, loc, op.getType(), f);
    else if (!dst.isF32())
      f = arith::TruncFOp::create(rewriter, loc, op.getType(), f);
    rewriter.replaceOp(op, f);
    return success();
  }
};

struct FP8ExpandArithPass
    : fp8::impl::FP8ExpandArithPassBase<FP8ExpandArithPass> {
  using Base::Base;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ExpandTruncF>(&getContext(), saturate);
    patterns.add<ExpandExtF>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    // What is left unexpanded cannot be lowered to LLVM: say so, naming the
    // op, the types and what is supported.
    bool failedAny = false;
    auto report = [&](Operation *op) -> InFlightDiagnostic {
      failedAny = true;
      InFlightDiagnostic diag =
          strict ? op->emitError() : ::mlir::emitRemark(op->getLoc());
      return diag;
    };
    getOperation()->walk([&](Operation *op) {
      if (!isa<arith::TruncFOp, arith::ExtFOp>(op)) {
        reportNarrowArithmetic(op, report);
        return;
      }
      Type in = op->getOperand(0).getType(), out = op->getResult(0).getType();
      Type inElt = getElementTypeOrSelf(in);
      Type outElt = getElementTypeOrSelf(out);
      bool isTrunc = isa<arith::TruncFOp>(op);
      Type narrow = isTrunc ? outElt : inElt, wide = isTrunc ? inElt : outElt;
      unsigned narrowBits = narrow.getIntOrFloatBitWidth();
      if (narrowBits > 8)
        return; // not an FP8 (or narrower) conversion
      std::string why;
      if (!isSupportedFP8Type(narrow))
        why = std::to_string(narrowBits) +
              "-bit float type is not supported (expected f8E4M3FN or "
              "f8E5M2)";
      else if (!isScalarOrVector(in))
        why =
            "operand is not a scalar or vector (convert-elementwise-to-linalg "
            "first, as fp8-cpu-pipeline does)";
      else if (isTrunc && !wide.isF32() && !wide.isF16() && !wide.isBF16())
        why = "source must be f32, f16 or bf16 (one rounding step)";
      else
        why = "only round-to-nearest-even is expanded";
      report(op) << "fp8-expand-arith: cannot expand " << in << " -> " << out
                 << ": " << why << (strict ? "" : "; left unchanged");
    });
    if (strict && failedAny)
      signalPassFailure();
  }
};
} // namespace
