//===- SignificantBits.h - truncation of the emulated accumulator -*- C++
//-*-===//
//
// Shared by the reference generics of the emulated tensor-core accumulator
// (LowerToLinalg.cpp, one output at a time) and the tiled kernel
// (TiledScaledMatmul.cpp, a vector of outputs at a time): both must truncate
// a group's integer sum the same way, op for op.
//
//===----------------------------------------------------------------------===//
#ifndef FP8_LIB_CONVERSION_FP8TOLINALG_SIGNIFICANTBITS_H
#define FP8_LIB_CONVERSION_FP8TOLINALG_SIGNIFICANTBITS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"

namespace mlir::fp8::detail {

/// Keeps the `bits` most significant bits of |v|, truncating toward 0; `v`
/// is an i32 or a vector of i32 (lane by lane).
inline Value truncateSignificant(OpBuilder &b, Location loc, Value v,
                                 unsigned bits) {
  auto c = [&](int64_t x) -> Value {
    if (auto vecType = dyn_cast<VectorType>(v.getType()))
      return arith::ConstantOp::create(
          b, loc, vecType,
          DenseElementsAttr::get(vecType, APInt(32, x, /*isSigned=*/true)));
    return arith::ConstantIntOp::create(b, loc, x, 32);
  };
  Value neg = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, v, c(0));
  Value mag = math::AbsIOp::create(b, loc, v);
  // msb + 1 = 32 - ctlz(mag); drop = max(msb + 1 - bits, 0). One op per
  // statement, in the order the nested form was built.
  Value leadingZeros = math::CountLeadingZerosOp::create(b, loc, mag);
  Value width = arith::SubIOp::create(b, loc, c(32), leadingZeros);
  Value zero = c(0);
  Value excess = arith::SubIOp::create(b, loc, width, c(bits));
  Value drop = arith::MaxSIOp::create(b, loc, excess, zero);
  Value kept = arith::ShLIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, mag, drop), drop);
  return arith::SelectOp::create(
      b, loc, neg, arith::SubIOp::create(b, loc, c(0), kept), kept);
}

} // namespace mlir::fp8::detail

#endif // FP8_LIB_CONVERSION_FP8TOLINALG_SIGNIFICANTBITS_H
