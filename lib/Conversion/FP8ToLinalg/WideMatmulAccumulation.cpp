//===- WideMatmulAccumulation.cpp - k16 model for bf16/f16 matmuls --------===//
//
// The arithmetic of tensorcore::accumulateGroup16 (TensorCoreAccumulation.h,
// docs/numerics.md "Tensor-core accumulation models") as IR, one output
// element at a time. Products of two bf16 values can leave the f32 range,
// so the terms live in f64 (the products are exact there) and the grid sum
// in i64 (|sum| < 2^32).
//
//===----------------------------------------------------------------------===//
#include "WideMatmulAccumulation.h"
#include "fp8/Dialect/FP8/Utils/TensorCoreMatmul.h"
#include "fp8/Target/Hopper/TensorCoreAccumulation.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
namespace tc = mlir::fp8::tensorcore;

namespace {

/// The builder of one output element's chain.
struct ChainBuilder {
  OpBuilder &b;
  Location loc;

  Value i32(int64_t x) { return arith::ConstantIntOp::create(b, loc, x, 32); }
  Value i64(int64_t x) { return arith::ConstantIntOp::create(b, loc, x, 64); }
  Value f64(double x) {
    return arith::ConstantFloatOp::create(b, loc, b.getF64Type(), APFloat(x));
  }

  /// floor(log2 |x|) of a finite nonzero f64 that is a widened bf16, f16 or
  /// f32 value (a normal f64), clamped at `minExponent`.
  Value clampedExponent(Value x, int minExponent) {
    Value bits = arith::BitcastOp::create(b, loc, b.getI64Type(), x);
    Value shifted = arith::ShRUIOp::create(b, loc, bits, i64(52));
    Value field = arith::AndIOp::create(b, loc, shifted, i64(0x7FF));
    Value field32 = arith::TruncIOp::create(b, loc, b.getI32Type(), field);
    Value e = arith::SubIOp::create(b, loc, field32, i32(1023));
    return arith::MaxSIOp::create(b, loc, e, i32(minExponent));
  }

  /// 2^n in f64 for -1022 <= n <= 1023 (i32 n).
  Value pow2(Value n) {
    Value biased = arith::AddIOp::create(b, loc, n, i32(1023));
    Value wide = arith::ExtSIOp::create(b, loc, b.getI64Type(), biased);
    Value bits = arith::ShLIOp::create(b, loc, wide, i64(52));
    return arith::BitcastOp::create(b, loc, b.getF64Type(), bits);
  }

  /// x * 2^-q truncated toward zero, as i64 (fptosi truncates).
  Value onGrid(Value x, Value scale) {
    Value scaled = arith::MulFOp::create(b, loc, x, scale);
    return arith::FPToSIOp::create(b, loc, b.getI64Type(), scaled);
  }

  /// s * 2^q truncated toward zero to an f32 (24 significant bits, the
  /// subnormal grid 2^-149, Inf from 2^128): detail::truncateToF32.
  Value truncateToF32(Value s, Value q) {
    Value neg =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, s, i64(0));
    Value mag = math::AbsIOp::create(b, loc, s);
    Value leadingZeros = math::CountLeadingZerosOp::create(b, loc, mag);
    Value lz32 = arith::TruncIOp::create(b, loc, b.getI32Type(), leadingZeros);
    // The exponent of the leading bit: q + (64 - lz) - 1.
    Value top = arith::SubIOp::create(b, loc, q, lz32);
    Value msb = arith::AddIOp::create(b, loc, top, i32(63));
    Value lsb24 = arith::SubIOp::create(b, loc, msb, i32(23));
    Value lsb = arith::MaxSIOp::create(b, loc, lsb24, i32(-149));
    Value excess = arith::SubIOp::create(b, loc, lsb, q);
    Value drop32 = arith::MaxSIOp::create(b, loc, excess, i32(0));
    Value drop = arith::ExtSIOp::create(b, loc, b.getI64Type(), drop32);
    Value high = arith::ShRUIOp::create(b, loc, mag, drop);
    Value kept = arith::ShLIOp::create(b, loc, high, drop);
    Value keptF = arith::SIToFPOp::create(b, loc, b.getF64Type(), kept);
    Value scale = pow2(q);
    Value value = arith::MulFOp::create(b, loc, keptF, scale); // exact
    Value negated = arith::NegFOp::create(b, loc, value);
    Value signedValue = arith::SelectOp::create(b, loc, neg, negated, value);
    // At most 24 significant bits: exact in f32, or 2^128 and more -> Inf.
    return arith::TruncFOp::create(b, loc, b.getF32Type(), signedValue);
  }
};

/// A matmul this lowering takes: its operands and how to index them.
struct WideMatmul {
  linalg::LinalgOp op;
  int minExponent; // of the operand format
  unsigned reductionDim;
};

std::optional<WideMatmul> matchWideMatmul(linalg::LinalgOp op) {
  // Only what the GPU pipeline runs on the BF16 tensor cores
  // (TensorCoreMatmul.h): its other contractions are host kernels summing
  // in K order, as the plain lowering does. (The forms below, batch_matmul,
  // f16, permuted maps, are ready for kernels that take them.)
  if (!fp8::runsOnBF16TensorCores(op))
    return std::nullopt;
  if (!isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op.getOperation()) ||
      !op.hasPureTensorSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1)
    return std::nullopt;
  Type ea = getElementTypeOrSelf(op.getDpsInputOperand(0)->get().getType());
  Type eb = getElementTypeOrSelf(op.getDpsInputOperand(1)->get().getType());
  Type ec = getElementTypeOrSelf(op.getDpsInitOperand(0)->get().getType());
  if (ea != eb || !ec.isF32() || !(ea.isBF16() || ea.isF16()))
    return std::nullopt;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  if (llvm::count(iterators, utils::IteratorType::reduction) != 1)
    return std::nullopt;
  for (AffineMap map : op.getIndexingMapsArray())
    if (!map.isProjectedPermutation(/*allowZeroInResults=*/false))
      return std::nullopt;
  unsigned r =
      llvm::find(iterators, utils::IteratorType::reduction) - iterators.begin();
  if (op.getIndexingMapsArray()[2].isFunctionOfDim(r))
    return std::nullopt;
  int minExponent = tc::minNormalExponent(ea.isBF16() ? tc::Wide16Format::BF16
                                                      : tc::Wide16Format::F16);
  return WideMatmul{op, minExponent, r};
}

/// One k16 step over the products k in [g0, g1) of output `out` from the
/// running accumulator `acc` (f32).
Value buildStep(ChainBuilder &cb, const WideMatmul &mm, ArrayRef<Value> loopIvs,
                Value g0, Value g1, Value acc) {
  OpBuilder &b = cb.b;
  Location loc = cb.loc;
  linalg::LinalgOp op = mm.op;
  Value lhs = op.getDpsInputOperand(0)->get();
  Value rhs = op.getDpsInputOperand(1)->get();
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  // The two inputs at reduction index k, widened to f64 (exact).
  auto operands = [&](OpBuilder &nb, Location nl,
                      Value k) -> std::pair<Value, Value> {
    SmallVector<Value> ivs(loopIvs);
    ivs[mm.reductionDim] = k;
    auto load = [&](Value t, AffineMap map) -> Value {
      SmallVector<Value> idx;
      for (unsigned i = 0; i < map.getNumResults(); ++i)
        idx.push_back(ivs[map.getDimPosition(i)]);
      Value x = tensor::ExtractOp::create(nb, nl, t, idx);
      return arith::ExtFOp::create(nb, nl, nb.getF64Type(), x);
    };
    Value x = load(lhs, maps[0]);
    Value y = load(rhs, maps[1]);
    return {x, y};
  };
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value zeroF = cb.f64(0.0);
  Value c = arith::ExtFOp::create(b, loc, b.getF64Type(), acc);
  // E: the accumulator's own exponent (f32 subnormals: -126) unless it is
  // zero, the nonzero products' ea + eb, at least -133.
  Value floorE = cb.i32(tc::kK16MinAlignmentExponent);
  Value cExp = cb.clampedExponent(c, -126);
  Value cZero =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, c, zeroF);
  Value cAlign = arith::SelectOp::create(b, loc, cZero, floorE, cExp);
  Value e0 = arith::MaxSIOp::create(b, loc, cAlign, floorE);
  auto maxLoop = scf::ForOp::create(
      b, loc, g0, g1, one, ValueRange{e0},
      [&](OpBuilder &lb, Location ll, Value k, ValueRange e) {
        ChainBuilder in{lb, ll};
        auto [x, y] = operands(lb, ll, k);
        Value p = arith::MulFOp::create(lb, ll, x, y); // exact
        Value ex = in.clampedExponent(x, mm.minExponent);
        Value ey = in.clampedExponent(y, mm.minExponent);
        Value sum = arith::AddIOp::create(lb, ll, ex, ey);
        Value zero = in.f64(0.0);
        Value pZero =
            arith::CmpFOp::create(lb, ll, arith::CmpFPredicate::OEQ, p, zero);
        Value align = arith::SelectOp::create(lb, ll, pZero, e[0], sum);
        Value next = arith::MaxSIOp::create(lb, ll, e[0], align);
        scf::YieldOp::create(lb, ll, ValueRange{next});
      });
  Value e = maxLoop.getResult(0);
  // The grid 2^q, q = E - 25; terms scaled by 2^-q and truncated.
  Value q = arith::SubIOp::create(b, loc, e, cb.i32(tc::kK16FractionBits));
  Value minusQ = arith::SubIOp::create(b, loc, cb.i32(0), q);
  Value scale = cb.pow2(minusQ);
  Value cTerm = cb.onGrid(c, scale);
  // Alongside, the plain f64 sum: Inf or NaN when an input is (products
  // of finite values are finite in f64).
  auto sumLoop = scf::ForOp::create(
      b, loc, g0, g1, one, ValueRange{cTerm, c},
      [&](OpBuilder &lb, Location ll, Value k, ValueRange s) {
        ChainBuilder in{lb, ll};
        auto [x, y] = operands(lb, ll, k);
        Value p = arith::MulFOp::create(lb, ll, x, y);
        Value t = in.onGrid(p, scale);
        Value gridSum = arith::AddIOp::create(lb, ll, s[0], t);
        Value plainSum = arith::AddFOp::create(lb, ll, s[1], p);
        scf::YieldOp::create(lb, ll, ValueRange{gridSum, plainSum});
      });
  Value model = cb.truncateToF32(sumLoop.getResult(0), q);
  Value plain = sumLoop.getResult(1);
  Value isNaN =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, plain, plain);
  Value magnitude = math::AbsFOp::create(b, loc, plain);
  Value inf = cb.f64(std::numeric_limits<double>::infinity());
  Value isInf =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, magnitude, inf);
  Value plain32 = arith::TruncFOp::create(b, loc, b.getF32Type(), plain);
  Value withInf = arith::SelectOp::create(b, loc, isInf, plain32, model);
  // NaN: the GPU's canonical 0x7FFFFFFF.
  Value nanBits = cb.i32(0x7FFFFFFF);
  Value nan = arith::BitcastOp::create(b, loc, b.getF32Type(), nanBits);
  return arith::SelectOp::create(b, loc, isNaN, nan, withInf);
}

/// The linalg.generic over the output that replaces `mm`.
void rewrite(RewriterBase &rewriter, const WideMatmul &mm) {
  linalg::LinalgOp op = mm.op;
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  Value init = op.getDpsInitOperand(0)->get();
  auto initType = cast<RankedTensorType>(init.getType());
  unsigned rank = initType.getRank();
  AffineMap outMap = op.getIndexingMapsArray()[2];
  // K: the extent of the lhs along the reduction dimension.
  AffineMap lhsMap = op.getIndexingMapsArray()[0];
  unsigned kPos = *lhsMap.getResultPosition(
      getAffineDimExpr(mm.reductionDim, op.getContext()));
  Value lhs = op.getDpsInputOperand(0)->get();
  Value kSize = tensor::DimOp::create(rewriter, loc, lhs, kPos);
  SmallVector<AffineMap> maps = {
      AffineMap::getMultiDimIdentityMap(rank, op.getContext())};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      rewriter, loc, TypeRange{initType}, ValueRange{}, ValueRange{init}, maps,
      iterators, [&](OpBuilder &b, Location l, ValueRange args) {
        // Loop ivs by the matmul's dimensions; the reduction one is set
        // per k.
        SmallVector<Value> ivs(outMap.getNumDims());
        for (unsigned i = 0; i < rank; ++i)
          ivs[outMap.getDimPosition(i)] = linalg::IndexOp::create(b, l, i);
        Value zero = arith::ConstantIndexOp::create(b, l, 0);
        Value group = arith::ConstantIndexOp::create(b, l, tc::kK16GroupSize);
        auto chain = scf::ForOp::create(
            b, l, zero, kSize, group, ValueRange{args[0]},
            [&](OpBuilder &gb, Location gl, Value g0, ValueRange acc) {
              ChainBuilder step{gb, gl};
              Value end = arith::AddIOp::create(gb, gl, g0, group);
              Value g1 = arith::MinSIOp::create(gb, gl, end, kSize);
              Value next = buildStep(step, mm, ivs, g0, g1, acc[0]);
              scf::YieldOp::create(gb, gl, ValueRange{next});
            });
        linalg::YieldOp::create(b, l, chain.getResult(0));
      });
  rewriter.replaceOp(op, generic.getResults());
}

} // namespace

/// `t` with `extra` +0.0 elements appended along dimension `dim` (static).
static Value padWithPositiveZeros(OpBuilder &b, Location loc, Value t,
                                  unsigned dim, int64_t extra) {
  auto type = cast<RankedTensorType>(t.getType());
  SmallVector<int64_t> shape(type.getShape());
  shape[dim] += extra;
  SmallVector<OpFoldResult> low(type.getRank(), b.getIndexAttr(0));
  SmallVector<OpFoldResult> high(low);
  high[dim] = b.getIndexAttr(extra);
  Type element = type.getElementType();
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(element));
  return tensor::PadOp::create(b, loc, type.clone(shape), t, low, high, zero);
}

/// The matmuls below `root` that run on the BF16 tensor cores, collected
/// before any is rewritten.
static SmallVector<WideMatmul> collectWideMatmuls(Operation *root) {
  SmallVector<WideMatmul> matches;
  root->walk([&](linalg::LinalgOp op) {
    if (std::optional<WideMatmul> mm = matchWideMatmul(op))
      matches.push_back(*mm);
  });
  return matches;
}

void fp8::detail::padWideMatmulKTails(Operation *root) {
  IRRewriter rewriter(root->getContext());
  for (const WideMatmul &mm : collectWideMatmuls(root)) {
    linalg::LinalgOp op = mm.op;
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    AffineExpr k = getAffineDimExpr(mm.reductionDim, op.getContext());
    unsigned lhsPos = *maps[0].getResultPosition(k);
    unsigned rhsPos = *maps[1].getResultPosition(k);
    Value lhs = op.getDpsInputOperand(0)->get();
    Value rhs = op.getDpsInputOperand(1)->get();
    // K is static on the matmuls the kernel takes (runsOnBF16TensorCores).
    int64_t size = cast<RankedTensorType>(lhs.getType()).getDimSize(lhsPos);
    if (ShapedType::isDynamic(size) || size % tc::kK16GroupSize == 0)
      continue;
    int64_t extra = llvm::alignTo(size, tc::kK16GroupSize) - size;
    rewriter.setInsertionPoint(op);
    Location loc = op.getLoc();
    Value paddedLhs = padWithPositiveZeros(rewriter, loc, lhs, lhsPos, extra);
    Value paddedRhs = padWithPositiveZeros(rewriter, loc, rhs, rhsPos, extra);
    rewriter.modifyOpInPlace(op, [&] {
      op.getDpsInputOperand(0)->set(paddedLhs);
      op.getDpsInputOperand(1)->set(paddedRhs);
    });
  }
}

void fp8::detail::lowerWideMatmulsToK16Chains(Operation *root) {
  IRRewriter rewriter(root->getContext());
  for (const WideMatmul &mm : collectWideMatmuls(root))
    rewrite(rewriter, mm);
}
