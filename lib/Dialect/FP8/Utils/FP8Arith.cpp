//===- FP8Arith.cpp - the numerics contract, once -------------------------===//
//
// Every rule of the numerics contract (docs/design.md §1) is written once,
// as a template over an evaluator `E` with three value kinds: 32-bit
// integers `E::I`, f32 values `E::F` and predicates `E::P`. Two evaluators
// instantiate it:
//   - IREval: each operation becomes an `arith` op (the lowerings emit these
//     into linalg bodies, GPU kernels and expanded truncf/extf);
//   - HostEval: each operation runs on uint32_t/float/bool with the `arith`
//     op's exact semantics (fp8-fold-constant-weights quantizes constant
//     weights with it at compile time).
// So compile-time and run-time quantization cannot disagree: they are the
// same sequence of operations.
//
// The FP32 -> FP8 conversion mirrors the case analysis of NVIDIA's host
// reference (__nv_cvt_double_to_fp8 in cuda_fp8.hpp) on the f32 bit
// pattern, branch-free (selects), so it vectorizes on CPU and is legal
// inside any region:
//   NaN        -> 0x7F
//   overflow   -> max code (satfinite) or NaN/Inf code, with the sign
//   >= min normal: rebias the exponent and round the mantissa RNE with the
//                  classic "add half-ulp - 1 + lsb, shift" trick; a carry
//                  out of the mantissa correctly bumps the exponent
//   < min normal: shift the significand (implicit bit included) right by
//                 the distance to the FP8 subnormal grid, RNE the same way;
//                 a carry into 0x08 / 0x04 is the smallest normal
//
//===----------------------------------------------------------------------===//
#include "fp8/Dialect/FP8/Utils/FP8Arith.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/ErrorHandling.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::fp8;

namespace {
/// Parameters of an FP8 format, in terms of f32 bit patterns.
struct Format {
  unsigned mantBits; // 3 (E4M3FN) or 2 (E5M2)
  unsigned bias;     // 7 or 15
  uint32_t ovfBits;  // |x| bits above this overflow (after RNE)
  uint32_t maxCode;  // largest finite code
  uint32_t ovfCode;  // non-saturating overflow code (NaN or Inf)
  bool hasInf;       // E5M2
  double fmax;       // 448 or 57344
};

Format getFormat(Type t) {
  if (isa<Float8E4M3FNType>(t))
    // 0x43E80000 = 464 = 448 + half an ulp: ties to the even 448.
    return {3, 7, 0x43E80000u, 0x7Eu, 0x7Fu, false, 448.0};
  if (isa<Float8E5M2Type>(t))
    // 0x476FFFFF: the f32 just below 61440 = 57344 + half an ulp, which
    // ties to the even code 0x7C (Inf).
    return {2, 15, 0x476FFFFFu, 0x7Bu, 0x7Cu, true, 57344.0};
  llvm_unreachable("expected f8E4M3FN or f8E5M2");
}

//===----------------------------------------------------------------------===//
// The contract, generic over the evaluator
//===----------------------------------------------------------------------===//

// The statements below keep one operation per statement, in the order the
// IR is meant to be emitted: argument evaluation order is unspecified in
// C++, so nesting two emitting calls in one expression would make the IR
// order depend on the compiler.

/// f32 -> FP8 code in the low 8 bits of an i32.
template <typename E>
typename E::I f32ToFP8Code(E &e, typename E::F x, const Format &f,
                           bool saturate) {
  const unsigned shift = 23 - f.mantBits;         // f32 -> FP8 mantissa
  const uint32_t rebias = (127u - f.bias) << 23;  // exponent bias change
  const uint32_t minNorm = (128u - f.bias) << 23; // 2^(1 - bias)
  // Right shift that puts an f32 of biased exponent e on the FP8 subnormal
  // grid 2^(1 - bias - mantBits): 150 + (1 - bias) - mantBits - e.
  const uint32_t subBase = 151u - f.bias - f.mantBits;

  auto bits = e.bitsOf(x);
  auto absMask = e.ci(0x7FFFFFFFu);
  auto absBits = e.andi(bits, absMask);
  auto c24 = e.ci(24);
  auto signShifted = e.shrui(bits, c24);
  auto c80 = e.ci(0x80);
  auto sign = e.andi(signShifted, c80);

  // RNE of `v >> s`: (v + (1 << (s - 1)) - 1 + ((v >> s) & 1)) >> s.
  auto rneShift = [&](auto v, auto s) {
    auto one = e.ci(1);
    auto shifted = e.shrui(v, s);
    auto lsb = e.andi(shifted, one);
    auto sMinus1 = e.subi(s, one);
    auto half = e.shli(one, sMinus1);
    auto halfMinus1 = e.subi(half, one);
    auto bias = e.addi(halfMinus1, lsb);
    auto sum = e.addi(v, bias);
    return e.shrui(sum, s);
  };

  // Normal range: rebias and round the mantissa (the carry may bump the
  // exponent, which is what RNE wants).
  auto cRebias = e.ci(rebias);
  auto rebased = e.subi(absBits, cRebias);
  auto cShift = e.ci(shift);
  auto normal = rneShift(rebased, cShift);

  // Subnormal range: significand with its implicit bit, shifted onto the
  // subnormal grid. The shift is clamped to [1, 25]: 25 already rounds every
  // significand (< 2^24) to 0, and lanes outside this range are not selected.
  auto c23 = e.ci(23);
  auto exp = e.shrui(absBits, c23);
  auto cSubBase = e.ci(subBase);
  auto s = e.subi(cSubBase, exp);
  auto c25 = e.ci(25);
  s = e.minui(s, c25); // negative wraps to huge -> 25
  auto c1 = e.ci(1);
  s = e.maxui(s, c1);
  auto mantMask = e.ci(0x7FFFFFu);
  auto mant = e.andi(absBits, mantMask);
  auto implicitBit = e.ci(0x800000u);
  auto sig = e.ori(mant, implicitBit);
  auto sub = rneShift(sig, s);

  auto cMinNorm = e.ci(minNorm);
  auto isSub = e.cmp(arith::CmpIPredicate::ult, absBits, cMinNorm);
  auto code = e.select(isSub, sub, normal);
  auto cOvf = e.ci(f.ovfBits);
  auto isOvf = e.cmp(arith::CmpIPredicate::ugt, absBits, cOvf);
  auto ovfCode = e.ci(saturate ? f.maxCode : f.ovfCode);
  code = e.select(isOvf, ovfCode, code);
  code = e.ori(code, sign);
  auto cInf = e.ci(0x7F800000u);
  auto isNaN = e.cmp(arith::CmpIPredicate::ugt, absBits, cInf);
  auto nanCode = e.ci(0x7F);
  return e.select(isNaN, nanCode, code);
}

/// FP8 code (zero-extended to i32) -> f32, exact.
template <typename E>
typename E::F fp8CodeToF32(E &e, typename E::I v, const Format &f) {
  const unsigned shift = 23 - f.mantBits;
  auto c80 = e.ci(0x80);
  auto signBit = e.andi(v, c80);
  auto c24 = e.ci(24);
  auto sign = e.shli(signBit, c24);
  auto c7F = e.ci(0x7F);
  auto mag = e.andi(v, c7F);
  // Normal: the FP8 exponent+mantissa field moved into place, rebiased.
  auto cShift = e.ci(shift);
  auto field = e.shli(mag, cShift);
  auto cRebias = e.ci((127u - f.bias) << 23);
  auto normal = e.addi(field, cRebias);
  // Subnormal (exponent field 0): mantissa * 2^(1 - bias - mantBits), exact.
  auto cMantMask = e.ci((1u << f.mantBits) - 1);
  auto mant = e.andi(v, cMantMask);
  auto mantF = e.uitofp(mant);
  auto ulp = e.cf(std::ldexp(1.0, 1 - int(f.bias) - int(f.mantBits)));
  auto subF = e.mulf(mantF, ulp);
  auto sub = e.bitsOf(subF);
  auto cMinNormal = e.ci(1u << f.mantBits);
  auto isSub = e.cmp(arith::CmpIPredicate::ult, mag, cMinNormal);
  auto magBits = e.select(isSub, sub, normal);
  auto bits = e.ori(magBits, sign);
  if (f.hasInf) {
    // E5M2 exponent field 31: Inf (mantissa 0) or NaN.
    auto c7C = e.ci(0x7C);
    auto isInf = e.cmp(arith::CmpIPredicate::eq, mag, c7C);
    auto cInf = e.ci(0x7F800000u);
    auto inf = e.ori(sign, cInf);
    bits = e.select(isInf, inf, bits);
    auto c7C2 = e.ci(0x7C);
    auto isNaN = e.cmp(arith::CmpIPredicate::ugt, mag, c7C2);
    auto qnan = e.ci(0x7FC00000u);
    bits = e.select(isNaN, qnan, bits);
  } else {
    auto c7F2 = e.ci(0x7F);
    auto isNaN = e.cmp(arith::CmpIPredicate::eq, mag, c7F2);
    auto qnan = e.ci(0x7FC00000u);
    bits = e.select(isNaN, qnan, bits);
  }
  return e.floatOf(bits);
}

/// The smallest power of two >= x, from its bits (contract §1.3).
template <typename E> typename E::F pow2Ceil(E &e, typename E::F x) {
  auto bits = e.bitsOf(x);
  auto cMant = e.ci(0x7FFFFFu);
  auto mant = e.andi(bits, cMant);
  auto c0 = e.ci(0);
  auto exact = e.cmp(arith::CmpIPredicate::eq, mant, c0);
  auto cExp = e.ci(0x7F800000u);
  auto expBits = e.andi(bits, cExp);
  auto cOne = e.ci(0x800000u);
  auto up = e.addi(expBits, cOne);
  auto res = e.select(exact, bits, up);
  return e.floatOf(res);
}

/// The dequantization scale of a block from its amax (contract §1.2-1.3).
template <typename E>
typename E::F dequantScale(E &e, typename E::F amax, double eps,
                           const Format &f, bool pow2) {
  // maximumf propagates NaN (maxnum would drop it: contract §1.2).
  auto cEps = e.cf(eps);
  auto a = e.maximumf(amax, cEps);
  auto cFmax = e.cf(f.fmax);
  auto s = e.divf(a, cFmax);
  // Normal iff the biased exponent is neither 0 (zero/subnormal) nor 255
  // (Inf/NaN, which also covers a NaN or Inf amax).
  auto sBits = e.bitsOf(s);
  auto c23 = e.ci(23);
  auto expShifted = e.shrui(sBits, c23);
  auto cFF = e.ci(0xFF);
  auto exp = e.andi(expShifted, cFF);
  auto c0 = e.ci(0);
  auto notZero = e.cmp(arith::CmpIPredicate::ne, exp, c0);
  auto cFF2 = e.ci(0xFF);
  auto notInf = e.cmp(arith::CmpIPredicate::ne, exp, cFF2);
  auto normal = e.andp(notZero, notInf);
  if (pow2)
    s = pow2Ceil(e, s);
  auto one = e.cf(1.0);
  return e.selectf(normal, s, one);
}

/// E8M0 code (zero-extended to i32) -> f32: 2^(code - 127); 0 is 2^-127,
/// 0xFF is NaN.
template <typename E> typename E::F e8m0CodeToF32(E &e, typename E::I v) {
  auto c23 = e.ci(23);
  auto bits = e.shli(v, c23);
  auto c0 = e.ci(0);
  auto isZero = e.cmp(arith::CmpIPredicate::eq, v, c0);
  auto minScale = e.ci(0x00400000u);
  bits = e.select(isZero, minScale, bits);
  auto cFF = e.ci(0xFF);
  auto isNaN = e.cmp(arith::CmpIPredicate::eq, v, cFF);
  auto qnan = e.ci(0x7FC00000u);
  bits = e.select(isNaN, qnan, bits);
  return e.floatOf(bits);
}

/// A positive normal power of two -> its E8M0 code (the biased exponent).
template <typename E> typename E::I e8m0CodeFromPow2(E &e, typename E::F pow2) {
  auto bits = e.bitsOf(pow2);
  auto c23 = e.ci(23);
  return e.shrui(bits, c23);
}

//===----------------------------------------------------------------------===//
// IREval: arith ops, scalar or vector shaped like `like`
//===----------------------------------------------------------------------===//

struct IREval {
  using I = Value;
  using F = Value;
  using P = Value;
  OpBuilder &b;
  Location loc;
  Type like; // shape donor (element type ignored)

  Type withElt(Type elt) const {
    if (auto v = dyn_cast<VectorType>(like))
      return v.clone(elt);
    return elt;
  }
  Value splat(Type elt, TypedAttr a) const {
    Type t = withElt(elt);
    if (auto vt = dyn_cast<VectorType>(t))
      a = DenseElementsAttr::get(vt, a);
    return arith::ConstantOp::create(b, loc, t, a);
  }
  Value ci(uint32_t v) const {
    return splat(b.getI32Type(), IntegerAttr::get(b.getI32Type(), v));
  }
  Value cf(double v) const {
    return splat(b.getF32Type(), FloatAttr::get(b.getF32Type(), v));
  }
  Value bitsOf(Value f) const {
    return arith::BitcastOp::create(b, loc, withElt(b.getI32Type()), f);
  }
  Value floatOf(Value i) const {
    return arith::BitcastOp::create(b, loc, withElt(b.getF32Type()), i);
  }
  Value andi(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
  Value ori(Value x, Value y) { return arith::OrIOp::create(b, loc, x, y); }
  Value shli(Value x, Value y) { return arith::ShLIOp::create(b, loc, x, y); }
  Value shrui(Value x, Value y) { return arith::ShRUIOp::create(b, loc, x, y); }
  Value addi(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value subi(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value minui(Value x, Value y) { return arith::MinUIOp::create(b, loc, x, y); }
  Value maxui(Value x, Value y) { return arith::MaxUIOp::create(b, loc, x, y); }
  Value cmp(arith::CmpIPredicate p, Value x, Value y) {
    return arith::CmpIOp::create(b, loc, p, x, y);
  }
  Value andp(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
  Value select(Value c, Value x, Value y) {
    return arith::SelectOp::create(b, loc, c, x, y);
  }
  Value selectf(Value c, Value x, Value y) { return select(c, x, y); }
  Value uitofp(Value x) {
    return arith::UIToFPOp::create(b, loc, withElt(b.getF32Type()), x);
  }
  Value mulf(Value x, Value y) { return arith::MulFOp::create(b, loc, x, y); }
  Value divf(Value x, Value y) { return arith::DivFOp::create(b, loc, x, y); }
  Value maximumf(Value x, Value y) {
    return arith::MaximumFOp::create(b, loc, x, y);
  }

  /// i32 -> i8 (the low byte), bitcast to `elt` unless it is i8.
  Value toByte(Value i32, Type elt) {
    Value i8 = arith::TruncIOp::create(b, loc, withElt(b.getI8Type()), i32);
    if (elt.isInteger(8))
      return i8;
    return arith::BitcastOp::create(b, loc, withElt(elt), i8);
  }
  /// A byte-sized value (i8 or an 8-bit float) -> zero-extended i32.
  Value fromByte(Value v) {
    if (!getElementTypeOrSelf(v.getType()).isInteger(8))
      v = arith::BitcastOp::create(b, loc, withElt(b.getI8Type()), v);
    return arith::ExtUIOp::create(b, loc, withElt(b.getI32Type()), v);
  }
};

//===----------------------------------------------------------------------===//
// HostEval: the same operations with arith's semantics on host values
//===----------------------------------------------------------------------===//

struct HostEval {
  using I = uint32_t;
  using F = float;
  using P = bool;
  // Constants are rounded to f32 as arith.constant of type f32 rounds them.
  static uint32_t ci(uint32_t v) { return v; }
  static float cf(double v) { return static_cast<float>(v); }
  static uint32_t bitsOf(float f) { return llvm::bit_cast<uint32_t>(f); }
  static float floatOf(uint32_t i) { return llvm::bit_cast<float>(i); }
  static uint32_t andi(uint32_t x, uint32_t y) { return x & y; }
  static uint32_t ori(uint32_t x, uint32_t y) { return x | y; }
  // arith shifts by >= the bit width are poison; the contract never shifts
  // by more than 25.
  static uint32_t shli(uint32_t x, uint32_t y) { return x << y; }
  static uint32_t shrui(uint32_t x, uint32_t y) { return x >> y; }
  static uint32_t addi(uint32_t x, uint32_t y) { return x + y; }
  static uint32_t subi(uint32_t x, uint32_t y) { return x - y; }
  static uint32_t minui(uint32_t x, uint32_t y) { return x < y ? x : y; }
  static uint32_t maxui(uint32_t x, uint32_t y) { return x > y ? x : y; }
  static bool cmp(arith::CmpIPredicate p, uint32_t x, uint32_t y) {
    switch (p) {
    case arith::CmpIPredicate::eq:
      return x == y;
    case arith::CmpIPredicate::ne:
      return x != y;
    case arith::CmpIPredicate::ult:
      return x < y;
    case arith::CmpIPredicate::ugt:
      return x > y;
    default:
      llvm_unreachable("predicate not used by the contract");
    }
  }
  static bool andp(bool x, bool y) { return x && y; }
  static uint32_t select(bool c, uint32_t x, uint32_t y) { return c ? x : y; }
  static float selectf(bool c, float x, float y) { return c ? x : y; }
  static float uitofp(uint32_t x) { return static_cast<float>(x); }
  // IEEE binary32 multiply and divide, round to nearest even: what
  // arith.mulf/divf lower to (no fast-math flags, no flush to zero).
  static float mulf(float x, float y) { return x * y; }
  static float divf(float x, float y) { return x / y; }
  /// arith.maximumf: NaN if either operand is NaN; +0 > -0.
  static float maximumf(float x, float y) {
    if (std::isnan(x) || std::isnan(y))
      return std::numeric_limits<float>::quiet_NaN();
    if (x == 0 && y == 0)
      return std::signbit(x) ? y : x;
    return x > y ? x : y;
  }
};

Type elementOf(Type t) { return getElementTypeOrSelf(t); }
} // namespace

//===----------------------------------------------------------------------===//
// IR builders
//===----------------------------------------------------------------------===//

Value fp8::createF32ToFP8Bits(OpBuilder &b, Location loc, Value x, Type fp8Type,
                              bool saturate) {
  IREval e{b, loc, x.getType()};
  Value code = f32ToFP8Code(e, x, getFormat(elementOf(fp8Type)), saturate);
  return e.toByte(code, b.getI8Type());
}

Value fp8::createF32ToFP8(OpBuilder &b, Location loc, Value x, Type fp8Type,
                          bool saturate) {
  IREval e{b, loc, x.getType()};
  Value code = f32ToFP8Code(e, x, getFormat(elementOf(fp8Type)), saturate);
  return e.toByte(code, elementOf(fp8Type));
}

Value fp8::createFP8BitsToF32(OpBuilder &b, Location loc, Value code,
                              Type fp8Type) {
  IREval e{b, loc, code.getType()};
  return fp8CodeToF32(e, e.fromByte(code), getFormat(elementOf(fp8Type)));
}

Value fp8::createFP8ToF32(OpBuilder &b, Location loc, Value fp8) {
  IREval e{b, loc, fp8.getType()};
  return fp8CodeToF32(e, e.fromByte(fp8), getFormat(elementOf(fp8.getType())));
}

Value fp8::createPow2Ceil(OpBuilder &b, Location loc, Value x) {
  IREval e{b, loc, x.getType()};
  return pow2Ceil(e, x);
}

Value fp8::createDequantScale(OpBuilder &b, Location loc, Value amax,
                              double eps, Type fp8Type, bool pow2) {
  IREval e{b, loc, amax.getType()};
  return dequantScale(e, amax, eps, getFormat(elementOf(fp8Type)), pow2);
}

Value fp8::createE8M0FromPow2(OpBuilder &b, Location loc, Value pow2) {
  IREval e{b, loc, pow2.getType()};
  return e.toByte(e8m0CodeFromPow2(e, pow2), b.getType<Float8E8M0FNUType>());
}

Value fp8::createF32FromE8M0(OpBuilder &b, Location loc, Value e8m0) {
  IREval e{b, loc, e8m0.getType()};
  return e8m0CodeToF32(e, e.fromByte(e8m0));
}

Value fp8::createScaleToF32(OpBuilder &b, Location loc, Value scale) {
  Type elt = elementOf(scale.getType());
  if (isa<Float8E8M0FNUType>(elt))
    return createF32FromE8M0(b, loc, scale);
  assert(elt.isF32() && "scale must be f32 or f8E8M0FNU");
  return scale;
}

Value fp8::createScaleFromF32(OpBuilder &b, Location loc, Value scale,
                              Type scaleType) {
  if (isa<Float8E8M0FNUType>(elementOf(scaleType)))
    return createE8M0FromPow2(b, loc, scale);
  return scale;
}

/// A splat of the NaN with bits `bits` of float type `elt`, shaped as `like`.
static Value nanConstant(OpBuilder &b, Location loc, Type like, Type elt,
                         uint64_t bits) {
  auto fltTy = cast<FloatType>(elt);
  APFloat nan(fltTy.getFloatSemantics(), APInt(fltTy.getWidth(), bits));
  TypedAttr a = FloatAttr::get(elt, nan);
  Type t = elt;
  if (auto vt = dyn_cast<VectorType>(like)) {
    t = vt.clone(elt);
    a = DenseElementsAttr::get(cast<VectorType>(t), a);
  }
  return arith::ConstantOp::create(b, loc, t, a);
}

Value fp8::createCanonicalNaNF32(OpBuilder &b, Location loc, Value x) {
  assert(elementOf(x.getType()).isF32() && "expected f32");
  Value isNaN = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
  Value nan = nanConstant(b, loc, x.getType(), b.getF32Type(), 0x7FFFFFFF);
  return arith::SelectOp::create(b, loc, isNaN, nan, x);
}

Value fp8::createCanonicalNaNConstant(OpBuilder &b, Location loc,
                                      FloatType elt) {
  if (elt.isF32())
    return nanConstant(b, loc, elt, elt, 0x7FFFFFFF);
  if (elt.isBF16() || elt.isF16())
    return nanConstant(b, loc, elt, elt, 0x7FFF);
  return arith::ConstantOp::create(
      b, loc, elt,
      b.getFloatAttr(elt, APFloat::getNaN(elt.getFloatSemantics())));
}

Value fp8::createTruncFCanonicalNaN(OpBuilder &b, Location loc, Value x,
                                    Type elt) {
  if (elt.isF32())
    return x;
  assert((elt.isBF16() || elt.isF16()) && "expected bf16 or f16");
  Type t = elt;
  if (auto vt = dyn_cast<VectorType>(x.getType()))
    t = vt.clone(elt);
  Value rounded = arith::TruncFOp::create(b, loc, t, x);
  Value isNaN = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
  return arith::SelectOp::create(
      b, loc, isNaN, nanConstant(b, loc, x.getType(), elt, 0x7FFF), rounded);
}

/// Extends a bf16/f16 value to f32 (exact); f32 passes through.
static Value extendToF32(OpBuilder &b, Location loc, Value x) {
  if (getElementTypeOrSelf(x.getType()).isF32())
    return x;
  IREval e{b, loc, x.getType()};
  return arith::ExtFOp::create(b, loc, e.withElt(b.getF32Type()), x);
}

Value fp8::createAmaxUpdate(OpBuilder &b, Location loc, Value amax, Value x) {
  Value abs = math::AbsFOp::create(b, loc, extendToF32(b, loc, x));
  IREval e{b, loc, amax.getType()};
  return e.maximumf(amax, abs);
}

Value fp8::createQuantizeElement(OpBuilder &b, Location loc, Value x,
                                 Value storedScale, Type fp8Type,
                                 bool saturate) {
  Value s = createScaleToF32(b, loc, storedScale);
  Value q = arith::DivFOp::create(b, loc, extendToF32(b, loc, x), s);
  return createF32ToFP8(b, loc, q, fp8Type, saturate);
}

//===----------------------------------------------------------------------===//
// Host evaluation
//===----------------------------------------------------------------------===//

HostQuantizer::HostQuantizer(Type fp8Type, Type scaleType, double eps,
                             bool pow2, bool saturate)
    : fp8Type(fp8Type), e8m0Scale(isa<Float8E8M0FNUType>(scaleType)), eps(eps),
      pow2(pow2), saturate(saturate) {
  assert((e8m0Scale || scaleType.isF32()) && "scale must be f32 or E8M0");
}

float HostQuantizer::updateAmax(float amax, float x) const {
  // arith.maximumf(amax, math.absf(x)): absf clears the sign bit.
  return HostEval::maximumf(amax, std::fabs(x));
}

uint32_t HostQuantizer::getStoredScale(float amax) const {
  HostEval e;
  float s = dequantScale(e, amax, eps, getFormat(fp8Type), pow2);
  if (e8m0Scale)
    return e8m0CodeFromPow2(e, s) & 0xFFu;
  return HostEval::bitsOf(s);
}

uint8_t HostQuantizer::quantize(float x, uint32_t storedScale) const {
  HostEval e;
  float s = e8m0Scale ? e8m0CodeToF32(e, storedScale)
                      : HostEval::floatOf(storedScale);
  return static_cast<uint8_t>(
      f32ToFP8Code(e, HostEval::divf(x, s), getFormat(fp8Type), saturate) &
      0xFFu);
}

float fp8::hostFP8ToF32(uint8_t code, Type fp8Type) {
  HostEval e;
  return fp8CodeToF32(e, code, getFormat(fp8Type));
}
