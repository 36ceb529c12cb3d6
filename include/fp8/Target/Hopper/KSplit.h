//===- KSplit.h - split-K partition of the promotion intervals --*- C++ -*-===//
//
// The one rule that cuts a GEMM's K into the S ranges of split-K
// (fp8.scaled_matmul's `k_splits`, the GEMM kernel's split-K form), read by
// the CPU lowering, the GPU kernel generator, its launcher and the cost
// model, so the CPU reference and the kernel sum the same intervals in the
// same order (docs/numerics.md, "Split-K").
//
// The KB = ceil(K / promote_interval) promotion intervals are cut into S
// contiguous ranges; the first KB mod S ranges are one interval longer:
// split s covers [s * q + min(s, r), + q + (s < r)) with q = KB / S and
// r = KB mod S. Every range is non-empty when 1 <= S <= KB.
//
// MLIR-free (standard C++ only), like GemmKernelConfig.h.
//
//===----------------------------------------------------------------------===//
#ifndef FP8_TARGET_HOPPER_KSPLIT_H
#define FP8_TARGET_HOPPER_KSPLIT_H

#include <algorithm>
#include <cstdint>

namespace mlir::fp8 {

/// One split's promotion intervals: [begin, begin + count).
struct KSplitRange {
  int64_t begin;
  int64_t count;
};

/// Split `split` of `splits` over `kBlocks` promotion intervals (the rule
/// above); requires 1 <= splits <= kBlocks and 0 <= split < splits.
inline KSplitRange getKSplitRange(int64_t kBlocks, int64_t splits,
                                  int64_t split) {
  int64_t q = kBlocks / splits, r = kBlocks % splits;
  return {split * q + std::min(split, r), q + (split < r ? 1 : 0)};
}

} // namespace mlir::fp8

#endif // FP8_TARGET_HOPPER_KSPLIT_H
