//===- GemmConsumer.cpp - the GEMM kernel's consumer warpgroups -----------===//
//
// Each consumer warpgroup computes 64 rows x consumerN columns of a tile:
// at the tile's start it stages the tile's B scales in shared memory
// (GemmScales.cpp); per K block it computes the slot's wgmma descriptors
// and reads the block's B scales, waits for the slot's full barrier, reads
// the slot's A scales, runs the wgmma chain over the slot's A and B, hands
// the slot back and promotes the partial sums into its FP32 accumulator
// (GemmPromotion.cpp: only multiplies and FMAs after the wgmma.wait_group);
// after the last K block the epilogue stores the tile (GemmEpilogue.h). The
// tile loop and what the grouping decides of a tile (its K blocks, its group's
// offsets) are the tile scheduler's (GemmTileScheduler.h).
//
// The promotion runs in lock-step after each K block's wgmma chain
// (`wgmma.wait_group 0`), or overlapped (GemmKernelConfig::overlap = U):
// block k + 1's chain is issued into a second partial set before block k
// is promoted (`wgmma.wait_group 1`), in a K loop unrolled by U blocks per
// trip and drained before its back edge, the KB mod U blocks after the
// last trip in lock-step.
//
// With two m64 waves per consumer (GemmKernelConfig::waves) the warpgroup
// owns 128 rows: per K block, wave 0's chain, wait and promotion, then
// wave 1's into the same partial set (emitWavesKBlock), each wave with its
// own accumulators (the K loop carries them wave after wave).
//
//===----------------------------------------------------------------------===//
#include "GemmEpilogue.h"
#include "GemmTileScheduler.h"

#include "fp8/Target/Hopper/GemmBScaleStaging.h"
#include "fp8/Target/Hopper/WgmmaFragment.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::gemm;
using namespace mlir::fp8::wgmma;

namespace {

NVVM::WGMMATypes wgmmaType(Type t) {
  return isa<Float8E5M2Type>(t) ? NVVM::WGMMATypes::e5m2
                                : NVVM::WGMMATypes::e4m3;
}

/// The wgmma.mma_async chain of k32 steps [firstStep, endStep) (0: the
/// whole K block) on the slot of `ops`, committed as one group and not
/// waited for: the partial sums (a struct of accRegs f32). `registers`:
/// the first step's input registers (its scale-d is 0, so their values are
/// unused; null: undef).
Value emitWgmmaGroup(GemmEmitter &e, const WgmmaOperands &ops,
                     int64_t firstStep, int64_t endStep,
                     Value registers = Value());

/// The overlapped promotion's K loop over `kBlocks` (cfg.overlap = U): a
/// loop of kBlocks / U unrolled trips, then the rest in lock-step; `init`
/// the ring iteration and the accumulators. Returns the last loop (its
/// results: the ring iteration and the accumulators).
scf::ForOp emitOverlappedKLoop(GemmEmitter &e, const ConsumerThread &thr,
                               const ConsumerTile &ct, Value kBlocks,
                               ValueRange init);

} // namespace

static void emitOperandFence(ImplicitLocOpBuilder &b,
                             MutableArrayRef<Value> regs);

void GemmEmitter::emitConsumers(scf::IfOp roleIf) {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&roleIf.getElseRegion().front());
  emitSetMaxRegisters(cfg.consumerRegs, /*increase=*/true);
  ConsumerThread thr = emitConsumerThread();
  scf::ForOp tileLoop = scheduler->emitTileLoop();
  ConsumerTile ct = emitConsumerTile(thr, tileLoop.getInductionVar());
  emitBScaleStaging(ct);
  SmallVector<Value> init{tileLoop.getRegionIterArg(0)};
  for (int64_t v = 0; v < cfg.waves; ++v)
    emitAccumulatorInit(waveTile(ct, v), init);
  Value step = ir.c32(1);
  if (cfg.hasBF16Operands()) {
    // The folded fill's constant in every accumulator (acc_init): fenced
    // here, before the K loop, so that each is its own register when the
    // first wgmma takes them as its D; otherwise the copies of the one
    // constant register land between wgmma.fence and the wgmma, where
    // ptxas fences them itself (C7519).
    if (spec.accInit)
      emitOperandFence(b, MutableArrayRef<Value>(init).drop_front());
    scf::ForOp kLoop = emitBF16KLoops(thr, init);
    epilogue->emit(thr, ct, kLoop);
    scf::YieldOp::create(b, ValueRange{kLoop.getResult(0)});
    return;
  }
  Value kBlocks = scheduler->kBlocksOf(ct.tile);
  if (cfg.overlap) {
    scf::ForOp kLoop = emitOverlappedKLoop(*this, thr, ct, kBlocks, init);
    epilogue->emit(thr, ct, kLoop);
    scf::YieldOp::create(b, ValueRange{kLoop.getResult(0)});
    return;
  }
  Value lower = ir.c32(0);
  auto kLoop = scf::ForOp::create(b, lower, kBlocks, step, init);
  emitConsumerKBlock(thr, ct, kLoop);
  epilogue->emit(thr, ct, kLoop);
  scf::YieldOp::create(b, ValueRange{kLoop.getResult(0)});
}

ConsumerThread GemmEmitter::emitConsumerThread() {
  ConsumerThread thr;
  // Fragment map, per-thread part (WgmmaFragment.h): this thread's rows are
  // rowBase and rowBase + 8 of its warpgroup's 64-row slice; its columns
  // colBase + accumulatorColOffset(r).
  thr.warp = ir.divu(wgThread, ir.c32(32));
  thr.lane = ir.remu(wgThread, ir.c32(32));
  Value laneRow = ir.divu(thr.lane, ir.c32(4));
  Value warpRow = ir.mul(thr.warp, ir.c32(16));
  thr.rowBase = ir.add(warpRow, laneRow);
  Value two = ir.c32(2);
  thr.colBase = ir.mul(ir.remu(thr.lane, ir.c32(4)), two);
  // This warpgroup's rows and columns in the tile: row group
  // wg % rowGroups, column group wg / rowGroups (without a column split,
  // the row group is wg and the columns start at the tile's).
  thr.colSplit = cfg.colSplits() > 1;
  thr.wgRowGroup = thr.colSplit ? ir.remu(wg, ir.c32(cfg.rowGroups())) : wg;
  thr.wgRow = ir.mul(thr.wgRowGroup, ir.c32(cfg.rowsPerConsumer()));
  thr.wgCol = thr.colSplit ? ir.mul(ir.divu(wg, ir.c32(cfg.rowGroups())),
                                    ir.c32(consumerN))
                           : Value();
  return thr;
}

ConsumerTile GemmEmitter::emitConsumerTile(const ConsumerThread &thr,
                                           Value tileIndex) {
  ConsumerTile ct;
  ct.tile = scheduler->tileOf(tileIndex);
  // B scales: one per 128 columns and K block. Columns 8j..8j+7 of the
  // tile (register group j of the fragment map, WgmmaFragment.h) lie in
  // one 128-column block, since tiles start at multiples of 8: block
  // (col0 + 8j) / 128. The tile touches up to `sbCount` blocks from
  // col0 / 128 on; which group falls in which is static when BLOCK_N
  // divides 128 or is a multiple of it, else it depends on col0 % 128.
  // (This warpgroup's columns: consumerN from col0, a multiple of
  // consumerN.)
  ct.sbCount = bScaleBlocksPerConsumer(cfg);
  ct.sbStatic = (cfg.scaleBlocksAligned() && consumerN % 128 == 0) ||
                128 % cfg.blockN == 0;
  ct.col0 = ct.tile.col0;
  if (thr.colSplit)
    ct.col0 = ir.add(ct.col0, thr.wgCol);
  ct.sbBlock0 = ir.divu(ct.col0, ir.c32(128));
  // A column group of the last tile may start past N (all its columns
  // masked): its scale loads stay in the B-scale array.
  if (thr.colSplit)
    ct.sbBlock0 =
        arith::MinUIOp::create(b, ct.sbBlock0, ir.c32(cfg.nScaleBlocks() - 1));
  ct.sbRel = ct.sbStatic ? Value() : ir.remu(ct.col0, ir.c32(128));
  // This thread's output positions (fragment map): rows rowTile and
  // rowTile + 8, columns colTile + accumulatorColOffset(r).
  ct.rowTile = ir.add(ct.tile.row0, ir.add(thr.wgRow, thr.rowBase));
  ct.colTile = ir.add(ct.col0, thr.colBase);
  // A grouped kernel's offsets of the tile's group in C and D, and in the
  // B scales (null: one matrix).
  ct.groupRow0 = scheduler->groupRowOffset(ct.tile);
  ct.sbGroup0 = scheduler->bScaleGroupOffset(ct.tile);
  return ct;
}

bool GemmEmitter::hasShortKBlockPath() {
  // Measured with ptxas 13 -v: the lock-step tiles at the register limit
  // (BLOCK_N 216, per-column 168, grouped 200) spill with the A scales
  // live across the wgmma chain or the staged B scales, as does the
  // overlapped promotion at 112 columns by 8: those keep the old path.
  int64_t needed = cfg.consumerRegsNeeded() + kShortKBlockPathRegs;
  if (scheduler->takesGroupArgument())
    needed += GemmKernelConfig::kGroupedConsumerOverheadRegs;
  return cfg.overlap == 0 && needed <= cfg.consumerRegs;
}

ConsumerTile GemmEmitter::waveTile(const ConsumerTile &ct, int64_t wave) {
  if (wave == 0)
    return ct;
  ConsumerTile w = ct;
  w.rowTile = ir.add(ct.rowTile, ir.c32(wave * kTileM));
  return w;
}

Value GemmEmitter::globalRow(const ConsumerTile &ct, Value row) {
  if (!ct.groupRow0)
    return row;
  // A head view's D interleaves the H heads row by row ([B, M, H, N]).
  if (cfg.dHeads != 1)
    row = ir.mul(row, ir.c32(cfg.dHeads));
  return ir.add(ct.groupRow0, row);
}

void GemmEmitter::emitConsumerKBlock(const ConsumerThread &thr,
                                     const ConsumerTile &ct, scf::ForOp kLoop) {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(kLoop.getBody());
  Value kBlock = kLoop.getInductionVar(), it = kLoop.getRegionIterArg(0);
  auto [stage, phase] = stagePhase(it);
  ValueRange acc = kLoop.getRegionIterArgs().drop_front();
  if (cfg.promotionsPerBlock() > 1) {
    WgmmaOperands ops = emitWgmmaOperands(thr, stage);
    NVVM::MBarrierTryWaitParityOp::create(b, barrier(stage, true), phase,
                                          ticks);
    SmallVector<Value> mxAcc(acc);
    emitMxKBlock(thr, ct, kBlock, stage, ops, mxAcc);
    SmallVector<Value> yields{ir.add(it, ir.c32(1))};
    llvm::append_range(yields, mxAcc);
    scf::YieldOp::create(b, yields);
    return;
  }
  if (cfg.waves > 1) {
    emitWavesKBlock(thr, ct, kLoop);
    return;
  }
  // The slot's descriptors and A-scale address, and the B scales, before
  // the wait so their latency hides behind it (of the K block in the
  // operand: a k-grouped tile's run starts at kFirst); after it only the A
  // scales are read before the wgmma chain.
  WgmmaOperands ops = emitWgmmaOperands(thr, stage);
  Value saAddr = aScaleAddress(thr, stage);
  BScales sb = emitBScaleLoads(ct, scheduler->kBlockOf(ct.tile, kBlock));
  NVVM::MBarrierTryWaitParityOp::create(b, barrier(stage, true), phase, ticks);
  // The A scales before the chain where the registers allow it
  // (hasShortKBlockPath), else after it.
  const bool early = hasShortKBlockPath();
  Value aScales[2];
  if (early)
    emitAScaleLoads(saAddr, aScales);
  Value partial = emitWgmma(ops);
  if (!early)
    emitAScaleLoads(saAddr, aScales);
  emitReleaseStage(thr, stage);
  SmallVector<Value> yields{ir.add(it, ir.c32(1))};
  emitPromotion(ct, sb, aScales, partial, acc, yields);
  scf::YieldOp::create(b, yields);
}

/// An operand fence on `regs` (f32, each replaced by the fence's result):
/// an empty side-effecting inline asm whose outputs are tied to its inputs
/// ("=f,...,0,1,...": LLVM's spelling of "+f"), so the ops computing them
/// stay above it, and it, having side effects, above the next wgmma. In
/// PTX it is no instruction (only its begin/end comments).
static void emitOperandFence(ImplicitLocOpBuilder &b,
                             MutableArrayRef<Value> regs) {
  std::string constraints;
  for (size_t i = 0; i < regs.size(); ++i)
    constraints += i ? ",=f" : "=f";
  for (size_t i = 0; i < regs.size(); ++i)
    constraints += "," + std::to_string(i);
  auto resType = LLVM::LLVMStructType::getLiteral(
      b.getContext(), SmallVector<Type>(regs.size(), b.getF32Type()));
  auto fence = LLVM::InlineAsmOp::create(
      b, resType, ValueRange(regs), /*asm_string=*/"", constraints,
      /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
      /*operand_attrs=*/ArrayAttr());
  for (size_t i = 0; i < regs.size(); ++i)
    regs[i] = LLVM::ExtractValueOp::create(b, fence.getResult(0),
                                           static_cast<int64_t>(i));
}

void GemmEmitter::emitWavesKBlock(const ConsumerThread &thr,
                                  const ConsumerTile &ct, scf::ForOp kLoop) {
  Value kBlock = kLoop.getInductionVar(), it = kLoop.getRegionIterArg(0);
  auto [stage, phase] = stagePhase(it);
  ValueRange acc = kLoop.getRegionIterArgs().drop_front();
  // Before the wait, as in one wave: wave 0's descriptors and A-scale
  // address, the B scales (one set for both waves: the same columns).
  // Wave v's A rows are v x 64 rows (v x 64 x 128 bytes, whole 1024-byte
  // swizzle atoms) on in the slot: its descriptor's address field (bytes
  // / 16) that much higher, its A scales 64 floats on.
  WgmmaOperands ops0 = emitWgmmaOperands(thr, stage);
  Value saAddr0 = aScaleAddress(thr, stage);
  BScales sb = emitBScaleLoads(ct, scheduler->kBlockOf(ct.tile, kBlock));
  NVVM::MBarrierTryWaitParityOp::create(b, barrier(stage, true), phase, ticks);
  const bool early = hasShortKBlockPath();
  const int64_t waveBytes = kTileM * cfg.blockK * cfg.operandBytes();
  SmallVector<Value> yields{ir.add(it, ir.c32(1))};
  Value partial;
  for (int64_t v = 0; v < cfg.waves; ++v) {
    WgmmaOperands ops = ops0;
    Value saAddr = saAddr0;
    if (v) {
      Value descStep = ir.c64(v * waveBytes / 16);
      ops.descA = ir.add(ops0.descA, descStep);
      saAddr = LLVM::GEPOp::create(
          b, ir.ptrShared, ir.f32, saAddr0,
          ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(v * kTileM)});
    }
    Value aScales[2];
    if (early)
      emitAScaleLoads(saAddr, aScales);
    // The wave's chain into the one partial set, completed (wait_group 0)
    // before its promotion reads it and before the next wave's chain
    // writes it again. The next wave's first wgmma (scale-d 0: its inputs
    // unused) takes this wave's partial as its registers, so LLVM and
    // ptxas keep one partial set; with undef inputs each wave's set stays
    // live around the K loop (a wgmma reads its D registers), 256
    // registers at 128 columns (docs/gpu-kernel.md, "Two m64 waves per
    // consumer").
    partial = emitWgmmaGroup(*this, ops, 0, 0, partial);
    NVVM::WgmmaWaitGroupSyncOp::create(b, b.getI64IntegerAttr(0));
    if (!early)
      emitAScaleLoads(saAddr, aScales);
    // The slot is read (A, B and the A scales) once the last wave's chain
    // completed.
    if (v + 1 == cfg.waves)
      emitReleaseStage(thr, stage);
    emitPromotion(ct, sb, aScales, partial, acc.slice(v * accRegs, accRegs),
                  yields);
    // The promotion's FMAs above the next wave's chain: LLVM would sink
    // them (pure, feeding only the loop's yield) below it, both partials
    // then live at once.
    if (v + 1 < cfg.waves)
      emitOperandFence(b, MutableArrayRef<Value>(yields).take_back(accRegs));
  }
  scf::YieldOp::create(b, yields);
}

void GemmEmitter::emitMxKBlock(const ConsumerThread &thr,
                               const ConsumerTile &ct, Value kBlock,
                               Value stage, const WgmmaOperands &ops,
                               SmallVector<Value> &acc) {
  // mxfp8 (OCP MX: a scale per 32 K): each k32 step is its own partial,
  // promoted with its step's scales before the next (the reference's
  // promotion every 32 K), so the ring slot is read four times and handed
  // back after the last step. Its B scales are loaded per step: four
  // steps' worth would not fit the registers.
  const int64_t steps = cfg.promotionsPerBlock();
  // K (static) not a multiple of 128: the last K block holds only
  // tailSteps scale groups. Its other steps are skipped, not promoted as
  // zeros: acc + 0 * s is not acc for acc = -0.0 or s = Inf/NaN, and the
  // reference adds no such term.
  const int64_t tailK = cfg.k % cfg.blockK;
  const int64_t tailSteps =
      tailK ? GemmKernelConfig::ceilDiv(tailK, GemmKernelConfig::kMxScaleK)
            : steps;
  Value notLastBlock =
      tailSteps < steps ? ir.ult(kBlock, ir.c32(cfg.kBlocks() - 1)) : Value();
  for (int64_t s = 0; s < steps; ++s) {
    auto emitStep = [&](bool release) {
      Value stepRow = ir.c32(s);
      Value scaleRow = ir.add(ir.mul(kBlock, ir.c32(steps)), stepRow);
      BScales sb = emitBScaleLoads(ct, scaleRow);
      Value saAddr = aScaleAddress(thr, stage, s);
      const bool early = hasShortKBlockPath();
      Value aScales[2];
      if (early)
        emitAScaleLoads(saAddr, aScales);
      Value partial = emitWgmma(ops, s, s + 1);
      if (!early)
        emitAScaleLoads(saAddr, aScales);
      if (release)
        emitReleaseStage(thr, stage);
      SmallVector<Value> next;
      emitPromotion(ct, sb, aScales, partial, acc, next);
      return next;
    };
    if (s < tailSteps) {
      acc = emitStep(/*release=*/s + 1 == steps);
      continue;
    }
    // A step past the tail: taken in every K block but the last (a
    // warpgroup-uniform branch, so its wgmma stays convergent).
    auto stepIf = scf::IfOp::create(b, ValueRange(acc).getTypes(), notLastBlock,
                                    /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&stepIf.getThenRegion().front());
      scf::YieldOp::create(b, emitStep(/*release=*/false));
      b.setInsertionPointToStart(&stepIf.getElseRegion().front());
      scf::YieldOp::create(b, acc);
    }
    acc.assign(stepIf.getResults().begin(), stepIf.getResults().end());
    if (s + 1 == steps)
      emitReleaseStage(thr, stage);
  }
}

WgmmaOperands GemmEmitter::emitWgmmaOperands(const ConsumerThread &thr,
                                             Value stage) {
  // Descriptors: K-major, 128B swizzle, SBO 1024 (WgmmaFragment.h).
  // An A row of a stage is 128 bytes: blockK FP8 codes or bf16 elements.
  const int64_t rowBytes = cfg.blockK * cfg.operandBytes();
  Value aRowGroup =
      ir.mul(thr.wgRowGroup, ir.c32(cfg.rowsPerConsumer() * rowBytes));
  Value aStage = ir.mul(stage, ir.c32(cfg.aStageBytes()));
  Value aAddr = ir.add(smemAddr, ir.add(aStage, aRowGroup));
  // B rows (N) are 128-byte lines; a column group starts consumerN lines in
  // (a multiple of 8: whole 1024-byte swizzle atoms).
  Value bStageOffset = ir.mul(stage, ir.c32(cfg.bStageBytes()));
  Value bStage = ir.add(ir.c32(cfg.bRingOffset()), bStageOffset);
  // (bf16: the column group's first MN-major box, 64 columns of blockK rows
  // of 128 bytes each per box: also consumerN x 128 bytes in.)
  if (thr.colSplit)
    bStage = ir.add(bStage, ir.mul(thr.wgCol, ir.c32(rowBytes)));
  Value bAddr = ir.add(smemAddr, bStage);
  auto desc = [&](Value addr, uint64_t bits) {
    Value four = ir.c32(4);
    Value field = ir.shru(ir.andi(addr, ir.c32(0x3FFFF)), four);
    Value constBits = ir.c64(static_cast<int64_t>(bits));
    return ir.ori(ir.zext64(field), constBits);
  };
  // An MN-major operand (bf16 only): its boxes of 64 M or N columns x
  // blockK K rows; a consumer's 64 rows of A are one box (aRowGroup).
  auto bits = [&](bool mnMajor) {
    return mnMajor ? mnMajorSw128ConstBits(cfg.blockK) : kKMajorSw128ConstBits;
  };
  WgmmaOperands ops;
  ops.descA = desc(aAddr, bits(cfg.aMNMajor()));
  ops.descB = desc(bAddr, bits(cfg.bMNMajor()));
  return ops;
}

Value GemmEmitter::emitWgmma(const WgmmaOperands &ops, int64_t firstStep,
                             int64_t endStep) {
  Value partial = emitWgmmaGroup(*this, ops, firstStep, endStep);
  NVVM::WgmmaWaitGroupSyncOp::create(b, b.getI64IntegerAttr(0));
  return partial;
}

namespace {

Value emitWgmmaGroup(GemmEmitter &e, const WgmmaOperands &ops,
                     int64_t firstStep, int64_t endStep, Value registers) {
  ImplicitLocOpBuilder &b = e.b;
  KernelBuilder &ir = e.ir;
  const GemmKernelConfig &cfg = e.cfg;
  MLIRContext *ctx = e.ctx;
  const int64_t consumerN = e.consumerN;
  if (!endStep)
    endStep = cfg.blockK / kFp8K;
  Value descA = ops.descA, descB = ops.descB;
  auto scaleIn = NVVM::WGMMAScaleInAttr::get(ctx, NVVM::WGMMAScaleIn::one);

  auto structTy = LLVM::LLVMStructType::getLiteral(
      ctx, SmallVector<Type>(e.accRegs, ir.f32));
  Value partial =
      registers ? registers : Value(LLVM::UndefOp::create(b, structTy));
  NVVM::WgmmaFenceAlignedOp::create(b);
  for (int64_t kStep = firstStep; kStep < endStep; ++kStep) {
    Value step = ir.c64(static_cast<int64_t>(kmajorSw128KStep(kStep)));
    partial = NVVM::WgmmaMmaAsyncOp::create(
        b, structTy, partial,
        kStep ? b.createOrFold<arith::AddIOp>(descA, step) : descA,
        kStep ? b.createOrFold<arith::AddIOp>(descB, step) : descB,
        NVVM::MMAShapeAttr::get(ctx, kTileM, consumerN, kFp8K),
        NVVM::WGMMATypesAttr::get(ctx, wgmmaType(e.spec.aType)),
        NVVM::WGMMATypesAttr::get(ctx, wgmmaType(e.spec.bType)),
        NVVM::WGMMATypesAttr::get(ctx, NVVM::WGMMATypes::f32),
        NVVM::WGMMAScaleOutAttr::get(ctx, kStep != firstStep
                                              ? NVVM::WGMMAScaleOut::one
                                              : NVVM::WGMMAScaleOut::zero),
        scaleIn, scaleIn, NVVM::MMALayoutAttr::get(ctx, NVVM::MMALayout::row),
        NVVM::MMALayoutAttr::get(ctx, NVVM::MMALayout::col),
        NVVM::MMAIntOverflowAttr());
  }
  NVVM::WgmmaGroupSyncAlignedOp::create(b);
  return partial;
}

/// One K block of an overlapped trip: its ring slot, its B scales (read
/// before the full-barrier wait), its A scales (read after the wait, before
/// its wgmma chain) and its partial sums (in flight until a
/// wgmma.wait_group covers its commit group).
struct OverlappedBlock {
  Value stage;
  BScales sb;
  Value saAddr;
  Value aScales[2];
  Value partial;
};

/// Block `blk`'s promotion, once a wgmma.wait_group covers its group: its
/// slot handed back, acc = fma(partial, sa * sb, acc).
SmallVector<Value> emitOverlappedPromotion(GemmEmitter &e,
                                           const ConsumerThread &thr,
                                           const ConsumerTile &ct,
                                           const OverlappedBlock &blk,
                                           ValueRange acc) {
  // Without the registers for the short path (hasShortKBlockPath: the
  // overlapped promotion holds a second partial set) the A scales are read
  // here, after the wait_group.
  Value aScales[2] = {blk.aScales[0], blk.aScales[1]};
  if (!aScales[0])
    e.emitAScaleLoads(blk.saAddr, aScales);
  e.emitReleaseStage(thr, blk.stage);
  SmallVector<Value> next;
  e.emitPromotion(ct, blk.sb, aScales, blk.partial, acc, next);
  return next;
}

/// The body of one trip of U = cfg.overlap K blocks from trip * U: each
/// block's wgmma chain is issued into the partial set its predecessor's
/// promotion does not read; `wgmma.wait_group 1` then completes the
/// predecessor's group (block j's stays in flight), whose slot is handed
/// back and which is promoted. Before the back edge `wgmma.wait_group 0`
/// drains the trip's last block: ptxas follows the two sets through the
/// unrolled body, not around the back edge (with a set in flight there, it
/// serializes every wgmma: info C7514). The promotion per output stays in
/// K-block order, as in lock-step.
void emitOverlappedTrip(GemmEmitter &e, const ConsumerThread &thr,
                        const ConsumerTile &ct, scf::ForOp tripLoop) {
  ImplicitLocOpBuilder &b = e.b;
  KernelBuilder &ir = e.ir;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(tripLoop.getBody());
  const int64_t u = e.cfg.overlap;
  Value kBlock0 = ir.mul(tripLoop.getInductionVar(), ir.c32(u));
  Value it0 = tripLoop.getRegionIterArg(0);
  SmallVector<Value> acc(tripLoop.getRegionIterArgs().drop_front());
  OverlappedBlock prev;
  for (int64_t j = 0; j < u; ++j) {
    Value kBlock = ir.add(kBlock0, ir.c32(j));
    auto [stage, phase] = e.stagePhase(ir.add(it0, ir.c32(j)));
    OverlappedBlock blk;
    blk.stage = stage;
    WgmmaOperands ops = e.emitWgmmaOperands(thr, stage);
    Value saAddr = e.aScaleAddress(thr, stage);
    blk.sb = e.emitBScaleLoads(ct, e.scheduler->kBlockOf(ct.tile, kBlock));
    NVVM::MBarrierTryWaitParityOp::create(b, e.barrier(stage, true), phase,
                                          e.ticks);
    blk.saAddr = saAddr;
    if (e.hasShortKBlockPath())
      e.emitAScaleLoads(saAddr, blk.aScales);
    blk.partial = emitWgmmaGroup(e, ops, 0, 0);
    if (j > 0) {
      NVVM::WgmmaWaitGroupSyncOp::create(b, b.getI64IntegerAttr(1));
      acc = emitOverlappedPromotion(e, thr, ct, prev, acc);
    }
    prev = blk;
  }
  NVVM::WgmmaWaitGroupSyncOp::create(b, b.getI64IntegerAttr(0));
  acc = emitOverlappedPromotion(e, thr, ct, prev, acc);
  SmallVector<Value> yields{ir.add(it0, ir.c32(u))};
  llvm::append_range(yields, acc);
  scf::YieldOp::create(b, yields);
}

scf::ForOp emitOverlappedKLoop(GemmEmitter &e, const ConsumerThread &thr,
                               const ConsumerTile &ct, Value kBlocks,
                               ValueRange init) {
  KernelBuilder &ir = e.ir;
  Value u = ir.c32(e.cfg.overlap);
  Value trips = ir.divu(kBlocks, u);
  Value lower = ir.c32(0);
  Value step = ir.c32(1);
  auto tripLoop = scf::ForOp::create(e.b, lower, trips, step, init);
  emitOverlappedTrip(e, thr, ct, tripLoop);
  // The KB mod U blocks after the last trip, in lock-step.
  Value done = ir.mul(trips, u);
  auto rest =
      scf::ForOp::create(e.b, done, kBlocks, step, tripLoop.getResults());
  e.emitConsumerKBlock(thr, ct, rest);
  return rest;
}

} // namespace

void GemmEmitter::emitReleaseStage(const ConsumerThread &thr, Value stage) {
  // Release the slot, once per warp: wgmma has read A/B (a wait_group
  // covered the slot's commit group) and every lane has its A scales in
  // registers (read before the wgmma chain). bar.warp.sync orders the
  // other lanes' scale loads before lane 0's arrive (its release covers
  // only its own accesses; PTX ISA, bar.warp.sync and the memory
  // consistency model), so the producer cannot refill the slot under a
  // lagging lane.
  NVVM::SyncWarpOp::create(b, ir.c32(-1));
  auto laneIf = scf::IfOp::create(b, ir.eq(thr.lane, ir.c32(0)), false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&laneIf.getThenRegion().front());
  NVVM::MBarrierArriveOp::create(
      b, Type(), barrier(stage, false), Value(),
      NVVM::MemScopeKindAttr::get(ctx, NVVM::MemScopeKind::CTA));
  // In a cluster, the peers' producers multicast into this slot too: the
  // same arrival on each peer's empty barrier (mapa: the peer's address of
  // this shared-memory word). Release at CTA scope, the default that
  // CUTLASS's ClusterBarrier::arrive uses too: the hazard is a write after
  // our reads, which have completed (wgmma.wait_group 0, the scales in
  // registers). At cluster scope the arrive costs a cluster-wide fence per
  // consumer warp and stage: on an H200, 33% of the cluster kernel's warp
  // samples stalled on it ("membar"; docs/performance.md).
  for (int64_t d = 1; d < cfg.cluster; ++d) {
    Value clusterSize = ir.c32(cfg.cluster);
    Value peer = ir.remu(ir.add(clusterRank, ir.c32(d)), clusterSize);
    Value remote = NVVM::MapaOp::create(b, LLVM::LLVMPointerType::get(ctx, 7),
                                        barrier(stage, false), peer);
    NVVM::MBarrierArriveOp::create(
        b, Type(), remote, Value(),
        NVVM::MemScopeKindAttr::get(ctx, NVVM::MemScopeKind::CTA));
  }
}

scf::ForOp GemmEmitter::emitBF16KLoops(const ConsumerThread &thr,
                                       ValueRange init) {
  // The K blocks of 64 elements: the full ones with four k16 wgmma each,
  // then, when K is not a multiple of 64, the last with ceil((K % 64) / 16)
  // (a second loop of one trip, so the epilogue reads a loop's results
  // either way). A k16 step past K would add 16 zero products (the TMA's
  // zero fill) and an extra group step of the tensor core's accumulation;
  // the elements of the last step past K are zero fill (+0.0 products).
  const int64_t kTail = cfg.k % cfg.blockK;
  const int64_t fullBlocks = kTail ? kBlocks - 1 : kBlocks;
  const int64_t tailSteps = GemmKernelConfig::ceilDiv(kTail, kBF16K);
  Value step = ir.c32(1);
  Value lower = ir.c32(0);
  Value fullEnd = ir.c32(fullBlocks);
  scf::ForOp kLoop;
  if (fullBlocks) {
    kLoop = scf::ForOp::create(b, lower, fullEnd, step, init);
    emitBF16KBlock(thr, kLoop, cfg.blockK / kBF16K);
  }
  if (!kTail)
    return kLoop;
  Value end = ir.c32(kBlocks);
  auto tailLoop = scf::ForOp::create(b, fullEnd, end, step,
                                     kLoop ? kLoop.getResults() : init);
  emitBF16KBlock(thr, tailLoop, tailSteps);
  return tailLoop;
}

void GemmEmitter::emitBF16KBlock(const ConsumerThread &thr, scf::ForOp kLoop,
                                 int64_t steps) {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(kLoop.getBody());
  Value it = kLoop.getRegionIterArg(0);
  auto [stage, phase] = stagePhase(it);
  ValueRange acc = kLoop.getRegionIterArgs().drop_front();
  WgmmaOperands ops = emitWgmmaOperands(thr, stage);
  NVVM::MBarrierTryWaitParityOp::create(b, barrier(stage, true), phase, ticks);
  // The accumulator itself is wgmma's D: C (or the previous block's sums)
  // in, every step adding onto it (scale-d = 1), in K order.
  auto structTy =
      LLVM::LLVMStructType::getLiteral(ctx, SmallVector<Type>(accRegs, ir.f32));
  Value d = LLVM::UndefOp::create(b, structTy);
  for (int64_t r = 0; r < accRegs; ++r)
    d = LLVM::InsertValueOp::create(b, d, acc[r], r);
  auto bf16 = NVVM::WGMMATypesAttr::get(ctx, NVVM::WGMMATypes::bf16);
  auto scaleIn = NVVM::WGMMAScaleInAttr::get(ctx, NVVM::WGMMAScaleIn::one);
  // K-major A is layout row, K-major B layout col; the other layout is
  // wgmma's transpose of the operand (imm-trans-a = 1 for A col, imm-trans-b
  // = 1 for B row): A read as a [K, M] tile, B as a [K, N] tile (the
  // default).
  auto layoutA = NVVM::MMALayoutAttr::get(
      ctx, cfg.aMNMajor() ? NVVM::MMALayout::col : NVVM::MMALayout::row);
  auto layoutB = NVVM::MMALayoutAttr::get(
      ctx, cfg.bMNMajor() ? NVVM::MMALayout::row : NVVM::MMALayout::col);
  // A k16 step: 32 bytes along a K-major operand's 128-byte rows, 16 K rows
  // (2048 bytes) down an MN-major one.
  auto kStepBits = [](bool mnMajor, int64_t kStep) {
    return static_cast<int64_t>(mnMajor ? mnmajorSw128KStep(kStep)
                                        : kmajorSw128BF16KStep(kStep));
  };
  NVVM::WgmmaFenceAlignedOp::create(b);
  for (int64_t kStep = 0; kStep < steps; ++kStep) {
    Value stepA = ir.c64(kStepBits(cfg.aMNMajor(), kStep));
    Value stepB = ir.c64(kStepBits(cfg.bMNMajor(), kStep));
    Value descA =
        kStep ? b.createOrFold<arith::AddIOp>(ops.descA, stepA) : ops.descA;
    Value descB =
        kStep ? b.createOrFold<arith::AddIOp>(ops.descB, stepB) : ops.descB;
    // scale-d = 1 from the first step: D is the accumulator (C in).
    auto scaleD = NVVM::WGMMAScaleOutAttr::get(ctx, NVVM::WGMMAScaleOut::one);
    d = NVVM::WgmmaMmaAsyncOp::create(
        b, structTy, d, descA, descB,
        NVVM::MMAShapeAttr::get(ctx, kTileM, consumerN, kBF16K), bf16, bf16,
        NVVM::WGMMATypesAttr::get(ctx, NVVM::WGMMATypes::f32), scaleD, scaleIn,
        scaleIn, layoutA, layoutB, NVVM::MMAIntOverflowAttr());
  }
  NVVM::WgmmaGroupSyncAlignedOp::create(b);
  NVVM::WgmmaWaitGroupSyncOp::create(b, b.getI64IntegerAttr(0));
  emitReleaseStage(thr, stage);
  SmallVector<Value> yields{ir.add(it, ir.c32(1))};
  for (int64_t r = 0; r < accRegs; ++r)
    yields.push_back(LLVM::ExtractValueOp::create(b, d, r));
  scf::YieldOp::create(b, yields);
}
