//===- TrainingGemms.cpp - fprop / dgrad / wgrad of each linear -----------===//
//
// The three GEMMs of a linear layer's training step (DeepSeek-V3 §3.3,
// Figure 6), recognised from the data flow of a joint (forward + backward in
// one function) or split (forward and backward functions) graph in the form
// aot_autograd exports: with X [T, in], W [out, in] (nn.Linear's layout) and
// the incoming gradient dY [T, out],
//
//   fprop  Y  = X · Wᵀ    contraction over `in`
//   dgrad  dX = dY · W    contraction over `out`
//   wgrad  dW = dYᵀ · X   contraction over the T tokens
//
// The weight gradient is the one GEMM whose two operands are both contracted
// along their leading (token) dimension. The other two are contractions
// with a weight and are told apart by the weight gradient sharing their
// activation: the dgrad's activation is the weight gradient's dY, the
// fprop's its X. Which operand is dY follows the data flow
// (gradientOperand): an operand computed from the other is dY (the forward
// never reads a gradient); else the one whose first reader among the
// contractions with a weight comes later (the backward follows the forward:
// the plainest joint graph, whose dY is a tangent argument, is symmetric
// under its data flow alone); else the one defined later (entry-block
// arguments first, by index: aot_autograd passes saved activations before
// tangents). Without a weight gradient (a frozen weight), the first
// contraction with a weight is its fprop and a later one contracting the
// same weight (WeightView) along its other dimension is its dgrad.
// Overrides by loc name decide where this is wrong.
//
//===----------------------------------------------------------------------===//
#include "fp8/Dialect/FP8/Analysis/RoleAnalysis.h"
#include "fp8/Dialect/FP8/IR/ShapeString.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

using namespace mlir;
using namespace mlir::fp8;

/// The permutation of a 2-D transpose (linalg.transpose [1, 0], or a copy or
/// cast generic whose input is indexed (d1, d0)), or false.
static bool isTranspose2D(Operation *op) {
  if (auto t = dyn_cast_or_null<linalg::TransposeOp>(op))
    return llvm::equal(t.getPermutation(), ArrayRef<int64_t>{1, 0});
  auto g = dyn_cast_or_null<linalg::GenericOp>(op);
  if (!g || !isValuePreserving(g) || g.getNumLoops() != 2 ||
      g.getNumDpsInputs() != 1)
    return false;
  AffineMap in = g.getIndexingMapsArray()[0];
  AffineMap out = g.getIndexingMapsArray()[1];
  return in.isPermutation() && out.isPermutation() && in != out;
}

bool fp8::contractsLeadingDim(Value v, bool kLast) {
  for (unsigned step = 0; step < kMaxTraceSteps; ++step) {
    Operation *def = v.getDefiningOp();
    if (!def)
      break;
    if (isTranspose2D(def)) {
      kLast = !kLast;
      v = def->getOperand(0);
      continue;
    }
    // Reshapes that merge or split leading (token) dimensions keep the last
    // dimension: the contracted side does not change.
    if (isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(def)) {
      auto from = cast<ShapedType>(def->getOperand(0).getType());
      auto to = cast<ShapedType>(v.getType());
      if (from.getRank() == 0 || to.getRank() == 0 ||
          from.getShape().back() != to.getShape().back())
        break;
      v = def->getOperand(0);
      continue;
    }
    if (isa<arith::ExtFOp, arith::TruncFOp, tensor::CastOp>(def)) {
      v = def->getOperand(0);
      continue;
    }
    auto g = dyn_cast<linalg::GenericOp>(def);
    if (g && isValuePreserving(g) && g.getIndexingMapsArray()[0].isIdentity() &&
        g.getIndexingMapsArray()[1].isIdentity()) {
      v = g.getDpsInputOperand(0)->get();
      continue;
    }
    break;
  }
  return !kLast;
}

std::optional<ScatterAdd> fp8::matchScatterAdd(Operation *op) {
  auto g = dyn_cast<linalg::GenericOp>(op);
  if (!g || g.getNumReductionLoops() == 0 || g.getNumDpsInits() != 1 ||
      !llvm::any_of(g.getDpsInputOperands(), [](OpOperand *o) {
        return isa<IntegerType>(getElementTypeOrSelf(o->get().getType()));
      }))
    return std::nullopt;
  // The body compares an id with the index of an output dimension (the
  // table row it writes) and accumulates.
  std::optional<int64_t> row;
  g.getRegion().walk([&](arith::CmpIOp cmp) {
    for (Value side : cmp->getOperands()) {
      Operation *def = side.getDefiningOp();
      if (isa_and_nonnull<arith::IndexCastOp, arith::IndexCastUIOp>(def))
        def = def->getOperand(0).getDefiningOp();
      if (auto idx = dyn_cast_or_null<linalg::IndexOp>(def))
        row = idx.getDim();
    }
  });
  bool accumulates = false;
  g.getRegion().walk([&](arith::AddFOp) { accumulates = true; });
  if (!row || !accumulates)
    return std::nullopt;
  AffineMap out = g.getIndexingMapsArray().back();
  auto outType = cast<ShapedType>(g.getDpsInitOperand(0)->get().getType());
  for (auto [i, e] : llvm::enumerate(out.getResults()))
    if (auto d = dyn_cast<AffineDimExpr>(e); d && d.getPosition() == *row)
      return ScatterAdd{outType.getDimSize(i)};
  return std::nullopt;
}

/// True when `v` is an element read from an integer tensor (a token id),
/// possibly through index casts.
static bool isTokenId(Value v) {
  while (isa_and_nonnull<arith::IndexCastOp, arith::IndexCastUIOp>(
      v.getDefiningOp()))
    v = v.getDefiningOp()->getOperand(0);
  auto ex = v.getDefiningOp<tensor::ExtractOp>();
  return ex && isa<IntegerType>(ex.getTensor().getType().getElementType());
}

/// The destination, the written value and the per-dimension offsets of a
/// tensor.insert_slice or tensor.insert; false for other ops.
static bool getWrite(Operation *op, Value &dest, Value &value,
                     SmallVector<OpFoldResult> &offsets) {
  if (auto ins = dyn_cast_or_null<tensor::InsertSliceOp>(op)) {
    dest = ins.getDest(), value = ins.getSource();
    offsets = ins.getMixedOffsets();
    return true;
  }
  if (auto ins = dyn_cast_or_null<tensor::InsertOp>(op)) {
    dest = ins.getDest(), value = ins.getScalar();
    offsets = getAsOpFoldResult(ins.getIndices());
    return true;
  }
  return false;
}

/// True when `row` is computed inside `loop` by an addition (arith.addf, or
/// a linalg op whose body adds) from the slice or element of `table` at
/// offset `id` in dimension `dim`: the row is accumulated into, not
/// overwritten.
static bool accumulatesRow(Operation *loop, Value row, Value table,
                           unsigned dim, Value id) {
  bool adds = false, readsRow = false;
  SmallVector<Value> work{row};
  DenseSet<Operation *> seen;
  while (!work.empty() && seen.size() < kMaxScatterRowOps) {
    Operation *def = work.pop_back_val().getDefiningOp();
    if (!def || !loop->isProperAncestor(def) || !seen.insert(def).second)
      continue;
    Value src, offset;
    if (auto ex = dyn_cast<tensor::ExtractSliceOp>(def)) {
      src = ex.getSource();
      if (dim < ex.getMixedOffsets().size())
        offset = dyn_cast<Value>(ex.getMixedOffsets()[dim]);
    } else if (auto ex = dyn_cast<tensor::ExtractOp>(def)) {
      src = ex.getTensor();
      if (dim < ex.getIndices().size())
        offset = ex.getIndices()[dim];
    }
    if (src == table && offset == id) {
      readsRow = true;
      continue;
    }
    if (isa<arith::AddFOp>(def))
      adds = true;
    else if (isa<linalg::LinalgOp>(def))
      def->walk([&](arith::AddFOp) { adds = true; });
    llvm::append_range(work, def->getOperands());
  }
  return adds && readsRow;
}

std::optional<ScatterAdd> fp8::matchScatterAddLoop(Operation *op) {
  auto loop = dyn_cast<LoopLikeOpInterface>(op);
  if (!loop)
    return std::nullopt;
  auto iterArgs = loop.getRegionIterArgs();
  auto yielded = loop.getYieldedValues();
  if (iterArgs.size() != yielded.size())
    return std::nullopt;
  for (auto [table, next] : llvm::zip_equal(iterArgs, yielded)) {
    auto type = dyn_cast<RankedTensorType>(table.getType());
    Value dest, value;
    SmallVector<OpFoldResult> offsets;
    if (!type || !getWrite(next.getDefiningOp(), dest, value, offsets) ||
        dest != table)
      continue;
    for (auto [dim, offset] : llvm::enumerate(offsets)) {
      auto id = dyn_cast<Value>(offset);
      if (id && isTokenId(id) && accumulatesRow(op, value, table, dim, id))
        return ScatterAdd{type.getDimSize(dim)};
    }
  }
  return std::nullopt;
}

bool RoleAnalysis::isWeightGradient(
    const Contraction &c, const DenseSet<Value> &leftOperandSources) const {
  if (!c.supported || c.numBatch != 0 || c.mDims.size() != 1)
    return false;
  // linalg::LinalgOp's accessors are not const: a copy of the handle.
  linalg::LinalgOp lop = c.op;
  Value a = lop.getDpsInputOperand(0)->get();
  Value b = lop.getDpsInputOperand(1)->get();
  if (!contractsLeadingDim(a, c.aKLast) || !contractsLeadingDim(b, c.bNK))
    return false;
  // A product of two activations over the tokens that is a parameter's
  // gradient: it is returned (split backward, or an optimizer step in the
  // graph), or one operand is also a left operand elsewhere (dY of a dgrad,
  // X of an fprop).
  return reachesReturn(c.op) || leftOperandSources.contains(traceSource(a)) ||
         leftOperandSources.contains(traceSource(b));
}

bool RoleAnalysis::descendsFrom(Value v, Value from) const {
  SmallVector<Value> work{v};
  DenseSet<Value> seen{v};
  bool found = false;
  auto visit = [&](Value in) {
    found |= in == from;
    if (seen.insert(in).second)
      work.push_back(in);
  };
  while (!work.empty() && !found && seen.size() < kMaxDescentSearchValues) {
    Operation *def = work.pop_back_val().getDefiningOp();
    if (!def)
      continue;
    for (Value in : def->getOperands())
      visit(in);
    // Values a region captures from above (a gather's table) are read too.
    def->walk([&](Operation *inner) {
      for (Value in : inner->getOperands())
        if (!def->isAncestor(in.getParentRegion()->getParentOp()))
          visit(in);
    });
  }
  return found;
}

Value RoleAnalysis::gradientOperand(
    Value p, Value q, const DenseMap<Value, int64_t> &firstReader) const {
  // 1. The forward never reads a gradient: an operand computed from the
  //    other is dY (the loss gradient computed in the graph descends from
  //    the forward's outputs, hence from X).
  if (descendsFrom(q, p))
    return q;
  if (descendsFrom(p, q))
    return p;
  // 2. Both read by contractions with a weight (X by the fprop, dY by the
  //    dgrad): the backward follows the forward, so dY's reader is the
  //    later one. This decides a joint graph whose dY is a tangent argument,
  //    where arguments say nothing about the order.
  auto rp = firstReader.find(p), rq = firstReader.find(q);
  if (rp != firstReader.end() && rq != firstReader.end() &&
      rp->second != rq->second)
    return rp->second < rq->second ? q : p;
  // 3. Program order of the definitions (definedBefore: entry-block
  //    arguments first, by index): aot_autograd passes saved activations
  //    before tangents, and computes a gradient after the activation it is
  //    paired with.
  return definedBefore(p, q) ? q : p;
}

bool RoleAnalysis::isLossGradient(Value dY) const {
  SmallVector<Value> work{dY};
  DenseSet<Value> seen{dY};
  while (!work.empty()) {
    if (seen.size() >= kMaxDescentSearchValues)
      return false;
    Operation *def = work.pop_back_val().getDefiningOp();
    if (!def)
      continue;
    if (weightContractions.contains(def)) {
      // A contraction with a weight ends the walk: a dgrad means dY came
      // through a later layer; an fprop is where the loss begins (the
      // logits of a joint graph).
      auto kind = gemmKinds.find(def);
      if (kind != gemmKinds.end() && kind->second == GemmKind::dgrad)
        return false;
      continue;
    }
    // Through everything else, attention's contractions included.
    for (Value in : def->getOperands())
      if (seen.insert(in).second)
        work.push_back(in);
  }
  return true;
}

std::optional<unsigned>
RoleAnalysis::getWgradGradientOperand(Operation *op) const {
  auto it = wgradGradientIndex.find(op);
  if (it == wgradGradientIndex.end())
    return std::nullopt;
  return it->second;
}

/// The operands of a contraction with a weight: the weight (the right one
/// unless only the left one is a parameter, as classified) and the
/// activation.
static std::pair<Value, Value> splitWeightOperands(Operation *op) {
  auto lop = cast<linalg::LinalgOp>(op);
  Value a = lop.getDpsInputOperand(0)->get();
  Value b = lop.getDpsInputOperand(1)->get();
  return getWeightSource(b) != WeightSource::none ? std::make_pair(b, a)
                                                  : std::make_pair(a, b);
}

/// What the steps of classifyTrainingGemms share: the data flow of one
/// function's contractions with a weight and weight gradients.
struct RoleAnalysis::TrainingPairing {
  /// The two operand sources of each weight gradient.
  SmallVector<std::pair<Value, Value>> wgradSources;
  /// The source of dY of each weight gradient (one of its two sources).
  SmallVector<Value> wgradGradients;
  /// The activation source of each contraction with a weight.
  DenseMap<Operation *, Value> activationSource;
  /// The largest embedding table's rows: the vocabulary (position and
  /// token-type tables, BERT: 512 and 2 rows, have the sizes of hidden
  /// dimensions).
  int64_t largestVocab = 0;

  bool isVocab(int64_t n) const {
    return !ShapedType::isDynamic(n) && (n == largestVocab || n >= kMinVocab);
  }
};

void RoleAnalysis::pairTrainingOperands(ArrayRef<Operation *> weightLinears,
                                        ArrayRef<Operation *> weightGradients,
                                        TrainingPairing &p) {
  for (Operation *op : weightGradients) {
    auto lop = cast<linalg::LinalgOp>(op);
    p.wgradSources.push_back({traceSource(lop.getDpsInputOperand(0)->get()),
                              traceSource(lop.getDpsInputOperand(1)->get())});
  }
  // The first contraction with a weight reading each activation (an fprop
  // reads X, a dgrad dY).
  DenseMap<Value, int64_t> firstReader;
  for (Operation *op : weightLinears) {
    Value s = traceSource(splitWeightOperands(op).second);
    p.activationSource[op] = s;
    firstReader.try_emplace(s, position.lookup(op));
  }
  // Which operand of each weight gradient is dY (the data flow; see
  // gradientOperand).
  for (auto [op, srcs] : llvm::zip_equal(weightGradients, p.wgradSources)) {
    Value g = gradientOperand(srcs.first, srcs.second, firstReader);
    p.wgradGradients.push_back(g);
    wgradGradientIndex[op] = g == srcs.first ? 0 : 1;
  }
}

void RoleAnalysis::classifyFpropsAndDgrads(ArrayRef<Operation *> weightLinears,
                                           const TrainingPairing &p) {
  // fprop or dgrad: what the weight gradient sharing the activation pairs
  // it with (its activation is that GEMM's dY: a dgrad), else the order of
  // the contractions with the same weight.
  DenseMap<WeightView, Operation *> firstUse;
  for (Operation *op : weightLinears) {
    Value w = splitWeightOperands(op).first;
    Value s = p.activationSource.lookup(op);
    std::optional<GemmKind> kind;
    for (auto [srcs, g] : llvm::zip_equal(p.wgradSources, p.wgradGradients)) {
      if (srcs.first != s && srcs.second != s)
        continue;
      kind = g == s ? GemmKind::dgrad : GemmKind::fprop;
      break;
    }
    auto [it, inserted] = firstUse.try_emplace(getWeightView(w), op);
    if (!kind && !inserted &&
        getWeightSource(w) == WeightSource::functionArgument &&
        contractsAlongOtherDim(it->second, op))
      kind = GemmKind::dgrad;
    if (kind)
      gemmKinds[op] = *kind;
  }
}

/// A later contraction with the same weight, contracting it along the
/// other dimension: the activation gradient of the first. Only for
/// parameters passed as arguments (as aot_autograd passes them): exporters
/// merge identical splat constants (CSE), so one constant may be the weight
/// of unrelated layers.
bool RoleAnalysis::contractsAlongOtherDim(Operation *first,
                                          Operation *later) const {
  auto contractsLeading = [&](Operation *op) {
    const Contraction &c = contractions.find(op)->second;
    Value w = splitWeightOperands(op).first;
    Value right = cast<linalg::LinalgOp>(op).getDpsInputOperand(1)->get();
    return contractsLeadingDim(w, w == right ? c.bNK : c.aKLast);
  };
  return contractsLeading(first) != contractsLeading(later);
}

void RoleAnalysis::decideDgradRoles(ArrayRef<Operation *> weightLinears,
                                    const TrainingPairing &p) {
  // A dgrad takes its fprop's role (the same weight in a joint graph), else
  // gating or output_head from a split forward's parameter or the
  // vocabulary.
  DenseMap<WeightView, Operation *> fpropOfWeight;
  for (Operation *op : weightLinears)
    if (!gemmKinds.count(op) || gemmKinds[op] == GemmKind::fprop)
      fpropOfWeight.try_emplace(getWeightView(splitWeightOperands(op).first),
                                op);
  for (Operation *op : weightLinears) {
    auto kind = gemmKinds.find(op);
    if (kind == gemmKinds.end() || kind->second != GemmKind::dgrad)
      continue;
    const Contraction &c = contractions.find(op)->second;
    Value w = splitWeightOperands(op).first;
    WeightView wView = getWeightView(w);
    std::string source = stringifyWeightSource(getWeightSource(w)).str();
    RoleDecision d{Role::linear,
                   "heuristic: activation gradient dX = dY * W of a linear "
                   "(weight: " +
                       source + ")"};
    auto fp = fpropOfWeight.find(wView);
    if (fp != fpropOfWeight.end() && fp->second != op) {
      // The fprop of the same weight decided the layer (a vocabulary-sized
      // linear that is not the head stays a linear).
      if (getDecision(fp->second).role != Role::linear) {
        d.role = getDecision(fp->second).role;
        d.reason = "heuristic: activation gradient of the " +
                   stringifyRole(d.role).str() + " linear sharing its weight";
      }
    } else if (auto key = parameterKey(wView);
               key && gatingParameters.count(*key)) {
      // A split backward: the router's fprop, in the forward function,
      // reads the same parameter (by name and type).
      d.role = Role::gating;
      d.reason = "heuristic: activation gradient of the gating linear of "
                 "the same parameter (" +
                 cast<NameLoc>(cast<BlockArgument>(wView.base).getLoc())
                     .getName()
                     .str() +
                 ") in another function";
    } else if (p.isVocab(c.k) &&
               isLossGradient(p.activationSource.lookup(op))) {
      // No fprop here (a split backward): the head's Dgrad is the one
      // whose dY is the loss gradient.
      d.role = Role::output_head;
      d.reason = "heuristic: activation gradient of a vocabulary-sized "
                 "linear (contraction over " +
                 shapeString(c.k) + ")";
    }
    decisions[op] = d;
    gatingOps.erase(op);
  }
}

void RoleAnalysis::decideWgradRoles(ArrayRef<Operation *> weightLinears,
                                    ArrayRef<Operation *> weightGradients,
                                    const TrainingPairing &p) {
  for (auto [op, g] : llvm::zip_equal(weightGradients, p.wgradGradients)) {
    gemmKinds[op] = GemmKind::wgrad;
    const Contraction &c = contractions.find(op)->second;
    RoleDecision d{Role::linear, "heuristic: weight gradient dW = dY^T * X "
                                 "(contraction over the " +
                                     shapeString(c.k) + " tokens)"};
    // The dgrad sharing dY names the layer.
    Operation *dgrad = nullptr;
    for (Operation *l : weightLinears) {
      auto k = gemmKinds.find(l);
      if (k != gemmKinds.end() && k->second == GemmKind::dgrad &&
          p.activationSource.lookup(l) == g)
        dgrad = l;
    }
    // The layer of the dgrad sharing dY, else (no dgrad: a split backward,
    // or a first layer) the head's when dY is the loss gradient: a
    // vocabulary-sized linear that is not the head stays a linear.
    Role dgradRole = dgrad ? getDecision(dgrad).role : Role::linear;
    if ((p.isVocab(c.m) || p.isVocab(c.n)) &&
        (dgrad ? dgradRole == Role::output_head : isLossGradient(g))) {
      d.role = Role::output_head;
      d.reason = "heuristic: weight gradient of a vocabulary-sized linear "
                 "(" +
                 shapeString({c.m, c.n}) + ")";
    } else if (dgradRole != Role::linear) {
      d.role = dgradRole;
      d.reason = "heuristic: weight gradient of the " +
                 stringifyRole(d.role).str() + " linear whose dgrad shares dY";
    }
    decisions[op] = d;
  }
}

void RoleAnalysis::classifyTrainingGemms(ArrayRef<Operation *> ops,
                                         ArrayRef<Operation *> weightLinears,
                                         ArrayRef<Operation *> weightGradients,
                                         const DenseSet<int64_t> &vocab) {
  (void)ops;
  TrainingPairing p;
  for (int64_t v : vocab)
    p.largestVocab = std::max(p.largestVocab, v);
  pairTrainingOperands(weightLinears, weightGradients, p);
  classifyFpropsAndDgrads(weightLinears, p);
  // The role of each gradient GEMM is its layer's; the gradients of
  // sensitive linears (output head, gating) stay high precision with them.
  decideDgradRoles(weightLinears, p);
  decideWgradRoles(weightLinears, weightGradients, p);
  training |= !weightGradients.empty() || llvm::any_of(gemmKinds, [](auto &kv) {
    return kv.second == GemmKind::dgrad;
  });
}

std::optional<GemmKind> RoleAnalysis::getGemmKind(Operation *op) const {
  if (!training)
    return std::nullopt;
  auto it = gemmKinds.find(op);
  if (it != gemmKinds.end())
    return it->second;
  if (weightContractions.contains(op))
    return GemmKind::fprop;
  return std::nullopt;
}
