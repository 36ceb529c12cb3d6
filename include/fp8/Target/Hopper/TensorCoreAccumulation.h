//===- TensorCoreAccumulation.h - MMA accumulation, host --------*- C++ -*-===//
//
// The arithmetic of the tensor core's dot-product accumulation on host
// values, without MLIR; for 16-bit inputs (Hopper `wgmma ... k16` on bf16 or
// f16) see accumulateGroup16 below. For FP8: one k-group step
// (`accumulateGroup`) and a chain of steps (`accumulateChain`), for the
// hardware models `sm90` (Hopper `wgmma`) and `sm89` (Ada `mma.sync`) and for
// the generic N-bit model of `fp8-lower-to-linalg{accumulator-bits=N}`. The CPU
// lowering emits the same arithmetic as IR
// (lib/Conversion/FP8ToLinalg/LowerToLinalg.cpp); this header is for code that
// executes tensor-core instructions on the host (a GPU-kernel emulator: one
// `wgmma.mma_async ... k32` on FP8 operands is, for every output element, `d =
// accumulateGroup(sm90Model(), scaleD ? d : 0, aRow, fmtA, bCol, fmtB, 32)`
// with the 32 K-consecutive codes of A's row and B's column) and for the unit
// tests.
//
// The sm90 model is Khattak & Mikaitis, "Accurate Models of NVIDIA Tensor
// Cores" (arXiv:2512.07004, 2025), validated there on H100/H200 outputs and
// here on 2000 of them (test/Integration/CPU/Inputs/hopper-accumulation). One
// step over the products p_i = a_i * b_i (exact) and the incoming f32
// accumulator c:
//   1. alignment exponents: for p_i, ea + eb, the input exponents each
//      clamped at the format's minimum normal exponent (the unnormalised
//      product, significand in [0, 4)); zero products take no part; for c,
//      its own exponent (f32 subnormals: -126), c being first cut to 13
//      fraction bits; a zero c takes no part;
//   2. E = the largest alignment exponent;
//   3. every term is truncated toward zero (sign-magnitude) to a multiple of
//      2^(E - 13): no guard, round or sticky bits;
//   4. the exact sum of the terms is normalised and truncated toward zero to
//      14 significant bits; it is the next step's accumulator.
// The variants the hardware data rejects: alignment by the normalised
// product exponent, 14 fraction bits, round-to-nearest in step 4, floor
// (two's complement) in step 3, 16-product groups on Hopper. Ada's
// `mma.sync` uses the same step on 16-product groups (sm89).
//
// Special values (not covered by the published data): if the plain f32 sum
// c + p_0 + ... + p_{n-1} (in order, RNE) is Inf or NaN (an Inf or NaN
// code, Inf * 0) it is the result, so NaN propagates; a result of 2^128 or
// more is Inf. A step whose terms are all zero returns +0.
//
//===----------------------------------------------------------------------===//
#ifndef FP8_TARGET_HOPPER_TENSORCOREACCUMULATION_H
#define FP8_TARGET_HOPPER_TENSORCOREACCUMULATION_H

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>

namespace mlir {
namespace fp8 {
namespace tensorcore {

/// FP8 storage formats of the MMA operands.
enum class Fp8Format { E4M3FN, E5M2 };

/// Which exponent aligns a product.
enum class Alignment {
  /// ea + eb of the inputs, each clamped at the format's minimum normal
  /// exponent (the hardware's unnormalised product; sm90, sm89).
  InputExponents,
  /// floor(log2 |p|), the product's own normalised exponent (the generic
  /// accumulator-bits=N model).
  ProductExponent,
};

/// One accumulation model: a step takes `groupSize` products and the running
/// accumulator, truncates every term to a multiple of 2^(E - fractionBits)
/// and the exact sum to `resultBits` significant bits.
struct AccumulationModel {
  unsigned groupSize;
  unsigned fractionBits;
  unsigned resultBits;
  Alignment alignment;

  constexpr bool operator==(const AccumulationModel &o) const {
    return groupSize == o.groupSize && fractionBits == o.fractionBits &&
           resultBits == o.resultBits && alignment == o.alignment;
  }
};

/// Hopper `wgmma.mma_async` with FP8 inputs and f32 accumulation.
constexpr AccumulationModel sm90Model() {
  return {32, 13, 14, Alignment::InputExponents};
}
/// Ada `mma.sync` with FP8 inputs and f32 accumulation: 16-product groups.
constexpr AccumulationModel sm89Model() {
  return {16, 13, 14, Alignment::InputExponents};
}
/// The generic model of `accumulator-bits=N` (1 <= N <= 24): 32-product
/// groups aligned by the normalised product exponent, N significant bits of
/// the largest term kept.
constexpr AccumulationModel bitsModel(unsigned n) {
  return {32, n - 1, n, Alignment::ProductExponent};
}

/// Exponent bias, mantissa bits and minimum normal exponent of `f`.
constexpr int exponentBias(Fp8Format f) {
  return f == Fp8Format::E4M3FN ? 7 : 15;
}
constexpr int mantissaBits(Fp8Format f) {
  return f == Fp8Format::E4M3FN ? 3 : 2;
}
constexpr int minNormalExponent(Fp8Format f) { return 1 - exponentBias(f); }

/// The exact value of an FP8 code: NaN for E4M3FN 0x7F/0xFF and E5M2
/// 0x7D..0x7F/0xFD..0xFF, +-Inf for E5M2 0x7C/0xFC.
inline double decodeFp8(uint8_t code, Fp8Format f) {
  int mb = mantissaBits(f);
  int field = (code & 0x7F) >> mb;
  int mant = code & ((1 << mb) - 1);
  int maxField = f == Fp8Format::E4M3FN ? 15 : 31;
  double sign = (code & 0x80) ? -1.0 : 1.0;
  if (f == Fp8Format::E4M3FN && (code & 0x7F) == 0x7F)
    return std::numeric_limits<double>::quiet_NaN();
  if (f == Fp8Format::E5M2 && field == maxField)
    return mant ? std::numeric_limits<double>::quiet_NaN()
                : sign * std::numeric_limits<double>::infinity();
  if (field == 0)
    return sign * std::ldexp(mant, minNormalExponent(f) - mb);
  return sign * std::ldexp((1 << mb) + mant, field - exponentBias(f) - mb);
}

/// The exponent of a finite FP8 code, clamped at the format's minimum
/// normal exponent (a subnormal's significand is 0.m at that exponent).
inline int clampedExponent(uint8_t code, Fp8Format f) {
  int field = (code & 0x7F) >> mantissaBits(f);
  return (field == 0 ? 1 : field) - exponentBias(f);
}

namespace detail {
/// floor(log2 |x|) of a finite nonzero double.
inline int exponentOf(double x) { return std::ilogb(x); }

/// `v` truncated toward zero to `bits` significant bits.
inline int64_t truncateSignificant(int64_t v, unsigned bits) {
  uint64_t mag = v < 0 ? uint64_t(-v) : uint64_t(v);
  unsigned width = 0;
  for (uint64_t m = mag; m; m >>= 1)
    ++width;
  if (width > bits)
    mag = (mag >> (width - bits)) << (width - bits);
  return v < 0 ? -int64_t(mag) : int64_t(mag);
}
} // namespace detail

/// One step of `model`: the accumulator after adding the `n` products
/// a[i] * b[i] (codes of formats fa, fb) to `acc`. `n` <= model.groupSize
/// (a K tail is a shorter group; missing products are zero products, which
/// take no part).
inline float accumulateGroup(const AccumulationModel &model, float acc,
                             const uint8_t *a, Fp8Format fa, const uint8_t *b,
                             Fp8Format fb, size_t n) {
  // Inf/NaN: the plain f32 sum, in order, is the result.
  float plain = acc;
  for (size_t i = 0; i < n; ++i)
    plain += float(decodeFp8(a[i], fa) * decodeFp8(b[i], fb));
  if (!std::isfinite(plain))
    return plain;

  // Alignment exponent of product i; INT_MIN for a zero product, which
  // takes no part.
  const int kNone = std::numeric_limits<int>::min();
  auto product = [&](size_t i) {
    return decodeFp8(a[i], fa) * decodeFp8(b[i], fb); // exact in double
  };
  auto alignment = [&](size_t i, double p) {
    if (p == 0)
      return kNone;
    return model.alignment == Alignment::InputExponents
               ? clampedExponent(a[i], fa) + clampedExponent(b[i], fb)
               : detail::exponentOf(p);
  };
  // E: the accumulator's own exponent (f32 subnormals: -126) and the
  // products'. The accumulator's cut to `fractionBits` fraction bits is
  // implied by the truncation below (E >= its exponent, and truncations
  // toward zero onto nested grids compose), so it is not applied separately.
  double c = acc;
  int e = c != 0 ? std::max(detail::exponentOf(c), -126) : kNone;
  for (size_t i = 0; i < n; ++i)
    e = std::max(e, alignment(i, product(i)));
  if (e == kNone)
    return 0.0f;
  // Terms on the grid 2^(E - fractionBits), truncated toward zero; the
  // scaled values are below 2^(fractionBits + 2), exact in double.
  int shift = int(model.fractionBits) - e;
  int64_t sum = 0;
  if (c != 0)
    sum += int64_t(std::trunc(std::ldexp(c, shift)));
  for (size_t i = 0; i < n; ++i) {
    double p = product(i);
    if (p != 0)
      sum += int64_t(std::trunc(std::ldexp(p, shift)));
  }
  sum = detail::truncateSignificant(sum, model.resultBits);
  // Exact in double; the conversion to float is exact too (at most
  // resultBits significant bits, lowest at 2^(e - fractionBits) >= 2^-149)
  // or overflows to Inf.
  return float(std::ldexp(double(sum), -shift));
}

/// A chain of steps over k products, starting from `acc`: groups of
/// model.groupSize consecutive products (the last one shorter when k is not
/// a multiple), each step's result the next step's accumulator; one
/// promotion interval of the CPU lowering, or the k32 steps of `wgmma`
/// instructions chained through their D registers.
inline float accumulateChain(const AccumulationModel &model, float acc,
                             const uint8_t *a, Fp8Format fa, const uint8_t *b,
                             Fp8Format fb, size_t k) {
  for (size_t k0 = 0; k0 < k; k0 += model.groupSize) {
    size_t n = k - k0 < model.groupSize ? k - k0 : model.groupSize;
    acc = accumulateGroup(model, acc, a + k0, fa, b + k0, fb, n);
  }
  return acc;
}

//===----------------------------------------------------------------------===//
// 16-bit inputs: Hopper `wgmma ... k16` on bf16 or f16 operands, f32 result
//===----------------------------------------------------------------------===//
//
// Khattak & Mikaitis's H100/H200 model for bf16 and f16 inputs with FP32
// output (their models/H100TC.m through GEMM.m and Generic_BFMA_TC.m),
// checked here on 3000 measured outputs (test/Integration/CPU/Inputs/
// hopper-accumulation, *_k16.txt) and on all 20000 published ones. One step
// adds 16 products p_i = a_i * b_i (exact) to the incoming f32 value c:
//   1. alignment exponents: for p_i, ea + eb, the input exponents each
//      clamped at the input format's minimum normal exponent (bf16 -126,
//      f16 -14; the unnormalised product, significand in [0, 4)); zero
//      products take no part; for c its own exponent (f32 subnormals:
//      -126); a zero c takes no part;
//   2. E = the largest of them, at least -133;
//   3. every term, c included, is truncated toward zero (sign-magnitude) to
//      a multiple of 2^(E - 25): 23 fraction bits and 2 extra alignment
//      bits, no sticky bit;
//   4. the exact sum is truncated toward zero to an f32: 24 significant
//      bits, or a multiple of 2^-149 for a subnormal result; 2^128 or more
//      is Inf. A zero sum is +0.
// (The paper's code states step 1 with products normalised to [1, 2) and a
// third extra alignment bit when the largest product has a carry and
// reaches c's exponent: the same grid.) A K longer than 16 chains steps,
// each result the next step's c. The variants the data reject: 1 or 3
// extra bits, alignment by the normalised product exponent (the third bit
// dropped), c added after the products' sum, round-to-nearest in step 4,
// 8-product groups.
//
// Special values (not in the published data): when an input or c is Inf or
// NaN, the sum c + p_0 + ... + p_{n-1} in double (products exact, so a
// finite product never overflows) decides: NaN (Inf - Inf, Inf * 0, a NaN)
// gives the GPU's canonical NaN 0x7FFFFFFF, else the Inf.

/// 16-bit operand formats of `wgmma ... k16`.
enum class Wide16Format { BF16, F16 };

/// Products per step, fraction bits of the alignment grid (below E) and the
/// floor of E of the k16 model.
constexpr unsigned kK16GroupSize = 16;
constexpr int kK16FractionBits = 25;
constexpr int kK16MinAlignmentExponent = -133;

constexpr int minNormalExponent(Wide16Format f) {
  return f == Wide16Format::BF16 ? -126 : -14;
}

/// The exact value of a bf16 or f16 code (NaN codes decode to NaN).
inline double decode16(uint16_t code, Wide16Format f) {
  double sign = (code & 0x8000) ? -1.0 : 1.0;
  int mb = f == Wide16Format::BF16 ? 7 : 10;
  int bias = f == Wide16Format::BF16 ? 127 : 15;
  int maxField = f == Wide16Format::BF16 ? 255 : 31;
  int field = (code & 0x7FFF) >> mb;
  int mant = code & ((1 << mb) - 1);
  if (field == maxField)
    return mant ? std::numeric_limits<double>::quiet_NaN()
                : sign * std::numeric_limits<double>::infinity();
  if (field == 0)
    return sign * std::ldexp(mant, 1 - bias - mb);
  return sign * std::ldexp((1 << mb) + mant, field - bias - mb);
}

/// floor(log2 |x|) of a finite nonzero `x` of format `f`, clamped at the
/// format's minimum normal exponent.
inline int clampedExponent(double x, Wide16Format f) {
  return std::max(std::ilogb(x), minNormalExponent(f));
}

namespace detail {
/// S * 2^q (|S| < 2^62) truncated toward zero to an f32: 24 significant
/// bits, the subnormal grid 2^-149; Inf from 2^128 up.
inline float truncateToF32(int64_t s, int q) {
  uint64_t mag = s < 0 ? uint64_t(-s) : uint64_t(s);
  if (mag == 0)
    return 0.0f;
  int width = 0;
  for (uint64_t m = mag; m; m >>= 1)
    ++width;
  int lsb = std::max(q + width - 1 - 23, -149);
  if (lsb > q)
    mag = (mag >> (lsb - q)) << (lsb - q);
  double v = std::ldexp(double(mag), q); // exact: at most 24 bits
  if (v >= 0x1p128)
    v = std::numeric_limits<double>::infinity();
  return float(s < 0 ? -v : v);
}
} // namespace detail

/// One `wgmma ... k16` step: c plus the `n` (<= 16; a K tail is a shorter
/// group) products a[i] * b[i] of 16-bit codes of format `f`.
inline float accumulateGroup16(float c, const uint16_t *a, const uint16_t *b,
                               size_t n, Wide16Format f) {
  double plain = c;
  for (size_t i = 0; i < n; ++i)
    plain += decode16(a[i], f) * decode16(b[i], f);
  if (std::isnan(plain)) {
    uint32_t canonical = 0x7FFFFFFFu;
    float nan;
    std::memcpy(&nan, &canonical, sizeof(nan));
    return nan;
  }
  if (std::isinf(plain))
    return float(plain);
  // E over c (its own exponent, subnormals at -126) and the nonzero
  // products (ea + eb), at least kK16MinAlignmentExponent.
  int e = kK16MinAlignmentExponent;
  if (c != 0)
    e = std::max(e, std::max(std::ilogb(c), -126));
  for (size_t i = 0; i < n; ++i) {
    double x = decode16(a[i], f), y = decode16(b[i], f);
    if (x != 0 && y != 0)
      e = std::max(e, clampedExponent(x, f) + clampedExponent(y, f));
  }
  // Terms on the grid 2^(E - 25): each below 2^27 in magnitude there (a
  // product's significand is below 4, c's below 2), the sum below 2^32.
  int q = e - kK16FractionBits;
  int64_t sum = int64_t(std::trunc(std::ldexp(double(c), -q)));
  for (size_t i = 0; i < n; ++i)
    sum += int64_t(
        std::trunc(std::ldexp(decode16(a[i], f) * decode16(b[i], f), -q)));
  return detail::truncateToF32(sum, q);
}

/// `wgmma ... k16` steps chained over k products from `c`: groups of 16 in
/// order (the last one shorter when k is not a multiple of 16).
inline float accumulateChain16(float c, const uint16_t *a, const uint16_t *b,
                               size_t k, Wide16Format f) {
  for (size_t k0 = 0; k0 < k; k0 += kK16GroupSize) {
    size_t n = std::min<size_t>(k - k0, kK16GroupSize);
    c = accumulateGroup16(c, a + k0, b + k0, n, f);
  }
  return c;
}

} // namespace tensorcore
} // namespace fp8
} // namespace mlir

#endif // FP8_TARGET_HOPPER_TENSORCOREACCUMULATION_H
