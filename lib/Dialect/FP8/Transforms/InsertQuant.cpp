//===- InsertQuant.cpp - fp8-insert-quant ---------------------------------===//
//
// Materialises fp8-assign-precision's decisions: FP8 linears become
// fp8.quantize + fp8.scaled_matmul with blocks along each operand's
// contraction dimension; sensitive contractions kept in bf16 get their f32
// operands cast to bf16.
//
//===----------------------------------------------------------------------===//
#include "fp8/Dialect/FP8/Analysis/RoleAnalysis.h"

#include "fp8/Dialect/FP8/IR/FP8.h"
#include "fp8/Dialect/FP8/Transforms/Passes.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::fp8 {
#define GEN_PASS_DEF_FP8INSERTQUANTPASS
#include "fp8/Dialect/FP8/Transforms/Passes.h.inc"
} // namespace mlir::fp8

using namespace mlir;
using namespace mlir::fp8;

namespace {

/// Copies the fp8.* discardable attributes from `from` to `to`.
void copyFP8Attrs(Operation *from, Operation *to) {
  for (StringRef name :
       {FP8Dialect::kRoleAttrName.data(), FP8Dialect::kPrecisionAttrName.data(),
        FP8Dialect::kReasonAttrName.data()})
    if (Attribute a = from->getAttr(name))
      to->setAttr(name, a);
}

SmallVector<NamedAttribute> fp8Attrs(Operation *op) {
  SmallVector<NamedAttribute> out;
  for (NamedAttribute a : op->getDiscardableAttrs())
    if (a.getName().getValue().starts_with("fp8."))
      out.push_back(a);
  return out;
}

/// A policy block size for a dimension of `dim` elements: `?` (whole
/// dimension) becomes the size itself.
int64_t resolveBlock(int64_t block, int64_t dim) {
  return ShapedType::isDynamic(block) ? dim : block;
}

/// True when `v` is a zero-filled init (linalg.fill of 0, or a zero splat
/// constant): the matmul needs no accumulator operand.
bool isZeroInit(Value v) {
  if (auto fill = v.getDefiningOp<linalg::FillOp>())
    return matchPattern(fill.getInputs()[0], m_AnyZeroFloat()) ||
           matchPattern(fill.getInputs()[0], m_Zero());
  return matchPattern(v, m_AnyZeroFloat());
}

class Rewriter {
public:
  Rewriter(PolicyAttr policy, bool strict) : policy(policy), strict(strict) {}

  /// Rewrites one contraction marked fp8. Returns failure only in strict
  /// mode, after an error.
  LogicalResult rewriteLinear(IRRewriter &rw, Contraction &c);
  /// Casts the f32 operands of a contraction kept in bf16.
  LogicalResult castHigh(IRRewriter &rw, Contraction &c);
  /// A grouped linear (one batch dim G, per-group weights: MoE routed
  /// experts [E, K, N]): one quantize pair + fp8.scaled_matmul per group.
  LogicalResult rewriteGrouped(IRRewriter &rw, Contraction &c);

private:
  /// Leaves an FP8 linear unrewritten: a remark (an error with `strict`),
  /// and its attributes say what the IR now holds, so fp8-report never
  /// counts it as FP8.
  LogicalResult skip(Operation *op, const Twine &why) {
    std::string reason = why.str();
    InFlightDiagnostic d =
        strict ? op->emitError() : ::mlir::emitRemark(op->getLoc());
    d << "fp8-insert-quant: linear left in high precision: " << reason;
    Type elt = getElementTypeOrSelf(op->getResult(0).getType());
    Precision kept = getHighPrecisionOf(elt);
    op->setAttr(FP8Dialect::kPrecisionAttrName,
                PrecisionAttr::get(op->getContext(), kept));
    std::string full = "fp8 not applied: " + reason;
    if (auto prev = op->getAttrOfType<StringAttr>(FP8Dialect::kReasonAttrName))
      full = prev.getValue().str() + "; " + full;
    op->setAttr(FP8Dialect::kReasonAttrName,
                StringAttr::get(op->getContext(), full));
    return failure(strict);
  }
  /// [d0, ..., dn-1, K] -> [d0 * ... * dn-1, K] (a no-op on rank 2).
  Value collapseToMatrix(IRRewriter &rw, Location loc, Value v);
  /// The 2-D weight of a contraction: drops unit batch dims or looks through
  /// a broadcast over the batch.
  Value get2DOperand(IRRewriter &rw, Location loc, Value v, unsigned numBatch);
  Value quantize(IRRewriter &rw, Location loc, Value v,
                 ArrayRef<int64_t> block);
  /// D = [acc +] A . B^T for 2-D A [M, K] and NT weight [N, K] (high
  /// precision), in element type `et` (f16 computed in f32).
  Value scaledMatmul(IRRewriter &rw, Operation *op, Value a2, Value bNK,
                     Value acc, Type et);
  /// fp8.scaled_matmul of quantized operands into [M, N] of `et`, with an
  /// optional high-precision accumulator [M, N] (f16 computed in f32).
  Value scaledMatmulQuantized(IRRewriter &rw, Operation *op, Value qa, Value qb,
                              Value acc, Type et, int64_t m, int64_t n);

  PolicyAttr policy;
  bool strict;
};

Value Rewriter::collapseToMatrix(IRRewriter &rw, Location loc, Value v) {
  auto t = cast<RankedTensorType>(v.getType());
  if (t.getRank() == 2)
    return v;
  ReassociationIndices lead, last{t.getRank() - 1};
  for (int64_t i = 0; i + 1 < t.getRank(); ++i)
    lead.push_back(i);
  return tensor::CollapseShapeOp::create(
      rw, loc, v, SmallVector<ReassociationIndices>{lead, last});
}

/// The 2-D source of a broadcast over the leading `numBatch` dims (a
/// linalg.broadcast, or a copy generic whose input indexes exactly the
/// trailing two loops in order), or null.
static Value lookThroughBatchBroadcast(Value v, unsigned numBatch) {
  auto t = cast<RankedTensorType>(v.getType());
  Operation *def = v.getDefiningOp();
  if (auto b = dyn_cast_or_null<linalg::BroadcastOp>(def))
    if (cast<RankedTensorType>(b.getInput().getType()).getRank() == 2 &&
        llvm::equal(b.getDimensions(), llvm::seq<int64_t>(0, numBatch)))
      return b.getInput();
  auto g = dyn_cast_or_null<linalg::GenericOp>(def);
  if (!g || !isDataMovement(g) || !g.getIndexingMapsArray()[1].isIdentity())
    return {};
  Value src = g.getDpsInputOperand(0)->get();
  AffineMap in = g.getIndexingMapsArray()[0];
  if (cast<RankedTensorType>(src.getType()).getRank() != 2 ||
      in.getNumResults() != 2 || t.getRank() != numBatch + 2)
    return {};
  for (unsigned i = 0; i < 2; ++i) {
    auto d = dyn_cast<AffineDimExpr>(in.getResult(i));
    if (!d || d.getPosition() != numBatch + i)
      return {};
  }
  return src;
}

/// The [G, N, K] source when `v` [G, K, N] is a transpose of it over the two
/// trailing dims (linalg.transpose or a copy generic, as torch-mlir emits
/// `weight.transpose(1, 2)`), or null.
static Value lookThroughGroupTranspose(Value v) {
  Operation *def = v.getDefiningOp();
  if (auto t = dyn_cast_or_null<linalg::TransposeOp>(def))
    return llvm::equal(t.getPermutation(), ArrayRef<int64_t>{0, 2, 1})
               ? t.getInput()
               : Value();
  auto g = dyn_cast_or_null<linalg::GenericOp>(def);
  if (!g || !isDataMovement(g) || g.getNumLoops() != 3 ||
      !g.getIndexingMapsArray()[1].isIdentity())
    return {};
  MLIRContext *ctx = v.getContext();
  AffineMap swapped =
      AffineMap::getPermutationMap(ArrayRef<unsigned>{0, 2, 1}, ctx);
  return g.getIndexingMapsArray()[0] == swapped ? g.getDpsInputOperand(0)->get()
                                                : Value();
}

/// Offsets, sizes and strides of group `g` of a [G, X, Y] tensor.
static std::array<SmallVector<OpFoldResult>, 3>
groupSlice(OpBuilder &b, ArrayRef<int64_t> shape, int64_t g) {
  return {SmallVector<OpFoldResult>{b.getIndexAttr(g), b.getIndexAttr(0),
                                    b.getIndexAttr(0)},
          SmallVector<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(shape[1]),
                                    b.getIndexAttr(shape[2])},
          SmallVector<OpFoldResult>(3, b.getIndexAttr(1))};
}

/// Group `g` of a [G, X, Y] tensor as [X, Y] (rank-reducing slice).
static Value sliceGroup(OpBuilder &b, Location loc, Value v, int64_t g) {
  auto t = cast<RankedTensorType>(v.getType());
  auto type =
      RankedTensorType::get(t.getShape().drop_front(), t.getElementType());
  auto [offsets, sizes, strides] = groupSlice(b, t.getShape(), g);
  return tensor::ExtractSliceOp::create(b, loc, type, v, offsets, sizes,
                                        strides);
}

/// True for a copy generic that transposes a 2-D tensor.
static bool isTransposeCopy(Operation *op) {
  auto g = dyn_cast_or_null<linalg::GenericOp>(op);
  if (!g || !isDataMovement(g) || g.getNumLoops() != 2)
    return false;
  AffineMap in = g.getIndexingMapsArray()[0];
  AffineMap out = g.getIndexingMapsArray()[1];
  return in.isPermutation() && out.isPermutation() && in != out;
}

Value Rewriter::get2DOperand(IRRewriter &rw, Location loc, Value v,
                             unsigned numBatch) {
  if (numBatch == 0)
    return v;
  if (Value src = lookThroughBatchBroadcast(v, numBatch))
    return src;
  ArrayRef<int64_t> shape = cast<RankedTensorType>(v.getType()).getShape();
  if (!llvm::all_of(shape.take_front(numBatch),
                    [](int64_t d) { return d == 1; }))
    return {}; // batch > 1 and not one broadcast weight
  SmallVector<ReassociationIndices> re(1);
  for (unsigned i = 0; i <= numBatch; ++i)
    re[0].push_back(i);
  re.push_back({static_cast<int64_t>(numBatch) + 1});
  return tensor::CollapseShapeOp::create(rw, loc, v, re);
}

Value Rewriter::quantize(IRRewriter &rw, Location loc, Value v,
                         ArrayRef<int64_t> block) {
  auto t = cast<RankedTensorType>(v.getType());
  SmallVector<int64_t> b;
  for (auto [blk, dim] : llvm::zip_equal(block, t.getShape()))
    b.push_back(resolveBlock(blk, dim));
  auto type =
      ScaledTensorType::get(rw.getContext(), t.getShape(), policy.getFormat(),
                            b, policy.getScaleType());
  return QuantizeOp::create(rw, loc, type, v, policy.getEps(),
                            policy.getScaleMode(), /*saturate=*/true);
}

LogicalResult Rewriter::rewriteLinear(IRRewriter &rw, Contraction &c) {
  Operation *op = c.op;
  Location loc = op->getLoc();
  if (!c.supported)
    return skip(op, c.unsupportedReason);
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  Value a = c.op.getDpsInputOperand(0)->get();
  Value b = c.op.getDpsInputOperand(1)->get();
  Value init = c.op.getDpsInitOperand(0)->get();
  auto aType = cast<RankedTensorType>(a.getType());
  auto bType = cast<RankedTensorType>(b.getType());
  // The token dimensions (M: the activation's leading dimensions, batch
  // and sequence collapsed into it) may be dynamic: the weight's N and K
  // are compile-time constants and M is a run-time value, as in DeepGEMM.
  if (ShapedType::isDynamic(c.n) || ShapedType::isDynamic(c.k) ||
      !bType.hasStaticShape())
    return skip(op, "dynamic N or K (the weight's shape must be static; only "
                    "the token dimensions may be dynamic)");
  if (ShapedType::isDynamic(c.m) &&
      (!c.aKLast || c.numBatch > 0 ||
       llvm::any_of(policy.getActivationBlock(), ShapedType::isDynamic)))
    return skip(op, "a dynamic token dimension needs the activation stored "
                    "[M..., K], no batch loops and a policy with a static "
                    "activation block");
  for (Type t : {aType.getElementType(), bType.getElementType(),
                 resultType.getElementType()})
    if (!isa<Float32Type, BFloat16Type, Float16Type>(t))
      return skip(op, "operands and result must be f32, bf16 or f16");

  // Everything that can fail is checked before the first op is created, so
  // a skipped linear leaves the IR unchanged.
  if (c.numBatch > 0 && !lookThroughBatchBroadcast(b, c.numBatch) &&
      !llvm::all_of(bType.getShape().take_front(c.numBatch),
                    [](int64_t d) { return d == 1; })) {
    if (c.numBatch == 1 && c.aKLast && aType.getRank() == 3 &&
        bType.getRank() == 3)
      return rewriteGrouped(rw, c);
    return skip(op, "the right operand varies over more than one batch "
                    "dim (not one broadcast weight, nor per-group weights "
                    "[G, K, N])");
  }

  rw.setInsertionPoint(op);
  ArrayRef<int64_t> actBlock = policy.getActivationBlock();
  ArrayRef<int64_t> wBlock = policy.getWeightBlock();
  int64_t m = c.m, n = c.n, k = c.k;
  // A 128x1 tile of a [K, X] operand: the activation block transposed.
  SmallVector<int64_t> tokenBlock{actBlock[1], actBlock[0]};

  // Activation -> [M, K], 1x128 along K.
  Value qa;
  if (c.aKLast) {
    qa = quantize(rw, loc, collapseToMatrix(rw, loc, a), actBlock);
  } else {
    // Stored [K, M] (a contraction over tokens): 128x1 tiles of the stored
    // layout, then requantize transposed so the matmul stays NT
    // (DeepSeek-V3 §3.5.2).
    Value q = quantize(rw, loc, a, tokenBlock);
    auto to = ScaledTensorType::get(
        rw.getContext(), {m, k}, policy.getFormat(),
        {resolveBlock(actBlock[0], m), resolveBlock(actBlock[1], k)},
        policy.getScaleType());
    qa = RequantizeOp::create(
        rw, loc, to, q, rw.getDenseI64ArrayAttr({1, 0}),
        rw.getF32FloatAttr(policy.getEpsValue()),
        ScaleModeAttr::get(rw.getContext(), policy.getScaleMode()),
        rw.getBoolAttr(true));
  }

  // Weight -> NT [N, K].
  Value b2 = get2DOperand(rw, loc, b, c.numBatch);
  if (!b2)
    return skip(op, "the right operand varies over the batch (not one "
                    "broadcast weight)");
  bool isWeight = getWeightSource(b) != WeightSource::none;
  Value qb;
  if (c.bNK) {
    qb = quantize(rw, loc, b2, isWeight ? wBlock : actBlock);
  } else if (isWeight) {
    // Stored [K, N]: FP8 wgmma has no transpose, so the weight is made
    // K-major before quantization (docs/regression-cases.md case 16). When the
    // [K, N] value is itself a transpose of an [N, K] tensor, use that.
    Value nk;
    Operation *def = b2.getDefiningOp();
    if (auto t = dyn_cast_or_null<linalg::TransposeOp>(def)) {
      if (llvm::equal(t.getPermutation(), ArrayRef<int64_t>{1, 0}))
        nk = t.getInput();
    } else if (isTransposeCopy(def)) {
      nk = cast<linalg::GenericOp>(def).getDpsInputOperand(0)->get();
    }
    if (!nk) {
      Value empty = tensor::EmptyOp::create(rw, loc, ArrayRef<int64_t>{n, k},
                                            bType.getElementType());
      nk = linalg::TransposeOp::create(rw, loc, b2, empty,
                                       ArrayRef<int64_t>{1, 0})
               ->getResult(0);
    }
    qb = quantize(rw, loc, nk, wBlock);
  } else {
    // An activation stored [K, N] (a weight gradient's dY): 128x1 tiles,
    // then requantize transposed to [N, K] with 1x128 tiles.
    Value q = quantize(rw, loc, b2, tokenBlock);
    auto to = ScaledTensorType::get(
        rw.getContext(), {n, k}, policy.getFormat(),
        {resolveBlock(actBlock[0], n), resolveBlock(actBlock[1], k)},
        policy.getScaleType());
    qb = RequantizeOp::create(
        rw, loc, to, q, rw.getDenseI64ArrayAttr({1, 0}),
        rw.getF32FloatAttr(policy.getEpsValue()),
        ScaleModeAttr::get(rw.getContext(), policy.getScaleMode()),
        rw.getBoolAttr(true));
  }

  // D = [init +] A . B^T, in the original result type (f16 via f32).
  Type et = resultType.getElementType();
  Value result = scaledMatmulQuantized(
      rw, op, qa, qb,
      isZeroInit(init) ? Value() : collapseToMatrix(rw, loc, init), et, m, n);
  if (resultType.getRank() != 2) {
    ReassociationIndices lead, last{resultType.getRank() - 1};
    for (int64_t i = 0; i + 1 < resultType.getRank(); ++i)
      lead.push_back(i);
    // The sizes of the original result (the init's), dynamic ones included.
    result = tensor::ExpandShapeOp::create(
        rw, loc, resultType, result,
        SmallVector<ReassociationIndices>{lead, last},
        tensor::getMixedSizes(rw, loc, init));
  }
  rw.replaceOp(op, result);
  return success();
}

Value Rewriter::scaledMatmulQuantized(IRRewriter &rw, Operation *op, Value qa,
                                      Value qb, Value acc, Type et, int64_t m,
                                      int64_t n) {
  Location loc = op->getLoc();
  Type outEt = isa<Float16Type>(et) ? Type(rw.getF32Type()) : et;
  if (acc && isa<Float16Type>(et))
    acc = arith::ExtFOp::create(rw, loc, RankedTensorType::get({m, n}, outEt),
                                acc);
  auto mm =
      ScaledMatmulOp::create(rw, loc, RankedTensorType::get({m, n}, outEt), qa,
                             qb, acc, policy.getPromoteInterval());
  copyFP8Attrs(op, mm);
  Value result = mm.getResult();
  if (outEt != et)
    result = arith::TruncFOp::create(rw, loc, RankedTensorType::get({m, n}, et),
                                     result);
  return result;
}

Value Rewriter::scaledMatmul(IRRewriter &rw, Operation *op, Value a2, Value bNK,
                             Value acc, Type et) {
  Location loc = op->getLoc();
  auto aT = cast<RankedTensorType>(a2.getType());
  auto bT = cast<RankedTensorType>(bNK.getType());
  Value qa = quantize(rw, loc, a2, policy.getActivationBlock());
  Value qb = quantize(rw, loc, bNK, policy.getWeightBlock());
  return scaledMatmulQuantized(rw, op, qa, qb, acc, et, aT.getDimSize(0),
                               bT.getDimSize(0));
}

LogicalResult Rewriter::rewriteGrouped(IRRewriter &rw, Contraction &c) {
  Operation *op = c.op;
  Location loc = op->getLoc();
  Value a = c.op.getDpsInputOperand(0)->get();
  Value b = c.op.getDpsInputOperand(1)->get();
  Value init = c.op.getDpsInitOperand(0)->get();
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  int64_t groups = resultType.getDimSize(0);
  // NT weights per group: [G, N, K] as stored, or the source of a transpose
  // of it, or (last resort) each group's [K, N] slice transposed.
  Value bNK = c.bNK ? b : lookThroughGroupTranspose(b);
  rw.setInsertionPoint(op);
  // The groups' results are joined by one tensor.concat (a chain of G
  // insert_slice ops costs one-shot bufferization time quadratic in G).
  SmallVector<Value> parts;
  bool zeroInit = isZeroInit(init);
  for (int64_t g = 0; g < groups; ++g) {
    Value ag = sliceGroup(rw, loc, a, g), bg;
    if (bNK) {
      bg = sliceGroup(rw, loc, bNK, g);
    } else {
      Value kn = sliceGroup(rw, loc, b, g);
      Value empty = tensor::EmptyOp::create(
          rw, loc, ArrayRef<int64_t>{c.n, c.k},
          cast<RankedTensorType>(b.getType()).getElementType());
      bg = linalg::TransposeOp::create(rw, loc, kn, empty,
                                       ArrayRef<int64_t>{1, 0})
               ->getResult(0);
    }
    Value acc = zeroInit ? Value() : sliceGroup(rw, loc, init, g);
    Value dg = scaledMatmul(rw, op, ag, bg, acc, resultType.getElementType());
    auto partType = RankedTensorType::get(
        {1, resultType.getDimSize(1), resultType.getDimSize(2)},
        resultType.getElementType());
    parts.push_back(tensor::ExpandShapeOp::create(
        rw, loc, partType, dg, SmallVector<ReassociationIndices>{{0, 1}, {2}}));
  }
  rw.replaceOp(op, tensor::ConcatOp::create(rw, loc, /*dim=*/0, parts));
  return success();
}

LogicalResult Rewriter::castHigh(IRRewriter &rw, Contraction &c) {
  Operation *op = c.op;
  auto precision =
      op->getAttrOfType<PrecisionAttr>(FP8Dialect::kPrecisionAttrName);
  if (!precision || precision.getValue() != Precision::bf16)
    return success();
  Value a = c.op.getDpsInputOperand(0)->get();
  Value b = c.op.getDpsInputOperand(1)->get();
  auto isF32 = [](Value v) {
    return cast<ShapedType>(v.getType()).getElementType().isF32();
  };
  if (!isF32(a) && !isF32(b))
    return success();
  // Only the named ops rebuild their bodies for new operand types; a
  // generic keeps f32 (still high precision).
  bool named = false;
  if (auto mm = dyn_cast<linalg::MatmulOp>(op))
    named = !mm.hasUserDefinedMaps();
  if (auto bmm = dyn_cast<linalg::BatchMatmulOp>(op))
    named = !bmm.hasUserDefinedMaps();
  if (!named) {
    ::mlir::emitRemark(op->getLoc())
        << "fp8-insert-quant: kept in f32 (only linalg.matmul "
           "and linalg.batch_matmul are cast to bf16)";
    return success();
  }
  rw.setInsertionPoint(op);
  auto toBF16 = [&](Value v) -> Value {
    if (!isF32(v))
      return v;
    auto t = cast<RankedTensorType>(v.getType());
    return arith::TruncFOp::create(rw, op->getLoc(), t.clone(rw.getBF16Type()),
                                   v);
  };
  Value init = c.op.getDpsInitOperand(0)->get();
  SmallVector<Value> ins{toBF16(a), toBF16(b)};
  Operation *repl;
  if (isa<linalg::MatmulOp>(op))
    repl = linalg::MatmulOp::create(rw, op->getLoc(), op->getResultTypes(), ins,
                                    ValueRange{init}, fp8Attrs(op));
  else
    repl = linalg::BatchMatmulOp::create(rw, op->getLoc(), op->getResultTypes(),
                                         ins, ValueRange{init}, fp8Attrs(op));
  rw.replaceOp(op, repl->getResults());
  return success();
}

class InsertQuantPass
    : public fp8::impl::FP8InsertQuantPassBase<InsertQuantPass> {
public:
  using FP8InsertQuantPassBase::FP8InsertQuantPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto policy =
        module->getAttrOfType<PolicyAttr>(FP8Dialect::kPolicyAttrName);
    if (!policy)
      policy = PolicyAttr::getPreset(&getContext(), "deepseek-v3");
    const RoleAnalysis &roles = getAnalysis<RoleAnalysis>();
    SmallVector<Contraction> fp8Ops, highOps;
    module.walk([&](linalg::LinalgOp op) {
      auto precision =
          op->getAttrOfType<PrecisionAttr>(FP8Dialect::kPrecisionAttrName);
      if (!precision)
        return;
      const Contraction *c = roles.getContraction(op);
      if (!c) {
        if (precision.getValue() == Precision::fp8)
          ::mlir::emitRemark(op->getLoc())
              << "fp8-insert-quant: fp8 precision on an op that "
                 "is not a matmul-like contraction; ignored";
        return;
      }
      (precision.getValue() == Precision::fp8 ? fp8Ops : highOps).push_back(*c);
    });
    Rewriter rewriter(policy, strict);
    IRRewriter rw(&getContext());
    bool failed = false;
    for (Contraction &c : fp8Ops)
      failed |= ::mlir::failed(rewriter.rewriteLinear(rw, c));
    for (Contraction &c : highOps)
      failed |= ::mlir::failed(rewriter.castHigh(rw, c));
    if (failed)
      signalPassFailure();
  }
};

} // namespace
