//===- WideningUse.h - the widening of a lowered result -------*- C++ -*-===//
#ifndef FP8_LIB_CONVERSION_FP8TOLINALG_WIDENINGUSE_H
#define FP8_LIB_CONVERSION_FP8TOLINALG_WIDENINGUSE_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/Value.h"

namespace mlir::fp8::detail {

/// The only use of `v`, a ranked tensor of bf16 or f16, when all it does is
/// widen every element to f32 (exact): `arith.extf` on the tensor, or the
/// linalg.generic / linalg.map that is just that extf (all loops parallel,
/// identity maps, one input `v`, a body of `arith.extf` of the input
/// element yielded), as convert-elementwise-to-linalg writes it in
/// fp8-cpu-pipeline before fp8-lower-to-linalg. Its one result is a tensor of
/// f32 of `v`'s shape. Other uses that are `tensor.dim` (the sizes of a
/// dynamic shape, which convert-elementwise-to-linalg reads from `v` for the
/// widening's init) are allowed. Null when `v` has any other use or the use
/// does anything else. A lowering that finds one stores its rounded result
/// widened (replaceWidened): one pass instead of a narrow tensor and a
/// second pass.
Operation *getWideningUse(Value v);

/// Replaces `op`, whose one result has the widening use `widening`
/// (getWideningUse), by `wide`, the same values stored widened to f32: the
/// widening's result becomes `wide`, a tensor.dim of the result a tensor.dim
/// of `wide`, and `op` is erased.
void replaceWidened(RewriterBase &rewriter, Operation *op, Operation *widening,
                    Value wide);

/// `v` (f32, scalar or vector) as a lowering stores it: rounded to `elt` by
/// arith.truncf (the reference's rounding; nothing for f32) and, when the
/// result is stored widened (`storeElt` f32 for a bf16/f16 `elt`), extended
/// back by arith.extf, which is exact: the stored f32 holds the rounded
/// value, as arith.extf of the rounded result would. `canonicalNaN`: a NaN
/// rounds to 0x7FFF, as the GPU's cvt.rn.bf16.f32 (createTruncFCanonicalNaN;
/// the GEMM results).
Value createRoundedStoreValue(OpBuilder &b, Location loc, Value v, Type elt,
                              Type storeElt, bool canonicalNaN = false);

} // namespace mlir::fp8::detail

#endif // FP8_LIB_CONVERSION_FP8TOLINALG_WIDENINGUSE_H
