//===- Passes.h - fp8 graph passes and the fp8-pipeline ---------*- C++ -*-===//
//
// Declarations of the graph passes (fp8-assign-precision, fp8-insert-quant,
// fp8-report) and of the pipeline that chains them. Embedders call
// buildFP8Pipeline on their own pass manager.
//
//===----------------------------------------------------------------------===//
#ifndef FP8_TRANSFORMS_PASSES_H
#define FP8_TRANSFORMS_PASSES_H

#include "fp8/Dialect/FP8.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"

#include <string>

namespace mlir {
class OpPassManager;
namespace fp8 {

#define GEN_PASS_DECL
#include "fp8/Transforms/Passes.h.inc"

/// Options of `fp8-pipeline`.
struct FP8PipelineOptions : public PassPipelineOptions<FP8PipelineOptions> {
  PassOptions::Option<std::string> policy{
      *this, "policy",
      llvm::cl::desc("Precision policy preset: deepseek-v3, per-tensor, "
                     "rowwise, mxfp8"),
      llvm::cl::init("deepseek-v3")};
  PassOptions::ListOption<std::string> overrides{
      *this, "overrides",
      llvm::cl::desc("PATTERN:ROLE-or-PRECISION pairs matched against loc "
                     "names (see fp8-assign-precision)")};
  PassOptions::Option<bool> strict{
      *this, "strict",
      llvm::cl::desc("Fail instead of remarking on what the passes cannot "
                     "handle"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> report{
      *this, "report", llvm::cl::desc("Run fp8-report at the end"),
      llvm::cl::init(true)};
  PassOptions::Option<std::string> reportFormat{
      *this, "report-format",
      llvm::cl::desc("fp8-report format: table, json (default: "
                     "--fp8-report-format, else table)"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> reportOutput{
      *this, "report-output",
      llvm::cl::desc("fp8-report output file ('-' = stdout)"),
      llvm::cl::init("-")};
};

/// Appends the graph pipeline to `pm` (a module pass manager): TOSA to
/// linalg (for TOSA inputs; a no-op on linalg graphs), canonicalize,
/// fp8-assign-precision, fp8-insert-quant, canonicalize + cse (shared
/// quantizations, compile-time quantized constant weights), fp8-report.
void buildFP8Pipeline(OpPassManager &pm, const FP8PipelineOptions &options);

/// Registers `fp8-pipeline` with the global pass-pipeline registry.
void registerFP8Pipelines();

#define GEN_PASS_REGISTRATION
#include "fp8/Transforms/Passes.h.inc"

} // namespace fp8
} // namespace mlir

#endif // FP8_TRANSFORMS_PASSES_H
