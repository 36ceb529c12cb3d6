//===- OutlineRowGroups.cpp - a row kernel's fused consumers --------------===//
//
// A row sum marked `fp8.row_group` with the elementwise ops consuming its
// per-row result (fp8-split-reductions{row-kernels} decides the group on
// tensors) is one launch: after the butterfly every lane of the row's warp
// holds the row's total (the xor butterfly combines the same values in
// each lane, commuted: docs/gpu-kernel.md, "Fused row kernels"), so each
// lane computes the per-row ops itself and then its own elements of the
// row. This file checks the group on buffers and emits its ops, finds
// the fills of its reductions' inits that the kernel takes as scalars
// (foldableInitFill) and the outputs nothing reads after the kernel, which
// it does not store (findDeadOutputs); OutlineHostKernels.cpp builds the
// launch around them.
//
//===----------------------------------------------------------------------===//
#include "OutlineHostKernels.h"

#include "fp8/Dialect/FP8/IR/ReductionLanes.h"
#include "fp8/Dialect/FP8/Utils/MemRefUtils.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

#include <functional>

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

namespace {

/// Why the group's op `op` cannot join it (empty when it can): whyHost,
/// then a chained reduction's conditions (a row reduction over the sum's
/// loop ranges, reduction dimension and rows) or an elementwise or per-row
/// op's shape (whyNotRowGroupShape). Sets `member`'s kind.
std::string
whyNotGroupOp(Operation *op, linalg::GenericOp sum, const RowSum &row,
              llvm::function_ref<std::string(linalg::LinalgOp)> whyHost,
              RowGroupMember &member) {
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic)
    return "it is not a linalg.generic";
  member.op = generic;
  if (std::string why = whyHost(generic); !why.empty())
    return why;
  AffineMap rowMap = sum.getMatchingIndexingMap(sum.getDpsInitOperand(0));
  if (generic->hasAttr(fp8::kReductionLanesAttrName)) {
    std::string notSum;
    FailureOr<RowSum> chained = matchRowSum(generic, notSum);
    if (failed(chained))
      return notSum;
    if (!llvm::equal(generic.getStaticLoopRanges(),
                     sum.getStaticLoopRanges()) ||
        chained->reductionDim != row.reductionDim ||
        generic.getMatchingIndexingMap(generic.getDpsInitOperand(0)) != rowMap)
      return "a chained reduction over other rows or elements than the sum's";
    member.reduction = *chained;
    return "";
  }
  return fp8::whyNotRowGroupShape(generic, sum.getStaticLoopRanges(), rowMap,
                                  member.element);
}

} // namespace

FailureOr<RowGroupPlan> fp8::detail::planRowGroup(
    linalg::GenericOp sum, const RowSum &row,
    llvm::function_ref<std::string(linalg::LinalgOp)> whyHost,
    std::string &why) {
  int64_t id = groupId(sum);
  RowGroupPlan plan;
  // The ops between two of the group's: deallocations move after the
  // launch, the others must stay where they are.
  SmallVector<Operation *> between;
  auto takeBetween = [&]() -> LogicalResult {
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
    return success();
  };
  // The producers: the ops of the id before the sum in its block, only
  // ops that stay between them and the sum.
  for (Operation *op = sum->getPrevNode(); op; op = op->getPrevNode()) {
    if (groupId(op) != id) {
      between.push_back(op);
      continue;
    }
    RowGroupMember member;
    std::string notMember = whyNotGroupOp(op, sum, row, whyHost, member);
    if (notMember.empty() && (member.reduction || !member.element))
      notMember = "an op before the sum is not elementwise";
    if (!notMember.empty())
      return why = "its producer " + op->getName().getStringRef().str() +
                   " cannot join the row kernel: " + notMember,
             failure();
    plan.producers.insert(plan.producers.begin(), member);
    if (failed(takeBetween()))
      return failure();
  }
  between.clear();
  // The members: the ops of the id after the sum in its block.
  for (Operation *op = sum->getNextNode(); op; op = op->getNextNode()) {
    if (groupId(op) != id) {
      between.push_back(op);
      continue;
    }
    RowGroupMember member;
    std::string notMember = whyNotGroupOp(op, sum, row, whyHost, member);
    if (!notMember.empty())
      return why = "its " + op->getName().getStringRef().str() + " at " +
                   std::to_string(plan.members.size() + 1) +
                   " cannot join the row kernel: " + notMember,
             failure();
    plan.members.push_back(member);
    // Only the ops up to the last member are between.
    if (failed(takeBetween()))
      return failure();
  }
  if (plan.members.empty())
    return why = "no op of its group follows it in its block", failure();

  // The buffers the group writes: the sum's init, each op's output.
  llvm::SmallDenseSet<Value> written{
      fp8::getRootBuffer(sum.getDpsInitOperand(0)->get())};
  for (RowGroupMember m :
       llvm::concat<RowGroupMember>(plan.producers, plan.members))
    written.insert(fp8::getRootBuffer(m.op.getDpsInitOperand(0)->get()));
  // The values an op of the group computed before: per-row (every lane
  // holds them) or per element (stored by the warp's element loop).
  AffineMap rowMap = sum.getMatchingIndexingMap(sum.getDpsInitOperand(0));
  llvm::SmallDenseSet<Value> rowValues;
  llvm::SmallDenseSet<Value> elementValues;
  llvm::SmallDenseSet<Value> initsBefore;
  AffineMap identity =
      AffineMap::getMultiDimIdentityMap(sum.getNumLoops(), sum.getContext());
  // The reductions (the sum, the chained ones) read the group's element
  // values at their own element only (the lane's own stores) and none of
  // its per-row values (lane 0 alone stored them), nor an init the group
  // wrote before.
  auto checkReduction = [&](linalg::GenericOp r) -> LogicalResult {
    for (OpOperand *in : r.getDpsInputOperands()) {
      Value v = in->get();
      if (!isa<MemRefType>(v.getType()))
        continue;
      if (elementValues.contains(v) && r.getMatchingIndexingMap(in) == identity)
        continue;
      if (written.contains(fp8::getRootBuffer(v)))
        return why = "a reduction of the group reads a buffer its group "
                     "writes other than an element an earlier op computed, "
                     "at its own element",
               failure();
    }
    Value init = fp8::getRootBuffer(r.getDpsInitOperand(0)->get());
    if (initsBefore.contains(init))
      return why = "a reduction's init is a buffer its group wrote before",
             failure();
    rowValues.insert(r.getDpsInitOperand(0)->get());
    return success();
  };
  auto checkOp = [&](RowGroupMember m) -> LogicalResult {
    if (m.reduction)
      return checkReduction(m.op);
    AffineMap own = AffineMap::getMultiDimIdentityMap(m.op.getNumLoops(),
                                                      m.op.getContext());
    for (OpOperand *in : m.op.getDpsInputOperands()) {
      Value v = in->get();
      if (!isa<MemRefType>(v.getType()))
        continue;
      AffineMap map = m.op.getMatchingIndexingMap(in);
      bool ok = true;
      if (rowValues.contains(v))
        ok = map == (m.element ? rowMap : own);
      else if (elementValues.contains(v))
        ok = m.element && map == own;
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
    return success();
  };
  for (RowGroupMember m : plan.producers) {
    if (failed(checkOp(m)))
      return failure();
    initsBefore.insert(fp8::getRootBuffer(m.op.getDpsInitOperand(0)->get()));
  }
  if (failed(checkReduction(sum)))
    return why = "the sum reads a buffer its group writes", failure();
  initsBefore.insert(fp8::getRootBuffer(sum.getDpsInitOperand(0)->get()));
  for (RowGroupMember m : plan.members) {
    if (failed(checkOp(m)))
      return failure();
    initsBefore.insert(fp8::getRootBuffer(m.op.getDpsInitOperand(0)->get()));
  }
  return plan;
}

bool fp8::detail::DeadOutputs::isDead(Value out) const {
  return llvm::is_contained(roots, fp8::getRootBuffer(out));
}

namespace {

/// Whether `user` is a view of `v` (one of getRootBuffer's steps back).
bool isViewOf(Operation *user, Value v) {
  if (auto view = dyn_cast<ViewLikeOpInterface>(user))
    return view.getViewSource() == v;
  if (auto meta = dyn_cast<memref::ExtractStridedMetadataOp>(user))
    return meta.getSource() == v;
  return false;
}

/// Whether every use of `v` and of its views (recursively) satisfies
/// `ok` (given the user), the views themselves aside.
bool allUses(Value v, llvm::function_ref<bool(Operation *)> ok) {
  for (Operation *user : v.getUsers()) {
    if (isViewOf(user, v)) {
      for (Value r : user->getResults())
        if (!allUses(r, ok))
          return false;
      continue;
    }
    if (!ok(user))
      return false;
  }
  return true;
}

/// An op of a fused group whose output may be dead: whether the kernel
/// loads its init (a reduction whose fill is not folded), whether it is
/// elementwise.
struct GroupWriter {
  linalg::GenericOp op;
  bool loadsInit = false;
  bool element = false;
};

} // namespace

void fp8::detail::findDeadOutputs(linalg::GenericOp sum, Value sumInit,
                                  RowGroupPlan &plan) {
  SmallVector<GroupWriter> writers{{sum, !sumInit, false}};
  for (RowGroupMember m : plan.producers)
    writers.push_back({m.op, false, true});
  for (RowGroupMember m : plan.members)
    writers.push_back({m.op, m.reduction && !m.init, m.element});
  llvm::SmallDenseSet<Operation *> group;
  llvm::SmallDenseMap<Value, int> writes;
  for (GroupWriter w : writers) {
    group.insert(w.op);
    if (++writes[fp8::getRootBuffer(w.op.getDpsInitOperand(0)->get())] > 1)
      return;
  }
  for (GroupWriter w : writers) {
    Value out = w.op.getDpsInitOperand(0)->get();
    Value root = fp8::getRootBuffer(out);
    if (w.loadsInit || !root.getDefiningOp<memref::AllocOp>())
      continue;
    // Read by the group only (in registers or recomputed), freed, or the
    // folded fill of the reduction's init (it goes with the kernel).
    bool dead = allUses(root, [&](Operation *user) {
      if (group.contains(user) || isa<memref::DeallocOp>(user))
        return true;
      auto fill = dyn_cast<linalg::FillOp>(user);
      std::string why;
      return fill && w.op->hasAttr(fp8::kReductionLanesAttrName) &&
             foldableInitFill(fill, why) == w.op;
    });
    if (!dead)
      continue;
    plan.dead.roots.push_back(root);
    if (w.element)
      plan.dead.writers[out] = w.op;
  }
}

LogicalResult fp8::detail::eraseDeadAllocation(RewriterBase &rewriter,
                                               Value root) {
  Operation *other = nullptr;
  bool onlyDeallocs = allUses(root, [&](Operation *user) {
    other = user;
    return isa<memref::DeallocOp>(user);
  });
  if (!onlyDeallocs)
    return root.getDefiningOp()->emitOpError(
               "fp8-outline-host-kernels: a fused row kernel does not store "
               "this buffer (nothing read it after the kernel), but '")
               << other->getName() << "' still uses it",
           failure();
  // The users, views before their own users: erased in reverse.
  llvm::SetVector<Operation *> users;
  std::function<void(Value)> collect = [&](Value v) {
    for (Operation *user : v.getUsers()) {
      users.insert(user);
      for (Value r : user->getResults())
        collect(r);
    }
  };
  collect(root);
  for (Operation *user : llvm::reverse(users))
    rewriter.eraseOp(user);
  rewriter.eraseOp(root.getDefiningOp());
  return success();
}

namespace {

/// Whether `op` or an op nested in it has an operand that is a view of
/// `root` (getRootBuffer).
bool touches(Operation *op, Value root) {
  WalkResult r = op->walk([&](Operation *nested) {
    for (Value v : nested->getOperands())
      if (isa<BaseMemRefType>(v.getType()) && fp8::getRootBuffer(v) == root)
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return r.wasInterrupted();
}

} // namespace

linalg::GenericOp fp8::detail::foldableInitFill(linalg::FillOp fill,
                                                std::string &why) {
  if (!fill.hasPureBufferSemantics())
    return why = "it fills a tensor", nullptr;
  Value buffer = fill.getDpsInitOperand(0)->get();
  Value value = fill.getDpsInputOperand(0)->get();
  auto type = cast<MemRefType>(buffer.getType());
  if (!type.getElementType().isF32() || !value.getType().isF32())
    return why = "not an f32 scalar into f32 elements", nullptr;
  // An allocation: no other name (an argument, a global) may reach it.
  Value root = fp8::getRootBuffer(buffer);
  if (!root.getDefiningOp<memref::AllocOp>() &&
      !root.getDefiningOp<memref::AllocaOp>())
    return why = "the buffer is no allocation of the function", nullptr;
  for (Operation *op = fill->getNextNode(); op; op = op->getNextNode()) {
    if (!touches(op, root))
      continue;
    auto reduction = dyn_cast<linalg::GenericOp>(op);
    // (A marked column sum takes the fill's scalar as well.)
    if (!reduction ||
        (!reduction->hasAttr(fp8::kReductionLanesAttrName) &&
         !reduction->hasAttr(fp8::kColumnLanesAttrName)) ||
        reduction.getNumDpsInits() != 1 ||
        reduction.getDpsInitOperand(0)->get() != buffer)
      return why = "the first op after it touching the buffer is not a row "
                   "reduction into the same view",
             nullptr;
    for (OpOperand *in : reduction.getDpsInputOperands())
      if (isa<BaseMemRefType>(in->get().getType()) &&
          fp8::getRootBuffer(in->get()) == root)
        return why = "the reduction reads the buffer", nullptr;
    // One row per element of the view (the init's map takes every parallel
    // iterator once): else an element no row writes keeps the fill's value.
    int64_t rows = 1;
    for (auto [range, it] : llvm::zip(reduction.getStaticLoopRanges(),
                                      reduction.getIteratorTypesArray()))
      if (it == utils::IteratorType::parallel)
        rows = ShapedType::isDynamic(range) ? -1 : rows * range;
    if (!type.hasStaticShape() || rows != type.getNumElements())
      return why = "the reduction does not write every element of the view",
             nullptr;
    return reduction;
  }
  return why = "no op after it reads the buffer", nullptr;
}

namespace {

/// The body of `op` at the loop indices `dims`, its inputs that the group
/// computed taken from `values` (buffer -> this lane's value), those in
/// `loaded` (a vector load's element) from there, the others loaded (or
/// used: scalars); the yielded value.
Value emitBody(OpBuilder &b, Location loc, linalg::GenericOp op,
               ArrayRef<Value> dims, const IRMapping &values,
               const OperandValues &loaded = OperandValues()) {
  IRMapping mapping;
  for (OpOperand *in : op.getDpsInputOperands())
    if (Value known = values.lookupOrNull(in->get()))
      mapping.map(op.getMatchingBlockArgument(in), known);
  mapInputsAt(b, loc, op, dims, loaded, mapping);
  return cloneBodyAt(b, op, dims, mapping);
}

/// Stores `v` into `op`'s output at `dims` (its identity map).
void storeOutput(OpBuilder &b, Location loc, linalg::GenericOp op, Value v,
                 ArrayRef<Value> dims) {
  memref::StoreOp::create(b, loc, v, op.getDpsInitOperand(0)->get(), dims);
}

} // namespace

void fp8::detail::WalkedLaneMaps::emitBefore(OpBuilder &b, Location loc,
                                             int64_t map) {
  if (llvm::any_of(maps, [&](int64_t m) { return m != map; })) {
    Value fullMask = arith::ConstantIntOp::create(b, loc, -1, 32);
    NVVM::SyncWarpOp::create(b, loc, fullMask);
    // The walks before are ordered before every later one.
    maps.clear();
  }
  maps.push_back(map);
}

namespace {

/// The writer of `v` when `v` is a dead element output (recomputed), else
/// null.
linalg::GenericOp deadWriter(const DeadOutputs *dead, Value v) {
  return dead ? dead->writers.lookup(v) : linalg::GenericOp();
}

/// Maps each input of `op` that is a dead element output and not in
/// `known` to its element at `at`, recomputed through its writer: the
/// writer's own dead inputs first (recursively), then its body on its
/// inputs (loaded from `loaded` or memory, or in `known`). A later walk
/// recomputes the element rather than keeping it in registers across
/// walks: the walks run in other steps (and possibly lane maps), and a
/// row's elements would not fit a lane's registers. Recomputing loads the
/// writer's inputs where the walk loaded the output (the same count for a
/// chain from one buffer) and runs its ops again: the same ops on the same
/// operands, the same bits.
void recomputeInputs(OpBuilder &b, Location loc, linalg::GenericOp op,
                     ArrayRef<Value> at, const DeadOutputs *dead,
                     const OperandValues &loaded, IRMapping &known) {
  for (OpOperand *in : op.getDpsInputOperands()) {
    Value v = in->get();
    linalg::GenericOp writer = deadWriter(dead, v);
    if (!writer || known.contains(v))
      continue;
    recomputeInputs(b, loc, writer, at, dead, loaded, known);
    known.map(v, emitBody(b, loc, writer, at, known, loaded));
  }
}

} // namespace

Value fp8::detail::emitElementLoop(OpBuilder &b, Location loc, int64_t n,
                                   const RowSum &order,
                                   ArrayRef<RowGroupMember> ops,
                                   ArrayRef<Value> dims, Value lane,
                                   const IRMapping &values,
                                   linalg::GenericOp reduction,
                                   const DeadOutputs *dead) {
  // The outputs the loop computes: in registers for the ops after the one
  // writing them (and the reduction), never read back from memory here.
  llvm::SmallDenseSet<Value> computed;
  // The operands the walk may access V at a time: the inputs not in
  // registers (per-row values, elements computed before in this loop),
  // those of the ops recomputing a dead input in their place, the outputs
  // stored.
  llvm::SetVector<OpOperand *> operands;
  std::function<void(linalg::GenericOp)> addInputs = [&](linalg::GenericOp op) {
    for (OpOperand *in : op.getDpsInputOperands()) {
      Value v = in->get();
      if (values.contains(v) || computed.contains(v))
        continue;
      if (linalg::GenericOp writer = deadWriter(dead, v))
        addInputs(writer);
      else
        operands.insert(in);
    }
  };
  for (RowGroupMember m : ops) {
    addInputs(m.op);
    Value out = m.op.getDpsInitOperand(0)->get();
    if (!dead || !dead->isDead(out))
      operands.insert(m.op.getDpsInitOperand(0));
    computed.insert(out);
  }
  if (reduction)
    addInputs(reduction);
  auto start = [&]() -> SmallVector<Value> {
    if (!reduction)
      return {};
    return {emitIdentity(b, loc, order)};
  };
  auto element = [&](OpBuilder &b, ArrayRef<Value> at,
                     const OperandValues &loaded, ValueRange acc,
                     SmallVectorImpl<std::pair<OpOperand *, Value>> &stores)
      -> SmallVector<Value> {
    IRMapping elementValues = values;
    for (RowGroupMember m : ops) {
      recomputeInputs(b, loc, m.op, at, dead, loaded, elementValues);
      Value v = emitBody(b, loc, m.op, at, elementValues, loaded);
      Value out = m.op.getDpsInitOperand(0)->get();
      elementValues.map(out, v);
      // Stored unless dead: a later op (an op of a later step, or one after
      // the launch) may read it.
      if (!dead || !dead->isDead(out))
        stores.push_back({m.op.getDpsInitOperand(0), v});
    }
    if (!reduction)
      return {};
    // The reduction's elements the loop computed, from registers (it reads
    // them at its own element: planRowGroup), the dead ones of earlier
    // walks recomputed; the others loaded.
    recomputeInputs(b, loc, reduction, at, dead, loaded, elementValues);
    OperandValues inputs(loaded);
    for (OpOperand *in : reduction.getDpsInputOperands())
      if (computed.contains(in->get()) || deadWriter(dead, in->get()))
        inputs[in] = elementValues.lookup(in->get());
    return {emitStep(b, loc, reduction, at, acc.front(), inputs)};
  };
  SmallVector<Value> partial =
      emitLaneWalk(b, loc, order, n, SmallVector<Value>(dims), lane,
                   operands.getArrayRef(), start, element);
  return partial.empty() ? Value() : partial.front();
}

void fp8::detail::emitRowGroup(OpBuilder &b, Location loc,
                               linalg::GenericOp sum, const RowSum &row,
                               const RowGroupPlan &plan, ArrayRef<Value> dims,
                               Value lane, Value rowValue,
                               WalkedLaneMaps &walked) {
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  int64_t n = sum.getStaticLoopRanges()[row.reductionDim];
  // Buffer -> this lane's value of it (the row's). The elements of an
  // earlier element loop are read back from memory (the lane's own where
  // the walks' maps agree).
  IRMapping values;
  values.map(sum.getDpsInitOperand(0)->get(), rowValue);
  SmallVector<Value> rowDims;
  for (auto [d, v] : llvm::enumerate(dims))
    if (d != row.reductionDim)
      rowDims.push_back(v);
  Value isLane0 =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane, cst(0));
  // The order of the last reduction: the lane map of the element ops after
  // it (no reduction reads them back, the walks before agree with it).
  RowSum lastOrder = row;
  // Up to each chained reduction (and after the last): the per-row ops,
  // every lane the same computation on the same bits, lane 0 storing
  // unless dead (a later op may read the buffer); then the elementwise ops.
  ArrayRef<RowGroupMember> rest = plan.members;
  while (!rest.empty()) {
    size_t end = 0;
    while (end < rest.size() && !rest[end].reduction)
      ++end;
    SmallVector<RowGroupMember> elementOps;
    for (RowGroupMember m : rest.take_front(end)) {
      if (m.element) {
        elementOps.push_back(m);
        continue;
      }
      Value v = emitBody(b, loc, m.op, rowDims, values);
      values.map(m.op.getDpsInitOperand(0)->get(), v);
      if (plan.dead.isDead(m.op.getDpsInitOperand(0)->get()))
        continue;
      auto ifLane0 = scf::IfOp::create(b, loc, isLane0);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&ifLane0.getThenRegion().front());
      storeOutput(b, loc, m.op, v, rowDims);
    }
    std::optional<RowGroupMember> r;
    if (end < rest.size())
      r = rest[end];
    const RowSum &order = r ? *r->reduction : lastOrder;
    Value partial;
    if (!elementOps.empty()) {
      // The element ops in the reduction's lane map, its partial sum in
      // the same walk.
      walked.emitBefore(b, loc, laneMapOf(order, n));
      partial =
          emitElementLoop(b, loc, n, order, elementOps, dims, lane, values,
                          r ? r->op : linalg::GenericOp(), &plan.dead);
    }
    if (!r)
      return;
    bool readsDead =
        llvm::any_of(r->op.getDpsInputOperands(), [&](OpOperand *in) {
          return bool(plan.dead.writers.lookup(in->get()));
        });
    if (!partial && readsDead) {
      // The chained reduction over elements no walk stored: recomputed.
      walked.emitBefore(b, loc, laneMapOf(order, n));
      partial = emitElementLoop(b, loc, n, order, {}, dims, lane, values, r->op,
                                &plan.dead);
    }
    if (!partial) {
      // The chained reduction over elements the warp stored before.
      walked.emitBefore(b, loc, laneMapOf(order, n));
      partial =
          emitPartialSum(b, loc, r->op, order, SmallVector<Value>(dims), lane);
    }
    Value total = emitButterfly(b, loc, order, partial);
    Value result =
        emitRowResult(b, loc, r->op, order, dims, lane, total, r->init,
                      !plan.dead.isDead(r->op.getDpsInitOperand(0)->get()));
    values.map(r->op.getDpsInitOperand(0)->get(), result);
    lastOrder = order;
    rest = rest.drop_front(end + 1);
  }
}

namespace {

/// The init's element at `at`: lane 0 loads it, shfl.sync.idx gives it to
/// every lane.
Value emitSharedInit(OpBuilder &b, Location loc, OpOperand *init,
                     ArrayRef<Value> at, Value isLane0) {
  auto ifLoad = scf::IfOp::create(b, loc, b.getF32Type(), isLane0,
                                  /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifLoad.thenBlock());
    Value old = memref::LoadOp::create(b, loc, init->get(), at);
    scf::YieldOp::create(b, loc, old);
    // The other lanes read nothing (lane 0 writes the element later).
    b.setInsertionPointToStart(ifLoad.elseBlock());
    Value none = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0));
    scf::YieldOp::create(b, loc, none);
  }
  Value source = arith::ConstantIntOp::create(b, loc, 0, 32);
  Value fullMask = arith::ConstantIntOp::create(b, loc, -1, 32);
  Value clamp = arith::ConstantIntOp::create(b, loc, kWarpSize - 1, 32);
  auto idx = NVVM::ShflKindAttr::get(b.getContext(), NVVM::ShflKind::idx);
  return NVVM::ShflOp::create(b, loc, b.getF32Type(), fullMask,
                              ifLoad.getResult(0), source, clamp, idx,
                              UnitAttr());
}

} // namespace

Value fp8::detail::emitRowResult(OpBuilder &b, Location loc,
                                 linalg::GenericOp op, const RowSum &sum,
                                 ArrayRef<Value> dims, Value lane, Value total,
                                 Value initValue, bool store) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value isLane0 =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane, zero);
  OpOperand *init = op.getDpsInitOperand(0);
  SmallVector<Value> at =
      applyMap(b, loc, op.getMatchingIndexingMap(init), dims);
  // A folded fill's scalar: every lane has the bits lane 0 would load.
  Value old = initValue ? initValue : emitSharedInit(b, loc, init, at, isLane0);
  // The init last, on the body's side (docs/numerics.md, "Reduction order").
  Value result = sum.accumulatorFirst ? combine(b, loc, sum, old, total)
                                      : combine(b, loc, sum, total, old);
  if (!store)
    return result;
  auto ifStore = scf::IfOp::create(b, loc, isLane0);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&ifStore.getThenRegion().front());
  memref::StoreOp::create(b, loc, result, init->get(), at);
  return result;
}
