//===- GemmGroupedScheduler.cpp - the masked and contiguous schedules -----===//
//
// The grouped MoE forms (docs/gpu-kernel.md, "Grouped GEMM"): G GEMMs that
// share N and K, B [G, N, K] with its block scales [G, ceil(N/128), KB].
// Masked: A [G, M, K] and D [G, M, N], the grid group-major; with the
// counts operand, group g has counts[g] rows. Contiguous: A [M, K] and D
// [M, N], row r of group groupIdx[r]. Either may give a tile no rows of its
// group: it runs no K block (its accumulators stay +0.0, or C) and the
// epilogue stores +0.0 in the rows without a result.
//
//===----------------------------------------------------------------------===//
#include "GemmTileScheduler.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::gemm;

GroupedScheduler::GroupedScheduler(GemmEmitter &e) : TileScheduler(e) {
  assert(!cfg.bScalesPerColumn &&
         "per-column B scales are implemented for the 2-D and k-grouped "
         "kernels only");
  assert(!e.dynamicK && "a run-time K is implemented for the 2-D and "
                        "k-grouped kernels only");
  assert((!spec.hasDynamicGroups() ||
          (spec.grouping == GemmGrouping::masked && !spec.hasCounts &&
           cfg.hasBF16Operands())) &&
         "a run-time group count is the bf16 batch kernel's only");
}

Value GroupedScheduler::kBlocksOf(const Tile &t) {
  // A tile without rows (Tile::active false) runs no K block; without the
  // counts operand every masked tile has rows.
  if (!t.active)
    return e.kBlocksValue();
  Value zero = ir.c32(0);
  Value kBlocks = ir.c32(e.kBlocks);
  return arith::SelectOp::create(b, t.active, kBlocks, zero);
}

Value GroupedScheduler::bScaleGroupOffset(const Tile &t) {
  // A bf16 batch kernel has no B scales.
  if (cfg.hasBF16Operands())
    return Value();
  return ir.mul(t.group, ir.c32(cfg.nScaleBlocks() * e.kBlocks));
}

void MaskedScheduler::emitTileGroup(Tile &t) {
  if (!spec.hasCounts)
    return;
  // counts[g] (signed: a negative count is an empty group; a count above M
  // keeps all M rows, the row bound of the epilogue).
  t.rowsValid = loadGroupI32(t.group);
  t.active =
      arith::CmpIOp::create(b, arith::CmpIPredicate::slt, t.row0, t.rowsValid);
}

Value MaskedScheduler::groupRowOffset(const Tile &t) {
  // C and D are [G, M, N]: group g's rows start at g*M.
  if (cfg.dHeads == 1)
    return ir.mul(t.group, e.mRows);
  // D through a head view (GemmKernelConfig::dHeads): [B, M, H, N] as B x
  // M x H rows of N, batch g = b x H + h's row r at (b x M + r) x H + h.
  // Its row 0 here; GemmEmitter::globalRow steps H rows per row.
  Value heads = ir.c32(cfg.dHeads);
  Value sequence = ir.divu(t.group, heads);
  Value head = ir.remu(t.group, heads);
  Value sequenceRows = ir.mul(e.mRows, heads);
  return ir.add(ir.mul(sequence, sequenceRows), head);
}

Value MaskedScheduler::emitRowValid(const Tile &t, Value row) {
  // Rows at or past counts[g] hold no result.
  if (!spec.hasCounts)
    return Value();
  return arith::CmpIOp::create(b, arith::CmpIPredicate::slt, row, t.rowsValid);
}

void ContiguousScheduler::emitTileGroup(Tile &t) {
  // Groups start at multiples of m_alignment, a multiple of BLOCK_M, so
  // the tile's rows belong to the group of its first row or are padding;
  // an index outside [0, numGroups) (padding, -1) leaves the tile empty.
  t.group = loadGroupI32(t.row0);
  t.active = ir.ult(t.group, ir.c32(spec.numGroups));
}

Value ContiguousScheduler::emitRowValid(const Tile &t, Value row) {
  // A row holds a result when its group index is the tile's group (not
  // padding) and the tile is not empty; rows past M read the last row's
  // index (they are not stored).
  Value clamped = arith::MinUIOp::create(b, row, ir.add(e.mRows, ir.c32(-1)));
  return arith::AndIOp::create(b, t.active,
                               ir.eq(loadGroupI32(clamped), t.group));
}
