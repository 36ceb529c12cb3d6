//===- GroupedScaledMatmul.h - fp8.grouped_scaled_matmul lowering -*- C++ -*-=//
#ifndef FP8_LIB_CONVERSION_FP8TOLINALG_GROUPEDSCALEDMATMUL_H
#define FP8_LIB_CONVERSION_FP8TOLINALG_GROUPEDSCALEDMATMUL_H

#include "mlir/Transforms/DialectConversion.h"

namespace mlir::fp8::detail {

/// Lowers fp8.grouped_scaled_matmul to a loop (over the groups, or over the
/// runs of equal group index) around one 2-D fp8.scaled_matmul on the
/// group's slices, which the same conversion then lowers like any other:
/// one GEMM body whatever G, bit-identical per group by construction.
void populateGroupedScaledMatmulLowering(const TypeConverter &converter,
                                         RewritePatternSet &patterns);

} // namespace mlir::fp8::detail

#endif // FP8_LIB_CONVERSION_FP8TOLINALG_GROUPEDSCALEDMATMUL_H
