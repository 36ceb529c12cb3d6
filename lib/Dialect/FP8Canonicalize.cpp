//===- FP8Canonicalize.cpp - canonicalization patterns of fp8 ops ----------===//
//
// fp8.quantize:
//  - quantize(dequantize(q)) with the same result type -> q. Requantizing
//    dequantized codes into the layout they came from reproduces them when
//    the block's largest code is fmax (always, for f32 scales without the
//    eps clamp), and is otherwise a second rounding: keeping q is exact.
//  - quantize(constant) -> fp8.assemble(FP8 constant, scale constant): the
//    weights of a model are quantized once, at compile time, by the
//    numerics contract of DESIGN.md §1 (NaN-propagating amax, eps clamp,
//    scale 1 when amax is not finite or amax/fmax is not a normal f32, pow2
//    rounding from the exponent bits, RNE with satfinite). Splat constants
//    (exported graphs with elided weights) fold to splats, whatever their
//    size; dense ones up to 2^24 elements (bounded compile time).
//    dense_resource constants (elided blobs) are left alone.
//
//===----------------------------------------------------------------------===//
#include "fp8/Dialect/FP8.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/bit.h"

#include <cmath>

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

/// The dequantization scale of one block (numerics contract §1.2-1.3).
float blockScale(float amax, float eps, float fmax, ScaleMode mode) {
  if (!std::isnan(amax))
    amax = std::max(amax, eps);
  if (!std::isfinite(amax))
    return 1.0f;
  float q = amax / fmax;
  if (!std::isnormal(q))
    return 1.0f;
  if (mode == ScaleMode::f32)
    return q;
  // Smallest power of two >= q, from the bits: exact, never below q.
  uint32_t bits = llvm::bit_cast<uint32_t>(q);
  if ((bits & 0x7fffffu) == 0)
    return q;
  uint32_t exp = (bits >> 23) & 0xffu;
  return llvm::bit_cast<float>((exp + 1) << 23);
}

/// x / s rounded to the FP8 format, RNE, saturating finite overflow and
/// infinities to ±fmax (satfinite) or not (overflow -> NaN/Inf).
APFloat encode(float x, float s, float fmax, const llvm::fltSemantics &sem,
               bool saturate) {
  float y = x / s;
  if (saturate && !std::isnan(y))
    y = std::clamp(y, -fmax, fmax);
  APFloat v(y);
  bool losesInfo;
  v.convert(sem, APFloat::rmNearestTiesToEven, &losesInfo);
  return v;
}

/// The splat value or the elements of a constant that `v` is, possibly
/// behind a reshape (any shape-only op keeps a splat a splat).
std::optional<DenseElementsAttr> getConstantInput(Value v) {
  for (unsigned i = 0; i < 8; ++i) {
    Operation *def = v.getDefiningOp();
    if (!def)
      return std::nullopt;
    if (auto c = dyn_cast<arith::ConstantOp>(def)) {
      auto dense = dyn_cast<DenseElementsAttr>(c.getValue());
      if (!dense)
        return std::nullopt; // dense_resource and elided blobs stay
      return dense;
    }
    // Reshapes and transposes of a splat are the same splat; a 2-D
    // transpose of a dense constant is folded too.
    if (def->getNumOperands() >= 1 && def->getNumResults() == 1 &&
        isa<RankedTensorType>(def->getOperand(0).getType())) {
      StringRef name = def->getName().getStringRef();
      if (name == "tensor.expand_shape" || name == "tensor.collapse_shape" ||
          name == "linalg.transpose") {
        std::optional<DenseElementsAttr> src =
            getConstantInput(def->getOperand(0));
        if (!src)
          return std::nullopt;
        auto t = cast<ShapedType>(def->getResult(0).getType());
        if (src->isSplat())
          return DenseElementsAttr::get(t, src->getSplatValue<Attribute>());
        // A dense 2-D weight transposed to NT (fp8-insert-quant does this
        // for a weight stored [K, N]): transpose the values.
        auto perm = def->getAttrOfType<DenseI64ArrayAttr>("permutation");
        if (name != "linalg.transpose" || t.getRank() != 2 || !perm ||
            perm.asArrayRef() != ArrayRef<int64_t>{1, 0} ||
            !t.hasStaticShape() || !isa<FloatType>(src->getElementType()) ||
            src->getNumElements() > (int64_t(1) << 24))
          return std::nullopt;
        int64_t rows = t.getDimSize(0), cols = t.getDimSize(1);
        SmallVector<APFloat> in(src->getValues<APFloat>());
        SmallVector<APFloat> out;
        out.reserve(in.size());
        for (int64_t r = 0; r < rows; ++r)
          for (int64_t c = 0; c < cols; ++c)
            out.push_back(in[c * rows + r]);
        return DenseElementsAttr::get(t, out);
      }
    }
    return std::nullopt;
  }
  return std::nullopt;
}

struct QuantizeConstant : OpRewritePattern<QuantizeOp> {
  using OpRewritePattern::OpRewritePattern;
  static constexpr int64_t kMaxDenseElements = int64_t(1) << 24;

  LogicalResult matchAndRewrite(QuantizeOp op,
                                PatternRewriter &rewriter) const override {
    ScaledTensorType type = op.getResult().getType();
    std::optional<DenseElementsAttr> in = getConstantInput(op.getInput());
    if (!in || !type.getDataTensorType().hasStaticShape() ||
        !isa<FloatType>(in->getElementType()))
      return failure();
    if (!in->isSplat() && in->getNumElements() > kMaxDenseElements)
      return failure();
    float fmax = static_cast<float>(type.getFormatMax());
    float eps = op.getEps().convertToFloat();
    ScaleMode mode = op.getScaleMode();
    bool saturate = op.getSaturate();
    const llvm::fltSemantics &sem =
        cast<FloatType>(type.getElementType()).getFloatSemantics();
    const llvm::fltSemantics &scaleSem =
        cast<FloatType>(type.getScaleType()).getFloatSemantics();
    auto toScale = [&](float s) {
      APFloat v(s);
      bool losesInfo;
      v.convert(scaleSem, APFloat::rmNearestTiesToEven, &losesInfo);
      return v;
    };
    RankedTensorType dataType = type.getDataTensorType();
    RankedTensorType scaleType = type.getScaleTensorType();

    DenseElementsAttr data, scales;
    if (in->isSplat()) {
      float x = in->getSplatValue<APFloat>().convertToFloat();
      float s = blockScale(std::fabs(x), eps, fmax, mode);
      data = DenseElementsAttr::get(dataType, encode(x, s, fmax, sem, saturate));
      scales = DenseElementsAttr::get(scaleType, toScale(s));
    } else {
      SmallVector<float> xs;
      xs.reserve(in->getNumElements());
      for (APFloat v : in->getValues<APFloat>())
        xs.push_back(v.convertToFloat());
      ArrayRef<int64_t> shape = dataType.getShape();
      ArrayRef<int64_t> block = type.getBlockShape();
      SmallVector<int64_t> sshape = type.getScaleShape();
      int64_t rank = shape.size();
      // Block index of each element, row-major over the scale tensor.
      SmallVector<float> amax(scaleType.getNumElements(), 0.0f);
      SmallVector<int64_t> idx(rank, 0);
      auto blockOf = [&]() {
        int64_t b = 0;
        for (int64_t d = 0; d < rank; ++d)
          b = b * sshape[d] + idx[d] / block[d];
        return b;
      };
      auto next = [&]() {
        for (int64_t d = rank - 1; d >= 0; --d) {
          if (++idx[d] < shape[d])
            return;
          idx[d] = 0;
        }
      };
      SmallVector<int64_t> blockIdx(xs.size());
      for (size_t i = 0; i < xs.size(); ++i, next()) {
        int64_t b = blockIdx[i] = blockOf();
        float a = std::fabs(xs[i]);
        // NaN propagates (a max that ignores NaN is wrong: case 8).
        if (std::isnan(a) || std::isnan(amax[b]))
          amax[b] = NAN;
        else
          amax[b] = std::max(amax[b], a);
      }
      SmallVector<float> s(amax.size());
      for (size_t b = 0; b < amax.size(); ++b)
        s[b] = blockScale(amax[b], eps, fmax, mode);
      SmallVector<APFloat> codes, scaleVals;
      codes.reserve(xs.size());
      for (size_t i = 0; i < xs.size(); ++i)
        codes.push_back(encode(xs[i], s[blockIdx[i]], fmax, sem, saturate));
      for (float v : s)
        scaleVals.push_back(toScale(v));
      data = DenseElementsAttr::get(dataType, codes);
      scales = DenseElementsAttr::get(scaleType, scaleVals);
    }
    Location loc = op.getLoc();
    Value d = arith::ConstantOp::create(rewriter, loc, dataType, data);
    Value sc = arith::ConstantOp::create(rewriter, loc, scaleType, scales);
    rewriter.replaceOpWithNewOp<AssembleOp>(op, type, d, sc);
    return success();
  }
};

} // namespace

void QuantizeOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                             MLIRContext *context) {
  patterns.add<FoldQuantizeOfDequantize, QuantizeConstant>(context);
}
