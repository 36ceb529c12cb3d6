//===- TensorCoreMatmul.h - the contractions on BF16 tensor cores -*- C++
//-*-===//
//
// Which high-precision contractions run on the BF16 wgmma GEMM kernel: one
// decision that both pipelines take from here, so that they stay bit-exact.
// fp8-lower-to-nvvm gives each such op the BF16 variant of the GEMM kernel
// (its other bf16 contractions stay host kernels: plain f32 sums in K
// order); fp8-lower-to-linalg{accumulator=sm90} gives exactly these ops the
// sums of that kernel's `wgmma ... k16` steps (docs/numerics.md, "Tensor-core
// accumulation models") and leaves the others plain f32 sums.
//
//===----------------------------------------------------------------------===//
#ifndef FP8_DIALECT_FP8_UTILS_TENSORCOREMATMUL_H
#define FP8_DIALECT_FP8_UTILS_TENSORCOREMATMUL_H

#include "mlir/IR/Operation.h"

#include <string>

namespace mlir::fp8 {

/// Whether `op` is of the form the BF16 variant of the GEMM kernel is for:
/// a linalg.matmul ([M, K] x [K, N]) or linalg.batch_matmul ([G, M, K] x
/// [G, K, N], the batch as the kernel's groups) on tensors in a function,
/// bf16 x bf16 -> f32 (its init f32), with the default indexing maps. Other
/// ops are not considered.
bool isBF16MatmulCandidate(Operation *op);

/// Why the kernel cannot compute the candidate `op` (isBF16MatmulCandidate),
/// phrased after "no GPU GEMM kernel (...)"; empty when it can: N and K
/// static (M and a batch_matmul's batch may be dynamic), a non-empty
/// problem, N and K multiples of 8 (the TMA maps' row strides of A [M, K]
/// and B [K, N] are multiples of 16 bytes), every static size below 2^31
/// (signed 32-bit TMA coordinates; a static batch's G x M rows of C and D
/// too) and a static batch's tiles below 2^31. A run-time M's or batch's
/// limits are checked by the launch (fp8-launch-kernels' cf.assert).
std::string explainNoBF16MatmulKernel(Operation *op);

/// Whether `op` runs on the BF16 tensor cores on the GPU: a candidate the
/// kernel can compute.
inline bool runsOnBF16TensorCores(Operation *op) {
  return isBF16MatmulCandidate(op) && explainNoBF16MatmulKernel(op).empty();
}

} // namespace mlir::fp8

#endif // FP8_DIALECT_FP8_UTILS_TENSORCOREMATMUL_H
