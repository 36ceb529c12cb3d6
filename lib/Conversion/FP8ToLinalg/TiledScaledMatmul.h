//===- TiledScaledMatmul.h - tiled exact fp8.scaled_matmul -*- C++ -*-===//
#ifndef FP8_LIB_CONVERSION_FP8TOLINALG_TILEDSCALEDMATMUL_H
#define FP8_LIB_CONVERSION_FP8TOLINALG_TILEDSCALEDMATMUL_H

#include "fp8/Target/Hopper/TensorCoreAccumulation.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::fp8::detail {

/// The decomposed operands of one fp8.scaled_matmul (NT).
struct TiledScaledMatmulOperands {
  Value aCodes, aScales; // [M, K] FP8 codes, ceil([M, K] / aBlock) scales
  Value bCodes, bScales; // [N, K] FP8 codes, ceil([N, K] / bBlock) scales
  ArrayRef<int64_t> aBlock, bBlock;
  int64_t interval;
  Value c;             // optional f32 [M, N] initial accumulator
  int64_t vectorLanes; // f32 lanes of the kernel's vectors: 8 or 16
  Type outElementType; // of the [M, N] result: f32, or rounded (RNE)
  /// The element type the kernel stores: null (outElementType), or f32 to
  /// store each output rounded to outElementType and then widened (exact),
  /// the fused form of `arith.extf` of the result.
  Type storeElementType;
  /// The emulated tensor-core accumulation of each interval's partial;
  /// none: exact f32 sums.
  std::optional<tensorcore::AccumulationModel> accumulator;
  Type aElementType, bElementType; // FP8 formats (set by callTiled...)
};

/// The result [M, N] (outElementType, or storeElementType when set) of the
/// scaled_matmul (partials of each promotion interval in increasing k, exact
/// or by the accumulator model, promoted by fma(partial, sa * sb, acc), then
/// rounded, then widened for a storeElementType),
/// bit-identical to the reference generics, computed by a register-tiled,
/// vectorised kernel over MR x NR output tiles (4 x 24 with 8 lanes, 8 x 48
/// with 16), one scf.forall over chunks of 128 x 96 outputs.
Value buildTiledScaledMatmul(OpBuilder &b, Location loc,
                             const TiledScaledMatmulOperands &op);

/// The same result through a call of a private function of `module` holding
/// the kernel, created on first use and shared by every scaled_matmul with
/// the same operand types, blocks, interval, vector width, result and store
/// element types and accumulator model. A model
/// repeats a few GEMM shapes over its layers: one body per shape keeps the
/// module, and the time of every later pass over it, growing by one call
/// per GEMM rather than by a whole kernel (tens of KB of LLVM IR) per GEMM.
Value callTiledScaledMatmul(OpBuilder &b, Location loc, ModuleOp module,
                            const TiledScaledMatmulOperands &op);

} // namespace mlir::fp8::detail

#endif // FP8_LIB_CONVERSION_FP8TOLINALG_TILEDSCALEDMATMUL_H
