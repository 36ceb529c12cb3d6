//===- FoldConstantWeights.cpp - fp8-fold-constant-weights ----------------===//
//
// The weights of a model are quantized once, at compile time. The arithmetic
// is not written here: HostQuantizer (fp8/Dialect/FP8/Utils/FP8Arith.h)
// evaluates the same operation sequence the runtime lowering emits, so
// folded and runtime quantization agree byte for byte.
//
//===----------------------------------------------------------------------===//
#include "fp8/Dialect/FP8/IR/FP8.h"
#include "fp8/Dialect/FP8/Transforms/Passes.h"
#include "fp8/Dialect/FP8/Utils/FP8Arith.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/bit.h"

namespace mlir::fp8 {
#define GEN_PASS_DEF_FP8FOLDCONSTANTWEIGHTSPASS
#include "fp8/Dialect/FP8/Transforms/Passes.h.inc"
} // namespace mlir::fp8

using namespace mlir;
using namespace mlir::fp8;

namespace {

/// Longest view chain followed back from a quantize to its constant.
constexpr unsigned kMaxViewChain = 8;

/// The elements of a constant seen through a chain of views, row-major in
/// the quantize input's shape; a splat stays one element.
struct ConstantView {
  SmallVector<float> values;
  bool splat = false;
};

/// Permutes row-major `in` of shape `shape` by `perm` (linalg.transpose:
/// out[i_0..i_n] = in[i_perm^-1...], out dim d = in dim perm[d]).
SmallVector<float> transpose(ArrayRef<float> in, ArrayRef<int64_t> shape,
                             ArrayRef<int64_t> perm) {
  int64_t rank = shape.size();
  SmallVector<int64_t> inStrides(rank, 1), outShape(rank);
  for (int64_t d = rank - 2; d >= 0; --d)
    inStrides[d] = inStrides[d + 1] * shape[d + 1];
  for (int64_t d = 0; d < rank; ++d)
    outShape[d] = shape[perm[d]];
  SmallVector<float> out(in.size());
  SmallVector<int64_t> idx(rank, 0);
  for (float &o : out) {
    int64_t src = 0;
    for (int64_t d = 0; d < rank; ++d)
      src += idx[d] * inStrides[perm[d]];
    o = in[src];
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++idx[d] < outShape[d])
        break;
      idx[d] = 0;
    }
  }
  return out;
}

/// The constant `v` is, through reshapes and transposes; nullopt when it is
/// not a float constant with static shapes, is a `dense_resource`, or has
/// more than `maxElements` elements (and is not a splat).
std::optional<ConstantView> getConstantView(Value v, int64_t maxElements) {
  SmallVector<Operation *> views;
  DenseElementsAttr dense;
  for (unsigned i = 0; i <= kMaxViewChain && !dense; ++i) {
    Operation *def = v.getDefiningOp();
    if (!def)
      return std::nullopt;
    if (auto c = dyn_cast<arith::ConstantOp>(def)) {
      dense = dyn_cast<DenseElementsAttr>(c.getValue());
      if (!dense) // dense_resource and elided blobs stay
        return std::nullopt;
    } else if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp,
                   linalg::TransposeOp>(def)) {
      views.push_back(def);
      v = def->getOperand(0);
    } else {
      return std::nullopt;
    }
  }
  if (!dense || !isa<FloatType>(dense.getElementType()) ||
      !dense.getType().hasStaticShape())
    return std::nullopt;
  ConstantView view;
  view.splat = dense.isSplat();
  if (view.splat) {
    view.values.push_back(dense.getSplatValue<APFloat>().convertToFloat());
    return view;
  }
  if (dense.getNumElements() > maxElements)
    return std::nullopt;
  view.values.reserve(dense.getNumElements());
  for (APFloat x : dense.getValues<APFloat>())
    view.values.push_back(x.convertToFloat());
  // Reshapes keep the row-major order; transposes permute it.
  for (Operation *op : llvm::reverse(views))
    if (auto t = dyn_cast<linalg::TransposeOp>(op))
      view.values = transpose(
          view.values, cast<ShapedType>(t.getInput().getType()).getShape(),
          t.getPermutation());
  return view;
}

/// A constant of `type` from one byte (or f32) per element, or one element
/// for a splat.
template <typename T>
DenseElementsAttr getFromValues(RankedTensorType type, ArrayRef<T> values) {
  ArrayRef<char> raw(reinterpret_cast<const char *>(values.data()),
                     values.size() * sizeof(T));
  return DenseElementsAttr::getFromRawBuffer(type, raw);
}

/// Quantizes a constant (splat or dense, row-major) into codes and stored
/// scales of `type`.
std::pair<DenseElementsAttr, DenseElementsAttr>
quantize(const ConstantView &view, ScaledTensorType type,
         const HostQuantizer &q) {
  RankedTensorType dataType = type.getDataTensorType();
  RankedTensorType scaleType = type.getScaleTensorType();
  bool f32Scale = type.getScaleType().isF32();
  auto scaleAttr = [&](ArrayRef<uint32_t> scales) {
    if (f32Scale)
      return getFromValues(scaleType, scales);
    SmallVector<uint8_t> codes(scales.begin(), scales.end());
    return getFromValues<uint8_t>(scaleType, codes);
  };
  if (view.splat) {
    float x = view.values.front();
    uint32_t s = q.getStoredScale(q.updateAmax(0.0f, x));
    uint8_t code = q.quantize(x, s);
    return {getFromValues<uint8_t>(dataType, code),
            scaleAttr(ArrayRef<uint32_t>(s))};
  }
  ArrayRef<int64_t> shape = dataType.getShape();
  ArrayRef<int64_t> block = type.getBlockShape();
  SmallVector<int64_t> scaleShape = type.getScaleShape();
  int64_t rank = shape.size();
  // Block (row-major over the scale tensor) of each element.
  SmallVector<int64_t> blockOf(view.values.size());
  SmallVector<int64_t> idx(rank, 0);
  for (int64_t &b : blockOf) {
    b = 0;
    for (int64_t d = 0; d < rank; ++d)
      b = b * scaleShape[d] + idx[d] / block[d];
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++idx[d] < shape[d])
        break;
      idx[d] = 0;
    }
  }
  SmallVector<float> amax(scaleType.getNumElements(), 0.0f);
  for (auto [x, b] : llvm::zip_equal(view.values, blockOf))
    amax[b] = q.updateAmax(amax[b], x);
  SmallVector<uint32_t> scales;
  scales.reserve(amax.size());
  for (float a : amax)
    scales.push_back(q.getStoredScale(a));
  SmallVector<uint8_t> codes;
  codes.reserve(view.values.size());
  for (auto [x, b] : llvm::zip_equal(view.values, blockOf))
    codes.push_back(q.quantize(x, scales[b]));
  return {getFromValues<uint8_t>(dataType, codes), scaleAttr(scales)};
}

struct FoldConstantWeightsPass
    : fp8::impl::FP8FoldConstantWeightsPassBase<FoldConstantWeightsPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *ctx) override {
    if (maxElements < 0)
      return emitError(UnknownLoc::get(ctx))
             << "fp8-fold-constant-weights: option max-elements="
             << static_cast<int64_t>(maxElements)
             << " is negative (expected a number of elements >= 0)";
    return success();
  }

  void runOnOperation() override {
    SmallVector<QuantizeOp> ops;
    getOperation()->walk([&](QuantizeOp op) { ops.push_back(op); });
    for (QuantizeOp op : ops) {
      ScaledTensorType type = op.getResult().getType();
      if (!type.getDataTensorType().hasStaticShape())
        continue;
      std::optional<ConstantView> view =
          getConstantView(op.getInput(), maxElements);
      if (!view)
        continue;
      HostQuantizer q(type.getElementType(), type.getScaleType(),
                      op.getEps().convertToDouble(),
                      op.getScaleMode() == ScaleMode::pow2, op.getSaturate());
      auto [data, scales] = quantize(*view, type, q);
      OpBuilder b(op);
      Location loc = op.getLoc();
      Value d = arith::ConstantOp::create(b, loc, data.getType(), data);
      Value s = arith::ConstantOp::create(b, loc, scales.getType(), scales);
      op.replaceAllUsesWith(AssembleOp::create(b, loc, type, d, s).getResult());
      op.erase();
    }
  }
};

} // namespace
