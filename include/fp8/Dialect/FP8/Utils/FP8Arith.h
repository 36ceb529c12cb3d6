//===- FP8Arith.h - the numerics contract, IR and host ----------*- C++ -*-===//
//
// The one implementation of the project's numerics contract (docs/design.md
// §1, docs/numerics.md): builders that expand it into plain `arith` integer
// operations on the IEEE bit patterns, and HostQuantizer, which evaluates
// the very same operation sequence on host values (FP8Arith.cpp instantiates
// one template for both), for compile-time quantization of constants. MLIR 22
// has no LLVM/NVVM lowering of `arith.truncf`/`arith.extf` to or from FP8 (the
// APFloat CPU path does not saturate), so every lowering of this project (CPU
// reference, GPU fallback paths) emits these builders. They are bit-exact
// against NVIDIA's host reference `__nv_cvt_float_to_fp8` /
// `__nv_cvt_fp8_to_halfraw` (cuda_fp8.hpp), proven on all 2^32 FP32 inputs by
// test/Integration/CPU/conversion-exhaustive.test.
//
// Every builder accepts a scalar or a vector value (constants are splatted),
// and needs only the `arith` dialect to be loaded.
//
//===----------------------------------------------------------------------===//
#ifndef FP8_DIALECT_FP8_UTILS_FP8ARITH_H
#define FP8_DIALECT_FP8_UTILS_FP8ARITH_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"

#include <cstdint>

namespace mlir::fp8 {

/// f32 (scalar or vector) -> FP8 code as i8 (same shape), for `fp8Type` =
/// f8E4M3FN or f8E5M2: round to nearest even, FP8 subnormals included, any
/// NaN -> 0x7F (E4M3FN and E5M2, sign dropped as in NVIDIA's reference).
/// `saturate` (satfinite, the default of the contract): finite overflow and
/// ±Inf -> ±max (0x7E / 0x7B with the sign bit). Without it: overflow ->
/// NaN 0x7F|sign (E4M3FN has no Inf) or ±Inf 0x7C|sign (E5M2).
/// Overflow starts where RNE would leave the finite range: |x| > 464 for
/// E4M3FN (464 ties to 448), |x| >= 61440 for E5M2 (61440 ties to Inf).
Value createF32ToFP8Bits(OpBuilder &b, Location loc, Value x, Type fp8Type,
                         bool saturate);

/// Same as createF32ToFP8Bits, bitcast to `fp8Type` (or a vector of it).
Value createF32ToFP8(OpBuilder &b, Location loc, Value x, Type fp8Type,
                     bool saturate);

/// FP8 code as i8 -> f32 (exact). NaN codes give the quiet NaN 0x7FC00000;
/// E5M2 0x7C/0xFC give ±Inf; -0 stays -0.
Value createFP8BitsToF32(OpBuilder &b, Location loc, Value code, Type fp8Type);

/// Same as createFP8BitsToF32 for a value of FP8 type (f8E4M3FN / f8E5M2).
Value createFP8ToF32(OpBuilder &b, Location loc, Value fp8);

/// The smallest power of two >= `x`, for a positive normal f32 `x`, taken
/// from its exponent and mantissa bits (exact; a floating-point log2 could
/// round a value just above a power of two down onto it).
Value createPow2Ceil(OpBuilder &b, Location loc, Value x);

/// Dequantization scale of one block (contract §1.2-1.3), f32:
///   a = maximumf(amax, eps)            (NaN propagates)
///   s = a / fmax                       (fmax = 448 or 57344)
///   s = pow2 ? pow2ceil(s) : s
///   s = 1 if a / fmax is not a normal f32 (zero, subnormal, Inf, NaN).
/// `amax` is the block's max |x| (f32, >= 0 or NaN).
Value createDequantScale(OpBuilder &b, Location loc, Value amax, double eps,
                         Type fp8Type, bool pow2);

/// A positive normal power-of-two f32 -> its E8M0 code (the biased exponent)
/// as a value of type f8E8M0FNU.
Value createE8M0FromPow2(OpBuilder &b, Location loc, Value pow2);

/// f8E8M0FNU -> f32: 2^(code - 127); code 0 is 2^-127 (an f32 subnormal),
/// 0xFF is NaN.
Value createF32FromE8M0(OpBuilder &b, Location loc, Value e8m0);

/// A stored scale (f32 or f8E8M0FNU) -> f32.
Value createScaleToF32(OpBuilder &b, Location loc, Value scale);

/// f32 scale (a power of two when `scaleType` is f8E8M0FNU) -> storage type.
Value createScaleFromF32(OpBuilder &b, Location loc, Value scale,
                         Type scaleType);

/// One step of a block's amax (contract §1.1): maximumf(amax, |x|) in f32,
/// `x` f32, bf16 or f16 (extended exactly). maximumf propagates NaN: a NaN
/// anywhere in the block makes amax NaN.
Value createAmaxUpdate(OpBuilder &b, Location loc, Value amax, Value x);

/// The code of one element (contract §1.4): cvt_rne(x / s) to `fp8Type`,
/// where s is `storedScale` (f32 or f8E8M0FNU) decoded to f32; `x` is f32,
/// bf16 or f16 (extended exactly).
Value createQuantizeElement(OpBuilder &b, Location loc, Value x,
                            Value storedScale, Type fp8Type, bool saturate);

/// NVIDIA's canonical NaNs (docs/numerics.md, "NaN encodings"): every f32
/// arithmetic instruction of the GPU (add, mul, fma, the tensor core's
/// accumulation) returns the NaN 0x7FFFFFFF whatever NaN went in, and
/// cvt.rn.{bf16,f16}.f32 returns 0x7FFF for any NaN input. The CPU's f32
/// arithmetic propagates payloads instead (x86: 0x7FC00000 | sign, or the
/// "default NaN" 0xFFC00000), so a lowering that must give the GPU's bits
/// calls these on its results.
///
/// `x` (f32, scalar or vector) with any NaN replaced by 0x7FFFFFFF.
Value createCanonicalNaNF32(OpBuilder &b, Location loc, Value x);
/// f32 `x` (scalar or vector) -> `elt` (bf16 or f16; f32 returns `x`),
/// round to nearest even as arith.truncf, any NaN -> 0x7FFF (sign dropped),
/// as cvt.rn.bf16.f32 / cvt.rn.f16.f32.
Value createTruncFCanonicalNaN(OpBuilder &b, Location loc, Value x, Type elt);
/// A scalar NaN constant of float type `elt` with the GPU's canonical bits:
/// 0x7FFFFFFF for f32, 0x7FFF for bf16 and f16; for another type (f64, the
/// finite-difference oracle's) APFloat's default quiet NaN. A NaN a
/// lowering introduces (not one arithmetic makes) then has the same bits on
/// both targets: the GPU's arithmetic returns that NaN, the CPU's keeps it.
Value createCanonicalNaNConstant(OpBuilder &b, Location loc, FloatType elt);

/// The quantization of createAmaxUpdate, createDequantScale +
/// createScaleFromF32 and createQuantizeElement, evaluated on the host by
/// the same operation sequence (not a second implementation), so constants
/// quantized at compile time are byte-identical to what the lowered code
/// computes at run time.
class HostQuantizer {
public:
  /// `fp8Type`: f8E4M3FN or f8E5M2; `scaleType`: f32 or f8E8M0FNU (then
  /// `pow2` must be set, as the fp8.quantize verifier requires).
  HostQuantizer(Type fp8Type, Type scaleType, double eps, bool pow2,
                bool saturate);
  /// amax of a block so far (start at +0.0f) updated with element `x`.
  float updateAmax(float amax, float x) const;
  /// The stored scale of a block of this amax: f32 bits, or the E8M0 code.
  uint32_t getStoredScale(float amax) const;
  /// The FP8 code of `x` in a block whose stored scale is `storedScale`.
  uint8_t quantize(float x, uint32_t storedScale) const;

private:
  Type fp8Type;
  bool e8m0Scale;
  double eps;
  bool pow2, saturate;
};

/// FP8 code -> f32 on the host (createFP8BitsToF32's operation sequence).
float hostFP8ToF32(uint8_t code, Type fp8Type);

} // namespace mlir::fp8

#endif // FP8_DIALECT_FP8_UTILS_FP8ARITH_H
