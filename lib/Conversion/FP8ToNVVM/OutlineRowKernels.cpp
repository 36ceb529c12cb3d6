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
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/MapVector.h"

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
  // (A column sum's mark, matchColumnSum: the same lanes and body.)
  auto lanes = op->getAttrOfType<IntegerAttr>(fp8::kReductionLanesAttrName);
  if (!lanes)
    lanes = op->getAttrOfType<IntegerAttr>(fp8::kColumnLanesAttrName);
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
  if (auto vector =
          op->getAttrOfType<IntegerAttr>(fp8::kReductionVectorAttrName))
    sum.vector = vector.getInt();
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

void fp8::detail::mapInputsAt(OpBuilder &b, Location loc, linalg::GenericOp op,
                              ArrayRef<Value> dims, const OperandValues &loaded,
                              IRMapping &mapping) {
  Block *body = op.getBlock();
  for (OpOperand *input : op.getDpsInputOperands()) {
    Value arg = body->getArgument(input->getOperandNumber());
    if (mapping.contains(arg))
      continue;
    if (Value element = loaded.lookup(input)) {
      mapping.map(arg, element);
      continue;
    }
    if (!isa<MemRefType>(input->get().getType())) {
      mapping.map(arg, input->get());
      continue;
    }
    SmallVector<Value> indices =
        applyMap(b, loc, op.getMatchingIndexingMap(input), dims);
    Value element = memref::LoadOp::create(b, loc, input->get(), indices);
    mapping.map(arg, element);
  }
}

Value fp8::detail::emitStep(OpBuilder &b, Location loc, linalg::GenericOp op,
                            ArrayRef<Value> dims, Value acc,
                            const OperandValues &loaded) {
  IRMapping mapping;
  mapInputsAt(b, loc, op, dims, loaded, mapping);
  mapping.map(op.getBlock()->getArgument(op.getNumDpsInputs()), acc);
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

/// The generic op of `operand` (a lane walk's operands are linalg.generic
/// operands).
static linalg::GenericOp ownerOf(OpOperand *operand) {
  return cast<linalg::GenericOp>(operand->getOwner());
}

/// Whether `operand` can be read or written `vector` consecutive elements
/// at a time with one access aligned to their size, as far as its type
/// shows: it reads the reduction `r` as its innermost index (unit stride)
/// and nowhere else, `vector` elements are at most 16 bytes (the widest
/// access, `ld.v4.b32`/`st.v4.b32`), and its static offset and other
/// static strides are multiples of `vector`, so that every step's first
/// element, `32 V j + V l` of a row, is `vector`-aligned from the buffer's
/// base (whose alignment the kernel tests at run time). A dynamic offset
/// or stride (a subview) or an odd row length gives false: scalar accesses,
/// the same elements in the same order.
static bool isVectorLoadable(OpOperand *operand, unsigned r, int64_t vector) {
  linalg::GenericOp op = ownerOf(operand);
  auto type = dyn_cast<MemRefType>(operand->get().getType());
  AffineMap map = op.getMatchingIndexingMap(operand);
  if (!type || map.getNumResults() == 0 ||
      map.getResults().back() != getAffineDimExpr(r, op.getContext()) ||
      llvm::any_of(map.getResults().drop_back(),
                   [&](AffineExpr e) { return e.isFunctionOfDim(r); }))
    return false;
  Type element = type.getElementType();
  if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8 != 0 ||
      vector * element.getIntOrFloatBitWidth() / 8 > 16)
    return false;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset) || offset % vector != 0 ||
      strides.back() != 1)
    return false;
  return llvm::all_of(ArrayRef<int64_t>(strides).drop_back(), [&](int64_t s) {
    return !ShapedType::isDynamic(s) && s % vector == 0;
  });
}

/// The indices `operand` accesses at the loop indices `dims`: `dims`
/// itself for an identity map (an element op's output), else applyMap.
static SmallVector<Value> indicesOf(OpBuilder &b, Location loc,
                                    OpOperand *operand, ArrayRef<Value> dims) {
  AffineMap map = ownerOf(operand).getMatchingIndexingMap(operand);
  if (map.isIdentity())
    return SmallVector<Value>(dims);
  return applyMap(b, loc, map, dims);
}

/// Ends a loop's or branch's body with `next` (nothing to yield: the
/// builders put the empty scf.yield there already).
static void yieldIfAny(OpBuilder &b, Location loc, ValueRange next) {
  if (!next.empty())
    scf::YieldOp::create(b, loc, next);
}

/// The element `dims` of a lane walk: `element` on it, then its scalar
/// stores (the outputs not in `vectors`); the stores of the outputs in
/// `vectors` are appended to `pending` (one vector store after the step).
static SmallVector<Value>
emitWalkElement(OpBuilder &b, Location loc, ArrayRef<Value> dims,
                const OperandValues &loaded, ValueRange acc,
                ArrayRef<OpOperand *> vectors, LaneElement element,
                llvm::MapVector<OpOperand *, SmallVector<Value>> &pending) {
  SmallVector<std::pair<OpOperand *, Value>> stores;
  SmallVector<Value> next = element(b, dims, loaded, acc, stores);
  for (auto [output, value] : stores) {
    if (llvm::is_contained(vectors, output)) {
      pending[output].push_back(value);
      continue;
    }
    memref::StoreOp::create(b, loc, value, output->get(),
                            indicesOf(b, loc, output, dims));
  }
  return next;
}

/// Lane `lane`'s `steps` vector steps from `acc`: in step j, elements
/// `(32 j + lane) V + v`, v = 0 .. V - 1, in that order; each input in
/// `vectors` read with one aligned `vector.load` of the V elements and each
/// output in it written with one aligned `vector.store` after them, the
/// others with V scalar accesses (the same elements and order).
static SmallVector<Value> emitVectorLoop(OpBuilder &b, Location loc,
                                         const RowSum &order,
                                         SmallVector<Value> dims, Value lane,
                                         int64_t steps, ValueRange acc,
                                         ArrayRef<OpOperand *> vectors,
                                         LaneElement element) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value stepCount = arith::ConstantIndexOp::create(b, loc, steps);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value warp = arith::ConstantIndexOp::create(b, loc, kWarpSize);
  Value width = arith::ConstantIndexOp::create(b, loc, order.vector);
  auto loop = scf::ForOp::create(b, loc, zero, stepCount, one, acc);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value first = arith::MulIOp::create(b, loc, loop.getInductionVar(), warp);
  Value chunk = arith::AddIOp::create(b, loc, first, lane);
  Value base = arith::MulIOp::create(b, loc, chunk, width);
  dims[order.reductionDim] = base;
  SmallVector<Value> baseDims(dims);
  auto vectorTypeOf = [&](OpOperand *operand) {
    auto type = cast<MemRefType>(operand->get().getType());
    return VectorType::get({order.vector}, type.getElementType());
  };
  auto alignOf = [&](OpOperand *operand) {
    auto type = cast<MemRefType>(operand->get().getType());
    return llvm::Align(order.vector * type.getElementTypeBitWidth() / 8);
  };
  SmallVector<std::pair<OpOperand *, Value>> loadedVectors;
  for (OpOperand *operand : vectors) {
    if (!ownerOf(operand).isDpsInput(operand))
      continue;
    SmallVector<Value> indices = applyMap(
        b, loc, ownerOf(operand).getMatchingIndexingMap(operand), baseDims);
    Value loaded = vector::LoadOp::create(
        b, loc, vectorTypeOf(operand), operand->get(), indices,
        /*nontemporal=*/false, alignOf(operand));
    loadedVectors.push_back({operand, loaded});
  }
  SmallVector<Value> next(loop.getRegionIterArgs());
  llvm::MapVector<OpOperand *, SmallVector<Value>> pending;
  for (int64_t v = 0; v < order.vector; ++v) {
    Value offset = arith::ConstantIndexOp::create(b, loc, v);
    dims[order.reductionDim] = arith::AddIOp::create(b, loc, base, offset);
    OperandValues loaded;
    for (auto [operand, vec] : loadedVectors)
      loaded[operand] =
          vector::ExtractOp::create(b, loc, vec, ArrayRef<int64_t>{v});
    next =
        emitWalkElement(b, loc, dims, loaded, next, vectors, element, pending);
  }
  // The outputs' V values, stored at once (no element of the step reads
  // them back: a later op of the walk takes them from registers).
  for (auto &[output, values] : pending) {
    Value vec =
        vector::FromElementsOp::create(b, loc, vectorTypeOf(output), values);
    vector::StoreOp::create(b, loc, vec, output->get(),
                            indicesOf(b, loc, output, baseDims),
                            /*nontemporal=*/false, alignOf(output));
  }
  yieldIfAny(b, loc, next);
  return SmallVector<Value>(loop.getResults());
}

/// The vector steps of a lane walk: vector accesses where the operands'
/// types allow them (isVectorLoadable) and, at run time, every such
/// buffer's base is aligned to the access's size; scalar ones otherwise.
static SmallVector<Value>
emitVectorSteps(OpBuilder &b, Location loc, const RowSum &order,
                ArrayRef<Value> dims, Value lane, int64_t steps, ValueRange acc,
                ArrayRef<OpOperand *> operands, LaneElement element) {
  SmallVector<OpOperand *> vectors;
  for (OpOperand *operand : operands)
    if (isVectorLoadable(operand, order.reductionDim, order.vector))
      vectors.push_back(operand);
  SmallVector<Value> rowDims(dims);
  if (vectors.empty())
    return emitVectorLoop(b, loc, order, rowDims, lane, steps, acc, {},
                          element);
  // The bases' alignment (a buffer from a host allocation need not be):
  // the same for every lane, so the warp takes one branch.
  Value aligned = arith::ConstantIntOp::create(b, loc, 1, 1);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  for (OpOperand *operand : vectors) {
    auto type = cast<MemRefType>(operand->get().getType());
    int64_t bytes = order.vector * type.getElementTypeBitWidth() / 8;
    Value pointer =
        memref::ExtractAlignedPointerAsIndexOp::create(b, loc, operand->get());
    Value size = arith::ConstantIndexOp::create(b, loc, bytes);
    Value misalign = arith::RemUIOp::create(b, loc, pointer, size);
    Value isAligned =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, misalign, zero);
    aligned = arith::AndIOp::create(b, loc, aligned, isAligned);
  }
  auto ifAligned = scf::IfOp::create(b, loc, TypeRange(acc), aligned,
                                     /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifAligned.thenBlock());
  yieldIfAny(b, loc,
             emitVectorLoop(b, loc, order, rowDims, lane, steps, acc, vectors,
                            element));
  b.setInsertionPointToStart(ifAligned.elseBlock());
  yieldIfAny(
      b, loc,
      emitVectorLoop(b, loc, order, rowDims, lane, steps, acc, {}, element));
  return SmallVector<Value>(ifAligned.getResults());
}

/// The lane-strided steps of a lane walk after the first `offset` elements
/// of the row: step i visits element `offset + 32 i + lane`, for the
/// (N - offset) / 32 whole steps, from `acc` (built by `start` after the
/// loop's constants when null: the order of the V = 1 kernels' IR).
static SmallVector<Value>
emitStridedSteps(OpBuilder &b, Location loc, const RowSum &order, int64_t n,
                 SmallVector<Value> dims, Value lane, int64_t offset,
                 std::optional<SmallVector<Value>> acc,
                 llvm::function_ref<SmallVector<Value>()> start,
                 LaneElement element) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value steps =
      arith::ConstantIndexOp::create(b, loc, (n - offset) / kWarpSize);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value warp = arith::ConstantIndexOp::create(b, loc, kWarpSize);
  Value rest =
      offset == 0 ? Value() : arith::ConstantIndexOp::create(b, loc, offset);
  if (!acc)
    acc = start();
  auto loop = scf::ForOp::create(b, loc, zero, steps, one, *acc);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value first = arith::MulIOp::create(b, loc, loop.getInductionVar(), warp);
  Value strided = arith::AddIOp::create(b, loc, first, lane);
  dims[order.reductionDim] =
      offset == 0 ? strided : arith::AddIOp::create(b, loc, rest, strided);
  llvm::MapVector<OpOperand *, SmallVector<Value>> none;
  yieldIfAny(b, loc,
             emitWalkElement(b, loc, dims, OperandValues(),
                             loop.getRegionIterArgs(), {}, element, none));
  return SmallVector<Value>(loop.getResults());
}

SmallVector<Value> fp8::detail::emitLaneWalk(
    OpBuilder &b, Location loc, const RowSum &order, int64_t n,
    SmallVector<Value> dims, Value lane, ArrayRef<OpOperand *> operands,
    llvm::function_ref<SmallVector<Value>()> start, LaneElement element) {
  std::optional<SmallVector<Value>> acc;
  // The vector steps (V consecutive elements per lane), then the rest of
  // the row lane-strided (one element per lane and step), then its last
  // (N - offset) % 32 elements for the lanes below that: the order of
  // fp8-split-reductions (docs/numerics.md, "Reduction order").
  int64_t vectorSteps = order.vector > 1 ? n / (kWarpSize * order.vector) : 0;
  if (vectorSteps > 0) {
    SmallVector<Value> init = start();
    acc = emitVectorSteps(b, loc, order, dims, lane, vectorSteps, init,
                          operands, element);
  }
  int64_t offset = vectorSteps * kWarpSize * order.vector;
  if (offset == n)
    return *acc;
  if (n - offset >= kWarpSize)
    acc = emitStridedSteps(b, loc, order, n, dims, lane, offset, acc, start,
                           element);
  int64_t tail = (n - offset) % kWarpSize;
  if (tail == 0)
    return *acc;
  if (!acc) // (a row shorter than a warp: the tail alone)
    acc = start();
  // The row's last elements: one more for the lanes below their count, the
  // others touch nothing (past the row: the next row, or past the buffer).
  Value tailLanes = arith::ConstantIndexOp::create(b, loc, tail);
  Value hasTail =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, lane, tailLanes);
  auto ifTail = scf::IfOp::create(b, loc, TypeRange(ValueRange(*acc)), hasTail,
                                  /*withElseRegion=*/!acc->empty());
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifTail.thenBlock());
  Value tailStart = arith::ConstantIndexOp::create(b, loc, n - tail);
  dims[order.reductionDim] = arith::AddIOp::create(b, loc, tailStart, lane);
  llvm::MapVector<OpOperand *, SmallVector<Value>> none;
  yieldIfAny(
      b, loc,
      emitWalkElement(b, loc, dims, OperandValues(), *acc, {}, element, none));
  if (!acc->empty()) {
    b.setInsertionPointToStart(ifTail.elseBlock());
    scf::YieldOp::create(b, loc, *acc);
  }
  return SmallVector<Value>(ifTail.getResults());
}

Value fp8::detail::emitIdentity(OpBuilder &b, Location loc, const RowSum &sum) {
  // -0.0 for the sum, -inf for the max.
  double identity = sum.max ? -std::numeric_limits<double>::infinity() : -0.0;
  return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(identity));
}

int64_t fp8::detail::laneMapOf(const RowSum &order, int64_t n) {
  return order.vector > 1 && n >= kWarpSize * order.vector ? order.vector : 1;
}

Value fp8::detail::emitPartialSum(OpBuilder &b, Location loc,
                                  linalg::GenericOp op, const RowSum &sum,
                                  SmallVector<Value> dims, Value lane) {
  int64_t n = op.getStaticLoopRanges()[sum.reductionDim];
  SmallVector<OpOperand *> inputs = op.getDpsInputOperands();
  auto start = [&]() -> SmallVector<Value> {
    return {emitIdentity(b, loc, sum)};
  };
  auto step = [&](OpBuilder &b, ArrayRef<Value> at, const OperandValues &loaded,
                  ValueRange acc,
                  SmallVectorImpl<std::pair<OpOperand *, Value>> &)
      -> SmallVector<Value> {
    return {emitStep(b, loc, op, at, acc.front(), loaded)};
  };
  return emitLaneWalk(b, loc, sum, n, dims, lane, inputs, start, step).front();
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
