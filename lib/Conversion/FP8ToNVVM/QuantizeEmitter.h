//===- QuantizeEmitter.h - the pieces of the quantize kernel ----*- C++ -*-===//
//
// The quantize kernel generator (buildQuantizeKernel, QuantizeKernel.cpp)
// is a driver over pieces, one concern per file:
//
//   QuantizeKernel.cpp  signature, the thread's block and place in it
//   QuantizeAmax.cpp    the lane's loads and the block's amax (lanes by
//                       shfl.sync.bfly, warps through shared memory)
//   QuantizeCodes.cpp   the block's scale and the codes' stores
//   QuantizeTranspose.cpp  the requantize kernel's loads (dequantized FP8
//                       input, transposed) in place of QuantizeAmax's
//   QuantizeRowwise.cpp the rowwise kernel's loops over a row's chunks
//                       (the loads, amax and codes pieces inside)
//   QuantizeTensor.cpp  the per-tensor kernel's two passes (the tensor's
//                       amax by a global atomic max; the scale and codes)
//   QuantizeColumns.cpp the column-block kernel's ([128, 1]) amax and
//                       scale per column
//
// As for the GEMM kernel (GemmEmitter.h), each piece creates its ops in the
// order the kernel runs them; scripts/kernel-corpus-diff.sh checks that a
// change here leaves the generated kernels as they were.
//
//===----------------------------------------------------------------------===//
#ifndef FP8_LIB_CONVERSION_FP8TONVVM_QUANTIZEEMITTER_H
#define FP8_LIB_CONVERSION_FP8TONVVM_QUANTIZEEMITTER_H

#include "KernelBuilder.h"
#include "QuantizeKernel.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir {
namespace fp8 {
namespace quantize {

/// The state the pieces share: besides the configuration and the builders
/// (KernelEmitter), the kernel's parameters, the thread's block and its
/// loaded values.
struct QuantizeEmitter : KernelEmitter<QuantizeKernelSpec> {
  /// The columns of an MX block (mxfp8: 1x32, E8M0 scales): one warp per
  /// block, one column per lane.
  static constexpr int64_t kMxBlockCols = 32;

  QuantizeEmitter(OpBuilder &builder, Location loc,
                  const QuantizeKernelSpec &spec);

  bool bf16In;
  int64_t inBytes;
  /// Warps per block, rows per warp; each lane holds colsPerLane
  /// consecutive columns of each of its rows.
  int64_t warpsPerBlock, rowsPerWarp, colsPerLane;
  /// Whole 4-column groups are in or out of range together when
  /// cols % 4 == 0, and then 16/8-byte vector loads and 4-byte code stores
  /// are aligned.
  bool vectorized;

  Value xPtr, qPtr, sPtr, rows, blocks;
  /// The requantize kernel's input scales (spec.transpose).
  Value inScalesPtr;
  Value warp, lane, blk, warpInBlock, rowBlock, colBlock, col0, zero;
  /// The thread's rows, whether each is below `rows`, and its values
  /// (rowsPerWarp x colsPerLane, f32).
  SmallVector<Value> rowIdx, rowOk, x;

  // --- QuantizeKernel.cpp ---------------------------------------------------
  /// The block of this thread's warp and the warp's place in it; the
  /// blocks' range check, its then-region the insertion point.
  scf::IfOp emitBlockCoords();
  /// The thread's warp and lane, its warp's block and place in it.
  void emitWarpCoords();
  /// The block's row and column block and the lane's first column.
  void emitBlockPlace();

  // --- QuantizeAmax.cpp -----------------------------------------------------
  void emitLoads();
  /// max |x| over the block (NaN propagates).
  Value emitAmax(StringRef amaxSymbol);
  /// max |x| over this lane's loaded values, from 0.
  Value emitLaneAmax();
  /// The block's amax from each lane's: across the warp, then the warps.
  Value emitBlockAmax(Value laneAmax, StringRef amaxSymbol);
  /// The warp's amax from each lane's (shfl.sync.bfly).
  Value emitWarpAmax(Value laneAmax);
  /// The amax of `warps` warps from each warp's (warp `warpIdx`'s in every
  /// lane), through the shared array `amaxSymbol` and a bar.sync that
  /// every thread of the CTA reaches.
  Value emitWarpsAmax(Value warpAmax, StringRef amaxSymbol, Value warpIdx,
                      int64_t warps);

  // --- QuantizeRowwise.cpp --------------------------------------------------
  /// The whole-row kernel (cfg.wholeRow()): the warp's row in 128-column
  /// chunks, once for the amax and once for the codes.
  void emitWholeRow(StringRef amaxSymbol);

  // --- QuantizeTranspose.cpp ------------------------------------------------
  /// emitLoads of the requantize kernel: x[f, t] dequantized from the
  /// input's codes [t, f] and their 1x128 scales.
  void emitTransposedLoads();
  /// The dequantized input element (col, row) when `ok`, else 0.
  Value emitDequantizedInput(Value row, Value col, Value ok);

  // --- QuantizeTensor.cpp --------------------------------------------------
  /// The per-tensor kernel (cfg.perTensor): pass 0 (`pass`, i32) the
  /// tensor's amax into `amaxPtr` (global, +0.0 before), pass 1 the scale
  /// and codes.
  void emitPerTensor(Value amaxPtr, Value pass, StringRef amaxSymbol);
  /// Pass 0: the CTA's amax over its tiles, by an atomic max into amaxPtr.
  void emitTensorAmaxPass(Value amaxPtr, StringRef amaxSymbol);
  /// Pass 1: the scale from amaxPtr's value, the codes of the warp's tile.
  void emitTensorCodesPass(Value amaxPtr);

  // --- QuantizeCodes.cpp ----------------------------------------------------
  /// The block's scale (the CPU reference's arithmetic), stored once (per
  /// tensor: by the first block only).
  Value emitScale(Value amax);
  /// cvt.rn.satfinite of x / s, stored as codes.
  void emitCodes(Value scale);
  /// emitCodes with one scale per column of the lane (colsPerLane), or one
  /// for all.
  void emitCodes(ArrayRef<Value> scales);

  // --- QuantizeColumns.cpp --------------------------------------------------
  /// Column blocks: the amax of each of the lane's columns over the CTA's
  /// 128 rows (the lane's rows, then the warps through the shared
  /// [8 x 128] f32 array `colAmaxSymbol` and a bar.sync).
  SmallVector<Value> emitColumnAmax(StringRef colAmaxSymbol);
  /// The scale of each of the lane's columns (createDequantScale), stored
  /// by warp 0 at scales[rowBlock, col] for the columns below cols.
  SmallVector<Value> emitColumnScales(ArrayRef<Value> amax);
};

} // namespace quantize
} // namespace fp8
} // namespace mlir

#endif // FP8_LIB_CONVERSION_FP8TONVVM_QUANTIZEEMITTER_H
