//===- VectorizeContractions.cpp - fp8-vectorize-contractions -------------===//
//
// The high-precision contractions of a graph (Passes.td) as register tiles
// of vector FMAs instead of convert-linalg-to-loops' scalar loops: tile,
// vectorise, lower the contraction to outer products, all on tensors.
//
//===----------------------------------------------------------------------===//
#include "fp8/Dialect/FP8/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::fp8 {
#define GEN_PASS_DEF_FP8VECTORIZECONTRACTIONSPASS
#include "fp8/Dialect/FP8/Transforms/Passes.h.inc"
} // namespace mlir::fp8

using namespace mlir;

namespace {

/// The largest of `choices` that divides `size`, or 0.
int64_t largestDivisor(int64_t size, ArrayRef<int64_t> choices) {
  for (int64_t c : choices)
    if (size % c == 0)
      return c;
  return 0;
}

/// Tile sizes (batch, M, N, K) of `op`, or none when it stays as it is:
/// dynamic shapes, a result other than f32, an N without a vector width.
std::optional<SmallVector<int64_t>> tileSizes(linalg::LinalgOp op) {
  auto out = dyn_cast<RankedTensorType>(op.getDpsInits()[0].getType());
  if (!op.hasPureTensorSemantics() || !out || !out.hasStaticShape() ||
      !out.getElementType().isF32() || op.hasDynamicShape())
    return std::nullopt;
  ArrayRef<int64_t> shape = out.getShape(); // [B,] M, N
  int64_t n = largestDivisor(shape.back(), {32, 16, 8});
  if (n == 0)
    return std::nullopt;
  int64_t m = largestDivisor(shape[shape.size() - 2], {16, 8, 4, 2, 1});
  SmallVector<int64_t> sizes(shape.size() - 2, 1);
  sizes.append({m, n, 1});
  return sizes;
}

/// Tiles `op` and vectorises its tile; leaves it unchanged on failure.
void tileAndVectorize(RewriterBase &rewriter, linalg::LinalgOp op,
                      ArrayRef<int64_t> sizes) {
  scf::SCFTilingOptions options;
  options.setTileSizes(getAsIndexOpFoldResult(op.getContext(), sizes));
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
      rewriter, cast<TilingInterface>(op.getOperation()), options);
  if (failed(tiled))
    return;
  rewriter.replaceOp(op, tiled->replacements);
  for (Operation *t : tiled->tiledOps) {
    rewriter.setInsertionPoint(t);
    // One vector.contract per tile (also for bf16 operands, which the
    // generic form would widen and reduce over k instead).
    FailureOr<linalg::VectorizationResult> v = linalg::vectorize(
        rewriter, t, /*inputVectorSizes=*/{}, /*inputScalableVecDims=*/{},
        /*vectorizeNDExtract=*/false, /*flatten1DDepthwiseConv=*/false,
        /*assumeDynamicDimsMatchVecSizes=*/false,
        /*createNamedContraction=*/true);
    if (succeeded(v))
      rewriter.replaceOp(t, v->replacements);
  }
}

class VectorizeContractionsPass
    : public fp8::impl::FP8VectorizeContractionsPassBase<
          VectorizeContractionsPass> {
public:
  using FP8VectorizeContractionsPassBase::FP8VectorizeContractionsPassBase;
  void runOnOperation() override {
    SmallVector<std::pair<linalg::LinalgOp, SmallVector<int64_t>>> work;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (!isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op))
        return;
      if (std::optional<SmallVector<int64_t>> sizes = tileSizes(op))
        work.push_back({op, *sizes});
    });
    if (work.empty())
      return;
    IRRewriter rewriter(&getContext());
    for (auto &[op, sizes] : work)
      tileAndVectorize(rewriter, op, sizes);
    // The tile's vector.contract as outer products (one FMA per row and
    // k), transfers as 1-D loads and stores along N.
    RewritePatternSet patterns(&getContext());
    vector::populateVectorContractLoweringPatterns(
        patterns, vector::VectorContractLowering::OuterProduct);
    vector::populateVectorOuterProductLoweringPatterns(patterns);
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
    vector::populateCastAwayVectorLeadingOneDimPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
