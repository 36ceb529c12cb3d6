//===- GemmCostModelTest.cpp - the GEMM configuration model --------------===//
//
// Expected values are derived by hand from the model's definition in
// docs/gpu-kernel.md and the chip datasheets, never read from the code.
//
//===----------------------------------------------------------------------===//
#include "fp8/Target/Hopper/GemmCostModel.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <set>
#include <string>

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
// = 128 clocks at 1979e12 / 132 / 8192 Hz = 0.069939 us; the measured
// latency of one promotion (0.12 us) and overhead of one tile (1.5 us).
// 128 columns per consumer, two row groups: no factor.
TEST(GemmCostModelTest, ComputeTimeOfOneTile) {
  GemmCost c = modelGemmCost(tiles(128, 128, 128, 128, 128), h200());
  EXPECT_NEAR(c.computeUs, 0.27977 + 0.069939 + 0.12 + 1.5, 1e-4);
  EXPECT_NEAR(c.us, std::max(c.computeUs, c.l2Us) + h200().fixedUs, 1e-9);
  // 128x112: 112 columns are off the 64 granule (x 1.12 per K block);
  // 256x64: four row groups (x 1.28). K = 256: two K blocks.
  GemmCost off = modelGemmCost(tiles(128, 112, 256, 128, 112), h200());
  EXPECT_NEAR(off.computeUs,
              2 * (0.27977 + 0.069939) * 112 / 128 * 1.12 + 2 * 0.12 * 1.12 +
                  1.5,
              1e-4);
  GemmCost rows = modelGemmCost(tiles(256, 64, 256, 256, 64), h200());
  EXPECT_NEAR(rows.computeUs, 2 * (0.27977 + 0.069939 + 0.12) * 1.28 + 1.5,
              1e-4);
}

// The calibration: fp8-mlir kernel TFLOPS measured on an H200 (2026-12-04,
// bench/gpu/sweep.sh and run.sh, docs/performance.md), one row per shape and
// tile. The model ranks the tiles timed on each shape: its fastest must be
// within 5% (the runs' spread) of the measured fastest. Before the
// calibration the model's fastest on 4096x7168x16384 was 128x176 (1013
// against 1120), on 4096x4096x7168 128x112 (874 against 1045).
TEST(GemmCostModelTest, CalibrationRanksTheH200Timings) {
  struct Timing {
    int64_t m, n, k, bm, bn, groupM;
    double tflops;
  };
  const Timing timed[] = {
      {64, 2112, 7168, 64, 128, 1, 103},
      {64, 2112, 7168, 64, 16, 1, 150},
      {64, 2112, 7168, 128, 128, 8, 76},
      {64, 2112, 7168, 128, 176, 1, 53},
      {64, 2112, 7168, 128, 112, 1, 69},
      {64, 2112, 7168, 128, 192, 1, 58},
      {64, 2112, 7168, 64, 256, 1, 73},
      {64, 2112, 7168, 64, 144, 1, 83},
      {64, 2112, 7168, 256, 64, 8, 64},
      {128, 7168, 16384, 128, 128, 1, 532},
      {128, 7168, 16384, 128, 176, 1, 344},
      {128, 7168, 16384, 128, 112, 1, 449},
      {128, 7168, 16384, 128, 192, 1, 410},
      {128, 7168, 16384, 64, 256, 1, 526},
      {128, 7168, 16384, 64, 144, 1, 560},
      {128, 7168, 16384, 64, 128, 1, 570},
      {128, 7168, 16384, 256, 64, 8, 275},
      {4096, 4096, 7168, 128, 128, 1, 1044},
      {4096, 4096, 7168, 128, 128, 8, 1045},
      {4096, 4096, 7168, 128, 176, 1, 973},
      {4096, 4096, 7168, 128, 112, 1, 874},
      {4096, 4096, 7168, 128, 192, 1, 1037},
      {4096, 4096, 7168, 64, 256, 1, 911},
      {4096, 4096, 7168, 64, 144, 1, 667},
      {4096, 4096, 7168, 64, 128, 1, 775},
      {4096, 4096, 7168, 256, 64, 8, 909},
      {4096, 24576, 1536, 128, 128, 1, 808},
      {4096, 24576, 1536, 128, 128, 8, 849},
      {4096, 24576, 1536, 128, 176, 1, 786},
      {4096, 24576, 1536, 128, 112, 1, 697},
      {4096, 24576, 1536, 128, 192, 1, 865},
      {4096, 24576, 1536, 64, 256, 1, 656},
      {4096, 24576, 1536, 64, 144, 1, 574},
      {4096, 24576, 1536, 64, 128, 1, 632},
      {4096, 24576, 1536, 256, 64, 8, 771},
      {4096, 7168, 16384, 128, 128, 1, 1060},
      {4096, 7168, 16384, 128, 128, 8, 1107},
      {4096, 7168, 16384, 128, 176, 1, 1013},
      {4096, 7168, 16384, 128, 112, 1, 859},
      {4096, 7168, 16384, 128, 192, 16, 1120},
      {4096, 7168, 16384, 64, 256, 1, 826},
      {4096, 7168, 16384, 64, 144, 1, 707},
      {4096, 7168, 16384, 64, 128, 1, 637},
      {4096, 7168, 16384, 256, 64, 8, 924},
  };
  const int64_t shapes[][3] = {{64, 2112, 7168},
                               {128, 7168, 16384},
                               {4096, 4096, 7168},
                               {4096, 24576, 1536},
                               {4096, 7168, 16384}};
  for (const auto &s : shapes) {
    double measuredBest = 0, modelBestUs = 0, modelPickTflops = 0;
    for (const Timing &t : timed) {
      if (t.m != s[0] || t.n != s[1] || t.k != s[2])
        continue;
      GemmKernelConfig c = tiles(t.m, t.n, t.k, t.bm, t.bn);
      c.groupM = t.groupM;
      double us = modelGemmCost(c, h200()).us;
      measuredBest = std::max(measuredBest, t.tflops);
      if (modelBestUs == 0 || us < modelBestUs) {
        modelBestUs = us;
        modelPickTflops = t.tflops;
      }
    }
    EXPECT_GE(modelPickTflops, 0.95 * measuredBest)
        << s[0] << "x" << s[1] << "x" << s[2];
  }
}

// Clusters of 2 ran at 0.41-0.55 of the same tiles alone on the H200: the
// model charges them twice the compute and never chooses them.
TEST(GemmCostModelTest, NoClustersChosen) {
  GemmKernelConfig c = tiles(4096, 4096, 7168, 128, 128);
  GemmCost one = modelGemmCost(c, h200());
  c.cluster = 2;
  EXPECT_GT(modelGemmCost(c, h200()).computeUs, 1.9 * one.computeUs);
  const int64_t shapes[][3] = {{128, 2112, 7168},   {128, 7168, 16384},
                               {4096, 2112, 7168},  {4096, 7168, 16384},
                               {4096, 24576, 1536}, {896, 2432, 4096}};
  for (const auto &s : shapes)
    EXPECT_EQ(chooseGemmConfigByModel(s[0], s[1], s[2], h200()).config.cluster,
              1)
        << s[0] << "x" << s[1] << "x" << s[2];
}

// 896 x 2432 = 7 x 19 = 133 tiles of 128x128: two waves, the second with one
// CTA (last-wave utilisation 1/132). The model must not pay for a nearly
// empty wave: one wave exists (e.g. 128x160: 7 x 16 = 112 tiles), or a
// busy second one.
TEST(GemmCostModelTest, NearlyEmptyLastWave) {
  GemmCost def = modelGemmCost(tiles(896, 2432, 4096, 128, 128), h200());
  EXPECT_EQ(def.tiles, 133);
  EXPECT_EQ(def.waves, 2);
  EXPECT_NEAR(def.lastWaveUtil, 1.0 / 132, 1e-12);
  // The model's choice keeps its last wave busy.
  GemmChoice g = chooseGemmConfigByModel(896, 2432, 4096, h200());
  EXPECT_GT(g.cost.lastWaveUtil, 0.5);
  EXPECT_LT(g.cost.us, def.us);
}

// Clusters of 2 (B by multicast): each CTA reads half of the B tile from
// L2. 256 x 128 x 128 in 128x128 tiles: per tile, A 128 x 128 codes, B 128
// (64 in a cluster) x 128, the A scales 128 x 4 and the bf16 output
// 128 x 128 x 2 bytes; 2 tiles, in one cluster. M = 384: 3 tile rows make
// 2 cluster tiles, whose 4 CTAs' work counts (the last rank past M).
TEST(GemmCostModelTest, ClusterHalvesTheBReads) {
  GemmKernelConfig c = tiles(256, 128, 128, 128, 128);
  GemmCost one = modelGemmCost(c, h200());
  c.cluster = 2;
  GemmCost two = modelGemmCost(c, h200());
  EXPECT_DOUBLE_EQ(one.l2Bytes, 2 * ((128 + 128) * 128 + 512 + 32768.0));
  EXPECT_DOUBLE_EQ(two.l2Bytes, 2 * ((128 + 64) * 128 + 512 + 32768.0));
  EXPECT_EQ(two.tiles, 2);
  EXPECT_EQ(two.ctas, 2);
  EXPECT_EQ(two.waves, 1);
  c.m = 384;
  GemmCost odd = modelGemmCost(c, h200());
  EXPECT_EQ(odd.tiles, 4);
  EXPECT_EQ(odd.ctas, 4);
}

// The waves of a cluster kernel, by hand (H200: 132 SMs): clusters of 2
// run on floor(132 / 2) = 66 cluster slots, each wave one cluster tile
// (2 x 128 rows x 128 columns) per slot: waves = ceil(cluster tiles / 66),
// the same as the CTA waves ceil(tiles / 132) of the unclustered kernel.
// - 512 x 4096: 2 x 32 = 64 cluster tiles (128 CTA tiles): one wave, 128
//   CTAs, 128 / 132 SMs busy.
// - 4096 x 4096: 16 x 32 = 512 cluster tiles: ceil(512 / 66) = 8 waves,
//   the last with 512 - 7 x 66 = 50 clusters (100 / 132 SMs busy).
// - 4608 x 4096: 18 x 32 = 576 cluster tiles: ceil(576 / 66) = 9 waves,
//   the last with 576 - 8 x 66 = 48 clusters (96 / 132).
TEST(GemmCostModelTest, ClusterWaves) {
  struct Case {
    int64_t m, waves, ctas, busyLast;
  } cases[] = {{512, 1, 128, 128}, {4096, 8, 132, 100}, {4608, 9, 132, 96}};
  for (const Case &w : cases) {
    GemmKernelConfig c = tiles(w.m, 4096, 7168, 128, 128);
    c.cluster = 2;
    GemmCost cost = modelGemmCost(c, h200());
    EXPECT_EQ(cost.tiles, w.m / 128 * 32) << w.m;
    EXPECT_EQ(cost.waves, w.waves) << w.m;
    EXPECT_EQ(cost.ctas, w.ctas) << w.m;
    EXPECT_NEAR(cost.lastWaveUtil, w.busyLast / 132.0, 1e-12) << w.m;
    c.cluster = 1;
    EXPECT_EQ(modelGemmCost(c, h200()).waves, w.waves) << w.m;
  }
  // One SM and clusters of 2: one cluster at a time, every cluster tile a
  // wave (512 / 128 / 2 x 4096 / 128 = 64), not a division by zero.
  GemmKernelConfig c = tiles(512, 4096, 7168, 128, 128);
  c.cluster = 2;
  ChipSpec one = h200();
  one.smCount = 1;
  GemmCost cost = modelGemmCost(c, one);
  EXPECT_EQ(cost.ctas, 2);
  EXPECT_EQ(cost.waves, 64);
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

// The grouped tile order is a permutation of the tiles: every tile exactly
// once, groups of G tile rows (the last one shorter) swept column by
// column. Listed by hand for 5 x 3 tiles in groups of 2.
TEST(GemmCostModelTest, GroupedTileOrder) {
  GemmKernelConfig c = tiles(5 * 64, 3 * 64, 128, 64, 64);
  c.groupM = 2;
  const int64_t want[][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}, {0, 2},
                             {1, 2}, {2, 0}, {3, 0}, {2, 1}, {3, 1},
                             {2, 2}, {3, 2}, {4, 0}, {4, 1}, {4, 2}};
  ASSERT_EQ(c.tiles(), 15);
  for (int64_t t = 0; t < 15; ++t) {
    int64_t mt = -1, nt = -1;
    c.tileCoords(t, mt, nt);
    EXPECT_EQ(mt, want[t][0]) << "tile " << t;
    EXPECT_EQ(nt, want[t][1]) << "tile " << t;
  }
  // Group 1 is row-major.
  c.groupM = 1;
  for (int64_t t = 0; t < 15; ++t) {
    int64_t mt = -1, nt = -1;
    c.tileCoords(t, mt, nt);
    EXPECT_EQ(mt, t / 3);
    EXPECT_EQ(nt, t % 3);
  }
}

// Operand bytes per wave, by hand: 256 x 256 x 128 in 64x64 tiles (4 x 4),
// waves of 4 CTAs; an A row is 128 codes + one f32 scale = 132 B, a B row
// 128 codes + 4/128 B of scale = 128.03125 B. Row-major: each wave is one
// tile row, 64 A rows and all 256 B rows: 4 x (64 x 132 + 256 x 128.03125)
// = 164896. Groups of 2: each wave is 2 x 2 tiles, 128 A rows and 128 B
// rows: 4 x (128 x 132 + 128 x 128.03125) = 133136.
TEST(GemmCostModelTest, WaveOperandBytes) {
  GemmKernelConfig c = tiles(256, 256, 128, 64, 64);
  EXPECT_DOUBLE_EQ(gemmWaveOperandBytes(c, 4), 164896.0);
  c.groupM = 2;
  EXPECT_DOUBLE_EQ(gemmWaveOperandBytes(c, 4), 133136.0);
}

// Issue 17's example, 4096x7168x16384 with 128x128 tiles (32 x 56, 14 waves
// on 132 SMs): row-major, every wave reads all 56 B column tiles (and 3 or
// 4 A row tiles); groups of 16 rows read 16 (32 where a wave straddles two
// groups) A row tiles and 9 (5 in the last wave) B column tiles. The bytes
// below were counted by enumerating the tiles of every wave in a separate
// script (sets of rows and columns; A row 16384 + 128 x 4 B, B row 16384 +
// 128 x 4 / 128 B): 1.74 GB against 0.77 GB, the figures.
TEST(GemmCostModelTest, GroupedOrderHbmBytes) {
  GemmKernelConfig c = tiles(4096, 7168, 16384, 128, 128);
  EXPECT_DOUBLE_EQ(gemmWaveOperandBytes(c, 132), 1741889536.0);
  c.groupM = 16;
  EXPECT_DOUBLE_EQ(gemmWaveOperandBytes(c, 132), 774960128.0);
  // The model's HBM bytes add D (bf16) once.
  EXPECT_DOUBLE_EQ(modelGemmCost(c, h200()).hbmBytes,
                   774960128.0 + 4096.0 * 7168 * 2);
  // The chosen group minimises the bytes over powers of two (16 here; 8
  // reads 8 A row tiles and 17 B column tiles per wave, more).
  EXPECT_EQ(chooseGroupM(tiles(4096, 7168, 16384, 128, 128), h200()), 16);
  // Operands that fit in half of L2 (128x2112x7168: 16 MB) keep row-major.
  EXPECT_EQ(chooseGroupM(tiles(128, 2112, 7168, 64, 32), h200()), 1);
  // The model's choice for the shape carries its group.
  GemmChoice g = chooseGemmConfigByModel(4096, 7168, 16384, h200());
  EXPECT_GT(g.config.groupM, 1);
  GemmKernelConfig rowMajor = g.config;
  rowMajor.groupM = 1;
  EXPECT_LT(g.cost.hbmBytes, modelGemmCost(rowMajor, h200()).hbmBytes / 1.5);
}

// The overlapped promotion (overlap = U): of each trip of U K blocks, U - 1
// are promoted while the next block's wgmma runs and cost the slower of
// the two (at 128x128 the wgmma, 0.27977 us, against the promotion's
// 0.069939 + 0.12); the trip's last block (the drain before the back edge)
// and the KB mod U blocks after the last trip cost the lock-step block
// (ComputeTimeOfOneTile). K = 1300: 11 K blocks; U = 8: one trip, 7
// hidden and 4 in lock-step; U = 4: two trips, 6 hidden, 5 in lock-step.
// K = 384 (3 blocks): no trip, all in lock-step.
TEST(GemmCostModelTest, OverlapHidesAllButTheDrains) {
  const double lockstep = 0.27977 + 0.069939 + 0.12, hidden = 0.27977;
  GemmKernelConfig c = tiles(128, 128, 1300, 128, 128);
  EXPECT_NEAR(modelGemmCost(c, h200()).computeUs, 11 * lockstep + 1.5, 1e-3);
  c.overlap = 8;
  EXPECT_NEAR(modelGemmCost(c, h200()).computeUs,
              4 * lockstep + 7 * hidden + 1.5, 1e-3);
  c.overlap = 4;
  EXPECT_NEAR(modelGemmCost(c, h200()).computeUs,
              5 * lockstep + 6 * hidden + 1.5, 1e-3);
  GemmKernelConfig few = tiles(128, 128, 384, 128, 128);
  few.overlap = 8;
  EXPECT_NEAR(modelGemmCost(few, h200()).computeUs, 3 * lockstep + 1.5, 1e-3);
}

// config=auto offers the overlapped promotion wherever the kernel's check
// accepts the tile and takes it where it is modelled faster. The training
// shape 4096x7168x16384 has 128 K blocks: overlapped by 8, 16 trips hide
// 112 promotions behind the next block's wgmma (by 4: 96), so the model
// must prefer it to the same tile in lock-step. K = 128 (one block, no
// trip) costs the same either way: lock-step stays. The per-column B scales
// of the Wgrad kernel never get it (the kernel cannot overlap them).
TEST(GemmCostModelTest, AutoChoosesTheOverlapWhereItPays) {
  GemmChoice g = chooseGemmConfigByModel(4096, 7168, 16384, h200());
  EXPECT_EQ(g.config.overlap, 8);
  EXPECT_STREQ(checkGemmKernelConfig(g.config), "");
  GemmKernelConfig lockstep = g.config;
  lockstep.overlap = 0;
  EXPECT_LT(g.cost.us, modelGemmCost(lockstep, h200()).us);
  EXPECT_EQ(chooseGemmConfigByModel(4096, 7168, 128, h200()).config.overlap, 0);
  EXPECT_EQ(chooseGemmConfigByModel(4096, 7168, 16384, h200(), 0, 1, false,
                                    /*bScalesPerColumn=*/true)
                .config.overlap,
            0);
}

// A problem smaller than one wave of the smallest tile: 64 x 64 has one
// 64x16 row of 4 tiles, so no configuration fills the chip.
TEST(GemmCostModelTest, TinyProblemSaysWhy) {
  GemmChoice g = chooseGemmConfigByModel(64, 64, 128, h200());
  EXPECT_LE(g.cost.ctas, 4);
  EXPECT_NE(g.fewerCtasReason.find("no legal tile"), std::string::npos);
}

} // namespace

namespace {

// The Wgrad GEMM's kernel (b blocks [1, 128]): per-column B scales.
GemmKernelConfig columnScales(int64_t m, int64_t n, int64_t k, int64_t bm,
                              int64_t bn) {
  GemmKernelOverrides o;
  o.blockM = bm;
  o.blockN = bn;
  return makeGemmKernelConfig(m, n, k, o, /*bScalesPerColumn=*/true);
}

// 128x2112x7168 with 64x32 tiles: B's scales are 2112 x 56 x 4 bytes
// instead of 17 x 56 x 4, so the HBM bytes grow by (2112 - 17) x 224 =
// 469280 over the block-scale kernel's (DecodeCtaCounts above).
TEST(GemmCostModelTest, ColumnScaleBytes) {
  GemmCost block = modelGemmCost(tiles(128, 2112, 7168, 64, 32), h200());
  GemmCost column =
      modelGemmCost(columnScales(128, 2112, 7168, 64, 32), h200());
  EXPECT_DOUBLE_EQ(column.hbmBytes - block.hbmBytes, 469280.0);
  // The scale rows of the kernel ABI: ceil(2112 / 32) * 32 columns.
  EXPECT_EQ(columnScales(128, 2112, 7168, 64, 32).bScaleColumns(), 2112);
  EXPECT_EQ(columnScales(200, 300, 400, 128, 112).bScaleColumns(), 336);
}

// One 128x128 tile, K = 128: the promotion doubles (an FMUL per element
// besides the FFMA: 2 x 0.069939 us; the measured latency and tile
// overhead as in ComputeTimeOfOneTile), and the tile reads 128 x 4 more L2
// bytes per K block.
TEST(GemmCostModelTest, ColumnScaleComputeTime) {
  GemmCost c = modelGemmCost(columnScales(128, 128, 128, 128, 128), h200());
  EXPECT_NEAR(c.computeUs, 0.27977 + 2 * 0.069939 + 0.12 + 1.5, 1e-4);
  GemmCost b = modelGemmCost(tiles(128, 128, 128, 128, 128), h200());
  EXPECT_GT(c.l2Us, b.l2Us);
}

// The register limit: consumerN + consumerN / 4 + 16 within the share (232
// for 1-2 consumers, 152 for 3, 104 for 4): 168 + 42 + 16 = 226 fits, 176
// + 44 + 16 = 236 does not; 104 + 26 + 16 = 146 <= 152; 64 + 16 + 16 = 96
// <= 104, 72 + 18 + 16 = 106 > 104. The model never picks a wider tile.
TEST(GemmCostModelTest, ColumnScaleRegisterLimit) {
  EXPECT_STREQ(checkGemmKernelConfig(columnScales(256, 512, 512, 128, 168)),
               "");
  EXPECT_STRNE(checkGemmKernelConfig(columnScales(256, 512, 512, 128, 176)),
               "");
  EXPECT_STREQ(checkGemmKernelConfig(columnScales(256, 512, 512, 192, 104)),
               "");
  EXPECT_STREQ(checkGemmKernelConfig(columnScales(256, 512, 512, 256, 64)), "");
  EXPECT_STRNE(checkGemmKernelConfig(columnScales(256, 512, 512, 256, 72)), "");
  // 176 columns are fine for the block-scale kernel.
  EXPECT_STREQ(checkGemmKernelConfig(tiles(256, 512, 512, 128, 176)), "");
  for (int64_t m : {64, 512, 4096})
    for (int64_t n : {512, 2112, 7168}) {
      GemmChoice g = chooseGemmConfigByModel(m, n, 4096, h200(), 0, 1, false,
                                             /*bScalesPerColumn=*/true);
      EXPECT_TRUE(g.config.bScalesPerColumn);
      EXPECT_LE(g.config.consumerN() * 5 / 4 + 16, g.config.consumerRegs)
          << m << "x" << n;
    }
}

} // namespace

// A masked grouped GEMM computes every group's last tile whole: 8 groups of
// 65 rows are 8 x roundUp(65, BLOCK_M) rows (8 x 128 for BLOCK_M 64 or 128,
// 8 x 256 for 256), never 8 x 65 = 520, and the model's tiles and time are
// those of that padded problem: 8 x ceil(65 / BLOCK_M) row tiles.
TEST(GemmCostModelTest, MaskedGroupsCountPaddedRows) {
  GemmChoice g = chooseGemmConfigByModel(65, 512, 1024, h200(),
                                         /*blockMDivides=*/0, /*groups=*/8,
                                         /*grouped=*/true);
  const int64_t bm = g.config.blockM, bn = g.config.blockN;
  const int64_t perGroup = bm == 256 ? 256 : 128;
  EXPECT_EQ(g.config.m, 8 * perGroup);
  EXPECT_EQ(g.cost.tiles, 8 * (perGroup / bm) * ((512 + bn - 1) / bn));
  GemmKernelConfig padded = tiles(8 * perGroup, 512, 1024, bm, bn);
  padded.overlap = g.config.overlap; // the promotion the model chose too
  EXPECT_DOUBLE_EQ(g.cost.us, modelGemmCost(padded, h200()).us);
}

// The tile-order search tries one group of all tile rows: 512 x 16384 x
// 7168 in 128x128 tiles has 4 tile rows and 128 columns (so a wave of 132
// tiles spans rows). B (117 MB) dwarfs A (3.7 MB): a group of g rows reads
// every B column tile 4 / g times, so one group of all 4 rows, which reads
// B once, is the minimum (2 reads it twice, row-major 4 times).
TEST(GemmCostModelTest, GroupOfAllTileRows) {
  GemmKernelConfig c = tiles(512, 16384, 7168, 128, 128);
  EXPECT_EQ(c.mTiles(), 4);
  EXPECT_EQ(chooseGroupM(c, h200()), 4);
  GemmKernelConfig all = c, two = c;
  all.groupM = 4;
  two.groupM = 2;
  EXPECT_LT(gemmWaveOperandBytes(all, 132), gemmWaveOperandBytes(two, 132));
}

namespace {

// The wave bytes by definition: every tile of every wave placed with
// tileCoords, its distinct A row tiles and B column tiles counted (as the
// model does, at most M rows and N columns in all).
double waveBytesByTiles(const GemmKernelConfig &c, int64_t smCount) {
  const double kb = static_cast<double>(c.kBlocks()), kPad = kb * c.blockK;
  const double aRow = kPad + kb * 4,
               bRow = kPad + kb * 4 / (c.bScalesPerColumn ? 1.0 : 128.0);
  double bytes = 0;
  for (int64_t w0 = 0; w0 < c.tiles(); w0 += smCount) {
    std::set<int64_t> rows, cols;
    for (int64_t t = w0; t < std::min(c.tiles(), w0 + smCount); ++t) {
      int64_t mt, nt;
      c.tileCoords(t, mt, nt);
      rows.insert(mt);
      cols.insert(nt);
    }
    auto extent = [](const std::set<int64_t> &s, int64_t b, int64_t size) {
      return static_cast<double>(
          std::min(static_cast<int64_t>(s.size()) * b, size));
    };
    bytes +=
        extent(rows, c.blockM, c.m) * aRow + extent(cols, c.blockN, c.n) * bRow;
  }
  return bytes;
}

// The model sums one period of the tile order's waves and multiplies (its
// work does not grow with M): the same bytes as wave by wave, for many
// tiles, group heights (short last groups included), SM counts (78 and
// 114: H20 and H100 PCIe) and per-column B scales.
TEST(GemmCostModelTest, PeriodicWavesEqualEveryWave) {
  for (int64_t sms : {4, 78, 114, 132})
    for (int64_t m : {64, 1000, 4160, 20000})
      for (int64_t n : {16, 100, 1056, 2112, 7168})
        for (int64_t g : {1, 2, 3, 8, 64}) {
          GemmKernelConfig c = tiles(m, n, 256, 64, 16);
          if (g > c.mTiles())
            continue;
          c.groupM = g;
          c.bScalesPerColumn = n == 100;
          EXPECT_DOUBLE_EQ(gemmWaveOperandBytes(c, sms),
                           waveBytesByTiles(c, sms))
              << m << "x" << n << " groupM " << g << " on " << sms;
        }
}

// M = 2^30 (the report at tokens = 2^30 took 27 s per GEMM): in 64x16
// tiles, N = 2112 is 132 column tiles, so in row-major order each wave of
// 132 is one tile row, 64 A rows of 128 + 4 B and all 2112 B rows of
// 128.03125 B: 2^24 waves of 278850 B. In groups of 2 rows with N = 1056
// (66 columns) each wave is one group: 128 A rows and 1056 B rows, 152097
// B, 2^23 times.
TEST(GemmCostModelTest, HugeMInClosedForm) {
  GemmKernelConfig c = tiles(int64_t(1) << 30, 2112, 128, 64, 16);
  EXPECT_DOUBLE_EQ(gemmWaveOperandBytes(c, 132), 4678326681600.0);
  c = tiles(int64_t(1) << 30, 1056, 128, 64, 16);
  c.groupM = 2;
  EXPECT_DOUBLE_EQ(gemmWaveOperandBytes(c, 132), 1275882110976.0);
  // The choice at that M (every candidate and group height) is made:
  // 2^30 rows in tiles of at most 256 x 256 are >= 2^22 x 9 tiles.
  GemmChoice choice =
      chooseGemmConfigByModel(int64_t(1) << 30, 2112, 7168, h200());
  EXPECT_EQ(choice.cost.ctas, 132);
  EXPECT_GE(choice.cost.tiles, (int64_t(1) << 22) * 9);
  EXPECT_EQ(choice.cost.waves, (choice.cost.tiles + 131) / 132);
}

} // namespace

namespace {

// Split-K (GemmKernelConfig::kSplits, docs/gpu-kernel.md "Split-K"): 64 x
// 2112 x 7168 with 64x128 tiles is 17 tiles (ceil(2112 / 128)) of KB = 56
// blocks. With S = 4 the grid walks 68 units (17 x 4, under the 132 SMs:
// one wave of 68 CTAs), each over 14 K blocks; the workspace is 4 x 17 x
// 64 x 128 x 4 bytes and one u32 counter per consumer thread (128) and
// tile.
TEST(GemmCostModelTest, SplitKUnits) {
  GemmKernelConfig c = tiles(64, 2112, 7168, 64, 128);
  ASSERT_STREQ(checkGemmKernelConfig(c), "");
  GemmCost one = modelGemmCost(c, h200());
  c.kSplits = 4;
  ASSERT_STREQ(checkGemmKernelConfig(c), "");
  EXPECT_EQ(c.workUnits(), 68);
  EXPECT_EQ(c.gridSize(132), 68);
  EXPECT_EQ(c.splitKPartialBytes(), 4 * 17 * 64 * 128 * 4);
  EXPECT_EQ(c.splitKCounters(), 17 * 128);
  GemmCost four = modelGemmCost(c, h200());
  EXPECT_EQ(one.ctas, 17);
  EXPECT_EQ(four.ctas, 68);
  EXPECT_EQ(four.waves, 1);
  // A quarter of the K blocks per unit: less than half the compute time.
  EXPECT_LT(four.computeUs, one.computeUs / 2);
  EXPECT_LT(four.us, one.us);
  // The operands are read once either way (they fit in half of L2).
  EXPECT_GE(four.hbmBytes, one.hbmBytes);
  // L2 -> SM bytes, by hand: per unit its 14 K blocks of A (64 rows) and B
  // (128 columns) codes and A scales (64 x 4 bytes), its f32 partial tile
  // written and, by the last unit, read back (64 x 128 x 4 x 2 bytes), and a
  // quarter of the tile's bf16 output (one unit of the four stores it: 64 x
  // 128 x 2 / 4 bytes); 68 units. Unsplit: 56 blocks and the whole output
  // per tile, 17 tiles.
  EXPECT_DOUBLE_EQ(four.l2Bytes, 68 * (14 * (64 + 128) * 128.0 + 14 * 64 * 4 +
                                       4 * 64 * 128 * 2 + 64 * 128 * 2 / 4));
  EXPECT_DOUBLE_EQ(one.l2Bytes,
                   17 * (56 * (64 + 128) * 128.0 + 56 * 64 * 4 + 64 * 128 * 2));
}

// The checks name each refusal.
TEST(GemmCostModelTest, SplitKChecks) {
  GemmKernelConfig c = tiles(64, 256, 300, 64, 128); // KB = 3
  c.kSplits = 4;
  EXPECT_NE(std::string(checkGemmKernelConfig(c)).find("at least one K block"),
            std::string::npos);
  c.kSplits = 3;
  EXPECT_STREQ(checkGemmKernelConfig(c), "");
  c.kSplits = 0;
  EXPECT_STREQ(checkGemmKernelConfig(c), "k-splits must be at least 1");
  c.kSplits = 2;
  c.cluster = 2;
  EXPECT_NE(std::string(checkGemmKernelConfig(c))
                .find("st.global store "
                      "epilogue"),
            std::string::npos);
  c.cluster = 1;
  c.m = GemmKernelConfig::kDynamicM;
  EXPECT_NE(std::string(checkGemmKernelConfig(c)).find("compile-time M"),
            std::string::npos);
  c.m = 64;
  EXPECT_NE(std::string(checkGroupedGemmKernelConfig(c)).find("2-D kernel"),
            std::string::npos);
  EXPECT_EQ(getGemmKernelConfigSuffix(c), "_t64x128s8k2");
}

// Split-K with the overlapped promotion: each unit's K loop makes trips of
// U over its own range, so the hidden promotions are counted from the
// unit's ceil(KB / S) blocks, not from KB. 128 x 576 x 7168 (KB = 56) at
// 128x128 by 8: S = 7 gives units of 8 blocks, one trip, 7 hidden per
// unit; S = 8 units of 7 blocks, no trip: every block in lock-step, the
// same time as the lock-step kernel. The checks accept both (the tile is
// the overlapped kernel's, the split changes only the K range).
TEST(GemmCostModelTest, SplitKOverlapCountsTheUnitsTrips) {
  const double lockstep = 0.27977 + 0.069939 + 0.12, hidden = 0.27977;
  GemmKernelConfig c = tiles(128, 576, 7168, 128, 128);
  for (int64_t s : {7, 8}) {
    SCOPED_TRACE("S = " + std::to_string(s));
    c.kSplits = s;
    c.overlap = 0;
    ASSERT_STREQ(checkGemmKernelConfig(c), "");
    GemmCost plain = modelGemmCost(c, h200());
    c.overlap = 8;
    ASSERT_STREQ(checkGemmKernelConfig(c), "");
    GemmCost over = modelGemmCost(c, h200());
    const double kept = s == 7 ? 1 : 7, hid = s == 7 ? 7 : 0;
    EXPECT_NEAR(over.computeUs - plain.computeUs,
                plain.waves * hid * (hidden - lockstep), 1e-3);
    EXPECT_NEAR(over.computeUs,
                plain.waves * (kept * lockstep + hid * hidden + 1.5 +
                               1.5 / static_cast<double>(s)),
                1e-3);
  }
}

// The TMA-store epilogue priced (c.tmaStore): each tile's store to global
// memory runs behind the next tile's K loop, so of the st.global store
// (the tile's 128 x 128 bf16 = 32 KB at 64 B per clock: 512 clocks,
// 0.27977 us at 1.8302 GHz) each tile keeps only the staging writes (128 B
// per clock: 0.13988 us), and the CTA's last tile waits for its store.
// 4096 x 7168 x 7168 at 128x128: 1792 tiles, 14 waves: 14 x 0.13988 saved,
// 0.27977 paid: 1.6786 us less. 128 x 2112 x 7168 at 128x128: one wave,
// the staging only added: 0.13988 us more.
TEST(GemmCostModelTest, TmaStoreHidesAllButTheLastStore) {
  const double store = 0.27977, staging = store / 2;
  GemmKernelConfig c = tiles(4096, 7168, 7168, 128, 128);
  GemmCost plain = modelGemmCost(c, h200());
  c.tmaStore = true;
  fitStages(c);
  ASSERT_STREQ(checkGemmKernelConfig(c), "");
  GemmCost tma = modelGemmCost(c, h200());
  ASSERT_EQ(tma.waves, 14);
  EXPECT_NEAR(plain.computeUs - tma.computeUs, 14 * staging - store, 1e-3);
  GemmKernelConfig one = tiles(128, 2112, 7168, 128, 128);
  GemmCost onePlain = modelGemmCost(one, h200());
  one.tmaStore = true;
  fitStages(one);
  ASSERT_EQ(modelGemmCost(one, h200()).waves, 1);
  EXPECT_NEAR(modelGemmCost(one, h200()).computeUs - onePlain.computeUs,
              staging, 1e-3);
}

// The quantize epilogue's TMA store, with the store epilogue's terms at one
// byte per code (its scales stay on st.global in both forms): a 128 x 128
// tile of codes is 16 KB, 256 clocks at 64 B per clock (0.13988 us) on
// st.global, 128 clocks of staging writes (0.06994 us). 4096 x 7168 x 7168,
// 14 waves: 14 x 0.06994 saved, 0.13988 paid: 0.83929 us less.
TEST(GemmCostModelTest, QuantizeTmaStoreHidesAllButTheLastStore) {
  const double store = 0.13988, staging = store / 2;
  GemmKernelConfig c = tiles(4096, 7168, 7168, 128, 128);
  c.quantizeEpilogue = true;
  GemmCost plain = modelGemmCost(c, h200());
  c.tmaStore = true;
  fillStages(c);
  ASSERT_STREQ(checkGemmKernelConfig(c), "");
  // The codes' staging (2 x 16 KB) leaves the 6 stages of the st.global
  // form (the f32 staging of the store epilogue: 4).
  EXPECT_EQ(c.stages, 6);
  GemmCost tma = modelGemmCost(c, h200());
  ASSERT_EQ(tma.waves, 14);
  EXPECT_NEAR(plain.computeUs - tma.computeUs, 14 * staging - store, 1e-3);
}

// The decode shapes of bench/gpu/shapes.txt run one wave of tiles unsplit
// (at most 132): the model splits them, and the split choice is faster than
// the unsplit one. Shapes whose unsplit choice runs several waves are never
// split (their choice does not change).
TEST(GemmCostModelTest, SplitKChoice) {
  for (auto s : {std::array<int64_t, 3>{64, 2112, 7168},
                 std::array<int64_t, 3>{128, 576, 7168},
                 std::array<int64_t, 3>{64, 1536, 7168},
                 std::array<int64_t, 3>{128, 2112, 7168}}) {
    SCOPED_TRACE(std::to_string(s[0]) + "x" + std::to_string(s[1]) + "x" +
                 std::to_string(s[2]));
    GemmChoice plain = chooseGemmConfigByModel(s[0], s[1], s[2], h200());
    ASSERT_EQ(plain.cost.waves, 1);
    int64_t splits = chooseKSplitsByModel(s[0], s[1], s[2], h200());
    EXPECT_GT(splits, 1);
    EXPECT_LE(splits, kMaxModelKSplits);
    GemmChoice split = chooseGemmConfigByModel(s[0], s[1], s[2], h200(), 0, 1,
                                               false, false, 128, splits);
    EXPECT_EQ(split.config.kSplits, splits);
    EXPECT_STREQ(checkGemmKernelConfig(split.config), "");
    EXPECT_LT(split.cost.us, plain.cost.us);
  }
  for (auto s : {std::array<int64_t, 3>{4096, 7168, 16384},
                 std::array<int64_t, 3>{4096, 4096, 7168},
                 std::array<int64_t, 3>{4096, 24576, 1536}}) {
    SCOPED_TRACE(std::to_string(s[0]) + "x" + std::to_string(s[1]) + "x" +
                 std::to_string(s[2]));
    EXPECT_GT(chooseGemmConfigByModel(s[0], s[1], s[2], h200()).cost.waves, 1);
    EXPECT_EQ(chooseKSplitsByModel(s[0], s[1], s[2], h200()), 1);
  }
}

// The split-K launch's price (docs/gpu-kernel.md, "Split-K"): besides the
// partials, one more fixed latency for the counters' memset. 64 x 2112 x
// 7168 at 64x128, S = 4 (KB = 56: 14 blocks per unit, 68 units in one
// wave): a block is the wgmma 2 x 64 x 128 x 128 FLOP at 1979e12 / 132
// FLOP/s per SM (0.139883 us), the promotion's 64 x 128 FFMAs at 128 per
// clock (64 clocks at 1.8302 GHz, 0.034969 us) and its latency 0.12 us;
// the tile overhead 1.5 us and a quarter of another for the reduction.
// The compute term bounds it (the L2 term is 417280 bytes at 64 B per
// clock, 3.56 us; the HBM term 3.31 us): 6.0029 us, and the two
// fixed latencies of 1 us. Unsplit, one fixed latency.
TEST(GemmCostModelTest, SplitKPaysTheMemsetLatency) {
  GemmKernelConfig c = tiles(64, 2112, 7168, 64, 128);
  c.kSplits = 4;
  ASSERT_STREQ(checkGemmKernelConfig(c), "");
  GemmCost four = modelGemmCost(c, h200());
  const double block = 0.139883 + 0.034969 + 0.12;
  EXPECT_NEAR(four.computeUs, 14 * block + 1.5 + 1.5 / 4, 1e-3);
  EXPECT_LT(four.l2Us, four.computeUs);
  EXPECT_LT(four.hbmUs, four.computeUs);
  EXPECT_NEAR(four.us, 14 * block + 1.5 + 1.5 / 4 + 2 * 1.0, 1e-3);
  c.kSplits = 1;
  GemmCost one = modelGemmCost(c, h200());
  EXPECT_NEAR(one.us, std::max({one.computeUs, one.l2Us, one.hbmUs}) + 1.0,
              1e-9);
}

// chooseKSplitsByModel's definition (GemmCostModel.h): for a shape whose
// unsplit choice runs one wave, the S in 1..min(8, KB) whose best tile is
// strictly faster than every smaller S's. The oracle here walks that
// definition over chooseGemmConfigByModel's times (the tile choice is
// tested above); 64 x 128 x 7168's times fall with every S up to 8 (its
// one-tile problem gains from every split), so its choice is the last S
// considered; 128 x 576 x 7168 stops at 7 (S = 8's units of 7 blocks
// lose the overlapped promotion's trip).
TEST(GemmCostModelTest, SplitKChoiceConsidersEveryS) {
  for (auto s : {std::array<int64_t, 4>{64, 128, 7168, 8},
                 std::array<int64_t, 4>{128, 576, 7168, 7}}) {
    SCOPED_TRACE(std::to_string(s[0]) + "x" + std::to_string(s[1]) + "x" +
                 std::to_string(s[2]));
    const int64_t kBlocks = (s[2] + 127) / 128;
    int64_t want = 1;
    double best = chooseGemmConfigByModel(s[0], s[1], s[2], h200()).cost.us;
    for (int64_t k = 2; k <= std::min<int64_t>(kMaxModelKSplits, kBlocks);
         ++k) {
      double us = chooseGemmConfigByModel(s[0], s[1], s[2], h200(), 0, 1, false,
                                          false, 128, k)
                      .cost.us;
      if (us < best * (1 - 1e-9)) {
        best = us;
        want = k;
      }
    }
    EXPECT_EQ(want, s[3]);
    EXPECT_EQ(chooseKSplitsByModel(s[0], s[1], s[2], h200()), want);
  }
}

} // namespace

// The BF16 kernels' terms (GemmKernelConfig::operands = bf16): two bytes per
// operand element, no scales, no promotion, half the FP8 rate.
static GemmKernelConfig bf16Tiles(int64_t m, int64_t n, int64_t k, int64_t bm,
                                  int64_t bn) {
  GemmKernelOverrides o;
  o.blockM = bm;
  o.blockN = bn;
  return makeGemmKernelConfig(m, n, k, o, /*bScalesPerColumn=*/false,
                              GemmOperandType::bf16);
}

// One 128x128 bf16 tile, K = 128: two K blocks of 64, each 2 x 128 x 128 x
// 64 FLOP at half of 1979e12 / 132 FLOP/s per SM = 0.27977 us (the FP8
// block's time: half the K at half the rate); no promotion FFMAs or
// latency; the tile overhead 1.5 us.
TEST(GemmCostModelTest, BF16ComputeTimeOfOneTile) {
  GemmCost c = modelGemmCost(bf16Tiles(128, 128, 128, 128, 128), h200());
  EXPECT_NEAR(c.computeUs, 2 * 0.27977 + 1.5, 1e-4);
}

// 128x1024x1024 bf16 (operands fit in half of L2): HBM bytes A 128 x 1024
// x 2, B 1024 x 1024 x 2, no scales, D 128 x 1024 f32.
TEST(GemmCostModelTest, BF16HbmBytes) {
  GemmCost c = modelGemmCost(bf16Tiles(128, 1024, 1024, 64, 128), h200());
  EXPECT_DOUBLE_EQ(c.hbmBytes, 262144.0 + 2097152.0 + 524288.0);
  // L2 -> SM bytes of one 64x128 tile: 16 K blocks of (64 + 128) rows x 64
  // elements x 2 bytes, and its 64 x 128 f32 outputs; 2 x 8 tiles.
  EXPECT_DOUBLE_EQ(c.l2Bytes, (16.0 * 192 * 128 + 64 * 128 * 4) * 16);
}

// config=auto's candidates for bf16: tiles the bf16 kernel takes (block-n
// a multiple of 64, block-k 64, lock-step).
TEST(GemmCostModelTest, BF16ChoiceIsABF16Tile) {
  for (auto [m, n, k] : {std::array<int64_t, 3>{1024, 768, 256},
                         std::array<int64_t, 3>{8192, 5632, 2048},
                         std::array<int64_t, 3>{64, 2048, 2048}}) {
    GemmChoice c = chooseGemmConfigByModel(m, n, k, h200(), 0, 1, false, false,
                                           128, 1, GemmOperandType::bf16);
    EXPECT_TRUE(c.config.hasBF16Operands());
    EXPECT_EQ(c.config.blockK, 64);
    EXPECT_EQ(c.config.blockN % 64, 0);
    EXPECT_EQ(c.config.overlap, 0);
    EXPECT_STREQ(checkGemmKernelConfig(c.config), "");
  }
}
