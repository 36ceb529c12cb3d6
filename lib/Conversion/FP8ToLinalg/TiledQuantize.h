//===- TiledQuantize.h - vectorised fp8.quantize / dequantize -*- C++ -*-===//
#ifndef FP8_LIB_CONVERSION_FP8TOLINALG_TILEDQUANTIZE_H
#define FP8_LIB_CONVERSION_FP8TOLINALG_TILEDQUANTIZE_H

#include "fp8/Dialect/FP8/IR/FP8.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

#include <utility>

namespace mlir::fp8::detail {

/// The attributes of one quantization (fp8.quantize / fp8.requantize).
struct QuantizeParams {
  double eps;
  bool pow2;
  bool saturate;
};

/// Whether `type`'s layout has the vectorised kernels: rank 2, rank 1, and
/// higher ranks whose blocks are 1 in every dimension but the last (viewed
/// as rank 2 by collapsing the leading dimensions, free on contiguous data).
bool hasTiledQuantize(ScaledTensorType type);

/// fp8.quantize of `x` (f32, bf16 or f16) into `type` (hasTiledQuantize):
/// returns (codes, scales), bit-identical to the reference generics. One
/// scf.forall iteration per chunk of whole block rows (threads:
/// fp8-cpu-pipeline); per block, one vectorised pass for the amax, the scale,
/// one vectorised pass for the codes. `vectorLanes`: 8 or 16. With a
/// `module`, the loops are the body of a private function of the module,
/// shared by every quantization of the same rank-2 type, blocks, formats,
/// eps, scale mode, saturation and vector width (callSharedKernel), and
/// `x` is quantized by a call of it: the same codes and scales.
std::pair<Value, Value>
buildTiledQuantize(OpBuilder &b, Location loc, Value x, ScaledTensorType type,
                   QuantizeParams p, int64_t vectorLanes, ModuleOp module = {});

/// fp8.dequantize of (codes, scales) laid out as `type` (hasTiledQuantize)
/// into a tensor of `elt` (f32, bf16 or f16), bit-identical to the
/// reference generics: per block, the scale decoded once and the codes
/// decoded on vectors. With `storeElt` f32 (a fused arith.extf of a bf16/f16
/// result), each value rounded to `elt` is stored widened (exact) into a
/// tensor of f32 instead. With a `module`: through a call of a shared
/// function, as buildTiledQuantize.
Value buildTiledDequantize(OpBuilder &b, Location loc, Value codes,
                           Value scales, ScaledTensorType type, Type elt,
                           int64_t vectorLanes, Type storeElt = {},
                           ModuleOp module = {});

} // namespace mlir::fp8::detail

#endif // FP8_LIB_CONVERSION_FP8TOLINALG_TILEDQUANTIZE_H
