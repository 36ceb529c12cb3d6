//===- ReportFP8Ops.h - fp8-report's list of FP8 ops ------------*- C++ -*-===//
//
// The "fp8_ops" array of fp8-report's JSON: every fp8.quantize,
// fp8.requantize, fp8.scaled_matmul and fp8.grouped_scaled_matmul with its
// types and attributes as data, so a tool (examples/train/train_lm.py's
// time split) reads them without parsing IR text.
//
//===----------------------------------------------------------------------===//
#ifndef FP8_LIB_DIALECT_FP8_TRANSFORMS_REPORTFP8OPS_H
#define FP8_LIB_DIALECT_FP8_TRANSFORMS_REPORTFP8OPS_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/JSON.h"

namespace mlir::fp8 {

/// One object per FP8 op of `module`'s functions, in program order. Each
/// has "op" (the op name), "input"/"a"/"b" and "result" (types: "shape",
/// "element_type"; FP8 operands also "block" and "scale_type"), and the
/// op's own fields: quantize/requantize "scale_mode" (and requantize
/// "permutation", null for none), the matmuls "promote_interval" and
/// "accumulator" (whether a C operand is added); `common` adds what every
/// row of the report has ("function", "location", "count").
llvm::json::Array
fp8OpsJson(ModuleOp module,
           function_ref<void(Operation *, llvm::json::Object &)> common);

} // namespace mlir::fp8

#endif // FP8_LIB_DIALECT_FP8_TRANSFORMS_REPORTFP8OPS_H
