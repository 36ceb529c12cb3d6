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

#define GEN_PASS_REGISTRATION
#include "fp8/Transforms/Passes.h.inc"

} // namespace fp8
} // namespace mlir

#endif // FP8_TRANSFORMS_PASSES_H
