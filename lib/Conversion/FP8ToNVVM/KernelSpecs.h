//===- KernelSpecs.h - which fp8 ops get which sm_90a kernel ----*- C++ -*-===//
#ifndef FP8_LIB_CONVERSION_FP8TONVVM_KERNELSPECS_H
#define FP8_LIB_CONVERSION_FP8TONVVM_KERNELSPECS_H

#include "GemmKernel.h"
#include "QuantizeKernel.h"

#include "fp8/Dialect/FP8/IR/FP8.h"

#include <optional>

namespace mlir {
namespace fp8 {

/// Symbol of the gpu.module fp8-lower-to-nvvm creates and fp8-launch-kernels
/// launches from.
constexpr llvm::StringLiteral kKernelModuleName = "fp8_kernels";

/// Checks that `op` is in the form the sm_90a GEMM kernel implements and
/// returns its spec (the shape's configuration with `overrides` applied);
/// emits an error naming what is wrong otherwise (also an invalid
/// configuration, naming the options).
FailureOr<GemmKernelSpec>
getGemmKernelSpec(ScaledMatmulOp op, const GemmKernelOverrides &overrides);

/// The quantize kernel's spec for `op`, or nullopt when the op stays a host
/// (CPU) op; with `remark`, a remark says why.
std::optional<QuantizeKernelSpec> getQuantizeSpec(QuantizeOp op, bool remark);

} // namespace fp8
} // namespace mlir

#endif // FP8_LIB_CONVERSION_FP8TONVVM_KERNELSPECS_H
