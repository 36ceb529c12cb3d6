//===- GemmKernelConfig.h - sm_90a FP8 GEMM tiles ---------------*- C++ -*-===//
//
// The launch-relevant configuration of the block-scaled FP8 GEMM kernel that
// `fp8-lower-to-nvvm` generates, as a function of the problem shape only.
// Header-only and free of MLIR/LLVM so the CUDA host runtime (runtime/) and
// the device harness (bench/gpu/) compute exactly what the compiler chose:
// block size, dynamic shared memory, TMA boxes, persistent grid.
//
// Kernel ABI (parameters in order; 0-4 are 64-bit generic pointers to global
// memory):
//   0 tmapA:  CUtensorMap of A codes [M, K] u8, box {128 (K), blockM},
//             128B swizzle
//   1 tmapB:  CUtensorMap of B codes [N, K] u8, box {128 (K), blockN},
//             128B swizzle
//   2 tmapSA: CUtensorMap of A scales, transposed and padded: f32 [KB, Mpad]
//             (K-block major, Mpad = roundUp(M, 4) so rows are 16-byte
//             aligned as TMA requires), box {blockM, 1}, no swizzle
//   3 sb:     f32 [ceil(N/128), KB] B scales, row-major (plain loads)
//   4 d:      [M, N] bf16 or f32 output, row-major
//   5 m:      i32, the number of rows M at run time. A kernel compiled for
//             a static M ignores it; a dynamic-M kernel (one per N, K and
//             types, taking any M: `m == kDynamicM` in its configuration)
//             computes its tile count and row masks from it.
// Out-of-bounds TMA elements are zero-filled (K, M and N tails).
//
//===----------------------------------------------------------------------===//
#ifndef FP8_CONVERSION_GEMMKERNELCONFIG_H
#define FP8_CONVERSION_GEMMKERNELCONFIG_H

#include <cstdint>

namespace mlir {
namespace fp8 {

struct GemmKernelConfig {
  /// The `m` of a kernel compiled for a run-time M.
  static constexpr int64_t kDynamicM = -1;

  int64_t m = 0, n = 0, k = 0;
  int64_t blockM = 128;  // rows per CTA tile: 64 per consumer warpgroup
  int64_t blockN = 128;  // wgmma N (one B-scale block)
  int64_t blockK = 128;  // K per stage = one promotion interval
  int64_t consumers = 2; // consumer (math) warpgroups
  int64_t stages = 6;    // shared-memory ring depth
  int64_t producerRegs = 40, consumerRegs = 232; // setmaxnreg targets

  static constexpr int64_t kSharedMemoryLimit = 227 * 1024; // sm_90 opt-in max
  static constexpr int64_t kBarrierBytes = 1024;            // mbarriers, padded

  static constexpr int64_t ceilDiv(int64_t a, int64_t b) {
    return (a + b - 1) / b;
  }
  static constexpr int64_t roundUp(int64_t a, int64_t b) {
    return ceilDiv(a, b) * b;
  }

  int64_t threads() const { return 128 * (consumers + 1); }
  int64_t mTiles() const { return ceilDiv(m, blockM); }
  int64_t nTiles() const { return ceilDiv(n, blockN); }
  int64_t tiles() const { return mTiles() * nTiles(); }
  int64_t kBlocks() const { return ceilDiv(k, blockK); }
  int64_t nScaleBlocks() const { return ceilDiv(n, 128); }
  int64_t mPadded() const { return roundUp(m, 4); }
  int64_t aStageBytes() const { return blockM * blockK; }
  int64_t bStageBytes() const { return blockN * blockK; }
  int64_t saStageBytes() const { return roundUp(blockM * 4, 128); }
  int64_t stageBytes() const {
    return aStageBytes() + bStageBytes() + saStageBytes();
  }
  /// Bytes one stage's TMA loads deliver (expect_tx): full boxes, OOB included.
  int64_t stageTxBytes() const {
    return aStageBytes() + bStageBytes() + blockM * 4;
  }
  // Shared-memory layout: A ring, B ring, A-scale ring, then the barriers.
  int64_t bRingOffset() const { return stages * aStageBytes(); }
  int64_t saRingOffset() const {
    return bRingOffset() + stages * bStageBytes();
  }
  int64_t barrierOffset() const {
    return saRingOffset() + stages * saStageBytes();
  }
  int64_t sharedMemoryBytes() const { return barrierOffset() + kBarrierBytes; }
  /// Persistent grid: one CTA per SM at most (one CTA fits per SM).
  int64_t gridSize(int64_t smCount) const {
    return tiles() < smCount ? tiles() : smCount;
  }
};

/// The configuration for an M x N x K problem. M <= 64 uses one consumer
/// warpgroup (BLOCK_M = 64); otherwise, and for a dynamic M
/// (GemmKernelConfig::kDynamicM), two (BLOCK_M = 128): a kernel compiled for
/// every M is tuned for the token counts that carry the FLOPs (prefill,
/// training), where 128-row tiles halve the B traffic per FLOP; decode-size
/// M pays a half-empty tile (docs/gpu-kernel.md). Stages fill the shared
/// memory, capped at 8. For a dynamic-M kernel at run time, set `m` of the
/// returned configuration to the actual M (withRuntimeM).
inline GemmKernelConfig chooseGemmKernelConfig(int64_t m, int64_t n,
                                               int64_t k) {
  GemmKernelConfig c;
  c.m = m;
  c.n = n;
  c.k = k;
  c.consumers = m != GemmKernelConfig::kDynamicM && m <= 64 ? 1 : 2;
  c.blockM = 64 * c.consumers;
  c.stages = 1;
  int64_t perStage = c.stageBytes();
  int64_t fit =
      (GemmKernelConfig::kSharedMemoryLimit - GemmKernelConfig::kBarrierBytes) /
      perStage;
  c.stages = fit < 8 ? fit : 8;
  if (c.stages < 2)
    c.stages = 2;
  return c;
}

/// The launch configuration of a dynamic-M kernel for `m` rows at run time:
/// the kernel's compiled tiles, with the derived sizes (tiles, padded A-scale
/// rows, grid) of the actual M.
inline GemmKernelConfig withRuntimeM(GemmKernelConfig c, int64_t m) {
  c.m = m;
  return c;
}

} // namespace fp8
} // namespace mlir

#endif // FP8_CONVERSION_GEMMKERNELCONFIG_H
