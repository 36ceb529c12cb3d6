//===- GemmTileScheduler.cpp - the GEMM kernel's persistent tile loop -----===//
//
// The grid is persistent: CTA c computes tiles c, c + gridDim, ... of the
// tile order. Producer and consumers run the same loop and derive the same
// tile values (GemmEmitter.h, Tile). This file is the loop, the tile order
// and the dense form; the grouped forms are GemmGroupedScheduler.cpp and
// GemmKGroupedScheduler.cpp (GemmTileScheduler.h). With clusters
// (cfg.cluster > 1) the loop walks cluster tiles: cluster q computes
// cluster tiles q, q + the cluster count, ...; cluster tile (mt', nt) of
// the tile order (over clusterMTiles() rows) is tile (cluster * mt' + rank,
// nt) for the CTA of rank `rank`, so the CTAs of a cluster share their B
// tile.
//
//===----------------------------------------------------------------------===//
#include "GemmTileScheduler.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::gemm;

std::unique_ptr<TileScheduler> TileScheduler::create(GemmEmitter &e) {
  switch (e.spec.grouping) {
  case GemmGrouping::none:
    if (e.cfg.kSplits > 1)
      return std::make_unique<SplitKScheduler>(e);
    return std::make_unique<DenseScheduler>(e);
  case GemmGrouping::masked:
    return std::make_unique<MaskedScheduler>(e);
  case GemmGrouping::contiguous:
    return std::make_unique<ContiguousScheduler>(e);
  case GemmGrouping::kGrouped:
    return std::make_unique<KGroupedScheduler>(e);
  }
  llvm_unreachable("unknown GemmGrouping");
}

void TileScheduler::emitTileCount(Value runtimeM, Value runtimeGroups) {
  // M and the tile count: compile-time constants, or computed from the
  // run-time M by a dynamic-M kernel.
  e.mRows = e.dynamicM ? runtimeM : ir.c32(cfg.m);
  // Rows of the schedule's tiles: BLOCK_M, or a cluster's cluster * BLOCK_M.
  const int64_t rowsPerTile = cfg.blockM * cfg.cluster;
  tiles = e.dynamicM ? ir.ceilDivTimes(e.mRows, rowsPerTile, e.nTiles)
                     : ir.c32(cfg.clusterTiles());
  // Masked and k-grouped: the grid covers the tiles of one group times the
  // group count (group-major), a run-time G's for the batch kernel of one.
  // A tile's group is then its index / groupTiles, G needed only here.
  groupTiles = tiles;
  if (groupMajor())
    tiles = ir.mul(groupTiles,
                   runtimeGroups ? runtimeGroups : ir.c32(majorGroups()));
}

void TileScheduler::emitTileOrder() {
  if (cfg.groupM > 1)
    mTiles = e.dynamicM ? ir.ceilDivTimes(e.mRows, cfg.blockM * cfg.cluster, 1)
                        : ir.c32(cfg.clusterMTiles());
}

// Tile t covers rows [mt*BM, +BM) and columns [nt*BN, +BN). Row-major
// (groupM = 1): mt = t / nTiles, nt = t % nTiles. Grouped order
// (GemmKernelConfig::groupedTileCoords): groups of groupM tile rows, each
// swept column by column, so a wave of CTAs shares A and B panels in L2
// (issue 17: row-major re-streams all of B every wave). One op per
// statement: the IR order is fixed.
std::pair<Value, Value> TileScheduler::tileCoords(Value tile) {
  const int64_t groupM = cfg.groupM;
  if (groupM == 1) {
    Value col = ir.remu(tile, ir.c32(e.nTiles));
    Value row = ir.divu(tile, ir.c32(e.nTiles));
    return std::make_pair(row, col);
  }
  Value perGroup = ir.c32(groupM * e.nTiles);
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

Value TileScheduler::loadGroupI32(Value index) {
  return LLVM::LoadOp::create(
      b, ir.i32,
      LLVM::GEPOp::create(b, ir.ptrGlobal, ir.i32, groupPtr,
                          ValueRange{ir.zext64(index)}));
}

Tile TileScheduler::tileOf(Value tile) {
  Tile t;
  Value local = tile;
  if (groupMajor()) {
    t.group = ir.divu(tile, groupTiles);
    local = ir.remu(tile, groupTiles);
  }
  t.local = local;
  auto [mt, nt] = tileCoords(local);
  if (cfg.cluster > 1)
    mt = ir.add(ir.mul(mt, ir.c32(cfg.cluster)), e.clusterRank);
  t.row0 = ir.mul(mt, ir.c32(cfg.blockM));
  t.col0 = ir.mul(nt, ir.c32(cfg.blockN));
  emitTileGroup(t);
  return t;
}

Value TileScheduler::kBlocksOf(const Tile &) { return e.kBlocksValue(); }

scf::ForOp TileScheduler::emitTileLoop() {
  const bool clustered = cfg.cluster > 1;
  auto tileLoop = scf::ForOp::create(
      b, clustered ? e.clusterId : e.ctaId, tiles,
      clustered ? e.clusterCount : e.ctaCount, ValueRange{ir.c32(0)});
  b.setInsertionPointToStart(tileLoop.getBody());
  return tileLoop;
}
