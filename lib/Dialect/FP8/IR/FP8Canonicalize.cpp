//===- FP8Canonicalize.cpp - canonicalization patterns of fp8 ops ---------===//
//
// fp8.quantize:
//  - quantize(dequantize(q)) with the same result type -> q. Requantizing
//    dequantized codes into the layout they came from reproduces them when
//    the block's largest code is fmax (always, for f32 scales without the
//    eps clamp), and is otherwise a second rounding: keeping q is exact.
//
// Only cheap, local folds belong here. Quantizing a constant weight (up to
// millions of elements) is the explicit pass fp8-fold-constant-weights.
//
//===----------------------------------------------------------------------===//
#include "fp8/Dialect/FP8/IR/FP8.h"

#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::fp8;

namespace {

struct FoldQuantizeOfDequantize : OpRewritePattern<QuantizeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(QuantizeOp op,
                                PatternRewriter &rewriter) const override {
    auto deq = op.getInput().getDefiningOp<DequantizeOp>();
    if (!deq || deq.getInput().getType() != op.getResult().getType())
      return failure();
    rewriter.replaceOp(op, deq.getInput());
    return success();
  }
};

} // namespace

void QuantizeOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                             MLIRContext *context) {
  patterns.add<FoldQuantizeOfDequantize>(context);
}
