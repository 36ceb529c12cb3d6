//===- GemmCostModel.h - shape-aware GEMM kernel configuration --*- C++ -*-===//
//
// An analytical cost model of the sm_90a block-scaled FP8 GEMM kernel that
// fp8-lower-to-nvvm generates, and the configuration it chooses per problem
// shape and chip: BLOCK_M, BLOCK_N, stages, consumer warpgroups and the
// grouped tile order's group height. Only what the generator can emit is
// considered, and of that not clusters (measured at about half the speed of
// the same tiles without them on an H200). The datasheet terms (tensor-core
// peak, HBM, L2) are corrected by terms fitted to a configuration sweep on
// an H200 (docs/performance.md). The model and its sources are in
// docs/gpu-kernel.md ("Choosing the configuration").
//
// MLIR-free (standard C++ only), like GemmKernelConfig.h, so tools and the
// benchmark harness can evaluate it without the compiler.
//
//===----------------------------------------------------------------------===//
#ifndef FP8_TARGET_HOPPER_GEMMCOSTMODEL_H
#define FP8_TARGET_HOPPER_GEMMCOSTMODEL_H

#include "fp8/Target/Hopper/GemmKernelConfig.h"

#include <cstdint>
#include <string>

namespace mlir::fp8 {

/// The figures of one chip the model uses. Sources: NVIDIA H100 Tensor Core
/// GPU datasheet (SXM5: 132 SMs, 1979 dense FP8 TFLOPS, 3.35 TB/s HBM3, 50 MB
/// L2), NVIDIA H200 datasheet (same SMs and peak, 4.8 TB/s HBM3e), CUDA C++
/// Programming Guide, compute capability 9.0 (228 KB shared memory per SM,
/// 227 KB per block). The L2-to-SM bandwidth and the fixed latency are model
/// assumptions (docs/gpu-kernel.md), not datasheet figures; the last six
/// are measured: fitted to the generated kernels' times on an H200 (the
/// 2026-12-04 runs of docs/performance.md, 10 tiles on 8 shapes; of the
/// tiles timed on each sweep shape the model's fastest is within 5% of the
/// measured fastest, GemmCostModelTest), used for the H100 too (same SMs
/// and tensor cores, not measured there).
struct ChipSpec {
  const char *name;          // "h100-sxm", "h200"
  int64_t smCount;           // streaming multiprocessors
  int64_t sharedBytesPerSM;  // shared memory per SM
  double denseFp8Tflops;     // dense FP8 tensor-core peak, TFLOPS
  double hbmTBps;            // HBM bandwidth, TB/s
  double l2Bytes;            // L2 capacity, bytes
  double l2BytesPerClkPerSM; // assumed L2 -> SM bytes per clock per SM
  double fixedUs;            // assumed launch + pipeline-fill latency, us
  // Per tile and promotion: what the lock-step promotion exposes besides
  // its FFMAs (the wgmma drain, the scale loads, the barrier round trip), us.
  double promotionLatencyUs;
  double tileOverheadUs;    // per tile: epilogue and pipeline refill, us
  double offGranuleFactor;  // compute time when a consumer's columns are
                            // not a multiple of 64
  double columnSplitFactor; // compute time when consumers split columns
  double manyRowsFactor;    // compute time with 3 or 4 consumer row groups
  double clusterFactor;     // compute time of a kernel in clusters of 2
};

/// The chip named `name` ("h100-sxm" or "h200"), or nullptr.
const ChipSpec *lookupChip(const std::string &name);
/// The names lookupChip accepts, comma-separated (for diagnostics).
const char *knownChipNames();

/// The modelled cost of one configuration (all times in microseconds).
struct GemmCost {
  int64_t tiles = 0;       // BLOCK_M x BLOCK_N output tiles (a cluster's whole)
  int64_t ctas = 0;        // persistent grid: min(tiles, SMs), whole clusters
  int64_t waves = 0;       // tiles per busiest CTA: ceil(tiles / SMs)
  double lastWaveUtil = 0; // busy SMs in the last wave / SMs
  double computeUs = 0;    // tensor cores incl. lock-step promotion, per CTA
  double l2Us = 0;         // L2 -> SM operand traffic, per CTA
  double hbmUs = 0;        // HBM traffic of the whole kernel
  double hbmBytes = 0;
  double l2Bytes = 0; // L2 -> SM bytes (a multicast B share read once)
  double us = 0;      // modelled kernel time
  double tflops = 0;  // 2 M N K / us (useful FLOPs only)
};

/// The modelled cost of configuration `c` (its m, n, k the problem; m static)
/// on `chip`.
GemmCost modelGemmCost(const GemmKernelConfig &c, const ChipSpec &chip);

/// HBM bytes of A and B (codes and scales) when they do not stay in L2
/// across waves: for each wave of `smCount` consecutive tiles in the tile
/// order of `c` (GemmKernelConfig::tileCoords), the A rows and B columns
/// its tiles touch, each read once per wave (its CTAs run in step along K,
/// so one wave shares a panel through L2; the next wave finds it evicted
/// by the K sweep). Row-major order touches every B column each wave.
double gemmWaveOperandBytes(const GemmKernelConfig &c, int64_t smCount);

/// The grouped tile order's group height (GemmKernelConfig::groupM: a
/// power of two up to the tile rows) with the fewest gemmWaveOperandBytes
/// for the tiles of `c`, the smallest among equals; 1 (row-major) when A
/// and B fit in half of the chip's L2.
int64_t chooseGroupM(const GemmKernelConfig &c, const ChipSpec &chip);

/// The configuration the model chooses for M x N x K on `chip` (M static,
/// > 0), its cost, and, when it leaves SMs idle (fewer CTAs than SMs), why:
/// the best configuration with a CTA on every SM and its modelled time, or
/// that no legal tile gives that many. `blockMDivides` (non-zero): only
/// BLOCK_M that divide it (the contiguous grouped GEMM: one group per tile,
/// groups aligned to m_alignment rows). `groups` > 1: G masked groups of M
/// rows each, modelled as one GEMM of G * roundUp(M, BLOCK_M) rows (every
/// group's last tile padded); the returned config's m is that row count.
/// `grouped`: only configurations checkGroupedGemmKernelConfig accepts.
/// `bScalesPerColumn`: the kernel of b blocks [1, 128] (its register limit;
/// its B-scale bytes and scale products are counted). `scaleK` 32: the
/// mxfp8 kernel (a promotion per k32 step, four times the scales per K
/// block; the stages that fit its larger scale slots). `kSplits` > 1: the
/// split-K kernel of that many K ranges (the op's k_splits; 2-D only).
struct GemmChoice {
  GemmKernelConfig config;
  GemmCost cost;
  std::string fewerCtasReason; // empty when ctas == SMs
};
GemmChoice
chooseGemmConfigByModel(int64_t m, int64_t n, int64_t k, const ChipSpec &chip,
                        int64_t blockMDivides = 0, int64_t groups = 1,
                        bool grouped = false, bool bScalesPerColumn = false,
                        int64_t scaleK = 128, int64_t kSplits = 1,
                        GemmOperandType operands = GemmOperandType::fp8);

/// The most K ranges chooseKSplitsByModel considers.
constexpr int64_t kMaxModelKSplits = 8;

/// The split-K the model chooses for the 2-D kernel of M x N x K on `chip`
/// (M and K static, > 0; DeepSeek-V3 blocks, b per 128 x 128 block unless
/// `bScalesPerColumn`): S in 1..kMaxModelKSplits (at most the K blocks),
/// the S whose best tile (chooseGemmConfigByModel with that S) is
/// strictly faster than every smaller S's; 1, and nothing else considered,
/// when the unsplit choice runs more than one wave of tiles
/// (docs/gpu-kernel.md, "Split-K": in one wave each CTA's K loop is the
/// whole critical path, the decode case). fp8-choose-k-splits writes it on
/// the op; fp8-lower-to-nvvm then chooses the tile for it.
int64_t chooseKSplitsByModel(int64_t m, int64_t n, int64_t k,
                             const ChipSpec &chip,
                             bool bScalesPerColumn = false);

} // namespace mlir::fp8

#endif // FP8_TARGET_HOPPER_GEMMCOSTMODEL_H
