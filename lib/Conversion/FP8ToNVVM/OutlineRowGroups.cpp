//===- OutlineRowGroups.cpp - a row kernel's fused consumers --------------===//
//
// A row sum marked `fp8.row_group` with the elementwise ops consuming its
// per-row result (fp8-split-reductions{row-kernels} decides the group on
// tensors) is one launch: after the butterfly every lane of the row's warp
// holds the row's total (the xor butterfly combines the same values in
// each lane, commuted: docs/gpu-kernel.md, "Fused row kernels"), so each
// lane computes the per-row ops itself and then its own elements of the
// row. This file checks the group on buffers and emits its ops;
// OutlineHostKernels.cpp builds the launch around them.
//
//===----------------------------------------------------------------------===//
#include "OutlineHostKernels.h"

#include "fp8/Dialect/FP8/IR/ReductionLanes.h"
#include "fp8/Dialect/FP8/Utils/MemRefUtils.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::fp8::detail;

namespace {

/// The group's id of `op` (fp8.row_group), or -1.
int64_t groupId(Operation *op) {
  auto id = op->getAttrOfType<IntegerAttr>(fp8::kRowGroupAttrName);
  return id ? id.getInt() : -1;
}

/// Whether `op`, between the sum and a member, may stay where it is while
/// the launch moves after it: no memory effects, or allocations only.
bool staysBetween(Operation *op) {
  if (isMemoryEffectFree(op))
    return true;
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects || op->getNumRegions() != 0)
    return false;
  SmallVector<MemoryEffects::EffectInstance> list;
  effects.getEffects(list);
  return llvm::all_of(list, [](const MemoryEffects::EffectInstance &e) {
    return isa<MemoryEffects::Allocate>(e.getEffect());
  });
}

} // namespace

FailureOr<RowGroupPlan> fp8::detail::planRowGroup(
    linalg::GenericOp sum, const RowSum &row,
    llvm::function_ref<std::string(linalg::LinalgOp)> whyHost,
    std::string &why) {
  int64_t id = groupId(sum);
  RowGroupPlan plan;
  // The members: the ops of the id after the sum in its block.
  SmallVector<Operation *> between;
  for (Operation *op = sum->getNextNode(); op; op = op->getNextNode()) {
    if (groupId(op) != id) {
      between.push_back(op);
      continue;
    }
    auto generic = dyn_cast<linalg::GenericOp>(op);
    std::string notMember = "it is not a linalg.generic";
    RowGroupMember member{generic};
    if (generic) {
      notMember = whyHost(generic);
      if (notMember.empty())
        notMember = fp8::whyNotRowGroupShape(
            generic, sum.getStaticLoopRanges(),
            sum.getMatchingIndexingMap(sum.getDpsInitOperand(0)),
            member.element);
    }
    if (!notMember.empty())
      return why = "its " + op->getName().getStringRef().str() + " at " +
                   std::to_string(plan.members.size() + 1) +
                   " cannot join the row kernel: " + notMember,
             failure();
    plan.members.push_back(member);
    // Only the ops up to the last member are between.
    for (Operation *b : between) {
      if (isa<memref::DeallocOp>(b)) {
        plan.deallocs.push_back(b);
        continue;
      }
      if (!staysBetween(b))
        return why = "'" + b->getName().getStringRef().str() +
                     "' between its ops reads or writes memory (the one "
                     "launch would move it across them)",
               failure();
    }
    between.clear();
  }
  if (plan.members.empty())
    return why = "no op of its group follows it in its block", failure();

  // The buffers the group writes: the sum's init, each member's output.
  llvm::SmallDenseSet<Value> written{
      fp8::getRootBuffer(sum.getDpsInitOperand(0)->get())};
  for (RowGroupMember m : plan.members)
    written.insert(fp8::getRootBuffer(m.op.getDpsInitOperand(0)->get()));
  for (OpOperand *in : sum.getDpsInputOperands())
    if (isa<MemRefType>(in->get().getType()) &&
        written.contains(fp8::getRootBuffer(in->get())))
      return why = "the sum reads a buffer its group writes", failure();
  // The values an op of the group computed before: per-row (every lane
  // holds them) or per element (each lane its own).
  AffineMap rowMap = sum.getMatchingIndexingMap(sum.getDpsInitOperand(0));
  llvm::SmallDenseSet<Value> rowValues{sum.getDpsInitOperand(0)->get()};
  llvm::SmallDenseSet<Value> elementValues;
  for (RowGroupMember m : plan.members) {
    AffineMap identity = AffineMap::getMultiDimIdentityMap(m.op.getNumLoops(),
                                                           m.op.getContext());
    for (OpOperand *in : m.op.getDpsInputOperands()) {
      Value v = in->get();
      if (!isa<MemRefType>(v.getType()))
        continue;
      AffineMap map = m.op.getMatchingIndexingMap(in);
      bool ok = true;
      if (rowValues.contains(v))
        ok = map == (m.element ? rowMap : identity);
      else if (elementValues.contains(v))
        ok = m.element && map == identity;
      else
        ok = !written.contains(fp8::getRootBuffer(v));
      if (!ok)
        return why = "an op reads a buffer the group writes other than "
                     "the value an earlier op of the group computed, at "
                     "its own row (broadcast along the row) or element",
               failure();
    }
    Value out = m.op.getDpsInitOperand(0)->get();
    (m.element ? elementValues : rowValues).insert(out);
  }
  (void)row;
  return plan;
}

namespace {

/// The body of `op` at the loop indices `dims`, its inputs that the group
/// computed taken from `values` (buffer -> this lane's value), the others
/// loaded (or used: scalars); the yielded value.
Value emitBody(OpBuilder &b, Location loc, linalg::GenericOp op,
               ArrayRef<Value> dims, const IRMapping &values) {
  Block *body = op.getBlock();
  IRMapping mapping;
  for (OpOperand *in : op.getDpsInputOperands()) {
    Value arg = body->getArgument(in->getOperandNumber());
    Value v = in->get();
    if (Value known = values.lookupOrNull(v))
      mapping.map(arg, known);
    else if (!isa<MemRefType>(v.getType()))
      mapping.map(arg, v);
    else
      mapping.map(arg,
                  memref::LoadOp::create(
                      b, loc, v,
                      applyMap(b, loc, op.getMatchingIndexingMap(in), dims)));
  }
  return cloneBodyAt(b, op, dims, mapping);
}

/// Stores `v` into `op`'s output at `dims` (its identity map).
void storeOutput(OpBuilder &b, Location loc, linalg::GenericOp op, Value v,
                 ArrayRef<Value> dims) {
  memref::StoreOp::create(b, loc, v, op.getDpsInitOperand(0)->get(), dims);
}

} // namespace

void fp8::detail::emitRowGroup(OpBuilder &b, Location loc,
                               linalg::GenericOp sum, const RowSum &row,
                               const RowGroupPlan &plan, ArrayRef<Value> dims,
                               Value lane, Value rowValue) {
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  // Buffer -> this lane's value of it (the row's, or its element's).
  IRMapping values;
  values.map(sum.getDpsInitOperand(0)->get(), rowValue);
  SmallVector<Value> rowDims;
  for (auto [d, v] : llvm::enumerate(dims))
    if (d != row.reductionDim)
      rowDims.push_back(v);
  Value isLane0 =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane, cst(0));
  // The per-row ops: every lane the same computation on the same bits;
  // lane 0 stores (always: a later op may read the buffer).
  for (RowGroupMember m : plan.members) {
    if (m.element)
      continue;
    Value v = emitBody(b, loc, m.op, rowDims, values);
    values.map(m.op.getDpsInitOperand(0)->get(), v);
    auto ifLane0 = scf::IfOp::create(b, loc, isLane0);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifLane0.getThenRegion().front());
    storeOutput(b, loc, m.op, v, rowDims);
  }
  if (llvm::none_of(plan.members, [](RowGroupMember m) { return m.element; }))
    return;
  // The elementwise ops: lane l computes elements l, l + 32, ... of the
  // row (consecutive lanes, consecutive elements: coalesced), all ops for
  // one element before the next.
  int64_t n = sum.getStaticLoopRanges()[row.reductionDim];
  int64_t steps = (n + kWarpSize - 1) / kWarpSize;
  // One op per statement: the order of a call's arguments is unspecified.
  Value zero = cst(0);
  Value stepCount = cst(steps);
  Value one = cst(1);
  auto loop = scf::ForOp::create(b, loc, zero, stepCount, one);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value first =
      arith::MulIOp::create(b, loc, loop.getInductionVar(), cst(kWarpSize));
  Value element = arith::AddIOp::create(b, loc, first, lane);
  if (n % kWarpSize != 0) {
    // The last step: the lanes below N % 32 only.
    Value inRow = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                        element, cst(n));
    auto ifIn = scf::IfOp::create(b, loc, inRow);
    b.setInsertionPointToStart(&ifIn.getThenRegion().front());
  }
  SmallVector<Value> elementDims(dims);
  elementDims[row.reductionDim] = element;
  IRMapping elementValues = values;
  for (RowGroupMember m : plan.members) {
    if (!m.element)
      continue;
    Value v = emitBody(b, loc, m.op, elementDims, elementValues);
    elementValues.map(m.op.getDpsInitOperand(0)->get(), v);
    storeOutput(b, loc, m.op, v, elementDims);
  }
}
