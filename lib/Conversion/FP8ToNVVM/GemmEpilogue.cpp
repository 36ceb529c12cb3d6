//===- GemmEpilogue.cpp - the GEMM kernel's stores of D -------------------===//
//
// Each thread stores its accumulator registers as register pairs (two
// adjacent columns of one row), converted to D's element type, masked to
// [M, N]; rows of a grouped kernel that hold no result (the tile
// scheduler's emitRowValid) are stored as +0.0.
//
//===----------------------------------------------------------------------===//
#include "GemmEpilogue.h"
#include "GemmTileScheduler.h"

#include "fp8/Target/Hopper/WgmmaFragment.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::gemm;
using namespace mlir::fp8::wgmma;

std::unique_ptr<Epilogue> Epilogue::create(GemmEmitter &e) {
  if (e.cfg.quantizeEpilogue)
    return std::make_unique<QuantizeEpilogue>(e);
  return std::make_unique<StoreEpilogue>(e);
}

void StoreEpilogue::bindOutput(Value d) { dPtr = ir.toGlobal(d); }

void StoreEpilogue::emit(const ConsumerThread &, const ConsumerTile &ct,
                         scf::ForOp kLoop) {
  const bool bf16Out = spec.resultType.isBF16();
  Value rows[2] = {ct.rowTile, ir.add(ct.rowTile, ir.c32(8))};
  Value rowOk[2] = {ir.ult(rows[0], e.mRows), ir.ult(rows[1], e.mRows)};
  Value rowOff[2];
  for (int64_t i = 0; i < 2; ++i) {
    Value n = ir.c64(cfg.n);
    rowOff[i] = ir.mul(ir.zext64(e.globalRow(ct, rows[i])), n);
  }
  // Rows of a grouped kernel that hold no result are stored as +0.0 (null:
  // every row below M holds one).
  Value rowValid[2] = {};
  for (int64_t i = 0; i < 2; ++i)
    rowValid[i] = e.scheduler->emitRowValid(ct.tile, rows[i]);
  Type outElem = bf16Out ? Type(b.getBF16Type()) : ir.f32;
  int64_t outBytes = bf16Out ? 2 : 4;
  auto storeAt = [&](Value value, Value elemIndex, int64_t align) {
    Value p = LLVM::GEPOp::create(b, ir.ptrGlobal, outElem, dPtr,
                                  ValueRange{elemIndex});
    LLVM::StoreOp::create(b, value, p, align);
  };
  auto convert = [&](Value v, int64_t slot) -> Value {
    if (rowValid[slot])
      v = arith::SelectOp::create(b, rowValid[slot], v, ir.cf32(0.0f));
    return bf16Out ? Value(arith::TruncFOp::create(b, outElem, v)) : v;
  };
  for (int64_t r = 0; r < e.accRegs; r += 2) {
    int64_t slot = accumulatorRowSlot(r);
    Value col = ir.add(ct.colTile, ir.c32(accumulatorColOffset(r)));
    Value idx = ir.add(rowOff[slot], ir.zext64(col));
    Value v0 = kLoop.getResult(1 + r), v1 = kLoop.getResult(2 + r);
    if (cfg.n % 2 == 0) {
      // col is even and N is even: both columns are in range together and
      // the pair is naturally aligned.
      Value ok =
          arith::AndIOp::create(b, rowOk[slot], ir.ult(col, ir.c32(cfg.n)));
      auto ifOp = scf::IfOp::create(b, ok, false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&ifOp.getThenRegion().front());
      auto vecTy = VectorType::get({2}, outElem);
      Value vec = LLVM::UndefOp::create(b, vecTy);
      Value pos0 = ir.c32(0);
      vec = LLVM::InsertElementOp::create(b, vec, convert(v0, slot), pos0);
      Value pos1 = ir.c32(1);
      vec = LLVM::InsertElementOp::create(b, vec, convert(v1, slot), pos1);
      storeAt(vec, idx, 2 * outBytes);
    } else {
      for (int64_t j = 0; j < 2; ++j) {
        Value c = ir.add(col, ir.c32(j));
        Value ok =
            arith::AndIOp::create(b, rowOk[slot], ir.ult(c, ir.c32(cfg.n)));
        auto ifOp = scf::IfOp::create(b, ok, false);
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(&ifOp.getThenRegion().front());
        storeAt(convert(j ? v1 : v0, slot), ir.add(idx, ir.c64(j)), outBytes);
      }
    }
  }
}
