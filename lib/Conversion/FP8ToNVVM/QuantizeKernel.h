//===- QuantizeKernel.h - sm_90a quantize kernel generator ------*- C++ -*-===//
#ifndef FP8_LIB_CONVERSION_FP8TONVVM_QUANTIZEKERNEL_H
#define FP8_LIB_CONVERSION_FP8TONVVM_QUANTIZEKERNEL_H

#include "fp8/Target/Hopper/QuantizeKernelConfig.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

#include <string>

namespace mlir {
namespace fp8 {

struct QuantizeKernelSpec {
  QuantizeKernelConfig config;
  Type inputType; // f32 or bf16
  Type fp8Type;   // f8E4M3FN or f8E5M2
  double eps = 1e-4;
  bool pow2 = false;
  /// The transpose-requantize kernel of fp8.requantize: inputType is FP8,
  /// the input [cols, rows] codes with 1x128 f32 scales (one more
  /// parameter, QuantizeKernelConfig.h).
  bool transpose = false;
  /// E8M0 scales (f8E8M0FNU, pow2 only): the kernel stores each block's
  /// scale as its one-byte code, the biased exponent of the pow2 scale.
  bool e8m0Scale = false;
};

/// Builds the kernel `name` (its #fp8.quantize_kernel's symbol) at the
/// builder's insertion point, inside a gpu.module that holds the [8 x f32]
/// shared array `amaxSymbol` (the per-warp amax of a 128x128 block) and,
/// for column blocks (config.perColumn()), the [1024 x f32] shared array
/// `colAmaxSymbol` (each warp's 128 column amaxes).
LLVM::LLVMFuncOp buildQuantizeKernel(OpBuilder &builder, Location loc,
                                     const QuantizeKernelSpec &spec,
                                     StringRef name, StringRef amaxSymbol,
                                     StringRef colAmaxSymbol = {});

} // namespace fp8
} // namespace mlir

#endif // FP8_LIB_CONVERSION_FP8TONVVM_QUANTIZEKERNEL_H
