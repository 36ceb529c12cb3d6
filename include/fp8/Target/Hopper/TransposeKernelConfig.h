//===- TransposeKernelConfig.h - the transpose kernel's ABI -----*- C++ -*-===//
//
// The launch configuration of the transpose kernel (#fp8.transpose_kernel)
// that fp8-launch-kernels generates to keep an operand on the device when
// the next kernel reads it in another layout (a GEMM's A scales as
// [KB, roundUp(M, 4)], per-column B scales as [KB, Np], the Dgrad's W^T,
// a swap-AB GEMM's operands and result).
// Header-only and free of MLIR/LLVM, like QuantizeKernelConfig.h.
//
// Kernel ABI (parameters in order; pointers are 64-bit generic pointers to
// global memory, sizes i32):
//   0 in      : [batch, rows, cols] elements of `bits` bits, row-major
//   1 out     : [batch, cols, outRows] elements, row-major (f32 for a
//               kernel widening E8M0 codes: widen_e8m0)
//   2 batch, 3 rows, 4 cols, 5 outRows
// No shared memory. One thread per output element, kThreads per CTA, a 1-D
// grid of ceil(batch * cols * outRows / kThreads) CTAs: thread t writes
// out element t (consecutive threads write consecutive elements: coalesced
// stores, strided loads), in[b, r / R, c] for r / R < rows and zero bits
// for the padding rows, R the kernel's compiled-in repeat_rows (1, or 128
// for 128x128 block scales written once per row). The host keeps batch * cols *
// outRows below 2^31 (the element index is a signed 32-bit value).
//
//===----------------------------------------------------------------------===//
#ifndef FP8_TARGET_HOPPER_TRANSPOSEKERNELCONFIG_H
#define FP8_TARGET_HOPPER_TRANSPOSEKERNELCONFIG_H

#include <cstdint>

namespace mlir {
namespace fp8 {

struct TransposeKernelConfig {
  static constexpr int64_t kThreads = 256;
  /// The largest element count (batch * cols * outRows) one launch writes.
  static constexpr int64_t kMaxElements = (int64_t(1) << 31) - 1;
};

} // namespace fp8
} // namespace mlir

#endif // FP8_TARGET_HOPPER_TRANSPOSEKERNELCONFIG_H
