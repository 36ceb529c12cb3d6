//===- FP8Arith.cpp - FP32 <-> FP8 conversions as arith ops ----------------===//
//
// The expansion mirrors the case analysis of NVIDIA's host reference
// (__nv_cvt_double_to_fp8 in cuda_fp8.hpp) on the f32 bit pattern, but
// branch-free (selects), so it vectorizes on CPU and is legal inside any
// region:
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
#include "fp8/Conversion/FP8Arith.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/Support/ErrorHandling.h"

using namespace mlir;

namespace {
/// Parameters of an FP8 format, in terms of f32 bit patterns.
struct Format {
  unsigned mantBits;    // 3 (E4M3FN) or 2 (E5M2)
  unsigned bias;        // 7 or 15
  uint32_t ovfBits;     // |x| bits above this overflow (after RNE)
  uint32_t maxCode;     // largest finite code
  uint32_t ovfCode;     // non-saturating overflow code (NaN or Inf)
  bool hasInf;          // E5M2
  double fmax;          // 448 or 57344
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

/// Integer/float constants shaped like `like` (scalar or vector).
struct Cst {
  OpBuilder &b;
  Location loc;
  Type like; // shape donor (element type ignored)

  Type withElt(Type elt) const {
    if (auto v = dyn_cast<VectorType>(like))
      return v.clone(elt);
    return elt;
  }
  Value i(Type elt, uint64_t v) const {
    Type t = withElt(elt);
    TypedAttr a = IntegerAttr::get(elt, v);
    if (auto vt = dyn_cast<VectorType>(t))
      a = DenseElementsAttr::get(vt, a);
    return arith::ConstantOp::create(b, loc, t, a);
  }
  Value i32(uint32_t v) const { return i(b.getI32Type(), v); }
  Value f32(double v) const {
    Type t = withElt(b.getF32Type());
    TypedAttr a = FloatAttr::get(b.getF32Type(), v);
    if (auto vt = dyn_cast<VectorType>(t))
      a = DenseElementsAttr::get(vt, a);
    return arith::ConstantOp::create(b, loc, t, a);
  }
};

Type elementOf(Type t) { return getElementTypeOrSelf(t); }
} // namespace

Value fp8::createF32ToFP8Bits(OpBuilder &b, Location loc, Value x,
                              Type fp8Type, bool saturate) {
  Format f = getFormat(elementOf(fp8Type));
  Cst c{b, loc, x.getType()};
  Type i32 = c.withElt(b.getI32Type());
  using namespace arith;
  const unsigned shift = 23 - f.mantBits;           // f32 -> FP8 mantissa
  const uint32_t rebias = (127u - f.bias) << 23;    // exponent bias change
  const uint32_t minNorm = (128u - f.bias) << 23;   // 2^(1 - bias)
  // Right shift that puts an f32 of biased exponent e on the FP8 subnormal
  // grid 2^(1 - bias - mantBits): 150 + (1 - bias) - mantBits - e.
  const uint32_t subBase = 151u - f.bias - f.mantBits;

  Value bits = BitcastOp::create(b, loc, i32, x);
  Value absBits = AndIOp::create(b, loc, bits, c.i32(0x7FFFFFFFu));
  Value sign = AndIOp::create(b, loc, ShRUIOp::create(b, loc, bits, c.i32(24)),
                              c.i32(0x80));

  // RNE of `v >> s`: (v + (1 << (s - 1)) - 1 + ((v >> s) & 1)) >> s.
  auto rneShift = [&](Value v, Value s) -> Value {
    Value one = c.i32(1);
    Value lsb = AndIOp::create(b, loc, ShRUIOp::create(b, loc, v, s), one);
    Value half = ShLIOp::create(b, loc, one, SubIOp::create(b, loc, s, one));
    Value bias = AddIOp::create(b, loc, SubIOp::create(b, loc, half, one), lsb);
    return ShRUIOp::create(b, loc, AddIOp::create(b, loc, v, bias), s);
  };

  // Normal range: rebias and round the mantissa (the carry may bump the
  // exponent, which is what RNE wants).
  Value rebased = SubIOp::create(b, loc, absBits, c.i32(rebias));
  Value normal = rneShift(rebased, c.i32(shift));

  // Subnormal range: significand with its implicit bit, shifted onto the
  // subnormal grid. The shift is clamped to [1, 25]: 25 already rounds every
  // significand (< 2^24) to 0, and lanes outside this range are not selected.
  Value exp = ShRUIOp::create(b, loc, absBits, c.i32(23));
  Value s = SubIOp::create(b, loc, c.i32(subBase), exp);
  s = MinUIOp::create(b, loc, s, c.i32(25)); // negative wraps to huge -> 25
  s = MaxUIOp::create(b, loc, s, c.i32(1));
  Value sig = OrIOp::create(
      b, loc, AndIOp::create(b, loc, absBits, c.i32(0x7FFFFFu)),
      c.i32(0x800000u));
  Value sub = rneShift(sig, s);

  Value isSub = CmpIOp::create(b, loc, CmpIPredicate::ult, absBits,
                               c.i32(minNorm));
  Value code = SelectOp::create(b, loc, isSub, sub, normal);
  Value isOvf = CmpIOp::create(b, loc, CmpIPredicate::ugt, absBits,
                               c.i32(f.ovfBits));
  code = SelectOp::create(b, loc, isOvf,
                          c.i32(saturate ? f.maxCode : f.ovfCode), code);
  code = OrIOp::create(b, loc, code, sign);
  Value isNaN = CmpIOp::create(b, loc, CmpIPredicate::ugt, absBits,
                               c.i32(0x7F800000u));
  code = SelectOp::create(b, loc, isNaN, c.i32(0x7F), code);
  return TruncIOp::create(b, loc, c.withElt(b.getI8Type()), code);
}

Value fp8::createF32ToFP8(OpBuilder &b, Location loc, Value x, Type fp8Type,
                          bool saturate) {
  Value bits = createF32ToFP8Bits(b, loc, x, fp8Type, saturate);
  Cst c{b, loc, x.getType()};
  return arith::BitcastOp::create(b, loc, c.withElt(elementOf(fp8Type)), bits);
}

Value fp8::createFP8BitsToF32(OpBuilder &b, Location loc, Value code,
                              Type fp8Type) {
  Format f = getFormat(elementOf(fp8Type));
  Cst c{b, loc, code.getType()};
  Type i32 = c.withElt(b.getI32Type());
  Type f32 = c.withElt(b.getF32Type());
  using namespace arith;
  const unsigned shift = 23 - f.mantBits;
  Value v = ExtUIOp::create(b, loc, i32, code);
  Value sign = ShLIOp::create(b, loc, AndIOp::create(b, loc, v, c.i32(0x80)),
                              c.i32(24));
  Value mag = AndIOp::create(b, loc, v, c.i32(0x7F));
  // Normal: the FP8 exponent+mantissa field moved into place, rebiased.
  Value normal = AddIOp::create(b, loc, ShLIOp::create(b, loc, mag, c.i32(shift)),
                                c.i32((127u - f.bias) << 23));
  // Subnormal (exponent field 0): mantissa * 2^(1 - bias - mantBits), exact.
  Value mant = AndIOp::create(b, loc, v, c.i32((1u << f.mantBits) - 1));
  Value subF = MulFOp::create(
      b, loc, UIToFPOp::create(b, loc, f32, mant),
      c.f32(std::ldexp(1.0, 1 - int(f.bias) - int(f.mantBits))));
  Value sub = BitcastOp::create(b, loc, i32, subF);
  Value isSub = CmpIOp::create(b, loc, CmpIPredicate::ult, mag,
                               c.i32(1u << f.mantBits));
  Value bits = OrIOp::create(b, loc, SelectOp::create(b, loc, isSub, sub, normal),
                             sign);
  if (f.hasInf) {
    // E5M2 exponent field 31: Inf (mantissa 0) or NaN.
    Value isInf = CmpIOp::create(b, loc, CmpIPredicate::eq, mag, c.i32(0x7C));
    bits = SelectOp::create(b, loc, isInf,
                            OrIOp::create(b, loc, sign, c.i32(0x7F800000u)),
                            bits);
    Value isNaN = CmpIOp::create(b, loc, CmpIPredicate::ugt, mag, c.i32(0x7C));
    bits = SelectOp::create(b, loc, isNaN, c.i32(0x7FC00000u), bits);
  } else {
    Value isNaN = CmpIOp::create(b, loc, CmpIPredicate::eq, mag, c.i32(0x7F));
    bits = SelectOp::create(b, loc, isNaN, c.i32(0x7FC00000u), bits);
  }
  return BitcastOp::create(b, loc, f32, bits);
}

Value fp8::createFP8ToF32(OpBuilder &b, Location loc, Value fp8) {
  Cst c{b, loc, fp8.getType()};
  Value bits =
      arith::BitcastOp::create(b, loc, c.withElt(b.getI8Type()), fp8);
  return createFP8BitsToF32(b, loc, bits, elementOf(fp8.getType()));
}

Value fp8::createPow2Ceil(OpBuilder &b, Location loc, Value x) {
  Cst c{b, loc, x.getType()};
  Type i32 = c.withElt(b.getI32Type());
  using namespace arith;
  Value bits = BitcastOp::create(b, loc, i32, x);
  Value mant = AndIOp::create(b, loc, bits, c.i32(0x7FFFFFu));
  Value exact = CmpIOp::create(b, loc, CmpIPredicate::eq, mant, c.i32(0));
  Value up = AddIOp::create(
      b, loc, AndIOp::create(b, loc, bits, c.i32(0x7F800000u)),
      c.i32(0x800000u));
  Value res = SelectOp::create(b, loc, exact, bits, up);
  return BitcastOp::create(b, loc, x.getType(), res);
}

Value fp8::createDequantScale(OpBuilder &b, Location loc, Value amax,
                              double eps, Type fp8Type, bool pow2) {
  Format f = getFormat(elementOf(fp8Type));
  Cst c{b, loc, amax.getType()};
  Type i32 = c.withElt(b.getI32Type());
  using namespace arith;
  // maximumf propagates NaN (maxnum would drop it: contract §1.2).
  Value a = MaximumFOp::create(b, loc, amax, c.f32(eps));
  Value s = DivFOp::create(b, loc, a, c.f32(f.fmax));
  // Normal iff the biased exponent is neither 0 (zero/subnormal) nor 255
  // (Inf/NaN, which also covers a NaN or Inf amax).
  Value e = AndIOp::create(
      b, loc, ShRUIOp::create(b, loc, BitcastOp::create(b, loc, i32, s),
                              c.i32(23)),
      c.i32(0xFF));
  Value normal = AndIOp::create(
      b, loc, CmpIOp::create(b, loc, CmpIPredicate::ne, e, c.i32(0)),
      CmpIOp::create(b, loc, CmpIPredicate::ne, e, c.i32(0xFF)));
  if (pow2)
    s = createPow2Ceil(b, loc, s);
  return SelectOp::create(b, loc, normal, s, c.f32(1.0));
}

Value fp8::createE8M0FromPow2(OpBuilder &b, Location loc, Value pow2) {
  Cst c{b, loc, pow2.getType()};
  using namespace arith;
  Value bits = BitcastOp::create(b, loc, c.withElt(b.getI32Type()), pow2);
  Value e = ShRUIOp::create(b, loc, bits, c.i32(23));
  Value e8 = TruncIOp::create(b, loc, c.withElt(b.getI8Type()), e);
  return BitcastOp::create(b, loc, c.withElt(b.getType<Float8E8M0FNUType>()),
                           e8);
}

Value fp8::createF32FromE8M0(OpBuilder &b, Location loc, Value e8m0) {
  Cst c{b, loc, e8m0.getType()};
  Type i32 = c.withElt(b.getI32Type());
  using namespace arith;
  Value v = ExtUIOp::create(
      b, loc, i32,
      BitcastOp::create(b, loc, c.withElt(b.getI8Type()), e8m0));
  Value bits = ShLIOp::create(b, loc, v, c.i32(23));
  bits = SelectOp::create(
      b, loc, CmpIOp::create(b, loc, CmpIPredicate::eq, v, c.i32(0)),
      c.i32(0x00400000u), bits);
  bits = SelectOp::create(
      b, loc, CmpIOp::create(b, loc, CmpIPredicate::eq, v, c.i32(0xFF)),
      c.i32(0x7FC00000u), bits);
  return BitcastOp::create(b, loc, c.withElt(b.getF32Type()), bits);
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
