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
