//===- QuantizeAmax.cpp - the quantize kernel's loads and amax ------------===//
//
// Each lane loads rowsPerWarp x 4 values (out-of-range elements read as 0,
// which leaves amax = max(0, |x|...) as the reference's zero-initialised
// reduction does, and are never stored); amax is reduced per lane, across
// the warp (shfl.sync.bfly) and across the block's warps (shared memory).
//
//===----------------------------------------------------------------------===//
#include "QuantizeEmitter.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::quantize;

void QuantizeEmitter::emitLoads() {
  Type inElem = bf16In ? Type(b.getBF16Type()) : ir.f32;
  auto toF32 = [&](Value v) -> Value {
    return bf16In ? Value(arith::ExtFOp::create(b, ir.f32, v)) : v;
  };
  for (int64_t r = 0; r < rowsPerWarp; ++r) {
    Value warpRow = ir.add(warpInBlock, ir.c32(r * warpsPerBlock));
    Value blockRow0 = ir.mul(rowBlock, ir.c32(cfg.blockRows));
    Value row = ir.add(blockRow0, warpRow);
    rowIdx.push_back(row);
    rowOk.push_back(ir.ult(row, rows));
    Value col64 = ir.zext64(col0);
    Value rowStride = ir.c64(cfg.cols);
    Value base = ir.add(ir.mul(ir.zext64(row), rowStride), col64);
    if (vectorized) {
      auto vecTy = VectorType::get({colsPerLane}, inElem);
      Value ok =
          arith::AndIOp::create(b, rowOk[r], ir.ult(col0, ir.c32(cfg.cols)));
      auto ifOp = scf::IfOp::create(b, TypeRange{vecTy}, ok, true);
      {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(&ifOp.getThenRegion().front());
        Value p = LLVM::GEPOp::create(b, ir.ptrGlobal, inElem, xPtr,
                                      ValueRange{base});
        scf::YieldOp::create(
            b, LLVM::LoadOp::create(b, vecTy, p, colsPerLane * inBytes)
                   .getResult());
        b.setInsertionPointToStart(&ifOp.getElseRegion().front());
        scf::YieldOp::create(
            b, arith::ConstantOp::create(b, vecTy, b.getZeroAttr(vecTy))
                   .getResult());
      }
      for (int64_t j = 0; j < colsPerLane; ++j)
        x.push_back(toF32(
            LLVM::ExtractElementOp::create(b, ifOp.getResult(0), ir.c32(j))));
      continue;
    }
    for (int64_t j = 0; j < colsPerLane; ++j) {
      Value cols = ir.c32(cfg.cols);
      Value col = ir.add(col0, ir.c32(j));
      Value ok = arith::AndIOp::create(b, rowOk[r], ir.ult(col, cols));
      auto ifOp = scf::IfOp::create(b, TypeRange{ir.f32}, ok, true);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&ifOp.getThenRegion().front());
      Value p = LLVM::GEPOp::create(b, ir.ptrGlobal, inElem, xPtr,
                                    ValueRange{ir.add(base, ir.c64(j))});
      scf::YieldOp::create(b,
                           toF32(LLVM::LoadOp::create(b, inElem, p, inBytes)));
      b.setInsertionPointToStart(&ifOp.getElseRegion().front());
      scf::YieldOp::create(b, zero);
      x.push_back(ifOp.getResult(0));
    }
  }
}

Value QuantizeEmitter::emitAmax(StringRef amaxSymbol) {
  return emitBlockAmax(emitLaneAmax(), amaxSymbol);
}

Value QuantizeEmitter::emitLaneAmax() {
  Value amax = zero;
  for (Value v : x)
    amax = arith::MaximumFOp::create(b, amax, ir.absf(v)); // max.NaN.f32
  return amax;
}

Value QuantizeEmitter::emitBlockAmax(Value amax, StringRef amaxSymbol) {
  amax = emitWarpAmax(amax);
  if (warpsPerBlock == 1)
    return amax;
  return emitWarpsAmax(amax, amaxSymbol, warpInBlock, warpsPerBlock);
}

Value QuantizeEmitter::emitWarpAmax(Value amax) {
  for (int64_t off = 16; off >= 1; off /= 2)
    amax = ir.maxNaNBfly(amax, off);
  return amax;
}

Value QuantizeEmitter::emitWarpsAmax(Value amax, StringRef amaxSymbol,
                                     Value warpIdx, int64_t warps) {
  auto maxNaN = [&](Value p, Value q) -> Value {
    return arith::MaximumFOp::create(b, p, q); // max.NaN.f32
  };
  Value smem = LLVM::AddressOfOp::create(b, ir.ptrShared, amaxSymbol);
  auto slot = [&](Value i) {
    return LLVM::GEPOp::create(b, ir.ptrShared, ir.f32, smem, ValueRange{i});
  };
  auto laneZero = scf::IfOp::create(b, ir.eq(lane, ir.c32(0)), false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&laneZero.getThenRegion().front());
    LLVM::StoreOp::create(b, amax, slot(warpIdx), 4);
  }
  NVVM::Barrier0Op::create(b);
  for (int64_t w = 0; w < warps; ++w)
    amax = maxNaN(amax, LLVM::LoadOp::create(b, ir.f32, slot(ir.c32(w)), 4));
  return amax;
}
