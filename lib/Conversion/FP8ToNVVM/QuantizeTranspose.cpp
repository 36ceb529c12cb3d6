//===- QuantizeTranspose.cpp - the requantize kernel's loads --------------===//
//
// The transpose-requantize kernel (fp8.requantize [T, F] -> [F, T],
// DeepSeek-V3 §3.5.2) is the quantize kernel with this piece in place of
// QuantizeAmax.cpp's loads: the output's 1x128 tile (row f, tokens t0 ..
// t0+127, one warp) reads its values from 128 input rows, each the
// dequantized input value
//   x[f, t] = f32(q_in[t, f]) * s_in[t, f / 128]
// (createFP8BitsToF32, exact, times the f32 scale: the product
// fp8-lower-to-linalg's dequantize forms), and the amax, scale and codes
// follow as for fp8.quantize. Out-of-range elements read as 0, as in
// emitLoads.
//
// The input reads are byte loads, strided by F across a warp's lanes
// (uncoalesced); a tiled transpose through shared memory would coalesce
// them (docs/gpu-kernel.md, "Missing").
//
//===----------------------------------------------------------------------===//
#include "QuantizeEmitter.h"

#include "fp8/Dialect/FP8/Utils/FP8Arith.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::quantize;

Value QuantizeEmitter::emitDequantizedInput(Value row, Value col, Value ok) {
  auto ifOp = scf::IfOp::create(b, TypeRange{ir.f32}, ok, true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  // The input is [cols, rows]: element (row, col) of the output is input
  // element (col, row), its scale that of input tile (col, row / 128).
  Value row64 = ir.zext64(row);
  Value colStride = ir.c64(cfg.rows);
  Value codeIdx = ir.add(ir.mul(ir.zext64(col), colStride), row64);
  Value code = LLVM::LoadOp::create(b, b.getI8Type(), ir.gep(xPtr, codeIdx), 1);
  int64_t inScaleCols =
      QuantizeKernelConfig::ceilDiv(cfg.rows, QuantizeKernelConfig::kBlockCols);
  Value scaleCol =
      ir.zext64(ir.divu(row, ir.c32(QuantizeKernelConfig::kBlockCols)));
  Value scaleStride = ir.c64(inScaleCols);
  Value scaleIdx = ir.add(ir.mul(ir.zext64(col), scaleStride), scaleCol);
  Value scalePtr = LLVM::GEPOp::create(b, ir.ptrGlobal, ir.f32, inScalesPtr,
                                       ValueRange{scaleIdx});
  Value scale = LLVM::LoadOp::create(b, ir.f32, scalePtr, 4);
  Value value = createFP8BitsToF32(b, b.getLoc(), code, spec.inputType);
  scf::YieldOp::create(b, ir.fmul(value, scale));
  b.setInsertionPointToStart(&ifOp.getElseRegion().front());
  scf::YieldOp::create(b, zero);
  return ifOp.getResult(0);
}

void QuantizeEmitter::emitTransposedLoads() {
  for (int64_t r = 0; r < rowsPerWarp; ++r) {
    Value warpRow = ir.add(warpInBlock, ir.c32(r * warpsPerBlock));
    Value blockRow0 = ir.mul(rowBlock, ir.c32(cfg.blockRows));
    Value row = ir.add(blockRow0, warpRow);
    rowIdx.push_back(row);
    rowOk.push_back(ir.ult(row, rows));
    for (int64_t j = 0; j < colsPerLane; ++j) {
      Value col = ir.add(col0, ir.c32(j));
      Value ok =
          arith::AndIOp::create(b, rowOk[r], ir.ult(col, ir.c32(cfg.cols)));
      x.push_back(emitDequantizedInput(row, col, ok));
    }
  }
}
