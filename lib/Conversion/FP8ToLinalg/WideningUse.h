//===- WideningUse.h - the widening of a lowered result -------*- C++ -*-===//
#ifndef FP8_LIB_CONVERSION_FP8TOLINALG_WIDENINGUSE_H
#define FP8_LIB_CONVERSION_FP8TOLINALG_WIDENINGUSE_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"

namespace mlir::fp8::detail {

/// The only use of `v`, a ranked tensor of bf16 or f16, when all it does is
/// widen every element to f32 (exact): `arith.extf` on the tensor, or the
/// linalg.generic / linalg.map that is just that extf (all loops parallel,
/// identity maps, one input `v`, a body of `arith.extf` of the input
/// element yielded), as convert-elementwise-to-linalg writes it in
/// fp8-cpu-pipeline before fp8-lower-to-linalg. Its one result is a tensor of
/// f32 of `v`'s shape. Null when `v` has other uses or the use does anything
/// else. A lowering that finds one stores its rounded result widened and
/// replaces the use: one pass instead of a narrow tensor and a second pass.
Operation *getWideningUse(Value v);

} // namespace mlir::fp8::detail

#endif // FP8_LIB_CONVERSION_FP8TOLINALG_WIDENINGUSE_H
