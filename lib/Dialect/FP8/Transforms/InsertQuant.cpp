//===- InsertQuant.cpp - fp8-insert-quant ---------------------------------===//
//
// Materialises fp8-assign-precision's decisions: FP8 linears become
// fp8.quantize + fp8.scaled_matmul with blocks along each operand's
// contraction dimension; sensitive contractions kept in bf16 get their f32
// operands cast to bf16.
//
//===----------------------------------------------------------------------===//
#include "fp8/Dialect/FP8/Analysis/BatchBroadcast.h"
#include "fp8/Dialect/FP8/Analysis/RoleAnalysis.h"

#include "fp8/Dialect/FP8/IR/FP8.h"
#include "fp8/Dialect/FP8/Transforms/Passes.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/Support/MathExtras.h"

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
        FP8Dialect::kReasonAttrName.data(), FP8Dialect::kGemmAttrName.data()})
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
/// dimension) becomes the size itself, and 1 for an empty dimension (a
/// block must be positive; any size gives zero blocks there, and the
/// grouped path divides by it).
int64_t resolveBlock(int64_t block, int64_t dim) {
  if (!ShapedType::isDynamic(block))
    return block;
  return dim == 0 ? 1 : dim;
}

/// True when `v` is a zero-filled init (linalg.fill of 0, or a zero splat
/// constant): the matmul needs no accumulator operand.
bool isZeroInit(Value v) {
  if (auto fill = v.getDefiningOp<linalg::FillOp>())
    return matchPattern(fill.getInputs()[0], m_AnyZeroFloat()) ||
           matchPattern(fill.getInputs()[0], m_Zero());
  return matchPattern(v, m_AnyZeroFloat());
}

/// The init of a contraction the pass replaced: the fp8 ops start from +0.0
/// (or take a non-zero init as their accumulator), so a zero fill that fed
/// only the replaced op is dead. Erased here, with its tensor.empty, rather
/// than left to a later canonicalizer: fp8-insert-quant's own output (and
/// fp8-report, which fp8-pipeline runs right after it) would otherwise
/// still show it, one full-size fill per routed projection.
void eraseDeadInit(RewriterBase &rw, Value init) {
  auto fill = init.getDefiningOp<linalg::FillOp>();
  if (!fill || !fill->use_empty())
    return;
  Value dest = fill.getOutputs()[0];
  rw.eraseOp(fill);
  if (auto empty = dest.getDefiningOp<tensor::EmptyOp>();
      empty && empty->use_empty())
    rw.eraseOp(empty);
}

/// The promote_interval of an FP8 GEMM over `k` (static) elements: the
/// policy's, or with `promote_interval = ?` (promotion=none) one interval
/// covering K: K rounded up to the wgmma K of 32 (an interval longer than K
/// still promotes once, at the end).
static int64_t promoteInterval(PolicyAttr policy, int64_t k) {
  int64_t interval = policy.getPromoteInterval();
  return ShapedType::isDynamic(interval) ? llvm::alignTo(k, 32) : interval;
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
  /// experts [E, K, N]): both stacked operands quantized once, then one
  /// fp8.grouped_scaled_matmul in the masked layout (all rows valid).
  LogicalResult rewriteGrouped(IRRewriter &rw, Contraction &c);

  /// A weight gradient (fp8.gemm = wgrad): both operands K-major over the
  /// tokens with 1x128 tiles along them, requantized from the quantization
  /// its fprop gave X and its dgrad gave dY (DeepSeek-V3 §3.5.2), or
  /// quantized once along the tokens when there is none or the policy says
  /// `wgrad_operands = fresh`. `gradOperand`:
  /// which operand is dY, as the role analysis paired it (none for a Wgrad
  /// only an override names: then the operand defined later).
  LogicalResult rewriteWgrad(IRRewriter &rw, Contraction &c,
                             std::optional<unsigned> gradOperand);

private:
  /// What a cached quantization holds: an activation [rows, K] with the
  /// activation block along its last dimension, a weight [N, K] with the
  /// weight block, or a [T, F] operand blocked along the tokens T.
  enum class Layout { activation, weight, tokens };
  /// The quantization of `v` in `layout`, shared by the three GEMMs of a
  /// linear in a training graph: created once, right after `v` is defined,
  /// so it dominates every GEMM that uses it.
  Value quantizeShared(IRRewriter &rw, Location loc, Value v, Layout layout,
                       Type format);
  /// `q` [d0, d1] transposed to [d1, d0]: its codes and scales are moved,
  /// not requantized (block [b0, b1] becomes [b1, b0]).
  Value transposeScaled(IRRewriter &rw, Location loc, Value q);
  /// The [F, T] K-major FP8 form of a weight gradient's operand `v`,
  /// contracted over the tokens (`kLast`: stored [F, T]).
  Value tokenMajorOperand(IRRewriter &rw, Location loc, Value v, bool kLast,
                          Type format);

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
  Value quantize(IRRewriter &rw, Location loc, Value v, ArrayRef<int64_t> block,
                 Type format = {});
  /// The quantized [C, R] `q` requantized transposed to [R, C] (`rows` x
  /// `cols`) in `format`, with the activation block: tiles along the
  /// contraction of an operand stored [K, R] (DeepSeek-V3 §3.5.2).
  Value requantizeTransposed(IRRewriter &rw, Location loc, Value q,
                             int64_t rows, int64_t cols, Type format);
  /// A stacked [G, X, K] operand quantized once for all groups with
  /// `block` per group: an !fp8.scaled [G, X, K] with block [1, b0, b1].
  Value quantizeGrouped(IRRewriter &rw, Location loc, Value v,
                        ArrayRef<int64_t> block);
  /// fp8.scaled_matmul of quantized operands into [M, N] of `et`, with an
  /// optional high-precision accumulator [M, N] (f16 computed in f32).
  Value scaledMatmulQuantized(IRRewriter &rw, Operation *op, Value qa, Value qb,
                              Value acc, Type et, int64_t m, int64_t n);

  PolicyAttr policy;
  bool strict;
  /// Quantizations shared between the GEMMs of training graphs.
  DenseMap<std::pair<Value, unsigned>, Value> shared;
};

/// The fp8.gemm kind of `op`, if any.
std::optional<GemmKind> getGemm(Operation *op) {
  if (auto g = op->getAttrOfType<GemmKindAttr>(FP8Dialect::kGemmAttrName))
    return g.getValue();
  return std::nullopt;
}

/// The [C, R] source of `v` [R, C] when `v` is a 2-D transpose of it
/// (linalg.transpose [1, 0] or a transposing copy generic), or null.
Value lookThroughTranspose2D(Value v);

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

/// The source of a broadcast over the leading `numBatch` dims (the shared
/// matcher, BatchBroadcast.h), or null: a [K, N] source read along the
/// trailing two dims in order, or a [1..., K, N] one whose unit batch dims
/// are read at index 0 (torch-mlir's `expand` of a [1, K, N] weight:
/// `(d0, d1, d2) -> (0, d1, d2)`). A cast on the way is not looked through:
/// the source replaces the operand, so it must hold the same values; the
/// source must collapse to the 2-D weight get2DOperand quantizes.
static Value lookThroughBatchBroadcast(Value v, unsigned numBatch) {
  auto t = cast<RankedTensorType>(v.getType());
  auto batch = llvm::to_vector(llvm::seq<unsigned>(0, numBatch));
  std::optional<Broadcast> b = matchBatchBroadcast(v, batch);
  if (!b || t.getRank() != numBatch + 2)
    return {};
  unsigned lead = b->getNumUnitDims();
  if ((lead != 0 && lead != numBatch) ||
      !llvm::all_of(ArrayRef(b->sourceDims).take_front(lead),
                    [](int64_t d) { return d == Broadcast::kUnitDim; }) ||
      !llvm::equal(b->getReadDims(),
                   ArrayRef<unsigned>{numBatch, numBatch + 1}))
    return {};
  return b->source;
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
    v = src;
  auto type = cast<RankedTensorType>(v.getType());
  if (type.getRank() == 2)
    return v;
  ArrayRef<int64_t> shape = type.getShape();
  if (!llvm::all_of(shape.take_front(numBatch),
                    [](int64_t d) { return d == 1; }))
    return {}; // batch > 1 and not one broadcast weight
  SmallVector<ReassociationIndices> re(1);
  for (unsigned i = 0; i <= numBatch; ++i)
    re[0].push_back(i);
  re.push_back({static_cast<int64_t>(numBatch) + 1});
  return tensor::CollapseShapeOp::create(rw, loc, v, re);
}

Value Rewriter::requantizeTransposed(IRRewriter &rw, Location loc, Value q,
                                     int64_t rows, int64_t cols, Type format) {
  ArrayRef<int64_t> act = policy.getActivationBlock();
  auto to = ScaledTensorType::get(
      rw.getContext(), {rows, cols}, format,
      {resolveBlock(act[0], rows), resolveBlock(act[1], cols)},
      policy.getScaleType());
  return RequantizeOp::create(
      rw, loc, to, q, rw.getDenseI64ArrayAttr({1, 0}),
      rw.getF32FloatAttr(policy.getEpsValue()),
      ScaleModeAttr::get(rw.getContext(), policy.getScaleMode()),
      rw.getBoolAttr(true));
}

Value Rewriter::quantize(IRRewriter &rw, Location loc, Value v,
                         ArrayRef<int64_t> block, Type format) {
  auto t = cast<RankedTensorType>(v.getType());
  SmallVector<int64_t> b;
  for (auto [blk, dim] : llvm::zip_equal(block, t.getShape()))
    b.push_back(resolveBlock(blk, dim));
  auto type = ScaledTensorType::get(rw.getContext(), t.getShape(),
                                    format ? format : policy.getFormat(), b,
                                    policy.getScaleType());
  return QuantizeOp::create(rw, loc, type, v, policy.getEps(),
                            policy.getScaleMode(), /*saturate=*/true);
}

Value lookThroughTranspose2D(Value v) {
  Operation *def = v.getDefiningOp();
  if (auto t = dyn_cast_or_null<linalg::TransposeOp>(def))
    return llvm::equal(t.getPermutation(), ArrayRef<int64_t>{1, 0})
               ? t.getInput()
               : Value();
  if (isTransposeCopy(def))
    return cast<linalg::GenericOp>(def).getDpsInputOperand(0)->get();
  return {};
}

Value Rewriter::quantizeShared(IRRewriter &rw, Location loc, Value v,
                               Layout layout, Type format) {
  auto key = std::make_pair(v, static_cast<unsigned>(layout));
  if (Value q = shared.lookup(key))
    return q;
  OpBuilder::InsertionGuard guard(rw);
  if (auto arg = dyn_cast<BlockArgument>(v))
    rw.setInsertionPointToStart(arg.getOwner());
  else
    rw.setInsertionPointAfterValue(v);
  ArrayRef<int64_t> act = policy.getActivationBlock();
  SmallVector<int64_t> block;
  if (layout == Layout::activation)
    block.assign(act.begin(), act.end());
  else if (layout == Layout::weight)
    llvm::append_range(block, policy.getWeightBlock());
  else
    block = {act[1], act[0]}; // 128x1: 1x128 along the tokens
  Value q = quantize(rw, loc, v, block, format);
  shared[key] = q;
  return q;
}

Value Rewriter::transposeScaled(IRRewriter &rw, Location loc, Value q) {
  auto t = cast<ScaledTensorType>(q.getType());
  auto parts = DisassembleOp::create(rw, loc, q);
  auto transpose = [&](Value v) -> Value {
    auto vt = cast<RankedTensorType>(v.getType());
    SmallVector<Value> dyn; // a dynamic token count
    for (int64_t d : {1, 0})
      if (vt.isDynamicDim(d))
        dyn.push_back(tensor::DimOp::create(rw, loc, v, d));
    Value empty = tensor::EmptyOp::create(
        rw, loc, ArrayRef<int64_t>{vt.getDimSize(1), vt.getDimSize(0)},
        vt.getElementType(), dyn);
    return linalg::TransposeOp::create(rw, loc, v, empty,
                                       ArrayRef<int64_t>{1, 0})
        ->getResult(0);
  };
  ArrayRef<int64_t> shape = t.getShape(), block = t.getBlockShape();
  auto type = ScaledTensorType::get(rw.getContext(), {shape[1], shape[0]},
                                    t.getElementType(), {block[1], block[0]},
                                    t.getScaleType());
  // One op per statement, in the order the nested form was built.
  Value scales = transpose(parts.getScales());
  Value data = transpose(parts.getData());
  return AssembleOp::create(rw, loc, type, data, scales);
}

Value Rewriter::tokenMajorOperand(IRRewriter &rw, Location loc, Value v,
                                  bool kLast, Type format) {
  // u: the operand stored token-major [T, F], when it is (or is a
  // transpose of) such a tensor.
  Value u = kLast ? lookThroughTranspose2D(v) : v;
  if (!u)
    return quantizeShared(rw, loc, v, Layout::activation, format);
  auto ut = cast<RankedTensorType>(u.getType());
  int64_t t = ut.getDimSize(0), f = ut.getDimSize(1);
  // Quantized for its fprop (X) or dgrad (dY) with tiles along F: requantize
  // to tiles along T, transposed (DeepSeek-V3 §3.5.2), unless the policy
  // says `wgrad_operands = fresh`.
  if (Value q = shared.lookup(
          std::make_pair(u, static_cast<unsigned>(Layout::activation)));
      q && policy.getWgradOperands() == WgradOperands::requantize) {
    auto qt = cast<ScaledTensorType>(q.getType());
    return requantizeTransposed(rw, loc, q, f, t, qt.getElementType());
  }
  // `fresh`, or only this GEMM reads it (a saved activation of a split
  // backward graph): one quantization of the high-precision tensor along the
  // tokens, then its codes and scales transposed.
  return transposeScaled(rw, loc,
                         quantizeShared(rw, loc, u, Layout::tokens, format));
}

LogicalResult Rewriter::rewriteWgrad(IRRewriter &rw, Contraction &c,
                                     std::optional<unsigned> gradOperand) {
  Operation *op = c.op;
  Location loc = op->getLoc();
  Value a = c.op.getDpsInputOperand(0)->get();
  Value b = c.op.getDpsInputOperand(1)->get();
  Value init = c.op.getDpsInitOperand(0)->get();
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  for (Value v : {a, b, init})
    if (!isa<Float32Type, BFloat16Type, Float16Type>(
            getElementTypeOrSelf(v.getType())))
      return skip(op, "a weight gradient needs f32, bf16 or f16 operands");
  // The token count (the contraction, K) may be dynamic: a training step
  // over a run-time batch. The weight's shape (the result) is static.
  if (!cast<RankedTensorType>(init.getType()).hasStaticShape() ||
      ShapedType::isDynamic(c.m) || ShapedType::isDynamic(c.n))
    return skip(op, "a weight gradient needs a static weight shape (only "
                    "the token count may be dynamic)");
  if (ShapedType::isDynamic(c.k) &&
      llvm::any_of(policy.getActivationBlock(), ShapedType::isDynamic))
    return skip(op, "a weight gradient over a dynamic token count needs a "
                    "policy with a static activation block");
  rw.setInsertionPoint(op);
  // dY gets the policy's gradient format: the operand the analysis's
  // pairing says (TrainingGemms.cpp), else the one defined later.
  bool aIsGrad = gradOperand ? *gradOperand == 0
                             : definedBefore(traceSource(b), traceSource(a));
  Type fmt = policy.getFormat(), gradFmt = policy.getGradFormat();
  Value qa = tokenMajorOperand(rw, loc, a, c.aKLast, aIsGrad ? gradFmt : fmt);
  Value qb = tokenMajorOperand(rw, loc, b, c.bNK, aIsGrad ? fmt : gradFmt);
  Value result =
      scaledMatmulQuantized(rw, op, qa, qb, isZeroInit(init) ? Value() : init,
                            resultType.getElementType(), c.m, c.n);
  rw.replaceOp(op, result);
  return success();
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
  // A batch matmul against one weight broadcast over the batch (torch-mlir's
  // BERT: [B, S, K] x [B, K, N]) is a linear over B * S tokens; its batch is
  // a token dimension and may be dynamic, so only the 2-D weight it
  // broadcasts must be static.
  Value broadcastWeight =
      c.numBatch > 0 ? lookThroughBatchBroadcast(b, c.numBatch) : Value();
  bool oneWeight =
      broadcastWeight || llvm::all_of(bType.getShape().take_front(c.numBatch),
                                      [](int64_t d) { return d == 1; });
  auto weightType = broadcastWeight
                        ? cast<RankedTensorType>(broadcastWeight.getType())
                        : bType;
  if (ShapedType::isDynamic(c.n) || ShapedType::isDynamic(c.k))
    return skip(op, "dynamic N or K (only the token dimensions may be "
                    "dynamic)");
  if (!weightType.hasStaticShape())
    return skip(op, "a weight with a dynamic batch that is not one weight "
                    "broadcast over it (only the token dimensions may be "
                    "dynamic)");
  if (ShapedType::isDynamic(c.m) &&
      (!c.aKLast || !oneWeight ||
       llvm::any_of(policy.getActivationBlock(), ShapedType::isDynamic)))
    return skip(op, "a dynamic token dimension needs the activation stored "
                    "[M..., K], one weight for every batch and a policy with "
                    "a static activation block");
  for (Type t : {aType.getElementType(), bType.getElementType(),
                 resultType.getElementType()})
    if (!isa<Float32Type, BFloat16Type, Float16Type>(t))
      return skip(op, "operands and result must be f32, bf16 or f16");

  // Everything that can fail is checked before the first op is created, so
  // a skipped linear leaves the IR unchanged.
  if (c.numBatch > 0 && !oneWeight) {
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
  // An operand stored [K, R] (a contraction over tokens): 128x1 tiles of the
  // stored layout, then requantized transposed to [R, K], so that the matmul
  // stays NT.
  auto quantizeTransposed = [&](Value kr, int64_t r) -> Value {
    Value q = quantize(rw, loc, kr, tokenBlock);
    return requantizeTransposed(rw, loc, q, r, k, policy.getFormat());
  };

  // In a training graph the GEMMs of a linear share their quantizations:
  // X between fprop and wgrad, dY between dgrad and wgrad, W between fprop
  // and dgrad. The dgrad's dY is a gradient: the policy's gradient format.
  std::optional<GemmKind> gemm = getGemm(op);
  Type aFormat =
      gemm == GemmKind::dgrad ? policy.getGradFormat() : policy.getFormat();

  // Activation -> [M, K], 1x128 along K.
  Value qa;
  if (c.aKLast && gemm && aType.getRank() == 2 && c.numBatch == 0) {
    qa = quantizeShared(rw, loc, a, Layout::activation, aFormat);
  } else if (c.aKLast) {
    qa = quantize(rw, loc, collapseToMatrix(rw, loc, a), actBlock, aFormat);
  } else {
    qa = quantizeTransposed(a, m); // stored [K, M]
  }

  // Weight -> NT [N, K].
  Value b2 = get2DOperand(rw, loc, b, c.numBatch);
  if (!b2)
    return skip(op, "the right operand varies over the batch (not one "
                    "broadcast weight)");
  bool isWeight = getWeightSource(b) != WeightSource::none;
  // The weight quantized [N, K] with the weight block, shared when the
  // GEMM is part of a training graph.
  auto quantizeWeight = [&](Value nk) {
    return gemm && c.numBatch == 0
               ? quantizeShared(rw, loc, nk, Layout::weight, policy.getFormat())
               : quantize(rw, loc, nk, wBlock);
  };
  // A dgrad reads W [K, N] (dX = dY * W): the fprop's quantization of W
  // [N', K'] = [K, N], transposed, when the weight block transposes into
  // itself on [N, K] (128x128, per-tensor): no second quantization of W.
  Value reused;
  if (gemm && !c.bNK && isWeight && c.numBatch == 0 &&
      !lookThroughTranspose2D(b2)) {
    ArrayRef<int64_t> kn = bType.getShape();
    bool squareBlocks =
        resolveBlock(wBlock[0], kn[0]) == resolveBlock(wBlock[1], kn[0]) &&
        resolveBlock(wBlock[1], kn[1]) == resolveBlock(wBlock[0], kn[1]);
    if (squareBlocks)
      reused = transposeScaled(rw, loc, quantizeWeight(b2));
  }
  Value qb;
  if (reused) {
    qb = reused;
  } else if (c.bNK) {
    qb = isWeight ? quantizeWeight(b2) : quantize(rw, loc, b2, actBlock);
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
    qb = quantizeWeight(nk);
  } else {
    // An activation stored [K, N] (a weight gradient's dY).
    qb = quantizeTransposed(b2, n);
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
  int64_t k = cast<ScaledTensorType>(qa.getType()).getShape()[1];
  auto mm =
      ScaledMatmulOp::create(rw, loc, RankedTensorType::get({m, n}, outEt), qa,
                             qb, acc, promoteInterval(policy, k));
  copyFP8Attrs(op, mm);
  Value result = mm.getResult();
  if (outEt != et)
    result = arith::TruncFOp::create(rw, loc, RankedTensorType::get({m, n}, et),
                                     result);
  return result;
}

Value Rewriter::quantizeGrouped(IRRewriter &rw, Location loc, Value v,
                                ArrayRef<int64_t> block) {
  auto t = cast<RankedTensorType>(v.getType());
  int64_t g = t.getDimSize(0), x = t.getDimSize(1), k = t.getDimSize(2);
  int64_t b0 = resolveBlock(block[0], x), b1 = resolveBlock(block[1], k);
  // One fp8.quantize for all groups, so a constant weight still folds at
  // compile time. Blocks never straddle groups, so the codes and scales are
  // those of G separate quantizations.
  if (x % b0 != 0)
    return quantize(rw, loc, v, {1, b0, b1});
  // When b0 divides X the blocks of [G * X, K] are those of [1, b0, b1]:
  // quantized in that rank-2 form (the one the tiled CPU and GPU quantize
  // kernels take), then viewed as [G, X, K] (expand_shape, free).
  auto type =
      ScaledTensorType::get(rw.getContext(), {g, x, k}, policy.getFormat(),
                            {1, b0, b1}, policy.getScaleType());
  SmallVector<ReassociationIndices> reassoc{{0, 1}, {2}};
  Value flat = tensor::CollapseShapeOp::create(rw, loc, v, reassoc);
  auto parts =
      DisassembleOp::create(rw, loc, quantize(rw, loc, flat, {b0, b1}));
  Value data = tensor::ExpandShapeOp::create(rw, loc, type.getDataTensorType(),
                                             parts.getData(), reassoc);
  Value scales = tensor::ExpandShapeOp::create(
      rw, loc, type.getScaleTensorType(), parts.getScales(), reassoc);
  return AssembleOp::create(rw, loc, type, data, scales);
}

LogicalResult Rewriter::rewriteGrouped(IRRewriter &rw, Contraction &c) {
  Operation *op = c.op;
  Location loc = op->getLoc();
  Value a = c.op.getDpsInputOperand(0)->get();
  Value b = c.op.getDpsInputOperand(1)->get();
  Value init = c.op.getDpsInitOperand(0)->get();
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  Type et = resultType.getElementType();
  int64_t groups = resultType.getDimSize(0);
  int64_t m = resultType.getDimSize(1), n = resultType.getDimSize(2);
  rw.setInsertionPoint(op);
  // NT weights per group: [G, N, K] as stored, or the source of a transpose
  // of it, or (last resort) the [G, K, N] operand transposed.
  Value bNK = c.bNK ? b : lookThroughGroupTranspose(b);
  if (!bNK) {
    Value empty = tensor::EmptyOp::create(
        rw, loc, ArrayRef<int64_t>{groups, c.n, c.k},
        cast<RankedTensorType>(b.getType()).getElementType());
    bNK = linalg::TransposeOp::create(rw, loc, b, empty,
                                      ArrayRef<int64_t>{0, 2, 1})
              ->getResult(0);
  }
  Value qa = quantizeGrouped(rw, loc, a, policy.getActivationBlock());
  Value qb = quantizeGrouped(rw, loc, bNK, policy.getWeightBlock());

  // One grouped GEMM for all groups (DeepGEMM's masked layout with every
  // row valid): one kernel launch on the GPU, one GEMM body in a loop on the
  // CPU, whatever the expert count (DeepSeek-V3 routes over 256). A
  // non-zero init is the accumulator; f16 is computed in f32.
  Type outEt = isa<Float16Type>(et) ? Type(rw.getF32Type()) : et;
  auto outType = RankedTensorType::get({groups, m, n}, outEt);
  Value acc;
  if (!isZeroInit(init)) {
    acc = init;
    if (outEt != et)
      acc = arith::ExtFOp::create(rw, loc, outType, acc);
  }
  auto gmm = GroupedScaledMatmulOp::create(
      rw, loc, outType, GroupLayout::masked, qa, qb, /*counts=*/Value(),
      /*group_ids=*/Value(), acc, promoteInterval(policy, c.k));
  copyFP8Attrs(op, gmm);
  Value result = gmm.getResult();
  if (outEt != et)
    result = arith::TruncFOp::create(rw, loc, resultType, result);
  rw.replaceOp(op, result);
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
  // Only the named ops rebuild their bodies for new operand types (with
  // their indexing maps: q . k^T as an NT matmul or linalg.contract); a
  // generic keeps f32 (still high precision).
  if (!isa<linalg::MatmulOp, linalg::BatchMatmulOp, linalg::ContractOp>(op)) {
    ::mlir::emitRemark(op->getLoc())
        << "fp8-insert-quant: kept in f32 (only linalg.matmul, "
           "linalg.batch_matmul and linalg.contract are cast to bf16)";
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
  // The maps and cast the op was written with (their layouts: a transposed
  // operand stays transposed).
  SmallVector<NamedAttribute> attrs = fp8Attrs(op);
  auto maps = op->getAttrOfType<ArrayAttr>("indexing_maps");
  if (auto castFn = op->getAttr("cast"))
    attrs.emplace_back(rw.getStringAttr("cast"), castFn);
  Operation *repl;
  if (isa<linalg::ContractOp>(op)) {
    repl = linalg::ContractOp::create(rw, op->getLoc(), op->getResultTypes(),
                                      ins, ValueRange{init}, maps, attrs);
  } else {
    if (maps)
      attrs.emplace_back(rw.getStringAttr("indexing_maps"), maps);
    if (isa<linalg::MatmulOp>(op))
      repl = linalg::MatmulOp::create(rw, op->getLoc(), op->getResultTypes(),
                                      ins, ValueRange{init}, attrs);
    else
      repl = linalg::BatchMatmulOp::create(
          rw, op->getLoc(), op->getResultTypes(), ins, ValueRange{init}, attrs);
  }
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
      policy = PolicyAttr::getDefaultPreset(&getContext());
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
    // Fprops (and inference linears) first, then dgrads, then wgrads: each
    // reuses the quantizations the previous ones made (X, W, then dY).
    auto rank = [](const Contraction &c) {
      std::optional<GemmKind> g = getGemm(c.op);
      return g ? static_cast<int>(*g) : 0;
    };
    llvm::stable_sort(fp8Ops, [&](const Contraction &x, const Contraction &y) {
      return rank(x) < rank(y);
    });
    Rewriter rewriter(policy, strict);
    IRRewriter rw(&getContext());
    bool failed = false;
    for (Contraction &c : fp8Ops) {
      Value init = c.op.getDpsInitOperand(0)->get();
      failed |= ::mlir::failed(
          getGemm(c.op) == GemmKind::wgrad && c.supported && c.numBatch == 0
              ? rewriter.rewriteWgrad(rw, c,
                                      roles.getWgradGradientOperand(c.op))
              : rewriter.rewriteLinear(rw, c));
      eraseDeadInit(rw, init);
    }
    for (Contraction &c : highOps)
      failed |= ::mlir::failed(rewriter.castHigh(rw, c));
    if (failed)
      signalPassFailure();
  }
};

} // namespace
