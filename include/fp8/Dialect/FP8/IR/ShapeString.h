//===- ShapeString.h - shapes as text ---------------------------*- C++ -*-===//
//
// The one place that writes a shape as text, for the fp8 dialect's
// diagnostics, the role analysis' reasons, the lowerings' remarks and the
// report (part of the FP8Dialect library).
//
//===----------------------------------------------------------------------===//
#ifndef FP8_DIALECT_FP8_IR_SHAPESTRING_H
#define FP8_DIALECT_FP8_IR_SHAPESTRING_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace mlir::fp8 {

/// The sizes of `shape` with `separator` between them, `?` for a dynamic
/// one: "32x?x4096" with the default separator, "32, ?, 4096" with ", ".
std::string shapeString(ArrayRef<int64_t> shape, StringRef separator = "x");

} // namespace mlir::fp8

#endif // FP8_DIALECT_FP8_IR_SHAPESTRING_H
