//===- TensorCoreAccumulationTest.cpp - FP8 MMA accumulation on host ------===//
//
// tensorcore::accumulateGroup / accumulateChain against two independent
// oracles:
// - 2000 dot products measured on an H100 (test/Integration/CPU/Inputs/
//   hopper-accumulation, Khattak & Mikaitis, arXiv:2512.07004): sm90 must
//   reproduce every result bit; the other models must not (the data tell the
//   models apart, so this test can fail);
// - hand-derived values, worked out in the comments from the model's rules.
//
//===----------------------------------------------------------------------===//
#include "fp8/Target/Hopper/TensorCoreAccumulation.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace mlir::fp8::tensorcore;

namespace {

uint32_t bitsOf(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof(u));
  return u;
}

struct Vector {
  uint8_t a[32], b[32];
  uint32_t d;
};

/// Lines `a0 .. a31 | b0 .. b31 | d` (hex), see the data's README.md.
std::vector<Vector> readData(const std::string &name) {
  std::ifstream in(std::string(FP8_HOPPER_ACCUMULATION_DATA) + "/" + name);
  std::vector<Vector> out;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ss(line);
    Vector v;
    std::string bar1, bar2;
    unsigned x;
    for (uint8_t &c : v.a) {
      ss >> std::hex >> x;
      c = uint8_t(x);
    }
    ss >> bar1;
    for (uint8_t &c : v.b) {
      ss >> std::hex >> x;
      c = uint8_t(x);
    }
    ss >> bar2 >> std::hex >> v.d;
    if (!ss || bar1 != "|" || bar2 != "|")
      ADD_FAILURE() << name << ": malformed line: " << line;
    out.push_back(v);
  }
  return out;
}

int64_t countMismatches(const AccumulationModel &model,
                        const std::vector<Vector> &data, Fp8Format f) {
  int64_t bad = 0;
  for (const Vector &v : data)
    if (bitsOf(accumulateChain(model, 0.0f, v.a, f, v.b, f, 32)) != v.d)
      ++bad;
  return bad;
}

struct DataFile {
  const char *name;
  Fp8Format format;
};
const DataFile kFiles[] = {{"h100_e4m3_k32.txt", Fp8Format::E4M3FN},
                           {"h100_e5m2_k32.txt", Fp8Format::E5M2}};

TEST(TensorCoreAccumulation, Sm90ReproducesEveryH100Vector) {
  for (const DataFile &file : kFiles) {
    std::vector<Vector> data = readData(file.name);
    ASSERT_EQ(data.size(), 1000u) << file.name;
    EXPECT_EQ(countMismatches(sm90Model(), data, file.format), 0) << file.name;
  }
}

// The variants the published analysis rejects get vectors wrong here too.
TEST(TensorCoreAccumulation, OtherModelsDoNot) {
  const AccumulationModel variants[] = {
      bitsModel(14),                           // normalised product exponent
      {32, 14, 14, Alignment::InputExponents}, // 14 fraction bits
      {32, 13, 15, Alignment::InputExponents}, // 15-bit result
      sm89Model(),                             // 16-product groups
  };
  for (const DataFile &file : kFiles) {
    std::vector<Vector> data = readData(file.name);
    for (const AccumulationModel &m : variants)
      EXPECT_GT(countMismatches(m, data, file.format), 10)
          << file.name << ": groupSize " << m.groupSize << ", fractionBits "
          << m.fractionBits << ", resultBits " << m.resultBits;
  }
}

// The first vector of h100_e4m3_k32.txt, quoted in the data's README: exact
// sum 3.7888450622558594, hardware 3.788818359375 (0x40727c00).
TEST(TensorCoreAccumulation, ReadmeExample) {
  std::vector<Vector> data = readData("h100_e4m3_k32.txt");
  ASSERT_FALSE(data.empty());
  const Vector &v = data.front();
  double exact = 0;
  for (int i = 0; i < 32; ++i)
    exact += decodeFp8(v.a[i], Fp8Format::E4M3FN) *
             decodeFp8(v.b[i], Fp8Format::E4M3FN);
  EXPECT_DOUBLE_EQ(exact, 3.7888450622558594);
  EXPECT_EQ(accumulateGroup(sm90Model(), 0.0f, v.a, Fp8Format::E4M3FN, v.b,
                            Fp8Format::E4M3FN, 32),
            3.788818359375f);
}

// E4M3FN codes: value 2^(e-7) * (1 + m/8), field e = code bits 6..3.
constexpr uint8_t k1p5 = 0x3C, k1 = 0x38, kMinus1 = 0xB8, k2m6 = 0x08,
                  k2m7 = 0x04 /* subnormal 4 * 2^-9 */, k448 = 0x7E, k8 = 0x50,
                  k16 = 0x58;

TEST(TensorCoreAccumulation, DecodeAndExponents) {
  EXPECT_EQ(decodeFp8(k1p5, Fp8Format::E4M3FN), 1.5);
  EXPECT_EQ(decodeFp8(k448, Fp8Format::E4M3FN), 448.0);
  EXPECT_EQ(decodeFp8(0x01, Fp8Format::E4M3FN), std::ldexp(1.0, -9));
  EXPECT_EQ(decodeFp8(0x80, Fp8Format::E4M3FN), 0.0);
  EXPECT_TRUE(std::signbit(decodeFp8(0x80, Fp8Format::E4M3FN)));
  EXPECT_TRUE(std::isnan(decodeFp8(0x7F, Fp8Format::E4M3FN)));
  EXPECT_EQ(decodeFp8(0x7B, Fp8Format::E5M2), 57344.0);
  EXPECT_EQ(decodeFp8(0x01, Fp8Format::E5M2), std::ldexp(1.0, -16));
  EXPECT_EQ(decodeFp8(0xFC, Fp8Format::E5M2), -INFINITY);
  EXPECT_TRUE(std::isnan(decodeFp8(0x7D, Fp8Format::E5M2)));
  // Subnormals take the minimum normal exponent; 448 = 1.75 * 2^8.
  EXPECT_EQ(clampedExponent(k2m7, Fp8Format::E4M3FN), -6);
  EXPECT_EQ(clampedExponent(0x00, Fp8Format::E4M3FN), -6);
  EXPECT_EQ(clampedExponent(0x01, Fp8Format::E5M2), -14);
  EXPECT_EQ(clampedExponent(k448, Fp8Format::E4M3FN), 8);
}

float group(const AccumulationModel &m, float acc, std::vector<uint8_t> a,
            std::vector<uint8_t> b, size_t n = 32) {
  a.resize(n, 0);
  b.resize(n, 0);
  return accumulateChain(m, acc, a.data(), Fp8Format::E4M3FN, b.data(),
                         Fp8Format::E4M3FN, n);
}

// 1.5 * 1.5 = 2.25 (ea + eb = 0, normalised exponent 1), -1 * 1 twice,
// 2^-6 * 2^-7 = 2^-13 (ea + eb = -12), 2^-7 * 2^-7 = 2^-14 (-12).
// sm90: E = 0, grid 2^-13: 0.25 + 2^-13 (2^-14 dropped). Normalised
// alignment (bitsModel(14)): E = 1, grid 2^-12: 0.25.
TEST(TensorCoreAccumulation, AlignmentByInputExponents) {
  std::vector<uint8_t> a = {k1p5, kMinus1, kMinus1, k2m6, k2m7};
  std::vector<uint8_t> b = {k1p5, k1, k1, k2m7, k2m7};
  EXPECT_EQ(group(sm90Model(), 0.0f, a, b), 0.25f + 0x1p-13f);
  EXPECT_EQ(group(bitsModel(14), 0.0f, a, b), 0.25f);
}

// The accumulator 128 (exponent 7) sets E = 7, grid 2^-6: 32 products
// 1 * 2^-7 all truncate to 0.
TEST(TensorCoreAccumulation, AccumulatorTakesPartInAlignment) {
  std::vector<uint8_t> a(32, k1), b(32, k2m7);
  EXPECT_EQ(group(sm90Model(), 128.0f, a, b), 128.0f);
  EXPECT_EQ(group(sm90Model(), 0.0f, a, b), 0.25f);
  // Chained: 8 * 16 = 128 in the first k32 group, then the 2^-7s.
  std::vector<uint8_t> a64(64, 0), b64(64, 0);
  a64[0] = k8;
  b64[0] = k16;
  for (int i = 32; i < 64; ++i) {
    a64[i] = k1;
    b64[i] = k2m7;
  }
  EXPECT_EQ(group(sm90Model(), 0.0f, a64, b64, 64), 128.0f);
  // sm89: four groups of 16, the same.
  EXPECT_EQ(group(sm89Model(), 0.0f, a64, b64, 64), 128.0f);
  // The accumulator is truncated toward zero on the grid too: 1 + 2^-20
  // with products of exponent 0: grid 2^-13.
  EXPECT_EQ(group(sm90Model(), 1.0f + 0x1p-20f, {k1}, {k1}), 2.0f);
  EXPECT_EQ(group(sm90Model(), -(1.0f + 0x1p-20f), {k1}, {k1}), 0.0f);
}

// 0 * 448 would align at -6 + 8 = 2 (grid 2^-11) if it took part; it does
// not: E = 0, and 1 + 2^-13 keeps its 14 significant bits.
TEST(TensorCoreAccumulation, ZeroProductsTakeNoPart) {
  EXPECT_EQ(group(sm90Model(), 0.0f, {0x00, k1, k2m6}, {k448, k1, k2m7}),
            1.0f + 0x1p-13f);
  // No term at all: +0; only the accumulator: it, cut to 14 bits.
  EXPECT_EQ(bitsOf(group(sm90Model(), 0.0f, {}, {})), 0u);
  EXPECT_EQ(group(sm90Model(), 1.0f + 0x1p-13f + 0x1p-14f, {}, {}),
            1.0f + 0x1p-13f);
  // An f32 subnormal accumulator: exponent -126, grid 2^-139.
  EXPECT_EQ(group(sm90Model(), 0x1.0004p-127f, {}, {}), 0x1p-127f);
}

// A subnormal input aligns at the minimum normal exponent: 2^-7 * 16 =
// 2^-3 aligns at -6 + 4 = -2 (grid 2^-15), so 2^-9 * 2^-7 = 2^-16 is
// dropped; aligned at -3 it would be kept.
TEST(TensorCoreAccumulation, SubnormalInputsAlignAtMinNormal) {
  constexpr uint8_t k2m9 = 0x01;
  EXPECT_EQ(group(sm90Model(), 0.0f, {k2m7, k2m9}, {k16, k2m7}), 0.125f);
  EXPECT_EQ(group(bitsModel(14), 0.0f, {k2m7, k2m9}, {k16, k2m7}),
            0.125f + 0x1p-16f);
}

// Truncation toward zero, sign-magnitude, in both places.
TEST(TensorCoreAccumulation, TruncationTowardZero) {
  constexpr uint8_t kMinus2m7 = 0x84, kMinus2m6 = 0x88, kMinus1p5 = 0xBC;
  // Terms: -1 * 1 = -1 and -2^-7 * 2^-7 = -2^-14, below the grid 2^-13:
  // toward zero it is 0, so -1 (floor would give -1 - 2^-13).
  EXPECT_EQ(group(sm90Model(), 0.0f, {kMinus1, kMinus2m7}, {k1, k2m7}), -1.0f);
  // -1.5 * 1.5 = -2.25 (E = 0) and three -2^-6 * 2^-7 = -2^-13 on the
  // grid 2^-13. The sum -(2.25 + 3 * 2^-13) = -(2.25 + 2^-12 + 2^-13) has 15
  // significant bits (2^1 .. 2^-13): truncated toward zero to 14, -(2.25 +
  // 2^-12); round-to-nearest-even and floor would give -(2.25 + 2^-11).
  EXPECT_EQ(group(sm90Model(), 0.0f,
                  {kMinus1p5, kMinus2m6, kMinus2m6, kMinus2m6},
                  {k1p5, k2m7, k2m7, k2m7}),
            -(2.25f + 0x1p-12f));
}

// A K tail: 40 products = one group of 32 and one of 8.
TEST(TensorCoreAccumulation, ShortLastGroup) {
  std::vector<uint8_t> a(40, k1), b(40, k1);
  EXPECT_EQ(group(sm90Model(), 0.0f, a, b, 40), 40.0f);
}

TEST(TensorCoreAccumulation, SpecialValues) {
  // NaN code: NaN; Inf * 0: NaN; Inf (E5M2): Inf.
  EXPECT_TRUE(std::isnan(group(sm90Model(), 0.0f, {0x7F, k1}, {k1, k1})));
  uint8_t inf = 0x7C, one = 0x3C /* E5M2 1.0 */, zero = 0;
  EXPECT_TRUE(std::isnan(accumulateGroup(
      sm90Model(), 0.0f, &inf, Fp8Format::E5M2, &zero, Fp8Format::E5M2, 1)));
  EXPECT_EQ(accumulateGroup(sm90Model(), 0.0f, &inf, Fp8Format::E5M2, &one,
                            Fp8Format::E5M2, 1),
            INFINITY);
  EXPECT_TRUE(std::isnan(group(sm90Model(), std::nanf(""), {k1}, {k1})));
}

//===----------------------------------------------------------------------===//
// 16-bit inputs (wgmma k16)
//===----------------------------------------------------------------------===//

struct Vector16 {
  uint16_t a[16], b[16];
  uint32_t c, d;
};

/// Lines `a0 .. a15 | b0 .. b15 | c | d` (hex), see the data's README.md.
std::vector<Vector16> readData16(const std::string &name) {
  std::ifstream in(std::string(FP8_HOPPER_ACCUMULATION_DATA) + "/" + name);
  std::vector<Vector16> out;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ss(line);
    Vector16 v;
    std::string bar1, bar2, bar3;
    unsigned x;
    for (uint16_t &c : v.a) {
      ss >> std::hex >> x;
      c = uint16_t(x);
    }
    ss >> bar1;
    for (uint16_t &c : v.b) {
      ss >> std::hex >> x;
      c = uint16_t(x);
    }
    ss >> bar2 >> std::hex >> v.c >> bar3 >> std::hex >> v.d;
    if (!ss || bar1 != "|" || bar2 != "|" || bar3 != "|")
      ADD_FAILURE() << name << ": malformed line: " << line;
    out.push_back(v);
  }
  return out;
}

float fromBits(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof(f));
  return f;
}

struct DataFile16 {
  const char *name;
  Wide16Format format;
};
const DataFile16 kFiles16[] = {{"h100_bf16_k16.txt", Wide16Format::BF16},
                               {"h100_f16_k16.txt", Wide16Format::F16},
                               {"h200_bf16_k16.txt", Wide16Format::BF16}};

TEST(TensorCoreAccumulation16, ReproducesEveryMeasuredVector) {
  for (const DataFile16 &file : kFiles16) {
    std::vector<Vector16> data = readData16(file.name);
    ASSERT_EQ(data.size(), 1000u) << file.name;
    int64_t bad = 0;
    for (const Vector16 &v : data)
      if (bitsOf(accumulateChain16(fromBits(v.c), v.a, v.b, 16, file.format)) !=
          v.d)
        ++bad;
    EXPECT_EQ(bad, 0) << file.name;
  }
}

// The data tell the model from the k-order f32 sum (the emulator's default).
TEST(TensorCoreAccumulation16, KOrderF32SumDoesNot) {
  for (const DataFile16 &file : kFiles16) {
    int64_t bad = 0;
    for (const Vector16 &v : readData16(file.name)) {
      float s = fromBits(v.c);
      for (int i = 0; i < 16; ++i)
        s += float(decode16(v.a[i], file.format) *
                   decode16(v.b[i], file.format));
      bad += bitsOf(s) != v.d;
    }
    EXPECT_GT(bad, 100) << file.name;
  }
}

// bf16 codes: 2^e is (e + 127) << 7; 1.5 * 2^e adds 0x40.
constexpr uint16_t kB1 = 0x3F80, kB1p5 = 0x3FC0, kB2m25 = 0x3300,
                   kB2m26 = 0x3280, kB3x2m24 = 0x3440;

float group16(float c, std::vector<uint16_t> a, std::vector<uint16_t> b,
              Wide16Format f = Wide16Format::BF16) {
  return accumulateChain16(c, a.data(), b.data(), a.size(), f);
}

TEST(TensorCoreAccumulation16, Decode) {
  EXPECT_EQ(decode16(kB1p5, Wide16Format::BF16), 1.5);
  EXPECT_EQ(decode16(0x0001, Wide16Format::BF16), std::ldexp(1.0, -133));
  EXPECT_EQ(decode16(0x3C00, Wide16Format::F16), 1.0);
  EXPECT_EQ(decode16(0x0001, Wide16Format::F16), std::ldexp(1.0, -24));
  EXPECT_EQ(decode16(0xFBFF, Wide16Format::F16), -65504.0);
  EXPECT_EQ(clampedExponent(std::ldexp(1.0, -24), Wide16Format::F16), -14);
}

// c = 1, four products 2^-25: E = 0, the grid 2^-25 holds each; the exact
// sum 1 + 2^-23 is an f32. The k-order f32 sum loses every product (1 +
// 2^-25 rounds to 1).
TEST(TensorCoreAccumulation16, TwoExtraAlignmentBits) {
  EXPECT_EQ(
      group16(1.0f, {kB1, kB1, kB1, kB1}, {kB2m25, kB2m25, kB2m25, kB2m25}),
      1.0f + 0x1p-23f);
  // Toward zero, sign-magnitude: -2^-26 is truncated to 0, not to -2^-25.
  EXPECT_EQ(group16(1.0f, {kB1}, {uint16_t(kB2m26 | 0x8000)}), 1.0f);
}

// 1.5 * 1.5 = 2.25 aligns at ea + eb = 0 (significand 2.25 >= 2), not at
// its normalised exponent 1: the grid is 2^-25 and eight products 2^-25 add
// 2^-22, the last bit of an f32 at 2.25 (on the grid 2^-24 of the
// normalised exponent they would vanish).
TEST(TensorCoreAccumulation16, UnnormalisedProductAlignment) {
  std::vector<uint16_t> a(9, kB1), b(9, kB2m25);
  a[0] = b[0] = kB1p5;
  EXPECT_EQ(group16(0.0f, a, b), 2.25f + 0x1p-22f);
}

// c takes part in E: c = 1 puts the grid at 2^-25, so eight products 2^-26
// vanish (1.0); were c added after the products' own sum (E = -26), the sum
// 1 + 2^-23 would be exact. Without c the eight products are exact.
TEST(TensorCoreAccumulation16, AccumulatorTakesPartInAlignment) {
  EXPECT_EQ(group16(1.0f, std::vector<uint16_t>(8, kB1),
                    std::vector<uint16_t>(8, kB2m26)),
            1.0f);
  EXPECT_EQ(group16(0.0f, std::vector<uint16_t>(8, kB1),
                    std::vector<uint16_t>(8, kB2m26)),
            0x1p-23f);
}

// The final rounding truncates: 1 + 3 * 2^-24 = 1 + 2^-23 + 2^-24 (exact on
// the grid) is 1 + 2^-23, not RNE's 1 + 2^-22.
TEST(TensorCoreAccumulation16, FinalTruncation) {
  EXPECT_EQ(group16(1.0f, {kB1}, {kB3x2m24}), 1.0f + 0x1p-23f);
  EXPECT_EQ(group16(-1.0f, {uint16_t(kB1 | 0x8000)}, {kB3x2m24}),
            -1.0f - 0x1p-23f);
  // Subnormal results truncate to 2^-149: 1.5 * 2^-74 * 2^-75 = 1.5 *
  // 2^-149 gives 2^-149 (RNE: 2^-148); 1.5 * 2^-150 gives 0 (RNE: 2^-149).
  EXPECT_EQ(bitsOf(group16(0.0f, {0x1AC0}, {0x1A00})), 1u);
  EXPECT_EQ(bitsOf(group16(0.0f, {0x1A40}, {0x1A00})), 0u);
}

// E is at least -133: 2^-70 * 2^-70 = 2^-140 and -2^-80 * 2^-80 = -2^-160
// align at -133, the grid is 2^-158 and -2^-160 vanishes: 2^-140 exactly
// (with E = -140 it would give 2^-140 - 2^-149).
TEST(TensorCoreAccumulation16, MinimumAlignmentExponent) {
  EXPECT_EQ(group16(0.0f, {0x1C80, 0x9780}, {0x1C80, 0x1780}), 0x1p-140f);
}

// Products beyond the f32 range: 2^100 * 2^100 - 2^100 * 2^100 + c = 1
// aligns at 200, c vanishes: +0 (the f32 sum would be NaN). 2^100 * 2^28 =
// 2^128 is Inf; 2^100 * 1.9921875 * 2^27 is the f32 value 0x1.fep127.
TEST(TensorCoreAccumulation16, WideProducts) {
  EXPECT_EQ(bitsOf(group16(1.0f, {0x7180, 0xF180}, {0x7180, 0x7180})), 0u);
  EXPECT_EQ(group16(0.0f, {0x7180}, {0x4D80}), INFINITY);
  EXPECT_EQ(group16(0.0f, {0xF180}, {0x4D80}), -INFINITY);
  EXPECT_EQ(group16(0.0f, {0x7180}, {0x4D7F}), 0x1.fep127f);
}

// A K tail: 40 products are groups of 16, 16 and 8. c = 2^24 with ones:
// in each group the 16 (or 8) ones are exact on the grid 2^-1 and their sum
// is exact too: 2^24 + 40.
TEST(TensorCoreAccumulation16, ShortLastGroup) {
  EXPECT_EQ(group16(0x1p24f, std::vector<uint16_t>(40, kB1),
                    std::vector<uint16_t>(40, kB1)),
            0x1p24f + 40.0f);
  // f16: 1 * 1 + 2^-24 * 2 (a subnormal, aligned at -14 + 1) = 1 + 2^-23.
  EXPECT_EQ(
      group16(0.0f, {0x3C00, 0x0001}, {0x3C00, 0x4000}, Wide16Format::F16),
      1.0f + 0x1p-23f);
}

// The sign of a zero sum (step 4: a zero sum is +0), which decides what the
// BF16 kernel's K tail does to a -0.0 accumulator: its last k16 step pads
// the tail group with TMA's zero fill, +0.0 * +0.0 = +0.0 products
// (docs/gpu-kernel.md, "The BF16 variant", Tails). A -0.0 c takes no part
// and -0.0 products take none either: the grid sum is the integer 0, +0.0,
// whether the group is the short tail (8 products) or the kernel's padded
// 16 (8 more +0.0 products); the k-order f32 sum would keep -0.0 for the
// short group and give +0.0 only for the padded one.
TEST(TensorCoreAccumulation16, ZeroSumIsPositive) {
  const uint16_t negZero = 0x8000;
  std::vector<uint16_t> a(8, kB1), b(8, negZero);
  EXPECT_EQ(bitsOf(group16(-0.0f, a, b)), 0u);
  std::vector<uint16_t> aPadded(a), bPadded(b);
  aPadded.resize(16, 0);
  bPadded.resize(16, 0);
  EXPECT_EQ(bitsOf(group16(-0.0f, aPadded, bPadded)), 0u);
  // An all-zero group: c = -0.0 alone, and the chain of 40 -0.0 products
  // (groups 16, 16, 8) from -0.0.
  EXPECT_EQ(bitsOf(group16(-0.0f, {0}, {0})), 0u);
  EXPECT_EQ(bitsOf(group16(-0.0f, std::vector<uint16_t>(40, negZero),
                           std::vector<uint16_t>(40, kB1))),
            0u);
  // A cancelling group: -1 + 1 * 1 = +0.0 (as RNE's x - x).
  EXPECT_EQ(bitsOf(group16(-1.0f, {kB1}, {kB1})), 0u);
  // Zero products leave a nonzero c, negative or subnormal, unchanged: c
  // alone sets E and lies on its grid. -2^-149 aligns at -126 (grid
  // 2^-151): -4 grid units, exact.
  EXPECT_EQ(group16(-1.0f, aPadded, bPadded), -1.0f);
  EXPECT_EQ(bitsOf(group16(-0x1p-149f, {0, 0}, {kB1, negZero})), 0x80000001u);
}

TEST(TensorCoreAccumulation16, SpecialValues) {
  const uint16_t inf = 0x7F80, nan = 0x7FC1;
  EXPECT_EQ(bitsOf(group16(0.0f, {inf, kB1}, {0, kB1})), 0x7FFFFFFFu);
  EXPECT_EQ(bitsOf(group16(0.0f, {nan}, {kB1})), 0x7FFFFFFFu);
  EXPECT_EQ(bitsOf(group16(INFINITY, {uint16_t(inf | 0x8000)}, {kB1})),
            0x7FFFFFFFu);
  EXPECT_EQ(group16(1.0f, {inf}, {kB1p5}), INFINITY);
  EXPECT_EQ(group16(-INFINITY, {kB1}, {kB1}), -INFINITY);
  EXPECT_EQ(bitsOf(group16(-0.0f, {0}, {kB1})), 0u);
}

} // namespace
