//===- GemmScales.cpp - the GEMM kernel's scale loads ---------------------===//
//
// A scales: one per row and K block, loaded by TMA with the slot's A tile
// (GemmProducer.cpp) and read from the slot's scale area after the wait.
// B scales: one per 128 x 128 block of B ([N/128, KB], a grouped kernel's
// [G, N/128, KB]) or, for the Wgrad kernel, one per column (the host's
// transposed, zero-padded [KB, Np]); read from global memory before the
// wait. Whole-K scales (scale_k = k, the rowwise and per-tensor presets):
// [1, Mpad] and [1, Np], K block 0's at every K block.
//
//===----------------------------------------------------------------------===//
#include "GemmEmitter.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::gemm;

BScales GemmEmitter::emitBScaleLoads(const ConsumerTile &ct, Value kBlock) {
  BScales sb;
  // Per-column B scales (b blocks [1, 128]): the scales of this thread's
  // columns colTile + 8j and + 1 of register group j are adjacent in the
  // transposed [KB, Np] array: one 8-byte load per group (colTile even, Np
  // a multiple of 8: aligned), consumerN / 8 loads per K block at constant
  // offsets 32j bytes from the first, issued before the wait as the block
  // scales are. Np covers every column of every tile (zero-padded by the
  // host), so no load needs a clamp: with a clamp per group ptxas kept the
  // clamped indices live and spilled at BLOCK_N = 160.
  if (cfg.bScalesPerColumn) {
    // Whole-K scales (scale_k = k): one row [1, Np], the same at every K
    // block.
    Value sbBase = LLVM::GEPOp::create(
        b, ir.ptrGlobal, ir.f32, sbPtr,
        ValueRange{cfg.hasWholeKScales()
                       ? ct.colTile
                       : ir.add(ir.mul(kBlock, ir.c32(cfg.bScaleColumns())),
                                ct.colTile)});
    auto pairTy = VectorType::get({2}, ir.f32);
    for (int64_t j = 0; j < accRegs / 4; ++j)
      sb.pairs.push_back(LLVM::LoadOp::create(
          b, pairTy,
          j ? Value(LLVM::GEPOp::create(
                  b, ir.ptrGlobal, ir.f32, sbBase,
                  ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(8 * j)}))
            : sbBase,
          /*alignment=*/8));
    return sb;
  }
  // The blocks of the tile's columns; blocks past the last one (a tile at
  // the N edge) are clamped to it and feed only masked columns.
  for (int64_t i = 0; i < ct.sbCount; ++i) {
    Value blk = ir.add(ct.sbBlock0, ir.c32(i));
    if (i > 0)
      blk = arith::MinUIOp::create(b, blk, ir.c32(cfg.nScaleBlocks() - 1));
    Value sbIdx = ir.add(ir.mul(blk, kBlocksValue()), kBlock);
    if (ct.sbGroup0)
      sbIdx = ir.add(ct.sbGroup0, sbIdx);
    sb.blocks.push_back(
        LLVM::LoadOp::create(b, ir.f32,
                             LLVM::GEPOp::create(b, ir.ptrGlobal, ir.f32, sbPtr,
                                                 ValueRange{sbIdx})));
  }
  return sb;
}

void GemmEmitter::emitAScaleLoads(const ConsumerThread &thr, Value stage,
                                  Value aScales[2], int64_t sub) {
  Value saStageOffset = ir.mul(stage, ir.c32(cfg.saStageBytes()));
  Value saBase =
      ir.gep(smem, ir.add(ir.c32(cfg.saRingOffset()), saStageOffset));
  Value saRow = ir.add(thr.wgRow, thr.rowBase);
  // mxfp8: the slot holds [promotionsPerBlock, BLOCK_M] scales (one TMA box).
  if (sub)
    saRow = ir.add(saRow, ir.c32(sub * cfg.blockM));
  aScales[0] = LLVM::LoadOp::create(
      b, ir.f32,
      LLVM::GEPOp::create(b, ir.ptrShared, ir.f32, saBase, ValueRange{saRow}));
  aScales[1] = LLVM::LoadOp::create(
      b, ir.f32,
      LLVM::GEPOp::create(b, ir.ptrShared, ir.f32, saBase,
                          ValueRange{ir.add(saRow, ir.c32(8))}));
}

Value GemmEmitter::bScaleOfGroup(const ConsumerTile &ct, const BScales &sb,
                                 int64_t j, int64_t &staticIdx) {
  if (ct.sbStatic) {
    staticIdx = 8 * j / 128;
    return sb.blocks[staticIdx];
  }
  staticIdx = -1;
  Value rel = ir.add(ct.sbRel, ir.c32(8 * j));
  Value v = sb.blocks[0];
  for (int64_t i = 1; i < ct.sbCount; ++i)
    v = arith::SelectOp::create(b,
                                arith::CmpIOp::create(b,
                                                      arith::CmpIPredicate::uge,
                                                      rel, ir.c32(128 * i)),
                                sb.blocks[i], v);
  return v;
}
