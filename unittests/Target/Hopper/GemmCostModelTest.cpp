//===- GemmCostModelTest.cpp - the GEMM configuration model --------------===//
//
// Expected values are derived by hand from the model's definition in
// docs/gpu-kernel.md and the chip datasheets, never read from the code.
//
//===----------------------------------------------------------------------===//
#include "fp8/Target/Hopper/GemmCostModel.h"

#include <gtest/gtest.h>

using namespace mlir::fp8;

namespace {

const ChipSpec &h200() {
  const ChipSpec *c = lookupChip("h200");
  EXPECT_NE(c, nullptr);
  return *c;
}

GemmKernelConfig tiles(int64_t m, int64_t n, int64_t k, int64_t bm,
                       int64_t bn) {
  GemmKernelOverrides o;
  o.blockM = bm;
  o.blockN = bn;
  return makeGemmKernelConfig(m, n, k, o);
}

TEST(GemmCostModelTest, Chips) {
  ASSERT_NE(lookupChip("h100-sxm"), nullptr);
  EXPECT_EQ(lookupChip("h100-sxm")->smCount, 132);
  EXPECT_DOUBLE_EQ(lookupChip("h100-sxm")->hbmTBps, 3.35);
  EXPECT_DOUBLE_EQ(h200().hbmTBps, 4.8);
  EXPECT_DOUBLE_EQ(h200().denseFp8Tflops, 1979.0);
  EXPECT_EQ(lookupChip("b200"), nullptr);
}

// 128x2112x7168 (the first DeepSeek-V3 decode shape): 128x128 tiles give
// 1 x ceil(2112 / 128) = 17 CTAs; 64x32 tiles give 2 x 66 = 132.
TEST(GemmCostModelTest, DecodeCtaCounts) {
  GemmCost wide = modelGemmCost(tiles(128, 2112, 7168, 128, 128), h200());
  EXPECT_EQ(wide.tiles, 17);
  EXPECT_EQ(wide.ctas, 17);
  EXPECT_EQ(wide.waves, 1);
  GemmCost narrow = modelGemmCost(tiles(128, 2112, 7168, 64, 32), h200());
  EXPECT_EQ(narrow.tiles, 132);
  EXPECT_EQ(narrow.ctas, 132);
  EXPECT_EQ(narrow.waves, 1);
  EXPECT_DOUBLE_EQ(narrow.lastWaveUtil, 1.0);
  // HBM bytes, read once (A + B = 16 MB fit in half of the 50 MB L2):
  // A 128 x 7168 + scales 128 x 56 x 4, B 2112 x 7168 + scales 17 x 56 x 4,
  // D 128 x 2112 x 2.
  EXPECT_DOUBLE_EQ(narrow.hbmBytes,
                   917504.0 + 28672 + 15138816 + 3808 + 540672);
  EXPECT_LT(narrow.us, wide.us);
}

// One 128x128 tile, K = 128 on H200: wgmma 2 x 128^3 FLOP at 1979e12 / 132
// FLOP/s per SM = 0.27977 us; the promotion 128 x 128 FFMA at 128 per clock
// = 128 clocks at 1979e12 / 132 / 8192 Hz = 0.069939 us.
TEST(GemmCostModelTest, ComputeTimeOfOneTile) {
  GemmCost c = modelGemmCost(tiles(128, 128, 128, 128, 128), h200());
  EXPECT_NEAR(c.computeUs, 0.27977 + 0.069939, 1e-4);
  EXPECT_NEAR(c.us, std::max(c.computeUs, c.l2Us) + h200().fixedUs, 1e-9);
}

// 896 x 2432 = 7 x 19 = 133 tiles of 128x128: two waves, the second with one
// CTA (last-wave utilisation 1/132). The model must not pay for a nearly
// empty wave: one wave exists (e.g. 128x160: 7 x 16 = 112 tiles).
TEST(GemmCostModelTest, NearlyEmptyLastWave) {
  GemmCost def = modelGemmCost(tiles(896, 2432, 4096, 128, 128), h200());
  EXPECT_EQ(def.tiles, 133);
  EXPECT_EQ(def.waves, 2);
  EXPECT_NEAR(def.lastWaveUtil, 1.0 / 132, 1e-12);
  GemmChoice g = chooseGemmConfigByModel(896, 2432, 4096, h200());
  EXPECT_EQ(g.cost.waves, 1);
  EXPECT_LT(g.cost.us, def.us);
}

// Every decode shape of the DeepSeek-V3 table: a configuration the generator
// accepts, shared memory filled (8 stages or one more would not fit), and a
// CTA on every SM or a reason.
TEST(GemmCostModelTest, DecodeShapesFillTheChip) {
  const int64_t nk[][2] = {{2112, 7168},  {24576, 1536}, {32768, 512},
                           {7168, 16384}, {4096, 7168},  {7168, 2048}};
  for (int64_t m : {64, 128}) {
    for (const auto &s : nk) {
      for (const char *chip : {"h100-sxm", "h200"}) {
        GemmChoice g =
            chooseGemmConfigByModel(m, s[0], s[1], *lookupChip(chip));
        SCOPED_TRACE(std::to_string(m) + "x" + std::to_string(s[0]) + "x" +
                     std::to_string(s[1]) + " " + chip);
        EXPECT_STREQ(checkGemmKernelConfig(g.config), "");
        // 64 rows per consumer warpgroup, the columns split across 1 or 2.
        EXPECT_EQ(g.config.consumers % (g.config.blockM / 64), 0);
        GemmKernelConfig more = g.config;
        ++more.stages;
        EXPECT_TRUE(g.config.stages == 8 ||
                    more.sharedMemoryBytes() >
                        GemmKernelConfig::kSharedMemoryLimit);
        EXPECT_TRUE(g.cost.ctas >= 120 || !g.fewerCtasReason.empty());
        EXPECT_EQ(g.fewerCtasReason.empty(), g.cost.ctas == 132);
        // Never worse than today's fixed configuration.
        GemmCost fixed = modelGemmCost(chooseGemmKernelConfig(m, s[0], s[1]),
                                       *lookupChip(chip));
        EXPECT_LE(g.cost.us, fixed.us * (1 + 1e-12));
      }
    }
  }
}

// A problem smaller than one wave of the smallest tile: 64 x 64 has one
// 64x16 row of 4 tiles, so no configuration fills the chip.
TEST(GemmCostModelTest, TinyProblemSaysWhy) {
  GemmChoice g = chooseGemmConfigByModel(64, 64, 128, h200());
  EXPECT_LE(g.cost.ctas, 4);
  EXPECT_NE(g.fewerCtasReason.find("no legal tile"), std::string::npos);
}

} // namespace
