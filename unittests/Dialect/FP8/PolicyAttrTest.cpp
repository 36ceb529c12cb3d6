//===- PolicyAttrTest.cpp - C++ API of #fp8.policy ------------------------===//
#include "fp8/Dialect/FP8/IR/FP8.h"
#include "fp8/Dialect/FP8/Pipelines/Passes.h"
#include "fp8/Dialect/FP8/Transforms/Passes.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::fp8;

namespace {
class PolicyAttrTest : public ::testing::Test {
protected:
  PolicyAttrTest() { ctx.loadDialect<FP8Dialect>(); }

  std::string print(Attribute a) {
    std::string s;
    llvm::raw_string_ostream os(s);
    a.print(os);
    return s;
  }
  /// Parses `text`, swallowing (and recording) the diagnostic on failure.
  Attribute parse(StringRef text) {
    ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
      lastError = d.str();
      return success();
    });
    return parseAttribute(text, &ctx);
  }

  MLIRContext ctx;
  std::string lastError;
  static constexpr int64_t kWhole = ShapedType::kDynamic;
};
} // namespace

TEST_F(PolicyAttrTest, DeepSeekV3Preset) {
  PolicyAttr p = PolicyAttr::getPreset(&ctx, "deepseek-v3");
  ASSERT_TRUE(p);
  // DeepSeek-V3 §3.3.2: 1x128 activation tiles, 128x128 weight blocks,
  // E4M3 everywhere, FP32 promotion every 128 K elements.
  EXPECT_EQ(p.getActivationBlock(), (ArrayRef<int64_t>{1, 128}));
  EXPECT_EQ(p.getWeightBlock(), (ArrayRef<int64_t>{128, 128}));
  EXPECT_TRUE(isa<Float8E4M3FNType>(p.getFormat()));
  EXPECT_TRUE(isa<Float8E4M3FNType>(p.getGradFormat()));
  EXPECT_EQ(p.getPromoteInterval(), 128);
  EXPECT_EQ(p.getScaleMode(), ScaleMode::f32);
  EXPECT_FLOAT_EQ(p.getEpsValue(), 1.0e-4f);
  EXPECT_TRUE(p.getHigh().isBF16());
  // DeepSeek-V3 §3.3.1: these stay in BF16/FP32; linears go to FP8.
  for (Role r : {Role::embedding, Role::output_head, Role::gating,
                 Role::normalization, Role::attention})
    EXPECT_TRUE(p.keepsHigh(r)) << stringifyRole(r).str();
  EXPECT_FALSE(p.keepsHigh(Role::linear));
}

TEST_F(PolicyAttrTest, OtherPresets) {
  PolicyAttr perTensor = PolicyAttr::getPreset(&ctx, "per-tensor");
  ASSERT_TRUE(perTensor);
  EXPECT_EQ(perTensor.getActivationBlock(),
            (ArrayRef<int64_t>{kWhole, kWhole}));
  EXPECT_TRUE(isa<Float8E5M2Type>(perTensor.getGradFormat()));

  PolicyAttr rowwise = PolicyAttr::getPreset(&ctx, "rowwise");
  ASSERT_TRUE(rowwise);
  EXPECT_EQ(rowwise.getWeightBlock(), (ArrayRef<int64_t>{1, kWhole}));
  EXPECT_EQ(rowwise.getScaleMode(), ScaleMode::pow2);

  PolicyAttr mx = PolicyAttr::getPreset(&ctx, "mxfp8");
  ASSERT_TRUE(mx);
  EXPECT_EQ(mx.getActivationBlock(), (ArrayRef<int64_t>{1, 32}));
  EXPECT_TRUE(isa<Float8E8M0FNUType>(mx.getScaleType()));
  EXPECT_EQ(mx.getPromoteInterval(), 32);

  // deepseek-v3's tiles with E5M2 gradients (TransformerEngine's HYBRID).
  PolicyAttr hybrid = PolicyAttr::getPreset(&ctx, "hybrid");
  ASSERT_TRUE(hybrid);
  EXPECT_EQ(hybrid.getActivationBlock(), (ArrayRef<int64_t>{1, 128}));
  EXPECT_EQ(hybrid.getWeightBlock(), (ArrayRef<int64_t>{128, 128}));
  EXPECT_TRUE(isa<Float8E4M3FNType>(hybrid.getFormat()));
  EXPECT_TRUE(isa<Float8E5M2Type>(hybrid.getGradFormat()));

  EXPECT_FALSE(PolicyAttr::getPreset(&ctx, "deepseek-v4"));
  EXPECT_EQ(PolicyAttr::getPresetNames().size(), 6u);

  // The BF16 baseline keeps every role high: nothing is FP8.
  PolicyAttr bf16 = PolicyAttr::getPreset(&ctx, "bf16");
  ASSERT_TRUE(bf16);
  EXPECT_TRUE(isa<BFloat16Type>(bf16.getHigh()));
  for (Role role :
       {Role::linear, Role::embedding, Role::output_head, Role::gating,
        Role::normalization, Role::attention, Role::other, Role::dispatch})
    EXPECT_TRUE(bf16.keepsHigh(role)) << stringifyRole(role).str();
}

// One default preset, DeepSeek-V3's recipe (docs/policies.md: "the default
// deepseek-v3"), named once: both `policy` options start from it and a
// policy written without a preset name (the full form) starts from its
// fields.
TEST_F(PolicyAttrTest, OneDefaultPreset) {
  EXPECT_EQ(PolicyAttr::getDefaultPresetName(), "deepseek-v3");
  EXPECT_TRUE(llvm::is_contained(PolicyAttr::getPresetNames(),
                                 PolicyAttr::getDefaultPresetName()));
  PolicyAttr deepseek = PolicyAttr::getPreset(&ctx, "deepseek-v3");
  EXPECT_EQ(PolicyAttr::getDefaultPreset(&ctx), deepseek);
  EXPECT_EQ(FP8AssignPrecisionPassOptions().policy, "deepseek-v3");
  EXPECT_EQ(FP8PipelineOptions().policy.getValue(), "deepseek-v3");
  auto full = dyn_cast_or_null<PolicyAttr>(parse("#fp8.policy<eps = 1.0>"));
  ASSERT_TRUE(full) << lastError;
  EXPECT_EQ(full.getGradFormat(), deepseek.getGradFormat());
  EXPECT_EQ(full.getActivationBlock(), deepseek.getActivationBlock());
  EXPECT_EQ(full.getWeightBlock(), deepseek.getWeightBlock());
  EXPECT_EQ(full.getKeepHigh(), deepseek.getKeepHigh());
}

// What option help and the unknown-preset errors list: every preset, in the
// table's order (docs/policies.md's table).
TEST_F(PolicyAttrTest, PresetNameListIsTheTable) {
  EXPECT_EQ(PolicyAttr::getPresetNameList(),
            "deepseek-v3, hybrid, per-tensor, rowwise, mxfp8, bf16");
  EXPECT_EQ(getPolicyOptionDescription(),
            "Precision policy preset: deepseek-v3, hybrid, per-tensor, "
            "rowwise, mxfp8, bf16");
}

TEST_F(PolicyAttrTest, PresetParsesToThePrintedFullForm) {
  for (StringRef name : PolicyAttr::getPresetNames()) {
    Attribute fromName = parse(("#fp8.policy<\"" + name + "\">").str());
    ASSERT_TRUE(fromName) << name.str() << ": " << lastError;
    EXPECT_EQ(fromName, PolicyAttr::getPreset(&ctx, name));
    // Printing writes every field; parsing that gives the same attribute.
    std::string full = print(fromName);
    EXPECT_NE(full.find("promote_interval"), std::string::npos);
    EXPECT_NE(full.find("keep_high"), std::string::npos);
    EXPECT_EQ(parse(full), fromName) << full;
  }
}

TEST_F(PolicyAttrTest, OverridesApplyOnTopOfAPreset) {
  auto p = dyn_cast_or_null<PolicyAttr>(
      parse("#fp8.policy<\"deepseek-v3\", eps = 1.0e-12, keep_high = "
            "[attention]>"));
  ASSERT_TRUE(p) << lastError;
  EXPECT_FLOAT_EQ(p.getEpsValue(), 1.0e-12f);
  EXPECT_TRUE(p.keepsHigh(Role::attention));
  EXPECT_FALSE(p.keepsHigh(Role::gating));
  EXPECT_EQ(p.getWeightBlock(), (ArrayRef<int64_t>{128, 128}));
}

TEST_F(PolicyAttrTest, RejectsBadPolicies) {
  EXPECT_FALSE(parse("#fp8.policy<\"fp4\">"));
  EXPECT_NE(lastError.find("unknown policy preset \"fp4\""), std::string::npos)
      << lastError;
  EXPECT_FALSE(parse("#fp8.policy<\"deepseek-v3\", promote_interval = 100>"));
  EXPECT_NE(lastError.find("positive multiple of 32"), std::string::npos)
      << lastError;
  EXPECT_FALSE(parse("#fp8.policy<\"mxfp8\", scale_mode = f32>"));
  EXPECT_NE(lastError.find("needs scale_mode = pow2"), std::string::npos)
      << lastError;
  EXPECT_FALSE(
      parse("#fp8.policy<\"deepseek-v3\", activation_block = [1, 64]>"));
  EXPECT_NE(lastError.find("not a multiple of promote_interval"),
            std::string::npos)
      << lastError;
  EXPECT_FALSE(parse("#fp8.policy<\"deepseek-v3\", format = bf16>"));
  EXPECT_FALSE(parse("#fp8.policy<\"deepseek-v3\", colour = 3>"));
  EXPECT_NE(lastError.find("unknown policy field 'colour'"), std::string::npos)
      << lastError;
}

TEST_F(PolicyAttrTest, WithPromoteIntervalChangesThatFieldOnly) {
  PolicyAttr perTensor = PolicyAttr::getPreset(&ctx, "per-tensor");
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
    lastError = d.str();
    return success();
  });
  auto emitError = [&] { return mlir::emitError(UnknownLoc::get(&ctx)); };
  PolicyAttr once = perTensor.withPromoteInterval(kWhole, emitError);
  ASSERT_TRUE(once) << lastError;
  EXPECT_TRUE(ShapedType::isDynamic(once.getPromoteInterval()));
  // Every other field as the preset has it: the same attribute as the
  // preset written with that one override.
  EXPECT_EQ(once, parse("#fp8.policy<\"per-tensor\", promote_interval = ?>"));
  EXPECT_EQ(once.withPromoteInterval(128, emitError), perTensor);
  // deepseek-v3's 1x128 K-blocks carry their own scales: one promotion per
  // K is not a valid policy, and the verifier says why.
  PolicyAttr deepseek = PolicyAttr::getPreset(&ctx, "deepseek-v3");
  EXPECT_FALSE(deepseek.withPromoteInterval(kWhole, emitError));
  EXPECT_NE(lastError.find("needs K-blocks that span the whole K"),
            std::string::npos)
      << lastError;
}
