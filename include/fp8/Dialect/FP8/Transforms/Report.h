//===- Report.h - fp8-report's collection -----------------------*- C++ -*-===//
//
// fp8-report in two steps: collectReport() analyses a module into a Report
// (ReportData.h: plain data, every value either printer shows), and the
// printers there render it. The pass (`fp8-report`) and the Python package
// (PipelineResult.report) both collect with this.
//
//===----------------------------------------------------------------------===//
#ifndef FP8_DIALECT_FP8_TRANSFORMS_REPORT_H
#define FP8_DIALECT_FP8_TRANSFORMS_REPORT_H

#include "fp8/Dialect/FP8/Transforms/ReportData.h"

#include "mlir/IR/BuiltinOps.h"

namespace mlir::fp8 {

class RoleAnalysis;

/// Analyses `module` (its functions with a body) under its #fp8.policy, or
/// the default preset (PolicyAttr::getDefaultPreset) when it has none;
/// `roles` is the module's RoleAnalysis. FP8 GEMMs get the kernel the cost
/// model of `chip` chooses; GEMMs with a dynamic token dimension count
/// `tokens` rows (0: per token).
Report collectReport(ModuleOp module, const RoleAnalysis &roles,
                     const ChipSpec &chip, int64_t tokens);

} // namespace mlir::fp8

#endif // FP8_DIALECT_FP8_TRANSFORMS_REPORT_H
