//===- FP8ToLinalg.h - fp8 -> linalg (CPU reference lowering) ---*- C++ -*-===//
//
// The reference lowering of the numerics contract (docs/design.md §1): fp8
// ops on `!fp8.scaled` values become linalg/tensor/arith ops on explicit data
// and scale tensors. Passes: fp8-decompose, fp8-lower-to-linalg
// (fp8/Conversion/Passes.td).
//
//===----------------------------------------------------------------------===//
#ifndef FP8_CONVERSION_FP8TOLINALG_FP8TOLINALG_H
#define FP8_CONVERSION_FP8TOLINALG_FP8TOLINALG_H

#include "mlir/Pass/Pass.h"

namespace mlir {
class ConversionTarget;
class RewritePatternSet;
class TypeConverter;
namespace fp8 {

#define GEN_PASS_DECL_FP8DECOMPOSEPASS
#define GEN_PASS_DECL_FP8LOWERTOLINALGPASS
#include "fp8/Conversion/Passes.h.inc"

/// Adds the 1:N conversion `!fp8.scaled` -> (data tensor, scale tensor) to
/// `converter`, with `fp8.assemble` / `fp8.disassemble` as materializations.
void populateFP8DecomposeTypeConversion(TypeConverter &converter);

/// Converts func.func signatures, func.call and func.return (and scf
/// structural ops) through `converter`, and marks them legal once their
/// types are.
void populateFP8FunctionBoundaryConversion(TypeConverter &converter,
                                           RewritePatternSet &patterns,
                                           ConversionTarget &target);

/// Patterns lowering fp8.quantize/dequantize/requantize/scaled_matmul/
/// assemble/disassemble to linalg on explicit data + scale tensors (see
/// fp8-lower-to-linalg). `converter` must contain the decomposition.
/// `accumulatorBits` (0 = exact f32) selects the emulated tensor-core
/// accumulator of the scaled_matmul lowering.
void populateFP8ToLinalgPatterns(TypeConverter &converter,
                                 RewritePatternSet &patterns,
                                 unsigned accumulatorBits = 0);

} // namespace fp8
} // namespace mlir

#endif // FP8_CONVERSION_FP8TOLINALG_FP8TOLINALG_H
