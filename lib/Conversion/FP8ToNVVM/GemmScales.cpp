//===- GemmScales.cpp - the GEMM kernel's scale loads ---------------------===//
//
// A scales: one per row and K block, loaded by TMA with the slot's A tile
// (GemmProducer.cpp) and read from the slot's scale area after the wait,
// before the wgmma chain (so the promotion after wgmma.wait_group only
// multiplies and adds).
// B scales: one per 128 x 128 block of B ([N/128, KB], a grouped kernel's
// [G, N/128, KB]) or, for the Wgrad kernel, one per column (the host's
// transposed, zero-padded [KB, Np]); read before the wait. The 128 x 128
// block scales of a static K are staged in shared memory once per tile
// (GemmKernelConfig::bScalesStaged: ld.shared per K block); the others are
// read from global memory per K block and thread. Whole-K scales (scale_k =
// k, the rowwise and per-tensor presets): [1, Mpad] and [1, Np], K block
// 0's at every K block.
//
//===----------------------------------------------------------------------===//
#include "GemmEmitter.h"

#include "fp8/Target/Hopper/GemmBScaleStaging.h"
#include "fp8/Target/Hopper/WgmmaFragment.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::gemm;

void GemmEmitter::emitBScaleStaging(ConsumerTile &ct) {
  // Exactly where the launch's shared memory counts the buffers
  // (gemmLaunchSharedMemoryBytes); it implies the registers of the short
  // K-block path (hasShortKBlockPath).
  if (!bScalesStaged(cfg))
    return;
  // This warpgroup's buffer (its columns' blocks; without a column split
  // the row groups copy the same blocks, each into its own buffer, so each
  // synchronises its 128 threads only: named barrier 1 + wg).
  Value bufBytes = ir.c32(bScaleStagingBytesPerConsumer(cfg));
  Value bufStart = ir.c32(bScaleStagingOffset(cfg));
  Value bufOffset = ir.add(bufStart, ir.mul(wg, bufBytes));
  ct.sbStaged = ir.gep(smem, bufOffset);
  Value barrierId = ir.add(wg, ir.c32(1));
  Value barrierThreads = ir.c32(wgmma::kWarpgroupThreads);
  // Every thread of the warpgroup has read the previous tile's scales.
  NVVM::BarrierOp::create(b, TypeRange{}, barrierId, barrierThreads,
                          NVVM::BarrierReductionAttr(), Value());
  // Element i of the buffer is element first + i of the row-major [N/128,
  // KB] array (blocks sbBlock0, sbBlock0 + 1, ...: consecutive rows);
  // elements past the last block are clamped to its last (they feed only
  // masked columns).
  Value first = ir.mul(ct.sbBlock0, ir.c32(kBlocks));
  Value last = ir.c32(cfg.nScaleBlocks() * kBlocks - 1);
  auto emitCopy = [&] {
    Value count = ir.c32(ct.sbCount * kBlocks);
    Value step = ir.c32(wgmma::kWarpgroupThreads);
    auto loop = scf::ForOp::create(b, wgThread, count, step);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value i = loop.getInductionVar();
    Value src = arith::MinUIOp::create(b, ir.add(first, i), last);
    if (ct.sbGroup0)
      src = ir.add(ct.sbGroup0, src);
    Value v = LLVM::LoadOp::create(
        b, ir.f32,
        LLVM::GEPOp::create(b, ir.ptrGlobal, ir.f32, sbPtr, ValueRange{src}));
    LLVM::StoreOp::create(b, v,
                          LLVM::GEPOp::create(b, ir.ptrShared, ir.f32,
                                              ct.sbStaged, ValueRange{i}));
  };
  // A grouped tile without rows may have no group (contiguous padding):
  // it runs no K block, so it copies nothing.
  if (ct.tile.active) {
    auto activeIf = scf::IfOp::create(b, ct.tile.active, false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&activeIf.getThenRegion().front());
    emitCopy();
  } else {
    emitCopy();
  }
  // The copies are visible to the warpgroup's threads.
  NVVM::BarrierOp::create(b, TypeRange{}, barrierId, barrierThreads,
                          NVVM::BarrierReductionAttr(), Value());
}

BScales GemmEmitter::emitBScaleLoads(const ConsumerTile &ct, Value kBlock) {
  BScales sb;
  if (ct.sbStaged) {
    // Staged at the tile's start: block i's scale of K block kb at
    // [i * KB + kb].
    // Addressed from the shared-memory symbol (a 32-bit offset per K
    // block, not a 64-bit pointer live across the K loop: registers).
    Value bufBytes = ir.c32(bScaleStagingBytesPerConsumer(cfg));
    Value bufStart = ir.c32(bScaleStagingOffset(cfg));
    Value bufOffset = ir.add(bufStart, ir.mul(wg, bufBytes));
    Value kOffset = ir.add(bufOffset, ir.mul(kBlock, ir.c32(4)));
    for (int64_t i = 0; i < ct.sbCount; ++i) {
      Value byteOffset = ir.add(kOffset, ir.c32(4 * i * kBlocks));
      sb.blocks.push_back(
          LLVM::LoadOp::create(b, ir.f32, ir.gep(smem, byteOffset)));
    }
    return sb;
  }
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

Value GemmEmitter::aScaleAddress(const ConsumerThread &thr, Value stage,
                                 int64_t sub) {
  Value saStageOffset = ir.mul(stage, ir.c32(cfg.saStageBytes()));
  Value saBase =
      ir.gep(smem, ir.add(ir.c32(cfg.saRingOffset()), saStageOffset));
  Value saRow = ir.add(thr.wgRow, thr.rowBase);
  // mxfp8: the slot holds [promotionsPerBlock, BLOCK_M] scales (one TMA box).
  if (sub)
    saRow = ir.add(saRow, ir.c32(sub * cfg.blockM));
  return LLVM::GEPOp::create(b, ir.ptrShared, ir.f32, saBase,
                             ValueRange{saRow});
}

void GemmEmitter::emitAScaleLoads(Value addr, Value aScales[2]) {
  aScales[0] = LLVM::LoadOp::create(b, ir.f32, addr);
  // The thread's second row, 8 rows on (WgmmaFragment.h).
  Value rowPlus8 = LLVM::GEPOp::create(b, ir.ptrShared, ir.f32, addr,
                                       ArrayRef<LLVM::GEPArg>{8});
  aScales[1] = LLVM::LoadOp::create(b, ir.f32, rowPlus8);
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
