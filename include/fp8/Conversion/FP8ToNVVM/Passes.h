//===- Passes.h - fp8 GPU (sm_90a) lowering passes ---------------*- C++ -*-===//
#ifndef FP8_CONVERSION_FP8TONVVM_PASSES_H
#define FP8_CONVERSION_FP8TONVVM_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace fp8 {

#define GEN_PASS_DECL
#include "fp8/Conversion/FP8ToNVVM/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "fp8/Conversion/FP8ToNVVM/Passes.h.inc"

/// Registers the `fp8-gpu-pipeline` pass pipeline (the passes themselves:
/// registerFP8ToNVVMPasses()).
void registerFP8GPUPipeline();

} // namespace fp8
} // namespace mlir

#endif // FP8_CONVERSION_FP8TONVVM_PASSES_H
