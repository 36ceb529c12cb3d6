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
#include "fp8/Target/Hopper/GemmKernelConfig.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

namespace mlir {
namespace fp8 {

/// `codes` [..., R, K] (FP8) padded with zero codes to [..., R,
/// roundUp(K, 16)] (`codes` itself when K is a multiple of 16).
Value padCodes(ImplicitLocOpBuilder &b, Value codes);

/// `v` [..., R, C] (FP8 codes, f32 or E8M0 scales) transposed on the device
/// into [..., C, Rp], Rp = roundUp(R, `rowMultiple`) or `staticRows` when given
/// (>= R, a static R), the padding zero: a call of the transpose kernel's
/// launcher (declared in `module`, the kernel built in its kernel module on
/// first use) writing a fresh buffer, so a tensor one kernel writes and another
/// reads in the other layout never visits the host (Residency.cpp). The uses:
/// - per-row scales (A's; B's when per column) [..., M, KB] -> [..., KB,
///   roundUp(M, 4)], the K-block-major layout with 16-byte aligned rows the
///   GEMM kernel's TMA reads (a masked grouped GEMM's [G, M, KB] per
///   group); per-column B scales padded to [KB, Np];
/// - FP8 codes and block scales of a scaled tensor (the Dgrad's W^T);
/// - a swap-AB GEMM's result D^T [N, M] back to D, and B's 128x128 block
///   scales [NB, KB] as the swapped kernel's per-row A scales [KB,
///   roundUp(N, 4)]: `repeatRows` = 128 writes each input row 128 times
///   (`staticRows` then gives the output rows).
/// E8M0 scales come out as f32 (widened exactly on the way: the kernels
/// read f32 scales), unless `widenE8M0` is false (a graph's own transpose
/// of E8M0 scales, whose result type stays E8M0). Any size may
/// be dynamic (a run-time M or K). Fails (an error on `user`) without a
/// kernel module.
FailureOr<Value> transposeOnDevice(ImplicitLocOpBuilder &b, ModuleOp module,
                                   Operation *user, Value v,
                                   int64_t rowMultiple, int64_t staticRows = 0,
                                   int64_t repeatRows = 1,
                                   bool widenE8M0 = true);

/// A per-tensor scale `scales` [1, 1] as one scale per row of `codes` [R,
/// K]: [R, 1], every element the scale (the whole-K GEMM kernel reads one
/// per row of A and column of the output).
Value broadcastTensorScale(ImplicitLocOpBuilder &b, Value scales, Value codes);

/// E8M0 (f8E8M0FNU) scales widened to f32 (2^(code - 127), the numerics
/// contract's createF32FromE8M0: exact) on the device, the shape kept: the
/// transpose kernel's widening variant over [..., R, 1, C], whose one-row
/// transposes leave every element in place. f32 scales are returned as
/// they are. The GEMM and requantize kernels read f32 scales; E8M0 scales
/// that change layout on the way are widened by transposeOnDevice.
FailureOr<Value> widenE8M0OnDevice(ImplicitLocOpBuilder &b, ModuleOp module,
                                   Operation *user, Value scales);

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

/// The run-time checks of a bf16 linalg.matmul / batch_matmul launch on
/// the BF16 kernel of configuration `c` (G = `groups` batches, 1 for a
/// matmul, ShapedType::kDynamic for a run-time batch count): every extent
/// the operands share (G, M, N, K) equal where one of them is dynamic (the
/// linalg verifier compares static ones only; the kernel takes A's M, A's
/// G or its compiled-in one, its compiled-in N and K, and reads C with
/// them), and with a run-time M or G: M below 2^31, the batch's G x M rows
/// of C and D below 2^31 and the grid's G x ceil(M / BLOCK_M) x ceil(N /
/// BLOCK_N) tiles below 2^31 (the kernel's row and tile indices are signed
/// 32-bit). `acc` holds C's extents: the op's init, or the destination of
/// the fill that wrote it when the kernel starts at the fill's constant
/// (acc_init: the fill may then be erased).
void assertBF16MatmulSizes(ImplicitLocOpBuilder &b, Operation *op, Value acc,
                           const GemmKernelConfig &c, int64_t groups);

/// A quantize input's rows known only at run time: its `rowBlocks` (ceil(rows
/// / block rows)) x `colTiles` blocks below 2^31, as the quantize kernel's
/// signed 32-bit block index and block count need. (A static count of
/// 2^31 or more keeps the op on the host, KernelSpecs.cpp.)
void assertQuantizeBlocksFitKernel(ImplicitLocOpBuilder &b, Value rowBlocks,
                                   int64_t colTiles, Operation *op);

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
