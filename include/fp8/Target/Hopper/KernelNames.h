//===- KernelNames.h - names of the generated sm_90a kernels ----*- C++ -*-===//
//
// The symbol names of the kernels fp8-lower-to-nvvm generates, derived from
// a kernel's #fp8.gemm_kernel / #fp8.quantize_kernel (getSymbolName):
// names are for humans and unique per configuration; nothing parses them
// (host ops and launchers refer to their kernel by symbol reference, and
// everything that needs a kernel's configuration, Python included, reads
// its attribute: fp8_mlir.gpu_kernels lists a module's kernels by it).
// MLIR-free: standard C++ only.
//
//   GEMM: fp8_scaled_matmul_<M>x<N>x<K>_<a>_<b>_<out>[_acc<c>][_b1x128][_sk]
//             [_t<BM>x<BN>s<S>]
//             e.g. fp8_scaled_matmul_128x2112x7168_e4m3_e4m3_bf16;
//             _acc<c> (bf16 or f32): the kernel adds an accumulator operand
//             C [M, N] of that type (its last parameter); _init<bits>
//             (the BF16 variant only): no C operand, every accumulator
//             starts at the f32 constant of bit pattern <bits> (lower-case
//             hex: _init0 is +0.0, _init80000000 -0.0, _init3fc00000 1.5),
//             the value of the linalg.fill that wrote the op's init; _am /
//             _bk (the BF16 variant only): A read MN-major from [K, M], B
//             read K-major from [N, K] (a transposed operand's source,
//             GemmKernelConfig::aMajor / bMajor); _ah<H> / _bh<H> (the
//             BF16 batch kernel only): A or B read through the head view
//             [B, rows, H, cols] of H heads (GemmKernelConfig::aHeads /
//             bHeads, the source of attention's head permutation); _dh<H>
//             (the BF16 batch kernel only): D written through the head
//             view [B, M, H, N] (GemmKernelConfig::dHeads, attention's
//             permutation back of the result); _b1x128: B
//             scales per column (b blocks [1, 128], the Wgrad GEMM; without
//             it b blocks are [128, 128]); _sk: one scale per row of A
//             and column of B along the whole K (scale_k = k, the rowwise
//             and per-tensor presets); _swapab: D^T = B A^T (the op's
//             N x M x K, A and B swapped: a small-M GEMM); _mx32: a scale
//             per 32 K of each row of A and B (mxfp8); _q<fp8>[_pow2]
//             [_eps<bits>]: the quantize epilogue (D stored as 1x128-tile
//             FP8 codes and scales, the quantize suffixes below);
//             <M> is `dyn` for a kernel taking M at run time
//             (fp8_scaled_matmul_dynx2112x7168_e4m3_e4m3_bf16), <K> `dyn`
//             for one taking K at run time (the Wgrad GEMM over a run-time
//             token count: fp8_scaled_matmul_300x400xdyn_e4m3_e4m3_f32_b1x128);
//             the suffix
//             names a configuration other than the shape's default
//             (BLOCK_M x BLOCK_N tiles, S stages; consumers = BM / 64), so
//             two configurations of one shape never share a name:
//             fp8_scaled_matmul_256x512x384_e4m3_e4m3_bf16_t64x96s5;
//             a grouped tile order of G tile rows adds g<G>
//             (fp8_scaled_matmul_4096x7168x16384_e4m3_e4m3_bf16_t128x128s6g8),
//             the overlapped promotion unrolled by U K blocks o<U>
//             (..._t128x128s6g8o8); the suffix is built beside the
//             configuration's fields (GemmKernelConfig.h,
//             getGemmKernelConfigSuffix)
//   grouped GEMM (MoE, one launch for G GEMMs sharing N and K):
//             fp8_grouped_matmul_<form>_<G>x<M>x<N>x<K>_<a>_<b>_<out>
//             [_counts][_acc<c>][_t<BM>x<BN>s<S>]
//             <form> masked (A [G, M, K], <M> the rows of one group;
//             _counts: the kernel takes the per-group row counts) or
//             contiguous (A [M, K] with a per-row group index; <M> may be
//             `dyn`); the other parts as for the GEMM, the configuration
//             suffix relative to the default of an M x N x K GEMM.
//   quantize: fp8_quantize_<R>x<C>_<BR>x<BC>_<in>_<fp8>[_pow2][_eps<bits>]
//             (<R> is `dyn` for a kernel taking the row count at run time;
//             <BC> 128, or <C> for rowwise blocks [1, C]; `tensor` in
//             place of <BR>x<BC> for one scale per tensor:
//             fp8_quantize_200x400_tensor_f32_e4m3)
//             <bits>: the f32 bit pattern of eps in lower-case hex, present
//             when eps is not the default 1e-4.
//   transpose: fp8_transpose_b<bits>[_r<R>][_e8m0f32] (8: FP8 codes, 16:
//             bf16, 32: f32; every size at run time; _r<R>: each input row
//             written R times, a swap-AB GEMM's block scales as one per row;
//             _e8m0f32: E8M0 scale codes in, their f32 values out).
//
//===----------------------------------------------------------------------===//
#ifndef FP8_TARGET_HOPPER_KERNELNAMES_H
#define FP8_TARGET_HOPPER_KERNELNAMES_H

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

namespace mlir::fp8 {

/// Element types in kernel names.
enum class KernelElementType : int { e4m3 = 0, e5m2 = 1, bf16 = 2, f32 = 3 };

/// "e4m3", "e5m2", "bf16" or "f32".
inline const char *getKernelElementTypeName(KernelElementType t) {
  switch (t) {
  case KernelElementType::e4m3:
    return "e4m3";
  case KernelElementType::e5m2:
    return "e5m2";
  case KernelElementType::bf16:
    return "bf16";
  case KernelElementType::f32:
    break;
  }
  return "f32";
}

/// The GEMM kernel of an M x N x K block-scaled matmul with FP8 operands `a`,
/// `b` and result element type `out` (bf16 or f32); `m` < 0: a kernel for
/// any M (the run-time M is its parameter 5); `k` < 0: for any K (its last
/// parameter).
inline std::string getGemmKernelName(int64_t m, int64_t n, int64_t k,
                                     KernelElementType a, KernelElementType b,
                                     KernelElementType out) {
  std::string rows = m < 0 ? std::string("dyn") : std::to_string(m);
  std::string depth = k < 0 ? std::string("dyn") : std::to_string(k);
  return "fp8_scaled_matmul_" + rows + "x" + std::to_string(n) + "x" + depth +
         "_" + getKernelElementTypeName(a) + "_" + getKernelElementTypeName(b) +
         "_" + getKernelElementTypeName(out);
}

/// The BF16 variant of the GEMM kernel (GemmKernelConfig::operands): an M x
/// N x K linalg.matmul with bf16 operands and result element type `out`
/// (f32); `m` < 0: a kernel for any M.
inline std::string getBF16GemmKernelName(int64_t m, int64_t n, int64_t k,
                                         KernelElementType out) {
  std::string rows = m < 0 ? std::string("dyn") : std::to_string(m);
  return "fp8_matmul_" + rows + "x" + std::to_string(n) + "x" +
         std::to_string(k) + "_bf16_bf16_" + getKernelElementTypeName(out);
}

/// The grouped GEMM kernel of G GEMMs M x N x K (`layout` "masked"), of one
/// M x K operand whose rows are split among G groups ("contiguous") or of G
/// GEMMs M x N over runs of the K = T tokens ("k_grouped"); `m` < 0: M at
/// run time, `k` < 0: K (k_grouped: T) at run time. The "_counts",
/// "_acc<c>" and configuration suffixes follow.
inline std::string getGroupedGemmKernelName(const char *layout, int64_t g,
                                            int64_t m, int64_t n, int64_t k,
                                            KernelElementType a,
                                            KernelElementType b,
                                            KernelElementType out) {
  std::string rows = m < 0 ? std::string("dyn") : std::to_string(m);
  std::string depth = k < 0 ? std::string("dyn") : std::to_string(k);
  return std::string("fp8_grouped_matmul_") + layout + "_" + std::to_string(g) +
         "x" + rows + "x" + std::to_string(n) + "x" + depth + "_" +
         getKernelElementTypeName(a) + "_" + getKernelElementTypeName(b) + "_" +
         getKernelElementTypeName(out);
}

/// The suffix of a masked grouped kernel that takes the per-group row
/// counts (a tensor<Gxi32> operand).
inline const char *getGroupedGemmKernelCountsSuffix() { return "_counts"; }

/// The accumulator suffix of a GEMM kernel name: "_acc<c>", c the element
/// type of the C operand (bf16 or f32).
inline std::string getGemmKernelAccSuffix(KernelElementType c) {
  return std::string("_acc") + getKernelElementTypeName(c);
}

/// The suffix of a GEMM kernel whose accumulators start at the f32
/// constant `init` instead of a C operand: "_init<bits>", bits the f32 bit
/// pattern in lower-case hex, so that -0.0 (_init80000000) and +0.0
/// (_init0) name different kernels.
inline std::string getGemmKernelAccInitSuffix(float init) {
  uint32_t bits;
  std::memcpy(&bits, &init, sizeof(bits));
  char hex[9];
  std::snprintf(hex, sizeof(hex), "%x", bits);
  return std::string("_init") + hex;
}

/// The suffix of a GEMM kernel whose B operand has [1, 128] blocks (one
/// scale per column and K block: the Wgrad GEMM of training, DeepGEMM's
/// "1D-1D" kernel); it follows "_acc<c>" and precedes the configuration.
inline const char *getGemmKernelColumnScalesSuffix() { return "_b1x128"; }
/// One scale per row of A and column of the output along the whole K
/// (scale_k = k: the rowwise and per-tensor presets).
inline const char *getGemmKernelWholeKScalesSuffix() { return "_sk"; }

/// A scale per 32 K of each row of A and B (scale_k = 32, mxfp8).
inline const char *getGemmKernelMxScalesSuffix() { return "_mx32"; }

/// A bf16 kernel's operand majors other than its default (A K-major, B
/// MN-major): "_am" for an MN-major A ([K, M]), "_bk" for a K-major B ([N,
/// K]), both for both, "" for neither.
inline std::string getGemmKernelMajorsSuffix(bool aMNMajor, bool bKMajor) {
  return std::string(aMNMajor ? "_am" : "") + (bKMajor ? "_bk" : "");
}

/// A bf16 batch kernel's head views (GemmKernelConfig::aHeads, bHeads,
/// dHeads): "_ah<H>" for an A read as [B, rows, H, cols], "_bh<H>" for a
/// B, "_dh<H>" for a D written as [B, M, H, N], "" for packed operands (H
/// = 1).
inline std::string getGemmKernelHeadsSuffix(int64_t aHeads, int64_t bHeads,
                                            int64_t dHeads) {
  std::string s;
  if (aHeads != 1)
    s += "_ah" + std::to_string(aHeads);
  if (bHeads != 1)
    s += "_bh" + std::to_string(bHeads);
  if (dHeads != 1)
    s += "_dh" + std::to_string(dHeads);
  return s;
}

/// A swap-AB kernel (D^T = B A^T; its <M>x<N> are the op's N x M).
inline const char *getGemmKernelSwapABSuffix() { return "_swapab"; }

/// `_pow2` and `_eps<bits>` (eps other than the default 1e-4): kernels that
/// differ only in their quantization parameters get their own names.
inline std::string getQuantizeParamsSuffix(bool pow2, float eps) {
  std::string s = pow2 ? "_pow2" : "";
  if (eps != 1e-4f) {
    uint32_t bits;
    std::memcpy(&bits, &eps, sizeof(bits));
    char hex[9];
    std::snprintf(hex, sizeof(hex), "%x", bits);
    s += std::string("_eps") + hex;
  }
  return s;
}

/// The quantize kernel of a rows x cols input into blockRows x 128 blocks.
inline std::string
getQuantizeKernelName(int64_t rows, int64_t cols, int64_t blockRows,
                      KernelElementType input, KernelElementType fp8, bool pow2,
                      float eps, bool transpose = false,
                      int64_t blockCols = 128, bool perTensor = false) {
  // The transpose-requantize kernel (FP8 input [cols, rows]) is
  // fp8_requantize_t_<rows>x<cols>_1x128_<input>_<fp8>.
  std::string name =
      std::string(transpose ? "fp8_requantize_t_" : "fp8_quantize_") +
      (rows < 0 ? std::string("dyn") : std::to_string(rows)) + "x" +
      std::to_string(cols) + "_" +
      (perTensor
           ? std::string("tensor")
           : std::to_string(blockRows) + "x" + std::to_string(blockCols)) +
      "_" + getKernelElementTypeName(input) + "_" +
      getKernelElementTypeName(fp8);
  return name + getQuantizeParamsSuffix(pow2, eps);
}

/// A GEMM kernel with the quantize epilogue (1x128 tiles of `fp8` codes).
inline std::string getGemmKernelQuantizeSuffix(KernelElementType fp8, bool pow2,
                                               float eps) {
  return std::string("_q") + getKernelElementTypeName(fp8) +
         getQuantizeParamsSuffix(pow2, eps);
}

/// The transpose kernel of `bits`-bit elements, each input row repeated
/// `repeatRows` times, E8M0 codes widened to f32 with `widenE8M0`
/// (TransposeKernelConfig.h).
inline std::string getTransposeKernelName(int64_t bits, int64_t repeatRows,
                                          bool widenE8M0 = false) {
  std::string name = "fp8_transpose_b" + std::to_string(bits);
  if (repeatRows != 1)
    name += "_r" + std::to_string(repeatRows);
  if (widenE8M0)
    name += "_e8m0f32";
  return name;
}

} // namespace mlir::fp8

#endif // FP8_TARGET_HOPPER_KERNELNAMES_H
