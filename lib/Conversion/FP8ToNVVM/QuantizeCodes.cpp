//===- QuantizeCodes.cpp - the quantize kernel's scale and codes ----------===//
//
// The block's scale is built by createDequantScale, the CPU reference's own
// builder (eps, pow2, the "not a normal f32 -> 1" rule), and stored by the
// block's first lane; the codes are cvt.rn.satfinite of x / s, two at a
// time, stored as one 4-byte word per lane and row (vectorized) or byte by
// byte.
//
//===----------------------------------------------------------------------===//
#include "QuantizeEmitter.h"

#include "fp8/Dialect/FP8/Utils/FP8Arith.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::quantize;

Value QuantizeEmitter::emitScale(Value amax) {
  Value s = createDequantScale(b, b.getLoc(), amax, spec.eps, spec.fp8Type,
                               spec.pow2);
  Value firstWarp = ir.eq(warpInBlock, ir.c32(0));
  Value firstLane = ir.eq(lane, ir.c32(0));
  Value first = arith::AndIOp::create(b, firstLane, firstWarp);
  // One scale per tensor: at 0, by block 0 (blk indexes the scales).
  if (cfg.perTensor)
    first = arith::AndIOp::create(b, first, ir.eq(blk, ir.c32(0)));
  auto ifOp = scf::IfOp::create(b, first, false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  if (spec.e8m0Scale) {
    // E8M0: the code of the pow2 scale, its biased exponent (s is a
    // positive normal power of two: createDequantScale's pow2 rule), as
    // the contract's createE8M0FromPow2 stores it.
    Value expShift = ir.c32(23);
    Value bits = arith::BitcastOp::create(b, ir.i32, s);
    Value code =
        arith::TruncIOp::create(b, b.getI8Type(), ir.shru(bits, expShift));
    Value p = LLVM::GEPOp::create(b, ir.ptrGlobal, b.getI8Type(), sPtr,
                                  ValueRange{ir.zext64(blk)});
    LLVM::StoreOp::create(b, code, p, 1);
    return s;
  }
  Value p = LLVM::GEPOp::create(b, ir.ptrGlobal, ir.f32, sPtr,
                                ValueRange{ir.zext64(blk)});
  LLVM::StoreOp::create(b, s, p, 4);
  return s;
}

void QuantizeEmitter::emitCodes(Value s) { emitCodes(ArrayRef<Value>{s}); }

void QuantizeEmitter::emitCodes(ArrayRef<Value> scales) {
  // Column j's scale: the one scale, or the lane's column j's.
  auto scaleOf = [&](int64_t j) { return scales[scales.size() > 1 ? j : 0]; };
  // The op packs its first operand into the high byte: (x1, x0) puts x0 at
  // the lower address once stored little-endian; lo/hi in columns j, j + 1.
  auto cvt2 = [&](Value lo, Value hi, int64_t j) -> Value {
    Value loScaled = arith::DivFOp::create(b, lo, scaleOf(j));
    Value hiScaled = arith::DivFOp::create(b, hi, scaleOf(j + 1));
    Value packed = NVVM::ConvertF32x2ToF8x2Op::create(
        b, b.getI16Type(), hiScaled, loScaled, NVVM::FPRoundingMode::RN,
        NVVM::SaturationMode::SATFINITE, /*relu=*/false, spec.fp8Type);
    return arith::ExtUIOp::create(b, ir.i32, packed);
  };
  for (int64_t r = 0; r < rowsPerWarp; ++r) {
    Value col64 = ir.zext64(col0);
    Value rowStride = ir.c64(cfg.cols);
    Value base = ir.add(ir.mul(ir.zext64(rowIdx[r]), rowStride), col64);
    // One column per lane (MX blocks): its code is the low byte of `lo`.
    Value lo = cvt2(x[r * colsPerLane],
                    x[r * colsPerLane + (colsPerLane > 1 ? 1 : 0)], 0),
          hi = colsPerLane > 2
                   ? cvt2(x[r * colsPerLane + 2], x[r * colsPerLane + 3], 2)
                   : lo;
    if (vectorized) {
      Value ok =
          arith::AndIOp::create(b, rowOk[r], ir.ult(col0, ir.c32(cfg.cols)));
      auto ifOp = scf::IfOp::create(b, ok, false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&ifOp.getThenRegion().front());
      Value word = ir.ori(lo, arith::ShLIOp::create(b, hi, ir.c32(16)));
      Value p = LLVM::GEPOp::create(b, ir.ptrGlobal, b.getI8Type(), qPtr,
                                    ValueRange{base});
      LLVM::StoreOp::create(b, word, p, 4);
      continue;
    }
    for (int64_t j = 0; j < colsPerLane; ++j) {
      Value cols = ir.c32(cfg.cols);
      Value col = ir.add(col0, ir.c32(j));
      Value ok = arith::AndIOp::create(b, rowOk[r], ir.ult(col, cols));
      auto ifOp = scf::IfOp::create(b, ok, false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&ifOp.getThenRegion().front());
      Value pair = j < 2 ? lo : hi;
      Value byte = arith::TruncIOp::create(b, b.getI8Type(),
                                           ir.shru(pair, ir.c32(8 * (j % 2))));
      Value p = LLVM::GEPOp::create(b, ir.ptrGlobal, b.getI8Type(), qPtr,
                                    ValueRange{ir.add(base, ir.c64(j))});
      LLVM::StoreOp::create(b, byte, p, 1);
    }
  }
}
