//===- OutlineRowKernels.cpp - the warp-per-row kernel's pieces
//------------===//
//
// A row sum (or row max) marked `fp8.reduction_lanes` by fp8-split-reductions
// (`row-kernels`) runs as one warp per row: each lane combines its strided
// elements, a butterfly of shuffles combines the lanes, in the order the
// CPU pipeline's split sums add (docs/numerics.md, "Reduction order").
// OutlineHostKernels.cpp builds the kernel around these pieces.
//
//===----------------------------------------------------------------------===//
#include "OutlineHostKernels.h"

#include "fp8/Dialect/FP8/IR/ReductionLanes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"

#include <limits>

using namespace mlir;
using namespace mlir::fp8::detail;

Value fp8::detail::combine(OpBuilder &b, Location loc, const RowSum &sum,
                           Value lhs, Value rhs) {
  if (sum.max)
    return arith::MaximumFOp::create(b, loc, lhs, rhs, sum.fastmath);
  return arith::AddFOp::create(b, loc, lhs, rhs, sum.fastmath);
}

FailureOr<RowSum> fp8::detail::matchRowSum(linalg::GenericOp op,
                                           std::string &why) {
  auto lanes = op->getAttrOfType<IntegerAttr>(fp8::kReductionLanesAttrName);
  if (lanes.getInt() != kWarpSize)
    return why = "the row kernel runs 32 lanes (a warp), the attribute "
                 "asks for " +
                 std::to_string(lanes.getInt()),
           failure();
  SmallVector<unsigned> reductions;
  op.getReductionDims(reductions);
  if (op.getNumDpsInits() != 1 || reductions.size() != 1)
    return why = "it needs one output and one reduction iterator", failure();
  RowSum sum;
  sum.reductionDim = reductions.front();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  for (auto [d, range] : llvm::enumerate(ranges))
    if (d != sum.reductionDim)
      sum.rows *= range;
  int64_t n = ranges[sum.reductionDim];
  if (ShapedType::isDynamic(n) || n < kWarpSize)
    return why = "the reduction's size must be static and at least 32 (a "
                 "warp's lanes)",
           failure();
  std::optional<fp8::RowCombiner> combiner = fp8::matchRowCombiner(op);
  BlockArgument acc = op.getBlock()->getArgument(op.getNumDpsInputs());
  if (!combiner || !acc.getType().isF32())
    return why = "its body must yield an f32 arith.addf or arith.maximumf "
                 "of the accumulator and a value of the inputs",
           failure();
  sum.accumulatorFirst = combiner->accumulatorFirst;
  sum.fastmath = combiner->fastmath;
  sum.max = combiner->max;
  return sum;
}

SmallVector<Value> fp8::detail::applyMap(OpBuilder &b, Location loc,
                                         AffineMap map, ArrayRef<Value> dims) {
  SmallVector<Value> indices;
  for (unsigned i = 0; i < map.getNumResults(); ++i) {
    Value index =
        affine::AffineApplyOp::create(b, loc, map.getSubMap({i}), dims);
    indices.push_back(index);
  }
  return indices;
}

/// The body of `op` applied to the element at `dims` (dims[r] set) and the
/// accumulator `acc`: the combined value.
static Value emitStep(OpBuilder &b, Location loc, linalg::GenericOp op,
                      ArrayRef<Value> dims, Value acc) {
  Block *body = op.getBlock();
  IRMapping mapping;
  for (OpOperand *input : op.getDpsInputOperands()) {
    Value arg = body->getArgument(input->getOperandNumber());
    if (!isa<MemRefType>(input->get().getType())) {
      mapping.map(arg, input->get());
      continue;
    }
    SmallVector<Value> indices =
        applyMap(b, loc, op.getMatchingIndexingMap(input), dims);
    Value element = memref::LoadOp::create(b, loc, input->get(), indices);
    mapping.map(arg, element);
  }
  mapping.map(body->getArgument(op.getNumDpsInputs()), acc);
  return cloneBodyAt(b, op, dims, mapping);
}

Value fp8::detail::cloneBodyAt(OpBuilder &b, linalg::GenericOp op,
                               ArrayRef<Value> dims, IRMapping &mapping) {
  Block *body = op.getBlock();
  for (Operation &inner : body->without_terminator()) {
    if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
      mapping.map(index.getResult(), dims[index.getDim()]);
      continue;
    }
    b.clone(inner, mapping);
  }
  return mapping.lookup(body->getTerminator()->getOperand(0));
}

Value fp8::detail::emitPartialSum(OpBuilder &b, Location loc,
                                  linalg::GenericOp op, const RowSum &sum,
                                  SmallVector<Value> dims, Value lane) {
  int64_t n = op.getStaticLoopRanges()[sum.reductionDim];
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value steps = arith::ConstantIndexOp::create(b, loc, n / kWarpSize);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value warp = arith::ConstantIndexOp::create(b, loc, kWarpSize);
  // The identity of the combiner: -0.0 for the sum, -inf for the max.
  double identity = sum.max ? -std::numeric_limits<double>::infinity() : -0.0;
  Value start = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(identity));
  auto loop = scf::ForOp::create(b, loc, zero, steps, one, ValueRange{start});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value first = arith::MulIOp::create(b, loc, loop.getInductionVar(), warp);
    dims[sum.reductionDim] = arith::AddIOp::create(b, loc, first, lane);
    Value next = emitStep(b, loc, op, dims, loop.getRegionIterArg(0));
    scf::YieldOp::create(b, loc, next);
  }
  int64_t tail = n % kWarpSize;
  if (tail == 0)
    return loop.getResult(0);
  // The row's last N % 32 elements: one more for the lanes below that, the
  // others read nothing (past the row: the next row, or past the buffer).
  Value tailLanes = arith::ConstantIndexOp::create(b, loc, tail);
  Value hasTail =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, lane, tailLanes);
  auto ifTail = scf::IfOp::create(b, loc, b.getF32Type(), hasTail,
                                  /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifTail.thenBlock());
  Value tailStart = arith::ConstantIndexOp::create(b, loc, n - tail);
  dims[sum.reductionDim] = arith::AddIOp::create(b, loc, tailStart, lane);
  Value last = emitStep(b, loc, op, dims, loop.getResult(0));
  scf::YieldOp::create(b, loc, last);
  b.setInsertionPointToStart(ifTail.elseBlock());
  scf::YieldOp::create(b, loc, loop.getResult(0));
  return ifTail.getResult(0);
}

Value fp8::detail::emitButterfly(OpBuilder &b, Location loc, const RowSum &sum,
                                 Value v) {
  Value fullMask = arith::ConstantIntOp::create(b, loc, -1, 32);
  Value clamp = arith::ConstantIntOp::create(b, loc, kWarpSize - 1, 32);
  auto bfly = NVVM::ShflKindAttr::get(b.getContext(), NVVM::ShflKind::bfly);
  for (int64_t h = kWarpSize / 2; h >= 1; h /= 2) {
    Value offset = arith::ConstantIntOp::create(b, loc, h, 32);
    Value other = NVVM::ShflOp::create(b, loc, b.getF32Type(), fullMask, v,
                                       offset, clamp, bfly, UnitAttr());
    v = combine(b, loc, sum, v, other);
  }
  return v;
}

std::string fp8::detail::whyNoRowKernel(linalg::GenericOp op) {
  SmallVector<unsigned> reductions;
  op.getReductionDims(reductions);
  if (reductions.size() != 1)
    return "it reduces over several iterators (a contraction, or a sum "
           "over several dimensions: the row kernel reduces one)";
  unsigned r = reductions.front();
  AffineExpr dimR = getAffineDimExpr(r, op.getContext());
  bool row = false, column = false;
  for (OpOperand *input : op.getDpsInputOperands()) {
    if (!isa<MemRefType>(input->get().getType()))
      continue;
    AffineMap map = op.getMatchingIndexingMap(input);
    if (!map.isFunctionOfDim(r))
      continue;
    bool whole =
        llvm::all_of(llvm::seq<unsigned>(0, op.getNumLoops()),
                     [&](unsigned d) { return map.isFunctionOfDim(d); });
    bool innermost = map.getNumResults() && map.getResults().back() == dimR;
    row |= whole && innermost;
    column |= whole && !innermost;
  }
  if (!row)
    return column ? "it sums along a column (the reduction is not the "
                    "inputs' innermost dimension: a split sum's lane "
                    "partial sums, or a column shorter than a warp)"
                  : "no input holds whole rows (a contraction, or a "
                    "reduction of broadcast values)";
  int64_t n = op.getStaticLoopRanges()[r];
  if (n < kWarpSize)
    return "its rows are shorter than a warp (N < 32 keeps the sequential "
           "order on both pipelines)";
  std::optional<fp8::RowCombiner> combiner = fp8::matchRowCombiner(op);
  if (!combiner)
    return "its body yields no sum or max of the accumulator";
  return "fp8-split-reductions did not mark it (a body op or flag the row "
         "kernel does not take)";
}
