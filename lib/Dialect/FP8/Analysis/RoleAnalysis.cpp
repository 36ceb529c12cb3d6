//===- RoleAnalysis.cpp - roles of the ops of a model graph ---------------===//
#include "fp8/Dialect/FP8/Analysis/RoleAnalysis.h"
#include "fp8/Dialect/FP8/Analysis/BatchBroadcast.h"
#include "fp8/Dialect/FP8/IR/ShapeString.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace mlir::fp8;

/// True when `map`'s results are exactly the loop dims `dims`, in order.
static bool resultsAre(AffineMap map, ArrayRef<unsigned> dims) {
  if (map.getNumResults() != dims.size())
    return false;
  for (auto [expr, d] : llvm::zip_equal(map.getResults(), dims)) {
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (!dim || dim.getPosition() != d)
      return false;
  }
  return true;
}

bool fp8::hasMulAddBody(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  return body && llvm::all_of(body->getOperations(), [](Operation &o) {
           return o.getNumOperands() != 1 ||
                  isa<linalg::YieldOp, arith::ExtFOp, arith::TruncFOp,
                      arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp,
                      arith::SIToFPOp, arith::UIToFPOp>(o);
         });
}

std::optional<Contraction> fp8::matchContraction(Operation *op) {
  auto lop = dyn_cast<linalg::LinalgOp>(op);
  if (!lop || !lop.hasPureTensorSemantics() || lop.getNumDpsInputs() != 2 ||
      lop.getNumDpsInits() != 1 || !linalg::isaContractionOpInterface(lop) ||
      !hasMulAddBody(lop))
    return std::nullopt;
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(lop);
  if (failed(dims) || dims->n.size() != 1 || dims->k.size() != 1 ||
      dims->m.empty())
    return std::nullopt;

  Contraction c;
  c.op = lop;
  c.numBatch = dims->batch.size();
  llvm::append_range(c.mDims, dims->batch);
  llvm::append_range(c.mDims, dims->m);
  c.nDim = dims->n.front();
  c.kDim = dims->k.front();
  SmallVector<int64_t> ranges = lop.getStaticLoopRanges();
  c.m = 1;
  for (unsigned d : c.mDims) {
    if (ShapedType::isDynamic(ranges[d]) || ShapedType::isDynamic(c.m))
      c.m = ShapedType::kDynamic;
    else
      c.m *= ranges[d];
  }
  c.n = ranges[c.nDim];
  c.k = ranges[c.kDim];

  SmallVector<AffineMap> maps = lop.getIndexingMapsArray();
  SmallVector<unsigned> aKLast(c.mDims);
  SmallVector<unsigned> batch(dims->batch.begin(), dims->batch.end());
  aKLast.push_back(c.kDim);
  SmallVector<unsigned> bNK(batch), bKN(batch);
  bNK.append({c.nDim, c.kDim});
  bKN.append({c.kDim, c.nDim});
  SmallVector<unsigned> out(c.mDims);
  out.push_back(c.nDim);

  if (resultsAre(maps[0], aKLast)) {
    c.aKLast = true;
  } else if (c.numBatch == 0 && c.mDims.size() == 1 &&
             resultsAre(maps[0], {c.kDim, c.mDims[0]})) {
    c.aKLast = false;
  } else {
    c.unsupportedReason = "operand A is not stored [M..., K] or [K, M]";
    return c;
  }
  if (resultsAre(maps[1], bNK)) {
    c.bNK = true;
  } else if (resultsAre(maps[1], bKN)) {
    c.bNK = false;
  } else {
    c.unsupportedReason = "operand B is not stored [N, K] or [K, N]";
    return c;
  }
  if (!resultsAre(maps[2], out)) {
    c.unsupportedReason = "the result is not stored [M..., N]";
    return c;
  }
  c.supported = true;
  return c;
}

/// A linalg.generic that only yields its single input: a copy, transpose or
/// broadcast written out by an exporter (torch-mlir does this for
/// `aten.t`, `expand` and `contiguous`).
static bool isCopyGeneric(linalg::GenericOp g) {
  if (g.getNumDpsInputs() != 1 || g.getNumDpsInits() != 1 ||
      g.getNumReductionLoops() != 0)
    return false;
  Block &body = g.getRegion().front();
  auto yield = dyn_cast<linalg::YieldOp>(body.getTerminator());
  return yield && body.getOperations().size() == 1 &&
         yield.getNumOperands() == 1 &&
         yield.getOperand(0) == body.getArgument(0);
}

/// A linalg.generic that only converts the float type of its single input:
/// the body is one arith.extf or arith.truncf of the input, yielded
/// (torch-mlir's autocast `weight.to(bf16)`, a router's `x.float()`). The
/// loops may also transpose or broadcast, as a copy generic's do.
static bool isCastGeneric(linalg::GenericOp g) {
  if (g.getNumDpsInputs() != 1 || g.getNumDpsInits() != 1 ||
      g.getNumReductionLoops() != 0)
    return false;
  Block &body = g.getRegion().front();
  auto yield = dyn_cast<linalg::YieldOp>(body.getTerminator());
  if (!yield || body.getOperations().size() != 2 || yield.getNumOperands() != 1)
    return false;
  Operation *cast = yield.getOperand(0).getDefiningOp();
  return isa_and_nonnull<arith::ExtFOp, arith::TruncFOp>(cast) &&
         cast->getOperand(0) == body.getArgument(0);
}

bool fp8::isValuePreserving(Operation *op) {
  if (isDataMovement(op))
    return true;
  auto g = dyn_cast_or_null<linalg::GenericOp>(op);
  return g && isCastGeneric(g);
}

bool fp8::isDataMovement(Operation *op) {
  if (!op)
    return false;
  if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp, tensor::ReshapeOp,
          tensor::CastOp, tensor::ExtractSliceOp, linalg::TransposeOp,
          linalg::BroadcastOp, linalg::CopyOp>(op))
    return true;
  if (isa<arith::ExtFOp, arith::TruncFOp>(op))
    return isa<RankedTensorType>(op->getResult(0).getType());
  if (auto g = dyn_cast<linalg::GenericOp>(op))
    return isCopyGeneric(g);
  StringRef name = op->getName().getStringRef();
  return name == "tosa.reshape" || name == "tosa.transpose" ||
         name == "tosa.cast";
}

Value fp8::traceSource(Value v, TraceInfo *info) {
  for (unsigned steps = 0; steps < kMaxTraceSteps; ++steps) {
    Operation *def = v.getDefiningOp();
    if (!isValuePreserving(def))
      return v;
    if (auto t = dyn_cast<linalg::TransposeOp>(def)) {
      if (info)
        info->transpose = true;
      v = t.getInput();
      continue;
    }
    if (auto b = dyn_cast<linalg::BroadcastOp>(def)) {
      if (info)
        info->broadcast = true;
      v = b.getInput();
      continue;
    }
    if (auto g = dyn_cast<linalg::GenericOp>(def)) {
      AffineMap in = g.getIndexingMapsArray()[0];
      AffineMap out = g.getIndexingMapsArray()[1];
      if (info) {
        // A loop the input does not index is a broadcast; loops indexed in
        // another order than the output are a transpose.
        if (in.getNumResults() < out.getNumResults())
          info->broadcast = true;
        SmallVector<unsigned> inDims, outDims;
        for (AffineExpr e : in.getResults())
          if (auto d = dyn_cast<AffineDimExpr>(e))
            inDims.push_back(d.getPosition());
        for (AffineExpr e : out.getResults())
          if (auto d = dyn_cast<AffineDimExpr>(e))
            if (llvm::is_contained(inDims, d.getPosition()))
              outDims.push_back(d.getPosition());
        if (inDims != outDims)
          info->transpose = true;
      }
      v = g.getDpsInputOperand(0)->get();
      continue;
    }
    if (def->getName().getStringRef() == "tosa.transpose" && info)
      info->transpose = true;
    v = def->getOperand(0);
  }
  return v;
}

StringRef fp8::stringifyWeightSource(WeightSource source) {
  switch (source) {
  case WeightSource::functionArgument:
    return "function argument";
  case WeightSource::constant:
    return "constant";
  case WeightSource::global:
    return "global";
  case WeightSource::none:
    break;
  }
  return "";
}

WeightSource fp8::getWeightSource(Value v) {
  Value src = traceSource(v);
  if (auto arg = dyn_cast<BlockArgument>(src)) {
    Operation *parent = arg.getOwner()->getParentOp();
    if (isa_and_nonnull<FunctionOpInterface>(parent) &&
        arg.getOwner()->isEntryBlock())
      return WeightSource::functionArgument;
    return WeightSource::none;
  }
  Operation *def = src.getDefiningOp();
  if (!def)
    return WeightSource::none;
  if (def->hasTrait<OpTrait::ConstantLike>())
    return WeightSource::constant;
  StringRef name = def->getName().getStringRef();
  // IREE's torch and StableHLO imports keep parameters in util.global.
  if (name == "ml_program.global_load" ||
      name == "ml_program.global_load_const" || name == "util.global.load" ||
      name == "bufferization.to_tensor")
    return WeightSource::global;
  return WeightSource::none;
}

bool fp8::isReduction(Operation *op) {
  auto lop = dyn_cast<linalg::LinalgOp>(op);
  return lop && lop.getNumReductionLoops() > 0 && !matchContraction(op);
}

/// A sort-free top-k: a reduction over the last dim of its input that
/// takes a maximum (`arith.maximumf` / `maxnumf`) or compares (an argmax's
/// compare-and-select), as exporters write `topk(k=1)`, `argmax` and the
/// max of a top-k mask (`logits == max(logits, -1)`) without a sort.
static bool isMaxOverLastDim(Operation *op) {
  auto lop = dyn_cast<linalg::LinalgOp>(op);
  if (!lop || !isReduction(op) || lop.getNumDpsInputs() == 0)
    return false;
  AffineMap in = lop.getMatchingIndexingMap(lop.getDpsInputOperand(0));
  if (in.getNumResults() == 0)
    return false;
  auto last = dyn_cast<AffineDimExpr>(in.getResults().back());
  if (!last || lop.getIteratorTypesArray()[last.getPosition()] !=
                   utils::IteratorType::reduction)
    return false;
  bool found = false;
  op->walk([&](Operation *inner) {
    found |= isa<arith::MaximumFOp, arith::MaxNumFOp, arith::CmpFOp>(inner);
  });
  return found;
}

/// True when a result of `op` is the indices of a selection over the last
/// dim of a float operand [..., E]: an integer tensor [..., k] with k <= E
/// (top-k's indices) or [...] (argmax's), the leading dims the operand's.
static bool returnsIndicesOverLastDim(Operation *op) {
  for (Value in : op->getOperands()) {
    auto it = dyn_cast<RankedTensorType>(in.getType());
    if (!it || it.getRank() == 0 || !isa<FloatType>(it.getElementType()))
      continue;
    ArrayRef<int64_t> lead = it.getShape().drop_back();
    int64_t e = it.getShape().back();
    for (Type t : op->getResultTypes()) {
      auto rt = dyn_cast<RankedTensorType>(t);
      if (!rt || !isa<IntegerType, IndexType>(rt.getElementType()))
        continue;
      ArrayRef<int64_t> shape = rt.getShape();
      if (shape == lead)
        return true;
      if (shape.size() == lead.size() + 1 && shape.drop_back() == lead &&
          !ShapedType::isDynamic(shape.back()) &&
          (ShapedType::isDynamic(e) || shape.back() <= e))
        return true;
    }
  }
  return false;
}

/// A call is softmax-like by what it does, never by its callee's name: a
/// callee defined in the module holding a softmax-like op (one level: no
/// call inside it is followed), or any callee returning the indices of a
/// selection over its input's last dim (a top-k or argmax exported as a
/// function: a custom op, a library routine).
static bool isSoftmaxLikeCall(CallOpInterface call) {
  if (returnsIndicesOverLastDim(call))
    return true;
  auto callee =
      dyn_cast_if_present<FunctionOpInterface>(call.resolveCallable());
  if (!callee || callee.isExternal())
    return false;
  bool found = false;
  callee->walk([&](Operation *inner) {
    if (!isa<CallOpInterface>(inner) && inner != callee.getOperation() &&
        isSoftmaxLike(inner))
      found = true;
  });
  return found;
}

bool fp8::isSoftmaxLike(Operation *op) {
  // Ops of other dialects named for what they compute (tosa.sigmoid,
  // linalg.softmax when fp8-normalize-forms did not run, a custom topk op):
  // an explicit rule by op name (docs/policies.md, "gating").
  StringRef name = op->getName().getStringRef();
  if (name.contains_insensitive("topk") || name.contains_insensitive("top_k") ||
      name.contains_insensitive("softmax") ||
      name.contains_insensitive("sigmoid"))
    return true;
  if (auto call = dyn_cast<CallOpInterface>(op))
    return isSoftmaxLikeCall(call);
  if (!isa<linalg::LinalgOp>(op))
    return false;
  if (isMaxOverLastDim(op))
    return true;
  bool found = false;
  op->walk([&](math::ExpOp) { found = true; });
  return found;
}

/// The block argument of `body` (a token id read by the gather) that `index`
/// is computed from through index casts only; null when there is none.
static BlockArgument getDataIndexSource(Value index, Block &body) {
  for (unsigned i = 0; i < 4; ++i) {
    if (auto arg = dyn_cast<BlockArgument>(index))
      return arg.getOwner() == &body ? arg : BlockArgument();
    Operation *def = index.getDefiningOp();
    if (!isa_and_nonnull<arith::IndexCastOp, arith::IndexCastUIOp>(def))
      return {};
    index = def->getOperand(0);
  }
  return {};
}

/// True when `ex`, read in `g` at data index `dataDim` whose value comes
/// from the element `ids` of one of its operands, picks one element per id
/// (`take_along_axis`: the cross-entropy's `logits[t, target[t]]`) rather
/// than an embedding's row: another index is the generic's own
/// `linalg.index` of a loop dimension `ids` varies over (the id's own row,
/// within which the id picks), and none is the `linalg.index` of a loop
/// dimension `ids` does not vary over (the walk along a row, which an
/// embedding's output dimensions beside the token's are: [t, h] from
/// [vocab, h]).
static bool isElementPick(linalg::GenericOp g, tensor::ExtractOp ex,
                          unsigned dataDim, BlockArgument ids) {
  AffineMap idsMap = g.getMatchingIndexingMap(g.getMatchingOpOperand(ids));
  bool ownRow = false;
  for (auto [dim, index] : llvm::enumerate(ex.getIndices())) {
    if (dim == dataDim)
      continue;
    while (isa_and_nonnull<arith::IndexCastOp, arith::IndexCastUIOp>(
        index.getDefiningOp()))
      index = index.getDefiningOp()->getOperand(0);
    auto loopIndex = index.getDefiningOp<linalg::IndexOp>();
    if (!loopIndex)
      continue;
    if (!idsMap.isFunctionOfDim(loopIndex.getDim()))
      return false; // walks a row: an embedding's read
    ownRow = true;
  }
  return ownRow;
}

std::optional<Gather> fp8::matchGather(Operation *op) {
  auto g = dyn_cast<linalg::GenericOp>(op);
  if (!g)
    return std::nullopt;
  std::optional<Gather> gather;
  Block &body = g.getRegion().front();
  g.getRegion().walk([&](tensor::ExtractOp ex) {
    Value t = ex.getTensor();
    // The table is captured from above (not an operand of the generic), and
    // one index is computed from the generic's input (the token ids): that
    // dimension is the vocabulary, whatever the table's rank (TOSA exports
    // gather from a [1, V, H] reshape of the [V, H] table). An element pick
    // reads no row of a table: not an embedding.
    if (!t.getParentRegion()->isProperAncestor(&g.getRegion()))
      return;
    for (auto [dim, index] : llvm::enumerate(ex.getIndices()))
      if (BlockArgument ids = getDataIndexSource(index, body)) {
        if (isElementPick(g, ex, dim, ids))
          return;
        int64_t vocab = cast<RankedTensorType>(t.getType()).getDimSize(dim);
        gather = Gather{t, vocab};
        return;
      }
  });
  return gather;
}

Type fp8::getComputeElementType(Operation *op) {
  for (Type t : op->getResultTypes())
    if (auto st = dyn_cast<ShapedType>(t))
      return st.getElementType();
  for (Type t : op->getOperandTypes())
    if (auto st = dyn_cast<ShapedType>(t))
      return st.getElementType();
  return {};
}

bool fp8::definedBefore(Value x, Value y) {
  auto ax = dyn_cast<BlockArgument>(x), ay = dyn_cast<BlockArgument>(y);
  if (ax && ay)
    return ax.getArgNumber() < ay.getArgNumber();
  if (ax || ay)
    return static_cast<bool>(ax);
  Operation *dx = x.getDefiningOp(), *dy = y.getDefiningOp();
  return dx->getBlock() == dy->getBlock() && dx->isBeforeInBlock(dy);
}

//===----------------------------------------------------------------------===//
// RoleAnalysis
//===----------------------------------------------------------------------===//

namespace {
/// The tensor inputs of an op as the region walks see them: DPS inputs of a
/// linalg op, the source of a reshape-like op.
SmallVector<Value> dataInputs(Operation *op) {
  if (auto lop = dyn_cast<linalg::LinalgOp>(op)) {
    SmallVector<Value> v;
    for (OpOperand *o : lop.getDpsInputOperands())
      v.push_back(o->get());
    return v;
  }
  if (op->getNumOperands() == 0)
    return {};
  return {op->getOperand(0)};
}

int64_t numElements(Value v) {
  auto t = dyn_cast<ShapedType>(v.getType());
  if (!t || !t.hasStaticShape())
    return -1;
  return t.getNumElements();
}

/// A parameter broadcast into an elementwise op (LayerNorm gamma/beta, a
/// bias): weight-like and smaller than the op's result.
bool isBroadcastParameter(Value v, Operation *user) {
  if (getWeightSource(v) == WeightSource::none || user->getNumResults() == 0)
    return false;
  int64_t n = numElements(v), r = numElements(user->getResult(0));
  return n >= 0 && r >= 0 && n < r;
}

/// True when `v` is a function argument whose `numBatch` leading dims are 1,
/// read as it is (no broadcast on the way): [1, S, D], [1, K, N].
bool isUnitBatchArgument(Value v, unsigned numBatch) {
  auto t = dyn_cast<ShapedType>(v.getType());
  if (!t || !t.hasRank() || t.getRank() < int64_t(numBatch) ||
      getWeightSource(v) != WeightSource::functionArgument ||
      isBroadcastOverBatch(v, numBatch))
    return false;
  return llvm::all_of(t.getShape().take_front(numBatch),
                      [](int64_t d) { return d == 1; });
}

bool bodyHas(Operation *op, function_ref<bool(Operation *)> pred) {
  bool found = false;
  op->walk([&](Operation *inner) {
    if (inner != op && pred(inner))
      found = true;
  });
  return found;
}

/// True when `v` is memory the caller passed in: a memref argument of the
/// enclosing function's entry block, or a view of one (subview, cast,
/// reshape).
bool isCallerMemory(Value v) {
  while (auto view = v.getDefiningOp<ViewLikeOpInterface>())
    v = view.getViewSource();
  auto arg = dyn_cast<BlockArgument>(v);
  if (!arg || !isa<BaseMemRefType>(arg.getType()))
    return false;
  Block *owner = arg.getOwner();
  return owner->isEntryBlock() &&
         isa<FunctionOpInterface>(owner->getParentOp());
}

/// True when `user` hands what it reads out of its function: a return, or
/// a write into the caller's memory. A destination-passing function (its
/// results written into memref arguments with
/// bufferization.materialize_in_destination, memref.copy or a linalg op on
/// buffers, as MLIR's own `@run` entry points and IREE-style exports have
/// them) has no results, so a result is whatever reaches such a write.
bool handsOut(Operation *user) {
  if (user->hasTrait<OpTrait::ReturnLike>())
    return isa<FunctionOpInterface>(user->getParentOp());
  auto memory = dyn_cast<MemoryEffectOpInterface>(user);
  if (!memory)
    return false;
  SmallVector<MemoryEffects::EffectInstance> effects;
  memory.getEffects(effects);
  return llvm::any_of(effects, [](const MemoryEffects::EffectInstance &e) {
    return isa<MemoryEffects::Write>(e.getEffect()) && e.getValue() &&
           isCallerMemory(e.getValue());
  });
}

} // namespace

bool RoleAnalysis::reachesReturn(Operation *op) const {
  SmallVector<Operation *> work{op};
  DenseSet<Operation *> seen{op};
  while (!work.empty() && seen.size() < kMaxReturnSearchOps) {
    Operation *cur = work.pop_back_val();
    for (Operation *user : cur->getUsers()) {
      if (handsOut(user))
        return true;
      if (isContraction(user) || !seen.insert(user).second)
        continue;
      work.push_back(user);
    }
  }
  return false;
}

bool RoleAnalysis::endsForward(Operation *op, const WeightView &weight,
                               Value input) const {
  Value inputSource = traceSource(input);
  // The head's own gradients: its Dgrad reads the same weight, its Wgrad
  // the same input and no weight.
  auto ownGradient = [&](Operation *user) {
    bool readsInput = false, readsWeight = false;
    for (OpOperand *in : cast<linalg::LinalgOp>(user).getDpsInputOperands()) {
      Value v = in->get();
      bool isWeight = getWeightSource(v) != WeightSource::none;
      if (isWeight && getWeightView(v) == weight)
        return true;
      readsWeight |= isWeight;
      readsInput |= traceSource(v) == inputSource;
    }
    return readsInput && !readsWeight;
  };
  bool returned = false;
  SmallVector<Operation *> work{op};
  DenseSet<Operation *> seen{op};
  while (!work.empty()) {
    if (seen.size() >= kMaxReturnSearchOps)
      return false;
    Operation *cur = work.pop_back_val();
    for (Operation *user : cur->getUsers()) {
      if (handsOut(user)) {
        returned = true;
        continue;
      }
      if (!seen.insert(user).second)
        continue;
      if (isContraction(user)) {
        // The next layer (or attention) reads it: not the last linear.
        if (!ownGradient(user))
          return false;
        continue;
      }
      work.push_back(user);
    }
  }
  return returned;
}

Operation *RoleAnalysis::feedsSoftmax(Operation *op) const {
  SmallVector<std::pair<Operation *, int>> work{{op, 0}};
  DenseSet<Operation *> seen{op};
  while (!work.empty()) {
    auto [cur, depth] = work.pop_back_val();
    for (Operation *user : cur->getUsers()) {
      if (isContraction(user) || !seen.insert(user).second)
        continue;
      if (isSoftmaxLike(user))
        return user;
      if (depth < int(kMaxSoftmaxSearchDepth))
        work.push_back({user, depth + 1});
    }
  }
  return nullptr;
}

Operation *RoleAnalysis::readsSoftmax(Value v) const {
  SmallVector<std::pair<Value, int>> work{{v, 0}};
  DenseSet<Operation *> seen;
  while (!work.empty()) {
    auto [cur, depth] = work.pop_back_val();
    Operation *def = cur.getDefiningOp();
    if (!def || isContraction(def) || !seen.insert(def).second)
      continue;
    if (isSoftmaxLike(def))
      return def;
    if (depth < int(kMaxSoftmaxSearchDepth))
      for (Value in : def->getOperands())
        work.push_back({in, depth + 1});
  }
  return nullptr;
}

/// The normalization around an rsqrt: its statistics chain back to the
/// reductions, the normalized input X those reduce, the ops between X and
/// the rsqrt, and the elementwise tail (x * rstd, gamma, beta).
void RoleAnalysis::findNormalization(Operation *r,
                                     llvm::SetVector<Operation *> &out) {
  auto inRegionKind = [&](Operation *op) {
    return op && !isContraction(op) &&
           (isa<linalg::LinalgOp>(op) || isDataMovement(op));
  };
  // A: the statistics chain, back from the rsqrt to the reductions.
  SmallVector<Operation *> reductions, work{r};
  DenseSet<Operation *> seen{r};
  while (!work.empty() && seen.size() < kMaxStatisticsOps) {
    Operation *cur = work.pop_back_val();
    for (Value in : dataInputs(cur)) {
      Operation *def = in.getDefiningOp();
      if (!inRegionKind(def) || !seen.insert(def).second)
        continue;
      if (isReduction(def))
        reductions.push_back(def);
      else
        work.push_back(def);
    }
  }
  if (reductions.empty())
    return;
  // B: the normalized input. Peel x*x / x^2 (RMSNorm) and x - mean(x)
  // (LayerNorm) off the reduction's input.
  auto reducesValue = [&](Value v, Value x) {
    SmallVector<Value> vals{v};
    for (unsigned i = 0; i < vals.size() && i < kMaxReducedValueSearch; ++i) {
      Operation *def = vals[i].getDefiningOp();
      if (!inRegionKind(def))
        continue;
      if (isReduction(def))
        return traceSource(dataInputs(def).front()) == traceSource(x);
      llvm::append_range(vals, dataInputs(def));
    }
    return false;
  };
  Value x = dataInputs(reductions.front()).front();
  for (unsigned step = 0; step < kMaxNormInputPeelSteps; ++step) {
    auto g = dyn_cast_or_null<linalg::GenericOp>(x.getDefiningOp());
    if (!g || g.getNumReductionLoops() != 0 || isContraction(g))
      break;
    SmallVector<Value> ins = dataInputs(g);
    llvm::SetVector<Value> distinct(ins.begin(), ins.end());
    if (distinct.size() == 1 && numElements(ins[0]) == numElements(x)) {
      x = ins[0];
      continue;
    }
    if (ins.size() == 2 &&
        bodyHas(g, [](Operation *o) { return isa<arith::SubFOp>(o); }) &&
        reducesValue(ins[1], ins[0]))
      x = ins[0];
    break;
  }
  // C: the ops between X and the rsqrt.
  llvm::SetVector<Operation *> slice;
  work = {r};
  slice.insert(r);
  while (!work.empty() && slice.size() < kMaxNormSliceOps) {
    Operation *cur = work.pop_back_val();
    for (Value in : dataInputs(cur)) {
      if (in == x)
        continue;
      Operation *def = in.getDefiningOp();
      if (inRegionKind(def) && slice.insert(def))
        work.push_back(def);
    }
  }
  SmallVector<Operation *> sorted(slice.begin(), slice.end());
  llvm::sort(sorted, [&](Operation *a, Operation *b) {
    return position.lookup(a) < position.lookup(b);
  });
  llvm::SetVector<Operation *> region;
  for (Operation *op : sorted)
    if (llvm::any_of(dataInputs(op), [&](Value v) {
          return v == x || region.contains(v.getDefiningOp());
        }))
      region.insert(op);
  if (!region.contains(r))
    return;
  // D: the elementwise tail after the rsqrt.
  work = {r};
  while (!work.empty() && region.size() < kMaxNormRegionOps) {
    Operation *cur = work.pop_back_val();
    for (Operation *user : cur->getUsers()) {
      if (region.contains(user) || !inRegionKind(user) || isReduction(user))
        continue;
      bool allKnown = llvm::all_of(dataInputs(user), [&](Value v) {
        return v == x || region.contains(v.getDefiningOp()) ||
               isBroadcastParameter(v, user);
      });
      if (!allKnown)
        continue;
      region.insert(user);
      work.push_back(user);
    }
  }
  // Copies at the end of the tail belong to whatever consumes them.
  bool changed = true;
  while (changed) {
    changed = false;
    for (Operation *op : llvm::to_vector(region)) {
      if (op == r || !isDataMovement(op))
        continue;
      if (llvm::none_of(op->getUsers(),
                        [&](Operation *u) { return region.contains(u); })) {
        region.remove(op);
        changed = true;
      }
    }
  }
  out.insert(region.begin(), region.end());
}

/// The ops on paths from contractions into an attention contraction:
/// head reshapes/transposes, RoPE, scaling, masking, softmax.
void RoleAnalysis::findAttentionRegion(Operation *att,
                                       llvm::SetVector<Operation *> &out) {
  llvm::SetVector<Operation *> slice;
  SmallVector<Operation *> work{att};
  while (!work.empty() && slice.size() < kMaxAttentionSliceOps) {
    Operation *cur = work.pop_back_val();
    for (Value in : dataInputs(cur)) {
      Operation *def = in.getDefiningOp();
      if (!def || isContraction(def) ||
          !(isa<linalg::LinalgOp>(def) || isDataMovement(def)))
        continue;
      if (slice.insert(def))
        work.push_back(def);
    }
  }
  SmallVector<Operation *> sorted(slice.begin(), slice.end());
  llvm::sort(sorted, [&](Operation *a, Operation *b) {
    return position.lookup(a) < position.lookup(b);
  });
  DenseSet<Operation *> reached;
  for (Operation *op : sorted) {
    bool fromContraction = false, fromLinear = false;
    for (Value v : dataInputs(op)) {
      Operation *def = v.getDefiningOp();
      if (reached.contains(def))
        fromContraction = true;
      if (def && isContraction(def)) {
        fromContraction = true;
        fromLinear |= !llvm::is_contained(attentionOps, def);
      }
    }
    if (!fromContraction)
      continue;
    reached.insert(op);
    // A bias add right after a projection belongs to the linear layer.
    bool biasAdd =
        fromLinear && !isDataMovement(op) &&
        llvm::any_of(dataInputs(op),
                     [&](Value v) { return isBroadcastParameter(v, op); }) &&
        llvm::all_of(dataInputs(op), [&](Value v) {
          Operation *def = v.getDefiningOp();
          return (def && isContraction(def)) || isBroadcastParameter(v, op);
        });
    if (!biasAdd)
      out.insert(op);
  }
}

RoleAnalysis::RoleAnalysis(Operation *root) {
  root->walk([&](FunctionOpInterface func) {
    if (!func.isExternal())
      analyzeFunction(func);
  });
}

const Contraction *RoleAnalysis::getContraction(Operation *op) const {
  auto it = contractions.find(op);
  return it == contractions.end() ? nullptr : &it->second;
}

RoleDecision RoleAnalysis::getDecision(Operation *op) const {
  auto it = decisions.find(op);
  if (it != decisions.end())
    return it->second;
  return {Role::other, "heuristic: no sensitive pattern"};
}

ArrayRef<Operation *>
RoleAnalysis::getLinalgOps(FunctionOpInterface func) const {
  auto it = linalgOps.find(func.getOperation());
  if (it == linalgOps.end())
    return {};
  return it->second;
}

bool RoleAnalysis::hasContraction(FunctionOpInterface func) const {
  return llvm::any_of(getLinalgOps(func),
                      [&](Operation *op) { return isContraction(op); });
}

/// The first decision for an op wins: embeddings, then contractions, then
/// normalizations, then attention regions.
void RoleAnalysis::decide(Operation *op, Role role, std::string reason) {
  decisions.try_emplace(op, RoleDecision{role, std::move(reason)});
}

void RoleAnalysis::analyzeFunction(FunctionOpInterface func) {
  SmallVector<Operation *> &ops = linalgOps[func.getOperation()];
  SmallVector<Operation *> loops;
  func->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == func.getOperation())
      return WalkResult::advance();
    position[op] = position.size();
    if (isa<LoopLikeOpInterface>(op))
      loops.push_back(op);
    if (!isa<linalg::LinalgOp>(op))
      return WalkResult::advance();
    ops.push_back(op);
    return WalkResult::skip(); // not the ops of a linalg body
  });
  for (Operation *op : ops)
    if (std::optional<Contraction> c = matchContraction(op))
      contractions[op] = *c;
  // A function without a contraction is not a model graph this analysis
  // understands: its ops get no decision.
  if (!hasContraction(func))
    return;

  classifyContractions(ops, loops);
  // Normalizations: around each rsqrt.
  for (Operation *op : ops) {
    if (isContraction(op) ||
        !bodyHas(op, [](Operation *o) { return isa<math::RsqrtOp>(o); }))
      continue;
    llvm::SetVector<Operation *> region;
    findNormalization(op, region);
    for (Operation *n : region)
      decide(n, Role::normalization,
             "heuristic: normalization (reduction + rsqrt: LayerNorm/RMSNorm)");
  }
  // Attention: the paths into each attention contraction.
  for (Operation *att : attentionOps) {
    llvm::SetVector<Operation *> region;
    findAttentionRegion(att, region);
    for (Operation *n : region)
      decide(n, Role::attention,
             "heuristic: between contractions feeding attention (softmax, "
             "scale, mask, RoPE, head reshapes)");
  }
}

void RoleAnalysis::classifyEmbeddings(ArrayRef<Operation *> ops,
                                      ArrayRef<Operation *> loops,
                                      DenseSet<int64_t> &vocab,
                                      DenseSet<WeightView> &tables) {
  // An embedding gradient written as a loop of row updates over the tokens
  // (the split backward has no gather: this is its vocabulary); the ops of
  // its body are the embedding's.
  for (Operation *loop : loops)
    if (std::optional<ScatterAdd> scatter = matchScatterAddLoop(loop)) {
      if (!ShapedType::isDynamic(scatter->vocab))
        vocab.insert(scatter->vocab);
      for (Operation *op : ops)
        if (loop->isProperAncestor(op))
          decide(op, Role::embedding,
                 "heuristic: row update of a loop scatter-adding into a "
                 "table at token ids (embedding gradient)");
    }
  for (Operation *op : ops)
    if (std::optional<Gather> gather = matchGather(op);
        gather && getWeightSource(gather->table) != WeightSource::none) {
      // Only a parameter is a table: rows gathered from a computed
      // activation (tokens picked per expert by a router's ids, an MoE
      // dispatch) are no embedding, and their row count no vocabulary.
      if (!ShapedType::isDynamic(gather->vocab))
        vocab.insert(gather->vocab);
      tables.insert(getWeightView(gather->table));
      decide(
          op, Role::embedding,
          "heuristic: gather from a " +
              shapeString(
                  cast<RankedTensorType>(gather->table.getType()).getShape()) +
              " table");
    } else if (std::optional<ScatterAdd> scatter = matchScatterAdd(op)) {
      // The embedding's gradient in a backward graph: its rows are the
      // vocabulary of the output head's gradients too.
      if (!ShapedType::isDynamic(scatter->vocab))
        vocab.insert(scatter->vocab);
      decide(op, Role::embedding,
             "heuristic: scatter-add into a table at token ids (embedding "
             "gradient)");
    }
}

void RoleAnalysis::classifyContractions(ArrayRef<Operation *> ops,
                                        ArrayRef<Operation *> loops) {
  // Embedding tables first: their vocabulary sizes, and the parameters they
  // come from (an output head tied to the table shares its weight).
  DenseSet<int64_t> vocab;
  DenseSet<WeightView> tables;
  classifyEmbeddings(ops, loops, vocab, tables);
  // Left operands of contractions (activations stored [M, K]): what a
  // weight gradient's operands are also used as.
  DenseSet<Value> leftOperandSources;
  for (Operation *op : ops) {
    auto it = contractions.find(op);
    if (it != contractions.end() && it->second.aKLast)
      leftOperandSources.insert(
          traceSource(it->second.op.getDpsInputOperand(0)->get()));
  }
  SmallVector<Operation *> weightLinears, weightGradients;
  // Contractions: linear (a weight operand) or attention (two activations).
  attentionOps.clear();
  gatingOps.clear();
  dispatchOps.clear();
  groupedOps.clear();
  expertCounts.clear();
  for (Operation *op : ops) {
    auto it = contractions.find(op);
    if (it == contractions.end())
      continue;
    Contraction &c = it->second;
    // A weight gradient has no weight operand, whatever its operands trace
    // back to (saved activations are arguments of a backward function).
    if (isWeightGradient(c, leftOperandSources)) {
      weightGradients.push_back(op);
      continue;
    }
    Value a = c.op.getDpsInputOperand(0)->get();
    Value b = c.op.getDpsInputOperand(1)->get();
    // With batch loops, a weight is shared by every batch: it must be
    // broadcast (a KV cache passed as an argument is not a weight). The
    // exception is a grouped linear, one batch dim with per-group weights
    // from a constant or global (MoE routed experts [E, K, N], DeepSeek-V3
    // §3.3: FP8 like every other linear); an argument that varies over the
    // batch stays ambiguous (a KV cache) and needs an override.
    bool grouped = false;
    auto isWeight = [&](Value v, bool right) -> WeightSource {
      WeightSource kind = getWeightSource(v);
      if (kind == WeightSource::none || c.numBatch == 0)
        return kind;
      auto t = cast<ShapedType>(v.getType());
      bool batchOne = true;
      for (unsigned i = 0; i < c.numBatch; ++i)
        batchOne &= t.getDimSize(i) == 1;
      if (batchOne || isBroadcastOverBatch(v, c.numBatch))
        return kind;
      if (right && c.numBatch == 1 && kind != WeightSource::functionArgument) {
        grouped = true;
        return kind;
      }
      // Per-expert weights passed as an argument (how torch-mlir exports
      // parameters): a grouped linear when the batch is the expert count of
      // a router and the tokens come from a dispatch (or from the previous
      // expert linear), or are every token broadcast to every expert (a
      // dense MoE, the gate applied at the combine); otherwise ambiguous
      // with a KV cache.
      if (right && c.numBatch == 1 && !t.isDynamicDim(0) &&
          expertCounts.contains(t.getDimSize(0)) &&
          (isBroadcastOverBatch(a, 1) ||
           llvm::any_of(getProducingContractions(a), [&](Operation *p) {
             return dispatchOps.contains(p) || groupedOps.contains(p);
           }))) {
        grouped = true;
        return kind;
      }
      return WeightSource::none;
    };
    WeightSource bKind = isWeight(b, true), aKind = isWeight(a, false);
    std::string reason;
    llvm::raw_string_ostream os(reason);
    if (bKind != WeightSource::none || aKind != WeightSource::none) {
      os << "heuristic: contraction with "
         << (grouped ? "per-group weights (" : "a weight (")
         << stringifyWeightSource(bKind == WeightSource::none ? aKind : bKind)
         << (bKind == WeightSource::none ? ", left operand)" : ")");
      Role role = Role::linear;
      // Only the operand taken as the weight: an activation that is also
      // gathered from (hidden states passed as an argument) is not a head.
      // The same elements of the same buffer as the table (WeightView.h):
      // another slice of a flat parameter buffer is another weight.
      Value weight = bKind != WeightSource::none ? b : a;
      WeightView weightView = getWeightView(weight);
      bool tied = tables.contains(weightView);
      if (tied) {
        // The embedding table reused as the output projection (tied
        // embeddings): an output head whatever its size or rank.
        role = Role::output_head;
        reason.clear();
        os << "heuristic: linear with the embedding table as its weight "
              "(tied output head)";
      } else if (!ShapedType::isDynamic(c.n) &&
                 (vocab.contains(c.n) || c.n >= kMinVocab) &&
                 endsForward(op, weightView, weight == b ? a : b)) {
        role = Role::output_head;
        reason.clear();
        os << "heuristic: vocabulary-sized linear (N = " << c.n
           << ") reaching a function result";
      } else if (!ShapedType::isDynamic(c.n) && !ShapedType::isDynamic(c.k) &&
                 c.n <= kMaxExperts && 4 * c.n <= c.k) {
        // Only the router linear is tagged: its softmax/sigmoid/top-k is an
        // elementwise/reduction op that keeps its own type anyway.
        if (feedsSoftmax(op)) {
          role = Role::gating;
          reason.clear();
          os << "heuristic: expert-count linear (N = " << c.n
             << ") feeding softmax/sigmoid/top-k";
        }
      }
      // An argument broadcast over the heads of attention scores (feeding a
      // softmax) or read with its probabilities (P * V) is a KV cache that
      // MQA/GQA shares between query heads (decode with the cache passed in),
      // not a weight: attention, kept high.
      if (role == Role::linear && c.numBatch > 0 && !grouped &&
          getWeightSource(weight) == WeightSource::functionArgument &&
          isBroadcastOverBatch(weight, c.numBatch) &&
          !llvm::all_of(cast<ShapedType>(weight.getType())
                            .getShape()
                            .take_front(c.numBatch),
                        [](int64_t d) { return d == 1; }) &&
          (feedsSoftmax(op) || readsSoftmax(weight == b ? a : b))) {
        decide(op, Role::attention,
               "heuristic: contraction with an argument broadcast over the "
               "heads next to a softmax (a KV cache shared by query heads)");
        attentionOps.push_back(op);
        continue;
      }
      // An MQA cache passed as [1, S, D] and read as it is (batch 1, the
      // query heads folded into M) has a weight's shape; attention's chain
      // tells it apart: a softmax between this contraction and another
      // reading such an argument (QK^T with the K cache, P * V with the V
      // cache). A [1, K, N] weight's linear feeding a softmax (a classifier)
      // has no such second contraction.
      if (role == Role::linear && c.numBatch > 0 && !grouped &&
          isUnitBatchArgument(weight, c.numBatch) &&
          isBetweenCacheContractions(op, weight == b ? a : b)) {
        decide(op, Role::attention,
               "heuristic: contraction with a unit-batch argument, a softmax "
               "between it and another such contraction (an MQA KV cache "
               "read without a broadcast)");
        attentionOps.push_back(op);
        continue;
      }
      if (role == Role::gating) {
        gatingOps.insert(op);
        expertCounts.insert(c.n);
        if (auto key = parameterKey(weightView))
          gatingParameters.insert(*key);
      }
      if (grouped)
        groupedOps.insert(op);
      weightLinears.push_back(op);
      weightContractions.insert(op);
      decide(op, role, reason);
    } else if (llvm::any_of(
                   llvm::concat<Operation *>(getProducingContractions(a),
                                             getProducingContractions(b)),
                   [&](Operation *p) { return gatingOps.contains(p); })) {
      // Tokens moved by the router's decisions (a top-k mask or routing
      // weights): MoE dispatch or combine, not attention.
      dispatchOps.insert(op);
      decide(op, Role::dispatch,
             "heuristic: contraction with the router's output (MoE token "
             "dispatch/combine)");
    } else {
      decide(op, Role::attention, "heuristic: contraction of two activations");
      attentionOps.push_back(op);
    }
  }
  classifyDenseCombines(ops);
  classifyTrainingGemms(ops, weightLinears, weightGradients, vocab);
}

/// A dense MoE's combine (y[t, h] = sum_e out[e, t, h] * gate[t, e]: every
/// expert's output weighted by the router's gate) is contraction-shaped but
/// no matmul (no M loop in the gate: matchContraction rejects it). Like the
/// routed combine it moves tokens by the router's decisions: dispatch. It
/// keeps its own type (fp8-assign-precision narrows only the contractions
/// fp8-insert-quant can rewrite).
void RoleAnalysis::classifyDenseCombines(ArrayRef<Operation *> ops) {
  for (Operation *op : ops) {
    auto lop = cast<linalg::LinalgOp>(op);
    if (isContraction(op) || lop.getNumDpsInputs() != 2 ||
        !linalg::isaContractionOpInterface(lop))
      continue;
    if (llvm::any_of(lop.getDpsInputs(), [&](Value v) {
          return llvm::any_of(getProducingContractions(v), [&](Operation *p) {
            return gatingOps.contains(p);
          });
        }))
      decide(op, Role::dispatch,
             "heuristic: weighted sum by the router's output over the "
             "experts (dense MoE combine)");
  }
}

bool RoleAnalysis::readsUnitBatchArgument(Operation *op) const {
  auto it = contractions.find(op);
  if (it == contractions.end())
    return false;
  linalg::LinalgOp lop = it->second.op;
  return llvm::any_of(lop.getDpsInputs(), [&](Value v) {
    return isUnitBatchArgument(v, it->second.numBatch);
  });
}

bool RoleAnalysis::isBetweenCacheContractions(Operation *op,
                                              Value activation) const {
  // Forward: the scores feed a softmax whose probabilities a contraction
  // with a unit-batch argument (the V cache) reads.
  if (Operation *softmax = feedsSoftmax(op)) {
    SmallVector<std::pair<Operation *, int>> work{{softmax, 0}};
    DenseSet<Operation *> seen{softmax};
    while (!work.empty()) {
      auto [cur, depth] = work.pop_back_val();
      for (Operation *user : cur->getUsers()) {
        if (user == op || !seen.insert(user).second)
          continue;
        if (isContraction(user)) {
          if (readsUnitBatchArgument(user))
            return true;
          continue;
        }
        if (depth < static_cast<int>(kMaxSoftmaxSearchDepth))
          work.push_back({user, depth + 1});
      }
    }
  }
  // Backward: the probabilities come from a softmax of the scores of a
  // contraction with a unit-batch argument (the K cache).
  if (Operation *softmax = readsSoftmax(activation))
    for (Value in : softmax->getOperands())
      for (Operation *p : getProducingContractions(in))
        if (p != op && readsUnitBatchArgument(p))
          return true;
  return false;
}

SmallVector<Operation *> RoleAnalysis::getProducingContractions(Value v) const {
  SmallVector<Operation *> found;
  SmallVector<Value> work{v};
  DenseSet<Operation *> seen;
  while (!work.empty() && seen.size() < kMaxProducerSearchOps) {
    Operation *def = work.pop_back_val().getDefiningOp();
    if (!def || !seen.insert(def).second)
      continue;
    if (isContraction(def)) {
      found.push_back(def);
      continue;
    }
    llvm::append_range(work, def->getOperands());
  }
  return found;
}
