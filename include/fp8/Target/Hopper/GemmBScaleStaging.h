//===- GemmBScaleStaging.h - the GEMM kernel's staged B scales --*- C++ -*-===//
//
// Where the consumer warpgroups of the GEMM kernel stage the tile's 128 x 128
// B scales in shared memory once per tile (then read them with ld.shared per
// K block) instead of loading them from global memory per K block and thread
// (docs/gpu-kernel.md, "The K-block path"), and the launch's dynamic shared
// memory with the staging buffers. Header-only and free of MLIR/LLVM, as
// GemmKernelConfig.h: the launchers and the tests that launch a kernel by
// hand compute the shared memory the kernel uses.
//
// The buffers follow the ring and the barriers (GemmKernelConfig::
// sharedMemoryBytes(), the stage budget): they are staged only where they
// fit in what the ring leaves of the 227 KB, so they never cost a stage.
//
//===----------------------------------------------------------------------===//
#ifndef FP8_TARGET_HOPPER_GEMMBSCALESTAGING_H
#define FP8_TARGET_HOPPER_GEMMBSCALESTAGING_H

#include "fp8/Target/Hopper/GemmKernelConfig.h"

#include <cstdint>
#include <numeric>

namespace mlir {
namespace fp8 {

/// The consumer registers the short K-block path needs beyond
/// consumerRegsNeeded() (the A scales live across the wgmma chain, the
/// staged buffer's addressing): measured with ptxas 13 -v, the lock-step
/// tiles within 8 registers of the limit spill with them.
constexpr int64_t kShortKBlockPathRegs = 8;

/// How many consecutive 128-column B-scale blocks one consumer warpgroup's
/// columns can touch: they start at a multiple of gcd(consumerN, 128)
/// inside their first block, so at most 128 - gcd columns in.
inline int64_t bScaleBlocksPerConsumer(const GemmKernelConfig &c) {
  int64_t g = std::gcd<int64_t, int64_t>(128, c.consumerN());
  return GemmKernelConfig::ceilDiv(128 - g + c.consumerN(), 128);
}

/// One consumer warpgroup's staged B scales: its bScaleBlocksPerConsumer()
/// blocks x KB f32, block i's K blocks at [i * KB, (i + 1) * KB).
inline int64_t bScaleStagingBytesPerConsumer(const GemmKernelConfig &c) {
  return GemmKernelConfig::roundUp(bScaleBlocksPerConsumer(c) * c.kBlocks() * 4,
                                   16);
}

/// Warpgroup wg's buffer starts at bScaleStagingOffset(c) + wg *
/// bScaleStagingBytesPerConsumer(c): after the barriers.
inline int64_t bScaleStagingOffset(const GemmKernelConfig &c) {
  return c.sharedMemoryBytes();
}

/// Whether the consumers stage the B scales. Staged: a static K with a
/// scale per K block and 128 x 128 B block, the lock-step promotion, room
/// for the short K-block path's registers (counted with a grouped kernel's
/// overhead: the configuration does not know the kernel's form), when the
/// buffers fit in what the ring leaves of the 227 KB. Left global:
/// per-column B scales (the Wgrad, k-grouped and swap-AB kernels, mxfp8,
/// whole-K scales: BLOCK_N scales per K block and tile, up to 64 KB at K =
/// 16384, which would cost stages), a run-time K (no bound on the buffer),
/// the overlapped promotion and the tiles at the register limit
/// (registers), and a K so long that the buffers would not fit.
inline bool bScalesStaged(const GemmKernelConfig &c) {
  if (c.hasBF16Operands() || c.bScalesPerColumn || c.hasDynamicK() ||
      c.promotionsPerBlock() > 1 || c.hasWholeKScales() || c.overlap != 0 ||
      c.consumers < 1)
    return false;
  if (c.consumerRegsNeeded() + kShortKBlockPathRegs +
          GemmKernelConfig::kGroupedConsumerOverheadRegs >
      c.consumerRegs)
    return false;
  return bScaleStagingOffset(c) +
             c.consumers * bScaleStagingBytesPerConsumer(c) <=
         GemmKernelConfig::kSharedMemoryLimit;
}

/// The kernel's dynamic shared memory: the ring and the barriers, and the
/// staged B scales where bScalesStaged() holds (only then).
inline int64_t gemmLaunchSharedMemoryBytes(const GemmKernelConfig &c) {
  int64_t staged =
      bScalesStaged(c) ? c.consumers * bScaleStagingBytesPerConsumer(c) : 0;
  return c.sharedMemoryBytes() + staged;
}

} // namespace fp8
} // namespace mlir

#endif // FP8_TARGET_HOPPER_GEMMBSCALESTAGING_H
