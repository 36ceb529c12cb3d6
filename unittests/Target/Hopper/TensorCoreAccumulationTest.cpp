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

} // namespace
