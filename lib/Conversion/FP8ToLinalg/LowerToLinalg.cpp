//===- LowerToLinalg.cpp - fp8 ops -> linalg on data + scale tensors ------===//
//
// The reference lowering of the numerics contract (docs/design.md §1). Blocks
// are expressed with `floordiv` indexing maps: an operand indexed by (d0
// floordiv b0, d1 floordiv b1, ...) sees the scale (or amax) of the block that
// holds element (d0, d1, ...). Loops run over the data shape only, so a block
// cut by the tensor edge covers exactly its valid elements and nothing is
// padded: tails are handled by construction, in every dimension, static or
// dynamic.
//
//===----------------------------------------------------------------------===//
#include "EmptyShapes.h"
#include "GroupedScaledMatmul.h"
#include "SignificantBits.h"
#include "TiledQuantize.h"
#include "TiledScaledMatmul.h"
#include "WideMatmulAccumulation.h"
#include "WideningUse.h"
#include "fp8/Conversion/FP8ToLinalg/FP8ToLinalg.h"
#include "fp8/Dialect/FP8/IR/FP8.h"
#include "fp8/Dialect/FP8/Utils/FP8Arith.h"
#include "fp8/Target/Hopper/KSplit.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::fp8 {
#define GEN_PASS_DEF_FP8LOWERTOLINALGPASS
#include "fp8/Conversion/Passes.h.inc"
} // namespace mlir::fp8

using namespace mlir;
using namespace mlir::fp8;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// (d0, ..., dn) -> (d0 floordiv b0, ..., dn floordiv bn).
static AffineMap getBlockMap(MLIRContext *ctx, ArrayRef<int64_t> block) {
  SmallVector<AffineExpr> exprs;
  for (auto [i, b] : llvm::enumerate(block)) {
    AffineExpr d = getAffineDimExpr(i, ctx);
    exprs.push_back(b == 1 ? d : d.floorDiv(b));
  }
  return AffineMap::get(block.size(), 0, exprs, ctx);
}

/// Sizes of `shaped` (a ranked tensor value).
static SmallVector<OpFoldResult> getSizes(OpBuilder &b, Location loc,
                                          Value shaped) {
  return tensor::getMixedSizes(b, loc, shaped);
}

/// ceil(size / block) per dimension, folded where static.
static SmallVector<OpFoldResult> getBlockCounts(OpBuilder &b, Location loc,
                                                ArrayRef<OpFoldResult> sizes,
                                                ArrayRef<int64_t> block) {
  SmallVector<OpFoldResult> counts;
  AffineExpr s0 = getAffineSymbolExpr(0, b.getContext());
  for (auto [size, blk] : llvm::zip_equal(sizes, block))
    counts.push_back(
        affine::makeComposedFoldedAffineApply(b, loc, s0.ceilDiv(blk), {size}));
  return counts;
}

static Value createEmpty(OpBuilder &b, Location loc,
                         ArrayRef<OpFoldResult> sizes, Type elt) {
  return tensor::EmptyOp::create(b, loc, sizes, elt);
}

static Value createFilled(OpBuilder &b, Location loc,
                          ArrayRef<OpFoldResult> sizes, Type elt,
                          double value) {
  Value empty = createEmpty(b, loc, sizes, elt);
  Value cst =
      arith::ConstantOp::create(b, loc, elt, b.getFloatAttr(elt, value));
  return linalg::FillOp::create(b, loc, cst, empty).getResult(0);
}

/// Extends a bf16/f16 scalar to f32 (exact); f32 passes through.
static Value toF32(OpBuilder &b, Location loc, Value v) {
  if (v.getType().isF32())
    return v;
  return arith::ExtFOp::create(b, loc, b.getF32Type(), v);
}

/// Rounds an f32 scalar to `elt` (RNE for bf16/f16).
static Value fromF32(OpBuilder &b, Location loc, Value v, Type elt) {
  if (elt.isF32())
    return v;
  return arith::TruncFOp::create(b, loc, elt, v);
}

static SmallVector<utils::IteratorType> parallelIters(int64_t n) {
  return SmallVector<utils::IteratorType>(n, utils::IteratorType::parallel);
}

/// Element-wise generic with identity maps on `inputs` and one output.
static Value
mapElementwise(OpBuilder &b, Location loc, ValueRange inputs, Value init,
               function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
  int64_t rank = cast<RankedTensorType>(init.getType()).getRank();
  SmallVector<AffineMap> maps(inputs.size() + 1,
                              b.getMultiDimIdentityMap(rank));
  auto op = linalg::GenericOp::create(
      b, loc, init.getType(), inputs, init, maps, parallelIters(rank),
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        linalg::YieldOp::create(nb, nl, body(nb, nl, args));
      });
  return op.getResult(0);
}

//===----------------------------------------------------------------------===//
// Quantize / dequantize
//===----------------------------------------------------------------------===//

using fp8::detail::QuantizeParams;

/// Quantizes `x` (tensor of f32/bf16/f16) into `type`: returns codes, scales.
/// `codesDest` / `scalesDest`, when given, are the destinations of the codes
/// and scales generics (tensors of their shapes).
static std::pair<Value, Value> lowerQuantize(OpBuilder &b, Location loc,
                                             Value x, ScaledTensorType type,
                                             QuantizeParams p,
                                             Value codesDest = Value(),
                                             Value scalesDest = Value()) {
  MLIRContext *ctx = b.getContext();
  ArrayRef<int64_t> block = type.getBlockShape();
  int64_t rank = type.getRank();
  Type f32 = b.getF32Type();
  Type fp8Type = type.getElementType();
  SmallVector<OpFoldResult> sizes = getSizes(b, loc, x);
  SmallVector<OpFoldResult> counts = getBlockCounts(b, loc, sizes, block);
  AffineMap id = b.getMultiDimIdentityMap(rank);
  AffineMap blockMap = getBlockMap(ctx, block);

  // 1. amax per block over the valid elements; maximumf propagates NaN.
  SmallVector<utils::IteratorType> iters;
  for (int64_t blk : block)
    iters.push_back(blk == 1 ? utils::IteratorType::parallel
                             : utils::IteratorType::reduction);
  Value amaxInit = createFilled(b, loc, counts, f32, 0.0);
  Value amax = linalg::GenericOp::create(
                   b, loc, amaxInit.getType(), x, amaxInit,
                   ArrayRef<AffineMap>{id, blockMap}, iters,
                   [&](OpBuilder &nb, Location nl, ValueRange args) {
                     linalg::YieldOp::create(
                         nb, nl, createAmaxUpdate(nb, nl, args[1], args[0]));
                   })
                   .getResult(0);

  // 2. The dequantization scale of each block, in its storage type.
  Type scaleType = type.getScaleType();
  Value scales = mapElementwise(
      b, loc, amax,
      scalesDest ? scalesDest : createEmpty(b, loc, counts, scaleType),
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value s = createDequantScale(nb, nl, args[0], p.eps, fp8Type, p.pow2);
        return createScaleFromF32(nb, nl, s, scaleType);
      });

  // 3. Codes: cvt_rne(x / s).
  Value codesInit = codesDest ? codesDest : createEmpty(b, loc, sizes, fp8Type);
  Value codes =
      linalg::GenericOp::create(
          b, loc, codesInit.getType(), ValueRange{x, scales}, codesInit,
          ArrayRef<AffineMap>{id, blockMap, id}, parallelIters(rank),
          [&](OpBuilder &nb, Location nl, ValueRange args) {
            linalg::YieldOp::create(nb, nl,
                                    createQuantizeElement(nb, nl, args[0],
                                                          args[1], fp8Type,
                                                          p.saturate));
          })
          .getResult(0);
  return {codes, scales};
}

/// Dequantizes (codes, scales) laid out as `type` into a tensor of `elt`.
static Value lowerDequantize(OpBuilder &b, Location loc, Value codes,
                             Value scales, ScaledTensorType type, Type elt) {
  int64_t rank = type.getRank();
  AffineMap id = b.getMultiDimIdentityMap(rank);
  AffineMap blockMap = getBlockMap(b.getContext(), type.getBlockShape());
  Value init = createEmpty(b, loc, getSizes(b, loc, codes), elt);
  return linalg::GenericOp::create(
             b, loc, init.getType(), ValueRange{codes, scales}, init,
             ArrayRef<AffineMap>{id, blockMap, id}, parallelIters(rank),
             [&](OpBuilder &nb, Location nl, ValueRange args) {
               Value v = createFP8ToF32(nb, nl, args[0]);
               Value s = createScaleToF32(nb, nl, args[1]);
               Value r = arith::MulFOp::create(nb, nl, v, s);
               linalg::YieldOp::create(nb, nl, fromF32(nb, nl, r, elt));
             })
      .getResult(0);
}

/// lowerQuantize over chunks of whole blocks along dimension 0, one
/// scf.forall iteration each (threads: fp8-cpu-pipeline). Every block lies in
/// one chunk and is quantized by the same generics, so codes and scales are
/// the reference's.
static std::pair<Value, Value> lowerQuantizeByRows(OpBuilder &b, Location loc,
                                                   Value x,
                                                   ScaledTensorType type,
                                                   QuantizeParams p) {
  ArrayRef<int64_t> block = type.getBlockShape();
  // About 64 rows per chunk, whole blocks.
  int64_t blocksPerChunk = std::max<int64_t>(1, 64 / block[0]);
  int64_t chunk = block[0] * blocksPerChunk;
  SmallVector<OpFoldResult> sizes = getSizes(b, loc, x);
  SmallVector<OpFoldResult> counts =
      getBlockCounts(b, loc, sizes, type.getBlockShape());
  Value codesInit = createEmpty(b, loc, sizes, type.getElementType());
  Value scalesInit = createEmpty(b, loc, counts, type.getScaleType());
  AffineExpr s0 = getAffineSymbolExpr(0, b.getContext());
  OpFoldResult chunks = affine::makeComposedFoldedAffineApply(
      b, loc, s0.ceilDiv(chunk), {sizes[0]});
  Value rowsTotal = getValueOrCreateConstantIndexOp(b, loc, sizes[0]);
  auto forall = scf::ForallOp::create(
      b, loc, ArrayRef<OpFoldResult>{chunks}, ValueRange{codesInit, scalesInit},
      /*mapping=*/std::nullopt,
      [&](OpBuilder &fb, Location fl, ValueRange args) {
        Value r0 = arith::MulIOp::create(
            fb, fl, args[0], arith::ConstantIndexOp::create(fb, fl, chunk));
        // One op per statement, in the order the nested form was built.
        Value rowsLeft = arith::SubIOp::create(fb, fl, rowsTotal, r0);
        Value chunkRows = arith::ConstantIndexOp::create(fb, fl, chunk);
        Value rows = arith::MinSIOp::create(fb, fl, chunkRows, rowsLeft);
        Value sr0 = arith::MulIOp::create(
            fb, fl, args[0],
            arith::ConstantIndexOp::create(fb, fl, blocksPerChunk));
        SmallVector<OpFoldResult> offsets(sizes.size(), fb.getIndexAttr(0));
        SmallVector<OpFoldResult> strides(sizes.size(), fb.getIndexAttr(1));
        SmallVector<OpFoldResult> xSizes(sizes);
        offsets[0] = r0;
        xSizes[0] = rows;
        Value xs =
            tensor::ExtractSliceOp::create(fb, fl, x, offsets, xSizes, strides);
        // The chunk's codes and scales are written in place into slices of
        // the shared results (no copy after bufferization).
        SmallVector<OpFoldResult> sOffsets(offsets);
        sOffsets[0] = sr0;
        SmallVector<OpFoldResult> codeSizes = getSizes(fb, fl, xs);
        SmallVector<OpFoldResult> scaleSizes =
            getBlockCounts(fb, fl, codeSizes, type.getBlockShape());
        Value codesDest = tensor::ExtractSliceOp::create(
            fb, fl, args[1], offsets, codeSizes, strides);
        Value scalesDest = tensor::ExtractSliceOp::create(
            fb, fl, args[2], sOffsets, scaleSizes, strides);
        auto [codes, scales] =
            lowerQuantize(fb, fl, xs, type, p, codesDest, scalesDest);
        auto inParallel = scf::InParallelOp::create(fb, fl);
        OpBuilder::InsertionGuard guard(fb);
        fb.setInsertionPointToStart(inParallel.getBody());
        tensor::ParallelInsertSliceOp::create(fb, fl, codes, args[1], offsets,
                                              codeSizes, strides);
        tensor::ParallelInsertSliceOp::create(fb, fl, scales, args[2], sOffsets,
                                              scaleSizes, strides);
      });
  return {forall.getResult(0), forall.getResult(1)};
}

/// Rank 2 (the activations and weights of every GEMM), rank 1 and leading
/// blocks of 1 have the vectorised kernels; other layouts keep the generics,
/// chunked by rows when tiled.
static bool hasTiledQuantize(ScaledTensorType type, unsigned tiledLanes) {
  return tiledLanes != 0 && fp8::detail::hasTiledQuantize(type);
}

namespace {
struct QuantizeLowering : OpConversionPattern<QuantizeOp> {
  QuantizeLowering(const TypeConverter &tc, MLIRContext *ctx,
                   unsigned tiledLanes)
      : OpConversionPattern(tc, ctx), tiledLanes(tiledLanes) {}
  LogicalResult
  matchAndRewrite(QuantizeOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    QuantizeParams p{op.getEps().convertToDouble(),
                     op.getScaleMode() == ScaleMode::pow2, op.getSaturate()};
    Value x = adaptor.getInput().front();
    ScaledTensorType type = op.getResult().getType();
    Location loc = op.getLoc();
    auto [codes, scales] =
        hasTiledQuantize(type, tiledLanes)
            ? fp8::detail::buildTiledQuantize(rewriter, loc, x, type, p,
                                              tiledLanes,
                                              op->getParentOfType<ModuleOp>())
        // Rank 0 has no rows to chunk: the generics of one element.
        : tiledLanes && type.getRank() != 0
            ? lowerQuantizeByRows(rewriter, loc, x, type, p)
            : lowerQuantize(rewriter, loc, x, type, p);
    rewriter.replaceOpWithMultiple(
        op, {fp8::detail::castToParts(rewriter, loc, {codes, scales}, type)});
    return success();
  }
  unsigned tiledLanes; // 0: the reference generics
};

/// Dequantizes (codes, scales) laid out as `type` into a tensor of `elt`:
/// the vectorised kernel or the reference generics.
static Value dequantize(OpBuilder &b, Location loc, Value codes, Value scales,
                        ScaledTensorType type, Type elt, unsigned tiledLanes,
                        ModuleOp module) {
  if (hasTiledQuantize(type, tiledLanes))
    return fp8::detail::buildTiledDequantize(b, loc, codes, scales, type, elt,
                                             tiledLanes, {}, module);
  return lowerDequantize(b, loc, codes, scales, type, elt);
}

struct DequantizeLowering : OpConversionPattern<DequantizeOp> {
  DequantizeLowering(const TypeConverter &tc, MLIRContext *ctx,
                     unsigned tiledLanes)
      : OpConversionPattern(tc, ctx), tiledLanes(tiledLanes) {}
  LogicalResult
  matchAndRewrite(DequantizeOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ValueRange in = adaptor.getInput();
    if (in.size() != 2)
      return rewriter.notifyMatchFailure(op, "input not decomposed");
    ScaledTensorType type = op.getInput().getType();
    Type elt = op.getResult().getType().getElementType();
    // A bf16/f16 result only widened to f32: the vectorised kernel stores
    // each rounded value widened and replaces the widening (as the tiled
    // scaled_matmul does).
    Operation *widening = hasTiledQuantize(type, tiledLanes)
                              ? fp8::detail::getWideningUse(op.getResult())
                              : nullptr;
    if (!widening) {
      rewriter.replaceOp(op, dequantize(rewriter, op.getLoc(), in[0], in[1],
                                        type, elt, tiledLanes,
                                        op->getParentOfType<ModuleOp>()));
      return success();
    }
    fp8::detail::replaceWidened(rewriter, op, widening,
                                fp8::detail::buildTiledDequantize(
                                    rewriter, op.getLoc(), in[0], in[1], type,
                                    elt, tiledLanes, rewriter.getF32Type(),
                                    op->getParentOfType<ModuleOp>()));
    return success();
  }
  unsigned tiledLanes; // 0: the reference generics
};

struct RequantizeLowering : OpConversionPattern<RequantizeOp> {
  RequantizeLowering(const TypeConverter &tc, MLIRContext *ctx,
                     unsigned tiledLanes)
      : OpConversionPattern(tc, ctx), tiledLanes(tiledLanes) {}
  LogicalResult
  matchAndRewrite(RequantizeOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ValueRange in = adaptor.getInput();
    if (in.size() != 2)
      return rewriter.notifyMatchFailure(op, "input not decomposed");
    Location loc = op.getLoc();
    auto module = op->getParentOfType<ModuleOp>();
    Value x = dequantize(rewriter, loc, in[0], in[1], op.getInput().getType(),
                         rewriter.getF32Type(), tiledLanes, module);
    if (std::optional<ArrayRef<int64_t>> perm = op.getPermutation()) {
      SmallVector<OpFoldResult> sizes = getSizes(rewriter, loc, x);
      SmallVector<OpFoldResult> permuted;
      for (int64_t d : *perm)
        permuted.push_back(sizes[d]);
      Value init = createEmpty(rewriter, loc, permuted, rewriter.getF32Type());
      x = linalg::TransposeOp::create(rewriter, loc, x, init, *perm)
              .getResult()
              .front();
    }
    QuantizeParams p{op.getEps().convertToDouble(),
                     op.getScaleMode() == ScaleMode::pow2, op.getSaturate()};
    ScaledTensorType type = op.getResult().getType();
    auto [codes, scales] =
        hasTiledQuantize(type, tiledLanes)
            ? fp8::detail::buildTiledQuantize(rewriter, loc, x, type, p,
                                              tiledLanes, module)
            : lowerQuantize(rewriter, loc, x, type, p);
    rewriter.replaceOpWithMultiple(
        op, {fp8::detail::castToParts(rewriter, loc, {codes, scales}, type)});
    return success();
  }
  unsigned tiledLanes; // 0: the reference generics
};

struct AssembleLowering : OpConversionPattern<AssembleOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AssembleOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithMultiple(
        op, {{adaptor.getData().front(), adaptor.getScales().front()}});
    return success();
  }
};

struct DisassembleLowering : OpConversionPattern<DisassembleOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DisassembleOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ValueRange in = adaptor.getInput();
    if (in.size() != 2)
      return rewriter.notifyMatchFailure(op, "input not decomposed");
    rewriter.replaceOp(op, in);
    return success();
  }
};
} // namespace

//===----------------------------------------------------------------------===//
// Block-scaled matmul
//===----------------------------------------------------------------------===//

/// Decodes a tensor of FP8 codes into f32 (no scale).
static Value decodeCodes(OpBuilder &b, Location loc, Value codes) {
  Value init = createEmpty(b, loc, getSizes(b, loc, codes), b.getF32Type());
  return mapElementwise(b, loc, codes, init,
                        [](OpBuilder &nb, Location nl, ValueRange args) {
                          return createFP8ToF32(nb, nl, args[0]);
                        });
}

/// Biased exponent field of an f32 scalar, as i32.
static Value expField(OpBuilder &b, Location loc, Value f) {
  Value bits = arith::BitcastOp::create(b, loc, b.getI32Type(), f);
  Value sh = arith::ShRUIOp::create(
      b, loc, bits, arith::ConstantIntOp::create(b, loc, 23, 32));
  return arith::AndIOp::create(b, loc, sh,
                               arith::ConstantIntOp::create(b, loc, 0xFF, 32));
}

/// 2^(field - 127) as f32 from an i32 biased exponent field in [1, 254].
static Value pow2FromField(OpBuilder &b, Location loc, Value field) {
  Value bits = arith::ShLIOp::create(
      b, loc, field, arith::ConstantIntOp::create(b, loc, 23, 32));
  return arith::BitcastOp::create(b, loc, b.getF32Type(), bits);
}

/// The alignment field of one product p = a * b (biased like an f32
/// exponent field; 0 for a zero product, which takes no part in the max).
/// `a`, `b` are the decoded FP8 inputs (f32; FP8 subnormals are normal f32).
static Value alignmentField(OpBuilder &b, Location loc, Value a, Value w,
                            Value p, Type aElt, Type bElt,
                            tensorcore::Alignment alignment) {
  Value pe = expField(b, loc, p);
  if (alignment == tensorcore::Alignment::ProductExponent)
    return pe;
  auto ci = [&](int64_t x) {
    return arith::ConstantIntOp::create(b, loc, x, 32);
  };
  // ea + eb with each exponent clamped at its format's minimum normal: the
  // f32 fields are clamped at 127 + emin; the sum is rebiased once.
  auto clamped = [&](Value v, Type elt) -> Value {
    auto format = isa<Float8E5M2Type>(elt) ? tensorcore::Fp8Format::E5M2
                                           : tensorcore::Fp8Format::E4M3FN;
    Value field = expField(b, loc, v);
    Value minField = ci(127 + tensorcore::minNormalExponent(format));
    return arith::MaxUIOp::create(b, loc, field, minField);
  };
  // (One statement per op: the IR order must not depend on the order in
  // which the compiler evaluates arguments.)
  Value ea = clamped(a, aElt);
  Value eb = clamped(w, bElt);
  Value sum = arith::AddIOp::create(b, loc, ea, eb);
  sum = arith::SubIOp::create(b, loc, sum, ci(127));
  // Products of FP8 values are never f32 subnormals (the smallest is
  // 2^-32): the field of p is 0 exactly for a zero product.
  Value isZero =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, pe, ci(0));
  return arith::SelectOp::create(b, loc, isZero, ci(0), sum);
}

/// The emulated tensor-core partial of one promotion interval [k0, k1) of
/// output (m, n) under `model`: see FP8LowerToLinalgPass's description and
/// tensorcore::accumulateGroup (the same arithmetic on host values).
static Value emulatePartial(OpBuilder &b, Location loc, Value fa, Value fb,
                            Value m, Value n, Value k0, Value k1, Type aElt,
                            Type bElt,
                            const tensorcore::AccumulationModel &model) {
  auto ci = [&](int64_t x) {
    return arith::ConstantIntOp::create(b, loc, x, 32);
  };
  int64_t fracBits = model.fractionBits;
  Value group = arith::ConstantIndexOp::create(b, loc, model.groupSize);
  Value zero =
      arith::ConstantFloatOp::create(b, loc, b.getF32Type(), APFloat(0.0f));
  auto operands = [&](OpBuilder &nb, Location nl,
                      Value k) -> std::pair<Value, Value> {
    return {tensor::ExtractOp::create(nb, nl, fa, ValueRange{m, k}),
            tensor::ExtractOp::create(nb, nl, fb, ValueRange{n, k})};
  };
  auto groups = scf::ForOp::create(
      b, loc, k0, k1, group, ValueRange{zero},
      [&](OpBuilder &gb, Location gl, Value g0, ValueRange acc) {
        Value g1 = arith::MinSIOp::create(
            gb, gl, arith::AddIOp::create(gb, gl, g0, group), k1);
        Value one = arith::ConstantIndexOp::create(gb, gl, 1);
        // Largest alignment exponent among the running partial (its own
        // exponent) and the products.
        auto maxLoop = scf::ForOp::create(
            gb, gl, g0, g1, one, ValueRange{expField(gb, gl, acc[0])},
            [&](OpBuilder &lb, Location ll, Value k, ValueRange e) {
              auto [a, w] = operands(lb, ll, k);
              Value p = arith::MulFOp::create(lb, ll, a, w); // exact
              Value pe =
                  alignmentField(lb, ll, a, w, p, aElt, bElt, model.alignment);
              scf::YieldOp::create(
                  lb, ll, ValueRange{arith::MaxUIOp::create(lb, ll, e[0], pe)});
            });
        // Clamp so that the scale factors below stay normal f32 when every
        // term is zero (then the result is 0 whatever the scale). Nonzero
        // terms lie above 2^-63: products of FP8 values are >= 2^-32, and
        // the running partial is 0 or a sum of them truncated to a grid of
        // at least 2^-55.
        Value e = arith::MaxUIOp::create(gb, gl, maxLoop.getResult(0), ci(64));
        // inv = 2^(fracBits - E) maps the grid 2^(E - fracBits) onto the
        // integers; unit = 1 / inv.
        Value inv = pow2FromField(
            gb, gl, arith::SubIOp::create(gb, gl, ci(254 + fracBits), e));
        Value unit = pow2FromField(
            gb, gl, arith::SubIOp::create(gb, gl, e, ci(fracBits)));
        Type i32 = gb.getI32Type();
        auto toGrid = [&](OpBuilder &nb, Location nl, Value f) -> Value {
          // fptosi truncates toward zero: the dropped low bits.
          return arith::FPToSIOp::create(nb, nl, i32,
                                         arith::MulFOp::create(nb, nl, f, inv));
        };
        // Alongside, the plain f32 sum: when it is Inf or NaN (an Inf/NaN
        // code in E5M2/E4M3 inputs) it is the result, so NaN propagates as in
        // the exact path; the integer grid is meaningless for such terms.
        auto sumLoop = scf::ForOp::create(
            gb, gl, g0, g1, one, ValueRange{toGrid(gb, gl, acc[0]), acc[0]},
            [&](OpBuilder &lb, Location ll, Value k, ValueRange s) {
              auto [a, w] = operands(lb, ll, k);
              Value p = arith::MulFOp::create(lb, ll, a, w);
              Value t = toGrid(lb, ll, p);
              scf::YieldOp::create(
                  lb, ll,
                  ValueRange{arith::AddIOp::create(lb, ll, s[0], t),
                             arith::AddFOp::create(lb, ll, s[1], p)});
            });
        Value sum = fp8::detail::truncateSignificant(
            gb, gl, sumLoop.getResult(0), model.resultBits);
        Value res = arith::MulFOp::create(
            gb, gl, arith::SIToFPOp::create(gb, gl, gb.getF32Type(), sum),
            unit);
        Value plain = sumLoop.getResult(1);
        Value plainBits = arith::BitcastOp::create(gb, gl, i32, plain);
        // One op per statement, in the order the nested form was built.
        Value expAllOnes = ci(0x7F800000);
        Value expBits =
            arith::AndIOp::create(gb, gl, plainBits, ci(0x7F800000));
        Value special = arith::CmpIOp::create(gb, gl, arith::CmpIPredicate::uge,
                                              expBits, expAllOnes);
        res = arith::SelectOp::create(gb, gl, special, plain, res);
        scf::YieldOp::create(gb, gl, ValueRange{res});
      });
  return groups.getResult(0);
}

namespace {
struct ScaledMatmulLowering : OpConversionPattern<ScaledMatmulOp> {
  ScaledMatmulLowering(const TypeConverter &tc, MLIRContext *ctx,
                       std::optional<tensorcore::AccumulationModel> accumulator,
                       unsigned vectorLanes)
      : OpConversionPattern(tc, ctx), accumulator(accumulator),
        vectorLanes(vectorLanes) {}

  LogicalResult
  matchAndRewrite(ScaledMatmulOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ValueRange a = adaptor.getA(), bv = adaptor.getB();
    if (a.size() != 2 || bv.size() != 2)
      return rewriter.notifyMatchFailure(op, "operands not decomposed");
    // Split-K runs on the reference generics: the tiled kernel has one
    // accumulator per output tile.
    if (vectorLanes && op.getKSplits() == 1)
      return rewriteTiled(op, a, bv, adaptor.getC(), rewriter);

    OpBuilder &b = rewriter;
    Location loc = op.getLoc();
    Type f32 = b.getF32Type();
    Type outElt = op.getResult().getType().getElementType();
    Value fa = decodeCodes(b, loc, a[0]);  // [M, K]
    Value fb = decodeCodes(b, loc, bv[0]); // [N, K]
    OpFoldResult mSize = tensor::getMixedSize(b, loc, fa, 0);
    OpFoldResult kSize = tensor::getMixedSize(b, loc, fa, 1);
    OpFoldResult nSize = tensor::getMixedSize(b, loc, fb, 0);
    Value partials = buildPartials(b, loc, op, fa, fb, mSize, nSize, kSize);

    // The accumulator the promotion starts from: C in f32, else zeros.
    Value acc;
    if (ValueRange c = adaptor.getC(); !c.empty()) {
      acc = c.front();
      auto cType = cast<RankedTensorType>(acc.getType());
      if (!cType.getElementType().isF32())
        acc = mapElementwise(b, loc, acc,
                             createEmpty(b, loc, {mSize, nSize}, f32),
                             [](OpBuilder &nb, Location nl, ValueRange args) {
                               return toF32(nb, nl, args[0]);
                             });
    } else {
      acc = createFilled(b, loc, {mSize, nSize}, f32, 0.0);
    }
    Value result =
        op.getKSplits() == 1
            ? buildPromotion(b, loc, op, partials, a[1], bv[1], acc)
            : buildSplitPromotion(b, loc, op, partials, a[1], bv[1], acc);

    if (!outElt.isF32())
      result = mapElementwise(
          b, loc, result, createEmpty(b, loc, {mSize, nSize}, outElt),
          [&](OpBuilder &nb, Location nl, ValueRange args) {
            return createTruncFCanonicalNaN(nb, nl, args[0], outElt);
          });
    rewriter.replaceOp(op, result);
    return success();
  }

  /// vectorLanes > 0: one call of the tiled kernel (TiledScaledMatmul.cpp)
  /// on the codes and scales, C widened to f32.
  LogicalResult rewriteTiled(ScaledMatmulOp op, ValueRange a, ValueRange bv,
                             ValueRange c,
                             ConversionPatternRewriter &rewriter) const {
    OpBuilder &b = rewriter;
    Location loc = op.getLoc();
    Type f32 = b.getF32Type();
    fp8::detail::TiledScaledMatmulOperands operands;
    operands.aCodes = a[0];
    operands.aScales = a[1];
    operands.bCodes = bv[0];
    operands.bScales = bv[1];
    operands.aBlock = op.getA().getType().getBlockShape();
    operands.bBlock = op.getB().getType().getBlockShape();
    operands.interval = op.getPromoteInterval();
    operands.vectorLanes = vectorLanes;
    operands.outElementType = op.getResult().getType().getElementType();
    operands.accumulator = accumulator;
    if (!c.empty()) {
      operands.c = c.front();
      if (!cast<RankedTensorType>(operands.c.getType())
               .getElementType()
               .isF32())
        operands.c = mapElementwise(
            b, loc, operands.c,
            createEmpty(b, loc, getSizes(b, loc, operands.c), f32),
            [](OpBuilder &nb, Location nl, ValueRange args) {
              return toF32(nb, nl, args[0]);
            });
    }
    // A result only widened to f32 (e.g. for a caller that wants f32
    // holding bf16 values): the kernel stores each rounded output widened
    // and replaces the widening; no rounded intermediate, no second pass.
    Operation *widening = fp8::detail::getWideningUse(op.getResult());
    if (widening)
      operands.storeElementType = f32;
    Value result = fp8::detail::callTiledScaledMatmul(
        b, loc, op->getParentOfType<ModuleOp>(), operands);
    if (widening)
      fp8::detail::replaceWidened(rewriter, op, widening, result);
    else
      rewriter.replaceOp(op, result);
    return success();
  }

  /// The FP32 partial sums of each promotion interval, [M, N,
  /// ceil(K / interval)], of the decoded codes `fa` [M, K] and `fb` [N, K]:
  /// exact (k innermost and increasing), or each interval through the
  /// accumulator model.
  Value buildPartials(OpBuilder &b, Location loc, ScaledMatmulOp op, Value fa,
                      Value fb, OpFoldResult mSize, OpFoldResult nSize,
                      OpFoldResult kSize) const {
    MLIRContext *ctx = b.getContext();
    Type f32 = b.getF32Type();
    int64_t interval = op.getPromoteInterval();
    AffineExpr s0 = getAffineSymbolExpr(0, ctx);
    OpFoldResult kbSize = affine::makeComposedFoldedAffineApply(
        b, loc, s0.ceilDiv(interval), {kSize});
    SmallVector<OpFoldResult> partialSizes = {mSize, nSize, kbSize};
    AffineExpr d0 = b.getAffineDimExpr(0), d1 = b.getAffineDimExpr(1),
               d2 = b.getAffineDimExpr(2);
    using utils::IteratorType;
    if (!accumulator) {
      // Exact FP32 partials: loops (m, n, k), k innermost and increasing;
      // output element (m, n, k floordiv interval).
      Value init = createFilled(b, loc, partialSizes, f32, 0.0);
      return linalg::GenericOp::create(
                 b, loc, init.getType(), ValueRange{fa, fb}, init,
                 ArrayRef<AffineMap>{
                     AffineMap::get(3, 0, {d0, d2}, ctx),
                     AffineMap::get(3, 0, {d1, d2}, ctx),
                     AffineMap::get(3, 0, {d0, d1, d2.floorDiv(interval)},
                                    ctx)},
                 {IteratorType::parallel, IteratorType::parallel,
                  IteratorType::reduction},
                 [&](OpBuilder &nb, Location nl, ValueRange args) {
                   Value p = arith::MulFOp::create(nb, nl, args[0], args[1]);
                   linalg::YieldOp::create(
                       nb, nl,
                       ValueRange{arith::AddFOp::create(nb, nl, args[2], p)});
                 })
          .getResult(0);
    }
    Value init = createEmpty(b, loc, partialSizes, f32);
    Value kDim = getValueOrCreateConstantIndexOp(b, loc, kSize);
    Type aElt = op.getA().getType().getElementType();
    Type bElt = op.getB().getType().getElementType();
    return linalg::GenericOp::create(
               b, loc, init.getType(), ValueRange{}, init,
               ArrayRef<AffineMap>{b.getMultiDimIdentityMap(3)},
               parallelIters(3),
               [&](OpBuilder &nb, Location nl, ValueRange) {
                 Value m = linalg::IndexOp::create(nb, nl, 0);
                 Value n = linalg::IndexOp::create(nb, nl, 1);
                 Value kb = linalg::IndexOp::create(nb, nl, 2);
                 Value iv = arith::ConstantIndexOp::create(nb, nl, interval);
                 Value k0 = arith::MulIOp::create(nb, nl, kb, iv);
                 Value k1 = arith::MinSIOp::create(
                     nb, nl, arith::AddIOp::create(nb, nl, k0, iv), kDim);
                 linalg::YieldOp::create(
                     nb, nl,
                     ValueRange{emulatePartial(nb, nl, fa, fb, m, n, k0, k1,
                                               aElt, bElt, *accumulator)});
               })
        .getResult(0);
  }

  /// Split-K (`k_splits` = S > 1, numerics contract "Split-K"): each split
  /// promotes its range of intervals (getKSplitRange) into its own
  /// accumulator, split 0 from `acc` (C or zeros) and the others from
  /// zeros; the S accumulators are then added in split order, each sum's
  /// NaN the GPU's canonical NaN (its add.f32 returns 0x7FFFFFFF).
  static Value buildSplitPromotion(OpBuilder &b, Location loc,
                                   ScaledMatmulOp op, Value partials,
                                   Value aScales, Value bScales, Value acc) {
    int64_t splits = op.getKSplits();
    // The verifier requires a static K of A or of B for S > 1.
    int64_t k = op.getA().getType().getShape()[1];
    if (ShapedType::isDynamic(k))
      k = op.getB().getType().getShape()[1];
    int64_t kBlocks = llvm::divideCeil(k, op.getPromoteInterval());
    auto accType = cast<RankedTensorType>(acc.getType());
    SmallVector<OpFoldResult> mn = getSizes(b, loc, acc);
    Value sum;
    for (int64_t s = 0; s < splits; ++s) {
      Value init =
          s == 0 ? acc
                 : createFilled(b, loc, mn, accType.getElementType(), 0.0);
      Value part = buildPromotion(b, loc, op, partials, aScales, bScales, init,
                                  getKSplitRange(kBlocks, splits, s));
      sum = s == 0 ? part
                   : mapElementwise(
                         b, loc, ValueRange{sum, part},
                         createEmpty(b, loc, mn, accType.getElementType()),
                         [](OpBuilder &nb, Location nl, ValueRange args) {
                           return createCanonicalNaNF32(
                               nb, nl,
                               arith::AddFOp::create(nb, nl, args[0], args[1]));
                         });
    }
    return sum;
  }

  /// Promotion: acc = fma(partial, sa * sb, acc) over the intervals in
  /// order (all of them, or the split's `range`), each with the scales of
  /// its blocks; a NaN acc is the GPU's canonical NaN
  /// (createCanonicalNaNF32).
  static Value buildPromotion(OpBuilder &b, Location loc, ScaledMatmulOp op,
                              Value partials, Value aScales, Value bScales,
                              Value acc,
                              std::optional<KSplitRange> range = {}) {
    MLIRContext *ctx = b.getContext();
    int64_t interval = op.getPromoteInterval();
    ArrayRef<int64_t> ba = op.getA().getType().getBlockShape();
    ArrayRef<int64_t> bb = op.getB().getType().getBlockShape();
    AffineExpr d0 = b.getAffineDimExpr(0), d1 = b.getAffineDimExpr(1),
               d2 = b.getAffineDimExpr(2);
    AffineExpr kStart = d2 * interval;
    auto rowBlock = [&](AffineExpr d, int64_t blk) {
      return blk == 1 ? d : d.floorDiv(blk);
    };
    AffineMap saMap = AffineMap::get(
        3, 0, {rowBlock(d0, ba[0]), kStart.floorDiv(ba[1])}, ctx);
    AffineMap sbMap = AffineMap::get(
        3, 0, {rowBlock(d1, bb[0]), kStart.floorDiv(bb[1])}, ctx);
    using utils::IteratorType;
    return linalg::GenericOp::create(
               b, loc, acc.getType(), ValueRange{partials, aScales, bScales},
               acc,
               ArrayRef<AffineMap>{b.getMultiDimIdentityMap(3), saMap, sbMap,
                                   AffineMap::get(3, 0, {d0, d1}, ctx)},
               {IteratorType::parallel, IteratorType::parallel,
                IteratorType::reduction},
               [&](OpBuilder &nb, Location nl, ValueRange args) {
                 Value s = arith::MulFOp::create(
                     nb, nl, createScaleToF32(nb, nl, args[1]),
                     createScaleToF32(nb, nl, args[2]));
                 // The GPU's FFMA returns the canonical NaN 0x7FFFFFFF.
                 Value fma = math::FmaOp::create(nb, nl, args[0], s, args[3]);
                 Value acc = createCanonicalNaNF32(nb, nl, fma);
                 // A split promotes its own intervals only; the others
                 // pass its accumulator through unchanged. (The loops run
                 // over every interval: the scale maps' K-block index then
                 // covers the scales' whole dimension, as linalg's
                 // verifier requires of a slice-free map.)
                 if (range) {
                   Value kb = linalg::IndexOp::create(nb, nl, 2);
                   Value first =
                       arith::ConstantIndexOp::create(nb, nl, range->begin);
                   Value end = arith::ConstantIndexOp::create(
                       nb, nl, range->begin + range->count);
                   Value afterFirst = arith::CmpIOp::create(
                       nb, nl, arith::CmpIPredicate::uge, kb, first);
                   Value beforeEnd = arith::CmpIOp::create(
                       nb, nl, arith::CmpIPredicate::ult, kb, end);
                   Value inSplit =
                       arith::AndIOp::create(nb, nl, afterFirst, beforeEnd);
                   acc = arith::SelectOp::create(nb, nl, inSplit, acc, args[3]);
                 }
                 linalg::YieldOp::create(nb, nl, ValueRange{acc});
               })
        .getResult(0);
  }

  std::optional<tensorcore::AccumulationModel> accumulator;
  unsigned vectorLanes; // 0: the reference generics
};
} // namespace

//===----------------------------------------------------------------------===//
// Type conversion and passes
//===----------------------------------------------------------------------===//

void fp8::populateFP8ToLinalgPatterns(
    TypeConverter &converter, RewritePatternSet &patterns,
    std::optional<tensorcore::AccumulationModel> accumulator,
    unsigned tiledLanes) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<AssembleLowering, DisassembleLowering>(converter, ctx);
  patterns.add<QuantizeLowering, DequantizeLowering, RequantizeLowering>(
      converter, ctx, tiledLanes);
  patterns.add<ScaledMatmulLowering>(converter, ctx, accumulator, tiledLanes);
  fp8::detail::populateGroupedScaledMatmulLowering(converter, patterns);
  fp8::detail::populateEmptyShapeLowering(converter, patterns);
}

static StringRef getAccumulatorName(AccumulatorModel model) {
  switch (model) {
  case AccumulatorModel::exact:
    return "exact";
  case AccumulatorModel::sm90:
    return "sm90";
  case AccumulatorModel::sm89:
    return "sm89";
  }
  llvm_unreachable("unknown accumulator model");
}

FailureOr<std::optional<tensorcore::AccumulationModel>>
fp8::getAccumulationModel(AccumulatorModel accumulator,
                          unsigned accumulatorBits, bool accumulatorGiven,
                          std::string &error) {
  llvm::raw_string_ostream os(error);
  if (accumulatorBits > 24) {
    os << "option accumulator-bits=" << accumulatorBits
       << " is out of range: expected 0 (exact f32 sums) or 1..24 (the "
          "emulated significand must fit an f32)";
    return failure();
  }
  if (accumulatorBits != 0 &&
      (accumulator != AccumulatorModel::exact || accumulatorGiven)) {
    os << "options accumulator=" << getAccumulatorName(accumulator)
       << " and accumulator-bits=" << accumulatorBits
       << " contradict: accumulator-bits=N is the generic N-bit model, "
          "accumulator=exact|sm90|sm89 the exact sums and the hardware "
          "models; give one of them";
    return failure();
  }
  if (accumulatorBits != 0)
    return std::optional(tensorcore::bitsModel(accumulatorBits));
  switch (accumulator) {
  case AccumulatorModel::exact:
    return std::optional<tensorcore::AccumulationModel>();
  case AccumulatorModel::sm90:
    return std::optional(tensorcore::sm90Model());
  case AccumulatorModel::sm89:
    return std::optional(tensorcore::sm89Model());
  }
  llvm_unreachable("unknown accumulator model");
}

namespace {
struct FP8LowerToLinalgPass
    : fp8::impl::FP8LowerToLinalgPassBase<FP8LowerToLinalgPass> {
  using Base::Base;
  // Options are checked once, before any IR is touched, so a bad value is
  // reported without a dump of the module.
  LogicalResult initialize(MLIRContext *ctx) override {
    std::string error;
    FailureOr<std::optional<tensorcore::AccumulationModel>> model =
        getAccumulationModel(accumulator, accumulatorBits,
                             accumulator.getNumOccurrences() > 0, error);
    if (failed(model))
      return emitError(UnknownLoc::get(ctx))
             << "fp8-lower-to-linalg: " << error;
    accumulation = *model;
    if (vectorLanes != 8 && vectorLanes != 16)
      return emitError(UnknownLoc::get(ctx))
             << "fp8-lower-to-linalg: option vector-lanes="
             << static_cast<unsigned>(vectorLanes)
             << " is not supported: expected 8 (AVX2) or 16 (AVX-512)";
    return success();
  }
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    TypeConverter converter;
    populateFP8DecomposeTypeConversion(converter);
    RewritePatternSet patterns(ctx);
    ConversionTarget target(*ctx);
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    target.addIllegalDialect<FP8Dialect>();
    populateFP8FunctionBoundaryConversion(converter, patterns, target);
    populateFP8ToLinalgPatterns(converter, patterns, accumulation,
                                tiled ? vectorLanes : 0);
    if (failed(verifyScaledValuesConvertible(getOperation(),
                                             "fp8-lower-to-linalg")) ||
        failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      return signalPassFailure();
    // The BF16 kernel's last k16 step adds TMA's +0.0 fill past K (the K
    // tail): every model sums those products too.
    fp8::detail::padWideMatmulKTails(getOperation());
    // Hopper's wgmma accumulates bf16/f16 products in k16 steps too: under
    // accumulator=sm90 the matmuls a BF16 wgmma kernel would run get its
    // sums (docs/numerics.md); the other models leave them exact.
    if (accumulator == AccumulatorModel::sm90)
      fp8::detail::lowerWideMatmulsToK16Chains(getOperation());
  }

  std::optional<tensorcore::AccumulationModel> accumulation;
};
} // namespace
