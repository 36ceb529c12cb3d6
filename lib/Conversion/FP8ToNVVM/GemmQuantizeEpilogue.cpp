//===- GemmQuantizeEpilogue.cpp - D quantized in 1x128 tiles
//---------------===//
//
// The quantize epilogue (GemmKernelConfig::quantizeEpilogue): in place of
// D, the consumers store what fp8.quantize with [1, 128] blocks makes of
// the stored D, so the next FP8 linear's input never goes through global
// memory in high precision.
//
// A thread's fragment (WgmmaFragment.h) holds two rows of its warpgroup's
// columns, two of every 8: for each 128-column tile of those columns, 32
// values per row, the other 96 in the three other lanes of its quad (lanes
// 4q..4q+3 share the rows). So a (row, tile) amax is the thread's max |v|
// over its 32 values, then the quad's (shfl.sync.bfly 1 and 2). The values
// are first rounded to D's element type (bf16: RNE) and back, as the
// quantize would read the stored D; columns at or past N count as +0.0
// (with C, their accumulators start from C's last column, read clamped:
// GemmPromotion.cpp) and are not stored. Scale and codes use the quantize
// kernel's arithmetic (createDequantScale; cvt.rn.satfinite of v / s), so the
// result is bit-identical to the GEMM kernel followed by the quantize kernel.
//
// With the TMA store (GemmKernelConfig::tmaStore) each code pair goes to
// the warpgroup's staging buffer instead (one st.shared.b16 at its
// 128B-swizzled place in a box of 64 rows x 128 codes: one 1x128 tile of
// the warpgroup's rows), and TmaStoreStaging stores the boxes through the
// codes' tensor map, clipped at M and N; the scales stay on st.global.
//
//===----------------------------------------------------------------------===//
#include "GemmEpilogue.h"

#include "fp8/Dialect/FP8/Utils/FP8Arith.h"
#include "fp8/Target/Hopper/WgmmaFragment.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::gemm;
using namespace mlir::fp8::wgmma;

/// Whether accumulator register `r` holds row slot `slot` of the
/// warpgroup's 128-column tile `t` (the fragment map of WgmmaFragment.h).
static bool inTile(int64_t r, int64_t slot, int64_t t) {
  return accumulatorRowSlot(r) == slot && accumulatorColOffset(r) / 128 == t;
}

Value QuantizeEpilogue::emitTileAmax(const ConsumerTile &ct, ArrayRef<Value> v,
                                     int64_t slot, int64_t t) {
  const bool colTail = cfg.n % cfg.blockN != 0;
  Value amax = ir.cf32(0.0f);
  for (int64_t r = 0; r < e.accRegs; ++r) {
    if (!inTile(r, slot, t))
      continue;
    Value a = ir.absf(v[r]);
    if (colTail) {
      Value col = ir.add(ct.colTile, ir.c32(accumulatorColOffset(r)));
      Value zero = ir.cf32(0.0f);
      a = arith::SelectOp::create(b, ir.ult(col, ir.c32(cfg.n)), a, zero);
    }
    amax = arith::MaximumFOp::create(b, amax, a); // max.NaN.f32
  }
  // The row's other 96 columns of the tile: the quad's other lanes.
  return ir.maxNaNBfly(ir.maxNaNBfly(amax, 1), 2);
}

void QuantizeEpilogue::emitTileCodes(const ConsumerTile &ct, ArrayRef<Value> v,
                                     int64_t slot, int64_t t, Value s,
                                     Value rowOffset, Value rowOk) {
  // Register pairs (r, r + 1): two adjacent columns of one row.
  for (int64_t r = 0; r < e.accRegs; r += 2) {
    if (!inTile(r, slot, t))
      continue;
    Value col = ir.add(ct.colTile, ir.c32(accumulatorColOffset(r)));
    // Columns col, col + 1; the op packs its first operand into the high
    // byte, so the 2-byte little-endian store puts col's code first.
    Value lo = arith::DivFOp::create(b, v[r], s);
    Value hi = arith::DivFOp::create(b, v[r + 1], s);
    Value packed = NVVM::ConvertF32x2ToF8x2Op::create(
        b, b.getI16Type(), hi, lo, NVVM::FPRoundingMode::RN,
        NVVM::SaturationMode::SATFINITE, /*relu=*/false, spec.quantizeType);
    if (staging) {
      emitStagedPair(*stagingThread, stagingBuf, r, slot, packed);
      continue;
    }
    Value idx = ir.add(rowOffset, ir.zext64(col));
    // An even N: the pair is in range together and 2-byte aligned.
    const int64_t stores = cfg.n % 2 == 0 ? 1 : 2;
    for (int64_t j = 0; j < stores; ++j) {
      Value n = ir.c32(cfg.n);
      Value ok =
          arith::AndIOp::create(b, rowOk, ir.ult(ir.add(col, ir.c32(j)), n));
      auto ifOp = scf::IfOp::create(b, ok, false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&ifOp.getThenRegion().front());
      Value value =
          stores == 1
              ? packed
              : Value(arith::TruncIOp::create(
                    b, b.getI8Type(),
                    arith::ShRUIOp::create(b, packed,
                                           arith::ConstantIntOp::create(
                                               b, b.getI16Type(), 8 * j))));
      Value p = LLVM::GEPOp::create(b, ir.ptrGlobal, b.getI8Type(), codes,
                                    ValueRange{ir.add(idx, ir.c64(j))});
      LLVM::StoreOp::create(b, value, p, stores == 1 ? 2 : 1);
    }
  }
}

void QuantizeEpilogue::emitStagedPair(const ConsumerThread &thr, Value buf,
                                      int64_t r, int64_t slot, Value packed) {
  // Register pair r: row rowBase + 8 slot of the warpgroup's 64, columns
  // 8 g + 2 q and + 1 of its columns (g = r / 4, q = lane % 4): box g / 16,
  // byte 8 (g % 16) + 2 q of its row, so chunk ((g % 16) / 2) xor (row % 8)
  // (row % 8 = lane / 4) at byte 8 (g % 2) + 2 q of it.
  const int64_t g = r / 4;
  Value rowInOctet = ir.divu(thr.lane, ir.c32(4));
  Value chunk = ir.xori(rowInOctet, ir.c32((g % 16) / 2));
  Value rowStart = ir.add(buf, ir.mul(thr.rowBase, ir.c32(128)));
  Value inChunk = ir.add(thr.colBase, ir.c32(8 * (g % 2)));
  int64_t constPart = slot * 8 * 128 + g / 16 * cfg.kStoreBoxBytes;
  Value pairRow = ir.add(rowStart, ir.c32(constPart));
  Value pairChunk = ir.add(pairRow, ir.mul(chunk, ir.c32(16)));
  Value offset = ir.add(pairChunk, inChunk);
  LLVM::StoreOp::create(b, packed, ir.gep(e.smem, offset), 2);
}

void QuantizeEpilogue::bindOutput(Value d) {
  codes = staging ? d : ir.toGlobal(d);
}

void QuantizeEpilogue::appendParameterTypes(SmallVectorImpl<Type> &types) {
  types.push_back(ir.ptr);
}

void QuantizeEpilogue::bindTrailingParameters(Block *entry) {
  scalesPtr = ir.toGlobal(entry->getArguments().back());
}

void QuantizeEpilogue::emit(const ConsumerThread &thr, const ConsumerTile &ct,
                            scf::ForOp kLoop) {
  // D as the quantize reads it back: rounded to D's element type.
  SmallVector<Value> v;
  for (int64_t r = 0; r < e.accRegs; ++r) {
    Value x = kLoop.getResult(1 + r);
    if (spec.resultType.isBF16())
      x = arith::ExtFOp::create(
          b, ir.f32,
          arith::TruncFOp::create(b, b.getBF16Type(), x).getResult());
    v.push_back(x);
  }
  // With the TMA store: the staging buffer, once the previous tile's
  // store has read it.
  if (staging) {
    stagingThread = &thr;
    stagingBuf = staging->begin();
  }
  // The scale of a (row, tile): stored by the quad's first lane (column
  // base 0) for rows below M and tiles that start below N.
  Value firstLane = ir.eq(thr.colBase, ir.c32(0));
  for (int64_t slot = 0; slot < 2; ++slot) {
    Value row = slot ? ir.add(ct.rowTile, ir.c32(8)) : ct.rowTile;
    Value rowOk = ir.ult(row, e.mRows);
    Value n = ir.c64(cfg.n);
    Value rowOffset = ir.mul(ir.zext64(row), n);
    Value nScaleBlocks = ir.c64(cfg.nScaleBlocks());
    Value scaleRow = ir.mul(ir.zext64(row), nScaleBlocks);
    for (int64_t t = 0; t < e.consumerN / 128; ++t) {
      Value amax = emitTileAmax(ct, v, slot, t);
      Value s = createDequantScale(b, b.getLoc(), amax, spec.quantizeEps,
                                   spec.quantizeType, spec.quantizePow2);
      Value tileCol = ir.add(ct.col0, ir.c32(128 * t));
      Value inCols = ir.ult(tileCol, ir.c32(cfg.n));
      Value store = arith::AndIOp::create(
          b, arith::AndIOp::create(b, rowOk, firstLane), inCols);
      {
        auto ifOp = scf::IfOp::create(b, store, false);
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(&ifOp.getThenRegion().front());
        Value idx = ir.add(scaleRow, ir.zext64(ir.divu(tileCol, ir.c32(128))));
        Value p = LLVM::GEPOp::create(b, ir.ptrGlobal, ir.f32, scalesPtr,
                                      ValueRange{idx});
        LLVM::StoreOp::create(b, s, p, 4);
      }
      emitTileCodes(ct, v, slot, t, s, rowOffset, rowOk);
    }
  }
  if (staging) {
    // One box of 128 codes per 1x128 tile of the warpgroup's columns.
    staging->finish(thr, ct, codes, 128, kLoop);
    stagingThread = nullptr;
  }
}
