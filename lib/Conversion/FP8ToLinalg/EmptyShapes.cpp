//===- EmptyShapes.cpp - fp8 ops with an empty result or contraction ------===//
//
// An op whose result has a static dimension of size 0 (M = 0 tokens, an
// empty group slab, N = 0) computes nothing, and a matmul whose static K is
// 0 is an empty sum: D = C (or +0.0). The general lowerings cannot take
// either: slicing an empty dimension at offset 0 does not verify
// (tensor.extract_slice's "offset 0 is out-of-bounds: 0 >= 0"), and the
// kernels' panels, tiles and promotion loops assume at least one element.
// This pattern, tried before the general ones, lowers them to what they
// compute: tensor.empty results, or C (converted to the result type as the
// promotion would: widened to f32, then rounded RNE) or a +0.0 fill.
//
// A grouped matmul with K = 0 and a non-empty result keeps its general
// lowering: its loop runs the 2-D fp8.scaled_matmul of each group with K =
// 0, which lands here, so rows a group does not compute stay +0.0 and the
// run-time checks of `group_ids` still run.
//
// Dynamic sizes that are 0 at run time need nothing of this: the loops of
// the general lowerings then run no iteration.
//
//===----------------------------------------------------------------------===//

#include "EmptyShapes.h"
#include "fp8/Dialect/FP8/IR/FP8.h"
#include "fp8/Dialect/FP8/Utils/FP8Arith.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::fp8;

namespace {

/// The data sizes of the result of `op` from its converted operands (a
/// scaled operand is its codes and scales).
SmallVector<OpFoldResult> resultSizes(OpBuilder &b, Location loc, Operation *op,
                                      ArrayRef<ValueRange> operands) {
  auto sizes = [&](Value v) { return tensor::getMixedSizes(b, loc, v); };
  if (isa<QuantizeOp, DequantizeOp>(op))
    return sizes(operands[0].front());
  if (auto rq = dyn_cast<RequantizeOp>(op)) {
    SmallVector<OpFoldResult> in = sizes(operands[0].front());
    std::optional<ArrayRef<int64_t>> perm = rq.getPermutation();
    if (!perm)
      return in;
    SmallVector<OpFoldResult> permuted;
    for (int64_t d : *perm)
      permuted.push_back(in[d]);
    return permuted;
  }
  // Matmuls: A's rows (and groups, masked), B's columns; k_grouped: the
  // static G, A's and B's rows.
  Value aCodes = operands[0].front(), bCodes = operands[1].front();
  auto grouped = dyn_cast<GroupedScaledMatmulOp>(op);
  if (grouped && grouped.isKGrouped())
    return {b.getIndexAttr(grouped.getNumGroups()),
            tensor::getMixedSize(b, loc, aCodes, 0),
            tensor::getMixedSize(b, loc, bCodes, 0)};
  SmallVector<OpFoldResult> res = sizes(aCodes);
  res.pop_back();
  res.push_back(
      tensor::getMixedSize(b, loc, bCodes, isa<ScaledMatmulOp>(op) ? 0 : 1));
  return res;
}

/// The parts of a value of `type` holding nothing: one tensor.empty, or the
/// codes and scales of a scaled tensor.
SmallVector<Value> emptyParts(OpBuilder &b, Location loc, Type type,
                              ArrayRef<OpFoldResult> sizes) {
  auto scaled = dyn_cast<ScaledTensorType>(type);
  if (!scaled)
    return {tensor::EmptyOp::create(
        b, loc, sizes, cast<RankedTensorType>(type).getElementType())};
  SmallVector<OpFoldResult> blocks;
  AffineExpr s0 = getAffineSymbolExpr(0, b.getContext());
  for (auto [size, blk] : llvm::zip_equal(sizes, scaled.getBlockShape()))
    blocks.push_back(
        affine::makeComposedFoldedAffineApply(b, loc, s0.ceilDiv(blk), {size}));
  return {tensor::EmptyOp::create(b, loc, sizes, scaled.getElementType()),
          tensor::EmptyOp::create(b, loc, blocks, scaled.getScaleType())};
}

struct EmptyShapeLowering : ConversionPattern {
  EmptyShapeLowering(const TypeConverter &converter, MLIRContext *ctx)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/2, ctx) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<ValueRange> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isa<QuantizeOp, DequantizeOp, RequantizeOp, ScaledMatmulOp,
             GroupedScaledMatmulOp>(op))
      return failure();
    bool emptyResult = hasEmptyResult(op);
    // A grouped K = 0 keeps its loop (see the file comment).
    bool emptySum2D = isa<ScaledMatmulOp>(op) && hasEmptyContraction(op);
    if (!emptyResult && !emptySum2D)
      return failure();
    Location loc = op->getLoc();
    SmallVector<OpFoldResult> sizes = resultSizes(rewriter, loc, op, operands);
    Type resType = op->getResult(0).getType();
    if (emptyResult) {
      rewriter.replaceOpWithMultiple(
          op, {fp8::detail::castToParts(
                  rewriter, loc, emptyParts(rewriter, loc, resType, sizes),
                  resType)});
      return success();
    }
    auto mm = cast<ScaledMatmulOp>(op);
    ValueRange c = mm.getC() ? operands[2] : ValueRange();
    Value sum =
        fp8::detail::emptySum(rewriter, loc, c, sizes,
                              cast<RankedTensorType>(resType).getElementType());
    rewriter.replaceOp(op,
                       fp8::detail::castToParts(rewriter, loc, sum, resType));
    return success();
  }
};

} // namespace

Value fp8::detail::emptySum(OpBuilder &b, Location loc, ValueRange c,
                            ArrayRef<OpFoldResult> sizes, Type outElt) {
  Value init = tensor::EmptyOp::create(b, loc, sizes, outElt);
  if (c.empty()) {
    Value zero =
        arith::ConstantOp::create(b, loc, outElt, b.getFloatAttr(outElt, 0.0));
    return linalg::FillOp::create(b, loc, zero, init).getResult(0);
  }
  Value acc = c.front();
  Type cElt = cast<RankedTensorType>(acc.getType()).getElementType();
  // C passes through an f32 result unchanged (the GPU kernel moves it); a
  // bf16/f16 result is C rounded as the kernel's cvt.rn, whose NaN is 0x7FFF
  // whatever C's NaN was (createTruncFCanonicalNaN), even from a C of the
  // result's own type.
  if (cElt == outElt && outElt.isF32())
    return acc;
  auto map = b.getMultiDimIdentityMap(sizes.size());
  return linalg::GenericOp::create(
             b, loc, init.getType(), acc, init, {map, map},
             SmallVector<utils::IteratorType>(sizes.size(),
                                              utils::IteratorType::parallel),
             [&](OpBuilder &nb, Location nl, ValueRange args) {
               Value v = args[0];
               if (!cElt.isF32())
                 v = arith::ExtFOp::create(nb, nl, nb.getF32Type(), v);
               v = createTruncFCanonicalNaN(nb, nl, v, outElt);
               linalg::YieldOp::create(nb, nl, v);
             })
      .getResult(0);
}

SmallVector<Value> fp8::detail::castToParts(OpBuilder &b, Location loc,
                                            ValueRange parts, Type type) {
  SmallVector<Type> types;
  if (auto scaled = dyn_cast<ScaledTensorType>(type))
    types = {scaled.getDataTensorType(), scaled.getScaleTensorType()};
  else
    types = {type};
  SmallVector<Value> res;
  for (auto [v, t] : llvm::zip_equal(parts, types))
    res.push_back(v.getType() == t ? v : tensor::CastOp::create(b, loc, t, v));
  return res;
}

void fp8::detail::populateEmptyShapeLowering(const TypeConverter &converter,
                                             RewritePatternSet &patterns) {
  patterns.add<EmptyShapeLowering>(converter, patterns.getContext());
}
