//===- GemmProducer.cpp - the GEMM kernel's TMA ring and its producer -----===//
//
// The shared-memory ring: `stages` slots of A, B and A-scale tiles, each
// with a full barrier (the producer's arrive.expect_tx plus the TMA bytes)
// and an empty barrier (one arrival per consumer warp once it is done with
// the slot). One elected thread of the producer warpgroup loads each K
// block of each tile into the next slot. In a cluster (cfg.cluster > 1)
// each producer loads its rank's BLOCK_N / cluster rows of the shared B
// tile with TMA multicast into the same slot of every CTA (whose full
// barriers count those bytes too), so a slot is refilled only after the
// consumer warps of every CTA of the cluster released it: the empty
// barriers count cluster times the arrivals, the peers' remote.
//
//===----------------------------------------------------------------------===//
#include "GemmTileScheduler.h"

#include "fp8/Target/Hopper/WgmmaFragment.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::gemm;

/// Warps per warpgroup: the empty barriers count one arrival per warp.
constexpr int64_t kWarpsPerWarpgroup = wgmma::kWarpgroupThreads / 32;

Value GemmEmitter::barrier(Value stage, bool full) {
  Value idx = full ? stage : ir.add(stage, ir.c32(cfg.stages));
  Value offset = ir.mul(idx, ir.c32(8));
  return ir.gep(smem, ir.add(ir.c32(cfg.barrierOffset()), offset));
}

std::pair<Value, Value> GemmEmitter::stagePhase(Value it) {
  Value one = ir.c32(1);
  Value phase = ir.andi(ir.divu(it, ir.c32(cfg.stages)), one);
  Value stage = ir.remu(it, ir.c32(cfg.stages));
  return std::make_pair(stage, phase);
}

void GemmEmitter::emitBarrierInit() {
  {
    auto ifOp = scf::IfOp::create(b, ir.eq(tid, ir.c32(0)), false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    for (int64_t stage = 0; stage < cfg.stages; ++stage) {
      // full[stage]: one arrival (the producer's arrive.expect_tx) + TMA
      // bytes.
      Value fullArrivals = ir.c32(1);
      NVVM::MBarrierInitOp::create(b, barrier(ir.c32(stage), true),
                                   fullArrivals, Value());
      // empty[stage]: one arrival per consumer warp once the warp is done
      // with the slot (DeepGEMM's count: 4 per warpgroup, not 128
      // per-thread arrivals on one shared-memory word).
      Value emptyArrivals =
          ir.c32(cfg.cluster * cfg.consumers * kWarpsPerWarpgroup);
      NVVM::MBarrierInitOp::create(b, barrier(ir.c32(stage), false),
                                   emptyArrivals, Value());
    }
    // Make the initialised barriers visible to the async (TMA) proxy.
    NVVM::FenceMbarrierInitOp::create(b);
    // The three tensor maps stay in global memory (the upstream mgpu ABI
    // hands the kernel pointers); prefetch.tensormap brings them into the
    // SM's descriptor cache while the CTA synchronises, so the producer's
    // first TMA does not wait for them (PTX ISA, prefetch.tensormap, sm_90).
    // (A bf16 kernel has no A-scale map: parameter 2 is unused.)
    SmallVector<Value, 3> maps{tmapA, tmapB};
    if (!cfg.hasBF16Operands())
      maps.push_back(tmapSA);
    for (Value map : maps)
      NVVM::PrefetchOp::create(b, NVVM::PrefetchCacheLevelAttr(),
                               NVVM::CacheEvictionPriorityAttr(), map,
                               /*predicate=*/Value(), b.getUnitAttr());
  }
  NVVM::Barrier0Op::create(b);
  emitClusterSync();
}

void GemmEmitter::emitClusterSync() {
  if (cfg.cluster == 1)
    return;
  NVVM::ClusterArriveOp::create(b, /*aligned=*/UnitAttr());
  NVVM::ClusterWaitOp::create(b, /*aligned=*/UnitAttr());
}

void GemmEmitter::emitProducer(scf::IfOp roleIf) {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&roleIf.getThenRegion().front());
  emitSetMaxRegisters(cfg.producerRegs, /*increase=*/false);
  auto electIf = scf::IfOp::create(b, ir.eq(wgThread, ir.c32(0)), false);
  b.setInsertionPointToStart(&electIf.getThenRegion().front());
  scf::ForOp tileLoop = scheduler->emitTileLoop();
  Tile tile = scheduler->tileOf(tileLoop.getInductionVar());
  Value step = ir.c32(1);
  Value kBlocks = scheduler->kBlocksOf(tile);
  Value lower = ir.c32(0);
  auto kLoop = scf::ForOp::create(b, lower, kBlocks, step,
                                  ValueRange{tileLoop.getRegionIterArg(0)});
  emitProducerKBlock(tile, kLoop);
  scf::YieldOp::create(b, kLoop.getResults());
}

void GemmEmitter::emitProducerKBlock(const Tile &tile, scf::ForOp kLoop) {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(kLoop.getBody());
  Value kBlock = kLoop.getInductionVar(), it = kLoop.getRegionIterArg(0);
  auto [stage, phase] = stagePhase(it);
  // Wait until the consumers released this slot (the first pass through
  // the ring waits on the already-complete phase before phase 0).
  Value emptyPhase = ir.xori(phase, ir.c32(1));
  NVVM::MBarrierTryWaitParityOp::create(b, barrier(stage, false), emptyPhase,
                                        ticks);
  Value full = barrier(stage, true);
  NVVM::MBarrierArriveExpectTxOp::create(
      b, Type(), full, ir.c32(cfg.stageTxBytes()),
      NVVM::MemScopeKindAttr::get(ctx, NVVM::MemScopeKind::CTA),
      b.getBoolAttr(false), Value());
  // A k-grouped tile's K blocks are its group's run.
  Value kAbs = scheduler->kBlockOf(tile, kBlock);
  Value kCoord = ir.mul(kAbs, ir.c32(cfg.blockK));
  auto tma = [&](Value dstOffset, Value map, ValueRange coords,
                 Value multicastMask = Value()) {
    // The classic sm_90 form: a shared::cluster destination (a CTA's own
    // shared::cta address is a valid shared::cluster address; with a
    // multicast mask, the same CTA-relative address in every CTA named).
    Value dst = LLVM::AddrSpaceCastOp::create(
        b, LLVM::LLVMPointerType::get(ctx, 7), ir.gep(smem, dstOffset));
    NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
        b, dst, map, coords, full, ValueRange{}, multicastMask, Value(),
        NVVM::TMALoadModeAttr::get(ctx, NVVM::TMALoadMode::TILE),
        b.getBoolAttr(false), NVVM::CTAGroupKindAttr(), Value());
  };
  // Grouped operands are 3-D maps with the group outermost ([G, N, K] B,
  // masked [G, M, K] A and [G, KB, M] A scales): a box never crosses into
  // another group, and the rows past a group's end are zero fill.
  // A bf16 batch operand read through a head view (GemmKernelConfig::
  // aHeads, bHeads > 1) is a rank-4 map (B, H, rows, cols) of its [B, rows,
  // H, cols] source: batch g is head g % H of sequence g / H.
  auto coords = [&](Value inner, Value outer, bool byGroup, int64_t heads = 1) {
    SmallVector<Value, 4> c{inner, outer};
    if (heads > 1) {
      c.push_back(ir.remu(tile.group, ir.c32(heads)));
      c.push_back(ir.divu(tile.group, ir.c32(heads)));
    } else if (byGroup) {
      c.push_back(tile.group);
    }
    return c;
  };
  // An MN-major bf16 operand ([K, M] A or [K, N] B row-major): boxes of 64
  // M or N columns (128 bytes) x blockK K rows, one per 64 rows or columns
  // of the tile, back to back (WgmmaFragment.h, mnMajorSw128ConstBits). A
  // batch kernel's operands are [G, K, *]: the batch outermost, so a K
  // tail's box is zero fill, never the next batch's rows.
  // An operand's tile from its first row or column `first` (`extent` of
  // them): one K-major box, or the MN-major boxes above.
  auto loadOperand = [&](Value slot, Value map, bool mnMajor, Value first,
                         int64_t extent, bool byGroup, int64_t heads) {
    if (!mnMajor)
      return tma(slot, map, coords(kCoord, first, byGroup, heads));
    const int64_t boxCols = GemmKernelConfig::kBF16BoxColumns;
    const int64_t boxBytes = boxCols * cfg.blockK * cfg.operandBytes();
    for (int64_t box = 0; box < extent / boxCols; ++box) {
      Value boxCol = ir.add(first, ir.c32(box * boxCols));
      Value boxSlot = ir.add(slot, ir.c32(box * boxBytes));
      tma(boxSlot, map, coords(boxCol, kCoord, byGroup, heads));
    }
  };
  Value aSlot = ir.mul(stage, ir.c32(cfg.aStageBytes()));
  loadOperand(aSlot, tmapA, cfg.aMNMajor(), tile.row0, cfg.blockM,
              scheduler->aPerGroup(), cfg.aHeads);
  Value bStageOffset = ir.mul(stage, ir.c32(cfg.bStageBytes()));
  Value bSlot = ir.add(ir.c32(cfg.bRingOffset()), bStageOffset);
  if (cfg.hasBF16Operands()) {
    // No scales. B [K, N] read MN-major (the default), or [N, K] read
    // K-major: the FP8 kernel's box of blockN rows x 128 bytes.
    loadOperand(bSlot, tmapB, cfg.bMNMajor(), tile.col0, cfg.blockN,
                scheduler->bPerGroup(), cfg.bHeads);
    scf::YieldOp::create(b, ValueRange{ir.add(it, ir.c32(1))});
    return;
  }
  if (cfg.cluster == 1) {
    tma(bSlot, tmapB, coords(kCoord, tile.col0, scheduler->bPerGroup()));
  } else {
    // This rank's rows [rank * BLOCK_N / cluster, +BLOCK_N / cluster) of
    // the B tile (128-byte rows, whole 1024-byte swizzle atoms), to every
    // CTA of the cluster (ctaMask: all ranks).
    Value share = ir.mul(clusterRank, ir.c32(cfg.bBoxRows()));
    Value mask =
        arith::ConstantIntOp::create(b, b.getI16Type(), (1 << cfg.cluster) - 1);
    Value shareCol = ir.add(tile.col0, share);
    Value shareSlot = ir.add(bSlot, ir.mul(share, ir.c32(cfg.blockK)));
    tma(shareSlot, tmapB, coords(kCoord, shareCol, scheduler->bPerGroup()),
        mask);
  }
  // Whole-K scales (scale_k = k: rowwise, per-tensor) are one row [1,
  // Mpad]: every K block loads row 0 into its slot. mxfp8's [K / 32, Mpad]:
  // a K block's promotionsPerBlock rows (one box).
  Value saBlock = cfg.hasWholeKScales() ? ir.c32(0) : kAbs;
  if (cfg.promotionsPerBlock() > 1)
    saBlock = ir.mul(kBlock, ir.c32(cfg.promotionsPerBlock()));
  Value saStageOffset = ir.mul(stage, ir.c32(cfg.saStageBytes()));
  Value saSlot = ir.add(ir.c32(cfg.saRingOffset()), saStageOffset);
  tma(saSlot, tmapSA, coords(tile.row0, saBlock, scheduler->aPerGroup()));
  scf::YieldOp::create(b, ValueRange{ir.add(it, ir.c32(1))});
}
