//===- Numerics.h - single-instruction numerics of the emulator -*- C++ -*-===//
//
// The value semantics of single instructions (PTX ISA 8.x / the LLVM and
// arith ops the kernels use): FP8 decode tables, cvt to FP8, bf16 rounding,
// IEEE min/max, comparisons, the wgmma accumulation models, the shared
// memory swizzle. Internal to lib/Emulator (the interpreter's register
// slots hold every value as 64-bit patterns).
//
//===----------------------------------------------------------------------===//
#ifndef FP8_LIB_EMULATOR_NUMERICS_H
#define FP8_LIB_EMULATOR_NUMERICS_H

#include <cstdint>
#include <cstring>

namespace mlir::fp8::emu {

inline float asF32(uint64_t v) {
  uint32_t b = static_cast<uint32_t>(v);
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}
inline uint64_t fromF32(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
/// NVIDIA's canonical NaNs (docs/numerics.md, "NaN encodings"): what the
/// GPU's f32 arithmetic instructions (add, sub, mul, div, fma, min/max of
/// two NaNs or with .NaN, the wgmma accumulator) return for any NaN result,
/// and cvt.rn.{bf16,f16}.f32 for any NaN input (sign dropped). The host's
/// float arithmetic propagates payloads instead (x86: 0x7FC00000 | sign, or
/// 0xFFC00000 for Inf - Inf), so the interpreter passes every f32
/// arithmetic result through fromF32Arith.
constexpr uint32_t kCanonicalNaNF32 = 0x7FFFFFFFu;
constexpr uint16_t kCanonicalNaN16 = 0x7FFFu;
inline bool isNaNBits(uint32_t b) { return (b & 0x7FFFFFFFu) > 0x7F800000u; }
/// The register value of an f32 arithmetic result: its bits, or the
/// canonical NaN.
inline uint64_t fromF32Arith(float f) {
  uint64_t b = fromF32(f);
  return isNaNBits(static_cast<uint32_t>(b)) ? kCanonicalNaNF32 : b;
}
inline float canonicalNaNF32() { return asF32(kCanonicalNaNF32); }
inline uint64_t maskBits(uint64_t v, unsigned bits) {
  return bits >= 64 ? v : (v & ((1ull << bits) - 1));
}
inline int64_t sext(uint64_t v, unsigned bits) {
  if (bits >= 64)
    return static_cast<int64_t>(v);
  uint64_t m = 1ull << (bits - 1);
  v = maskBits(v, bits);
  return static_cast<int64_t>((v ^ m) - m);
}

/// FP8 code -> value (exact), from the format definitions.
struct Fp8Tables {
  float e4m3[256], e5m2[256];
  Fp8Tables();
};
const Fp8Tables &fp8Tables();

/// cvt.rn[.satfinite].{e4m3,e5m2}.f32 of one value.
uint8_t cvtToFp8(float x, bool e5m2, bool satfinite);
/// f32 -> bf16 (cvt.rn.bf16.f32), round to nearest even; any NaN -> 0x7FFF.
uint16_t truncToBF16(uint32_t b);
/// IEEE binary16 <-> binary32 (cvt.f32.f16 exact, any NaN -> 0x7FFFFFFF;
/// cvt.rn.f16.f32 round to nearest even, overflow to infinity, any NaN ->
/// 0x7FFF), as NVIDIA's host conversions of cuda_fp16.hpp.
float f16ToF32(uint16_t h);
uint16_t f32ToF16(float f);
/// llvm.intr.maximum / minimum (max.NaN / min.NaN: a NaN input gives the
/// canonical NaN; -0 < +0).
float maximumF(float a, float b);
float minimumF(float a, float b);
/// arith.cmpf / arith.cmpi of predicate `pred` (their enum values).
bool cmpF(uint8_t pred, float a, float b);
bool cmpI(uint8_t pred, uint64_t a, uint64_t b, unsigned bits);
/// wgmma accumulation models (WgmmaAccumulateFn) and the exact k-order sum.
float sm90Accumulate(float c, const uint8_t *a, bool aE5m2, const uint8_t *b,
                     bool bE5m2, int k);
float sm89Accumulate(float c, const uint8_t *a, bool aE5m2, const uint8_t *b,
                     bool bE5m2, int k);
float sm90Accumulate16(float c, const uint16_t *a, const uint16_t *b, int k,
                       bool bf16);
float defaultAccumulate(float c, const float *a, const float *b, int k);

/// Swizzle of a shared address (PTX ISA "Shared Memory Matrix Layout" /
/// CUDA TMA swizzle modes): the 16-byte chunk index (bits 4..6) is XORed
/// with address bits 7.. (3 bits for 128B, 2 for 64B, 1 for 32B).
/// `spanCode`: 0 none, 1 32B, 2 64B, 3 128B (TensorMapSwizzle).
inline uint32_t swizzleAddr(uint32_t a, uint32_t spanCode) {
  static const uint32_t mask[] = {0, 1, 3, 7};
  return a ^ (((a >> 7) & mask[spanCode]) << 4);
}
const char *swizzleName(uint32_t spanCode);

} // namespace mlir::fp8::emu

#endif // FP8_LIB_EMULATOR_NUMERICS_H
