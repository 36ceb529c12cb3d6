//===- Kernels.h - the generated kernels' descriptions and references -*- C++
//-*-===//
//
// What a GEMM or quantize kernel computes, read from its #fp8.gemm_kernel /
// #fp8.quantize_kernel, and independent host references of both kernels'
// results (the numerics contract), used by fp8-emu (which launches the
// kernels through fp8-launch-kernels' launchers) and the tests.
//
//===----------------------------------------------------------------------===//
#ifndef FP8_EMULATOR_KERNELS_H
#define FP8_EMULATOR_KERNELS_H

#include "fp8/Emulator/Emulator.h"
#include "fp8/Target/Hopper/GemmKernelConfig.h"
#include "fp8/Target/Hopper/KernelNames.h"
#include "fp8/Target/Hopper/QuantizeKernelConfig.h"

#include <string>
#include <vector>

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace mlir::fp8::emu {

/// The SMs of an H100/H200 SXM: the persistent grid of the CUDA runtime
/// when the device reports this count.
constexpr int kDefaultSmCount = 132;

/// A 2-D GEMM kernel's problem as its #fp8.gemm_kernel (the `fp8.kernel`
/// attribute of its llvm.func) says; m = kDynamicM for a run-time M.
struct GemmKernelDesc {
  int64_t m, n, k;
  KernelElementType a, b, out;
  bool hasAcc = false; // _acc<c>: an accumulator operand C
  KernelElementType acc = KernelElementType::f32;
  bool bScalesPerColumn = false; // _b1x128: B scales per column
};
/// False if `kernel` of `module` carries no 2-D #fp8.gemm_kernel.
bool getGemmKernelDesc(const KernelModule &module, const std::string &kernel,
                       GemmKernelDesc &out);

struct QuantizeKernelDesc {
  int64_t rows, cols, blockRows;
  /// Columns of a scale's block: 128, cols (a block per whole row) or 1
  /// ([128, 1] blocks).
  int64_t blockCols = 128;
  KernelElementType input, fp8;
  bool pow2;
  float eps;
  /// The transpose-requantize kernel: `input` is FP8, the input is
  /// [cols, rows] codes with 1x128 f32 scales.
  bool transpose = false;
  /// One scale for the whole tensor (the two-launch kernel).
  bool perTensor = false;
  /// E8M0 scales (one byte each) instead of f32.
  bool e8m0 = false;
};
/// The quantize kernel `kernel` of `module` as its #fp8.quantize_kernel
/// says, whatever its blocks and scales; false if it carries none.
bool getQuantizeKernelDesc(const KernelModule &module,
                           const std::string &kernel, QuantizeKernelDesc &out);
/// The launch configuration of GEMM kernel `kernel` of `module` (2-D or
/// grouped) for M = `m` rows: its #fp8.gemm_kernel's. False if it carries
/// none.
bool getGemmKernelConfig(const KernelModule &module, const std::string &kernel,
                         int64_t m, GemmKernelConfig &out);

/// Operands of an M x N x K GEMM in the layouts of fp8.scaled_matmul: codes
/// a [M, K], b [N, K] (u8); scales sa [M, KB] (1x128 blocks), sb
/// [ceil(N / 128), KB] (128x128 blocks; `bBlockRows` 128) or [N, KB]
/// (1x128 blocks, `bBlockRows` 1: per-column B scales), f32,
/// KB = ceil(K / 128).
/// Optional accumulator C [M, N] (`c` empty: none): bf16 bits in the low 16
/// bits of each element when `cType` is bf16, else f32 bits.
struct GemmOperands {
  int64_t m, n, k;
  std::vector<uint8_t> a, b;
  std::vector<float> sa, sb;
  int64_t bBlockRows = 128; // rows of B per scale: 128 or 1
  std::vector<uint32_t> c;
  KernelElementType cType = KernelElementType::f32;
};

/// The block-scaled GEMM of the numerics contract, computed on the host
/// independently of any lowering: per 128-wide K interval an f32 partial
/// summing the exact products in k order from +0, then
/// acc = fma(partial, sa * sb, acc) in interval order; bf16 output rounded
/// to nearest even; a NaN result is the GPU's canonical NaN (f32
/// 0x7FFFFFFF, bf16 0x7FFF, docs/numerics.md): bf16 bits in the low 16 bits
/// of each element when `out` is bf16, else f32 bits. With C, acc starts at
/// C (converted to f32) instead of +0, as fp8-lower-to-linalg's promotion.
/// With `accumulate` (a tensor-core model, getAccumulator), each partial
/// is instead the chain of the model's k32 steps from +0 over the
/// interval's 32-wide groups.
std::vector<uint32_t> referenceGemm(const GemmOperands &operands,
                                    KernelElementType a, KernelElementType b,
                                    KernelElementType out,
                                    WgmmaAccumulateFn accumulate = nullptr);

/// A grouped (MoE) GEMM kernel as its #fp8.gemm_kernel says: the layout, G,
/// M (a group's rows when masked, all rows when contiguous; kDynamicM for a
/// run-time M), N, K, the element types, whether it takes counts and an
/// accumulator. False if `kernel` carries no grouped #fp8.gemm_kernel.
struct GroupedGemmKernelDesc {
  /// kGrouped: the k_grouped layout (the MoE Wgrad), which fp8-emu refuses
  /// (no host reference; its host program runs it).
  bool masked = true, hasCounts = false, kGrouped = false;
  int64_t groups = 0, m = 0, n = 0, k = 0;
  KernelElementType a, b, out;
  bool hasAcc = false;
  KernelElementType acc = KernelElementType::f32;
};
bool getGroupedGemmKernelDesc(const KernelModule &module,
                              const std::string &kernel,
                              GroupedGemmKernelDesc &out);

/// Operands of fp8.grouped_scaled_matmul in its layouts (GemmOperands'
/// blocks): masked a [G, M, K], sa [G, M, KB], c [G, M, N]; contiguous
/// a [M, K], sa [M, KB], c [M, N]; both b [G, N, K], sb [G, ceil(N/128),
/// KB]. `rows`: masked, the valid rows of each group [G] (empty: all M;
/// a count outside [0, M] clamped to it, as the op says); contiguous, the
/// group of each row [M] (-1: padding).
struct GroupedGemmOperands {
  bool masked = true;
  int64_t groups = 0, m = 0, n = 0, k = 0;
  std::vector<uint8_t> a, b;
  std::vector<float> sa, sb;
  std::vector<int32_t> rows;
  std::vector<uint32_t> c;
  KernelElementType cType = KernelElementType::f32;
};

/// The grouped GEMM of the numerics contract on the host: referenceGemm on
/// each group's rows and weight; rows a group does not compute (past its
/// count, padding) are +0.0, also with C.
std::vector<uint32_t>
referenceGroupedGemm(const GroupedGemmOperands &operands, KernelElementType a,
                     KernelElementType b, KernelElementType out,
                     WgmmaAccumulateFn accumulate = nullptr);

/// The quantization of the numerics contract on the host (HostQuantizer,
/// the host evaluation of the CPU lowering's operation sequence): per
/// block (`spec`'s blockRows x blockCols, or the whole tensor) amax from +0,
/// the stored scale (f32 bits or the E8M0 code), then each element's code.
void referenceQuantize(MLIRContext &context, const QuantizeKernelDesc &spec,
                       int64_t rows, const std::vector<uint32_t> &x,
                       std::vector<uint8_t> &codes,
                       std::vector<uint32_t> &scales);

/// fp8.requantize [cols, rows] -> [rows, cols] on the host: each input code
/// decoded (hostFP8ToF32) times its 1x128 scale, transposed, then
/// referenceQuantize in 1x128 tiles.
void referenceRequantize(MLIRContext &context, const QuantizeKernelDesc &spec,
                         const std::vector<uint32_t> &inCodes,
                         const std::vector<uint32_t> &inScales,
                         std::vector<uint8_t> &codes,
                         std::vector<uint32_t> &scales);

} // namespace mlir::fp8::emu

#endif // FP8_EMULATOR_KERNELS_H
