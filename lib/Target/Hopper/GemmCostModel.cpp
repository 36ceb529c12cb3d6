//===- GemmCostModel.cpp - shape-aware GEMM kernel configuration ---------===//
//
// The model (docs/gpu-kernel.md, "Choosing the configuration"): a persistent
// grid of min(tiles, SMs) CTAs; the busiest CTA computes ceil(tiles / SMs)
// tiles, each bounded by the slower of its tensor-core time (with the
// promotion the kernel does in lock-step after every K block, or, with the
// overlapped promotion, behind the next block's wgmma) and its
// operand traffic from L2; the whole kernel is also bounded by its HBM
// traffic (when the operands do not fit in L2, the A rows and B columns
// each wave touches, which the grouped tile order keeps few). The idea of
// choosing tiles by waves and last-wave utilisation is DeepGEMM's
// (csrc/jit_kernels/ heuristics); the time terms are this project's.
//
//===----------------------------------------------------------------------===//
#include "fp8/Target/Hopper/GemmCostModel.h"

#include <algorithm>
#include <cstdio>
#include <numeric>

using namespace mlir::fp8;

namespace {

// Dense FP8 FLOP per clock per SM of sm_90: 4 tensor cores x 1024 FP8 FMA
// (NVIDIA H100 Tensor Core GPU Architecture whitepaper); with the datasheet
// peak this gives the tensor-core clock (1.83 GHz on H100 SXM).
constexpr double kFp8FlopPerClkPerSM = 8192;
// FFMA lanes per SM per clock (4 SM sub-partitions x 32 lanes): the
// promotion acc += partial * (sa * sb) is one FFMA per accumulator element.
constexpr double kFfmaPerClkPerSM = 128;
// Shared-memory bytes per clock per SM (32 banks x 4 bytes): the TMA
// store's staging writes.
constexpr double kSharedBytesPerClkPerSM = 128;
// The generated kernel writes bf16 or f32; the model charges bf16, or,
// with the quantize epilogue, a code and 1/128 of an f32 scale; the BF16
// kernels' D is the f32 of their bf16 x bf16 -> f32 op.
constexpr double kOutBytes = 2;
double outBytes(const GemmKernelConfig &c) {
  if (c.hasBF16Operands())
    return 4;
  return c.quantizeEpilogue ? 1.0 + 4.0 / 128 : kOutBytes;
}

/// What the operands' type (GemmKernelConfig::operands) changes in the
/// model: FP8 codes of one byte with f32 block scales, promoted per K
/// block, at the dense FP8 rate; bf16 elements of two bytes (BLOCK_K 64:
/// 128 bytes per row and stage, as FP8's 128), no scales and no promotion
/// (the wgmma chain accumulates in place), at half the FP8 rate (wgmma
/// .k16 bf16 against .k32 FP8 in the same issue time: the dense BF16 peak,
/// 989 TFLOPS on an H200, is half the FP8 one). The bf16 terms are
/// assumptions until a device session times bf16 tiles.
struct OperandTerms {
  double elementBytes;    // bytes per A or B element
  double flopPerClkPerSM; // dense tensor-core FLOP per clock per SM
  bool scales;            // block scales read and promoted per K block
};
OperandTerms operandTerms(const GemmKernelConfig &c) {
  if (c.hasBF16Operands())
    return {2.0, kFp8FlopPerClkPerSM / 2, false};
  return {1.0, kFp8FlopPerClkPerSM, true};
}

// The measured terms (ChipSpec): least squares on the logarithm of the
// times of the 2026-12-04 H200 sweep (docs/performance.md); clusterFactor
// is that sweep's ratio of 128x128 tiles with and without clusters (0.41 to
// 0.55 of the speed), measured before the cause was found and fixed (a
// cluster-scope release per consumer warp and stage; since then 1.01x on
// the one shape timed). The model offers no cluster candidates, so the
// factor only prices an explicit cluster=2 until a sweep re-fits it.
const ChipSpec kChips[] = {
    {"h100-sxm", 132, 228 * 1024, 1979.0, 3.35, 50e6, 64.0, 1.0, 0.12, 1.5,
     1.12, 1.12, 1.28, 2.0},
    {"h200", 132, 228 * 1024, 1979.0, 4.8, 50e6, 64.0, 1.0, 0.12, 1.5, 1.12,
     1.12, 1.28, 2.0},
};

} // namespace

const ChipSpec *mlir::fp8::lookupChip(const std::string &name) {
  for (const ChipSpec &c : kChips)
    if (name == c.name)
      return &c;
  return nullptr;
}

const char *mlir::fp8::knownChipNames() { return "h100-sxm, h200"; }

double mlir::fp8::gemmWaveOperandBytes(const GemmKernelConfig &c,
                                       int64_t smCount) {
  const int64_t mT = c.mTiles(), nT = c.nTiles(), tiles = c.tiles();
  const int64_t g = c.groupM, perGroup = g * nT;
  const OperandTerms op = operandTerms(c);
  const double kb = static_cast<double>(c.kBlocks());
  const double kPad = kb * c.blockK * op.elementBytes;
  // Bytes per row of A (codes and its f32 scale per K block) and per row of
  // B (codes and a 128th of its scale row, or a whole scale row when B has
  // per-column scales); bf16 rows without scales.
  const double scales = op.scales ? 1.0 : 0.0;
  const double aRow = kPad + scales * kb * 4,
               bRow =
                   kPad + scales * kb * 4 / (c.bScalesPerColumn ? 1.0 : 128.0);
  // The bytes of the wave of tiles [w0, min(tiles, w0 + smCount)).
  auto waveBytes = [&](int64_t w0) {
    const int64_t w1 = std::min(tiles, w0 + smCount);
    int64_t rows = 0, cols = 0;
    // The wave's tiles, one segment per group it touches: inside a group
    // of height h the tiles run column by column, so r0..r1 touch
    // min(h, r1 - r0) rows and the columns r0 / h .. (r1 - 1) / h.
    for (int64_t t = w0; t < w1;) {
      const int64_t grp = t / perGroup, first = grp * g;
      const int64_t h = std::min(g, mT - first);
      const int64_t end = std::min(w1, (grp + 1) * perGroup);
      const int64_t r0 = t - grp * perGroup, r1 = end - grp * perGroup;
      rows += std::min(h, r1 - r0);
      cols += (r1 - 1) / h - r0 / h + 1;
      t = end;
    }
    // Segments of different groups may share columns: at most all of them.
    cols = std::min(cols, nT);
    return static_cast<double>(std::min(rows * c.blockM, c.m)) * aRow +
           static_cast<double>(std::min(cols * c.blockN, c.n)) * bRow;
  };
  // A wave inside the whole groups (height g) touches what its start's
  // place in its group decides: the waves' bytes repeat every
  // perGroup / gcd(perGroup, smCount) waves. The model sums one period and
  // multiplies, so its work does not grow with M (it was one step per
  // wave: 27 s for one GEMM of 2^30 rows); the waves that reach the last,
  // shorter group or the end are summed one by one.
  const int64_t waves = GemmKernelConfig::ceilDiv(tiles, smCount);
  const int64_t inWholeGroups = mT / g * perGroup / smCount;
  const int64_t period = perGroup / std::gcd(perGroup, smCount);
  double bytes = 0;
  int64_t w = 0;
  if (inWholeGroups >= 2 * period) {
    double once = 0;
    for (; w < period; ++w)
      once += waveBytes(w * smCount);
    const int64_t repeats = inWholeGroups / period;
    bytes = once * static_cast<double>(repeats);
    w = repeats * period;
  }
  for (; w < waves; ++w)
    bytes += waveBytes(w * smCount);
  return bytes;
}

int64_t mlir::fp8::chooseGroupM(const GemmKernelConfig &c,
                                const ChipSpec &chip) {
  // Operands that fit in half of L2 are read once in any order.
  const OperandTerms op = operandTerms(c);
  const double kb = static_cast<double>(c.kBlocks()),
               kPad = kb * c.blockK * op.elementBytes;
  const double scales = op.scales ? kb * 4 : 0.0;
  const double operands = static_cast<double>(c.m) * (kPad + scales) +
                          static_cast<double>(c.n) * kPad +
                          static_cast<double>(c.bScaleRows()) * scales;
  if (operands <= chip.l2Bytes / 2)
    return 1;
  int64_t best = 1;
  double bestBytes = 0;
  for (int64_t g = 1; g <= c.mTiles() && g <= 4096; g *= 2) {
    GemmKernelConfig x = c;
    x.groupM = g;
    double bytes = gemmWaveOperandBytes(x, chip.smCount);
    // Strictly fewer bytes: the smallest group of the minimum.
    if (g == 1 || bytes < bestBytes * (1 - 1e-12)) {
      best = g;
      bestBytes = bytes;
    }
  }
  return best;
}

/// The K blocks of a work unit whose promotion the overlapped schedule
/// hides behind the next block's wgmma: all but each trip's last (drained)
/// and the lock-step remainder; 0 in lock-step. Split-K: the trips of the
/// longest unit's ceil(KB / S) blocks (each unit's K loop runs over its
/// own range: trips of U, then its remainder).
static int64_t overlappedKBlocks(const GemmKernelConfig &c) {
  if (!c.overlap)
    return 0;
  const int64_t trips =
      GemmKernelConfig::ceilDiv(c.kBlocks(), c.kSplits) / c.overlap;
  return trips * (c.overlap - 1);
}

GemmCost mlir::fp8::modelGemmCost(const GemmKernelConfig &c,
                                  const ChipSpec &chip) {
  GemmCost r;
  const double sms = static_cast<double>(chip.smCount);
  // Clusters run whole: smCount / cluster of them at a time (at least one),
  // each on a cluster tile (the last one's trailing CTAs idle past M).
  // Split-K: kSplits work units per tile, each over its range of K
  // blocks (the longest: ceil(KB / S)).
  const int64_t slots = c.clusterSlots(chip.smCount);
  r.tiles = c.clusterTiles() * c.cluster;
  r.ctas = c.gridSize(chip.smCount);
  r.waves = GemmKernelConfig::ceilDiv(c.workUnits(), slots);
  int64_t last = c.workUnits() % slots;
  r.lastWaveUtil = (last == 0 ? slots : last) * c.cluster / sms;

  const OperandTerms op = operandTerms(c);
  const double fp8PeakPerSM = chip.denseFp8Tflops * 1e12 / sms; // FLOP/s
  const double clockHz = fp8PeakPerSM / kFp8FlopPerClkPerSM;
  const double peakPerSM = op.flopPerClkPerSM * clockHz;
  const double kb = static_cast<double>(c.kBlocks());
  const double kbUnit =
      static_cast<double>(GemmKernelConfig::ceilDiv(c.kBlocks(), c.kSplits));
  const double splits = static_cast<double>(c.kSplits);
  const double bm = static_cast<double>(c.blockM);
  const double bn = static_cast<double>(c.blockN);
  // Tensor cores compute whole tiles (padded rows and columns included);
  // the consumers promote in lock-step, so the FFMAs add to the wgmma time.
  double wgmmaS = 2.0 * bm * bn * c.blockK / peakPerSM;
  // Per-column B scales: each element's scale product is its own FMUL
  // (sa[row] * sb[col]) besides the FFMA; block scales share one product
  // per row and block.
  // mxfp8 (scale_k = 32) promotes after every k32 step: four times the
  // FFMAs and scale products per K block.
  // bf16: none (no scales; the chain accumulates in wgmma's registers).
  const double promotions =
      op.scales ? static_cast<double>(c.promotionsPerBlock()) : 0.0;
  double promoteS = promotions * (c.bScalesPerColumn ? 2.0 : 1.0) * bm * bn /
                    kFfmaPerClkPerSM / clockHz;
  // Measured on silicon (ChipSpec): each promotion's exposed latency, and
  // the slower forms (a consumer's columns off the 64 granule, consumers
  // splitting columns, 3 or 4 row groups, clusters).
  // Two m64 waves per consumer (c.waves = 2): each wave's chain, wait and
  // promotion in turn, so a K block exposes the promotion latency once
  // per wave. An assumption (not timed on silicon): the wgmma and FFMA
  // terms are the tile's as for one wave per consumer (the same rows and
  // columns), and no other term changes; the B tile's L2 reads per FLOP
  // halve through BLOCK_M 256 alone (tileL2Bytes below).
  double promoteLatencyS = promotions * static_cast<double>(c.waves) *
                           chip.promotionLatencyUs * 1e-6;
  double blockS = wgmmaS + promoteS + promoteLatencyS;
  // The overlapped promotion (c.overlap = U): block k's promotion runs
  // while block k + 1's wgmma chain does, so a block costs the slower of
  // the two; each trip's last block (the drain before the back edge) and
  // the KB mod U blocks after the last trip stay in lock-step. Not fitted
  // on silicon yet: no overlapped kernel has been timed.
  double overlappedBlockS = std::max(wgmmaS, promoteS + promoteLatencyS);
  for (double *s : {&blockS, &overlappedBlockS}) {
    if (c.consumerN() % 64 != 0)
      *s *= chip.offGranuleFactor;
    if (c.colSplits() > 1)
      *s *= chip.columnSplitFactor;
    if (c.rowGroups() > 2)
      *s *= chip.manyRowsFactor;
    if (c.cluster > 1)
      *s *= chip.clusterFactor;
  }
  const double overlapped = static_cast<double>(overlappedKBlocks(c));
  double tileComputeS = (kbUnit - overlapped) * blockS +
                        overlapped * overlappedBlockS +
                        chip.tileOverheadUs * 1e-6;
  // Split-K: each unit also stores its partial tile, and a tile's last
  // unit adds the S partials (one more epilogue's worth per tile, spread
  // over its units: not measured, charged as a tile overhead).
  if (c.kSplits > 1)
    tileComputeS += chip.tileOverheadUs * 1e-6 / splits;
  // L2 -> SM bytes of a tile: the in-bounds rows of A and B (TMA zero-fills
  // out-of-bounds boxes without reading), the A scales, and the output. A
  // cluster's CTAs each read 1 / cluster of the B tile from L2 (multicast).
  double rowsA = static_cast<double>(std::min(c.blockM, c.m));
  double colsB = static_cast<double>(std::min(c.blockN, c.n));
  double colsBRead = colsB / static_cast<double>(c.cluster);
  // Per-column B scales add the tile's columns' scales per K block.
  // Split-K: a unit's K range, its f32 partial tile written, and 1 / S of
  // the reduction's S partials read back.
  const double partialBytes = c.kSplits > 1 ? 4.0 * bm * bn * 2 : 0.0;
  double tileL2Bytes =
      kbUnit * (rowsA + colsBRead) * c.blockK * op.elementBytes +
      promotions * kbUnit * bm * 4 +
      (c.bScalesPerColumn ? promotions * kbUnit * bn * 4 : 0.0) +
      (rowsA * colsB * outBytes(c)) / splits + partialBytes;
  double tileL2S = tileL2Bytes / (chip.l2BytesPerClkPerSM * clockHz);
  r.l2Bytes = tileL2Bytes * static_cast<double>(r.tiles) * splits;
  r.computeUs = r.waves * tileComputeS * 1e6;
  // The TMA-store epilogue (c.tmaStore): the tile's D written to shared
  // memory (the staging, at an assumed 128 B per clock per SM) and stored
  // by cp.async.bulk behind the next tile's K loop, instead of the
  // registers' st.global (inside the fitted tileOverheadUs: assumed the
  // tile's output at the L2 -> SM rate). Only the CTA's last tile waits
  // for its store (the exit wait). The staging's shared memory costs
  // stages (fitStages: 4 at 128x128), which the model does not price: it
  // assumes the ring still hides the loads. Not timed on silicon. The
  // quantize epilogue's TMA store moves the codes (one byte each); its
  // scales stay on st.global in both forms.
  if (c.tmaStore) {
    const double storedBytes = c.quantizeEpilogue ? 1.0 : outBytes(c);
    const double outTile = rowsA * colsB * storedBytes;
    const double storeS = outTile / (chip.l2BytesPerClkPerSM * clockHz);
    const double stagingS = outTile / (kSharedBytesPerClkPerSM * clockHz);
    r.computeUs += (r.waves * (stagingS - storeS) + storeS) * 1e6;
  }
  r.l2Us = r.waves * tileL2S * 1e6;

  // HBM: D once; A and B (and their scales) once when they fit in half of
  // L2, else what each wave reads (gemmWaveOperandBytes): the tile order
  // decides how many A rows and B columns a wave touches.
  const double m = static_cast<double>(c.m), n = static_cast<double>(c.n);
  const double kPad = kb * c.blockK * op.elementBytes;
  const double scaleRows = kb * promotions;
  double aBytes = m * kPad + m * scaleRows * 4;
  double bBytes = n * kPad + c.bScaleRows() * scaleRows * 4;
  double operands = aBytes + bBytes;
  if (operands > chip.l2Bytes / 2)
    operands = gemmWaveOperandBytes(c, chip.smCount);
  r.hbmBytes = operands + m * n * outBytes(c);
  // Split-K's workspace: written and read once, through HBM when it does
  // not stay in half of L2.
  const double workspace = 2.0 * static_cast<double>(c.splitKPartialBytes());
  if (workspace > chip.l2Bytes / 2)
    r.hbmBytes += workspace;
  r.hbmUs = r.hbmBytes / (chip.hbmTBps * 1e12) * 1e6;

  // Split-K's launch also zeroes the arrival counters (a memset on the
  // stream before the kernel): assumed one more fixed latency, unmeasured.
  r.us = std::max({r.computeUs, r.l2Us, r.hbmUs}) + chip.fixedUs +
         (c.kSplits > 1 ? chip.fixedUs : 0.0);
  r.tflops = 2.0 * m * n * static_cast<double>(c.k) / (r.us * 1e-6) / 1e12;
  return r;
}

namespace {

/// Every configuration the generator accepts for the shape: BLOCK_M 64, 128
/// or 256 (one consumer warpgroup per 64 rows), BLOCK_N a multiple of 16 in
/// 16..256, as many stages as fit (at most 8, at least 2 for a pipeline).
/// Not clusters: on an H200 the cluster kernels ran at about half the speed
/// of the same tiles alone (docs/performance.md); `cluster = 2` stays an
/// explicit option.
template <typename Fn>
void forEachCandidate(int64_t m, int64_t n, int64_t k, int64_t blockMDivides,
                      bool grouped, bool bScalesPerColumn, int64_t kSplits,
                      GemmOperandType operands, Fn fn) {
  for (int64_t bm : {64, 128, 256}) {
    if (blockMDivides && blockMDivides % bm != 0)
      continue;
    for (int64_t bn = 16; bn <= 256; bn += 16) {
      GemmKernelOverrides o;
      o.blockM = bm;
      o.blockN = bn;
      GemmKernelConfig c =
          makeGemmKernelConfig(m, n, k, o, bScalesPerColumn, operands);
      c.kSplits = kSplits;
      if (c.stages < 2 || *(grouped ? checkGroupedGemmKernelConfig(c)
                                    : checkGemmKernelConfig(c)) != '\0')
        continue;
      fn(c);
    }
  }
}

/// Strictly better: faster; at equal modelled time (an HBM-bound kernel),
/// more CTAs (more SMs issuing loads hide more latency than the bandwidth
/// term assumes), then fewer HBM bytes, then fewer tiles, then the smaller
/// BLOCK_M, then fewer L2 -> SM bytes. Deterministic.
bool better(const GemmKernelConfig &c, const GemmCost &x,
            const GemmKernelConfig &bc, const GemmCost &y) {
  const double eps = 1e-9 * std::max(x.us, y.us);
  if (x.us < y.us - eps)
    return true;
  if (x.us > y.us + eps)
    return false;
  if (x.ctas != y.ctas)
    return x.ctas > y.ctas;
  if (x.hbmBytes != y.hbmBytes)
    return x.hbmBytes < y.hbmBytes;
  if (x.tiles != y.tiles)
    return x.tiles < y.tiles;
  if (c.blockM != bc.blockM)
    return c.blockM < bc.blockM;
  return x.l2Bytes < y.l2Bytes;
}

} // namespace

GemmChoice mlir::fp8::chooseGemmConfigByModel(
    int64_t m, int64_t n, int64_t k, const ChipSpec &chip,
    int64_t blockMDivides, int64_t groups, bool grouped, bool bScalesPerColumn,
    int64_t scaleK, int64_t kSplits, GemmOperandType operands) {
  GemmChoice best;
  bool have = false;
  GemmChoice bestWide; // the best that launches a CTA on every SM
  bool haveWide = false;
  int64_t mostTiles = 0;
  const int64_t wide = chip.smCount;
  forEachCandidate(
      m, n, k, blockMDivides, grouped, bScalesPerColumn, kSplits, operands,
      [&](GemmKernelConfig c) {
        // G masked groups of m rows: G * roundUp(m, BLOCK_M) rows, the tiles
        // the launch computes (a group's last tile is padded on its own).
        if (groups > 1)
          c.m = groups * GemmKernelConfig::roundUp(m, c.blockM);
        // A grouped (MoE) kernel keeps the row-major order inside its groups:
        // a masked group's tiles are consecutive already (one B[g] per group).
        c.groupM = grouped ? 1 : chooseGroupM(c, chip);
        // mxfp8's A scales take promotionsPerBlock() times the slot's scale
        // area: the stages that still fit.
        c.scaleK = scaleK;
        fitStages(c);
        if (*checkGemmKernelConfig(c)) // mxfp8's registers and ring
          return;
        // Each tile in lock-step, then overlapped by 8 K blocks where the
        // kernel's check accepts it (two consumers of 112 to 128 columns:
        // the tiles ptxas 13.0 holds without spills). Not by 4: it hides
        // fewer blocks and fits only tiles of at most 64 columns, whose
        // time the model has not seen on silicon. Lock-step first: at equal
        // modelled time (fewer than 8 K blocks, no trip) it stays.
        for (int64_t overlap : {0, 8}) {
          c.overlap = overlap;
          if (overlap && *(grouped ? checkGroupedGemmKernelConfig(c)
                                   : checkGemmKernelConfig(c)))
            continue;
          GemmCost cost = modelGemmCost(c, chip);
          mostTiles = std::max(mostTiles, cost.tiles);
          if (!have || better(c, cost, best.config, best.cost)) {
            best.config = c;
            best.cost = cost;
            have = true;
          }
          if (cost.ctas >= wide &&
              (!haveWide || better(c, cost, bestWide.config, bestWide.cost))) {
            bestWide.config = c;
            bestWide.cost = cost;
            haveWide = true;
          }
        }
      });
  if (!have) { // unreachable for m, n, k > 0: 64x16 with 2 stages fits
    best.config = chooseGemmKernelConfig(m, n, k, operands);
    best.config.bScalesPerColumn = bScalesPerColumn;
    best.config.scaleK = scaleK;
    best.config.kSplits = kSplits;
    fitStages(best.config);
    best.cost = modelGemmCost(best.config, chip);
  }
  if (best.cost.ctas < wide) {
    char buf[256];
    if (haveWide)
      std::snprintf(buf, sizeof(buf),
                    "%lld CTAs: the best configuration with >= %lld CTAs "
                    "(%lldx%lld) models %.2f us against %.2f us",
                    static_cast<long long>(best.cost.ctas),
                    static_cast<long long>(wide),
                    static_cast<long long>(bestWide.config.blockM),
                    static_cast<long long>(bestWide.config.blockN),
                    bestWide.cost.us, best.cost.us);
    else
      std::snprintf(buf, sizeof(buf),
                    "%lld CTAs: no legal tile gives >= %lld CTAs (at most "
                    "%lld tiles, 64x16)",
                    static_cast<long long>(best.cost.ctas),
                    static_cast<long long>(wide),
                    static_cast<long long>(mostTiles));
    best.fewerCtasReason = buf;
  }
  return best;
}

int64_t mlir::fp8::chooseKSplitsByModel(int64_t m, int64_t n, int64_t k,
                                        const ChipSpec &chip,
                                        bool bScalesPerColumn) {
  GemmChoice best =
      chooseGemmConfigByModel(m, n, k, chip, 0, 1, false, bScalesPerColumn);
  // Several waves of tiles (prefill, training): their split is not
  // considered, so their choice stays the unsplit one. In one wave every
  // CTA's K loop is the kernel's critical path: split it.
  if (best.cost.waves > 1)
    return 1;
  int64_t bestSplits = 1;
  const int64_t kBlocks = GemmKernelConfig::ceilDiv(k, 128);
  for (int64_t s = 2; s <= kMaxModelKSplits && s <= kBlocks; ++s) {
    GemmChoice c = chooseGemmConfigByModel(m, n, k, chip, 0, 1, false,
                                           bScalesPerColumn, 128, s);
    if (*checkGemmKernelConfig(c.config))
      continue;
    // Strictly faster than the best so far (the smaller S at equal time).
    if (c.cost.us < best.cost.us * (1 - 1e-9)) {
      best = c;
      bestSplits = s;
    }
  }
  return bestSplits;
}
