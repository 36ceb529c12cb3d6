//===- QuantizeKernelConfig.h - sm_90a quantize launch ----------*- C++ -*-===//
//
// The launch configuration of the quantize kernels that `fp8-lower-to-nvvm`
// generates for `fp8.quantize` (1x128 activation tiles and 128x128 weight
// blocks, DeepSeek-V3 §3.3.1), as a function of the shape only. Header-only
// and free of MLIR/LLVM, like GemmKernelConfig.h, so launchers (runtime/,
// bench/gpu/) compute what the compiler chose.
//
// Kernel ABI (parameters in order, 64-bit generic pointers to global memory):
//   0 x      : [rows, cols] f32 or bf16, row-major, 16-byte aligned
//   1 q      : [rows, cols] FP8 codes (u8), row-major
//   2 scales : [ceil(rows / blockRows), ceil(cols / blockCols)] f32 (or
//              E8M0 bytes), row-major
//   3 rows   : i32, the row count at run time (read by a dynamic-rows
//              kernel, rows == kDynamicRows in its configuration)
// No dynamic shared memory. Block `blk` (row-major over the scale grid) is
// handled by warpsPerBlock() warps: lane l holds columns 4l .. 4l+3 of the
// block's 128, warp w of the block holds rows w, w + warpsPerBlock(), ...
// Rowwise blocks (blockRows 1, blockCols = cols > 128, wholeRow()): block
// `blk` is row `blk`, one warp, whose lanes loop over the row's chunks() of
// 128 columns twice (the amax, then the codes: the row is read twice).
// Column blocks (blockRows 128, blockCols 1, perColumn(): one scale per
// column and 128 rows, scales [rowBlocks(), cols]): the CTA's 8 warps hold a
// region of 128 rows x 128 columns as for a 128x128 block (tiles() regions,
// colTiles() per block row); each lane reduces its 4 columns over its 16
// rows, the warps combine through a shared [8 x 128] f32 array, warp 0
// stores the region's 128 scales, every thread its codes with its column's.
// Per-tensor (perTensor: one scale for the whole tensor, the `per-tensor`
// preset): the warps walk the tensor in 1x128 tiles as the 1x128 kernel
// (blockRows 1, blockCols 128, the same grid), and the launcher launches
// the kernel twice on one stream, with two more parameters:
//   4 amax   : one f32 in global memory, set to +0.0 by the launcher
//   5 pass   : i32, 0 then 1
// Pass 0 reduces each CTA's max |x| (lanes by shfl.sync.bfly, warps through
// shared memory; tiles past the tensor read as 0) and combines it into
// amax by one atomic unsigned max on its bit pattern (llvm.atomicrmw umax:
// for |x| the f32 order is the bits' order, any NaN above +Inf; exact and
// independent of the order of the CTAs); pass 1 derives the one scale from
// amax, writes it (scales [1, 1]) and the codes.
//
//===----------------------------------------------------------------------===//
#ifndef FP8_CONVERSION_QUANTIZEKERNELCONFIG_H
#define FP8_CONVERSION_QUANTIZEKERNELCONFIG_H

#include <cstdint>

namespace mlir {
namespace fp8 {

struct QuantizeKernelConfig {
  /// The `rows` of a kernel compiled for a run-time row count (its last
  /// parameter, i32); the host computes the grid from the actual rows.
  static constexpr int64_t kDynamicRows = -1;

  int64_t rows = 0, cols = 0;
  int64_t blockRows = 1; // 1 (1x128 tiles) or 128 (128x128 blocks)
  /// 128, or cols (> 128) for rowwise blocks [1, cols] (blockRows 1), or 1
  /// for column blocks [128, 1].
  int64_t blockCols = kBlockCols;
  /// One scale for the whole tensor, two passes (above); then blockRows 1
  /// and blockCols 128 are the tiles the warps walk, not a scale's block.
  bool perTensor = false;

  static constexpr int64_t kBlockCols = 128; // along the reduced (K) dimension
  static constexpr int64_t kThreads = 256;   // 8 warps per CTA
  static constexpr int64_t kWarps = kThreads / 32;
  static constexpr int64_t kColsPerLane = kBlockCols / 32;

  /// ceil(a / b) for b > 0. Not (a + b - 1) / b: that overflows int64 for
  /// a size near INT64_MAX (a tile, block or promotion interval option
  /// larger than the problem, which means the whole dimension).
  static constexpr int64_t ceilDiv(int64_t a, int64_t b) {
    return a / b + (a % b > 0);
  }

  int64_t rowBlocks() const { return ceilDiv(rows, blockRows); }
  int64_t colBlocks() const { return ceilDiv(cols, blockCols); }
  /// Rowwise blocks: one scale per row, the warp looping over its chunks.
  bool wholeRow() const { return blockCols > kBlockCols; }
  /// 128-column chunks of a block row a warp loops over (1 unless wholeRow).
  int64_t chunks() const { return ceilDiv(blockCols, kBlockCols); }
  int64_t blocks() const { return rowBlocks() * colBlocks(); }
  /// Column blocks [128, 1]: a CTA per region of 128 rows x 128 columns.
  bool perColumn() const { return blockCols == 1; }
  /// What the kernel's block index walks in a block row: the scale blocks,
  /// or the 128-column regions of column blocks.
  int64_t colTiles() const {
    return perColumn() ? ceilDiv(cols, kBlockCols) : colBlocks();
  }
  int64_t tiles() const { return rowBlocks() * colTiles(); }
  /// Warps that share one block: all 8 for a 128x128 block (16 rows each),
  /// one for a 1x128 tile (8 tiles per CTA).
  int64_t warpsPerBlock() const {
    return blockRows < kWarps ? blockRows : kWarps;
  }
  int64_t rowsPerWarp() const { return blockRows / warpsPerBlock(); }
  int64_t blocksPerCta() const { return kWarps / warpsPerBlock(); }
  int64_t gridSize() const { return ceilDiv(tiles(), blocksPerCta()); }
};

inline QuantizeKernelConfig
makeQuantizeKernelConfig(int64_t rows, int64_t cols, int64_t blockRows,
                         int64_t blockCols = QuantizeKernelConfig::kBlockCols) {
  QuantizeKernelConfig c;
  c.rows = rows;
  c.cols = cols;
  c.blockRows = blockRows;
  c.blockCols = blockCols;
  return c;
}

/// The per-tensor kernel of a rows x cols input (static rows).
inline QuantizeKernelConfig makePerTensorQuantizeKernelConfig(int64_t rows,
                                                              int64_t cols) {
  QuantizeKernelConfig c = makeQuantizeKernelConfig(rows, cols, 1);
  c.perTensor = true;
  return c;
}

} // namespace fp8
} // namespace mlir

#endif // FP8_CONVERSION_QUANTIZEKERNELCONFIG_H
