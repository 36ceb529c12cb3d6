//===- QuantizeColumns.cpp - the column-block quantize kernel's scales ----===//
//
// Column blocks [128, 1] (one scale per column and 128 rows: the Wgrad
// operand quantized along the tokens, `wgrad_operands = fresh`;
// QuantizeKernelConfig::perColumn). The CTA holds a region of 128 rows x
// 128 columns as the 128x128 kernel does (QuantizeAmax.cpp's emitLoads:
// warp w rows w, w + 8, ...; lane l columns 4l .. 4l+3), but reduces per
// column: each lane over its 16 rows (no shuffle), then the 8 warps
// through a shared [8 x 128] f32 array and one bar.sync (the region guard
// is uniform across the CTA: one region per CTA, the grid exactly the
// regions). Each thread derives its 4 columns' scales with
// createDequantScale (the CPU reference's builder), warp 0 stores them,
// and QuantizeCodes.cpp's emitCodes stores the codes with them.
//
//===----------------------------------------------------------------------===//
#include "QuantizeEmitter.h"

#include "fp8/Dialect/FP8/Utils/FP8Arith.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::quantize;

SmallVector<Value> QuantizeEmitter::emitColumnAmax(StringRef colAmaxSymbol) {
  SmallVector<Value> amax(colsPerLane, zero);
  for (int64_t r = 0; r < rowsPerWarp; ++r)
    for (int64_t j = 0; j < colsPerLane; ++j)
      amax[j] = arith::MaximumFOp::create(b, amax[j], // max.NaN.f32
                                          ir.absf(x[r * colsPerLane + j]));
  // slot(w, j): warp w's amax of the lane's column j, at [w][4 lane + j].
  Value smem = LLVM::AddressOfOp::create(b, ir.ptrShared, colAmaxSymbol);
  Value laneCol = ir.mul(lane, ir.c32(colsPerLane));
  auto slot = [&](Value w, int64_t j) {
    Value col = ir.add(laneCol, ir.c32(j));
    Value row0 = ir.mul(w, ir.c32(QuantizeKernelConfig::kBlockCols));
    Value i = ir.add(row0, col);
    return LLVM::GEPOp::create(b, ir.ptrShared, ir.f32, smem, ValueRange{i});
  };
  for (int64_t j = 0; j < colsPerLane; ++j)
    LLVM::StoreOp::create(b, amax[j], slot(warpInBlock, j), 4);
  NVVM::Barrier0Op::create(b);
  for (int64_t j = 0; j < colsPerLane; ++j)
    for (int64_t w = 0; w < warpsPerBlock; ++w)
      amax[j] = arith::MaximumFOp::create(
          b, amax[j], LLVM::LoadOp::create(b, ir.f32, slot(ir.c32(w), j), 4));
  return amax;
}

SmallVector<Value> QuantizeEmitter::emitColumnScales(ArrayRef<Value> amax) {
  SmallVector<Value> scales;
  for (Value a : amax)
    scales.push_back(createDequantScale(b, b.getLoc(), a, spec.eps,
                                        spec.fp8Type, spec.pow2));
  // scales [rowBlocks, cols], row-major: warp 0's lanes store the region's.
  Value rowStride = ir.c64(cfg.cols);
  Value rowBase = ir.mul(ir.zext64(rowBlock), rowStride);
  for (int64_t j = 0; j < colsPerLane; ++j) {
    Value col = ir.add(col0, ir.c32(j));
    Value inRange = ir.ult(col, ir.c32(cfg.cols));
    Value firstWarp = ir.eq(warpInBlock, ir.c32(0));
    Value ok = arith::AndIOp::create(b, firstWarp, inRange);
    auto ifOp = scf::IfOp::create(b, ok, false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    Value idx = ir.add(rowBase, ir.zext64(col));
    if (spec.e8m0Scale) {
      // E8M0: the pow2 scale's biased exponent, as QuantizeCodes.cpp.
      Value expShift = ir.c32(23);
      Value bits = arith::BitcastOp::create(b, ir.i32, scales[j]);
      Value code =
          arith::TruncIOp::create(b, b.getI8Type(), ir.shru(bits, expShift));
      Value p = LLVM::GEPOp::create(b, ir.ptrGlobal, b.getI8Type(), sPtr,
                                    ValueRange{idx});
      LLVM::StoreOp::create(b, code, p, 1);
      continue;
    }
    Value p =
        LLVM::GEPOp::create(b, ir.ptrGlobal, ir.f32, sPtr, ValueRange{idx});
    LLVM::StoreOp::create(b, scales[j], p, 4);
  }
  return scales;
}
