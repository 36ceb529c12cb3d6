//===- GraphAnalysis.cpp - shared matchers for the fp8 graph passes -------===//
#include "GraphAnalysis.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::fp8;

int64_t Contraction::flops() const {
  if (ShapedType::isDynamic(m) || ShapedType::isDynamic(n) ||
      ShapedType::isDynamic(k))
    return 0;
  return 2 * m * n * k;
}

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

std::optional<Contraction> fp8::matchContraction(Operation *op) {
  auto lop = dyn_cast<linalg::LinalgOp>(op);
  if (!lop || !lop.hasPureTensorSemantics() || lop.getNumDpsInputs() != 2 ||
      lop.getNumDpsInits() != 1 || !linalg::isaContractionOpInterface(lop))
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
  for (unsigned steps = 0; steps < 64; ++steps) {
    Operation *def = v.getDefiningOp();
    if (!isDataMovement(def))
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

StringRef fp8::weightSourceKind(Value v) {
  Value src = traceSource(v);
  if (auto arg = dyn_cast<BlockArgument>(src)) {
    Operation *parent = arg.getOwner()->getParentOp();
    if (isa_and_nonnull<FunctionOpInterface>(parent) &&
        arg.getOwner()->isEntryBlock())
      return "function argument";
    return "";
  }
  Operation *def = src.getDefiningOp();
  if (!def)
    return "";
  if (def->hasTrait<OpTrait::ConstantLike>())
    return "constant";
  StringRef name = def->getName().getStringRef();
  if (name == "ml_program.global_load" ||
      name == "ml_program.global_load_const" ||
      name == "bufferization.to_tensor")
    return "global";
  return "";
}

bool fp8::isReduction(Operation *op) {
  auto lop = dyn_cast<linalg::LinalgOp>(op);
  return lop && lop.getNumReductionLoops() > 0 && !matchContraction(op);
}

bool fp8::isSoftmaxLike(Operation *op) {
  StringRef name = op->getName().getStringRef();
  if (name.contains_insensitive("topk") || name.contains_insensitive("top_k") ||
      name.contains_insensitive("softmax") ||
      name.contains_insensitive("sigmoid"))
    return true;
  if (auto call = dyn_cast<CallOpInterface>(op))
    if (auto sym = dyn_cast_if_present<SymbolRefAttr>(call.getCallableForCallee()))
      return sym.getLeafReference().getValue().contains_insensitive("topk");
  if (!isa<linalg::LinalgOp>(op))
    return false;
  bool found = false;
  op->walk([&](math::ExpOp) { found = true; });
  return found;
}

Value fp8::getGatherTable(Operation *op) {
  auto g = dyn_cast<linalg::GenericOp>(op);
  if (!g)
    return {};
  Value table;
  g.getRegion().walk([&](tensor::ExtractOp ex) {
    Value t = ex.getTensor();
    // The table is captured from above (not an operand of the generic), and
    // the index is computed from the generic's input (the token ids).
    if (!t.getParentRegion()->isProperAncestor(&g.getRegion()))
      return;
    if (cast<RankedTensorType>(t.getType()).getRank() != 2)
      return;
    table = t;
  });
  return table;
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
