//===- ExpandMath.cpp - transcendental math ops as arith + fma ------------===//
//
// fp8-expand-math (Passes.td): one expansion of exp, exp2, rsqrt, log, log2,
// log1p, expm1, tanh and erf into ops that are correctly rounded on the CPU
// and the GPU alike, so both pipelines compute the same bits.
//
//===----------------------------------------------------------------------===//
#include "fp8/Dialect/FP8/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/STLExtras.h"

namespace mlir::fp8 {
#define GEN_PASS_DEF_FP8EXPANDMATHPASS
#include "fp8/Dialect/FP8/Transforms/Passes.h.inc"
} // namespace mlir::fp8

using namespace mlir;
using namespace mlir::fp8;

namespace {
/// Whether `t` is a float type the pass expands (f32, or with f32Only false
/// any float of at most 32 bits: bf16, f16, ... go through f32), or a vector
/// of one. Tensors are not: MLIR's approximations build scalar constants for
/// them (IR that does not verify); the pass refuses them (checkNoTensors).
static bool isScalarOrVectorOf(Type t, bool f32Only) {
  if (isa<ShapedType>(t) && !isa<VectorType>(t))
    return false;
  auto elt = dyn_cast<FloatType>(getElementTypeOrSelf(t));
  if (!elt)
    return false;
  return f32Only ? elt.isF32() : elt.getWidth() <= 32;
}

/// Builds f32 (scalar or vector) arithmetic at one location.
struct F32Builder {
  PatternRewriter &b;
  Location loc;
  Type f32, i32, i1;

  F32Builder(PatternRewriter &b, Location loc, Type like)
      : b(b), loc(loc), f32(like), i32(withElement(like, b.getI32Type())),
        i1(withElement(like, b.getI1Type())) {}

  static Type withElement(Type t, Type elt) {
    if (auto v = dyn_cast<VectorType>(t))
      return v.clone(elt);
    return elt;
  }
  Value constant(Type t, TypedAttr scalar) {
    if (auto v = dyn_cast<VectorType>(t))
      return arith::ConstantOp::create(b, loc,
                                       DenseElementsAttr::get(v, scalar));
    return arith::ConstantOp::create(b, loc, scalar);
  }
  Value f(float v) { return constant(f32, b.getF32FloatAttr(v)); }
  Value i(int32_t v) { return constant(i32, b.getI32IntegerAttr(v)); }
  Value fma(Value x, Value y, Value z) {
    return math::FmaOp::create(b, loc, x, y, z);
  }
  Value add(Value x, Value y) { return arith::AddFOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubFOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulFOp::create(b, loc, x, y); }
  Value cmp(arith::CmpFPredicate p, Value x, Value y) {
    return arith::CmpFOp::create(b, loc, p, x, y);
  }
  Value select(Value c, Value x, Value y) {
    return arith::SelectOp::create(b, loc, c, x, y);
  }
  Value toBits(Value x) { return arith::BitcastOp::create(b, loc, i32, x); }
  Value fromBits(Value x) { return arith::BitcastOp::create(b, loc, f32, x); }
  /// x clamped to [lo, hi]; a NaN stays NaN. (One op per statement, in the
  /// order the nested form `select(cmp(x, f(lo)), f(lo), x)` was built.)
  Value clamp(Value x, float lo, float hi) {
    Value loValue = f(lo);
    Value loBound = f(lo);
    x = select(cmp(arith::CmpFPredicate::OLT, x, loBound), loValue, x);
    Value hiValue = f(hi);
    Value hiBound = f(hi);
    return select(cmp(arith::CmpFPredicate::OGT, x, hiBound), hiValue, x);
  }
  /// 2^n for an i32 n in [-126, 127] (a normal power of two).
  Value pow2(Value n) {
    Value biased = arith::AddIOp::create(b, loc, n, i(127));
    return fromBits(arith::ShLIOp::create(b, loc, biased, i(23)));
  }
};

/// 1.5 * 2^23: x + kRound (|x| < 2^22) is x rounded to an integer (RNE),
/// held in the significand's low bits.
constexpr float kRound = 12582912.0f;
constexpr int32_t kRoundBits = 0x4B400000;
// ln 2 = kLn2Hi + kLn2Lo (kLn2Hi = ln 2 rounded to f32; Cody-Waite).
constexpr float kLn2Hi = 0x1.62e430p-1f;
constexpr float kLn2Lo = -0x1.05c610p-29f;
constexpr float kLog2E = 0x1.715476p+0f;

/// e^r * 2^k for |r| <= ln2/2 (a little more at the clamp) and k (i32) in
/// [-152, 130]: Cephes' expf polynomial, then the scaling by two normal
/// powers of two 2^(k>>1) and 2^(k - (k>>1)): the first product is exact, the
/// second rounds once (subnormal results included; +Inf on overflow).
static Value expKernel(F32Builder &fb, Value r, Value k) {
  // Cephes expf: e^r ~ 1 + r + r^2 (P5 + r (P4 + ... + r P0)).
  static const float kP[] = {1.9875691500E-4f, 1.3981999507E-3f,
                             8.3334519073E-3f, 4.1665795894E-2f,
                             1.6666665459E-1f, 5.0000001201E-1f};
  Value p = fb.f(kP[0]);
  for (float c : llvm::drop_begin(kP))
    p = fb.fma(p, r, fb.f(c));
  // One op per statement, in the order the nested forms were built.
  Value poly = fb.fma(p, fb.mul(r, r), r);
  Value one = fb.f(1.0f);
  Value y = fb.add(one, poly);
  Value k1 = arith::ShRSIOp::create(fb.b, fb.loc, k, fb.i(1));
  Value k2 = arith::SubIOp::create(fb.b, fb.loc, k, k1);
  Value scale2 = fb.pow2(k2);
  Value scale1 = fb.pow2(k1);
  return fb.mul(fb.mul(y, scale1), scale2);
}

/// The result for a NaN operand is the operand (its bits on every target).
static Value keepNaN(F32Builder &fb, Value x, Value result) {
  return fb.select(fb.cmp(arith::CmpFPredicate::UNO, x, x), x, result);
}

/// k = round(v) as an i32 and as an f32, |v| < 2^22 (or NaN: then k is
/// some integer and kf NaN, no poison).
static std::pair<Value, Value> roundToInt(F32Builder &fb, Value biased) {
  Value kf = fb.sub(biased, fb.f(kRound));
  Value roundBits = fb.i(kRoundBits);
  Value k = arith::SubIOp::create(fb.b, fb.loc, fb.toBits(biased), roundBits);
  return {kf, k};
}

struct ExpandExp : OpRewritePattern<math::ExpOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::ExpOp op,
                                PatternRewriter &rewriter) const override {
    if (!isScalarOrVectorOf(op.getType(), /*f32Only=*/true))
      return rewriter.notifyMatchFailure(op, "f32 only (others extend)");
    F32Builder fb(rewriter, op.getLoc(), op.getType());
    Value x = op.getOperand();
    // e^-104 < 2^-150 (rounds to +0); e^89 > FLT_MAX (+Inf).
    Value xc = fb.clamp(x, -104.0f, 89.0f);
    Value round = fb.f(kRound);
    auto [kf, k] = roundToInt(fb, fb.fma(xc, fb.f(kLog2E), round));
    Value r = fb.fma(kf, fb.f(-kLn2Hi), xc); // exact
    r = fb.fma(kf, fb.f(-kLn2Lo), r);
    rewriter.replaceOp(op, keepNaN(fb, x, expKernel(fb, r, k)));
    return success();
  }
};

struct ExpandExp2 : OpRewritePattern<math::Exp2Op> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::Exp2Op op,
                                PatternRewriter &rewriter) const override {
    if (!isScalarOrVectorOf(op.getType(), /*f32Only=*/true))
      return rewriter.notifyMatchFailure(op, "f32 only (others extend)");
    F32Builder fb(rewriter, op.getLoc(), op.getType());
    Value x = op.getOperand();
    // 2^-151 rounds to +0; 2^129 is +Inf.
    Value xc = fb.clamp(x, -151.0f, 129.0f);
    auto [kf, k] = roundToInt(fb, fb.add(xc, fb.f(kRound)));
    Value f = fb.sub(xc, kf); // exact, |f| <= 1/2
    // f ln 2, with ln 2 in two parts: one rounding.
    Value fLo = fb.mul(f, fb.f(kLn2Lo));
    Value r = fb.fma(f, fb.f(kLn2Hi), fLo);
    rewriter.replaceOp(op, keepNaN(fb, x, expKernel(fb, r, k)));
    return success();
  }
};

/// rsqrt(x) = 1 / sqrt(x): two correctly rounded ops on every target.
struct ExpandRsqrt : OpRewritePattern<math::RsqrtOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::RsqrtOp op,
                                PatternRewriter &rewriter) const override {
    if (!isScalarOrVectorOf(op.getType(), /*f32Only=*/true))
      return rewriter.notifyMatchFailure(op, "f32 only (others extend)");
    F32Builder fb(rewriter, op.getLoc(), op.getType());
    Value x = op.getOperand();
    Value sqrt = math::SqrtOp::create(rewriter, op.getLoc(), x);
    Value div = arith::DivFOp::create(rewriter, op.getLoc(), fb.f(1.0f), sqrt);
    rewriter.replaceOp(op, keepNaN(fb, x, div));
    return success();
  }
};

/// The result for a NaN or a zero operand is the operand: for the ops with
/// f(+-0) = +-0 (log1p, expm1, tanh, erf), whose approximations may lose the
/// sign of zero (MLIR's erf gives erf(-0) = +0). `ueq` is true for both.
static Value keepNaNAndZero(F32Builder &fb, Value x, Value result) {
  return fb.select(fb.cmp(arith::CmpFPredicate::UEQ, x, fb.f(0.0f)), x, result);
}

/// MLIR's approximations pass a NaN operand through their arithmetic, whose
/// NaN bits are the target's (x86 keeps the payload, NVIDIA's f32 ops give
/// 0x7FFFFFFF): the op is wrapped in the select of keepNaN (keepNaNAndZero
/// where f(+-0) = +-0) first, and the inner op, marked, left to the other
/// patterns.
template <typename OpTy, bool keepsZero>
struct KeepNaNOperand : OpRewritePattern<OpTy> {
  KeepNaNOperand(MLIRContext *ctx)
      : OpRewritePattern<OpTy>(ctx, /*benefit=*/3) {}
  static constexpr StringLiteral kKept = "fp8.nan_kept";
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    if (!isScalarOrVectorOf(op.getType(), /*f32Only=*/true) ||
        op->hasAttr(kKept))
      return failure();
    F32Builder fb(rewriter, op.getLoc(), op.getType());
    auto inner = OpTy::create(rewriter, op.getLoc(), op.getOperand());
    inner->setAttrs(op->getAttrs());
    inner->setAttr(kKept, rewriter.getUnitAttr());
    Value x = op.getOperand();
    rewriter.replaceOp(op, keepsZero ? keepNaNAndZero(fb, x, inner)
                                     : keepNaN(fb, x, inner));
    return success();
  }
};

/// log/log2 of a subnormal x: MLIR's approximation reads the exponent field
/// (0 for every subnormal), so x is scaled by 2^23 into the normal range
/// first and 23 ln 2 (23) subtracted. The inner op, marked, is left to the
/// upstream pattern.
template <typename LogOp, bool base2>
struct ScaleSubnormalLog : OpRewritePattern<LogOp> {
  ScaleSubnormalLog(MLIRContext *ctx)
      : OpRewritePattern<LogOp>(ctx, /*benefit=*/2) {}
  static constexpr StringLiteral kScaled = "fp8.subnormal_scaled";
  LogicalResult matchAndRewrite(LogOp op,
                                PatternRewriter &rewriter) const override {
    if (!isScalarOrVectorOf(op.getType(), /*f32Only=*/true) ||
        op->hasAttr(kScaled))
      return failure();
    F32Builder fb(rewriter, op.getLoc(), op.getType());
    Value x = op.getOperand();
    // One op per statement, in the order the nested form was built.
    Value belowNormal = fb.cmp(arith::CmpFPredicate::OLT, x, fb.f(0x1p-126f));
    Value positive = fb.cmp(arith::CmpFPredicate::OGT, x, fb.f(0.0f));
    Value sub =
        arith::AndIOp::create(rewriter, op.getLoc(), positive, belowNormal);
    Value xs = fb.select(sub, fb.mul(x, fb.f(0x1p23f)), x);
    auto inner = LogOp::create(rewriter, op.getLoc(), xs);
    inner->setAttrs(op->getAttrs());
    inner->setAttr(kScaled, rewriter.getUnitAttr());
    // 23 ln 2 in two parts (the small one first), or 23 for log2.
    Value logs = inner;
    Value shifted = base2 ? fb.sub(logs, fb.f(23.0f))
                          : fb.fma(fb.f(-23.0f), fb.f(kLn2Hi),
                                   fb.fma(fb.f(-23.0f), fb.f(kLn2Lo), logs));
    rewriter.replaceOp(op, fb.select(sub, shifted, logs));
    return success();
  }
};

/// The ops this pass expands, by name (the predicate of the upstream
/// populate functions).
static bool isExpanded(StringRef name) {
  return llvm::is_contained(
      {math::ExpOp::getOperationName(), math::Exp2Op::getOperationName(),
       math::RsqrtOp::getOperationName(), math::LogOp::getOperationName(),
       math::Log2Op::getOperationName(), math::Log1pOp::getOperationName(),
       math::ExpM1Op::getOperationName(), math::TanhOp::getOperationName(),
       math::ErfOp::getOperationName()},
      name);
}

/// Of those, the ones MLIR's polynomial approximations expand.
static bool isUpstreamApproximated(StringRef name) {
  return llvm::is_contained(
      {math::LogOp::getOperationName(), math::Log2Op::getOperationName(),
       math::Log1pOp::getOperationName(), math::ExpM1Op::getOperationName(),
       math::TanhOp::getOperationName(), math::ErfOp::getOperationName()},
      name);
}

/// An op of the expanded set on a tensor of a type it would expand is an
/// error (before any rewrite): MLIR's approximations work on scalars and
/// vectors only, and an op left as it is would lower to a library call with
/// the target's bits. Element-wise math on tensors becomes linalg (scalars)
/// with convert-elementwise-to-linalg, as fp8-cpu-pipeline does first.
static LogicalResult checkNoTensors(Operation *root) {
  bool found = false;
  root->walk([&](Operation *op) {
    if (!isExpanded(op->getName().getStringRef()) || op->getNumResults() != 1)
      return;
    Type t = op->getResult(0).getType();
    auto shaped = dyn_cast<ShapedType>(t);
    if (!shaped || isa<VectorType>(t) ||
        !isScalarOrVectorOf(shaped.getElementType(), /*f32Only=*/false))
      return;
    op->emitOpError() << "on " << t
                      << " is not expanded: fp8-expand-math takes scalars and "
                         "vectors (f32; bf16, f16 through f32); convert "
                         "element-wise math on tensors to linalg first "
                         "(convert-elementwise-to-linalg, as fp8-cpu-pipeline "
                         "does)";
    found = true;
  });
  return failure(found);
}

struct FP8ExpandMathPass : fp8::impl::FP8ExpandMathPassBase<FP8ExpandMathPass> {
  using Base::Base;
  void runOnOperation() override {
    if (failed(checkNoTensors(getOperation())))
      return signalPassFailure();
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    // bf16/f16: extf to f32, the f32 expansion, truncf.
    populateMathF32ExpansionPatterns(patterns, isExpanded);
    populateMathPolynomialApproximationPatterns(patterns,
                                                isUpstreamApproximated);
    patterns.add<ExpandExp, ExpandExp2, ExpandRsqrt,
                 ScaleSubnormalLog<math::LogOp, false>,
                 ScaleSubnormalLog<math::Log2Op, true>>(ctx);
    // A NaN operand returned as it came; a zero too where f(+-0) = +-0.
    patterns.add<KeepNaNOperand<math::LogOp, false>,
                 KeepNaNOperand<math::Log2Op, false>>(ctx);
    patterns.add<KeepNaNOperand<math::Log1pOp, true>,
                 KeepNaNOperand<math::ExpM1Op, true>,
                 KeepNaNOperand<math::TanhOp, true>,
                 KeepNaNOperand<math::ErfOp, true>>(ctx);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
