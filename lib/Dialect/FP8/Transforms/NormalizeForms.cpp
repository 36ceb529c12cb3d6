//===- NormalizeForms.cpp - fp8-normalize-forms ---------------------------===//
//
// Rewrites the linalg forms LLVM 22 users and exporters write into the forms
// fp8-assign-precision and fp8-insert-quant recognise, before they run:
//
// - element-wise named ops (linalg.elementwise, linalg.add, linalg.exp, ...)
//   become linalg.generic (upstream generalization), the form the
//   normalization, attention and fusion analyses read;
// - a float contraction whose layout the role analysis does not take as a
//   matmul (matchContraction: one N and one K loop, operands [M..., K] x
//   [N, K] or [K, N], result [M..., N]) becomes linalg.matmul or
//   linalg.batch_matmul between linalg.transpose / tensor reshapes of its
//   operands and result: linalg.matvec / vecmat (a decode token as a
//   one-row matrix), linalg.batch_reduce_matmul (the reduced batch folded
//   into K), linalg.contract with several N or K loops (heads split in the
//   weight), operands or a result stored transposed. A weight broadcast
//   over the batch keeps one broadcast of its [N, K] / [K, N] layout.
//
// Contractions already in a recognised form are left as they are, so the
// kernels of existing graphs do not change.
//
//===----------------------------------------------------------------------===//
#include "fp8/Dialect/FP8/Analysis/BatchBroadcast.h"
#include "fp8/Dialect/FP8/Analysis/RoleAnalysis.h"
#include "fp8/Dialect/FP8/Transforms/DecomposeSoftmax.h"
#include "fp8/Dialect/FP8/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"

namespace mlir::fp8 {
#define GEN_PASS_DEF_FP8NORMALIZEFORMSPASS
#include "fp8/Dialect/FP8/Transforms/Passes.h.inc"
} // namespace mlir::fp8

using namespace mlir;
using namespace mlir::fp8;

namespace {

/// Smallest K of a matrix-vector product taken as a linear layer: below
/// one 1x128 quantization block, a dot product per row is a score (a
/// per-token scalar head, one query against one key), not a projection of
/// hidden states.
constexpr int64_t kMinVectorK = 128;

/// The named element-wise ops, old spellings and linalg.elementwise.
bool isNamedElementwise(Operation *op) {
  return isa<linalg::ElementwiseOp, linalg::AddOp, linalg::SubOp, linalg::MulOp,
             linalg::DivOp, linalg::DivUnsignedOp, linalg::MaxOp, linalg::MinOp,
             linalg::ExpOp, linalg::LogOp, linalg::AbsOp, linalg::CeilOp,
             linalg::FloorOp, linalg::NegFOp, linalg::ReciprocalOp,
             linalg::RoundOp, linalg::SqrtOp, linalg::RsqrtOp, linalg::SquareOp,
             linalg::TanhOp, linalg::ErfOp, linalg::PowFOp, linalg::SelectOp>(
      op);
}

/// The loop dims of `set` in the order `map` lists them.
SmallVector<unsigned> inMapOrder(AffineMap map, ArrayRef<unsigned> set) {
  SmallVector<unsigned> out;
  for (AffineExpr e : map.getResults())
    if (auto d = dyn_cast<AffineDimExpr>(e))
      if (llvm::is_contained(set, d.getPosition()))
        out.push_back(d.getPosition());
  return out;
}

/// The permutation (linalg.transpose's: result dim i is source dim perm[i])
/// that stores the dims `from` lists in the order of `to`.
SmallVector<int64_t> permutation(ArrayRef<unsigned> from,
                                 ArrayRef<unsigned> to) {
  SmallVector<int64_t> perm;
  for (unsigned d : to)
    perm.push_back(llvm::find(from, d) - from.begin());
  return perm;
}

/// The loop dims `map` reads, in its order.
SmallVector<unsigned> mapDims(AffineMap map) {
  SmallVector<unsigned> out;
  for (AffineExpr e : map.getResults())
    out.push_back(cast<AffineDimExpr>(e).getPosition());
  return out;
}

Value transposeIfNeeded(RewriterBase &rw, Location loc, Value v,
                        ArrayRef<int64_t> perm) {
  if (llvm::equal(perm, llvm::seq<int64_t>(0, perm.size())))
    return v;
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(rw, loc, v);
  SmallVector<OpFoldResult> permuted;
  for (int64_t p : perm)
    permuted.push_back(sizes[p]);
  Value empty = tensor::EmptyOp::create(rw, loc, permuted,
                                        getElementTypeOrSelf(v.getType()));
  return linalg::TransposeOp::create(rw, loc, v, empty, perm)->getResult(0);
}

/// Reassociations between a tensor of the dims of `groups` (in order) and
/// one dim per non-empty group (`grouped`), and between that and one dim
/// per group, empty groups as unit dims (`withUnits`).
struct GroupReshape {
  SmallVector<ReassociationIndices> grouped, withUnits;
  bool collapses = false, hasUnits = false;
};

GroupReshape groupReshape(ArrayRef<SmallVector<unsigned>> groups) {
  GroupReshape r;
  int64_t dim = 0;
  for (const SmallVector<unsigned> &g : groups) {
    if (g.empty()) {
      r.hasUnits = true;
      continue;
    }
    ReassociationIndices idx;
    for (size_t i = 0; i < g.size(); ++i)
      idx.push_back(dim++);
    r.collapses |= g.size() > 1;
    r.grouped.push_back(idx);
  }
  // A unit dim joins the next non-empty group (the last ones the previous).
  int64_t pendingUnits = 0;
  for (auto [pos, g] : llvm::enumerate(groups)) {
    if (g.empty()) {
      if (r.withUnits.empty())
        ++pendingUnits;
      else
        r.withUnits.back().push_back(pos);
      continue;
    }
    ReassociationIndices idx;
    for (int64_t u = 0; u < pendingUnits; ++u)
      idx.push_back(pos - pendingUnits + u);
    pendingUnits = 0;
    idx.push_back(pos);
    r.withUnits.push_back(idx);
  }
  return r;
}

/// `v` expanded by `reassociation` into a tensor of the sizes `sizes`.
Value expandTo(RewriterBase &rw, Location loc, Value v,
               ArrayRef<ReassociationIndices> reassociation,
               ArrayRef<OpFoldResult> sizes) {
  SmallVector<int64_t> staticSizes;
  SmallVector<Value> dynamicSizes;
  dispatchIndexOpFoldResults(sizes, dynamicSizes, staticSizes);
  auto type =
      RankedTensorType::get(staticSizes, getElementTypeOrSelf(v.getType()));
  return tensor::ExpandShapeOp::create(rw, loc, type, v, reassociation, sizes);
}

/// `v`, storing the dims of `groups` in order, as one dim per group (the
/// product of its dims; 1 for an empty group).
Value flatten(RewriterBase &rw, Location loc, Value v,
              ArrayRef<SmallVector<unsigned>> groups) {
  GroupReshape r = groupReshape(groups);
  if (r.collapses)
    v = tensor::CollapseShapeOp::create(rw, loc, v, r.grouped);
  if (!r.hasUnits)
    return v;
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(rw, loc, v);
  SmallVector<OpFoldResult> out;
  size_t next = 0;
  for (const SmallVector<unsigned> &g : groups)
    out.push_back(g.empty() ? OpFoldResult(rw.getIndexAttr(1)) : sizes[next++]);
  return expandTo(rw, loc, v, r.withUnits, out);
}

/// The inverse of flatten: `v` with one dim per group back to the dims of
/// `groups`, whose sizes are `sizes` (in the order of `groups`).
Value unflatten(RewriterBase &rw, Location loc, Value v,
                ArrayRef<SmallVector<unsigned>> groups,
                ArrayRef<OpFoldResult> sizes) {
  GroupReshape r = groupReshape(groups);
  if (r.hasUnits)
    v = tensor::CollapseShapeOp::create(rw, loc, v, r.withUnits);
  if (!r.collapses)
    return v;
  return expandTo(rw, loc, v, r.grouped, sizes);
}

/// A contraction in a form the role analysis does not take as a matmul,
/// with the loop dims grouped as the canonical matmul sees them.
struct Canonical {
  linalg::LinalgOp op;
  unsigned lhs = 0; ///< the operand read as [batch, M, K] (or [K, M])
  SmallVector<unsigned> batch, m, n, k;
  /// The left operand kept [K, M] (no batch, stored so): a contraction
  /// over tokens (a weight gradient X^T dY over [B, S] tokens), as the role
  /// analysis reads it.
  bool aKFirst = false;
  bool bNK = false; ///< the other operand kept [batch, N, K]
};

/// Why `op` is left as it is, or the grouping of its loops.
FailureOr<Canonical> matchCanonical(linalg::LinalgOp op, std::string &whyNot) {
  Canonical c;
  c.op = op;
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || dims->k.empty() || (dims->m.empty() && dims->n.empty()))
    return failure();
  // Every loop in one group: a loop only the result indexes (a broadcast)
  // or only one operand reduces is no matmul's.
  if (dims->batch.size() + dims->m.size() + dims->n.size() + dims->k.size() !=
      op.getNumLoops())
    return failure();
  // A matrix times a vector (no N loop): the vector is the token, read as a
  // one-row matrix, the matrix the [N, K] weight (decode's y = W x).
  c.lhs = dims->n.empty() ? 1 : 0;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  AffineMap lhsMap = maps[c.lhs], rhsMap = maps[1 - c.lhs];
  ArrayRef<unsigned> mSet = c.lhs == 0 ? dims->m : dims->n;
  ArrayRef<unsigned> nSet = c.lhs == 0 ? dims->n : dims->m;
  // Batch and M in the order the left operand stores them, K and N in the
  // order of the right one (the weight is not transposed for them).
  c.batch = inMapOrder(lhsMap, dims->batch);
  c.m = inMapOrder(lhsMap, mSet);
  c.k = inMapOrder(rhsMap, dims->k);
  c.n = inMapOrder(rhsMap, nSet);
  if (c.m.empty() || c.n.empty()) {
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    int64_t k = 1;
    for (unsigned d : c.k)
      k = ShapedType::isDynamic(ranges[d]) || ShapedType::isDynamic(k)
              ? ShapedType::kDynamic
              : k * ranges[d];
    if (ShapedType::isDynamic(k) || k < kMinVectorK) {
      whyNot =
          "a matrix-vector product over K = " +
          (ShapedType::isDynamic(k) ? std::string("?") : std::to_string(k)) +
          " (less than one " + std::to_string(kMinVectorK) +
          "-element quantization block, or unknown) is a dot product "
          "per row, not a linear layer";
      return failure();
    }
  }
  // Each operand keeps the order of its K and non-K dims: no transpose
  // beyond the one that groups its dims.
  auto before = [](ArrayRef<unsigned> dims, unsigned x, unsigned y) {
    return llvm::find(dims, x) < llvm::find(dims, y);
  };
  // [K..., M...] only when that is how the left operand is stored (a
  // contraction over its leading [B, S] tokens); else [M..., K...].
  SmallVector<unsigned> kThenM(c.k);
  llvm::append_range(kThenM, c.m);
  c.aKFirst =
      c.batch.empty() && !c.m.empty() && llvm::equal(mapDims(lhsMap), kThenM);
  SmallVector<unsigned> rhsDims = mapDims(rhsMap);
  c.bNK = !c.n.empty() && before(rhsDims, c.n.front(), c.k.front());
  return c;
}

/// The tensor `v` (an operand read through `map`) broadcasts over exactly
/// the contraction's `batch` loops, and the loops its dims are read at.
struct BatchBroadcast {
  Value source;
  SmallVector<unsigned> loops;
};

/// `v` as a broadcast over the batch loops (the shared matcher,
/// BatchBroadcast.h: a linalg.broadcast, or a copy generic whose input
/// leaves those loops out): a weight shared by every batch, which a
/// StableHLO `dot_general` with the batch dims last broadcasts before the
/// contraction; none otherwise. A source with unit dims read at index 0 is
/// not taken: the source is laid out again by the loops its dims are read
/// at, and a unit dim has none (such a weight stays broadcast per batch).
std::optional<BatchBroadcast> matchWeightBroadcast(Value v, AffineMap map,
                                                   ArrayRef<unsigned> batch) {
  SmallVector<unsigned> vLoops = mapDims(map);
  SmallVector<unsigned> batchDims;
  for (unsigned d = 0; d < vLoops.size(); ++d)
    if (llvm::is_contained(batch, vLoops[d]))
      batchDims.push_back(d);
  if (batchDims.size() != batch.size())
    return std::nullopt;
  std::optional<Broadcast> b = matchBatchBroadcast(v, batchDims);
  if (!b || b->getNumUnitDims() != 0)
    return std::nullopt;
  BatchBroadcast r{b->source, {}};
  for (unsigned d : b->getReadDims())
    r.loops.push_back(vLoops[d]);
  return r;
}

/// Rewrites `c.op` into transposes/reshapes around linalg.matmul or
/// linalg.batch_matmul.
void rewriteCanonical(RewriterBase &rw, const Canonical &c) {
  linalg::LinalgOp op = c.op;
  Location loc = op->getLoc();
  rw.setInsertionPoint(op);
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  Value lhs = op.getDpsInputOperand(c.lhs)->get();
  Value rhs = op.getDpsInputOperand(1 - c.lhs)->get();
  Value init = op.getDpsInitOperand(0)->get();

  auto operand = [&](Value v, AffineMap map,
                     ArrayRef<SmallVector<unsigned>> groups) {
    SmallVector<unsigned> order;
    for (const SmallVector<unsigned> &g : groups)
      llvm::append_range(order, g);
    v = transposeIfNeeded(rw, loc, v, permutation(mapDims(map), order));
    return flatten(rw, loc, v, groups);
  };
  bool batched = !c.batch.empty();
  auto withBatch = [&](SmallVector<SmallVector<unsigned>> g) {
    if (batched)
      g.insert(g.begin(), c.batch);
    return g;
  };
  Value a = operand(
      lhs, maps[c.lhs],
      withBatch(c.aKFirst ? SmallVector<SmallVector<unsigned>>{c.k, c.m}
                          : SmallVector<SmallVector<unsigned>>{c.m, c.k}));
  SmallVector<SmallVector<unsigned>> bGroups =
      c.bNK ? SmallVector<SmallVector<unsigned>>{c.n, c.k}
            : SmallVector<SmallVector<unsigned>>{c.k, c.n};
  Value b;
  // A weight broadcast over the batch is laid out without its batch and
  // broadcast again, so fp8-insert-quant sees one weight (one GEMM over
  // every batch's tokens) rather than a transposed copy per batch.
  if (std::optional<BatchBroadcast> bb =
          batched ? matchWeightBroadcast(rhs, maps[1 - c.lhs], c.batch)
                  : std::nullopt) {
    SmallVector<unsigned> order;
    for (const SmallVector<unsigned> &g : bGroups)
      llvm::append_range(order, g);
    Value w =
        transposeIfNeeded(rw, loc, bb->source, permutation(bb->loops, order));
    w = flatten(rw, loc, w, bGroups);
    SmallVector<OpFoldResult> sizes{tensor::getMixedSize(rw, loc, a, 0)};
    llvm::append_range(sizes, tensor::getMixedSizes(rw, loc, w));
    Value empty = tensor::EmptyOp::create(rw, loc, sizes,
                                          getElementTypeOrSelf(w.getType()));
    b = linalg::BroadcastOp::create(rw, loc, w, empty, ArrayRef<int64_t>{0})
            ->getResult(0);
  } else {
    b = operand(rhs, maps[1 - c.lhs], withBatch(bGroups));
  }
  SmallVector<SmallVector<unsigned>> outGroups = withBatch({c.m, c.n});
  // A filled init is filled again in the canonical shape (fp8-insert-quant
  // reads a zero fill as "no accumulator"); another is reshaped.
  Value acc;
  if (auto fill = init.getDefiningOp<linalg::FillOp>()) {
    SmallVector<OpFoldResult> sizes;
    if (batched)
      sizes.push_back(tensor::getMixedSize(rw, loc, a, 0));
    sizes.push_back(tensor::getMixedSize(
        rw, loc, a, (batched ? 1 : 0) + (c.aKFirst ? 1 : 0)));
    sizes.push_back(
        tensor::getMixedSize(rw, loc, b, (batched ? 1 : 0) + (c.bNK ? 0 : 1)));
    Value empty = tensor::EmptyOp::create(rw, loc, sizes,
                                          getElementTypeOrSelf(init.getType()));
    acc = linalg::FillOp::create(rw, loc, fill.getInputs()[0], empty)
              ->getResult(0);
  } else {
    acc = operand(init, maps[2], outGroups);
  }

  // The matmul's maps: (batch, m, n, k) loops, B NT or not.
  MLIRContext *ctx = rw.getContext();
  unsigned nb = batched ? 1 : 0;
  AffineExpr bd = getAffineDimExpr(0, ctx);
  AffineExpr md = getAffineDimExpr(nb, ctx), nd = getAffineDimExpr(nb + 1, ctx),
             kd = getAffineDimExpr(nb + 2, ctx);
  auto mapOf = [&](ArrayRef<AffineExpr> r) {
    SmallVector<AffineExpr> res;
    if (batched)
      res.push_back(bd);
    llvm::append_range(res, r);
    return AffineMap::get(nb + 3, 0, res, ctx);
  };
  SmallVector<Attribute> newMaps{
      AffineMapAttr::get(c.aKFirst ? mapOf({kd, md}) : mapOf({md, kd})),
      AffineMapAttr::get(c.bNK ? mapOf({nd, kd}) : mapOf({kd, nd})),
      AffineMapAttr::get(mapOf({md, nd}))};
  NamedAttribute mapsAttr(rw.getStringAttr("indexing_maps"),
                          rw.getArrayAttr(newMaps));
  Operation *mm;
  if (batched)
    mm = linalg::BatchMatmulOp::create(rw, loc, TypeRange{acc.getType()},
                                       ValueRange{a, b}, ValueRange{acc},
                                       ArrayRef<NamedAttribute>{mapsAttr});
  else
    mm = linalg::MatmulOp::create(rw, loc, TypeRange{acc.getType()},
                                  ValueRange{a, b}, ValueRange{acc},
                                  ArrayRef<NamedAttribute>{mapsAttr});
  // Overrides and annotations set on the original op stay with it.
  for (NamedAttribute attr : op->getDiscardableAttrs())
    mm->setAttr(attr.getName(), attr.getValue());

  // Back to the original result: [batch, m..., n...], then its layout.
  SmallVector<unsigned> order;
  for (const SmallVector<unsigned> &g : outGroups)
    llvm::append_range(order, g);
  SmallVector<unsigned> outDims = mapDims(maps[2]);
  SmallVector<OpFoldResult> initSizes = tensor::getMixedSizes(rw, loc, init);
  SmallVector<OpFoldResult> groupedSizes;
  for (unsigned d : order)
    groupedSizes.push_back(initSizes[llvm::find(outDims, d) - outDims.begin()]);
  Value r = unflatten(rw, loc, mm->getResult(0), outGroups, groupedSizes);
  r = transposeIfNeeded(rw, loc, r, permutation(order, outDims));
  rw.replaceOp(op, r);
  // The original fill, read by nothing now (fp8-report would list it).
  if (auto fill = init.getDefiningOp<linalg::FillOp>();
      fill && fill->use_empty()) {
    Value dest = fill.getOutputs()[0];
    rw.eraseOp(fill);
    if (auto empty = dest.getDefiningOp<tensor::EmptyOp>();
        empty && empty->use_empty())
      rw.eraseOp(empty);
  }
}

/// True when a generic contraction's body is what linalg.matmul builds for
/// its element types: operands widened to the result type with arith.extf
/// (or already of it), then mulf and addf.
bool hasMatmulBody(linalg::GenericOp g) {
  Type out = getElementTypeOrSelf(g.getDpsInitOperand(0)->get().getType());
  for (Value v : g.getDpsInputs())
    if (getElementTypeOrSelf(v.getType()).getIntOrFloatBitWidth() >
        out.getIntOrFloatBitWidth())
      return false;
  return llvm::all_of(g.getBody()->getOperations(), [](Operation &o) {
    return isa<arith::ExtFOp, arith::MulFOp, arith::AddFOp, linalg::YieldOp>(o);
  });
}

/// True for a contraction this pass may rewrite: float element types,
/// tensors; a generic only with a matmul's body (hasMatmulBody).
bool isFloatContraction(linalg::LinalgOp op) {
  if (!op.hasPureTensorSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 || op->getNumResults() != 1 ||
      !linalg::isaContractionOpInterface(op))
    return false;
  SmallVector<Type> types;
  for (Value v : op->getOperands())
    types.push_back(getElementTypeOrSelf(v.getType()));
  if (!llvm::all_of(types, [](Type t) { return isa<FloatType>(t); }))
    return false;
  auto g = dyn_cast<linalg::GenericOp>(op.getOperation());
  return !g || hasMatmulBody(g);
}

class NormalizeFormsPass
    : public fp8::impl::FP8NormalizeFormsPassBase<NormalizeFormsPass> {
public:
  using FP8NormalizeFormsPassBase::FP8NormalizeFormsPassBase;
  void runOnOperation() override {
    // linalg.softmax (torch-mlir's and IREE's named softmax) is upstream's
    // decomposition (max, exp of the difference, sum, divide as generics):
    // the role analysis classifies those ops as it does an exporter's
    // decomposed softmax, and fp8-expand-math reaches its exp.
    if (failed(fp8::decomposeSoftmaxes(getOperation(), getArgument())))
      return signalPassFailure();
    IRRewriter rw(&getContext());
    SmallVector<linalg::LinalgOp> elementwise, contractions;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (isNamedElementwise(op) && op.hasPureTensorSemantics())
        elementwise.push_back(op);
      else if (isFloatContraction(op))
        contractions.push_back(op);
    });
    for (linalg::LinalgOp op : elementwise) {
      rw.setInsertionPoint(op);
      // Fails only on ops without a region body (none of these).
      (void)linalg::generalizeNamedOp(rw, op);
    }
    for (linalg::LinalgOp op : contractions) {
      std::optional<Contraction> known = matchContraction(op);
      if (known && known->supported)
        continue;
      std::string whyNot;
      FailureOr<Canonical> c = matchCanonical(op, whyNot);
      if (failed(c)) {
        if (!whyNot.empty())
          emitRemark(op->getLoc()) << "fp8-normalize-forms: " << op->getName()
                                   << " kept as it is: " << whyNot;
        continue;
      }
      rewriteCanonical(rw, *c);
    }
  }
};
} // namespace
