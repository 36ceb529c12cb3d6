//===- ReportCollect.h - the parts of fp8-report's collection ---*- C++ -*-===//
//
// Shared by the files of collectReport() (fp8/.../Transforms/Report.h):
// the rows and totals (ReportCollect.cpp) and the list of FP8 ops
// (ReportFP8Ops.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef FP8_LIB_DIALECT_FP8_TRANSFORMS_REPORTCOLLECT_H
#define FP8_LIB_DIALECT_FP8_TRANSFORMS_REPORTCOLLECT_H

#include "fp8/Dialect/FP8/Transforms/ReportData.h"

#include "mlir/IR/BuiltinOps.h"

namespace mlir::fp8 {

/// A row's location: the name of a NameLoc, "file:line" of a
/// FileLineColLoc, the first such inside a fused or call-site location.
std::string locationString(Location loc);
/// The product of the static trip counts of the loops around `op` inside
/// `func`.
Count runsPerCall(Operation *op, Operation *func);

/// Every fp8.quantize, fp8.requantize, fp8.scaled_matmul and
/// fp8.grouped_scaled_matmul of `module`'s functions, in program order,
/// with its types and attributes as data, so a tool
/// (examples/train/train_lm.py's time split) reads them without parsing IR
/// text.
std::vector<ReportFP8Op> collectFP8Ops(ModuleOp module);

} // namespace mlir::fp8

#endif // FP8_LIB_DIALECT_FP8_TRANSFORMS_REPORTCOLLECT_H
