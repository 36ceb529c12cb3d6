//===- TransposeKernel.h - the transpose kernel generator -------*- C++ -*-===//
#ifndef FP8_LIB_CONVERSION_FP8TONVVM_TRANSPOSEKERNEL_H
#define FP8_LIB_CONVERSION_FP8TONVVM_TRANSPOSEKERNEL_H

#include "fp8/Dialect/FP8/IR/FP8.h"

#include "mlir/IR/BuiltinOps.h"

namespace mlir {
namespace fp8 {

/// The transpose kernel of `bits`-bit elements, each input row written
/// `repeatRows` times, E8M0 codes (bits = 8) written as their f32 values
/// with `widenE8M0` (#fp8.transpose_kernel, ABI in
/// TransposeKernelConfig.h) in the kernel module of `module`, built at
/// its end on first use (fp8-launch-kernels runs while the kernel module is
/// still NVVM-level IR, right after fp8-lower-to-nvvm); its reference.
/// Fails (with an error on `user`) when `module` has no kernel module.
FailureOr<std::pair<SymbolRefAttr, TransposeKernelAttr>>
getOrBuildTransposeKernel(ModuleOp module, int64_t bits, int64_t repeatRows,
                          Operation *user, bool widenE8M0 = false);

} // namespace fp8
} // namespace mlir

#endif // FP8_LIB_CONVERSION_FP8TONVVM_TRANSPOSEKERNEL_H
