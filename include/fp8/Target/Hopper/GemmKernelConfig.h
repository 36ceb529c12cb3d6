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
//   1 tmapB:  CUtensorMap of B codes [N, K] u8, box {128 (K), blockN /
//             cluster} (in a cluster each CTA loads its share of the B
//             tile for all: bBoxRows), 128B swizzle
//   2 tmapSA: CUtensorMap of A scales, transposed and padded: f32 [KB, Mpad]
//             (K-block major, Mpad = roundUp(M, 4) so rows are 16-byte
//             aligned as TMA requires), box {blockM, 1}, no swizzle
//   3 sb:     f32 [ceil(N/128), KB] B scales, row-major (plain loads);
//             for per-column B scales (b blocks [1, 128], the Wgrad GEMM,
//             kernels named ..._b1x128: bScalesPerColumn) transposed and
//             zero-padded, f32 [KB, Np], Np = ceil(N / blockN) * blockN
//             (every column a tile covers: bScaleColumns), so a thread's
//             two adjacent columns are one aligned 8-byte load at a
//             constant offset from its first, with no clamp
//   4 d:      [M, N] bf16 or f32 output, row-major; with the quantize
//             epilogue (quantizeEpilogue) q: [M, N] FP8 codes (one byte
//             each) of D quantized in 1x128 tiles along N; with the TMA
//             store (tmaStore) a CUtensorMap of D, box {128 bytes (64 bf16
//             or 32 f32 columns), 64 rows}, 128B swizzle, or with both a
//             CUtensorMap of the codes (u8), box {128 columns, 64 rows},
//             128B swizzle
//   5 m:      i32, the number of rows M at run time. A kernel compiled for
//             a static M ignores it; a dynamic-M kernel (one per N, K and
//             types, taking any M: `m == kDynamicM` in its configuration)
//             computes its tile count and row masks from it.
//   6 c:      (kernels named ..._acc<c> only) [M, N] bf16 or f32 accumulator
//             operand C, row-major: the accumulators' initial value.
//   next ids: (grouped kernels) i32: masked counts [G], contiguous group
//             index [M], k_grouped group_ids [T] (K = T tokens; group g's
//             tokens one run of whole K blocks, -1 padding; A [M, T] and B
//             [N, T] 2-D maps, per-column B scales [KB, Np], d and c
//             [G, M, N]).
//   last k:   (dynamic-K kernels only, `k == kDynamicK`: the Wgrad GEMM
//             over a run-time token count) i32, the codes' row length at
//             run time (K, or K padded to 16); the kernel runs ceil(k / 128)
//             K blocks, so k = 0 runs none (the launcher does not launch
//             then: a tensor map cannot describe an empty extent).
//   last g:   (the bf16 batch kernel of a run-time batch count only,
//             #fp8.gemm_kernel groups = ?, after c) i32, G at run time: the
//             grid's tile count is G times the tiles of one batch.
//   last s:   (quantize-epilogue kernels only) f32 [M, ceil(N / 128)],
//             the dequantization scale of each 1x128 tile of D (after k).
//   ws, cnt:  (split-K kernels only, kSplits > 1, after c) f32 partial
//             tiles [kSplits, tiles, accRegs, consumer threads] and u32
//             arrival counters [tiles, consumer threads], zero at launch
//             (splitKPartialBytes, splitKCounterBytes; the launcher
//             allocates, zeroes the counters and frees them).
// Out-of-bounds TMA elements are zero-filled (K, M and N tails). The host
// pads the rows of the codes to a multiple of 16 bytes with zero codes when
// K is not one (TMA global strides), so the A/B maps describe [*, Kp].
//
//===----------------------------------------------------------------------===//
#ifndef FP8_CONVERSION_GEMMKERNELCONFIG_H
#define FP8_CONVERSION_GEMMKERNELCONFIG_H

#include <cstdint>
#include <string>

namespace mlir {
namespace fp8 {

/// The element type of a GEMM kernel's A and B operands: the block-scaled
/// FP8 codes, or bf16 (the contractions a training step keeps in high
/// precision: linalg.matmul with bf16 operands and an f32 result).
enum class GemmOperandType { fp8, bf16 };

/// How a GEMM kernel's operand lies in global memory, as wgmma reads it
/// from shared memory: K-major (K the contiguous dimension: A [M, K], B
/// [N, K] row-major) or MN-major (M or N contiguous: A [K, M], B [K, N]
/// row-major, wgmma's transpose, imm-trans-a / imm-trans-b = 1). Only
/// wgmma's .f16/.bf16 forms transpose (PTX ISA, wgmma.mma_async): FP8
/// operands are K-major.
enum class GemmOperandMajor { k, mn };

struct GemmKernelConfig {
  /// The `m` of a kernel compiled for a run-time M.
  static constexpr int64_t kDynamicM = -1;
  /// The `k` of a kernel compiled for a run-time K (its last parameter).
  static constexpr int64_t kDynamicK = -1;

  int64_t m = 0, n = 0, k = 0;
  /// bf16 operands (the BF16 variant, docs/gpu-kernel.md): no scales, no
  /// promotion. The wgmma accumulator starts from C and is chained over all
  /// of K with one wgmma .m64nNk16 per 16 K elements; a stage holds 64 K
  /// elements (blockK = kBF16BlockK), 128 bytes per row as for FP8, so the
  /// ring, the 128B swizzle and A's K-major descriptors are the FP8
  /// kernel's. B is the [K, N] row-major operand, read MN-major (wgmma's
  /// transpose of B) from TMA boxes of 64 columns (128 bytes) x 64 K rows.
  /// The ABI's A-scale map and B scales (parameters 2 and 3) are unused.
  GemmOperandType operands = GemmOperandType::fp8;
  /// The operands' majors (bf16 only; FP8 operands are K-major). The bf16
  /// kernel's defaults are A K-major and B MN-major (the [M, K] x [K, N]
  /// of a linalg.matmul, chooseGemmKernelConfig); the other majors read a
  /// transposed operand's source in place (A [K, M]: boxes of 64 M columns
  /// x 64 K rows as B's MN-major boxes, one per 64 rows of the tile; B
  /// [N, K]: the FP8 kernel's K-major box of blockN rows x 128 bytes), so
  /// a graph's transpose before the GEMM needs no kernel of its own.
  GemmOperandMajor aMajor = GemmOperandMajor::k;
  GemmOperandMajor bMajor = GemmOperandMajor::k;
  /// The batch kernel's operands read through a head view (bf16 only;
  /// 1: packed [G, rows, cols]). With H > 1 the operand is the [B, rows,
  /// H, cols] row-major source of a graph's head permutation (attention's
  /// [B, S, H, D] -> [B, H, S, D], then the batch dimensions collapsed:
  /// G = B x H), read in place through a rank-4 TMA map of dimensions
  /// (B, H, rows, cols) whose strides are the source's (rows x H x cols,
  /// cols, H x cols, 1 elements): batch g is the map's coordinates (b, h)
  /// = (g / H, g % H), so the permutation needs no kernel of its own.
  /// `rows` and `cols` are the operand's as its major says ([M, K] or [K,
  /// M] for A, [K, N] or [N, K] for B).
  int64_t aHeads = 1;
  int64_t bHeads = 1;
  /// The batch kernel's result D written through a head view (1: packed
  /// [G, M, N]). With H > 1 D is [B, M, H, N] row-major, the layout of
  /// attention's permutation back ([B, H, S, D] -> [B, S, H, D]) of the
  /// batch's result: batch g = b x H + h writes its row r at row (b x M +
  /// r) x H + h of [B x M x H, N], so that permutation needs no kernel of
  /// its own. The stores are the epilogue's per-thread st.global (a batch
  /// kernel has no TMA store), masked to M rows as the packed D.
  int64_t dHeads = 1;
  /// K elements per stage of a bf16 kernel: one 128-byte swizzle row.
  static constexpr int64_t kBF16BlockK = 64;
  /// Columns of one MN-major B box of a bf16 kernel (128 bytes).
  static constexpr int64_t kBF16BoxColumns = 64;
  int64_t blockM = 128;  // rows per CTA tile: 64 x waves per row group
  int64_t blockN = 128;  // columns per CTA tile
  int64_t blockK = 128;  // K per stage = one promotion interval
  int64_t consumers = 2; // consumer (math) warpgroups
  int64_t stages = 6;    // shared-memory ring depth
  /// Tile order: tiles are taken in groups of `groupM` rows of tiles, each
  /// group swept column by column (tileCoords); 1 is the row-major order.
  /// A wave of the persistent grid then covers a near-square block of
  /// tiles, so the operand panels it reads from HBM are shared by more of
  /// its CTAs through L2 (GemmCostModel.h chooses the group).
  int64_t groupM = 1;
  /// CTAs per cluster (1 or 2): the CTAs of a cluster compute vertically
  /// adjacent tiles (rows [(cluster * mt' + rank) * BLOCK_M, +BLOCK_M), the
  /// same columns), so they need the same B tile: each CTA's producer loads
  /// BLOCK_N / cluster of its rows with TMA multicast into every CTA of the
  /// cluster (`.multicast::cluster`, ctaMask all ranks), halving B's L2
  /// reads. The persistent loop then walks cluster tiles (clusterMTiles()
  /// rows of them), and a slot is refilled only after the consumers of
  /// every CTA released it (the empty barriers count the peers' remote
  /// arrivals). DeepGEMM's SM90 kernels multicast the same way (a public
  /// design; no code taken).
  int64_t cluster = 1;
  int64_t producerRegs = 40, consumerRegs = 232; // setmaxnreg targets
  /// B scales per column ([1, 128] blocks: one per column and K block, the
  /// Wgrad GEMM of training, DeepGEMM's "1D-1D" kernel) instead of per
  /// 128 x 128 block. Each consumer thread then holds the scales of its
  /// consumerN / 4 fragment columns for a K block (kernel ABI above).
  bool bScalesPerColumn = false;
  /// The K elements one scale covers: blockK (a scale per K block), or K
  /// (`scaleK == k`, one scale along the whole K: the rowwise and
  /// per-tensor presets, with per-column B scales). Then the A scales are
  /// [1, Mpad] and the per-column B scales [1, Np] (kernel ABI above, KB =
  /// 1), and the kernel reads K block 0's scales at every K block. Or
  /// kMxScaleK (mxfp8's 1x32 blocks, per-column B scales): the A scales
  /// are [K / 32, Mpad], the B scales [K / 32, Np], and the consumers
  /// promote after every wgmma k32 step (promotionsPerBlock() per K block).
  int64_t scaleK = 128;
  /// The quantize epilogue: instead of storing D, the consumers round it to
  /// D's element type, reduce each row's amax over every 1x128 tile along N
  /// (the four lanes of a fragment quad, WgmmaFragment.h) and store its
  /// FP8 codes and f32 scale, as fp8.quantize with [1, 128] blocks would
  /// from the stored D (DeepSeek-V3 §3.3.2 activation tiles): one HBM round
  /// trip of D fewer when the GEMM feeds only the next FP8 linear. A tile
  /// lies in one consumer's columns (consumerN() a multiple of 128).
  bool quantizeEpilogue = false;
  /// The promotion's schedule: 0, lock-step (after each K block's wgmma
  /// chain, `wgmma.wait_group 0`, then the FFMAs, the tensor cores idle
  /// meanwhile); or U (4 or 8), overlapped: two partial sets, block k's
  /// promotion runs while block k + 1's wgmma chain does (`wgmma.wait_group
  /// 1`, then block k's slot is released), and the K loop is unrolled by U
  /// blocks per trip and drained (`wgmma.wait_group 0`) before its back
  /// edge: ptxas cannot follow a wgmma left in flight across a back edge
  /// and serializes every wgmma then (info C7514). The KB mod U blocks
  /// after the last trip run in lock-step. The promotion order per output
  /// is the same, so the result is too.
  int64_t overlap = 0;
  /// The TMA-store epilogue: each consumer warpgroup writes its 64 x
  /// consumerN() slice of D (rounded to D's type) into its own staging
  /// buffer in shared memory (stmatrix for bf16, st.shared.v2.f32 for f32,
  /// 128B-swizzled boxes of 64 rows x 128 bytes), and one thread of it
  /// stores the boxes with cp.async.bulk.tensor (TMA clips them at M and
  /// N). The buffer is reused at the warpgroup's next tile after
  /// cp.async.bulk.wait_group.read 0, so the store overlaps the next
  /// tile's main loop. With the quantize epilogue the staging holds the
  /// FP8 codes (st.shared.b16 of each code pair, boxes of 64 rows x 128
  /// codes; the scales stay on st.global). The 2-D kernel only (not a
  /// grouped kernel).
  bool tmaStore = false;
  /// Split-K (the op's `k_splits`, docs/gpu-kernel.md "Split-K"): each
  /// tile's K blocks are cut into kSplits contiguous ranges (KSplit.h) and
  /// the persistent loop walks kSplits x tiles work units, split-major. A
  /// unit promotes its range into its own accumulators (split 0 from C,
  /// the others from +0.0) and stores them as an f32 partial tile in the
  /// workspace; each consumer thread then counts its arrival on its own
  /// counter of the tile (fence.acq_rel.gpu, atom.add), and the thread that
  /// arrives last adds the kSplits partials of its registers in split
  /// order and stores D as the store epilogue does. 1: no split. Only the
  /// 2-D store epilogue on st.global, lock-step or overlapped (no quantize
  /// epilogue, TMA store, clusters, grouped forms, run-time M or K, bf16
  /// operands).
  int64_t kSplits = 1;
  /// m64 waves per consumer warpgroup (1 or 2): with 2, a consumer
  /// warpgroup owns 128 rows of the tile as two waves of 64 (wgmma m64)
  /// that reuse one partial set. Per K block, for wave v = 0, 1: the wgmma
  /// chain of the wave's rows into the partial set, `wgmma.wait_group 0`,
  /// then its promotion into the wave's own accumulators with the A scales
  /// of its rows (acc_v = fma(partial, sa_v * sb, acc_v)). The registers
  /// hold waves x consumerN / 2 accumulators and one consumerN / 2 partial:
  /// a 256 x 128 tile on two consumers of 232 registers (consumerN 128:
  /// 192), where one wave per consumer needs four consumers of 104 and at
  /// most 88 columns. Each output's promotions are the same sequence, so D
  /// is too. The 2-D FP8 kernel with 128 x 128 B blocks, a scale per K
  /// block, the lock-step promotion and the st.global store epilogue only
  /// (checkWavesGemmKernelConfig). At most kWavesMaxConsumerN columns
  /// per consumer.
  int64_t waves = 1;
  /// The widest consumer (block-n / splits) of the two-wave kernel:
  /// measured with ptxas -v (CUDA 13, 4096 x 7168 x 7168 and a run-time M,
  /// test/Conversion/FP8ToNVVM/gemm-waves-ptx.mlir), 0 spills at 64, 120
  /// and 128 columns on two consumers and 128 on one; 136 spills 12 bytes
  /// and 144 40, though 3/2 x 144 + 16 fits the 232 registers.
  static constexpr int64_t kWavesMaxConsumerN = 128;
  /// mxfp8's scale block along K (OCP MX: 32 elements per E8M0 scale).
  static constexpr int64_t kMxScaleK = 32;

  /// Registers per CTA (sm_90: 64K 32-bit registers per SM, one CTA per SM).
  static constexpr int64_t kRegisterFile = 65536;
  /// The consumer registers a tile needs beyond BLOCK_N per thread (the
  /// BLOCK_N / 2 f32 accumulators plus the BLOCK_N / 2 of the wgmma
  /// partial): addresses, loop state, scales. Measured with ptxas -v on the
  /// generated kernels (CUDA 12): 0 spills at BLOCK_N = 216 with 232
  /// registers, spills from 224 on; the configurations at the limit are in
  /// test/Conversion/FP8ToNVVM/gemm-ptx-configs.mlir.
  static constexpr int64_t kConsumerOverheadRegs = 16;
  /// A grouped (MoE) kernel's consumers also hold the tile's group, its
  /// row count or group test and the group's B-scale offset: measured with
  /// ptxas -v (CUDA 12), BLOCK_N 208 spills with 232 registers, 200 does not
  /// (test/Conversion/FP8ToNVVM/grouped-gemm-ptx.mlir).
  static constexpr int64_t kGroupedConsumerOverheadRegs = 16;
  /// Per-column B scales (bScalesPerColumn): a thread's fragment covers
  /// consumerN / 4 columns (two of every 8, WgmmaFragment.h), whose scales
  /// it holds in registers from their loads (before the full-barrier wait)
  /// to the promotion: consumerN / 4 registers more. Measured with ptxas -v
  /// (CUDA 12): test/Conversion/FP8ToNVVM/gemm-1d1d-ptx.mlir.
  static constexpr int64_t kColumnScaleDivisor = 4;
  /// A CTA tile spans at most this many 128-column B-scale blocks
  /// (BLOCK_N <= 256 starting at a multiple of 8: ceil((120 + 256) / 128)).
  static constexpr int64_t kMaxScaleBlocksPerTile = 3;

  /// Sizes a kernel indexes with signed 32-bit values (TMA coordinates,
  /// the i32 M parameter) stay below this.
  static constexpr int64_t kMaxExtent = int64_t(1) << 31;
  /// The largest M for which swap-AB (D^T = B A^T) is considered: one
  /// wgmma M of 64 rows; above it the plain kernel's rows are full.
  static constexpr int64_t kSwapABMaxM = 64;
  static constexpr int64_t kSharedMemoryLimit = 227 * 1024; // sm_90 opt-in max
  static constexpr int64_t kBarrierBytes = 1024;            // mbarriers, padded
  /// The TMA store's boxes: 64 rows (one consumer warpgroup's) x 128 bytes
  /// (the 128B swizzle's row), 8 KB each, 1024-byte aligned (the swizzle
  /// pattern repeats every 8 rows of 128 bytes).
  static constexpr int64_t kStoreBoxRows = 64;
  static constexpr int64_t kStoreBoxBytes = 64 * 128;
  /// The staging holds D's elements at f32 width whatever D's type: the
  /// configuration knows the problem's shape only (a bf16 D uses the first
  /// half of each warpgroup's buffer). The quantize epilogue's codes are
  /// one byte whatever D's type.
  static constexpr int64_t kStoreStagingElemBytes = 4;
  static constexpr int64_t kStoreStagingCodeBytes = 1;

  /// ceil(a / b) for b > 0. Not (a + b - 1) / b: that overflows int64 for
  /// a size near INT64_MAX (a tile, block or promotion interval option
  /// larger than the problem, which means the whole dimension).
  static constexpr int64_t ceilDiv(int64_t a, int64_t b) {
    return a / b + (a % b > 0);
  }
  static constexpr int64_t roundUp(int64_t a, int64_t b) {
    return ceilDiv(a, b) * b;
  }

  int64_t threads() const { return 128 * (consumers + 1); }
  /// The consumer warpgroups form rowGroups() x colSplits(): warpgroup w
  /// computes rows [rowsPerConsumer() (w % rowGroups), +rowsPerConsumer())
  /// and columns [consumerN() (w / rowGroups), +consumerN()) of the tile,
  /// with one wgmma .m64n<consumerN>k32 per k32 step and wave. Splitting
  /// the columns is how a wide tile (BLOCK_N = 256) fits the registers:
  /// each consumer holds consumerN() / 2 accumulators per wave and as many
  /// wgmma outputs.
  int64_t rowsPerConsumer() const { return 64 * waves; }
  int64_t rowGroups() const {
    return waves > 0 ? blockM / rowsPerConsumer() : 0;
  }
  int64_t colSplits() const {
    return rowGroups() > 0 ? consumers / rowGroups() : 0;
  }
  int64_t consumerN() const {
    return colSplits() > 0 ? blockN / colSplits() : 0;
  }
  int64_t mTiles() const { return ceilDiv(m, blockM); }
  int64_t nTiles() const { return ceilDiv(n, blockN); }
  int64_t tiles() const { return mTiles() * nTiles(); }
  /// Rows of cluster tiles: ceil(mTiles() / cluster); the last one's
  /// trailing ranks may compute rows past M (zero fill, no store) to take
  /// part in the multicast.
  int64_t clusterMTiles() const { return ceilDiv(mTiles(), cluster); }
  int64_t clusterTiles() const { return clusterMTiles() * nTiles(); }
  /// B rows one CTA's producer loads per K block (its share of the
  /// multicast B tile).
  int64_t bBoxRows() const { return blockN / cluster; }
  /// K blocks of a static K (0 for a run-time K: the kernel computes
  /// them from its k parameter).
  int64_t kBlocks() const { return hasDynamicK() ? 0 : ceilDiv(k, blockK); }
  bool hasDynamicK() const { return k == kDynamicK; }
  int64_t nScaleBlocks() const { return ceilDiv(n, 128); }
  /// One scale along the whole K (a K longer than one block: with K <= 128
  /// the two forms are the same kernel). Meaningless for bf16 operands (no
  /// scales; their blockK of 64 is below the default scaleK).
  bool hasWholeKScales() const { return scaleK > blockK && k > blockK; }
  /// Promotions per K block: 1, or blockK / 32 for mxfp8 (scaleK = 32).
  int64_t promotionsPerBlock() const {
    return scaleK < blockK ? blockK / scaleK : 1;
  }
  /// Rows of the B-scale array: ceil(N / 128) blocks, or N columns.
  int64_t bScaleRows() const { return bScalesPerColumn ? n : nScaleBlocks(); }
  /// Columns of the transposed per-column B scales [KB, bScaleColumns()]:
  /// every column a tile covers (a multiple of 8), so no load needs a
  /// clamp (an index clamp per register group costs ptxas registers).
  int64_t bScaleColumns() const { return nTiles() * blockN; }
  /// Registers per consumer thread the tile needs: the accumulators and
  /// the wgmma partial (consumerN), a second wave's accumulators, the
  /// overhead, the per-column B scales, the overlapped promotion's second
  /// partial.
  int64_t consumerRegsNeeded() const {
    return consumerN() + (waves - 1) * (consumerN() / 2) +
           kConsumerOverheadRegs +
           (bScalesPerColumn ? consumerN() / kColumnScaleDivisor : 0) +
           (promotionsPerBlock() > 1 ? consumerN() * kMxStepRegsPer8Columns / 8
                                     : 0) +
           (overlap ? consumerN() / 2 : 0);
  }
  /// mxfp8 (a promotion per k32 step) keeps more of the step's partial and
  /// scales live across the four steps of a K block: measured with ptxas -v
  /// (CUDA 13), 0 spills at 80 columns per consumer with 232 registers,
  /// spills at 88 and 96; counted as 11 registers per 8 columns more.
  static constexpr int64_t kMxStepRegsPer8Columns = 11;
  int64_t mPadded() const { return roundUp(m, 4); }
  bool hasBF16Operands() const { return operands == GemmOperandType::bf16; }
  bool aMNMajor() const { return aMajor == GemmOperandMajor::mn; }
  bool bMNMajor() const { return bMajor == GemmOperandMajor::mn; }
  bool hasHeadViews() const {
    return aHeads != 1 || bHeads != 1 || dHeads != 1;
  }
  /// The majors chooseGemmKernelConfig gives `operands`: A K-major; B
  /// MN-major for bf16 ([K, N] row-major), K-major for FP8.
  static GemmOperandMajor defaultBMajor(GemmOperandType operands) {
    return operands == GemmOperandType::bf16 ? GemmOperandMajor::mn
                                             : GemmOperandMajor::k;
  }
  /// Bytes of one operand element: 1 (FP8 codes) or 2 (bf16).
  int64_t operandBytes() const { return hasBF16Operands() ? 2 : 1; }
  int64_t aStageBytes() const { return blockM * blockK * operandBytes(); }
  int64_t bStageBytes() const { return blockN * blockK * operandBytes(); }
  /// A scales of one stage: BLOCK_M per promotion (none with bf16
  /// operands).
  int64_t saStageBytes() const {
    if (hasBF16Operands())
      return 0;
    return roundUp(blockM * 4 * promotionsPerBlock(), 128);
  }
  int64_t stageBytes() const {
    return aStageBytes() + bStageBytes() + saStageBytes();
  }
  /// Bytes one stage's TMA loads deliver (expect_tx): full boxes, OOB included.
  int64_t stageTxBytes() const {
    if (hasBF16Operands())
      return aStageBytes() + bStageBytes();
    return aStageBytes() + bStageBytes() + blockM * 4 * promotionsPerBlock();
  }
  // Shared-memory layout: A ring, B ring, A-scale ring, the barriers, then
  // (tmaStore) the consumers' D staging buffers, 1024-byte aligned.
  int64_t bRingOffset() const { return stages * aStageBytes(); }
  int64_t saRingOffset() const {
    return bRingOffset() + stages * bStageBytes();
  }
  int64_t barrierOffset() const {
    return saRingOffset() + stages * saStageBytes();
  }
  /// One consumer warpgroup's D staging buffer (tmaStore): 64 rows x
  /// consumerN() columns at f32 width (the quantize epilogue: one byte per
  /// code), in boxes of 128-byte rows.
  int64_t dStagingBytesPerConsumer() const {
    if (!tmaStore)
      return 0;
    return kStoreBoxRows * consumerN() *
           (quantizeEpilogue ? kStoreStagingCodeBytes : kStoreStagingElemBytes);
  }
  /// Warpgroup w's buffer starts at dStagingOffset() + w *
  /// dStagingBytesPerConsumer().
  int64_t dStagingOffset() const {
    return roundUp(barrierOffset() + kBarrierBytes, 1024);
  }
  int64_t sharedMemoryBytes() const {
    return tmaStore ? dStagingOffset() + consumers * dStagingBytesPerConsumer()
                    : barrierOffset() + kBarrierBytes;
  }
  /// The (row, column) tile of linear tile index `t` (0 <= t < tiles()) in
  /// the grouped order: group g = t / (groupM * nTiles) holds tile rows
  /// [g * groupM, + h), h = min(groupM, mTiles - g * groupM) (the last
  /// group may be shorter); inside it, tile r = t - g * groupM * nTiles is
  /// row g * groupM + r % h, column r / h. groupM = 1 is row-major
  /// (t / nTiles, t % nTiles). The kernel computes the same map.
  static constexpr void groupedTileCoords(int64_t t, int64_t mTiles,
                                          int64_t nTiles, int64_t groupM,
                                          int64_t &mt, int64_t &nt) {
    int64_t perGroup = groupM * nTiles;
    int64_t g = t / perGroup, first = g * groupM;
    int64_t h = mTiles - first < groupM ? mTiles - first : groupM;
    int64_t r = t - g * perGroup;
    mt = first + r % h;
    nt = r / h;
  }
  void tileCoords(int64_t t, int64_t &mt, int64_t &nt) const {
    groupedTileCoords(t, mTiles(), nTiles(), groupM, mt, nt);
  }
  /// Clusters resident at a time on `smCount` SMs: smCount / cluster, and
  /// at least one (fewer SMs than a cluster's CTAs, or the SM-count query's
  /// fallback of 1, still gets one cluster: a grid of 0 CTAs would leave the
  /// result unwritten).
  int64_t clusterSlots(int64_t smCount) const {
    int64_t clusters = smCount / cluster;
    return clusters > 1 ? clusters : 1;
  }
  /// Persistent grid: one CTA per SM at most (one CTA fits per SM), whole
  /// clusters (a cluster per cluster tile at most, at least one cluster).
  int64_t gridSize(int64_t smCount) const {
    int64_t clusters = clusterSlots(smCount);
    int64_t units = workUnits();
    return (units < clusters ? units : clusters) * cluster;
  }
  /// What the persistent loop walks: the cluster tiles, times kSplits.
  int64_t workUnits() const { return clusterTiles() * kSplits; }
  /// Split-K's workspace (kSplits > 1; 0 otherwise): the f32 partial tiles
  /// of every unit, and one u32 arrival counter per consumer thread and
  /// tile (kernel ABI above).
  int64_t splitKPartialBytes() const {
    return kSplits > 1 ? kSplits * tiles() * blockM * blockN * 4 : 0;
  }
  int64_t splitKCounters() const {
    return kSplits > 1 ? tiles() * consumers * 128 : 0;
  }
  int64_t splitKCounterBytes() const { return splitKCounters() * 4; }

  /// setmaxnreg target of the consumers for `c` consumer warpgroups. The
  /// registers a CTA holds are fixed at launch: 65536 / threads per thread,
  /// rounded down to a multiple of 8 (the cap .maxntid gives ptxas) and at
  /// most 255; setmaxnreg only moves them between warpgroups (PTX ISA,
  /// setmaxnreg: .inc blocks until the registers are free), so the consumers
  /// share what the producer gives up: a multiple of 8, at most 232 (the
  /// value of every configuration before the consumers became an option).
  /// 232 for 1 or 2 consumers, 152 for 3, 104 for 4.
  static constexpr int64_t consumerRegsFor(int64_t c, int64_t producerRegs) {
    int64_t threads = 128 * (c + 1);
    int64_t entry = kRegisterFile / threads;
    entry = (entry < 255 ? entry : 255) / 8 * 8;
    int64_t share = (entry * threads - 128 * producerRegs) / (128 * c);
    share -= share % 8;
    return share < 232 ? share : 232;
  }
  /// True when the tile's columns never straddle a B-scale block boundary
  /// at a run-time offset (every tile starts at a multiple of 128).
  bool scaleBlocksAligned() const { return blockN % 128 == 0; }
};

/// Why `c` cannot be compiled or launched (its tile and pipeline sizes), or
/// an empty string. Sources: wgmma.mma_async .m64nNk32 for e4m3/e5m2 takes N
/// a multiple of 8 up to 256 (PTX ISA, "Matrix shape"); one consumer
/// warpgroup per 64 rows (m64) and at most 4 (BLOCK_M <= 256, the TMA box
/// limit); the ring must fit the 227 KB of opt-in shared memory per block
/// (CUDA C++ Programming Guide, compute capability 9.0); the accumulators
/// and the wgmma partial must fit the consumer registers.
inline const char *checkGemmKernelConfig(const GemmKernelConfig &c);

/// checkGemmKernelConfig for a grouped (MoE) kernel: the consumer registers
/// keep kGroupedConsumerOverheadRegs more to spare (the k-grouped kernel's
/// per-column B scales counted too).
inline const char *checkGroupedGemmKernelConfig(const GemmKernelConfig &c) {
  const char *why = checkGemmKernelConfig(c);
  if (*why)
    return why;
  if (c.kSplits != 1)
    return "split-K (k_splits > 1) needs the 2-D kernel: a grouped kernel's "
           "tiles are not split along K";
  if (c.waves != 1)
    return "waves 2 needs the 2-D kernel: a grouped kernel's consumers "
           "compute one m64 wave each";
  if (c.tmaStore)
    return "the TMA store (store = tma) needs the 2-D kernel: a grouped "
           "kernel's D is stored from the registers (rows without a result "
           "as +0.0, a box would cross into another group)";
  if (c.consumerRegsNeeded() + GemmKernelConfig::kGroupedConsumerOverheadRegs >
      c.consumerRegs)
    return c.bScalesPerColumn
               ? "block-n is too wide for the consumer registers of a "
                 "k-grouped kernel (per-column B scales: 5/4 block-n / "
                 "splits + 32 registers per thread: at most 160 columns per "
                 "consumer for 1-2 consumers, 96 for 3, 56 for 4)"
               : "block-n is too wide for the consumer registers of a "
                 "grouped kernel (block-n / splits + 32 registers per "
                 "thread: at most 200 columns per consumer for 1-2 "
                 "consumers, 120 for 3, 72 for 4)";
  return "";
}

/// What the bf16 variant (GemmKernelConfig::operands) does not implement,
/// or an empty string: it has no scales to promote (so no quantize epilogue,
/// overlap, per-column or whole-K scales), reads whole 64-column MN-major B
/// boxes per consumer warpgroup, and neither multicasts B nor stores D by
/// TMA (untested on it).
inline const char *checkBF16GemmKernelConfig(const GemmKernelConfig &c) {
  if (c.blockK != GemmKernelConfig::kBF16BlockK)
    return "bf16 operands need block-k 64 (64 K elements: one 128-byte "
           "swizzle row per stage, four wgmma k16)";
  if (c.quantizeEpilogue || c.overlap || c.bScalesPerColumn || c.scaleK != 128)
    return "bf16 operands have no scales: no quantize epilogue, no "
           "overlapped promotion, no per-column or whole-K scales";
  if (c.cluster != 1 || c.tmaStore)
    return "bf16 operands need cluster 1 and the st.global store epilogue "
           "(no B multicast, no TMA store)";
  if (c.colSplits() > 0 && c.consumerN() % GemmKernelConfig::kBF16BoxColumns)
    return "bf16 operands need block-n / splits a multiple of 64 (each "
           "consumer warpgroup reads whole MN-major B boxes of 64 columns = "
           "128 bytes)";
  if (c.hasDynamicK())
    return "bf16 operands need a static K";
  // A [K, M] row-major: M is the TMA map's inner extent, its row stride
  // M x 2 bytes a multiple of 16.
  if (c.aMNMajor() && (c.m == GemmKernelConfig::kDynamicM || c.m % 8 != 0))
    return "an MN-major A ([K, M] row-major) needs a static M, a multiple "
           "of 8 (its rows of M bf16 are TMA global strides: multiples of "
           "16 bytes)";
  return "";
}

/// What split-K (GemmKernelConfig::kSplits > 1) does not combine with, or
/// an empty string: its partial tiles are stored from the registers of a
/// 2-D kernel of a compile-time M and K.
inline const char *checkSplitKGemmKernelConfig(const GemmKernelConfig &c) {
  if (c.kSplits < 1)
    return "k-splits must be at least 1";
  if (c.kSplits == 1)
    return "";
  // The overlapped promotion combines: its K loop runs over the unit's
  // run-time block range (trips of U, then the lock-step remainder), as it
  // does over a k-grouped tile's run.
  if (c.hasBF16Operands() || c.quantizeEpilogue || c.tmaStore || c.cluster != 1)
    return "split-K (k_splits > 1) needs the FP8 kernel with the st.global "
           "store epilogue: no bf16 operands, quantize epilogue, TMA store "
           "or cluster";
  if (c.scaleK != 128)
    return "split-K (k_splits > 1) needs a scale per K block of 128 "
           "(scale_k 128: not the whole-K scales of the rowwise and "
           "per-tensor presets, not mxfp8)";
  if (c.m == GemmKernelConfig::kDynamicM || c.hasDynamicK())
    return "split-K (k_splits > 1) needs a compile-time M and K (the "
           "workspace and the splits' K ranges are sized at compile time)";
  if (c.kSplits > c.kBlocks())
    return "split-K (k_splits > 1) needs at least one K block of 128 per "
           "split";
  return "";
}

/// What the wave form (GemmKernelConfig::waves = 2) does not combine with,
/// or an empty string: it is built for the 2-D FP8 kernel with 128 x 128 B
/// blocks, a scale per K block, the lock-step promotion and the st.global
/// store epilogue (clusters and a run-time M included: they do not touch a
/// consumer's rows).
inline const char *checkWavesGemmKernelConfig(const GemmKernelConfig &c) {
  if (c.waves == 1)
    return "";
  if (c.waves != 2)
    return "waves must be 1 or 2 (m64 waves per consumer warpgroup)";
  if (c.hasBF16Operands())
    return "waves 2 needs FP8 operands (not the bf16 variant, whose wgmma "
           "accumulates into the accumulators themselves)";
  if (c.overlap)
    return "waves 2 needs the lock-step promotion (promotion-schedule "
           "lockstep: the overlapped promotion's second partial set does not "
           "fit beside two waves of accumulators)";
  if (c.kSplits != 1)
    return "waves 2 needs k-splits 1 (split-K's partial tiles are stored "
           "per 64-row consumer)";
  if (c.tmaStore)
    return "waves 2 needs the st.global store epilogue (store=global: the "
           "TMA store's staging holds 64 rows per consumer)";
  if (c.quantizeEpilogue)
    return "waves 2 needs the store epilogue (not the quantize epilogue)";
  if (c.bScalesPerColumn || c.scaleK != 128)
    return "waves 2 needs 128 x 128 B blocks with a scale per K block (not "
           "per-column B scales, swap-AB, whole-K scales or mxfp8)";
  if (c.hasDynamicK())
    return "waves 2 needs a static K";
  return "";
}

inline const char *checkGemmKernelConfig(const GemmKernelConfig &c) {
  if (const char *why = checkWavesGemmKernelConfig(c); *why)
    return why;
  if (c.hasBF16Operands()) {
    if (const char *why = checkBF16GemmKernelConfig(c); *why)
      return why;
  } else if (c.aMNMajor() || c.bMNMajor()) {
    return "FP8 operands must be K-major: wgmma has no transpose of FP8 "
           "operands (imm-trans-a and imm-trans-b are .f16/.bf16 only, PTX "
           "ISA wgmma.mma_async)";
  } else if (c.hasHeadViews()) {
    return "head views (a_heads, b_heads, d_heads) need the bf16 batch "
           "kernel: the FP8 kernels read and write packed operands with "
           "their scales";
  }
  if (c.aHeads < 1 || c.bHeads < 1 || c.dHeads < 1)
    return "a_heads, b_heads and d_heads must be at least 1";
  if (const char *why = checkSplitKGemmKernelConfig(c); *why)
    return why;
  if (c.blockM % 64 != 0 || c.blockM < 64 || c.blockM > 256)
    return "block-m must be 64, 128, 192 or 256 (64 rows per consumer "
           "warpgroup, wgmma m64)";
  if (c.waves == 2 && c.blockM % 128 != 0)
    return "waves 2 needs block-m 128 or 256 (each consumer warpgroup "
           "computes 128 rows as two m64 waves)";
  if (c.consumers < 1 || c.consumers > 4 || c.consumers % c.rowGroups() != 0)
    return "consumers must be block-m / (64 x waves) times the column "
           "splits, at most 4 (each consumer warpgroup computes 64 rows per "
           "wave, wgmma m64, of block-n / splits columns)";
  if (c.blockN % 8 != 0 || c.blockN < 16 || c.blockN > 256)
    return "block-n must be a multiple of 8 in 16..256 (wgmma .m64nNk32 "
           "with e4m3/e5m2 operands)";
  if (c.blockN % (8 * c.colSplits()) != 0)
    return "block-n must split into equal multiples of 8 columns per "
           "consumer (wgmma .m64nNk32: N a multiple of 8)";
  if (c.quantizeEpilogue && c.consumerN() % 128 != 0)
    return "the quantize epilogue needs block-n / splits a multiple of 128 "
           "(each 1x128 tile of D lies in one consumer warpgroup's columns, "
           "its amax reduced within the warpgroup)";
  if (c.tmaStore && c.quantizeEpilogue && c.n % 16 != 0)
    return "the TMA store (store = tma) of the quantize epilogue needs n a "
           "multiple of 16 (a row of the FP8 codes is a TMA global stride: "
           "a multiple of 16 bytes)";
  if (c.tmaStore && c.consumerN() % 64 != 0)
    return "the TMA store (store = tma) needs block-n / splits a multiple "
           "of 64 (each consumer warpgroup stores whole boxes of 64 rows x "
           "128 bytes: 64 bf16 or 32 f32 columns)";
  if (c.tmaStore && c.n % 8 != 0)
    return "the TMA store (store = tma) needs n a multiple of 8 (a row of D "
           "is a TMA global stride: a multiple of 16 bytes)";
  // Two 8-byte mbarriers per stage; divided, not multiplied: a huge
  // stages from a hand-written attribute must not wrap.
  if (c.stages < 1 || c.stages > GemmKernelConfig::kBarrierBytes / 16)
    return "stages must be in 1..64";
  if (c.groupM < 1 || c.groupM > 4096)
    return "group-m must be in 1..4096 (rows of tiles per group of the "
           "tile order; 1: row-major)";
  if (c.cluster != 1 && c.cluster != 2)
    return "cluster must be 1 or 2 (CTAs sharing the B tile by TMA "
           "multicast)";
  if (c.bBoxRows() % 8 != 0)
    return "block-n / cluster must be a multiple of 8 (each CTA's share of "
           "the multicast B tile starts on a 1024-byte 128B-swizzle atom of 8 "
           "rows)";
  if (c.tmaStore &&
      c.sharedMemoryBytes() > GemmKernelConfig::kSharedMemoryLimit)
    return "the shared-memory ring and the TMA store's staging (stages x "
           "(block-m + block-n) x 128 bytes + A scales + barriers + block-m x "
           "block-n x 4 bytes, x 1 byte with the quantize epilogue) exceed "
           "the 227 KB of shared memory per block of sm_90: fewer stages or "
           "a smaller tile";
  if (c.sharedMemoryBytes() > GemmKernelConfig::kSharedMemoryLimit)
    return "the shared-memory ring (stages x (block-m + block-n) x 128 bytes "
           "+ A scales + barriers) exceeds the 227 KB of shared memory per "
           "block of sm_90";
  if (c.overlap != 0 && c.overlap != 4 && c.overlap != 8)
    return "overlap must be 0 (the lock-step promotion) or 4 or 8 (K blocks "
           "per trip of the overlapped promotion's unrolled K loop)";
  if (c.overlap && (c.bScalesPerColumn || c.promotionsPerBlock() > 1))
    return "the overlapped promotion (overlap 4 or 8) needs 128 x 128 B "
           "blocks with a scale per K block (not per-column B scales, not "
           "mxfp8)";
  if (c.overlap && c.stages < 2)
    return "the overlapped promotion (overlap 4 or 8) needs stages >= 2 (a "
           "consumer holds block k's slot until block k + 1's wgmma is "
           "issued)";
  // Where ptxas 13.0 assembles the overlapped kernel without spills and
  // without serialising its wgmma (C7512), measured: two consumers of 128
  // rows with 112 to 128 columns each by 8 (grouped, clusters, run-time M
  // included) and up to 64 by 4. By 8 it spills at 40 to 104 columns
  // (40-120 bytes; 104 also serialises) and at 136 and 144, by 4 at 112
  // and 128, and with one consumer (block-m 64), though the register count
  // (3/2 consumerN + 16 <= 232) allows them all; 16 to 32 by 8 assemble
  // clean in the 2-D kernel but were not checked in the others.
  if (c.overlap && (c.blockM != 128 || c.consumers != 2 ||
                    c.consumerN() > (c.overlap == 8 ? 128 : 64) ||
                    c.consumerN() < (c.overlap == 8 ? 112 : 8)))
    return "the overlapped promotion needs block-m 128 with two consumer "
           "warpgroups of 112 to 128 columns each with overlap 8, at most 64 "
           "with overlap 4 (block-n / splits): other tiles spill in ptxas "
           "and serialise their wgmma";
  if (c.promotionsPerBlock() > 1 && c.consumerRegsNeeded() > c.consumerRegs)
    return "block-n is too wide for the consumer registers of the mxfp8 "
           "kernel (a promotion per k32 step: 21/8 block-n / splits "
           "registers per thread, plus 16, within 232 registers for 1-2 "
           "consumers, 152 for 3, 104 for 4: block-n / splits <= 80, 48, "
           "32)";
  if (c.bScalesPerColumn && c.consumerRegsNeeded() > c.consumerRegs)
    return "block-n is too wide for the consumer registers of a kernel with "
           "per-column B scales (b blocks [1, 128]: accumulators, wgmma "
           "partial and the column scales take 5/4 block-n / splits "
           "registers per thread, plus 16, within 232 registers for 1-2 "
           "consumers, 152 for 3, 104 for 4: block-n / splits <= 168, 104, "
           "64)";
  if (c.waves == 2 && (c.consumerRegsNeeded() > c.consumerRegs ||
                       c.consumerN() > GemmKernelConfig::kWavesMaxConsumerN))
    return "block-n is too wide for the consumer registers of the two-wave "
           "kernel (two waves of accumulators and one wgmma partial take 3/2 "
           "block-n / splits registers per thread, plus 16: ptxas assembles "
           "them without spills up to block-n / splits = 128)";
  if (c.consumerN() + GemmKernelConfig::kConsumerOverheadRegs > c.consumerRegs)
    return "block-n is too wide for the consumer registers (accumulators "
           "and wgmma partial take block-n / splits registers per thread, "
           "plus 16, within 232 registers for 1-2 consumers, 152 for 3, 104 "
           "for 4: block-n / splits <= 216, 136, 88; block-n 224..256 needs "
           "block-m 64 with two consumers splitting the columns)";
  return "";
}

/// The configuration for an M x N x K problem. M <= 64 uses one consumer
/// warpgroup (BLOCK_M = 64); otherwise, and for a dynamic M
/// (GemmKernelConfig::kDynamicM), two (BLOCK_M = 128): a kernel compiled for
/// every M is tuned for the token counts that carry the FLOPs (prefill,
/// training), where 128-row tiles halve the B traffic per FLOP; decode-size
/// M pays a half-empty tile (docs/gpu-kernel.md). Stages fill the shared
/// memory, capped at 8. For a dynamic-M kernel at run time, set `m` of the
/// returned configuration to the actual M (withRuntimeM).
inline GemmKernelConfig
chooseGemmKernelConfig(int64_t m, int64_t n, int64_t k,
                       GemmOperandType operands = GemmOperandType::fp8) {
  GemmKernelConfig c;
  c.m = m;
  c.n = n;
  c.k = k;
  c.operands = operands;
  c.bMajor = GemmKernelConfig::defaultBMajor(operands);
  if (c.hasBF16Operands())
    c.blockK = GemmKernelConfig::kBF16BlockK;
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

/// Fewer stages while the ring does not fit the shared memory (mxfp8's
/// larger A-scale slots), at least 1.
inline void fitStages(GemmKernelConfig &c) {
  while (c.stages > 1 &&
         c.sharedMemoryBytes() > GemmKernelConfig::kSharedMemoryLimit)
    --c.stages;
}

/// As many stages as fit the shared memory beside the barriers and the
/// TMA store's staging (its size depends on the epilogue: the quantize
/// epilogue's codes take a quarter of f32's), at most 8, at least 1.
inline void fillStages(GemmKernelConfig &c) {
  c.stages = 1;
  int64_t fit =
      (GemmKernelConfig::kSharedMemoryLimit - GemmKernelConfig::kBarrierBytes) /
      c.stageBytes();
  c.stages = fit < 1 ? 1 : fit < 8 ? fit : 8;
  fitStages(c);
}

/// The configuration options of fp8-lower-to-nvvm / fp8-gpu-pipeline; 0
/// means "as chooseGemmKernelConfig chooses for the shape".
struct GemmKernelOverrides {
  int64_t blockM = 0, blockN = 0, stages = 0, consumers = 0;
  int64_t groupM = 0; // 0: row-major (the cost model chooses under auto)
  /// CTAs per cluster sharing B by multicast (GemmKernelConfig::cluster),
  /// 2-D kernels only; 0: 1 (the cost model chooses under auto).
  int64_t cluster = 0;
  /// Swap-AB (D^T = B A^T) for a GEMM that can run so: the cost model
  /// decides (config=auto; never under config=fixed), or always, or never.
  enum class SwapAB { model, always, never } swapAB = SwapAB::model;
  /// Whether a GEMM whose result only an fp8.quantize into 1x128 tiles reads
  /// gets the quantize epilogue (GemmKernelConfig::quantizeEpilogue) where
  /// its tile allows one.
  bool quantizeEpilogue = true;
  /// The promotion (GemmKernelConfig::overlap): kOverlapUnset leaves it to
  /// the cost model when it chooses the tile, else lock-step (0).
  static constexpr int64_t kOverlapUnset = -1;
  int64_t overlap = kOverlapUnset;
  /// The TMA-store epilogue (GemmKernelConfig::tmaStore). The cost model
  /// does not price it (untimed on silicon), so asking for it, like a tile
  /// option, keeps the model from choosing the tile: its stages then fit
  /// the staging buffers.
  bool tmaStore = false;
  /// m64 waves per consumer warpgroup (GemmKernelConfig::waves); 0: 1 (the
  /// cost model's choice when it chooses the tile). Part of the tile: 2
  /// without block-m or consumers is BLOCK_M 256 on two consumers.
  int64_t waves = 0;
  /// Whether an option fixes the tile, the promotion or the store (then
  /// the cost model chooses none of them).
  bool any() const {
    return blockM || blockN || stages || consumers || waves ||
           overlap != kOverlapUnset || tmaStore;
  }
  /// Fixes the cost model's choice `chosen`: its tile (BLOCK_M, BLOCK_N,
  /// stages) and promotion, so that the kernel's attribute and name carry
  /// them. A configuration field the model chooses is carried here. The
  /// tile order and the clusters, which an option may give alone, are the
  /// caller's.
  void setModelChoice(const GemmKernelConfig &chosen) {
    blockM = chosen.blockM;
    blockN = chosen.blockN;
    stages = chosen.stages;
    overlap = chosen.overlap;
    waves = chosen.waves;
  }
  /// The choices of `c` other than its tile (BLOCK_M, BLOCK_N, consumers,
  /// stages): what a search over tiles keeps (the quantize epilogue's
  /// refit). A configuration field that is neither tile nor problem is
  /// carried here.
  static GemmKernelOverrides getNonTileChoices(const GemmKernelConfig &c) {
    GemmKernelOverrides o;
    o.groupM = c.groupM;
    o.cluster = c.cluster;
    o.overlap = c.overlap;
    o.tmaStore = c.tmaStore;
    return o;
  }
  /// These choices without the speed-ups a tile may not allow, which such
  /// a search drops rather than the tile: the overlapped promotion
  /// (lock-step instead) and the TMA store (which the quantize epilogue
  /// takes only for n a multiple of 16).
  GemmKernelOverrides withoutOptionalChoices() const {
    GemmKernelOverrides o = *this;
    if (o.overlap != kOverlapUnset)
      o.overlap = 0;
    o.tmaStore = false;
    return o;
  }
};

/// The configuration for M x N x K with the options `o` applied: BLOCK_M and
/// the consumer count imply each other (64 rows per consumer), stages
/// default to as many as fit (at most 8, at least 1); a BLOCK_N too wide
/// for the consumer registers splits its columns across twice the
/// consumers when the count was not given. The result may be
/// invalid (checkGemmKernelConfig says why).
/// `bScalesPerColumn`: the kernel of b blocks [1, 128] (its consumers hold
/// the column scales too, GemmKernelConfig::consumerRegsNeeded).
/// `operands`: the element type of A and B (GemmKernelConfig::operands).
inline GemmKernelConfig
makeGemmKernelConfig(int64_t m, int64_t n, int64_t k,
                     const GemmKernelOverrides &o,
                     bool bScalesPerColumn = false,
                     GemmOperandType operands = GemmOperandType::fp8) {
  GemmKernelConfig c = chooseGemmKernelConfig(m, n, k, operands);
  c.bScalesPerColumn = bScalesPerColumn;
  if (o.groupM)
    c.groupM = o.groupM;
  if (o.cluster)
    c.cluster = o.cluster;
  if (o.overlap != GemmKernelOverrides::kOverlapUnset)
    c.overlap = o.overlap;
  c.tmaStore = o.tmaStore;
  if (!o.any())
    return c;
  if (o.waves)
    c.waves = o.waves;
  if (o.blockM)
    c.blockM = o.blockM;
  else if (o.consumers)
    c.blockM = c.rowsPerConsumer() * o.consumers;
  else if (c.waves == 2)
    c.blockM = 256;
  c.consumers = o.consumers ? o.consumers : c.rowGroups();
  if (o.blockN)
    c.blockN = o.blockN;
  if (c.consumers > 0)
    c.consumerRegs =
        GemmKernelConfig::consumerRegsFor(c.consumers, c.producerRegs);
  // A tile too wide for the registers of one consumer per 64 rows gets its
  // columns split across two (when the consumer count was not given).
  if (!o.consumers && c.consumers > 0 && c.consumers * 2 <= 4 && c.waves == 1 &&
      c.consumerRegsNeeded() > c.consumerRegs && c.blockN % 16 == 0) {
    GemmKernelConfig split = c;
    split.consumers = 2 * c.consumers;
    split.consumerRegs =
        GemmKernelConfig::consumerRegsFor(split.consumers, split.producerRegs);
    if (split.consumerRegsNeeded() <= split.consumerRegs)
      c = split;
  }
  // The TMA store's staging buffers take stages' room.
  if (o.stages)
    c.stages = o.stages;
  else
    fillStages(c);
  return c;
}

/// True when `c` is what chooseGemmKernelConfig picks for its shape (the
/// kernel name then has no configuration suffix).
inline bool isDefaultGemmKernelConfig(const GemmKernelConfig &c) {
  GemmKernelConfig d = chooseGemmKernelConfig(c.m, c.n, c.k, c.operands);
  return c.blockM == d.blockM && c.blockN == d.blockN && c.stages == d.stages &&
         c.consumers == d.consumers && c.groupM == d.groupM &&
         c.cluster == d.cluster && c.overlap == d.overlap &&
         c.tmaStore == d.tmaStore && c.kSplits == d.kSplits &&
         c.waves == d.waves;
}

/// The configuration suffix of a GEMM kernel's name (KernelNames.h), empty
/// for the shape's default configuration (isDefaultGemmKernelConfig), so
/// that two configurations of one shape never share a name:
/// "_t<BM>x<BN>s<S>", plus "c<C>" when the consumer warpgroups are not
/// BM / (64 waves) (columns split across them, colSplits), "g<G>" for a grouped
/// tile order of G rows of tiles (groupM > 1), "cl<N>" for clusters of N
/// CTAs sharing B by TMA multicast (cluster > 1), "o<U>" for the
/// overlapped promotion with its K loop unrolled by U blocks (overlap),
/// "tma" for the TMA-store epilogue (tmaStore), "k<S>" for split-K over S
/// K ranges (kSplits > 1), "w<W>" for W m64 waves per consumer (waves >
/// 1). A
/// field that tells two kernels of one shape apart adds its part here.
inline std::string getGemmKernelConfigSuffix(const GemmKernelConfig &c) {
  if (isDefaultGemmKernelConfig(c))
    return "";
  std::string s = "_t" + std::to_string(c.blockM) + "x" +
                  std::to_string(c.blockN) + "s" + std::to_string(c.stages);
  if (c.consumers && c.consumers * c.rowsPerConsumer() != c.blockM)
    s += "c" + std::to_string(c.consumers);
  if (c.groupM > 1)
    s += "g" + std::to_string(c.groupM);
  if (c.cluster > 1)
    s += "cl" + std::to_string(c.cluster);
  if (c.overlap)
    s += "o" + std::to_string(c.overlap);
  if (c.tmaStore)
    s += "tma";
  if (c.kSplits > 1)
    s += "k" + std::to_string(c.kSplits);
  if (c.waves > 1)
    s += "w" + std::to_string(c.waves);
  return s;
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
