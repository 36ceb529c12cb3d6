//===- GemmTileScheduler.cpp - the GEMM kernel's persistent tile loop -----===//
//
// The grid is persistent: CTA c computes tiles c, c + gridDim, ... of the
// tile order. Producer and consumers run the same loop and derive the same
// tile values (GemmEmitter.h, Tile). With clusters (cfg.cluster > 1) the
// loop walks cluster tiles: cluster q computes cluster tiles q, q + the
// cluster count, ...; cluster tile (mt', nt) of the tile order (over
// clusterMTiles() rows) is tile (cluster * mt' + rank, nt) for the CTA of
// rank `rank`, so the CTAs of a cluster share their B tile.
//
//===----------------------------------------------------------------------===//
#include "GemmEmitter.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::gemm;

void GemmEmitter::emitTileCount(Value runtimeM) {
  // M and the tile count: compile-time constants, or computed from the
  // run-time M by a dynamic-M kernel.
  mRows = dynamicM ? runtimeM : ir.c32(cfg.m);
  // Rows of the schedule's tiles: BLOCK_M, or a cluster's cluster * BLOCK_M.
  const int64_t rowsPerTile = cfg.blockM * cfg.cluster;
  tiles = dynamicM ? ir.ceilDivTimes(mRows, rowsPerTile, nTiles)
                   : ir.c32(cfg.clusterTiles());
  // Masked and k-grouped: the grid covers the tiles of one group times the
  // group count (group-major).
  groupTiles = tiles;
  if (masked || kGrouped)
    tiles = ir.mul(groupTiles, ir.c32(spec.numGroups));
}

void GemmEmitter::emitKBlockCount(Value runtimeK) {
  // ceil(k / 128): the last block may be partial (its codes past K are the
  // TMA's zero fill, its scales the op's last K block's), and k = 0 runs
  // no block (the accumulators stay C or +0.0).
  kRuntime = runtimeK;
  kBlockCount = ir.ceilDivTimes(runtimeK, cfg.blockK, 1);
}

Value GemmEmitter::kBlocksValue() {
  return dynamicK ? kBlockCount : ir.c32(kBlocks);
}

void GemmEmitter::emitTileOrder() {
  if (cfg.groupM > 1)
    mTiles = dynamicM ? ir.ceilDivTimes(mRows, cfg.blockM * cfg.cluster, 1)
                      : ir.c32(cfg.clusterMTiles());
}

// Tile t covers rows [mt*BM, +BM) and columns [nt*BN, +BN). Row-major
// (groupM = 1): mt = t / nTiles, nt = t % nTiles. Grouped order
// (GemmKernelConfig::groupedTileCoords): groups of groupM tile rows, each
// swept column by column, so a wave of CTAs shares A and B panels in L2
// (issue 17: row-major re-streams all of B every wave). One op per
// statement: the IR order is fixed.
std::pair<Value, Value> GemmEmitter::tileCoords(Value tile) {
  const int64_t groupM = cfg.groupM;
  if (groupM == 1)
    return std::make_pair(ir.divu(tile, ir.c32(nTiles)),
                          ir.remu(tile, ir.c32(nTiles)));
  Value perGroup = ir.c32(groupM * nTiles);
  Value orderGroup = ir.divu(tile, perGroup);
  Value groupRows = ir.c32(groupM);
  Value first = ir.mul(orderGroup, groupRows);
  Value left = ir.sub(mTiles, first);
  Value height = arith::MinUIOp::create(b, left, groupRows);
  Value groupStart = ir.mul(orderGroup, perGroup);
  Value r = ir.sub(tile, groupStart);
  Value rowInGroup = ir.remu(r, height);
  Value mt = ir.add(first, rowInGroup);
  Value nt = ir.divu(r, height);
  return std::make_pair(mt, nt);
}

Value GemmEmitter::loadGroupI32(Value index) {
  return LLVM::LoadOp::create(
      b, ir.i32,
      LLVM::GEPOp::create(b, ir.ptrGlobal, ir.i32, groupPtr,
                          ValueRange{ir.zext64(index)}));
}

Tile GemmEmitter::tileOf(Value tile) {
  Tile t;
  Value local = tile;
  if (masked || kGrouped) {
    t.group = ir.divu(tile, groupTiles);
    local = ir.remu(tile, groupTiles);
  }
  auto [mt, nt] = tileCoords(local);
  if (cfg.cluster > 1)
    mt = ir.add(ir.mul(mt, ir.c32(cfg.cluster)), clusterRank);
  t.row0 = ir.mul(mt, ir.c32(cfg.blockM));
  t.col0 = ir.mul(nt, ir.c32(cfg.blockN));
  if (masked && spec.hasCounts) {
    // counts[g] (signed: a negative count is an empty group; a count
    // above M keeps all M rows, the row bound of the epilogue).
    t.rowsValid = loadGroupI32(t.group);
    t.active = arith::CmpIOp::create(b, arith::CmpIPredicate::slt, t.row0,
                                     t.rowsValid);
  } else if (contiguous) {
    // Groups start at multiples of m_alignment, a multiple of BLOCK_M, so
    // the tile's rows belong to the group of its first row or are padding;
    // an index outside [0, numGroups) (padding, -1) leaves the tile empty.
    t.group = loadGroupI32(t.row0);
    t.active = ir.ult(t.group, ir.c32(spec.numGroups));
  } else if (kGrouped) {
    emitGroupKBlocks(t);
  }
  return t;
}

void GemmEmitter::emitGroupKBlocks(Tile &t) {
  // Block kb holds tokens [128 kb, min(128 kb + 128, T)); a group's run
  // starts at a multiple of m_alignment (a multiple of 128) and ends at a
  // multiple of 128 or at T, so a block's first token names its group (-1
  // or an index outside [0, G): padding, no group's). The op's contract,
  // checked where it is cheap: a block whose first and last ids differ,
  // or a block of the group after a gap in its run, traps (the CPU
  // lowering asserts the same).
  Value zero = ir.c32(0), one = ir.c32(1);
  // T's last token: a constant, or the run-time T's (a k-grouped kernel
  // over a run-time T takes T as its k; the launcher does not launch for
  // T = 0).
  Value lastToken = dynamicK ? ir.add(kRuntime, ir.c32(-1)) : ir.c32(cfg.k - 1);
  auto scan =
      scf::ForOp::create(b, zero, kBlocksValue(), one, ValueRange{zero, zero});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(scan.getBody());
    Value kb = scan.getInductionVar();
    Value first = scan.getRegionIterArg(0), count = scan.getRegionIterArg(1);
    Value token0 = ir.mul(kb, ir.c32(cfg.blockK));
    Value idFirst = loadGroupI32(token0);
    Value tokenLast = arith::MinUIOp::create(
        b, ir.add(token0, ir.c32(cfg.blockK - 1)), lastToken);
    Value idLast = loadGroupI32(tokenLast);
    Value inGroup = ir.eq(idFirst, t.group);
    Value started =
        arith::CmpIOp::create(b, arith::CmpIPredicate::ne, count, zero);
    Value next = ir.add(first, count);
    Value offRun = arith::CmpIOp::create(b, arith::CmpIPredicate::ne, kb, next);
    Value continuing = ir.andi(inGroup, started);
    Value gap = ir.andi(continuing, offRun);
    Value mixed =
        arith::CmpIOp::create(b, arith::CmpIPredicate::ne, idFirst, idLast);
    auto trapIf = scf::IfOp::create(b, ir.ori(mixed, gap),
                                    /*withElseRegion=*/false);
    {
      OpBuilder::InsertionGuard trapGuard(b);
      b.setInsertionPointToStart(&trapIf.getThenRegion().front());
      LLVM::Trap::create(b);
    }
    Value opens = ir.andi(inGroup, ir.eq(count, zero));
    Value newFirst = arith::SelectOp::create(b, opens, kb, first);
    Value newCount =
        arith::SelectOp::create(b, inGroup, ir.add(count, one), count);
    scf::YieldOp::create(b, ValueRange{newFirst, newCount});
  }
  t.kFirst = scan.getResult(0);
  t.kCount = scan.getResult(1);
}

Value GemmEmitter::kBlockOf(const Tile &t, Value kBlock) {
  return t.kFirst ? ir.add(t.kFirst, kBlock) : kBlock;
}

Value GemmEmitter::kBlocksOf(const Tile &t) {
  // k_grouped: the group's run; an empty group runs none (C or +0.0).
  if (t.kCount)
    return t.kCount;
  if (!t.active)
    return kBlocksValue();
  return arith::SelectOp::create(b, t.active, ir.c32(kBlocks), ir.c32(0));
}

scf::ForOp GemmEmitter::emitTileLoop() {
  const bool clustered = cfg.cluster > 1;
  auto tileLoop = scf::ForOp::create(b, clustered ? clusterId : ctaId, tiles,
                                     clustered ? clusterCount : ctaCount,
                                     ValueRange{ir.c32(0)});
  b.setInsertionPointToStart(tileLoop.getBody());
  return tileLoop;
}
