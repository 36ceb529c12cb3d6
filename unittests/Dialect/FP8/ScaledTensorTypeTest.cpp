//===- ScaledTensorTypeTest.cpp - C++ API of !fp8.scaled ------------------===//
#include "fp8/Dialect/FP8/IR/FP8.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::fp8;

namespace {
class ScaledTensorTypeTest : public ::testing::Test {
protected:
  ScaledTensorTypeTest() { ctx.loadDialect<FP8Dialect>(); }

  /// Builds a type through the verifier; returns null and records the
  /// message when it is rejected.
  ScaledTensorType build(ArrayRef<int64_t> shape, Type elem,
                         ArrayRef<int64_t> block, Type scale) {
    ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
      lastError = d.str();
      return success();
    });
    return ScaledTensorType::getChecked(
        [&] { return emitError(UnknownLoc::get(&ctx)); }, &ctx, shape, elem,
        block, scale);
  }

  MLIRContext ctx;
  Builder b{&ctx};
  Type e4m3 = b.getType<Float8E4M3FNType>();
  Type e5m2 = b.getType<Float8E5M2Type>();
  Type e8m0 = b.getType<Float8E8M0FNUType>();
  Type f32 = b.getF32Type();
  std::string lastError;
};
} // namespace

TEST_F(ScaledTensorTypeTest, ScaleShapeIsCeilOfShapeOverBlock) {
  // 32x4096 in 1x128 tiles: 32 x 32 scales (DeepSeek-V3 activations).
  auto act = build({32, 4096}, e4m3, {1, 128}, f32);
  ASSERT_TRUE(act);
  EXPECT_EQ(act.getScaleShape(), (SmallVector<int64_t>{32, 32}));
  // 576x2560 weight in 128x128 blocks: [5, 20] (docs/regression-cases.md case
  // 11).
  auto w = build({576, 2560}, e4m3, {128, 128}, f32);
  ASSERT_TRUE(w);
  EXPECT_EQ(w.getScaleShape(), (SmallVector<int64_t>{5, 20}));
  // Tails in every dimension round up: 200x129 in 128x128 -> 2x2.
  auto tail = build({200, 129}, e5m2, {128, 128}, f32);
  ASSERT_TRUE(tail);
  EXPECT_EQ(tail.getScaleShape(), (SmallVector<int64_t>{2, 2}));
  // A block larger than the dimension is one block.
  auto whole = build({7, 3}, e4m3, {1024, 1024}, f32);
  ASSERT_TRUE(whole);
  EXPECT_EQ(whole.getScaleShape(), (SmallVector<int64_t>{1, 1}));
}

TEST_F(ScaledTensorTypeTest, DynamicDimensionsStayDynamic) {
  auto t = build({ShapedType::kDynamic, 256}, e4m3, {1, 128}, f32);
  ASSERT_TRUE(t);
  EXPECT_TRUE(ShapedType::isDynamic(t.getScaleShape()[0]));
  EXPECT_EQ(t.getScaleShape()[1], 2);
}

TEST_F(ScaledTensorTypeTest, DataAndScaleTensorTypes) {
  auto t = build({256, 512}, e5m2, {128, 128}, e8m0);
  ASSERT_TRUE(t);
  EXPECT_EQ(t.getDataTensorType(), RankedTensorType::get({256, 512}, e5m2));
  EXPECT_EQ(t.getScaleTensorType(), RankedTensorType::get({2, 4}, e8m0));
  EXPECT_EQ(t.getRank(), 2);
}

TEST_F(ScaledTensorTypeTest, FormatMaxima) {
  // E4M3FN: 1.75 * 2^8; E5M2: 1.75 * 2^15 (OCP FP8 spec).
  EXPECT_EQ(build({4}, e4m3, {4}, f32).getFormatMax(), 448.0);
  EXPECT_EQ(build({4}, e5m2, {4}, f32).getFormatMax(), 57344.0);
}

TEST_F(ScaledTensorTypeTest, VerifierRejectsBadParameters) {
  EXPECT_FALSE(build({4}, b.getF16Type(), {4}, f32));
  EXPECT_NE(lastError.find("element type must be f8E4M3FN or f8E5M2"),
            std::string::npos)
      << lastError;
  EXPECT_FALSE(build({4}, b.getType<Float8E4M3FNUZType>(), {4}, f32));
  EXPECT_FALSE(build({4, 4}, e4m3, {4}, f32));
  EXPECT_NE(lastError.find("block rank 1 differs from tensor rank 2"),
            std::string::npos)
      << lastError;
  EXPECT_FALSE(build({4, 4}, e4m3, {1, 0}, f32));
  EXPECT_NE(lastError.find("block size at dimension 1 must be positive"),
            std::string::npos)
      << lastError;
  EXPECT_FALSE(build({4}, e4m3, {-2}, f32));
  EXPECT_FALSE(build({4}, e4m3, {4}, b.getBF16Type()));
  EXPECT_NE(lastError.find("scale type must be f32 or f8E8M0FNU"),
            std::string::npos)
      << lastError;
}

TEST_F(ScaledTensorTypeTest, PrintParseRoundTrip) {
  auto t = build({32, ShapedType::kDynamic}, e4m3, {1, 128}, e8m0);
  ASSERT_TRUE(t);
  std::string text;
  llvm::raw_string_ostream os(text);
  Type(t).print(os);
  EXPECT_EQ(text, "!fp8.scaled<32x?xf8E4M3FN, block = [1, 128], scale = "
                  "f8E8M0FNU>");
  EXPECT_EQ(parseType(text, &ctx), t);
}

TEST_F(ScaledTensorTypeTest, CloneKeepsLayout) {
  auto t = build({32, 256}, e4m3, {1, 128}, f32);
  ScaledTensorType c = t.clone({64, 512});
  EXPECT_EQ(c.getBlockShape(), t.getBlockShape());
  EXPECT_EQ(c.getScaleShape(), (SmallVector<int64_t>{64, 4}));
}

// ScaledTensorType::get (what passes call) does not run the type's verifier:
// fp8-insert-quant built a block of 0 that way, and fp8-lower-to-linalg
// divided by it. The fp8 ops' verifiers check their scaled types again, so
// such a type fails verification (after the pass), naming the operand.
TEST_F(ScaledTensorTypeTest, OpVerifiersRecheckTypesBuiltWithoutChecks) {
  ctx.allowUnregisteredDialects();
  OwningOpRef<ModuleOp> m = parseSourceString<ModuleOp>(R"mlir(
    %x = "test.source"() : () -> tensor<0x128xf32>
    %q = fp8.quantize %x : tensor<0x128xf32> -> !fp8.scaled<0x128xf8E4M3FN, block = [1, 128], scale = f32>
    %d = fp8.dequantize %q : !fp8.scaled<0x128xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<0x128xf32>
  )mlir",
                                                        &ctx);
  ASSERT_TRUE(m);
  ASSERT_TRUE(succeeded(verify(*m)));
  Operation *quantize = &*std::next(m->getBody()->begin());
  quantize->getResult(0).setType(
      ScaledTensorType::get(&ctx, {0, 128}, e4m3, {0, 128}, f32));
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
    lastError = d.str();
    return success();
  });
  EXPECT_TRUE(failed(verify(*m)));
  EXPECT_NE(lastError.find("'fp8.quantize' op result #0 has an invalid type "
                           "'!fp8.scaled<0x128xf8E4M3FN, block = [0, 128], "
                           "scale = f32>': block size at dimension 0 must be "
                           "positive, got 0"),
            std::string::npos)
      << lastError;
}
