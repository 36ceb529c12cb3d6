//===- GemmKernel.h - sm_90a FP8 GEMM kernel generator ----------*- C++ -*-===//
#ifndef FP8_LIB_CONVERSION_FP8TONVVM_GEMMKERNEL_H
#define FP8_LIB_CONVERSION_FP8TONVVM_GEMMKERNEL_H

#include "fp8/Target/Hopper/GemmKernelConfig.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

#include <string>

namespace mlir {
namespace fp8 {

struct GemmKernelSpec {
  GemmKernelConfig config;
  Type aType, bType; // f8E4M3FN or f8E5M2
  Type resultType;   // bf16 or f32
  Type accType;      // element type of the C operand (bf16/f32), or null
};

/// The kernel's symbol name (KernelNames.h):
/// fp8_scaled_matmul_<M>x<N>x<K>_<a>_<b>_<out>[_acc<c>][_t<BM>x<BN>s<S>].
std::string gemmKernelName(const GemmKernelSpec &spec);

/// Builds the kernel at the builder's insertion point (inside a gpu.module
/// that holds the external shared-memory array `smemSymbol`).
LLVM::LLVMFuncOp buildGemmKernel(OpBuilder &builder, Location loc,
                                 const GemmKernelSpec &spec,
                                 StringRef smemSymbol);

} // namespace fp8
} // namespace mlir

#endif // FP8_LIB_CONVERSION_FP8TONVVM_GEMMKERNEL_H
