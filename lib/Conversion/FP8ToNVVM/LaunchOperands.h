//===- LaunchOperands.h - operands as the kernels read them -----*- C++ -*-===//
//
// fp8-launch-kernels' work at a call site (LaunchKernels.cpp): the
// operands padded and transposed as the kernels' TMA reads them, the
// tensors handed over as buffers and back, and the run-time checks of
// inputs the kernels cannot report.
//
//===----------------------------------------------------------------------===//
#ifndef FP8_LIB_CONVERSION_FP8TONVVM_LAUNCHOPERANDS_H
#define FP8_LIB_CONVERSION_FP8TONVVM_LAUNCHOPERANDS_H

#include "fp8/Dialect/FP8/IR/FP8.h"

#include "mlir/IR/ImplicitLocOpBuilder.h"

namespace mlir {
namespace fp8 {

/// `codes` [..., R, K] (FP8) padded with zero codes to [..., R,
/// roundUp(K, 16)] (`codes` itself when K is a multiple of 16).
Value padCodes(ImplicitLocOpBuilder &b, Value codes);

/// Per-row scales (A's; B's when per column) [..., M, KB] -> [..., KB,
/// roundUp(M, 4)], zero padded: the K-block-major layout whose rows are
/// 16-byte aligned, as the kernel's TMA reads it (a masked grouped GEMM's
/// [G, M, KB] per group). Only the M of a rank-2 tensor may be dynamic: read
/// from `aCodes` (the codes of the same operand); `mSizes` gets it, if any.
/// KB may be dynamic too (a run-time K, rank 2): read from `aScales`.
/// `staticPadRows` (a static M only): pad to that many instead (per-column
/// B scales: [KB, Np]).
Value transposeScales(ImplicitLocOpBuilder &b, Value aScales, Value aCodes,
                      SmallVectorImpl<Value> &mSizes,
                      int64_t staticPadRows = 0);

/// A per-tensor scale `scales` [1, 1] as one scale per row of `codes` [R,
/// K]: [R, 1], every element the scale (the whole-K GEMM kernel reads one
/// per row of A and column of the output).
Value broadcastTensorScale(ImplicitLocOpBuilder &b, Value scales, Value codes);

/// E8M0 (f8E8M0FNU) scales widened to f32 (2^(code - 127), the numerics
/// contract's createF32FromE8M0: exact), elementwise, the shape kept; f32
/// scales are returned as they are. The GEMM kernels read f32 scales.
Value widenE8M0Scales(ImplicitLocOpBuilder &b, Value scales);

/// A tensor handed to a launcher: its read-only buffer.
Value toBuffer(ImplicitLocOpBuilder &b, Value tensor);
/// A fresh host buffer of `type`'s shape, dynamic sizes `dynSizes`.
Value allocLike(ImplicitLocOpBuilder &b, RankedTensorType type,
                ValueRange dynSizes);
/// A launcher's result buffer back as a tensor.
Value toTensor(ImplicitLocOpBuilder &b, Value buffer, Type tensorType);

/// Rows (M of a GEMM, rows of a quantize input) known only at run time:
/// below 2^31, as the kernels' TMA coordinates and i32 row counts need.
/// (A static size of 2^31 or more is a compile-time error, KernelSpecs.cpp.)
void assertRowsFitKernel(ImplicitLocOpBuilder &b, Value rows, Operation *op);

/// A K (the contraction size) known only at run time: below 2^31, as the
/// kernels' TMA coordinates and i32 K need.
void assertDepthFitsKernel(ImplicitLocOpBuilder &b, Value k, Operation *op);

/// The contiguous layout's group_ids [M]: every index in [-1, G) and every
/// run of a group (not of padding, -1) starting at a multiple of
/// m_alignment, as the CPU lowering asserts (same messages,
/// FP8ToLinalg/GroupedScaledMatmul.cpp). The kernel takes a tile's group
/// from its first row, so a run starting inside a tile would be computed
/// with the wrong group or stored as +0.0.
void assertContiguousGroups(ImplicitLocOpBuilder &b, GroupedScaledMatmulOp op);

} // namespace fp8
} // namespace mlir

#endif // FP8_LIB_CONVERSION_FP8TONVVM_LAUNCHOPERANDS_H
