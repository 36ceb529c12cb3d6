//===- QuantizeRowwise.cpp - the rowwise quantize kernel's loops ----------===//
//
// Rowwise blocks [1, cols] (the `rowwise` preset, torchao's float8 rowwise;
// QuantizeKernelConfig::wholeRow()): one scale per row, one warp per row.
// The warp walks its row in chunks of 128 columns twice:
//   1. each chunk's loads (QuantizeAmax.cpp's emitLoads, lane l columns
//      c * 128 + 4l .. +3) and the lane's running max.NaN of |x|; then the
//      warp's amax (shfl.sync.bfly) and the scale (QuantizeCodes.cpp);
//   2. each chunk's loads again and its codes (QuantizeCodes.cpp).
// A row of K values does not fit in registers for the K of a linear
// (7168 bf16: 56 chunks), so the row is read twice (the second read mostly
// from L2); max is exact and order-independent, so amax, scale and codes
// are the CPU lowering's bit for bit.
//
//===----------------------------------------------------------------------===//
#include "QuantizeEmitter.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::quantize;

void QuantizeEmitter::emitWholeRow(StringRef amaxSymbol) {
  Value laneCol0 = col0;
  Value chunks = ir.c32(cfg.chunks());
  Value one = ir.c32(1);
  // The loads of chunk `iv` at the builder's insertion point.
  auto loadChunk = [&](Value iv) {
    col0 =
        ir.add(ir.mul(iv, ir.c32(QuantizeKernelConfig::kBlockCols)), laneCol0);
    rowIdx.clear();
    rowOk.clear();
    x.clear();
    emitLoads();
  };
  // 1. amax over the row's chunks.
  auto amaxLoop =
      scf::ForOp::create(b, ir.c32(0), chunks, one, ValueRange{zero});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(amaxLoop.getBody());
    loadChunk(amaxLoop.getInductionVar());
    Value laneAmax = emitLaneAmax();
    scf::YieldOp::create(b, ValueRange{arith::MaximumFOp::create(
                                b, amaxLoop.getRegionIterArgs()[0], laneAmax)});
  }
  Value amax = emitBlockAmax(amaxLoop.getResult(0), amaxSymbol);
  Value scale = emitScale(amax);
  // 2. the codes, chunk by chunk.
  auto codesLoop = scf::ForOp::create(b, ir.c32(0), chunks, one);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(codesLoop.getBody()->getTerminator());
  loadChunk(codesLoop.getInductionVar());
  emitCodes(scale);
}
