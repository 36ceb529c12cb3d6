//===- ResolveExpandShapes.cpp - fp8-resolve-expand-shapes ----------------===//
//
// MLIR 22's expand-strided-metadata derives a dynamic size of a
// memref.expand_shape from the source's size divided by the group's static
// sizes, which exists only for one dynamic size per group: with two (a
// [B * S, H] buffer viewed as [B, S, H], B and S run-time values) it
// crashes. This pass writes those views first as the pass would, from the
// op's own output sizes (Passes.td).
//
//===----------------------------------------------------------------------===//
#include "fp8/Dialect/FP8/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::fp8 {
#define GEN_PASS_DEF_FP8RESOLVEEXPANDSHAPESPASS
#include "fp8/Dialect/FP8/Transforms/Passes.h.inc"
} // namespace mlir::fp8

using namespace mlir;

namespace {

/// Whether a reassociation group of `op` has more than one dynamic size:
/// the case expand-strided-metadata cannot derive.
bool hasGroupOfDynamicSizes(memref::ExpandShapeOp op) {
  ArrayRef<int64_t> shape = op.getResultType().getShape();
  for (const ReassociationIndices &group : op.getReassociationIndices())
    if (llvm::count_if(group, [&](int64_t d) {
          return ShapedType::isDynamic(shape[d]);
        }) > 1)
      return true;
  return false;
}

/// `a * b` as a fold result: constant when both are.
OpFoldResult multiply(OpBuilder &b, Location loc, OpFoldResult x,
                      OpFoldResult y) {
  std::optional<int64_t> cx = getConstantIntValue(x);
  std::optional<int64_t> cy = getConstantIntValue(y);
  if (cx && cy)
    return b.getIndexAttr(*cx * *cy);
  Value vx = getValueOrCreateConstantIndexOp(b, loc, x);
  Value vy = getValueOrCreateConstantIndexOp(b, loc, y);
  return arith::MulIOp::create(b, loc, vx, vy).getResult();
}

/// Rewrites `op` into a reinterpret_cast of its source's base buffer: the
/// source's offset, the op's output sizes, and in each group the source
/// dimension's stride for the innermost dimension, each outer one the
/// stride of the next times its size (a row-major split of that dimension,
/// what expand_shape means).
void resolve(RewriterBase &rewriter, memref::ExpandShapeOp op) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  auto source =
      memref::ExtractStridedMetadataOp::create(rewriter, loc, op.getSrc());
  SmallVector<OpFoldResult> sizes = op.getMixedOutputShape();
  SmallVector<OpFoldResult> sourceStrides = source.getConstifiedMixedStrides();
  SmallVector<OpFoldResult> strides(sizes.size());
  for (auto [dim, group] : llvm::enumerate(op.getReassociationIndices())) {
    OpFoldResult stride = sourceStrides[dim];
    for (int64_t d : llvm::reverse(group)) {
      strides[d] = stride;
      if (d != group.front())
        stride = multiply(rewriter, loc, stride, sizes[d]);
    }
  }
  rewriter.replaceOpWithNewOp<memref::ReinterpretCastOp>(
      op, op.getResultType(), source.getBaseBuffer(),
      source.getConstifiedMixedOffset(), sizes, strides);
}

class ResolveExpandShapesPass
    : public fp8::impl::FP8ResolveExpandShapesPassBase<
          ResolveExpandShapesPass> {
public:
  using FP8ResolveExpandShapesPassBase::FP8ResolveExpandShapesPassBase;
  void runOnOperation() override {
    SmallVector<memref::ExpandShapeOp> ops;
    getOperation()->walk([&](memref::ExpandShapeOp op) {
      if (hasGroupOfDynamicSizes(op))
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (memref::ExpandShapeOp op : ops)
      resolve(rewriter, op);
  }
};

} // namespace
