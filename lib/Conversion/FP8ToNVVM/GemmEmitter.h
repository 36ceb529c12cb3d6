//===- GemmEmitter.h - the pieces of the sm_90a FP8 GEMM kernel -*- C++ -*-===//
//
// The GEMM kernel generator (buildGemmKernel, GemmKernel.cpp) is a driver
// over pieces, one concern per file:
//
//   GemmKernel.cpp         signature, kernel-wide values, the two roles;
//                          chooses the strategies
//   GemmTileScheduler.cpp  persistent tile loop: tile -> (group, rows, cols);
//                          the dense form (GemmTileScheduler.h)
//   GemmGroupedScheduler.cpp   the masked and contiguous grouped forms
//   GemmKGroupedScheduler.cpp  the k-grouped (Wgrad) form
//   GemmProducer.cpp       mbarrier ring and the producer's TMA loads
//   GemmConsumer.cpp       consumer warpgroups: fragment map, K loop, wgmma
//                          (the bf16 variant's K loop: no promotion)
//   GemmScales.cpp         A-scale and B-scale loads; the B scales staged
//                          in shared memory once per tile
//   GemmPromotion.cpp      FP32 accumulator: start from C, per-K-block
//                          promotion acc += partial * (sa * sb)
//   GemmEpilogue.cpp       masked, converted stores of D (GemmEpilogue.h)
//   GemmQuantizeEpilogue.cpp  or D quantized in 1x128 tiles: the codes and
//                          scales
//
// What varies between kernels in more than one piece is a strategy, chosen
// once by the driver from the spec: the tile scheduler (the grouping,
// GemmTileScheduler.h) and the epilogue (GemmEpilogue.h). They own the
// values only they need; GemmEmitter holds what the pieces share.
//
// The generated IR must not depend on how the pieces are cut: each piece
// creates its ops in the order the kernel runs them, one statement at a
// time, and the driver calls them in that order (scripts/
// kernel-corpus-diff.sh compares the generated kernels of the test corpus
// before and after a change here).
//
//===----------------------------------------------------------------------===//
#ifndef FP8_LIB_CONVERSION_FP8TONVVM_GEMMEMITTER_H
#define FP8_LIB_CONVERSION_FP8TONVVM_GEMMEMITTER_H

#include "GemmKernel.h"
#include "KernelBuilder.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include <memory>
#include <utility>

namespace mlir {
namespace fp8 {
namespace gemm {

class TileScheduler;
class Epilogue;

/// A tile of the grid: its group (grouped kernels), its first row in the
/// group's rows (masked, k_grouped) or the operand's (contiguous), its
/// first column, and, for a grouped kernel whose rows can be empty, whether
/// it has rows to compute (else the K loop runs no block and the tile
/// stores +0.0); a k-grouped tile's K blocks are its group's run [kFirst,
/// kFirst + kCount). Producer and consumers derive the same values, so they
/// agree on the ring slots a skipped tile does not use. A split-K unit's
/// `group` is its split and [kFirst, kFirst + kCount) its K range; `local`
/// is the tile's index in the tile order of its group (or split).
struct Tile {
  Value group, row0, col0, active, rowsValid, kFirst, kCount, local;
};

/// A consumer thread's place in the tile (the fragment map of
/// WgmmaFragment.h): its rows rowBase and rowBase + 8 of its warpgroup's
/// 64-row slice, its columns colBase + accumulatorColOffset(r); the
/// warpgroup's row group and, with a column split, its first column.
struct ConsumerThread {
  Value warp, lane, rowBase, colBase;
  Value wgRowGroup, wgRow, wgCol;
  bool colSplit = false;
};

/// A consumer warpgroup's part of one tile: its first column, the B-scale
/// blocks it reads, this thread's first output row and column, and the
/// offsets of a grouped kernel's group in C/D and in the B scales.
struct ConsumerTile {
  Tile tile;
  /// The tile touches up to `sbCount` 128-column B-scale blocks from
  /// sbBlock0 on; which register group falls in which is static
  /// (`sbStatic`) or depends on sbRel = col0 % 128.
  int64_t sbCount = 0;
  bool sbStatic = false;
  Value col0, sbBlock0, sbRel;
  Value rowTile, colTile;
  Value groupRow0, sbGroup0;
  /// This warpgroup's staged B scales in shared memory (f32, block i's K
  /// blocks at [i * KB, (i + 1) * KB)), or null: read from global memory
  /// (GemmKernelConfig::bScalesStaged).
  Value sbStaged;
};

/// One K block's wgmma operands: the shared-memory matrix descriptors of
/// the ring slot's A (this warpgroup's rows) and B (its columns) at the
/// first k32 step.
struct WgmmaOperands {
  Value descA, descB;
};

/// The B scales of one K block, read before the full-barrier wait: one
/// per 128-column block (`blocks`), or, with per-column B scales, one
/// 2 x f32 vector per register group (`pairs`).
struct BScales {
  SmallVector<Value> blocks, pairs;
};

/// The kernel-wide state the pieces share: besides the configuration and
/// the builders (KernelEmitter), the strategies, the kernel's parameters
/// and the values computed once at entry.
struct GemmEmitter : KernelEmitter<GemmKernelSpec> {
  GemmEmitter(OpBuilder &builder, Location loc, const GemmKernelSpec &spec);
  ~GemmEmitter();

  /// The strategies (chosen by the driver before the first op).
  std::unique_ptr<TileScheduler> scheduler;
  std::unique_ptr<Epilogue> epilogue;

  // What the configuration selects.
  bool hasAcc, dynamicM, dynamicK;
  /// K blocks of a static K (cfg.kBlocks()); a dynamic-K kernel's are the
  /// run-time kBlockCount.
  int64_t kBlocks, nTiles, consumerN, accRegs;

  // The kernel's parameters (global pointers cast to address space 1; the
  // epilogue's and the group argument are the strategies').
  Value tmapA, tmapB, tmapSA, sbPtr, cPtr;
  // Rows: a constant, or the run-time M (TileScheduler::emitTileCount).
  Value mRows;
  // A dynamic-K kernel's K blocks, ceil(k / 128) of its last parameter k
  // (kRuntime; a k-grouped kernel's is T).
  Value kBlockCount, kRuntime;
  // Thread, CTA and shared memory.
  Value tid, ctaId, ctaCount, wg, wgThread, smem, smemAddr, ticks;
  // The CTA's cluster (cfg.cluster > 1; else unset): its rank in the
  // cluster, the cluster's index in the grid and the cluster count. The
  // clusters of the 1-D grid are consecutive CTAs (cluster dims
  // (cluster, 1, 1)): rank = ctaId % cluster, PTX ISA %cluster_ctarank.
  Value clusterRank, clusterId, clusterCount;

  /// setmaxnreg: the role's register budget (GemmKernel.cpp).
  void emitSetMaxRegisters(int64_t regs, bool increase);
  /// A dynamic-K kernel's K-block count from the run-time K.
  void emitKBlockCount(Value runtimeK);
  /// The K blocks of the problem: a constant, or the run-time count.
  Value kBlocksValue();

  // --- GemmProducer.cpp -----------------------------------------------------
  /// The full (or empty) mbarrier of ring slot `stage`.
  Value barrier(Value stage, bool full);
  /// Ring slot and phase parity of ring iteration `it`.
  std::pair<Value, Value> stagePhase(Value it);
  /// Thread 0 initialises the barriers; the CTA (the cluster) synchronises.
  void emitBarrierInit();
  /// cfg.cluster > 1: barrier.cluster.arrive + wait, every thread of the
  /// cluster (after the barrier init: a peer's barriers exist before a
  /// multicast or remote arrive reaches them; at exit: no CTA leaves while
  /// a peer may still write its shared memory or arrive on its barriers).
  void emitClusterSync();
  /// The producer warpgroup (the then-region of `roleIf`).
  void emitProducer(scf::IfOp roleIf);
  void emitProducerKBlock(const Tile &tile, scf::ForOp kLoop);

  // --- GemmConsumer.cpp -----------------------------------------------------
  /// The consumer warpgroups (the else-region of `roleIf`).
  void emitConsumers(scf::IfOp roleIf);
  ConsumerThread emitConsumerThread();
  ConsumerTile emitConsumerTile(const ConsumerThread &thr, Value tileIndex);
  /// Whether the consumer registers leave room for the short K-block path
  /// (the A scales read before the wgmma chain, the B scales staged):
  /// lock-step tiles 8 registers below the limit.
  bool hasShortKBlockPath();
  /// Wave `wave`'s part of the tile (GemmKernelConfig::waves): this
  /// thread's rows 64 x wave further on (`ct` itself for wave 0).
  ConsumerTile waveTile(const ConsumerTile &ct, int64_t wave);
  /// C's and D's row `row` in the operand (the group offset added; every
  /// H-th row of a head view's [B x M x H, N], GemmKernelConfig::dHeads).
  Value globalRow(const ConsumerTile &ct, Value row);
  void emitConsumerKBlock(const ConsumerThread &thr, const ConsumerTile &ct,
                          scf::ForOp kLoop);
  /// The K block of a consumer of two m64 waves (cfg.waves = 2): per wave
  /// its wgmma chain into the one partial set, wgmma.wait_group 0 and its
  /// promotion into its accumulators (kLoop's iteration arguments after
  /// the ring iteration, accRegs per wave).
  void emitWavesKBlock(const ConsumerThread &thr, const ConsumerTile &ct,
                       scf::ForOp kLoop);
  /// The mxfp8 K block (scaleK = 32): per k32 step its wgmma, its scales
  /// and a promotion, `acc` carried through.
  void emitMxKBlock(const ConsumerThread &thr, const ConsumerTile &ct,
                    Value kBlock, Value stage, const WgmmaOperands &ops,
                    SmallVector<Value> &acc);
  /// The descriptors of ring slot `stage` for this warpgroup, computed
  /// before the full-barrier wait so that nothing but the A-scale loads sits
  /// between the wait and the wgmma chain.
  WgmmaOperands emitWgmmaOperands(const ConsumerThread &thr, Value stage);
  /// The wgmma.mma_async chain of k32 steps [firstStep, endStep) (default:
  /// the whole K block) on the slot of `ops`, completed (wait_group 0): the
  /// partial sums (a struct of accRegs f32).
  Value emitWgmma(const WgmmaOperands &ops, int64_t firstStep = 0,
                  int64_t endStep = 0);
  /// The bf16 kernel's K loops (cfg.operands): the full K blocks, then the
  /// K tail's block; `init` the ring iteration and the accumulators (C).
  /// Returns the last loop (its results: the ring iteration and the sums).
  scf::ForOp emitBF16KLoops(const ConsumerThread &thr, ValueRange init);
  /// One bf16 K block: `steps` wgmma .m64nNk16 chained on the accumulator
  /// (scale-d = 1), A K-major, B MN-major, completed and the slot released.
  void emitBF16KBlock(const ConsumerThread &thr, scf::ForOp kLoop,
                      int64_t steps);
  /// Once per warp, the slot is handed back to the producer.
  void emitReleaseStage(const ConsumerThread &thr, Value stage);

  // --- GemmScales.cpp -------------------------------------------------------
  /// At a tile's start (GemmKernelConfig::bScalesStaged): the warpgroup
  /// copies the B scales of its columns, every K block, from global into
  /// its shared buffer (ct.sbStaged), between two named barriers of its 128
  /// threads (the first: the previous tile's reads are done).
  void emitBScaleStaging(ConsumerTile &ct);
  BScales emitBScaleLoads(const ConsumerTile &ct, Value kBlock);
  /// The address of this thread's first-row A scale in slot `stage`'s scale
  /// area (of promotion `sub` of the K block: mxfp8): computed before the
  /// full-barrier wait.
  Value aScaleAddress(const ConsumerThread &thr, Value stage, int64_t sub = 0);
  /// The A scales of this thread's two rows (rows 0 and 8 from `addr`),
  /// loaded after the wait and before the wgmma chain.
  void emitAScaleLoads(Value addr, Value aScales[2]);
  /// The B scale of register group j: a block of `sb` (static index
  /// `staticIdx`) or a select between the loaded blocks (staticIdx = -1).
  Value bScaleOfGroup(const ConsumerTile &ct, const BScales &sb, int64_t j,
                      int64_t &staticIdx);

  // --- GemmPromotion.cpp ----------------------------------------------------
  /// The accumulator's start: C (converted to f32) or +0.0, appended to
  /// `init`.
  void emitAccumulatorInit(const ConsumerTile &ct, SmallVector<Value> &init);
  /// acc += partial * (sa[row] * sb[column]) per register (`acc`: the
  /// accumulators before), appended to `yields`.
  void emitPromotion(const ConsumerTile &ct, const BScales &sb,
                     const Value aScales[2], Value partial, ValueRange acc,
                     SmallVector<Value> &yields);
};

/// The base of the strategies (GemmTileScheduler.h, GemmEpilogue.h): the
/// emitter whose builder and shared values they use, and short names for
/// its builders, spec and configuration.
class GemmStrategy {
protected:
  explicit GemmStrategy(GemmEmitter &e)
      : e(e), b(e.b), ir(e.ir), cfg(e.cfg), spec(e.spec) {}

  GemmEmitter &e;
  ImplicitLocOpBuilder &b;
  KernelBuilder &ir;
  const GemmKernelConfig &cfg;
  const GemmKernelSpec &spec;
};

} // namespace gemm
} // namespace fp8
} // namespace mlir

#endif // FP8_LIB_CONVERSION_FP8TONVVM_GEMMEMITTER_H
