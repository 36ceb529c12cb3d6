//===- WgmmaFragmentTest.cpp - wgmma fragment map and descriptor bits -----===//
//
// Expected values are read off the PTX ISA by hand, not computed by the code
// under test:
// - Figure "WGMMA .m64nNk32 register fragment layout for accumulator matrix
//   D" (PTX ISA 8.x, Matrix Fragments for wgmma.mma_async .m64nNk32): row 0
//   reads T0:d0,d1 | T1:d0,d1 | T2:d0,d1 | T3:d0,d1 | T0:d4,d5 | ...; row 1
//   starts with T4:d0,d1; row 8 with T0:d2,d3; rows 16..31 belong to warp 1
//   (T32..T63), rows 48..63 to warp 3.
// - "Matrix Descriptor Format": start address >> 4 in bits 0-13, leading
//   byte offset >> 4 in 16-29, stride byte offset >> 4 in 32-45, swizzle in
//   62-63 with 1 = 128-byte swizzle.
//
//===----------------------------------------------------------------------===//
#include "fp8/Target/Hopper/WgmmaFragment.h"

#include <gtest/gtest.h>

#include <set>
#include <utility>

using namespace mlir::fp8::wgmma;

namespace {

struct Entry {
  int64_t thread, reg, row, col;
};

// Hand-derived from the figure (see the file comment).
const Entry kFigureEntries[] = {
    {0, 0, 0, 0},
    {0, 1, 0, 1},
    {1, 0, 0, 2},
    {1, 1, 0, 3},
    {3, 1, 0, 7},
    {0, 4, 0, 8},
    {0, 5, 0, 9},
    {1, 4, 0, 10},
    {4, 0, 1, 0},
    {5, 1, 1, 3},
    {28, 0, 7, 0},
    {31, 1, 7, 7},
    {0, 2, 8, 0},
    {0, 3, 8, 1},
    {4, 2, 9, 0},
    {31, 3, 15, 7},
    {32, 0, 16, 0},
    {33, 4, 16, 10},
    {36, 2, 25, 0},
    {64, 0, 32, 0},
    {96, 0, 48, 0},
    {127, 3, 63, 7},
    {0, 60, 0, 120},
    {0, 62, 8, 120},
    {127, 63, 63, 127},
    // m64n256: registers 124..127 cover columns 248..255.
    {2, 124, 0, 252},
    {2, 127, 8, 253},
};

TEST(WgmmaFragment, FigureEntries) {
  for (const Entry &e : kFigureEntries) {
    FragmentCoord c = accumulatorCoord(e.thread, e.reg);
    EXPECT_EQ(c.row, e.row) << "thread " << e.thread << " d" << e.reg;
    EXPECT_EQ(c.col, e.col) << "thread " << e.thread << " d" << e.reg;
  }
}

// Every legal FP8 N: the 128 threads x N/2 registers cover the 64 x N tile
// exactly once (a bijection), as the figure's tiling implies.
TEST(WgmmaFragment, BijectionForEveryFp8N) {
  for (int64_t n = 8; n <= 256; n += 8) {
    ASSERT_TRUE(isValidFp8N(n));
    std::set<std::pair<int64_t, int64_t>> seen;
    for (int64_t t = 0; t < kWarpgroupThreads; ++t)
      for (int64_t r = 0; r < accumulatorRegisters(n); ++r) {
        FragmentCoord c = accumulatorCoord(t, r);
        ASSERT_GE(c.row, 0);
        ASSERT_LT(c.row, kTileM);
        ASSERT_GE(c.col, 0);
        ASSERT_LT(c.col, n) << "N=" << n << " t=" << t << " r=" << r;
        ASSERT_TRUE(seen.insert({c.row, c.col}).second)
            << "duplicate (" << c.row << ", " << c.col << ") for N=" << n;
      }
    EXPECT_EQ(static_cast<int64_t>(seen.size()), kTileM * n);
  }
  EXPECT_FALSE(isValidFp8N(0));
  EXPECT_FALSE(isValidFp8N(12));
  EXPECT_FALSE(isValidFp8N(264));
}

// The promotion epilogue fetches two A scales per thread: rows rowBase and
// rowBase + 8. Every register's row must be one of them.
TEST(WgmmaFragment, TwoRowsPerThread) {
  for (int64_t t = 0; t < kWarpgroupThreads; ++t) {
    int64_t base = accumulatorRowBase(t);
    EXPECT_EQ(base, 16 * (t / 32) + (t % 32) / 4);
    for (int64_t r = 0; r < accumulatorRegisters(256); ++r) {
      EXPECT_EQ(accumulatorRow(t, r), base + 8 * accumulatorRowSlot(r));
      // The split form the kernel generator emits agrees with the map.
      EXPECT_EQ(accumulatorRow(t, r), base + accumulatorRowOffset(r));
      EXPECT_EQ(accumulatorCol(t, r),
                accumulatorColBase(t) + accumulatorColOffset(r));
    }
  }
}

TEST(WgmmaDescriptor, Bits) {
  // 128B swizzle, SBO 1024 bytes (64 in 16-byte units), LBO 0.
  EXPECT_EQ(kKMajorSw128ConstBits, (uint64_t{1} << 62) | (uint64_t{64} << 32));
  EXPECT_EQ(descriptorConstBits(16, 0, Swizzle::None), uint64_t{1} << 16);
  EXPECT_EQ(descriptorConstBits(0, 0, Swizzle::B32), uint64_t{3} << 62);
  // Shared address 0x9400 -> 0x940; bits above 18 are dropped.
  EXPECT_EQ(descriptorAddressBits(0x9400), uint64_t{0x940});
  EXPECT_EQ(descriptorAddressBits(0x49400), uint64_t{0x940});
  // Four k32 slices of a 128-byte row: +0, +2, +4, +6 (32-byte steps).
  EXPECT_EQ(kmajorSw128KStep(0), 0u);
  EXPECT_EQ(kmajorSw128KStep(1), 2u);
  EXPECT_EQ(kmajorSw128KStep(3), 6u);
}

} // namespace
