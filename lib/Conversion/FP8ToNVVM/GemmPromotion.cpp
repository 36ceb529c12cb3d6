//===- GemmPromotion.cpp - the GEMM kernel's FP32 accumulator -------------===//
//
// wgmma accumulates one K block in its own registers (scale-d = 0 on the
// block's first step); the consumer then promotes the partial sums into
// the FP32 accumulator with the block's scales, in the reference
// lowering's order of operations: acc = fma(partial, sa[row] * sb[col],
// acc) per K block, starting from C (exact from bf16) or +0.0 (the BF16
// variant without C: its acc_init constant).
//
//===----------------------------------------------------------------------===//
#include "GemmTileScheduler.h"

#include "fp8/Target/Hopper/WgmmaFragment.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::gemm;
using namespace mlir::fp8::wgmma;

void GemmEmitter::emitAccumulatorInit(const ConsumerTile &ct,
                                      SmallVector<Value> &init) {
  if (!hasAcc) {
    // The BF16 variant's folded fill (acc_init): every accumulator is the
    // fill's constant, as a C of that value would load it (-0.0 kept: it is
    // not +0.0 under the first product's addition).
    float start =
        spec.accInit ? spec.accInit.getValue().convertToFloat() : 0.0f;
    init.append(accRegs, ir.cf32(start));
    return;
  }
  // The accumulator starts at C (converted to f32, exact from bf16), as the
  // reference lowering's promotion starts from C: then
  // acc = fma(partial, sa * sb, acc) per K block, the same sequence.
  // Positions outside [M, N] read a clamped in-range element (no branch);
  // their values are never stored.
  Type cElem = spec.accType.isBF16() ? Type(b.getBF16Type()) : ir.f32;
  // Split-K: only split 0 starts from C, the others from +0.0.
  Value fromC = scheduler->emitStartsFromC(ct.tile);
  Value lastRow = ir.add(mRows, ir.c32(-1));
  Value rowC[2] = {
      arith::MinUIOp::create(b, ct.rowTile, lastRow),
      arith::MinUIOp::create(b, ir.add(ct.rowTile, ir.c32(8)), lastRow)};
  for (int64_t r = 0; r < accRegs; ++r) {
    Value lastCol = ir.c32(cfg.n - 1);
    Value col = arith::MinUIOp::create(
        b, ir.add(ct.colTile, ir.c32(accumulatorColOffset(r))), lastCol);
    Value col64 = ir.zext64(col);
    Value n = ir.c64(cfg.n);
    Value idx =
        ir.add(ir.mul(ir.zext64(globalRow(ct, rowC[accumulatorRowSlot(r)])), n),
               col64);
    // The bf16 kernel's C goes straight into wgmma's accumulator registers:
    // volatile loads, so that no two registers hold one merged load (a
    // clamped position's) whose copies ptxas would have to fence (C7519).
    Value addr =
        LLVM::GEPOp::create(b, ir.ptrGlobal, cElem, cPtr, ValueRange{idx});
    Value v = LLVM::LoadOp::create(b, cElem, addr, /*alignment=*/0,
                                   /*isVolatile=*/cfg.hasBF16Operands());
    Value c = cElem == ir.f32 ? v : Value(arith::ExtFOp::create(b, ir.f32, v));
    if (fromC) {
      Value zero = ir.cf32(0.0f);
      c = arith::SelectOp::create(b, fromC, c, zero);
    }
    init.push_back(c);
  }
}

void GemmEmitter::emitPromotion(const ConsumerTile &ct, const BScales &sb,
                                const Value aScales[2], Value partial,
                                ValueRange acc, SmallVector<Value> &yields) {
  if (cfg.bScalesPerColumn) {
    for (int64_t r = 0; r < accRegs; r += 4) {
      // acc = fma(partial, sa[row] * sb[col], acc): one scale product per
      // register (its row slot and column), in the reference's order.
      for (int64_t q = r; q < r + 4 && q < accRegs; ++q) {
        Value sbq =
            LLVM::ExtractElementOp::create(b, sb.pairs[r / 4], ir.c32(q % 2));
        Value p = LLVM::ExtractValueOp::create(b, partial, q);
        yields.push_back(
            ir.fma(p, ir.fmul(aScales[accumulatorRowSlot(q)], sbq), acc[q]));
      }
    }
    return;
  }
  // sa[slot] * sb[block], computed once per static block and row slot.
  Value scale[2][GemmKernelConfig::kMaxScaleBlocksPerTile] = {};
  for (int64_t r = 0; r < accRegs; r += 4) {
    int64_t staticIdx;
    Value sbj = bScaleOfGroup(ct, sb, r / 4, staticIdx);
    Value groupScale[2];
    for (int64_t slot = 0; slot < 2; ++slot) {
      if (staticIdx >= 0) {
        Value &memo = scale[slot][staticIdx];
        if (!memo)
          memo = ir.fmul(aScales[slot], sbj);
        groupScale[slot] = memo;
      } else {
        groupScale[slot] = ir.fmul(aScales[slot], sbj);
      }
    }
    for (int64_t q = r; q < r + 4 && q < accRegs; ++q) {
      Value p = LLVM::ExtractValueOp::create(b, partial, q);
      yields.push_back(ir.fma(p, groupScale[accumulatorRowSlot(q)], acc[q]));
    }
  }
}
