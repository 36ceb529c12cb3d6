//===- FP8Ops.cpp - fp8 op verifiers and folders --------------------------===//
#include "fp8/Dialect/FP8/IR/FP8.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::fp8;

#define GET_OP_CLASSES
#include "fp8/Dialect/FP8/IR/FP8Ops.cpp.inc"

/// Prints a shape as `[32, ?, 4096]` for diagnostics.
static std::string formatShape(ArrayRef<int64_t> shape) {
  std::string s = "[";
  llvm::raw_string_ostream os(s);
  llvm::interleaveComma(shape, os, [&](int64_t d) {
    if (ShapedType::isDynamic(d))
      os << '?';
    else
      os << d;
  });
  os << ']';
  return s;
}

/// Checks that `actual` could hold the same shape as `expected` (a dynamic
/// size is compatible with any size).
static bool isCompatibleShape(ArrayRef<int64_t> expected,
                              ArrayRef<int64_t> actual) {
  if (expected.size() != actual.size())
    return false;
  for (auto [e, a] : llvm::zip_equal(expected, actual))
    if (!ShapedType::isDynamic(e) && !ShapedType::isDynamic(a) && e != a)
      return false;
  return true;
}

/// The checks quantize and requantize share on their scaling attributes.
static LogicalResult verifyScaling(Operation *op, ScaledTensorType result,
                                   FloatAttr eps, ScaleMode mode) {
  APFloat e = eps.getValue();
  if (e.isNaN() || e.isInfinity() || e.isNegative())
    return op->emitOpError() << "eps must be finite and >= 0, got " << eps;
  if (isa<Float8E8M0FNUType>(result.getScaleType()) && mode != ScaleMode::pow2)
    return op->emitOpError()
           << "result scale type f8E8M0FNU holds only powers of two; set "
              "scale_mode = #fp8.scale_mode<pow2>";
  return success();
}

//===----------------------------------------------------------------------===//
// QuantizeOp / DequantizeOp / RequantizeOp
//===----------------------------------------------------------------------===//

LogicalResult QuantizeOp::verify() {
  auto inType = getInput().getType();
  ScaledTensorType outType = getResult().getType();
  if (!isCompatibleShape(inType.getShape(), outType.getShape()))
    return emitOpError() << "result shape " << formatShape(outType.getShape())
                         << " differs from input shape "
                         << formatShape(inType.getShape());
  return verifyScaling(*this, outType, getEpsAttr(), getScaleMode());
}

LogicalResult DequantizeOp::verify() {
  ScaledTensorType inType = getInput().getType();
  auto outType = getResult().getType();
  if (!isCompatibleShape(inType.getShape(), outType.getShape()))
    return emitOpError() << "result shape " << formatShape(outType.getShape())
                         << " differs from input shape "
                         << formatShape(inType.getShape());
  return success();
}

LogicalResult RequantizeOp::verify() {
  ScaledTensorType inType = getInput().getType();
  ScaledTensorType outType = getResult().getType();
  int64_t rank = inType.getRank();
  SmallVector<int64_t> expected(inType.getShape());
  if (std::optional<ArrayRef<int64_t>> perm = getPermutation()) {
    if (static_cast<int64_t>(perm->size()) != rank)
      return emitOpError() << "permutation has " << perm->size()
                           << " entries, the input has rank " << rank;
    SmallVector<bool> seen(rank, false);
    for (int64_t p : *perm) {
      if (p < 0 || p >= rank || seen[p])
        return emitOpError() << "permutation " << formatShape(*perm)
                             << " is not a permutation of [0, " << rank << ")";
      seen[p] = true;
    }
    for (int64_t i = 0; i < rank; ++i)
      expected[i] = inType.getShape()[(*perm)[i]];
  }
  if (!isCompatibleShape(expected, outType.getShape()))
    return emitOpError() << "result shape " << formatShape(outType.getShape())
                         << " must be the permuted input shape "
                         << formatShape(expected);
  return verifyScaling(*this, outType, getEpsAttr(), getScaleMode());
}

OpFoldResult RequantizeOp::fold(FoldAdaptor) {
  // Same layout and no data movement: requantizing returns the input's codes
  // and scales (re-deriving the scale from already quantized data is at best
  // a no-op and at worst a second rounding).
  // Not when the op asks for power-of-two scales stored as f32: the input's
  // f32 scales need not be powers of two, and the result's must be.
  std::optional<ArrayRef<int64_t>> perm = getPermutation();
  bool identity =
      !perm || llvm::equal(*perm, llvm::seq<int64_t>(0, perm->size()));
  bool pow2FromF32 = getScaleMode() == ScaleMode::pow2 &&
                     getResult().getType().getScaleType().isF32();
  if (identity && !pow2FromF32 && getInput().getType() == getResult().getType())
    return getInput();
  return {};
}

//===----------------------------------------------------------------------===//
// ScaledMatmulOp
//===----------------------------------------------------------------------===//

/// Checks that `type`'s blocks run along K and fit the promotion interval.
/// `name` is "A" or "B", `rowDim` "M" or "N".
static LogicalResult verifyOperandBlocks(ScaledMatmulOp op,
                                         ScaledTensorType type, StringRef name,
                                         StringRef rowDim, int64_t interval) {
  ArrayRef<int64_t> block = type.getBlockShape();
  int64_t k = type.getShape()[1];
  int64_t kBlock = block[1];
  bool spansWholeK = !ShapedType::isDynamic(k) && kBlock >= k;
  if (kBlock == 1 && block[0] > 1 && !spansWholeK)
    return op.emitOpError()
           << "block " << formatShape(block) << " of " << name << " runs along "
           << rowDim << ", not along the contraction dimension K; quantize "
           << name << " with a block such as [1, 128] (or requantize it)";
  if (!spansWholeK && kBlock % interval != 0)
    return op.emitOpError()
           << "K-block " << kBlock << " of " << name << " (block "
           << formatShape(block) << ") is not a multiple of promote_interval "
           << interval << "; each promotion interval must see one scale per "
           << (name == "A" ? "row" : "column");
  return success();
}

LogicalResult ScaledMatmulOp::verify() {
  ScaledTensorType aType = getA().getType(), bType = getB().getType();
  if (aType.getRank() != 2)
    return emitOpError() << "operand A must be rank 2 [M, K], got shape "
                         << formatShape(aType.getShape());
  if (bType.getRank() != 2)
    return emitOpError() << "operand B must be rank 2 [N, K] (NT layout), got "
                            "shape "
                         << formatShape(bType.getShape());
  int64_t m = aType.getShape()[0], k = aType.getShape()[1];
  int64_t n = bType.getShape()[0], kb = bType.getShape()[1];
  if (!isCompatibleShape({k}, {kb}))
    return emitOpError() << "K of A is " << k << ", K of B is " << kb
                         << " (B is [N, K], NT layout)";
  int64_t interval = getPromoteInterval();
  if (interval <= 0 || interval % 32 != 0)
    return emitOpError() << "promote_interval must be a positive multiple of "
                            "32 (the FP8 wgmma K), got "
                         << interval;
  if (failed(verifyOperandBlocks(*this, aType, "A", "M", interval)) ||
      failed(verifyOperandBlocks(*this, bType, "B", "N", interval)))
    return failure();
  SmallVector<int64_t> mn = {m, n};
  auto resType = getResult().getType();
  if (!isCompatibleShape(mn, resType.getShape()))
    return emitOpError() << "result shape must be [M, N] = " << formatShape(mn)
                         << ", got " << formatShape(resType.getShape());
  if (Value c = getC()) {
    auto cType = cast<RankedTensorType>(c.getType());
    if (!isCompatibleShape(mn, cType.getShape()))
      return emitOpError() << "accumulator C must be [M, N] = "
                           << formatShape(mn) << ", got "
                           << formatShape(cType.getShape());
  }
  return success();
}

int64_t ScaledMatmulOp::getFlops() {
  ArrayRef<int64_t> a = getA().getType().getShape();
  int64_t n = getB().getType().getShape()[0];
  if (ShapedType::isDynamic(a[0]) || ShapedType::isDynamic(a[1]) ||
      ShapedType::isDynamic(n))
    return 0;
  return 2 * a[0] * n * a[1];
}

//===----------------------------------------------------------------------===//
// AssembleOp / DisassembleOp
//===----------------------------------------------------------------------===//

LogicalResult AssembleOp::verify() {
  ScaledTensorType type = getResult().getType();
  if (getData().getType() != type.getDataTensorType())
    return emitOpError() << "data type " << getData().getType()
                         << " differs from " << type.getDataTensorType()
                         << " implied by the result type";
  if (getScales().getType() != type.getScaleTensorType())
    return emitOpError() << "scales type " << getScales().getType()
                         << " differs from " << type.getScaleTensorType()
                         << " implied by the result type (ceil(shape / "
                            "block) of the scale type)";
  return success();
}

OpFoldResult AssembleOp::fold(FoldAdaptor) {
  // assemble(disassemble(x)) -> x.
  auto dis = getData().getDefiningOp<DisassembleOp>();
  if (dis && getScales().getDefiningOp() == dis &&
      dis.getInput().getType() == getResult().getType())
    return dis.getInput();
  return {};
}

LogicalResult DisassembleOp::inferReturnTypes(MLIRContext *,
                                              std::optional<Location> loc,
                                              ValueRange operands,
                                              DictionaryAttr, OpaqueProperties,
                                              RegionRange,
                                              SmallVectorImpl<Type> &inferred) {
  auto type = dyn_cast<ScaledTensorType>(operands[0].getType());
  if (!type)
    return emitOptionalError(loc, "operand must be an !fp8.scaled tensor");
  inferred.push_back(type.getDataTensorType());
  inferred.push_back(type.getScaleTensorType());
  return success();
}

LogicalResult DisassembleOp::fold(FoldAdaptor,
                                  SmallVectorImpl<OpFoldResult> &results) {
  // disassemble(assemble(d, s)) -> d, s.
  auto as = getInput().getDefiningOp<AssembleOp>();
  if (!as)
    return failure();
  results.push_back(as.getData());
  results.push_back(as.getScales());
  return success();
}
