//===- FP8Ops.cpp - fp8 op verifiers and folders --------------------------===//
#include "fp8/Dialect/FP8/IR/FP8.h"
#include "fp8/Dialect/FP8/IR/ShapeString.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::fp8;

#define GET_OP_CLASSES
#include "fp8/Dialect/FP8/IR/FP8Ops.cpp.inc"

/// Prints a shape as `[32, ?, 4096]` for diagnostics.
static std::string formatShape(ArrayRef<int64_t> shape) {
  return "[" + shapeString(shape, ", ") + "]";
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

/// Re-checks the !fp8.scaled types of `op`'s operands and results. The
/// parser builds them with getChecked, but a pass builds them with get(),
/// which does not verify: an invalid one (a block of 0 from a policy's
/// whole-dimension block on an empty dimension) reached the lowering, which
/// divided by it. Here it is a verifier error naming the operand.
static LogicalResult verifyScaledTypes(Operation *op) {
  auto check = [&](Type t, StringRef kind, unsigned i) {
    auto scaled = dyn_cast<ScaledTensorType>(t);
    if (!scaled)
      return success();
    return ScaledTensorType::verify(
        [&] {
          return op->emitOpError() << kind << " #" << i << " has an invalid "
                                   << "type " << t << ": ";
        },
        scaled.getShape(), scaled.getElementType(), scaled.getBlockShape(),
        scaled.getScaleType());
  };
  for (auto [i, t] : llvm::enumerate(op->getOperandTypes()))
    if (failed(check(t, "operand", i)))
      return failure();
  for (auto [i, t] : llvm::enumerate(op->getResultTypes()))
    if (failed(check(t, "result", i)))
      return failure();
  return success();
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
// Empty problems
//===----------------------------------------------------------------------===//

bool mlir::fp8::hasEmptyResult(Operation *op) {
  return llvm::any_of(op->getResultTypes(), [](Type t) {
    ArrayRef<int64_t> shape;
    if (auto scaled = dyn_cast<ScaledTensorType>(t))
      shape = scaled.getShape();
    else if (auto ranked = dyn_cast<RankedTensorType>(t))
      shape = ranked.getShape();
    return llvm::is_contained(shape, 0);
  });
}

bool mlir::fp8::hasEmptyContraction(Operation *op) {
  ScaledTensorType a;
  if (auto mm = dyn_cast<ScaledMatmulOp>(op))
    a = mm.getA().getType();
  else if (auto grouped = dyn_cast<GroupedScaledMatmulOp>(op))
    a = grouped.getA().getType();
  return a && a.getShape().back() == 0;
}

//===----------------------------------------------------------------------===//
// QuantizeOp / DequantizeOp / RequantizeOp
//===----------------------------------------------------------------------===//

LogicalResult QuantizeOp::verify() {
  if (failed(verifyScaledTypes(*this)))
    return failure();
  auto inType = getInput().getType();
  ScaledTensorType outType = getResult().getType();
  if (!isCompatibleShape(inType.getShape(), outType.getShape()))
    return emitOpError() << "result shape " << formatShape(outType.getShape())
                         << " differs from input shape "
                         << formatShape(inType.getShape());
  return verifyScaling(*this, outType, getEpsAttr(), getScaleMode());
}

LogicalResult DequantizeOp::verify() {
  if (failed(verifyScaledTypes(*this)))
    return failure();
  ScaledTensorType inType = getInput().getType();
  auto outType = getResult().getType();
  if (!isCompatibleShape(inType.getShape(), outType.getShape()))
    return emitOpError() << "result shape " << formatShape(outType.getShape())
                         << " differs from input shape "
                         << formatShape(inType.getShape());
  return success();
}

LogicalResult RequantizeOp::verify() {
  if (failed(verifyScaledTypes(*this)))
    return failure();
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

/// Checks that `type`'s blocks run along K (its last dimension) and fit the
/// promotion interval. `name` is "A" or "B", `rowDim` "M" or "N"; the
/// dimension before K is the row dimension.
static LogicalResult verifyOperandBlocks(Operation *op, ScaledTensorType type,
                                         StringRef name, StringRef rowDim,
                                         int64_t interval) {
  ArrayRef<int64_t> block = type.getBlockShape();
  int64_t rank = type.getRank();
  int64_t k = type.getShape()[rank - 1];
  int64_t kBlock = block[rank - 1];
  int64_t rowBlock = block[rank - 2];
  bool spansWholeK = !ShapedType::isDynamic(k) && kBlock >= k;
  if (kBlock == 1 && rowBlock > 1 && !spansWholeK)
    return op->emitOpError()
           << "block " << formatShape(block) << " of " << name << " runs along "
           << rowDim << ", not along the contraction dimension K; quantize "
           << name << " with a block such as [1, 128] (or requantize it)";
  if (!spansWholeK && kBlock % interval != 0)
    return op->emitOpError()
           << "K-block " << kBlock << " of " << name << " (block "
           << formatShape(block) << ") is not a multiple of promote_interval "
           << interval << "; each promotion interval must see one scale per "
           << (name == "A" ? "row" : "column");
  return success();
}

/// The promotion interval is a whole number of FP8 wgmma K steps.
static LogicalResult verifyPromoteInterval(Operation *op, int64_t interval) {
  if (interval <= 0 || interval % 32 != 0)
    return op->emitOpError() << "promote_interval must be a positive multiple "
                                "of 32 (the FP8 wgmma K), got "
                             << interval;
  return success();
}

/// Split-K: every one of the S ranges holds at least one promotion interval
/// of a K known at compile time (the partition is fixed by the IR).
static LogicalResult verifyKSplits(ScaledMatmulOp op, int64_t k,
                                   int64_t interval) {
  int64_t splits = op.getKSplits();
  if (splits < 1)
    return op.emitOpError() << "k_splits must be at least 1, got " << splits;
  if (splits == 1)
    return success();
  if (ShapedType::isDynamic(k))
    return op.emitOpError() << "k_splits = " << splits
                            << " needs a static K (the splits' K ranges are "
                               "fixed at compile time)";
  int64_t kBlocks = llvm::divideCeil(k, interval);
  if (splits > kBlocks)
    return op.emitOpError() << "k_splits = " << splits << " exceeds the "
                            << kBlocks << " promotion intervals of K = " << k
                            << " (promote_interval = " << interval
                            << "): every split needs at least one";
  return success();
}

LogicalResult ScaledMatmulOp::verify() {
  if (failed(verifyScaledTypes(*this)))
    return failure();
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
  if (failed(verifyPromoteInterval(*this, interval)) ||
      failed(verifyOperandBlocks(*this, aType, "A", "M", interval)) ||
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
  return verifyKSplits(*this, ShapedType::isDynamic(k) ? kb : k, interval);
}

//===----------------------------------------------------------------------===//
// GroupedScaledMatmulOp
//===----------------------------------------------------------------------===//

/// Checks that a tensor operand (counts, group_ids, c) has `expected` shape.
static LogicalResult verifyOperandShape(Operation *op, Value v, StringRef what,
                                        StringRef dims,
                                        ArrayRef<int64_t> expected) {
  ArrayRef<int64_t> shape = cast<RankedTensorType>(v.getType()).getShape();
  if (isCompatibleShape(expected, shape))
    return success();
  return op->emitOpError() << what << " must be " << dims << " = "
                           << formatShape(expected) << ", got "
                           << formatShape(shape);
}

/// The k_grouped layout (the MoE Wgrad): a [M, T] and b [N, T] in [1, 128]
/// blocks, group_ids [T], the result (and c) [G, M, N] with a static G.
static LogicalResult verifyKGrouped(GroupedScaledMatmulOp op) {
  if (op.getCounts())
    return op.emitOpError() << "counts belongs to the masked layout; the "
                               "k_grouped layout takes per-token group_ids";
  for (auto [v, name, dims] : {std::tuple(op.getA(), "A", "[M, T]"),
                               std::tuple(op.getB(), "B", "[N, T]")}) {
    ScaledTensorType t = v.getType();
    if (t.getRank() != 2)
      return op.emitOpError() << "operand " << name << " must be rank 2 "
                              << dims << " in the k_grouped layout, got shape "
                              << formatShape(t.getShape());
    if (t.getBlockShape() != ArrayRef<int64_t>{1, 128})
      return op.emitOpError()
             << "block " << formatShape(t.getBlockShape()) << " of " << name
             << " must be [1, 128] in the k_grouped layout (each 128-token K "
                "block belongs to one group)";
  }
  ArrayRef<int64_t> a = op.getA().getType().getShape();
  ArrayRef<int64_t> b = op.getB().getType().getShape();
  if (!isCompatibleShape({a[1]}, {b[1]}))
    return op.emitOpError() << "T of A is " << a[1] << ", T of B is " << b[1]
                            << " (A is [M, T], B is [N, T])";
  int64_t interval = op.getPromoteInterval();
  if (failed(verifyPromoteInterval(op, interval)) ||
      failed(
          verifyOperandBlocks(op, op.getA().getType(), "A", "M", interval)) ||
      failed(verifyOperandBlocks(op, op.getB().getType(), "B", "N", interval)))
    return failure();
  Value ids = op.getGroupIds();
  if (!ids)
    return op.emitOpError() << "the k_grouped layout needs group_ids "
                               "(tensor<Txi32>, the group of every token)";
  if (failed(verifyOperandShape(op, ids, "group_ids", "[T]", {a[1]})))
    return failure();
  int64_t align = op.getMAlignment();
  if (align <= 0 || align % 128 != 0)
    return op.emitOpError() << "m_alignment must be a positive multiple of "
                               "128 (the K block) in the k_grouped layout, "
                               "got "
                            << align;
  ArrayRef<int64_t> res = op.getResult().getType().getShape();
  if (res.size() != 3 || ShapedType::isDynamic(res[0]))
    return op.emitOpError() << "result must be [G, M, N] with a static G in "
                               "the k_grouped layout, got "
                            << formatShape(res);
  SmallVector<int64_t> out = {res[0], a[0], b[0]};
  if (failed(
          verifyOperandShape(op, op.getResult(), "result", "[G, M, N]", out)))
    return failure();
  if (Value c = op.getC())
    return verifyOperandShape(op, c, "accumulator C", "[G, M, N]", out);
  return success();
}

LogicalResult GroupedScaledMatmulOp::verify() {
  if (failed(verifyScaledTypes(*this)))
    return failure();
  if (isKGrouped())
    return verifyKGrouped(*this);
  bool masked = getLayout() == GroupLayout::masked;
  StringRef layout = masked ? "masked" : "contiguous";
  ScaledTensorType aType = getA().getType(), bType = getB().getType();
  // Ranks first: every later check indexes the shapes.
  int64_t aRank = masked ? 3 : 2;
  if (aType.getRank() != aRank)
    return emitOpError() << "operand A must be rank " << aRank
                         << (masked ? " [G, M, K]" : " [M, K]") << " in the "
                         << layout << " layout, got shape "
                         << formatShape(aType.getShape());
  if (bType.getRank() != 3)
    return emitOpError() << "operand B must be rank 3 [G, N, K] (NT layout "
                            "per group), got shape "
                         << formatShape(bType.getShape());
  ArrayRef<int64_t> aShape = aType.getShape(), bShape = bType.getShape();
  int64_t g = bShape[0], n = bShape[1], k = aShape.back();
  int64_t m = aShape[aRank - 2];
  if (masked && !isCompatibleShape({g}, {aShape[0]}))
    return emitOpError() << "G of A is " << aShape[0] << ", G of B is " << g;
  if (!isCompatibleShape({k}, {bShape[2]}))
    return emitOpError() << "K of A is " << k << ", K of B is " << bShape[2]
                         << " (B is [G, N, K], NT layout)";

  // One scale block never spans two groups: each expert's weight (and, in
  // the masked layout, each group's activation slab) has its own scales.
  if (bType.getBlockShape()[0] != 1)
    return emitOpError() << "block " << formatShape(bType.getBlockShape())
                         << " of B spans " << bType.getBlockShape()[0]
                         << " groups; its size along G must be 1";
  if (masked && aType.getBlockShape()[0] != 1)
    return emitOpError() << "block " << formatShape(aType.getBlockShape())
                         << " of A spans " << aType.getBlockShape()[0]
                         << " groups; its size along G must be 1";
  int64_t interval = getPromoteInterval();
  if (failed(verifyPromoteInterval(*this, interval)) ||
      failed(verifyOperandBlocks(*this, aType, "A", "M", interval)) ||
      failed(verifyOperandBlocks(*this, bType, "B", "N", interval)))
    return failure();

  // The row-assignment operands of each layout.
  if (masked) {
    if (getGroupIds())
      return emitOpError() << "group_ids belongs to the contiguous layout; "
                              "the masked layout takes per-group counts";
    if (getMAlignment() != 128)
      return emitOpError() << "m_alignment applies to the contiguous layout "
                              "only, got "
                           << getMAlignment() << " on the masked layout";
    if (Value counts = getCounts())
      if (failed(verifyOperandShape(*this, counts, "counts", "[G]", {g})))
        return failure();
  } else {
    if (getCounts())
      return emitOpError() << "counts belongs to the masked layout; the "
                              "contiguous layout takes per-row group_ids";
    Value ids = getGroupIds();
    if (!ids)
      return emitOpError() << "the contiguous layout needs group_ids "
                              "(tensor<Mxi32>, the group of every row of A)";
    if (failed(verifyOperandShape(*this, ids, "group_ids", "[M]", {m})))
      return failure();
    int64_t align = getMAlignment();
    if (align <= 0)
      return emitOpError() << "m_alignment must be positive, got " << align;
    int64_t aRowBlock = aType.getBlockShape()[0];
    if (align % aRowBlock != 0)
      return emitOpError() << "M-block " << aRowBlock << " of A (block "
                           << formatShape(aType.getBlockShape())
                           << ") does not divide m_alignment " << align
                           << "; a group would start inside a scale block";
  }

  SmallVector<int64_t> out =
      masked ? SmallVector<int64_t>{g, m, n} : SmallVector<int64_t>{m, n};
  StringRef outDims = masked ? "[G, M, N]" : "[M, N]";
  if (failed(verifyOperandShape(*this, getResult(), "result", outDims, out)))
    return failure();
  if (Value c = getC())
    if (failed(verifyOperandShape(*this, c, "accumulator C", outDims, out)))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// AssembleOp / DisassembleOp
//===----------------------------------------------------------------------===//

LogicalResult AssembleOp::verify() {
  if (failed(verifyScaledTypes(*this)))
    return failure();
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
