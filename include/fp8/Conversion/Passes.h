//===- Passes.h - fp8 lowering passes and the CPU pipeline ------*- C++ -*-===//
#ifndef FP8_CONVERSION_PASSES_H
#define FP8_CONVERSION_PASSES_H

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir {
class RewritePatternSet;
class TypeConverter;
namespace fp8 {

#define GEN_PASS_DECL
#include "fp8/Conversion/Passes.h.inc"

/// Adds the 1:N conversion `!fp8.scaled` -> (data tensor, scale tensor) to
/// `converter`, with `fp8.assemble` / `fp8.disassemble` as materializations.
void populateFP8DecomposeTypeConversion(TypeConverter &converter);

/// Patterns lowering fp8.quantize/dequantize/requantize/scaled_matmul/
/// assemble/disassemble to linalg on explicit data + scale tensors (see
/// FP8LowerToLinalgPass). `converter` must contain the decomposition.
void populateFP8ToLinalgPatterns(TypeConverter &converter,
                                 RewritePatternSet &patterns,
                                 unsigned accumulatorBits = 0);

/// Options of fp8-cpu-pipeline.
struct FP8CPUPipelineOptions
    : public PassPipelineOptions<FP8CPUPipelineOptions> {
  PassOptions::Option<unsigned> accumulatorBits{
      *this, "accumulator-bits",
      llvm::cl::desc("Emulated tensor-core accumulator bits inside a "
                     "promotion interval (0 = exact f32)"),
      llvm::cl::init(0)};
  PassOptions::Option<bool> deallocate{
      *this, "deallocate",
      llvm::cl::desc("Run the upstream buffer deallocation pipeline"),
      llvm::cl::init(true)};
};

/// fp8-cpu-pipeline: value-level fp8 IR on tensors (func/linalg/tensor/arith
/// around it) -> LLVM dialect runnable by mlir-runner or the
/// ExecutionEngine: fp8-lower-to-linalg, fp8-expand-arith, one-shot
/// bufferization with function boundaries (identity layouts), buffer
/// deallocation, linalg -> loops, and the upstream conversions to LLVM.
/// Functions with `llvm.emit_c_interface` get `_mlir_ciface_` wrappers.
void buildFP8CPUPipeline(OpPassManager &pm,
                         const FP8CPUPipelineOptions &options);

/// Registers fp8-cpu-pipeline (the passes register through
/// registerFP8ConversionPasses(), generated below).
void registerFP8CPUPipeline();

#define GEN_PASS_REGISTRATION
#include "fp8/Conversion/Passes.h.inc"

} // namespace fp8
} // namespace mlir

#endif // FP8_CONVERSION_PASSES_H
