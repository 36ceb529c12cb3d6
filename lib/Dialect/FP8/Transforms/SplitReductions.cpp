//===- SplitReductions.cpp - fp8-split-reductions -------------------------===//
//
// One reduction order for the CPU and a GPU row kernel: each float row sum
// becomes lane-strided partial sums and a fixed halving tree (Passes.td;
// docs/numerics.md, "Reduction order"). The CPU runs the result as loops,
// a GPU as R x lanes threads, then the tree: the same additions in the
// same order on both.
//
//===----------------------------------------------------------------------===//
#include "fp8/Dialect/FP8/IR/ReductionLanes.h"
#include "fp8/Dialect/FP8/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::fp8 {
#define GEN_PASS_DEF_FP8SPLITREDUCTIONSPASS
#include "fp8/Dialect/FP8/Transforms/Passes.h.inc"
} // namespace mlir::fp8

using namespace mlir;

namespace {

/// A row sum the pass splits: `reductionDim` (static size `size`) is the
/// innermost dimension of the inputs that read it; the body yields
/// `addf(acc, v)` (`accumulatorFirst`) or `addf(v, acc)`. With `max` it
/// yields `maximumf` instead: a row max, whose result no order changes
/// (only marked for the row kernel, never split).
struct RowSum {
  unsigned reductionDim;
  int64_t size;
  bool accumulatorFirst;
  arith::FastMathFlagsAttr fastmath;
  bool max = false;
  /// A column sum: some input reads the reduction as another dimension
  /// than its innermost (RMSNorm's weight gradient over the tokens). Split
  /// on every pipeline, never marked for the row kernel (a warp's lanes
  /// would read one column).
  bool column = false;
  /// Consecutive elements per lane and step (fp8-split-reductions'
  /// `vector`; 1 for a column sum, whose lanes read no contiguous run).
  int64_t vector = 1;
};

/// The body's sum (or, with `max`, row max): fp8::matchRowCombiner's
/// combiner of that kind.
std::optional<RowSum> matchSumBody(linalg::LinalgOp op, bool max) {
  std::optional<fp8::RowCombiner> combiner = fp8::matchRowCombiner(op);
  if (!combiner || combiner->max != max)
    return std::nullopt;
  RowSum sum;
  sum.accumulatorFirst = combiner->accumulatorFirst;
  sum.fastmath = combiner->fastmath;
  sum.max = max;
  return sum;
}

/// The result position at which `map` reads the iterator `r` as a plain
/// dimension, its only result depending on `r`; std::nullopt otherwise.
std::optional<unsigned> plainPosition(AffineMap map, unsigned r) {
  AffineExpr dimR = getAffineDimExpr(r, map.getContext());
  std::optional<unsigned> position;
  for (auto [k, e] : llvm::enumerate(map.getResults())) {
    if (!e.isFunctionOfDim(r))
      continue;
    if (e != dimR || position)
      return std::nullopt;
    position = k;
  }
  return position;
}

/// Each input that reads `r` reads it as a plain dimension, in one result
/// only, of static size; and one of them reads every parallel iterator
/// too: a row (or, the reduction not innermost, a column) of the output's
/// index space (others may be broadcast: RMSNorm's weight). Where no input
/// holds whole rows (a matmul: A lacks n, B lacks m) the op is a
/// contraction, whose order the tensor-core kernels fix: left alone.
/// `column` is set when an input reads `r` other than innermost.
bool readsRows(linalg::LinalgOp op, unsigned r, bool &column) {
  bool anyRow = false;
  column = false;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    if (!map.isFunctionOfDim(r))
      continue;
    auto type = dyn_cast<RankedTensorType>(input->get().getType());
    std::optional<unsigned> k = plainPosition(map, r);
    if (!type || !k || type.isDynamicDim(*k))
      return false;
    column |= *k != map.getNumResults() - 1;
    bool row = true;
    for (unsigned d = 0; d < op.getNumLoops(); ++d)
      row &= d == r || map.isFunctionOfDim(d);
    anyRow |= row;
  }
  return anyRow;
}

/// The init is indexed by dimensions and constants only (the loss's
/// `(d0) -> (0)` into a tensor<1xf32>): the partial sums' map appends the
/// lane to it.
bool isPlainOutput(AffineMap map) {
  return llvm::all_of(map.getResults(), [](AffineExpr e) {
    return isa<AffineDimExpr, AffineConstantExpr>(e);
  });
}

/// The conditions of Passes.td; std::nullopt leaves the op as it is.
std::optional<RowSum> matchRowSum(linalg::LinalgOp op, unsigned lanes,
                                  bool max) {
  if (!op.hasPureTensorSemantics() || op.getNumDpsInits() != 1 ||
      op->getNumResults() != 1 ||
      !isa<FloatType>(getElementTypeOrSelf(op->getResult(0).getType())))
    return std::nullopt;
  SmallVector<unsigned> reductions;
  op.getReductionDims(reductions);
  if (reductions.size() != 1)
    return std::nullopt;
  unsigned r = reductions.front();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t n = ranges[r];
  // At least one element per lane (docs/numerics.md, "Reduction order"):
  // a shorter row keeps the sequential order on every pipeline.
  if (ShapedType::isDynamic(n) || n < lanes)
    return std::nullopt;
  bool column = false;
  if (!isPlainOutput(op.getMatchingIndexingMap(op.getDpsInitOperand(0))) ||
      !readsRows(op, r, column))
    return std::nullopt;
  std::optional<RowSum> sum = matchSumBody(op, max);
  // A column max keeps its loop (no order changes it, no kernel takes it).
  if (!sum || (column && max))
    return std::nullopt;
  sum->column = column;
  sum->reductionDim = r;
  sum->size = n;
  return sum;
}

/// `map` over `numDims` dimensions (the partial op's: one more than the
/// original op's).
AffineMap withDims(AffineMap map, unsigned numDims) {
  return AffineMap::get(numDims, 0, map.getResults(), map.getContext());
}

/// A tensor.empty of `like`'s sizes (dynamic ones from `like`) with
/// `extra` appended.
Value emptyWith(OpBuilder &b, Location loc, Value like, int64_t extra) {
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, like);
  sizes.push_back(b.getIndexAttr(extra));
  Type element = cast<ShapedType>(like.getType()).getElementType();
  return tensor::EmptyOp::create(b, loc, sizes, element);
}

/// `input`'s dimension `k` of N as [N / (lanes vector), lanes] (vector 1)
/// or [N / (lanes vector), lanes, vector]: element `(j lanes + l) vector +
/// v` at `[j, l, v]`.
Value expandRows(OpBuilder &b, Location loc, Value input, int64_t lanes,
                 int64_t vector, unsigned k) {
  auto type = cast<RankedTensorType>(input.getType());
  int64_t rank = type.getRank();
  int64_t n = type.getDimSize(k);
  int64_t extra = vector > 1 ? 2 : 1;
  SmallVector<ReassociationIndices> groups;
  for (int64_t i = 0; i < rank; ++i) {
    if (i == k) {
      ReassociationIndices group{i, i + 1};
      if (vector > 1)
        group.push_back(i + 2);
      groups.push_back(group);
    } else {
      groups.push_back({i < k ? i : i + extra});
    }
  }
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, input);
  SmallVector<int64_t> shape(type.getShape());
  SmallVector<int64_t> split{n / (lanes * vector), lanes};
  if (vector > 1)
    split.push_back(vector);
  sizes.erase(sizes.begin() + k);
  shape.erase(shape.begin() + k);
  for (auto [i, extent] : llvm::enumerate(split)) {
    sizes.insert(sizes.begin() + k + i, b.getIndexAttr(extent));
    shape.insert(shape.begin() + k + i, extent);
  }
  auto expandedType = RankedTensorType::get(shape, type.getElementType());
  return tensor::ExpandShapeOp::create(b, loc, expandedType, input, groups,
                                       sizes);
}

/// In the partial op's body, `linalg.index r` now is the lane `l`: the
/// original reduction index is `offset + (j lanes + l) vector + v` (`j`,
/// `v` the new dimensions; no `v` when vector is 1).
void remapReductionIndex(OpBuilder &b, linalg::GenericOp partial, unsigned r,
                         unsigned j, int64_t lanes, int64_t vector,
                         int64_t offset) {
  SmallVector<linalg::IndexOp> indices;
  partial.getBody()->walk([&](linalg::IndexOp index) {
    if (index.getDim() == r)
      indices.push_back(index);
  });
  for (linalg::IndexOp lane : indices) {
    b.setInsertionPointAfter(lane);
    Location loc = lane.getLoc();
    Value row = linalg::IndexOp::create(b, loc, j);
    Value stride = arith::ConstantIndexOp::create(b, loc, lanes);
    Value start = arith::MulIOp::create(b, loc, row, stride);
    Value strided = arith::AddIOp::create(b, loc, start, lane);
    Value index = strided;
    if (vector > 1) {
      Value width = arith::ConstantIndexOp::create(b, loc, vector);
      Value first = arith::MulIOp::create(b, loc, index, width);
      Value v = linalg::IndexOp::create(b, loc, j + 1);
      index = arith::AddIOp::create(b, loc, first, v);
    }
    if (offset != 0) {
      Value base = arith::ConstantIndexOp::create(b, loc, offset);
      index = arith::AddIOp::create(b, loc, base, index);
    }
    lane.getResult().replaceAllUsesExcept(index, strided.getDefiningOp());
  }
}

/// `v[..., offset : offset + size, ...]`: a slice of dimension `k` (the
/// innermost by default).
Value lanesSlice(OpBuilder &b, Location loc, Value v, int64_t offset,
                 int64_t size, std::optional<unsigned> k = std::nullopt) {
  auto type = cast<RankedTensorType>(v.getType());
  int64_t rank = type.getRank();
  unsigned dim = k.value_or(rank - 1);
  SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, v);
  SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
  offsets[dim] = b.getIndexAttr(offset);
  sizes[dim] = b.getIndexAttr(size);
  return tensor::ExtractSliceOp::create(b, loc, v, offsets, sizes, strides);
}

/// The partial sums' start: `-0.0` in every lane `[..., lanes]` (the
/// identity of the float addition; +0.0 would turn a -0.0 sum into +0.0).
Value buildStart(IRRewriter &rw, linalg::GenericOp op, int64_t lanes) {
  Location loc = op.getLoc();
  Value init = op.getDpsInits()[0];
  Type element = getElementTypeOrSelf(init.getType());
  Value empty = emptyWith(rw, loc, init, lanes);
  Value negZero =
      arith::ConstantOp::create(rw, loc, rw.getFloatAttr(element, -0.0));
  return linalg::FillOp::create(rw, loc, negZero, empty).getResult(0);
}

/// Step 1: lane `l` adds, into its partial sum `start[..., l]`, with the
/// original body, elements `offset + (j lanes + l) vector + v` of the row
/// for j = 0 .. steps - 1 and, in each step, v = 0 .. vector - 1, in that
/// order: the row's `[offset, offset + steps lanes vector)` expanded to
/// `[steps, lanes, vector]`, iterated with the lane parallel and j, v the
/// reductions (v innermost). With vector 1 there is no `v` dimension. A
/// null `start` is buildStart's.
Value buildPartialSums(IRRewriter &rw, linalg::GenericOp op, const RowSum &sum,
                       int64_t lanes, int64_t vector, int64_t offset,
                       int64_t steps, Value start) {
  Location loc = op.getLoc();
  unsigned r = sum.reductionDim;
  unsigned numDims = op.getNumLoops() + (vector > 1 ? 2 : 1);
  unsigned j = op.getNumLoops();
  MLIRContext *ctx = op->getContext();
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    if (!map.isFunctionOfDim(r)) {
      inputs.push_back(input->get());
      maps.push_back(withDims(map, numDims));
      continue;
    }
    // The steps' part of the row, along the input's dimension k
    // (readsRows).
    unsigned k = *plainPosition(map, r);
    Value rows = input->get();
    int64_t count = steps * lanes * vector;
    if (offset != 0 || count != sum.size)
      rows = lanesSlice(rw, loc, rows, offset, count, k);
    inputs.push_back(expandRows(rw, loc, rows, lanes, vector, k));
    SmallVector<AffineExpr> results(map.getResults());
    results[k] = getAffineDimExpr(j, ctx);
    results.insert(results.begin() + k + 1, getAffineDimExpr(r, ctx));
    if (vector > 1)
      results.insert(results.begin() + k + 2, getAffineDimExpr(j + 1, ctx));
    maps.push_back(AffineMap::get(numDims, 0, results, ctx));
  }
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  SmallVector<AffineExpr> outResults(outMap.getResults());
  outResults.push_back(getAffineDimExpr(r, ctx));
  maps.push_back(AffineMap::get(numDims, 0, outResults, ctx));
  if (!start)
    start = buildStart(rw, op, lanes);

  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  iterators[r] = utils::IteratorType::parallel;
  iterators.push_back(utils::IteratorType::reduction);
  if (vector > 1)
    iterators.push_back(utils::IteratorType::reduction);
  auto partial = linalg::GenericOp::create(rw, loc, start.getType(), inputs,
                                           ValueRange{start}, maps, iterators);
  rw.cloneRegionBefore(op.getRegion(), partial.getRegion(),
                       partial.getRegion().end());
  remapReductionIndex(rw, partial, r, j, lanes, vector, offset);
  if (sum.column) {
    // The lane outermost: a GPU's one-thread-per-output kernel linearizes
    // the parallel iterators row-major, so consecutive threads then read
    // consecutive columns (coalesced), not one column's 32 lanes. The
    // order of each partial sum's additions stays the same.
    SmallVector<unsigned> order{r};
    for (unsigned d = 0; d < numDims; ++d)
      if (d != r)
        order.push_back(d);
    FailureOr<linalg::GenericOp> interchanged =
        linalg::interchangeGenericOp(rw, partial, order);
    if (succeeded(interchanged))
      partial = *interchanged;
  }
  rw.setInsertionPoint(op);
  return partial.getResult(0);
}

/// Step 1b, for a row of N = q * lanes + t elements (0 < t < lanes): lane
/// l < t adds element `q * lanes + l` last into its partial sum `p[..., l]`
/// with the original body, the other lanes have no element left. One
/// all-parallel generic over the op's index space, the reduction dimension
/// now the lane (extent t) reading the row's tail.
Value addTail(IRRewriter &rw, linalg::GenericOp op, Value p, const RowSum &sum,
              int64_t first) {
  Location loc = op.getLoc();
  unsigned r = sum.reductionDim;
  int64_t tail = sum.size - first;
  MLIRContext *ctx = op->getContext();
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    maps.push_back(map);
    // readsRows: the reduction is a plain dimension of the input.
    inputs.push_back(map.isFunctionOfDim(r)
                         ? lanesSlice(rw, loc, input->get(), first, tail,
                                      *plainPosition(map, r))
                         : input->get());
  }
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  SmallVector<AffineExpr> outResults(outMap.getResults());
  outResults.push_back(getAffineDimExpr(r, ctx));
  maps.push_back(AffineMap::get(op.getNumLoops(), 0, outResults, ctx));
  Value lanesOfTail = lanesSlice(rw, loc, p, 0, tail);
  SmallVector<utils::IteratorType> iterators(op.getNumLoops(),
                                             utils::IteratorType::parallel);
  auto step =
      linalg::GenericOp::create(rw, loc, lanesOfTail.getType(), inputs,
                                ValueRange{lanesOfTail}, maps, iterators);
  rw.cloneRegionBefore(op.getRegion(), step.getRegion(),
                       step.getRegion().end());
  // linalg.index r is the lane l: the element is first + l.
  SmallVector<linalg::IndexOp> indices;
  step.getBody()->walk([&](linalg::IndexOp index) {
    if (index.getDim() == r)
      indices.push_back(index);
  });
  for (linalg::IndexOp lane : indices) {
    rw.setInsertionPointAfter(lane);
    Value offset = arith::ConstantIndexOp::create(rw, lane.getLoc(), first);
    Value index = arith::AddIOp::create(rw, lane.getLoc(), offset, lane);
    lane.getResult().replaceAllUsesExcept(index, index.getDefiningOp());
  }
  rw.setInsertionPoint(op);
  auto type = cast<RankedTensorType>(p.getType());
  SmallVector<OpFoldResult> offsets(type.getRank(), rw.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(rw, loc, p);
  SmallVector<OpFoldResult> strides(type.getRank(), rw.getIndexAttr(1));
  sizes.back() = rw.getIndexAttr(tail);
  return tensor::InsertSliceOp::create(rw, loc, step.getResult(0), p, offsets,
                                       sizes, strides);
}

/// One all-parallel generic over `dest`'s index space whose body adds its
/// two inputs, `lhs + rhs`, and, with `addInit`, adds that into the init
/// (`dest`) on the accumulator's side of the original body.
Value buildAdd(IRRewriter &rw, Location loc, Value lhs, Value rhs,
               ArrayRef<AffineMap> inputMaps, Value dest, bool addInit,
               const RowSum &sum) {
  auto rank = cast<ShapedType>(dest.getType()).getRank();
  SmallVector<AffineMap> maps(inputMaps);
  maps.push_back(rw.getMultiDimIdentityMap(rank));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto body = [&](OpBuilder &b, Location l, ValueRange args) {
    Value pair = arith::AddFOp::create(b, l, args[0], args[1], sum.fastmath);
    Value result = pair;
    if (addInit && sum.accumulatorFirst)
      result = arith::AddFOp::create(b, l, args[2], pair, sum.fastmath);
    else if (addInit)
      result = arith::AddFOp::create(b, l, pair, args[2], sum.fastmath);
    linalg::YieldOp::create(b, l, result);
  };
  auto add =
      linalg::GenericOp::create(rw, loc, dest.getType(), ValueRange{lhs, rhs},
                                ValueRange{dest}, maps, iterators, body);
  return add.getResult(0);
}

/// Steps 2 and 3: the halving tree over the lanes, `q[..., i] = p[..., i]
/// + p[..., i + h]` for h = lanes / 2 .. 2 (what lane i < h holds after
/// `shfl.sync.bfly` xor h), then `init + (q[..., 0] + q[..., 1])`.
Value buildTree(IRRewriter &rw, linalg::GenericOp op, Value p,
                const RowSum &sum, int64_t lanes) {
  Location loc = op.getLoc();
  MLIRContext *ctx = op->getContext();
  Value init = op.getDpsInits()[0];
  unsigned rank = cast<ShapedType>(init.getType()).getRank();
  AffineMap identity = rw.getMultiDimIdentityMap(rank + 1);
  for (int64_t h = lanes / 2; h >= 2; h /= 2) {
    Value low = lanesSlice(rw, loc, p, 0, h);
    Value high = lanesSlice(rw, loc, p, h, h);
    Value dest = emptyWith(rw, loc, init, h);
    p = buildAdd(rw, loc, low, high, {identity, identity}, dest,
                 /*addInit=*/false, sum);
  }
  SmallVector<AffineExpr> lane0;
  for (unsigned d = 0; d < rank; ++d)
    lane0.push_back(getAffineDimExpr(d, ctx));
  SmallVector<AffineExpr> lane1(lane0);
  lane0.push_back(getAffineConstantExpr(0, ctx));
  lane1.push_back(getAffineConstantExpr(1, ctx));
  AffineMap lhs = AffineMap::get(rank, 0, lane0, ctx);
  AffineMap rhs = AffineMap::get(rank, 0, lane1, ctx);
  return buildAdd(rw, loc, p, p, {lhs, rhs}, init, /*addInit=*/true, sum);
}

void splitRowSum(IRRewriter &rw, linalg::LinalgOp op, const RowSum &sum,
                 int64_t lanes) {
  rw.setInsertionPoint(op);
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  if (!generic) {
    FailureOr<linalg::GenericOp> generalized =
        linalg::generalizeNamedOp(rw, op);
    if (failed(generalized))
      return;
    generic = *generalized;
    rw.setInsertionPoint(generic);
  }
  // The vector steps (lane l's `vector` consecutive elements per step),
  // then what is left of the row lane-strided, one element per lane and
  // step, then the last `rest % lanes` elements, one for each of the first
  // lanes (docs/numerics.md, "Reduction order").
  // (The lanes' -0.0 start is built by the first partial sums.)
  Value partial;
  int64_t vector = sum.vector;
  int64_t steps = vector > 1 ? sum.size / (lanes * vector) : 0;
  if (steps > 0)
    partial =
        buildPartialSums(rw, generic, sum, lanes, vector, 0, steps, partial);
  int64_t offset = steps * lanes * vector;
  int64_t scalarSteps = (sum.size - offset) / lanes;
  if (scalarSteps > 0)
    partial = buildPartialSums(rw, generic, sum, lanes, 1, offset, scalarSteps,
                               partial);
  int64_t first = offset + scalarSteps * lanes;
  if (first != sum.size)
    partial = addTail(rw, generic, partial, sum, first);
  Value result = buildTree(rw, generic, partial, sum, lanes);
  rw.replaceOp(generic, result);
}

/// Whether a kernel of fp8-outline-host-kernels takes `op`'s operands and
/// body once bufferized (its whyHost conditions, as far as tensors show
/// them): static shapes, operands of memory types (f32/bf16/f16, i8..i64),
/// a body of arith ops without fast-math flags (no remf) and of math ops
/// fp8-expand-math turns into arith or the kernels lower alike. With
/// `scalars`, f32, integer and index operands too (kernel parameters).
bool fitsKernel(linalg::LinalgOp op, bool scalars) {
  for (Value v : op->getOperands()) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type) {
      Type t = v.getType();
      if (scalars && (t.isF32() || isa<IntegerType, IndexType>(t)))
        continue;
      return false;
    }
    if (!type.hasStaticShape())
      return false;
    // Integers are loaded as they are (a one-hot pick's ids, compared with
    // the column's index: the cross-entropy's target pick written as a sum;
    // the language model's step gathers it instead).
    Type element = type.getElementType();
    auto integer = dyn_cast<IntegerType>(element);
    if (!element.isF32() && !element.isBF16() && !element.isF16() &&
        !(integer &&
          llvm::is_contained({8u, 16u, 32u, 64u}, integer.getWidth())))
      return false;
  }
  WalkResult result = op.getBlock()->walk([](Operation *inner) {
    if (isa<linalg::YieldOp, linalg::IndexOp>(inner))
      return WalkResult::advance();
    if (auto fm = dyn_cast<arith::ArithFastMathInterface>(inner))
      if (fm.getFastMathFlagsAttr() &&
          fm.getFastMathFlagsAttr().getValue() != arith::FastMathFlags::none)
        return WalkResult::interrupt();
    bool vector = llvm::any_of(inner->getResultTypes(),
                               [](Type t) { return isa<VectorType>(t); });
    if (isa<arith::ArithDialect>(inner->getDialect()) &&
        !isa<arith::RemFOp>(inner) && !vector)
      return WalkResult::advance();
    if (isa<math::ExpOp, math::Exp2Op, math::RsqrtOp, math::LogOp, math::Log2Op,
            math::Log1pOp, math::ExpM1Op, math::TanhOp, math::ErfOp,
            math::SqrtOp, math::AbsFOp, math::FmaOp>(inner) &&
        llvm::all_of(inner->getOperandTypes(),
                     [](Type t) { return t.isF32(); }))
      return WalkResult::advance();
    return WalkResult::interrupt();
  });
  return !result.wasInterrupted();
}

/// Whether the row kernel of fp8-outline-host-kernels takes the sum `op`:
/// 32 lanes, an op of the function's body (not in a loop), an f32 sum,
/// fitsKernel. Any other sum is split into loops here.
bool fitsRowKernel(linalg::LinalgOp op, unsigned lanes) {
  // A warp's lanes; a kernel of its own (not in a loop).
  if (lanes != 32 || !isa<FunctionOpInterface>(op->getParentOp()))
    return false;
  if (!getElementTypeOrSelf(op->getResult(0).getType()).isF32())
    return false;
  return fitsKernel(op, /*scalars=*/false);
}

/// `op` as a linalg.generic: itself, or its generalization (null for a
/// named op that does not generalize).
linalg::GenericOp asGeneric(IRRewriter &rw, linalg::LinalgOp op) {
  if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation()))
    return generic;
  rw.setInsertionPoint(op);
  FailureOr<linalg::GenericOp> generalized = linalg::generalizeNamedOp(rw, op);
  return succeeded(generalized) ? *generalized : linalg::GenericOp();
}

/// The sum (or row max) as one linalg.generic carrying the split as
/// `fp8.reduction_lanes`: fp8-outline-host-kernels lowers it to one
/// warp-per-row kernel computing the order splitRowSum spells out. A named
/// op that does not generalize is left as it is (splitRowSum leaves it too,
/// on the CPU as well).
linalg::GenericOp markRowSum(IRRewriter &rw, linalg::LinalgOp op, int64_t lanes,
                             int64_t vector) {
  linalg::GenericOp marked = asGeneric(rw, op);
  if (!marked)
    return {};
  marked->setAttr(fp8::kReductionLanesAttrName, rw.getI64IntegerAttr(lanes));
  marked->setAttr(fp8::kReductionVectorAttrName, rw.getI64IntegerAttr(vector));
  return marked;
}

/// The column sum as one linalg.generic carrying the split as
/// `fp8.column_lanes`: fp8-outline-host-kernels lowers it to one kernel
/// whose CTAs run the lanes of a few columns and the halving tree in shared
/// memory, the additions splitRowSum spells out (vector 1) in their order.
/// It joins no row group (a column's result is no row's). A named op that
/// does not generalize is left as it is.
void markColumnSum(IRRewriter &rw, linalg::LinalgOp op, int64_t lanes) {
  if (linalg::GenericOp marked = asGeneric(rw, op))
    marked->setAttr(fp8::kColumnLanesAttrName, rw.getI64IntegerAttr(lanes));
}

/// A fused row group growing from a marked row sum (Passes.td): the
/// values whose rows every lane of the row's warp holds (the sum's result
/// and the per-row ops' results) and those each lane holds for its own
/// elements (the elementwise ops' results).
struct RowGroup {
  linalg::GenericOp sum;
  /// The sum's loop ranges and its init's map (how an elementwise op reads
  /// a per-row value: broadcast along the row).
  SmallVector<int64_t> ranges;
  AffineMap rowMap;
  /// The group's ops in block order: its element-wise producers (before
  /// the sum), the sum, the ops after it (chained reductions among them).
  SmallVector<Operation *> members;
  llvm::SmallDenseSet<Value> rowValues, elementValues;
  /// Why the consumers after the group's end are not in it.
  std::string after;
  /// The fills of chained reductions' inits, moved before the group's first
  /// op (hoistFills).
  SmallVector<linalg::FillOp> fills;
};

/// Why the linalg op `user` of a value of `group` cannot join it (empty
/// when it can): one all-parallel linalg.generic with one tensor output
/// indexed by the identity whose body does not read the output's initial
/// value, over the sum's rows (a per-row op: `rsqrt(sum / N + eps)`) or
/// over the sum's elements (an elementwise op: `x * rstd * w`), reading
/// the group's per-row values broadcast along the row (an elementwise
/// op's other group values at its own element), other row-shaped tensors
/// (per-row op) at its own row, and any other tensors or scalars (a
/// kernel parameter each). `element` says which kind it is.
std::string whyNotMember(const RowGroup &group, linalg::LinalgOp user,
                         bool &element) {
  auto op = dyn_cast<linalg::GenericOp>(user.getOperation());
  if (!op)
    return "it is not a linalg.generic";
  if (op->hasAttr(fp8::kColumnLanesAttrName))
    return "it is a column sum (a column kernel of its own: its result is "
           "no row's)";
  if (op->hasAttr(fp8::kReductionLanesAttrName) ||
      op.getNumReductionLoops() != 0)
    return "it is a reduction (a row kernel of its own, or split)";
  if (!op.hasPureTensorSemantics() || op->getNumResults() != 1)
    return "it has several outputs";
  std::string shape =
      fp8::whyNotRowGroupShape(op, group.ranges, group.rowMap, element);
  if (!shape.empty())
    return shape;
  if (!fitsKernel(op, /*scalars=*/true))
    return "an operand has a dynamic shape or a type the kernels do not "
           "load, or its body an op the kernels do not lower alike";
  AffineMap identity =
      AffineMap::getMultiDimIdentityMap(op.getNumLoops(), op.getContext());
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    if (group.rowValues.contains(input->get())) {
      if (map != (element ? group.rowMap : identity))
        return "it reads the row's result other than at its own row";
    } else if (group.elementValues.contains(input->get())) {
      if (!element || map != identity)
        return "it reads an element of the group other than its own (the "
               "lanes share only the per-row values)";
    } else if (!element && isa<RankedTensorType>(input->get().getType()) &&
               map != identity) {
      return "it reads a tensor other than at its own row";
    }
  }
  return "";
}

/// Whether `op`'s only memory effects are allocations (a memref.alloc: it
/// stays where it is, the launch after it).
bool onlyAllocates(Operation *op) {
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return false;
  SmallVector<MemoryEffects::EffectInstance> list;
  effects.getEffects(list);
  return llvm::all_of(list, [](const MemoryEffects::EffectInstance &e) {
    return isa<MemoryEffects::Allocate>(e.getEffect());
  });
}

/// Whether `op` may stand between a group's ops: once bufferized it
/// touches no memory (the launch moves after it). A tensor.empty (an
/// allocation), an allocation, a constant, a scalar op; not a view or
/// reshape of a tensor (a copy when not contiguous), not a tensor.extract
/// (a load), not a destination-style op (a write).
bool staysBetween(Operation *op) {
  if (op->getNumRegions() != 0)
    return false;
  if (isa<tensor::EmptyOp>(op) || op->hasTrait<OpTrait::ConstantLike>())
    return true;
  auto isTensor = llvm::IsaPred<TensorType>;
  if (llvm::any_of(op->getOperandTypes(), isTensor) ||
      llvm::any_of(op->getResultTypes(), isTensor))
    return false;
  return isMemoryEffectFree(op) || onlyAllocates(op);
}

/// Whether `op` uses a value of `group` (in its regions too).
bool usesGroup(const RowGroup &group, Operation *op) {
  WalkResult r = op->walk([&](Operation *inner) {
    for (Value v : inner->getOperands())
      if (group.rowValues.contains(v) || group.elementValues.contains(v))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return r.wasInterrupted();
}

/// Why the marked row reduction `user`, reading a value of `group`, cannot
/// join it as a chained reduction (empty when it can): the same loop ranges
/// as the group's first reduction (its rows and the same N), the same
/// innermost reduction dimension and row map, the group's element values
/// read at the reduction's own element (the lane that computed an element
/// reads it back: no other lane's write), none of its per-row values (lane
/// 0 alone stored them) nor its init.
std::string whyNotChained(const RowGroup &group, linalg::GenericOp user) {
  if (!llvm::equal(user.getStaticLoopRanges(), group.ranges))
    return "its loop ranges differ from the group's reduction (another row "
           "count or row length)";
  SmallVector<unsigned> reductions, own;
  user.getReductionDims(reductions);
  linalg::GenericOp sum = group.sum;
  sum.getReductionDims(own);
  OpOperand *init = user.getDpsInitOperand(0);
  if (reductions != own || user.getMatchingIndexingMap(init) != group.rowMap)
    return "it reduces another dimension or writes other rows";
  if (group.rowValues.contains(init->get()) ||
      group.elementValues.contains(init->get()))
    return "its init is a value of the group";
  AffineMap identity =
      AffineMap::getMultiDimIdentityMap(user.getNumLoops(), user.getContext());
  for (OpOperand *input : user.getDpsInputOperands()) {
    if (group.rowValues.contains(input->get()))
      return "it reads a per-row value of the group (lane 0 alone stored it)";
    if (group.elementValues.contains(input->get()) &&
        user.getMatchingIndexingMap(input) != identity)
      return "it reads an element of the group other than its own (the "
             "lanes share only the per-row values)";
  }
  return "";
}

/// Whether `op` is a `linalg.fill` of a chained reduction's init that
/// hoistFills may move before the group's first op `first`: a use is the
/// init of a marked row reduction not yet in a group, and its operands
/// are defined before `first` or by operand-less constants and
/// tensor.empty ops (moved with it).
bool isHoistableFill(Operation *op, Operation *first) {
  auto fill = dyn_cast<linalg::FillOp>(op);
  if (!fill || !fill.hasPureTensorSemantics())
    return false;
  // (CSE may have merged the fills of several inits: moving it earlier
  // changes none of them.)
  if (llvm::none_of(fill->getUsers(), [&](Operation *user) {
        auto r = dyn_cast<linalg::GenericOp>(user);
        return r && r->hasAttr(fp8::kReductionLanesAttrName) &&
               !r->hasAttr(fp8::kRowGroupAttrName) &&
               r.getDpsInitOperand(0)->get() == fill.getResult(0);
      }))
    return false;
  return llvm::all_of(fill->getOperands(), [&](Value v) {
    Operation *def = v.getDefiningOp();
    if (!def || def->getBlock() != first->getBlock() ||
        def->isBeforeInBlock(first))
      return true;
    return def->getNumOperands() == 0 &&
           (isa<tensor::EmptyOp>(def) ||
            def->hasTrait<OpTrait::ConstantLike>());
  });
}

/// Moves the group's fills (and their operands defined after `first`)
/// before `first`: the init is written before the one launch, which
/// therefore spans the chained reduction (on tensors the move changes no
/// value: the fill writes a tensor of its own).
void hoistFills(const RowGroup &group, Operation *first) {
  for (linalg::FillOp fill : group.fills) {
    for (Value v : fill->getOperands())
      if (Operation *def = v.getDefiningOp();
          def && def->getBlock() == first->getBlock() &&
          first->isBeforeInBlock(def))
        def->moveBefore(first);
    fill->moveBefore(first);
  }
}

/// Why the linalg op `op`, whose result the group's first reduction `sum`
/// reads, cannot join the group as an element-wise producer computed in
/// the row kernel before the reduction (empty when it can): an element
/// op's shape over the sum's elements (whyNotRowGroupShape), operands and
/// a body the kernels take, read by the sum at its own element; between it
/// and the sum only ops that stay (staysBetween), other producers and the
/// fill of the sum's init (moved before the producers).
std::string whyNotProducer(const RowGroup &group, linalg::LinalgOp op,
                           SmallVectorImpl<linalg::FillOp> &fills) {
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  if (!generic || !generic.hasPureTensorSemantics() ||
      generic->getNumResults() != 1)
    return "it is not a linalg.generic with one tensor result";
  bool element = false;
  std::string shape =
      fp8::whyNotRowGroupShape(generic, group.ranges, group.rowMap, element);
  if (!shape.empty())
    return shape;
  if (!element)
    return "its iteration space is not the elements of the reduction";
  if (!fitsKernel(generic, /*scalars=*/true))
    return "an operand has a dynamic shape or a type the kernels do not "
           "load, or its body an op the kernels do not lower alike";
  linalg::GenericOp sum = group.sum;
  AffineMap identity =
      AffineMap::getMultiDimIdentityMap(sum.getNumLoops(), sum.getContext());
  for (OpOperand *input : sum.getDpsInputOperands())
    if (input->get() == generic->getResult(0) &&
        sum.getMatchingIndexingMap(input) != identity)
      return "the reduction reads it other than at its own element";
  Value init = sum.getDpsInitOperand(0)->get();
  for (Operation *b = generic->getNextNode(); b != sum; b = b->getNextNode()) {
    if (staysBetween(b))
      continue;
    auto fill = dyn_cast<linalg::FillOp>(b);
    if (fill && fill->getNumResults() == 1 && fill->getResult(0) == init &&
        isHoistableFill(fill, generic)) {
      fills.push_back(fill);
      continue;
    }
    return "an op between it and the reduction will touch memory ('" +
           b->getName().getStringRef().str() + "')";
  }
  return "";
}

/// The element-wise producers of the group's first reduction (the inputs
/// it reads that whyNotProducer accepts), marked as members before the sum,
/// their results element values; a remark on each all-parallel candidate
/// refused. The fill of the sum's init between moves before them.
void groupProducers(RowGroup &group) {
  linalg::GenericOp sum = group.sum;
  SmallVector<Operation *> producers;
  SmallVector<linalg::FillOp> fills;
  for (OpOperand *input : sum.getDpsInputOperands()) {
    auto op = input->get().getDefiningOp<linalg::LinalgOp>();
    if (!op || op->getBlock() != sum->getBlock() ||
        llvm::is_contained(producers, op.getOperation()) ||
        op.getNumParallelLoops() != op.getNumLoops() ||
        op->hasAttr(fp8::kRowGroupAttrName))
      continue;
    SmallVector<linalg::FillOp> opFills;
    std::string why = whyNotProducer(group, op, opFills);
    if (!why.empty()) {
      ::mlir::emitRemark(op->getLoc())
          << "not fused into the row kernel of its consumer "
             "(fp8-split-reductions): "
          << why;
      continue;
    }
    producers.push_back(op);
    for (linalg::FillOp f : opFills)
      if (!llvm::is_contained(fills, f))
        fills.push_back(f);
  }
  if (producers.empty())
    return;
  llvm::sort(producers,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  RowGroup hoisted;
  hoisted.fills = fills;
  hoistFills(hoisted, producers.front());
  group.members.insert(group.members.begin(), producers.begin(),
                       producers.end());
  for (Operation *p : producers)
    group.elementValues.insert(p->getResult(0));
}

/// Whether the operands of `op` (and the values its body uses from above)
/// are available right after `last`, an op of its block: defined before
/// `last` or by it, in an enclosing scope, or by an operand-less
/// `tensor.empty` or constant of the block after `last`, collected in
/// `movable` (they move with `op`).
bool availableAfter(Operation *op, Operation *last,
                    SmallVectorImpl<Operation *> &movable) {
  llvm::SetVector<Value> used;
  used.insert(op->getOperands().begin(), op->getOperands().end());
  getUsedValuesDefinedAbove(op->getRegions(), used);
  for (Value v : used) {
    Operation *def = v.getDefiningOp();
    Block *block = def ? def->getBlock() : cast<BlockArgument>(v).getOwner();
    if (block != last->getBlock() || !def || def == last ||
        def->isBeforeInBlock(last))
      continue;
    if (def->getNumOperands() != 0 ||
        !(isa<tensor::EmptyOp>(def) || def->hasTrait<OpTrait::ConstantLike>()))
      return false;
    if (!llvm::is_contained(movable, def))
      movable.push_back(def);
  }
  return true;
}

/// The consumers of `group` after its end that could join it where it
/// ends (whyNotMember, a `tensor.empty` as their output's init; a per-row
/// op, or an elementwise op reading an element value of the group) and
/// whose operands are available there (availableAfter): each moves, with its
/// movable operands, to just after the group's last op and joins it. On
/// tensors the move changes no value: the op reads only values defined
/// before its new place and no op it passes uses its result. The ops it
/// passes (the cross-entropy's target pick and loss, a fill) ended the
/// group: the softmax - one-hot gradient, written after the loss, then
/// runs in the log-sum-exp's row kernel, which no longer stores the exps.
void hoistConsumers(RowGroup &group) {
  Operation *last = group.members.back();
  SmallVector<Operation *> after;
  for (Operation *op = last->getNextNode(); op; op = op->getNextNode())
    after.push_back(op);
  for (Operation *op : after) {
    auto user = dyn_cast<linalg::GenericOp>(op);
    if (!user || op->hasAttr(fp8::kRowGroupAttrName) ||
        op->hasAttr(fp8::kReductionLanesAttrName) || !usesGroup(group, op))
      continue;
    bool element = false;
    if (!whyNotMember(group, user, element).empty() ||
        !user.getDpsInitOperand(0)->get().getDefiningOp<tensor::EmptyOp>())
      continue;
    // An elementwise op reading none of the group's elements (only its
    // per-row values, a broadcast) stays: in the group its output would be
    // stored for its readers, where fp8-fuse-elementwise may compute it
    // inside theirs.
    if (element &&
        llvm::none_of(user.getDpsInputOperands(), [&](OpOperand *in) {
          return group.elementValues.contains(in->get());
        }))
      continue;
    SmallVector<Operation *> movable;
    if (!availableAfter(op, last, movable))
      continue;
    for (Operation *m : movable) {
      m->moveAfter(last);
      last = m;
    }
    op->moveAfter(last);
    last = op;
    group.members.push_back(op);
    (element ? group.elementValues : group.rowValues).insert(op->getResult(0));
  }
}

/// The ops after the marked row sum `sum` in its block that consume its
/// per-row result elementwise (whyNotMember), in order, marked
/// `fp8.row_group = id` with the sum (when there is one):
/// fp8-outline-host-kernels computes them in the row kernel's launch. The
/// group ends at the first op that uses a value of it and cannot join, or
/// at the first op in between that will touch memory once bufferized (a
/// linalg op, an insert_slice: the kernel must not move across it).
RowGroup groupConsumers(linalg::GenericOp sum, int64_t id) {
  RowGroup group;
  group.sum = sum;
  group.ranges = sum.getStaticLoopRanges();
  group.rowMap = sum.getMatchingIndexingMap(sum.getDpsInitOperand(0));
  // The rows indexed by the parallel iterators in their order (not the
  // loss's `(d0, d1) -> (0)`): the row kernel's rows.
  SmallVector<unsigned> parallel;
  sum.getParallelDims(parallel);
  SmallVector<AffineExpr> rowDims;
  for (unsigned d : parallel)
    rowDims.push_back(getAffineDimExpr(d, sum.getContext()));
  if (group.rowMap.getResults() != ArrayRef<AffineExpr>(rowDims))
    return group;
  group.members.push_back(sum);
  group.rowValues.insert(sum->getResult(0));
  groupProducers(group);
  Operation *first = group.members.front();
  // Why the ops after the group's end are not in it (remarkUnfused).
  group.after = "the group ends before it";
  // A fill of a later reduction's init, skipped while the group may yet
  // reach that reduction (then the fill moves before the group); the group
  // as it was at the fill, restored if it does not.
  linalg::FillOp pendingFill;
  RowGroup atFill;
  auto endsAt = [](Operation *op) {
    return "the group ends at an op before it that will touch memory ('" +
           op->getName().getStringRef().str() +
           "': the one launch must not move across it)";
  };
  for (Operation *op = sum->getNextNode(); op; op = op->getNextNode()) {
    if (!usesGroup(group, op)) {
      if (staysBetween(op))
        continue;
      if (!pendingFill && isHoistableFill(op, first)) {
        pendingFill = cast<linalg::FillOp>(op);
        atFill = group;
        atFill.after = endsAt(op);
        continue;
      }
      group.after = endsAt(op);
      break;
    }
    // The group ends at a user that cannot join: the ops after it would
    // move across it.
    std::string endsAtUser = "the group ends at an op before it that uses "
                             "the group and cannot join ('" +
                             op->getName().getStringRef().str() + "')";
    auto user = dyn_cast<linalg::LinalgOp>(op);
    if (!user) {
      group.after = endsAtUser;
      break;
    }
    if (op->hasAttr(fp8::kReductionLanesAttrName)) {
      if (op->hasAttr(fp8::kRowGroupAttrName) ||
          !whyNotChained(group, cast<linalg::GenericOp>(op)).empty()) {
        group.after = endsAtUser;
        break;
      }
      if (pendingFill &&
          cast<linalg::GenericOp>(op).getDpsInitOperand(0)->get() ==
              pendingFill.getResult(0)) {
        group.fills.push_back(pendingFill);
        pendingFill = {};
      }
      group.members.push_back(op);
      group.rowValues.insert(op->getResult(0));
      continue;
    }
    bool element = false;
    if (!whyNotMember(group, user, element).empty()) {
      group.after = endsAtUser;
      break;
    }
    group.members.push_back(op);
    (element ? group.elementValues : group.rowValues).insert(op->getResult(0));
  }
  if (pendingFill)
    group = atFill;
  hoistConsumers(group);
  if (group.members.size() < 2)
    return group;
  hoistFills(group, first);
  Builder b(sum.getContext());
  for (Operation *member : group.members)
    member->setAttr(fp8::kRowGroupAttrName, b.getI64IntegerAttr(id));
  return group;
}

/// A remark on each linalg op using a value of `group` that is in no
/// group and no row kernel: why it is a launch of its own.
void remarkUnfused(const RowGroup &group) {
  // One remark per op, however many of the group's values it reads.
  llvm::SmallPtrSet<Operation *, 8> said;
  for (Operation *member : group.members)
    for (Operation *user : member->getResult(0).getUsers()) {
      if (!said.insert(user).second)
        continue;
      auto op = dyn_cast<linalg::LinalgOp>(user);
      Attribute id = group.sum->getAttr(fp8::kRowGroupAttrName);
      if (!op || (id && op->getAttr(fp8::kRowGroupAttrName) == id))
        continue;
      bool element = false;
      std::string why;
      if (op->hasAttr(fp8::kReductionLanesAttrName)) {
        // A row kernel of its own: why it is not chained into this one.
        why = whyNotChained(group, cast<linalg::GenericOp>(user));
        if (why.empty())
          why = group.after;
        ::mlir::emitRemark(user->getLoc())
            << "not chained into the row kernel of its "
               "operand (fp8-split-reductions): "
            << why;
        continue;
      }
      // In another group (a row kernel's consumer there).
      if (op->hasAttr(fp8::kRowGroupAttrName))
        continue;
      why = whyNotMember(group, op, element);
      ::mlir::emitRemark(user->getLoc())
          << "not fused into the row kernel of its operand "
             "(fp8-split-reductions): "
          << (why.empty() ? group.after : why);
    }
}

class SplitReductionsPass
    : public fp8::impl::FP8SplitReductionsPassBase<SplitReductionsPass> {
public:
  using FP8SplitReductionsPassBase::FP8SplitReductionsPassBase;
  // The options are checked once, before any IR is visited: a bad value is
  // an error of the pipeline, not of the module (no location in the input
  // to point at, and no module dump beside it).
  LogicalResult initialize(MLIRContext *ctx) override {
    if (lanes < 2 || !llvm::isPowerOf2_32(lanes))
      return emitError(UnknownLoc::get(ctx))
             << "fp8-split-reductions: lanes must be a power of two >= 2, got "
             << static_cast<unsigned>(lanes);
    if (vector < 1 || vector > 16 || !llvm::isPowerOf2_32(vector))
      return emitError(UnknownLoc::get(ctx))
             << "fp8-split-reductions: vector must be a power of two in [1, "
                "16], got "
             << static_cast<unsigned>(vector);
    return success();
  }

  void runOnOperation() override {
    SmallVector<std::pair<linalg::LinalgOp, RowSum>> sums;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (std::optional<RowSum> sum = matchRowSum(op, lanes, /*max=*/false))
        sums.push_back({op, *sum});
      else if (rowKernels)
        if (std::optional<RowSum> max = matchRowSum(op, lanes, /*max=*/true))
          sums.push_back({op, *max});
    });
    IRRewriter rw(&getContext());
    SmallVector<linalg::GenericOp> marked;
    for (auto &[op, sum] : sums) {
      // A column's consecutive elements are a row apart: no lane reads a
      // contiguous run of them, so column sums keep one element per step.
      sum.vector = sum.column ? 1 : vector;
      if (rowKernels && !sum.column && fitsRowKernel(op, lanes)) {
        if (linalg::GenericOp generic = markRowSum(rw, op, lanes, sum.vector))
          marked.push_back(generic);
      } else if (rowKernels && sum.column && fitsRowKernel(op, lanes)) {
        markColumnSum(rw, op, lanes);
      } else if (!sum.max) {
        splitRowSum(rw, op, sum, lanes);
      }
    }
    // Every sum marked first: a group ends at the next one.
    int64_t id = 0;
    SmallVector<RowGroup, 0> groups;
    for (linalg::GenericOp sum : marked)
      if (!sum->hasAttr(fp8::kRowGroupAttrName))
        groups.push_back(groupConsumers(sum, id++));
    for (const RowGroup &group : groups)
      remarkUnfused(group);
  }
};

} // namespace
