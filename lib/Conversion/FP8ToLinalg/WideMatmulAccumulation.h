//===- WideMatmulAccumulation.h - k16 model for bf16 matmuls ----*- C++ -*-===//
//
// fp8-lower-to-linalg{accumulator=sm90} on the contractions the GPU
// pipeline runs on the BF16 tensor cores (fp8::runsOnBF16TensorCores): the
// sums of Hopper's `wgmma ... k16` (tensorcore::accumulateChain16).
//
//===----------------------------------------------------------------------===//
#ifndef FP8_LIB_CONVERSION_FP8TOLINALG_WIDEMATMULACCUMULATION_H
#define FP8_LIB_CONVERSION_FP8TOLINALG_WIDEMATMULACCUMULATION_H

#include "mlir/IR/Operation.h"

namespace mlir::fp8::detail {

/// Pads K of every contraction under `root` that runs on the BF16 tensor
/// cores on the GPU (fp8::runsOnBF16TensorCores) to a multiple of 16 with
/// +0.0 elements of both operands: the products +0.0 * +0.0 = +0.0 that the
/// kernel's last k16 step takes from TMA's zero fill past K. They change a
/// plain f32 sum only when it is -0.0 (to +0.0); a k16 step ignores zero
/// products (docs/numerics.md). Matmuls with K a multiple of 16 and all
/// other ops are left alone.
void padWideMatmulKTails(Operation *root);

/// Replaces every contraction under `root` that runs on the BF16 tensor
/// cores on the GPU (fp8::runsOnBF16TensorCores: a bf16 x bf16 -> f32
/// linalg.matmul the BF16 GEMM kernel takes) by a linalg.generic that
/// computes each output as the k16 chain from its init value: groups of 16
/// K elements in order (a shorter last group), each group one step of
/// tensorcore::accumulateGroup16. Other matmuls are left alone (the GPU
/// runs them as host kernels summing in K order).
void lowerWideMatmulsToK16Chains(Operation *root);

} // namespace mlir::fp8::detail

#endif // FP8_LIB_CONVERSION_FP8TOLINALG_WIDEMATMULACCUMULATION_H
