//===- GemmSplitKScheduler.cpp - the split-K schedule ---------------------===//
//
// Split-K (GemmKernelConfig::kSplits = S > 1): the persistent loop walks S
// x tiles work units, split-major (unit u is split u / tiles of tile u mod
// tiles), so a decode GEMM's few tiles keep S times as many SMs streaming
// B. Split s runs the K blocks of KSplit.h's rule, [s q + min(s, r), + q +
// (s < r)) with q = KB / S and r = KB mod S, the rule the CPU lowering of
// fp8.scaled_matmul{k_splits = S} follows; split 0 starts from C.
//
//===----------------------------------------------------------------------===//
#include "GemmTileScheduler.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::gemm;

void SplitKScheduler::emitTileGroup(Tile &t) {
  // Static K (checkSplitKGemmKernelConfig): q and r are constants.
  const int64_t q = e.kBlocks / cfg.kSplits, r = e.kBlocks % cfg.kSplits;
  // One op per statement.
  Value split = t.group;
  Value rest = ir.c32(r);
  Value longer = ir.ult(split, rest);
  Value before = arith::MinUIOp::create(b, split, rest);
  Value quotient = ir.c32(q);
  Value start = ir.mul(split, quotient);
  t.kFirst = ir.add(start, before);
  Value longCount = ir.c32(q + 1);
  t.kCount = arith::SelectOp::create(b, longer, longCount, quotient);
}

Value SplitKScheduler::emitStartsFromC(const Tile &t) {
  Value first = ir.c32(0);
  return ir.eq(t.group, first);
}
