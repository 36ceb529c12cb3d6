//===- Passes.h - fp8 dialect transforms ------------------------*- C++ -*-===//
//
// The passes on fp8 graphs: fp8-convert-tosa, fp8-assign-precision,
// fp8-insert-quant, fp8-cache-activations, fp8-report,
// fp8-fold-constant-weights, fp8-expand-arith, fp8-expand-math,
// fp8-verify-dynamic-shapes and fp8-strip-annotations (Passes.td). The
// pipelines that chain them are in fp8/Dialect/FP8/Pipelines/Passes.h.
//
//===----------------------------------------------------------------------===//
#ifndef FP8_DIALECT_FP8_TRANSFORMS_PASSES_H
#define FP8_DIALECT_FP8_TRANSFORMS_PASSES_H

#include "fp8/Dialect/FP8/IR/FP8.h"
#include "fp8/Dialect/FP8/Transforms/Promotion.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

#include <string>

namespace mlir {
namespace fp8 {

#define GEN_PASS_DECL
#include "fp8/Dialect/FP8/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "fp8/Dialect/FP8/Transforms/Passes.h.inc"

} // namespace fp8
} // namespace mlir

#endif // FP8_DIALECT_FP8_TRANSFORMS_PASSES_H
