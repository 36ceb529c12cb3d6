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
};

/// fp8_quantize_<R>x<C>_<blockRows>x128_<in>_<fp8>[_pow2][_eps<hex f32 bits>]
/// (the eps suffix only when eps is not the default 1e-4).
std::string quantizeKernelName(const QuantizeKernelSpec &spec);

/// Builds the kernel at the builder's insertion point, inside a gpu.module
/// that holds the [8 x f32] shared array `amaxSymbol` (the per-warp amax of
/// a 128x128 block).
LLVM::LLVMFuncOp buildQuantizeKernel(OpBuilder &builder, Location loc,
                                     const QuantizeKernelSpec &spec,
                                     StringRef amaxSymbol);

} // namespace fp8
} // namespace mlir

#endif // FP8_LIB_CONVERSION_FP8TONVVM_QUANTIZEKERNEL_H
