//===- GemmKernelConfigTest.cpp - launch configuration invariants ---------===//
//
// The invariants the hardware imposes on the kernel's configuration, checked
// for every DeepSeek-V3 shape the PTX tests compile and for tails: shared
// memory within the sm_90 opt-in limit (227 KiB), 1024-byte alignment of
// every 128B-swizzled TMA/wgmma tile (the swizzle atom), TMA boxes of at most
// 256 elements per dimension with the 128-byte inner box of SWIZZLE_128B, and
// the setmaxnreg register budget within the 64K-register file.
//
//===----------------------------------------------------------------------===//
#include "fp8/Target/Hopper/GemmKernelConfig.h"

#include <gtest/gtest.h>

#include <string>

using mlir::fp8::chooseGemmKernelConfig;
using mlir::fp8::GemmKernelConfig;

namespace {

struct Shape {
  int64_t m, n, k;
};
const Shape kShapes[] = {
    {128, 2112, 7168},   {4096, 2112, 7168}, {128, 24576, 1536},
    {4096, 24576, 1536}, {128, 7168, 16384}, {4096, 7168, 16384},
    {128, 4096, 7168},   {4096, 4096, 7168}, {128, 7168, 512},
    {4096, 7168, 512},   {64, 2112, 7168},   {1, 2112, 7168},
    {100, 200, 272},     {65, 129, 144},
};

TEST(GemmKernelConfig, HardwareLimits) {
  for (const Shape &s : kShapes) {
    GemmKernelConfig c = chooseGemmKernelConfig(s.m, s.n, s.k);
    SCOPED_TRACE(testing::Message() << s.m << "x" << s.n << "x" << s.k);
    EXPECT_LE(c.sharedMemoryBytes(), 227 * 1024);
    EXPECT_GE(c.stages, 2);
    EXPECT_EQ(c.blockK,
              128); // one promotion interval, one 128-byte swizzle row
    EXPECT_EQ(c.blockM, 64 * c.consumers);
    EXPECT_LE(c.blockM, 256);
    EXPECT_LE(c.blockN, 256);
    // Every tile in the ring starts on a 1024-byte swizzle atom.
    EXPECT_EQ(c.aStageBytes() % 1024, 0);
    EXPECT_EQ(c.bStageBytes() % 1024, 0);
    EXPECT_EQ(c.bRingOffset() % 1024, 0);
    // TMA destinations: 128-byte aligned; mbarriers: 8-byte aligned.
    EXPECT_EQ(c.saRingOffset() % 128, 0);
    EXPECT_EQ(c.saStageBytes() % 128, 0);
    EXPECT_EQ(c.barrierOffset() % 8, 0);
    EXPECT_GE(GemmKernelConfig::kBarrierBytes, 2 * c.stages * 8);
    // expect_tx covers exactly the three boxes: A, B (1 byte/elem), A scales.
    EXPECT_EQ(c.stageTxBytes(), c.blockM * 128 + c.blockN * 128 + c.blockM * 4);
    // setmaxnreg: entry allocation (65536 / threads, rounded down to 8) must
    // cover the rebalanced warpgroups.
    int64_t entry = (65536 / c.threads()) / 8 * 8;
    EXPECT_LE(c.producerRegs * 128 + c.consumerRegs * 128 * c.consumers,
              entry * c.threads());
    EXPECT_EQ(c.consumerRegs % 8, 0);
    EXPECT_EQ(c.producerRegs % 8, 0);
  }
}

TEST(GemmKernelConfig, TilesAndScales) {
  GemmKernelConfig c = chooseGemmKernelConfig(100, 200, 272);
  EXPECT_EQ(c.consumers, 2);
  EXPECT_EQ(c.mTiles(), 1);
  EXPECT_EQ(c.nTiles(), 2);
  EXPECT_EQ(c.kBlocks(), 3);      // 272 = 2 x 128 + 16: the last block is cut
  EXPECT_EQ(c.nScaleBlocks(), 2); // 200 -> two 128-column scale blocks
  EXPECT_EQ(c.mPadded(), 100);
  EXPECT_EQ(chooseGemmKernelConfig(65, 8, 16).mPadded(), 68);
  EXPECT_EQ(chooseGemmKernelConfig(64, 8, 16).consumers, 1);
  EXPECT_EQ(chooseGemmKernelConfig(65, 8, 16).consumers, 2);
  GemmKernelConfig big = chooseGemmKernelConfig(4096, 7168, 16384);
  EXPECT_EQ(big.tiles(), 32 * 56);
  EXPECT_EQ(big.gridSize(132), 132);
  EXPECT_EQ(chooseGemmKernelConfig(128, 256, 128).gridSize(132), 2);
}

// Fewer SMs than a cluster's CTAs (sm-count=1, or the SM-count query's
// fallback of 1) still launch one whole cluster: 0 CTAs would leave the
// result unwritten. 4096 x 4096 in 128 x 128 tiles: 32 x 32 tiles, 16 x 32
// cluster tiles of 2 CTAs.
TEST(GemmKernelConfig, AtLeastOneCluster) {
  mlir::fp8::GemmKernelOverrides o;
  o.blockM = 128;
  o.blockN = 128;
  o.cluster = 2;
  GemmKernelConfig c = mlir::fp8::makeGemmKernelConfig(4096, 4096, 7168, o);
  ASSERT_STREQ(mlir::fp8::checkGemmKernelConfig(c), "");
  ASSERT_EQ(c.clusterTiles(), 16 * 32);
  EXPECT_EQ(c.clusterSlots(1), 1);
  EXPECT_EQ(c.gridSize(1), 2);
  EXPECT_EQ(c.gridSize(3), 2);
  EXPECT_EQ(c.gridSize(4), 4);
  c.cluster = 1;
  EXPECT_EQ(c.gridSize(1), 1);
}

// Every configuration the options accept (checkGemmKernelConfig empty) keeps
// the hardware invariants: the rebalanced registers fit what the CTA holds
// at launch (otherwise setmaxnreg.inc would wait forever), the ring fits
// shared memory, the swizzle atoms stay 1024-byte aligned, boxes <= 256.
TEST(GemmKernelConfig, EveryAcceptedOverrideFitsTheHardware) {
  int accepted = 0;
  for (int64_t bm : {64, 128, 192, 256})
    for (int64_t bn = 16; bn <= 256; bn += 8)
      for (int64_t st : {0, 1, 2, 4, 8}) {
        mlir::fp8::GemmKernelOverrides o;
        o.blockM = bm;
        o.blockN = bn;
        o.stages = st;
        GemmKernelConfig c = mlir::fp8::makeGemmKernelConfig(200, 300, 400, o);
        if (*mlir::fp8::checkGemmKernelConfig(c))
          continue;
        ++accepted;
        int64_t entry = (65536 / c.threads()) / 8 * 8;
        EXPECT_LE(c.producerRegs * 128 + c.consumerRegs * 128 * c.consumers,
                  entry * c.threads());
        EXPECT_LE(c.sharedMemoryBytes(), 227 * 1024);
        EXPECT_EQ(c.bRingOffset() % 1024, 0);
        EXPECT_EQ(c.saRingOffset() % 1024, 0);
        // Consumers: BM / 64 row groups times column splits, each holding
        // its consumerN() columns' accumulators and wgmma outputs.
        EXPECT_EQ(c.consumers % c.rowGroups(), 0);
        EXPECT_EQ(c.consumerN() % 8, 0);
        EXPECT_LE(c.consumerN() + GemmKernelConfig::kConsumerOverheadRegs,
                  c.consumerRegs);
      }
  EXPECT_GT(accepted, 100);
}

// BLOCK_N 224..256 is too wide for one consumer per 64 rows (232
// registers: 256 / 2 accumulators + 256 / 2 wgmma outputs + 16 > 232);
// with BLOCK_M 64 the columns split across two consumers of 128 columns
// (the registers of the default tile); with BLOCK_M 128 four consumers get
// 104 registers each, too few for 128 columns: rejected.
TEST(GemmKernelConfig, WideTilesSplitColumns) {
  mlir::fp8::GemmKernelOverrides o;
  o.blockM = 64;
  o.blockN = 256;
  GemmKernelConfig c = mlir::fp8::makeGemmKernelConfig(200, 300, 400, o);
  EXPECT_STREQ(mlir::fp8::checkGemmKernelConfig(c), "");
  EXPECT_EQ(c.consumers, 2);
  EXPECT_EQ(c.rowGroups(), 1);
  EXPECT_EQ(c.colSplits(), 2);
  EXPECT_EQ(c.consumerN(), 128);
  EXPECT_EQ(c.consumerRegs, 232);
  EXPECT_EQ(c.threads(), 384);
  o.blockM = 128;
  c = mlir::fp8::makeGemmKernelConfig(200, 300, 400, o);
  EXPECT_STRNE(mlir::fp8::checkGemmKernelConfig(c), "");
  // BLOCK_N 216 still fits one consumer per 64 rows: no split.
  o.blockN = 216;
  c = mlir::fp8::makeGemmKernelConfig(200, 300, 400, o);
  EXPECT_EQ(c.consumers, 2);
  EXPECT_EQ(c.colSplits(), 1);
}

// The overlapped promotion holds a second wgmma partial: BLOCK_N / splits
// / 2 registers more per consumer thread (3/2 consumerN + 16: 208 at 128
// columns). The register count would allow 144 columns, but ptxas 13.0
// spills 136 and 144 by 8, 112 and 128 by 4 and one consumer (BLOCK_M 64),
// and 40 to 104 by 8 (e.g. 64: 112 bytes), so the check is the measured
// limit: BLOCK_M 128, two consumers, 112 to 128 columns each by 8, at most
// 64 by 4. It needs 128 x 128 B blocks (not
// per-column B scales) and two stages (a consumer holds block k's slot
// while it waits for block k + 1's); U is 4 or 8. An explicit promotion
// is an option, so the cost model chooses no tile then
// (GemmKernelOverrides::any).
TEST(GemmKernelConfig, OverlapLimits) {
  using mlir::fp8::checkGemmKernelConfig;
  using mlir::fp8::checkGroupedGemmKernelConfig;
  const std::string limit =
      "112 to 128 columns each with overlap 8, at most 64";
  mlir::fp8::GemmKernelOverrides o;
  o.blockM = 128;
  o.blockN = 144;
  o.overlap = 8;
  EXPECT_TRUE(o.any());
  GemmKernelConfig c = mlir::fp8::makeGemmKernelConfig(200, 300, 400, o);
  EXPECT_EQ(c.overlap, 8);
  EXPECT_EQ(c.consumerRegsNeeded(), 232);
  EXPECT_NE(std::string(checkGemmKernelConfig(c)).find(limit),
            std::string::npos);
  EXPECT_NE(std::string(checkGroupedGemmKernelConfig(c)).find(limit),
            std::string::npos);
  o.overlap = 4;
  o.blockN = 128;
  c = mlir::fp8::makeGemmKernelConfig(200, 300, 400, o);
  EXPECT_NE(std::string(checkGemmKernelConfig(c)).find(limit),
            std::string::npos);
  o.blockN = 64;
  c = mlir::fp8::makeGemmKernelConfig(200, 300, 400, o);
  EXPECT_STREQ(checkGemmKernelConfig(c), "");
  o.overlap = 8; // 64 columns by 8 spill
  c = mlir::fp8::makeGemmKernelConfig(200, 300, 400, o);
  EXPECT_NE(std::string(checkGemmKernelConfig(c)).find(limit),
            std::string::npos);
  o.blockN = 112;
  c = mlir::fp8::makeGemmKernelConfig(200, 300, 400, o);
  EXPECT_STREQ(checkGemmKernelConfig(c), "");
  o.blockN = 64;
  o.blockM = 64;
  o.overlap = 8;
  c = mlir::fp8::makeGemmKernelConfig(200, 300, 400, o);
  EXPECT_NE(std::string(checkGemmKernelConfig(c)).find(limit),
            std::string::npos);
  o.blockM = 128;
  o.blockN = 128;
  c = mlir::fp8::makeGemmKernelConfig(200, 300, 400, o);
  EXPECT_EQ(c.consumerRegsNeeded(), 208);
  EXPECT_STREQ(checkGemmKernelConfig(c), "");
  EXPECT_STREQ(checkGroupedGemmKernelConfig(c), "");
  o.stages = 1;
  c = mlir::fp8::makeGemmKernelConfig(200, 300, 400, o);
  EXPECT_NE(std::string(checkGemmKernelConfig(c)).find("stages >= 2"),
            std::string::npos);
  o.stages = 0;
  c = mlir::fp8::makeGemmKernelConfig(200, 300, 400, o, true);
  EXPECT_NE(std::string(checkGemmKernelConfig(c)).find("128 x 128 B blocks"),
            std::string::npos);
  o.overlap = 2;
  c = mlir::fp8::makeGemmKernelConfig(200, 300, 400, o);
  EXPECT_NE(std::string(checkGemmKernelConfig(c)).find("4 or 8"),
            std::string::npos);
  // Lock-step given explicitly is an option too, and the default kernel.
  o.overlap = 0;
  EXPECT_TRUE(o.any());
  EXPECT_TRUE(mlir::fp8::isDefaultGemmKernelConfig(
      mlir::fp8::makeGemmKernelConfig(200, 300, 400, o)));
  EXPECT_FALSE(mlir::fp8::GemmKernelOverrides().any());
  GemmKernelConfig overlapped =
      mlir::fp8::chooseGemmKernelConfig(200, 300, 400);
  overlapped.groupM = 16;
  overlapped.overlap = 8;
  EXPECT_EQ(mlir::fp8::getGemmKernelConfigSuffix(overlapped),
            "_t128x128s6g16o8");
}

TEST(GemmKernelConfig, ConsumerRegisters) {
  // By hand: 65536 / 384 = 170 -> 168 per thread, (168 x 384 - 40 x 128) /
  // 256 = 232; 640 threads: 102 -> 96, (96 x 640 - 5120) / 512 = 110 -> 104.
  EXPECT_EQ(GemmKernelConfig::consumerRegsFor(1, 40), 232);
  EXPECT_EQ(GemmKernelConfig::consumerRegsFor(2, 40), 232);
  EXPECT_EQ(GemmKernelConfig::consumerRegsFor(3, 40), 152);
  EXPECT_EQ(GemmKernelConfig::consumerRegsFor(4, 40), 104);
}

/// The configuration of a 200 x 300 x 400 GEMM with the given tile,
/// consumers, tile order, clusters and promotion.
static GemmKernelConfig suffixConfig(int64_t bm, int64_t bn, int64_t stages,
                                     int64_t consumers, int64_t groupM = 1,
                                     int64_t cluster = 1, int64_t overlap = 0) {
  GemmKernelConfig c = mlir::fp8::chooseGemmKernelConfig(200, 300, 400);
  c.blockM = bm;
  c.blockN = bn;
  c.stages = stages;
  c.consumers = consumers;
  c.groupM = groupM;
  c.cluster = cluster;
  c.overlap = overlap;
  return c;
}

TEST(GemmKernelConfig, NameSuffix) {
  using mlir::fp8::getGemmKernelConfigSuffix;
  // Column-split consumers: "c<C>" when C != BM / 64.
  EXPECT_EQ(getGemmKernelConfigSuffix(suffixConfig(64, 96, 5, 1)), "_t64x96s5");
  EXPECT_EQ(getGemmKernelConfigSuffix(suffixConfig(64, 256, 5, 2)),
            "_t64x256s5c2");
  EXPECT_EQ(getGemmKernelConfigSuffix(suffixConfig(128, 96, 5, 2)),
            "_t128x96s5");
  // The grouped tile order: "g<G>" for G > 1, after "c<C>".
  EXPECT_EQ(getGemmKernelConfigSuffix(suffixConfig(64, 256, 5, 2, 16)),
            "_t64x256s5c2g16");
  EXPECT_EQ(getGemmKernelConfigSuffix(suffixConfig(128, 176, 5, 2, 1)),
            "_t128x176s5");
  // Clusters "cl<N>", then the overlapped promotion "o<U>".
  EXPECT_EQ(getGemmKernelConfigSuffix(suffixConfig(128, 128, 4, 2, 8, 2, 4)),
            "_t128x128s4g8cl2o4");
  // The shape's default configuration has no suffix; the same tile with
  // another promotion, tile order or cluster has one.
  EXPECT_EQ(getGemmKernelConfigSuffix(suffixConfig(128, 128, 6, 2)), "");
  EXPECT_EQ(getGemmKernelConfigSuffix(suffixConfig(128, 128, 6, 2, 1, 1, 8)),
            "_t128x128s6o8");
  EXPECT_EQ(getGemmKernelConfigSuffix(suffixConfig(128, 128, 6, 2, 1, 2)),
            "_t128x128s6cl2");
  // The default configuration has no suffix, an explicit one equal to it is
  // the default.
  mlir::fp8::GemmKernelOverrides o;
  o.blockN = 128;
  EXPECT_TRUE(mlir::fp8::isDefaultGemmKernelConfig(
      mlir::fp8::makeGemmKernelConfig(200, 300, 400, o)));
  o.blockN = 96;
  EXPECT_FALSE(mlir::fp8::isDefaultGemmKernelConfig(
      mlir::fp8::makeGemmKernelConfig(200, 300, 400, o)));
}

// Two m64 waves per consumer (waves = 2): 128 rows per consumer warpgroup,
// the registers of two accumulator sets and one partial, the suffix "w2".
TEST(GemmKernelConfig, TwoWaves) {
  mlir::fp8::GemmKernelOverrides o;
  o.waves = 2;
  GemmKernelConfig c = mlir::fp8::makeGemmKernelConfig(4096, 7168, 2048, o);
  EXPECT_EQ(c.blockM, 256);
  EXPECT_EQ(c.blockN, 128);
  EXPECT_EQ(c.consumers, 2);
  EXPECT_EQ(c.rowsPerConsumer(), 128);
  EXPECT_EQ(c.rowGroups(), 2);
  EXPECT_EQ(c.colSplits(), 1);
  EXPECT_EQ(c.consumerRegs, 232);
  EXPECT_EQ(c.stages, 4);
  // 2 x 64 accumulators + 64 partial + 16.
  EXPECT_EQ(c.consumerRegsNeeded(), 208);
  EXPECT_STREQ(mlir::fp8::checkGemmKernelConfig(c), "");
  EXPECT_EQ(mlir::fp8::getGemmKernelConfigSuffix(c), "_t256x128s4w2");
  // At most 128 columns per consumer, the measured limit (ptxas spills
  // 136 and 144, though 3/2 x 144 + 16 fits the 232 registers).
  EXPECT_EQ(GemmKernelConfig::kWavesMaxConsumerN, 128);
  o.blockN = 120;
  EXPECT_STREQ(mlir::fp8::checkGemmKernelConfig(
                   mlir::fp8::makeGemmKernelConfig(4096, 7168, 2048, o)),
               "");
  for (int64_t n : {136, 144, 152}) {
    o.blockN = n;
    EXPECT_NE(
        std::string(mlir::fp8::checkGemmKernelConfig(
                        mlir::fp8::makeGemmKernelConfig(4096, 7168, 2048, o)))
            .find("up to block-n / splits = 128"),
        std::string::npos)
        << n;
  }
  // One consumer of two waves: block-m 128, no "c" suffix.
  o.blockN = 128;
  o.blockM = 128;
  GemmKernelConfig one = mlir::fp8::makeGemmKernelConfig(4096, 7168, 2048, o);
  EXPECT_EQ(one.consumers, 1);
  EXPECT_EQ(mlir::fp8::getGemmKernelConfigSuffix(one), "_t128x128s6w2");
  EXPECT_FALSE(mlir::fp8::isDefaultGemmKernelConfig(one));
  // Not built for two waves: the overlapped promotion, the TMA store.
  GemmKernelConfig overlapped = c;
  overlapped.overlap = 8;
  EXPECT_EQ(std::string(mlir::fp8::checkGemmKernelConfig(overlapped))
                .rfind("waves 2 needs the lock-step promotion", 0),
            0u);
  GemmKernelConfig tma = c;
  tma.tmaStore = true;
  mlir::fp8::fitStages(tma);
  EXPECT_STRNE(mlir::fp8::checkGemmKernelConfig(tma), "");
}

} // namespace
