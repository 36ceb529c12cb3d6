//===- MemRefUtils.h - memref helpers shared by the passes ------*- C++ -*-===//
//
// Buffer questions several passes ask of a memref value.
//
//===----------------------------------------------------------------------===//
#ifndef FP8_DIALECT_FP8_UTILS_MEMREFUTILS_H
#define FP8_DIALECT_FP8_UTILS_MEMREFUTILS_H

#include "mlir/IR/Value.h"

namespace mlir::fp8 {

/// The allocation (or function argument) the memref `v` views, through
/// view-like ops (ViewLikeOpInterface) and memref.extract_strided_metadata:
/// the buffer the residency (fp8-make-launches-resident) gives a device copy,
/// so also what fp8-outline-host-kernels checks of a kernel's parameters.
Value getRootBuffer(Value v);

} // namespace mlir::fp8

#endif // FP8_DIALECT_FP8_UTILS_MEMREFUTILS_H
