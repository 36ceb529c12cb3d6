//===- GemmKGroupedScheduler.cpp - the k-grouped (Wgrad) schedule ---------===//
//
// The MoE Wgrad (GemmGrouping::kGrouped): A [M, T] and B [N, T] with
// per-column B scales, D [G, M, N], the grid group-major. Group g's tokens
// are one run of K blocks, which producer and consumers find by the same
// scan of the per-token group ids (the group argument) before the tile's
// K loop; an empty group runs no K block (D = C, or +0.0).
//
//===----------------------------------------------------------------------===//
#include "GemmTileScheduler.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::gemm;

KGroupedScheduler::KGroupedScheduler(GemmEmitter &e) : TileScheduler(e) {
  assert(cfg.bScalesPerColumn &&
         "the k-grouped kernel takes per-column B scales");
}

bool KGroupedScheduler::groupMajor() const { return true; }

Value KGroupedScheduler::kBlocksOf(const Tile &t) {
  // The group's run; an empty group runs none (C or +0.0).
  return t.kCount;
}

Value KGroupedScheduler::kBlockOf(const Tile &t, Value kBlock) {
  return ir.add(t.kFirst, kBlock);
}

Value KGroupedScheduler::groupRowOffset(const Tile &t) {
  // C and D are [G, M, N]: group g's rows start at g*M.
  return ir.mul(t.group, e.mRows);
}

void KGroupedScheduler::emitTileGroup(Tile &t) {
  // Block kb holds tokens [128 kb, min(128 kb + 128, T)); a group's run
  // starts at a multiple of m_alignment (a multiple of 128) and ends at a
  // multiple of 128 or at T, so a block's first token names its group (-1
  // or an index outside [0, G): padding, no group's). The op's contract,
  // checked where it is cheap: a block whose first and last ids differ,
  // or a block of the group after a gap in its run, traps (the CPU
  // lowering asserts the same).
  Value zero = ir.c32(0);
  Value one = ir.c32(1);
  // T's last token: a constant, or the run-time T's (a k-grouped kernel
  // over a run-time T takes T as its k; the launcher does not launch for
  // T = 0).
  Value lastToken =
      e.dynamicK ? ir.add(e.kRuntime, ir.c32(-1)) : ir.c32(cfg.k - 1);
  auto scan = scf::ForOp::create(b, zero, e.kBlocksValue(), one,
                                 ValueRange{zero, zero});
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
