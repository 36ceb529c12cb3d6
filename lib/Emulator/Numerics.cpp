//===- Numerics.cpp - single-instruction numerics of the emulator --------===//
//
// Numerics.h. Compiled with -ffp-contract=off (lib/Emulator/CMakeLists.txt):
// every f32 operation rounds on its own, as the modelled instructions do.
//
//===----------------------------------------------------------------------===//
#include "Numerics.h"
#include "fp8/Target/Hopper/TensorCoreAccumulation.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace mlir::fp8::emu {

/// OCP FP8: E4M3FN bias 7, no infinities, S.1111.111 NaN; E5M2 bias 15,
/// IEEE-like.
Fp8Tables::Fp8Tables() {
  for (int c = 0; c < 256; ++c) {
    float sign = (c & 0x80) ? -1.0f : 1.0f;
    int e = (c >> 3) & 0xF, m = c & 7;
    if (e == 15 && m == 7)
      e4m3[c] = std::nanf("");
    else if (e == 0)
      e4m3[c] = sign * std::ldexp(static_cast<float>(m), -9);
    else
      e4m3[c] = sign * std::ldexp(1.0f + m / 8.0f, e - 7);
    e = (c >> 2) & 0x1F;
    m = c & 3;
    if (e == 31)
      e5m2[c] = m ? std::nanf("") : sign * INFINITY;
    else if (e == 0)
      e5m2[c] = sign * std::ldexp(static_cast<float>(m), -16);
    else
      e5m2[c] = sign * std::ldexp(1.0f + m / 4.0f, e - 15);
  }
}
const Fp8Tables &fp8Tables() {
  static Fp8Tables t;
  return t;
}

/// cvt.rn[.satfinite].{e4m3,e5m2}.f32 of one value (PTX ISA "cvt"): round
/// to nearest even on the format's grid (subnormals included); NaN -> 0x7F;
/// overflow -> +-max with satfinite, else NaN (E4M3) / +-Inf (E5M2).
uint8_t cvtToFp8(float x, bool e5m2, bool satfinite) {
  if (std::isnan(x))
    return 0x7F;
  const int M = e5m2 ? 2 : 3, bias = e5m2 ? 15 : 7;
  const double maxFinite = e5m2 ? 57344.0 : 448.0;
  uint8_t sign = std::signbit(x) ? 0x80 : 0;
  double a = std::fabs(static_cast<double>(x));
  uint8_t overflow = satfinite ? (e5m2 ? 0x7B : 0x7E) : (e5m2 ? 0x7C : 0x7F);
  if (std::isinf(a))
    return sign | overflow;
  const int emin = 1 - bias;
  int e;
  std::frexp(a, &e); // a = f * 2^e, f in [0.5, 1)
  int exp = e - 1;   // a in [2^exp, 2^(exp+1))
  if (a == 0)
    exp = emin;
  int q = std::max(exp, emin) - M; // quantum 2^q
  double r = std::ldexp(std::nearbyint(std::ldexp(a, -q)), q);
  if (r > maxFinite)
    return sign | overflow;
  if (r == 0)
    return sign;
  std::frexp(r, &e);
  exp = e - 1;
  if (exp < emin) // subnormal
    return sign | static_cast<uint8_t>(std::ldexp(r, M - emin));
  uint8_t mant =
      static_cast<uint8_t>(std::ldexp(r, -exp) * (1 << M) - (1 << M));
  return sign | static_cast<uint8_t>((exp + bias) << M) | mant;
}

/// f32 -> bf16 (cvt.rn.bf16.f32 / arith.truncf): round to nearest even;
/// any NaN gives the canonical 0x7FFF (cuda_bf16.hpp's host conversion).
uint16_t truncToBF16(uint32_t b) {
  if (isNaNBits(b))
    return kCanonicalNaN16;
  uint32_t rounding = 0x7FFF + ((b >> 16) & 1);
  return static_cast<uint16_t>((b + rounding) >> 16);
}

float maximumF(float a, float b) {
  if (std::isnan(a) || std::isnan(b))
    return canonicalNaNF32();
  if (a == 0 && b == 0)
    return std::signbit(a) ? b : a;
  return a > b ? a : b;
}
float minimumF(float a, float b) {
  if (std::isnan(a) || std::isnan(b))
    return canonicalNaNF32();
  if (a == 0 && b == 0)
    return std::signbit(a) ? a : b;
  return a < b ? a : b;
}

bool cmpF(uint8_t pred, float a, float b) {
  bool uno = std::isnan(a) || std::isnan(b);
  switch (pred) {
  case 0:
    return false;
  case 1:
    return !uno && a == b;
  case 2:
    return !uno && a > b;
  case 3:
    return !uno && a >= b;
  case 4:
    return !uno && a < b;
  case 5:
    return !uno && a <= b;
  case 6:
    return !uno && a != b;
  case 7:
    return !uno;
  case 8:
    return uno || a == b;
  case 9:
    return uno || a > b;
  case 10:
    return uno || a >= b;
  case 11:
    return uno || a < b;
  case 12:
    return uno || a <= b;
  case 13:
    return uno || a != b;
  case 14:
    return uno;
  default:
    return true;
  }
}

bool cmpI(uint8_t pred, uint64_t a, uint64_t b, unsigned bits) {
  int64_t sa = sext(a, bits), sb = sext(b, bits);
  a = maskBits(a, bits);
  b = maskBits(b, bits);
  switch (pred) {
  case 0:
    return a == b;
  case 1:
    return a != b;
  case 2:
    return sa < sb;
  case 3:
    return sa <= sb;
  case 4:
    return sa > sb;
  case 5:
    return sa >= sb;
  case 6:
    return a < b;
  case 7:
    return a <= b;
  case 8:
    return a > b;
  default:
    return a >= b;
  }
}

float sm90Accumulate(float c, const uint8_t *a, bool aE5m2, const uint8_t *b,
                     bool bE5m2, int k) {
  using namespace mlir::fp8::tensorcore;
  return accumulateGroup(sm90Model(), c, a,
                         aE5m2 ? Fp8Format::E5M2 : Fp8Format::E4M3FN, b,
                         bE5m2 ? Fp8Format::E5M2 : Fp8Format::E4M3FN, k);
}
float sm89Accumulate(float c, const uint8_t *a, bool aE5m2, const uint8_t *b,
                     bool bE5m2, int k) {
  // Ada's mma.sync sums 16-product groups: a k32 step is two of them.
  using namespace mlir::fp8::tensorcore;
  Fp8Format fa = aE5m2 ? Fp8Format::E5M2 : Fp8Format::E4M3FN,
            fb = bE5m2 ? Fp8Format::E5M2 : Fp8Format::E4M3FN;
  for (int i = 0; i < k; i += 16)
    c = accumulateGroup(sm89Model(), c, a + i, fa, b + i, fb,
                        std::min(16, k - i));
  return c;
}

float sm90Accumulate16(float c, const uint16_t *a, const uint16_t *b, int k,
                       bool bf16) {
  using namespace mlir::fp8::tensorcore;
  return accumulateChain16(c, a, b, k,
                           bf16 ? Wide16Format::BF16 : Wide16Format::F16);
}

float defaultAccumulate(float c, const float *a, const float *b, int k) {
  float s = c;
  for (int i = 0; i < k; ++i)
    s += a[i] * b[i]; // the product of two FP8 values is exact in f32
  return s;
}

const char *swizzleName(uint32_t spanCode) {
  static const char *names[] = {"none", "32B", "64B", "128B"};
  return names[spanCode & 3];
}

} // namespace mlir::fp8::emu

float mlir::fp8::emu::f16ToF32(uint16_t h) {
  uint32_t sign = (h >> 15) & 1, exp = (h >> 10) & 0x1F, man = h & 0x3FF;
  float mag;
  if (exp == 0)
    mag = std::ldexp(static_cast<float>(man), -24); // subnormal or zero
  else if (exp == 31 && man)
    return canonicalNaNF32(); // sign dropped, as cuda_fp16.hpp
  else if (exp == 31)
    mag = std::numeric_limits<float>::infinity();
  else
    mag = std::ldexp(static_cast<float>(man | 0x400), int(exp) - 25);
  return sign ? -mag : mag;
}

uint16_t mlir::fp8::emu::f32ToF16(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  uint16_t sign = static_cast<uint16_t>((b >> 16) & 0x8000);
  float a = std::fabs(f);
  if (std::isnan(f))
    return kCanonicalNaN16; // sign dropped, as cuda_fp16.hpp
  // 65520 = the largest half (65504) plus half an ulp: rounds to infinity.
  if (a >= 65520.0f)
    return sign | 0x7C00;
  if (a < std::ldexp(1.0f, -14)) {
    // Subnormal: a multiple of 2^-24, rounded to nearest even.
    float q = a * std::ldexp(1.0f, 24); // exact (a power-of-two scaling)
    float r = std::nearbyint(q);        // default mode: nearest even
    return sign | static_cast<uint16_t>(r);
  }
  int e;
  std::frexp(a, &e); // a = m * 2^e, m in [0.5, 1)
  // 11 significant bits: scale to [1024, 2048), round to nearest even.
  float q = std::nearbyint(std::ldexp(a, 11 - e));
  if (q >= 2048.0f) {
    q /= 2;
    ++e;
  }
  uint32_t exp = static_cast<uint32_t>(e - 1 + 15);
  if (exp >= 31)
    return sign | 0x7C00;
  return sign | static_cast<uint16_t>((exp << 10) |
                                      (static_cast<uint32_t>(q) & 0x3FF));
}
