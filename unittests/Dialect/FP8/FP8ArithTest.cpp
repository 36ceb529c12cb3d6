//===- FP8ArithTest.cpp - the FP8 conversion builders, folded -------------===//
//
// Builds the expansions of fp8/Dialect/FP8/Utils/FP8Arith.h on constant
// operands and lets arith's folders evaluate them: checks the C++ API (scalar
// and vector operands) against hand-derived codes from the format definitions
// and the regression cases, without a JIT. Exhaustive bit-exactness is
// test/Integration/CPU/conversion-exhaustive.test.
//
//===----------------------------------------------------------------------===//
#include "fp8/Dialect/FP8/Utils/FP8Arith.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/ADT/bit.h"

#include <gtest/gtest.h>

#include <functional>

using namespace mlir;

namespace {
class FP8ArithTest : public ::testing::Test {
protected:
  FP8ArithTest() { ctx.loadDialect<arith::ArithDialect, func::FuncDialect>(); }

  /// Builds `fn(b, loc, constant(input))` in a function returning it, folds
  /// the function, and returns the folded constant.
  Attribute fold(TypedAttr input,
                 std::function<Value(OpBuilder &, Location, Value)> fn) {
    OpBuilder b(&ctx);
    Location loc = b.getUnknownLoc();
    auto module = ModuleOp::create(loc);
    b.setInsertionPointToEnd(module.getBody());
    Value probe;
    auto func = func::FuncOp::create(b, loc, "f", b.getFunctionType({}, {}));
    Block *body = func.addEntryBlock();
    b.setInsertionPointToEnd(body);
    Value in = arith::ConstantOp::create(b, loc, input);
    probe = fn(b, loc, in);
    auto ret = func::ReturnOp::create(b, loc, probe);
    func.setFunctionType(b.getFunctionType({}, {probe.getType()}));
    RewritePatternSet patterns(&ctx);
    for (RegisteredOperationName op : ctx.getRegisteredOperations())
      op.getCanonicalizationPatterns(patterns, &ctx);
    (void)applyPatternsGreedily(func, std::move(patterns));
    auto cst = ret.getOperand(0).getDefiningOp<arith::ConstantOp>();
    Attribute result = cst ? cst.getValue() : Attribute();
    module->erase();
    return result;
  }

  /// f32 -> FP8 code (as unsigned), or -1 if the expansion did not fold.
  int toFP8(float x, Type fp8, bool saturate) {
    OpBuilder b(&ctx);
    Attribute a =
        fold(b.getF32FloatAttr(x), [&](OpBuilder &nb, Location l, Value v) {
          return fp8::createF32ToFP8Bits(nb, l, v, fp8, saturate);
        });
    auto i = dyn_cast_or_null<IntegerAttr>(a);
    return i ? int(i.getValue().getZExtValue()) : -1;
  }

  /// FP8 code -> f32 bits.
  uint32_t fromFP8(uint8_t code, Type fp8) {
    OpBuilder b(&ctx);
    Attribute a = fold(b.getIntegerAttr(b.getI8Type(), code),
                       [&](OpBuilder &nb, Location l, Value v) {
                         return fp8::createFP8BitsToF32(nb, l, v, fp8);
                       });
    auto f = dyn_cast_or_null<FloatAttr>(a);
    EXPECT_TRUE(f) << "decode of " << int(code) << " did not fold";
    return f ? uint32_t(f.getValue().bitcastToAPInt().getZExtValue()) : 0;
  }

  float scale(float amax, double eps, Type fp8, bool pow2) {
    OpBuilder b(&ctx);
    Attribute a =
        fold(b.getF32FloatAttr(amax), [&](OpBuilder &nb, Location l, Value v) {
          return fp8::createDequantScale(nb, l, v, eps, fp8, pow2);
        });
    auto f = dyn_cast_or_null<FloatAttr>(a);
    EXPECT_TRUE(f) << "scale did not fold";
    return f ? f.getValue().convertToFloat() : NAN;
  }

  MLIRContext ctx;
  Type e4m3 = Float8E4M3FNType::get(&ctx);
  Type e5m2 = Float8E5M2Type::get(&ctx);
};

float bits(uint32_t b) { return llvm::bit_cast<float>(b); }

TEST_F(FP8ArithTest, E4M3SaturationCase1) {
  // docs/regression-cases.md case 1.
  EXPECT_EQ(toFP8(448, e4m3, true), 0x7E);
  EXPECT_EQ(toFP8(464, e4m3, true), 0x7E);
  EXPECT_EQ(toFP8(465, e4m3, true), 0x7E);
  EXPECT_EQ(toFP8(1000, e4m3, true), 0x7E);
  EXPECT_EQ(toFP8(-1000, e4m3, true), 0xFE);
  EXPECT_EQ(toFP8(464, e4m3, false), 0x7E); // tie to even 448
  EXPECT_EQ(toFP8(465, e4m3, false), 0x7F); // NaN
  EXPECT_EQ(toFP8(-1000, e4m3, false), 0xFF);
  EXPECT_EQ(toFP8(bits(0x7F800000), e4m3, true), 0x7E); // +Inf
  EXPECT_EQ(toFP8(bits(0xFFC00000), e4m3, true), 0x7F); // -NaN -> 0x7F
}

TEST_F(FP8ArithTest, E4M3SubnormalsCase4) {
  EXPECT_EQ(toFP8(0.01f, e4m3, true), 0x05);
  EXPECT_EQ(toFP8(std::ldexp(1.0f, -10), e4m3, true), 0x00);
  EXPECT_EQ(toFP8(1.5f * std::ldexp(1.0f, -9), e4m3, true), 0x02);
  EXPECT_EQ(toFP8(7.5f * std::ldexp(1.0f, -9), e4m3, true), 0x08);
  EXPECT_EQ(toFP8(-0.0f, e4m3, true), 0x80);
  EXPECT_EQ(toFP8(bits(0x00000001), e4m3, true), 0x00); // f32 subnormal
}

TEST_F(FP8ArithTest, E5M2OverflowCase5) {
  EXPECT_EQ(toFP8(57344, e5m2, false), 0x7B);
  EXPECT_EQ(toFP8(61439, e5m2, false), 0x7B);
  EXPECT_EQ(toFP8(61440, e5m2, false), 0x7C); // ties to even: Inf
  EXPECT_EQ(toFP8(65504, e5m2, false), 0x7C);
  EXPECT_EQ(toFP8(-61440, e5m2, false), 0xFC);
  EXPECT_EQ(toFP8(61440, e5m2, true), 0x7B);
  EXPECT_EQ(toFP8(bits(0xFF800000), e5m2, true), 0xFB);
  EXPECT_EQ(toFP8(bits(0x7FC00000), e5m2, false), 0x7F);
  // Smallest subnormal 2^-16 and the tie below it.
  EXPECT_EQ(toFP8(std::ldexp(1.0f, -16), e5m2, true), 0x01);
  EXPECT_EQ(toFP8(std::ldexp(1.0f, -17), e5m2, true), 0x00);
}

TEST_F(FP8ArithTest, Decode) {
  EXPECT_EQ(fromFP8(0x7E, e4m3), 0x43E00000u); // 448
  EXPECT_EQ(fromFP8(0x01, e4m3), 0x3B000000u); // 2^-9
  EXPECT_EQ(fromFP8(0x80, e4m3), 0x80000000u); // -0
  EXPECT_TRUE(std::isnan(bits(fromFP8(0xFF, e4m3))));
  EXPECT_EQ(fromFP8(0x7B, e5m2), 0x47600000u); // 57344
  EXPECT_EQ(fromFP8(0xFC, e5m2), 0xFF800000u); // -Inf
  EXPECT_EQ(fromFP8(0x03, e5m2), 0x38400000u); // 3 * 2^-16
  EXPECT_TRUE(std::isnan(bits(fromFP8(0x7D, e5m2))));
}

TEST_F(FP8ArithTest, ScaleRule) {
  EXPECT_EQ(scale(448, 1e-4, e4m3, false), 1.0f);
  EXPECT_EQ(scale(0, 1e-4, e4m3, false), float(1e-4f / 448.0f));
  EXPECT_EQ(scale(NAN, 1e-4, e4m3, false), 1.0f);
  EXPECT_EQ(scale(INFINITY, 1e-4, e4m3, false), 1.0f);
  EXPECT_EQ(scale(1e-40f, 0.0, e4m3, false), 1.0f); // not a normal quotient
  EXPECT_EQ(scale(0, 0.0, e4m3, false), 1.0f);
  // pow2 from bits: 56/448 = 2^-3 exactly; the next float up rounds to 2^-2.
  EXPECT_EQ(scale(56, 1e-4, e4m3, true), 0.125f);
  EXPECT_EQ(scale(bits(0x42600001), 1e-4, e4m3, true), 0.25f);
  EXPECT_EQ(scale(4, 1e-4, e5m2, true), std::ldexp(1.0f, -13));
}

TEST_F(FP8ArithTest, VectorOperands) {
  OpBuilder b(&ctx);
  auto vt = VectorType::get({4}, b.getF32Type());
  Attribute a = fold(DenseElementsAttr::get(vt, b.getF32FloatAttr(465.0f)),
                     [&](OpBuilder &nb, Location l, Value v) {
                       return fp8::createF32ToFP8Bits(nb, l, v, e4m3, true);
                     });
  auto d = dyn_cast_or_null<DenseElementsAttr>(a);
  ASSERT_TRUE(d && d.isSplat());
  EXPECT_EQ(d.getSplatValue<APInt>().getZExtValue(), 0x7Eu);
}

TEST_F(FP8ArithTest, E8M0) {
  OpBuilder b(&ctx);
  Attribute a = fold(b.getF32FloatAttr(std::ldexp(1.0f, -7)),
                     [&](OpBuilder &nb, Location l, Value v) {
                       Value e = fp8::createE8M0FromPow2(nb, l, v);
                       return fp8::createF32FromE8M0(nb, l, e);
                     });
  auto f = dyn_cast_or_null<FloatAttr>(a);
  ASSERT_TRUE(f);
  EXPECT_EQ(f.getValue().convertToFloat(), std::ldexp(1.0f, -7));
}

// HostQuantizer evaluates the same operation sequence on the host
// (fp8-fold-constant-weights); its values are hand-derived here from the
// contract, independently of the IR path above.
TEST_F(FP8ArithTest, HostQuantizerF32Scales) {
  fp8::HostQuantizer q(e4m3, Float32Type::get(&ctx), 1e-4, /*pow2=*/false,
                       /*saturate=*/true);
  // amax: NaN propagates whatever the order; |x| otherwise.
  EXPECT_EQ(q.updateAmax(3.0f, -5.0f), 5.0f);
  EXPECT_TRUE(std::isnan(q.updateAmax(3.0f, bits(0xFFC00000))));
  EXPECT_TRUE(std::isnan(q.updateAmax(bits(0x7FC00000), 1.0f)));
  // Scales: 448 -> 1; NaN or Inf amax -> 1; 0 -> eps / 448 = 2.23214286e-7.
  EXPECT_EQ(q.getStoredScale(448.0f), 0x3F800000u);
  EXPECT_EQ(q.getStoredScale(bits(0x7FC00000)), 0x3F800000u);
  EXPECT_EQ(q.getStoredScale(bits(0x7F800000)), 0x3F800000u);
  EXPECT_EQ(bits(q.getStoredScale(0.0f)), 2.23214286e-7f);
  // Codes (case 20): every NaN -> 0x7F, whatever its sign; case 1.
  EXPECT_EQ(q.quantize(bits(0xFFC00000), 0x3F800000u), 0x7F);
  EXPECT_EQ(q.quantize(bits(0x7FC00000), 0x3F800000u), 0x7F);
  EXPECT_EQ(q.quantize(464.0f, 0x3F800000u), 0x7E);
  EXPECT_EQ(q.quantize(-1000.0f, 0x3F800000u), 0xFE);
  EXPECT_EQ(q.quantize(-0.0f, 0x3F800000u), 0x80);
  EXPECT_EQ(q.quantize(0.01f, 0x3F800000u), 0x05);
  EXPECT_EQ(fp8::hostFP8ToF32(0x7E, e4m3), 448.0f);
  EXPECT_EQ(fp8::hostFP8ToF32(0x01, e4m3), std::ldexp(1.0f, -9));
}

TEST_F(FP8ArithTest, HostQuantizerE8M0AndNonSaturating) {
  fp8::HostQuantizer q(e5m2, Float8E8M0FNUType::get(&ctx), 1e-4,
                       /*pow2=*/true, /*saturate=*/false);
  // 7168 / 57344 = 2^-3 exactly: E8M0 code 127 - 3 = 124; 7168 / 2^-3 =
  // 57344 = 0x7B. Just above, the scale rounds up to 2^-2 (code 125).
  EXPECT_EQ(q.getStoredScale(7168.0f), 124u);
  EXPECT_EQ(q.getStoredScale(bits(0x45E00001)), 125u);
  EXPECT_EQ(q.quantize(7168.0f, 124u), 0x7B);
  // Without saturation 61440 ties to Inf (0x7C), -Inf stays -Inf.
  EXPECT_EQ(q.quantize(61440.0f, 127u), 0x7C);
  EXPECT_EQ(q.quantize(bits(0xFF800000), 127u), 0xFC);
}

// E8M0 code 0 is 2^-127 (OCP MX v1.0, E8M0: value 2^(code - 127), no zero),
// a subnormal f32 (bits 0x00400000): a block scaled by it dequantizes and
// quantizes like any other power of two, never by a zero scale.
TEST_F(FP8ArithTest, HostQuantizerE8M0CodeZero) {
  fp8::HostQuantizer q(e4m3, Float8E8M0FNUType::get(&ctx), 1e-4,
                       /*pow2=*/true, /*saturate=*/true);
  // 2^-127 / 2^-127 = 1.0 (E4M3 0x38); 1.5 * 2^-127 -> 1.5 (0x3C).
  EXPECT_EQ(q.quantize(bits(0x00400000), 0u), 0x38);
  EXPECT_EQ(q.quantize(bits(0x00600000), 0u), 0x3C);
  EXPECT_EQ(q.quantize(0.0f, 0u), 0x00);
}
} // namespace
