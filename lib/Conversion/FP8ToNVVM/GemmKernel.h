//===- GemmKernel.h - sm_90a FP8 GEMM kernel generator ----------*- C++ -*-===//
#ifndef FP8_LIB_CONVERSION_FP8TONVVM_GEMMKERNEL_H
#define FP8_LIB_CONVERSION_FP8TONVVM_GEMMKERNEL_H

#include "fp8/Target/Hopper/GemmKernelConfig.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypeInterfaces.h"

#include <string>

namespace mlir {
namespace fp8 {

/// The grouped (MoE) forms of the kernel (docs/gpu-kernel.md, "Grouped
/// GEMM"): one launch computes G GEMMs that share N and K.
enum class GemmGrouping {
  none,       // one [M, K] x [N, K]^T GEMM
  masked,     // A [G, M, K], B [G, N, K], D [G, M, N]; rows >= counts[g]
              // (when the counts operand is present) are +0.0
  contiguous, // A [M, K], B [G, N, K], D [M, N]; row r uses B[groupIdx[r]],
              // groupIdx[r] outside [0, G) (padding, -1) gives +0.0
  kGrouped,   // the MoE Wgrad: A [M, T], B [N, T] (per-column B scales),
              // D [G, M, N]; group g's tokens are one run of K blocks
              // (groupIds[t], -1 padding), an empty group gives C[g] or +0.0
};

struct GemmKernelSpec {
  /// For a grouped kernel, config.m is the rows of one group (masked,
  /// k_grouped) or of the whole [M, K] operand (contiguous); k_grouped's
  /// config.k is the token count T.
  GemmKernelConfig config;
  Type aType, bType; // f8E4M3FN or f8E5M2
  Type resultType;   // bf16 or f32
  Type accType;      // element type of the C operand (bf16/f32), or null
  /// The BF16 variant without C (accType null): the f32 constant its
  /// accumulators start at, a folded fill of the op's init; null: +0.0.
  FloatAttr accInit;
  GemmGrouping grouping = GemmGrouping::none;
  /// The group count of a grouped kernel; ShapedType::kDynamic for the bf16
  /// batch kernel of a run-time batch count (its last parameter, an i32).
  int64_t numGroups = 1;
  bool hasCounts = false; // masked: takes the per-group row counts
  bool hasDynamicGroups() const { return ShapedType::isDynamic(numGroups); }
  /// A per-tensor scale of A or B (the `per-tensor` preset: one block over
  /// the whole operand): the kernel reads one per row (config.scaleK = k,
  /// per-column B scales), so the launcher broadcasts it to every row of
  /// A or column of the output (fp8-launch-kernels).
  bool aScaleWhole = false, bScaleWhole = false;
  /// Swap-AB: the kernel computes D^T = B A^T (config.m is the op's N,
  /// config.n its M, aType B's and bType A's element type; per-column B
  /// scales: A's per-row scales). fp8-launch-kernels hands it B as A (its
  /// 128x128 block scales one per row), A as B, and transposes D^T.
  bool swapAB = false;
  /// The quantize epilogue (config.quantizeEpilogue): the FP8 type of the
  /// codes and the fp8.quantize parameters (eps, pow2 scales) it follows.
  Type quantizeType;
  double quantizeEps = 1e-4;
  bool quantizePow2 = false;
};

/// Builds the kernel `name` (its #fp8.gemm_kernel's symbol) at the
/// builder's insertion point (inside a gpu.module that holds the external
/// shared-memory array `smemSymbol`).
LLVM::LLVMFuncOp buildGemmKernel(OpBuilder &builder, Location loc,
                                 const GemmKernelSpec &spec, StringRef name,
                                 StringRef smemSymbol);

} // namespace fp8
} // namespace mlir

#endif // FP8_LIB_CONVERSION_FP8TONVVM_GEMMKERNEL_H
