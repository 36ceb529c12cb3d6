//===- GuardSlices.cpp - fp8-guard-gathers outside linalg bodies ----------===//
//
// A write at an offset computed from loaded data -- the embedding
// gradient's `tensor.insert_slice` of a token's row into the table at the
// token id -- writes out of bounds for an id outside the table once
// bufferized. Outside linalg bodies fp8-guard-gathers drops such an update
// where an offset is out of range (JAX's scatter mode FILL_OR_DROP) and
// clamps the reads at such offsets (Passes.td).
//
//===----------------------------------------------------------------------===//
#include "GuardIndices.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace mlir;

namespace {

/// Whether `v` is a constant in [0, limit].
bool isConstantAtMost(Value v, int64_t limit) {
  APInt c;
  return limit >= 0 && matchPattern(v, m_ConstantInt(&c)) &&
         c.getActiveBits() <= 63 &&
         static_cast<int64_t>(c.getZExtValue()) <= limit;
}

bool isDimOf(Value v, Value table, int64_t dim) {
  auto d = v.getDefiningOp<tensor::DimOp>();
  return d && d.getSource() == table && d.getConstantIndex() == dim;
}

/// Whether `bound` is `select(s ult size, size - s, 0)` with `size` the
/// `tensor.dim` of dimension `dim` of `table` and the constant `s` at least
/// `span`, as inRange builds it for a dynamic size.
bool isDynamicBound(Value bound, Value table, int64_t dim, int64_t span) {
  auto select = bound.getDefiningOp<arith::SelectOp>();
  if (!select || !matchPattern(select.getFalseValue(), m_Zero()))
    return false;
  auto sub = select.getTrueValue().getDefiningOp<arith::SubIOp>();
  auto fits = select.getCondition().getDefiningOp<arith::CmpIOp>();
  APInt s;
  return sub && fits && isDimOf(sub.getLhs(), table, dim) &&
         matchPattern(sub.getRhs(), m_ConstantInt(&s)) &&
         s.getActiveBits() <= 63 &&
         static_cast<int64_t>(s.getZExtValue()) >= span &&
         fits.getPredicate() == arith::CmpIPredicate::ult &&
         fits.getLhs() == sub.getRhs() && fits.getRhs() == sub.getLhs();
}

/// Whether `arg` is the program's own index: a loop's induction variable
/// or a function's argument. Any other block argument (a loop-carried
/// value, an element of a linalg body) may hold loaded data.
bool isProgramIndex(BlockArgument arg) {
  Operation *owner = arg.getOwner()->getParentOp();
  if (auto loop = dyn_cast<LoopLikeOpInterface>(owner)) {
    std::optional<SmallVector<Value>> ivs = loop.getLoopInductionVars();
    return ivs && llvm::is_contained(*ivs, Value(arg));
  }
  return isa<FunctionOpInterface>(owner) && arg.getOwner()->isEntryBlock();
}

/// Whether `index`, outside linalg bodies, depends on loaded data: on an
/// element read from a tensor or memory (tensor.extract is pure, so any op
/// reading a shaped operand counts, tensor.dim aside) or on a value not
/// known to be the program's own. Deep chains count as data: a needless
/// guard is only slower, a missing one writes out of bounds.
bool isLoadedIndex(Value index, unsigned depth = 0) {
  if (depth > 16)
    return true;
  if (auto arg = dyn_cast<BlockArgument>(index))
    return !isProgramIndex(arg);
  Operation *def = index.getDefiningOp();
  if (matchPattern(index, m_Constant()) ||
      isa<tensor::DimOp, memref::DimOp>(def))
    return false;
  if (!isMemoryEffectFree(def) || def->getNumRegions() != 0 ||
      llvm::any_of(def->getOperandTypes(), llvm::IsaPred<ShapedType>))
    return true;
  return llvm::any_of(def->getOperands(), [&](Value operand) {
    return isLoadedIndex(operand, depth + 1);
  });
}

/// The flag of `offset` being in range for an access of `span + 1` elements
/// along dimension `dim` of `table`: unsigned `offset <= size - 1 - span`
/// (for a slice of stride 1, `offset <= size - sizeOfSlice`), so a negative
/// offset is out of range too; constant false where the access never fits.
Value inRange(OpBuilder &b, Location loc, Value offset, Value table,
              int64_t dim, int64_t span) {
  auto type = cast<RankedTensorType>(table.getType());
  if (!type.isDynamicDim(dim)) {
    int64_t last = type.getDimSize(dim) - 1 - span;
    if (last < 0)
      return arith::ConstantIntOp::create(b, loc, 0, 1);
    Value bound = arith::ConstantIndexOp::create(b, loc, last);
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, offset,
                                 bound);
  }
  Value size = tensor::DimOp::create(b, loc, table, dim);
  if (span == 0)
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, offset,
                                 size);
  // `offset < size - span` where `span < size`; no offset otherwise.
  Value s = arith::ConstantIndexOp::create(b, loc, span);
  Value fits =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, s, size);
  Value rest = arith::SubIOp::create(b, loc, size, s);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value bound = arith::SelectOp::create(b, loc, fits, rest, zero);
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, offset,
                               bound);
}

/// Sets `operand` (an offset or index along dimension `dim` of `table`) to
/// 0 where out of range, unless it is the program's own or guarded;
/// appends its in-range flag to `oks`.
void clamp(OpBuilder &b, Location loc, OpOperand &operand, Value table,
           int64_t dim, int64_t span, SmallVectorImpl<Value> &oks) {
  Value index = operand.get();
  if (!isLoadedIndex(index) ||
      fp8::detail::isGuardedIndex(index, table, dim, span))
    return;
  Value ok = inRange(b, loc, index, table, dim, span);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  operand.set(arith::SelectOp::create(b, loc, ok, index, zero));
  oks.push_back(ok);
}

/// Clamps the data-dependent offsets of `slice` (an extract_slice or
/// insert_slice of `table`); returns their in-range flags, or failure
/// where such an offset's slice has a size or stride the pass cannot
/// bound (not a constant, a stride below 1).
template <typename SliceOp>
FailureOr<SmallVector<Value>> clampOffsets(OpBuilder &b, SliceOp slice,
                                           Value table) {
  SmallVector<Value> oks;
  ArrayRef<int64_t> sizes = slice.getStaticSizes();
  ArrayRef<int64_t> strides = slice.getStaticStrides();
  MutableOperandRange offsets = slice.getOffsetsMutable();
  unsigned next = 0;
  for (auto [dim, offset] : llvm::enumerate(slice.getStaticOffsets())) {
    if (!ShapedType::isDynamic(offset))
      continue;
    OpOperand &operand = offsets[next++];
    if (!isLoadedIndex(operand.get()))
      continue;
    int64_t size = sizes[dim], stride = strides[dim];
    if (ShapedType::isDynamic(size) || ShapedType::isDynamic(stride) ||
        stride < 1)
      return slice.emitOpError("fp8-guard-gathers: cannot bound the "
                               "data-dependent offset of dimension ")
             << dim << ": its size and stride must be constants (a stride "
             << "of at least 1)";
    if (size == 0)
      continue; // No element accessed.
    int64_t span;
    if (llvm::MulOverflow(size - 1, stride, span))
      span = std::numeric_limits<int64_t>::max();
    clamp(b, slice.getLoc(), operand, table, dim, span, oks);
  }
  return oks;
}

/// Clamps the data-dependent indices of `op` (an insert or extract of one
/// element of `table`); returns their in-range flags.
SmallVector<Value> clampIndices(OpBuilder &b, Operation *op,
                                MutableOperandRange indices, Value table) {
  SmallVector<Value> oks;
  for (unsigned dim = 0, e = indices.size(); dim < e; ++dim)
    clamp(b, op->getLoc(), indices[dim], table, dim, /*span=*/0, oks);
  return oks;
}

/// The read-modify-write of `insert`: the linalg.generic result it
/// inserts, computed in place of the destination's slice at the same
/// place (an extract_slice with the same offsets, sizes and strides, before
/// it in its block), as the embedding gradient adds a token's row.
std::pair<tensor::ExtractSliceOp, OpResult>
readModifyWrite(tensor::InsertSliceOp insert) {
  auto update = dyn_cast<OpResult>(insert.getSource());
  auto generic =
      update ? dyn_cast<linalg::GenericOp>(update.getOwner()) : nullptr;
  if (!generic)
    return {};
  OpOperand *init = generic.getDpsInitOperand(update.getResultNumber());
  auto read = init->get().getDefiningOp<tensor::ExtractSliceOp>();
  if (!read || read.getSource() != insert.getDest() ||
      read->getBlock() != insert->getBlock() ||
      read.getType() != insert.getSourceType() ||
      read.getMixedOffsets() != insert.getMixedOffsets() ||
      read.getMixedSizes() != insert.getMixedSizes() ||
      read.getMixedStrides() != insert.getMixedStrides())
    return {};
  return {read, update};
}

/// Makes `update` (a result of a linalg.generic) its init's element where
/// `ok` is false: the row written back is the destination's own.
void keepOldWhereNot(OpBuilder &b, OpResult update, Value ok) {
  auto generic = cast<linalg::GenericOp>(update.getOwner());
  BlockArgument old = generic.getMatchingBlockArgument(
      generic.getDpsInitOperand(update.getResultNumber()));
  Operation *yield = generic.getBody()->getTerminator();
  b.setInsertionPoint(yield);
  OpOperand &yielded = yield->getOpOperand(update.getResultNumber());
  yielded.set(
      arith::SelectOp::create(b, yield->getLoc(), ok, yielded.get(), old));
}

/// Runs `insert` only where `ok`: `scf.if %ok { insert } else { dest }`.
void insertOnlyWhere(OpBuilder &b, tensor::InsertSliceOp insert, Value ok) {
  Location loc = insert.getLoc();
  b.setInsertionPoint(insert);
  auto ifOp = scf::IfOp::create(b, loc, TypeRange{insert.getType()}, ok,
                                /*withElseRegion=*/true);
  insert.getResult().replaceAllUsesWith(ifOp.getResult(0));
  b.setInsertionPointToEnd(ifOp.thenBlock());
  auto yield = scf::YieldOp::create(b, loc, insert.getResult());
  insert->moveBefore(yield);
  b.setInsertionPointToEnd(ifOp.elseBlock());
  scf::YieldOp::create(b, loc, insert.getDest());
}

/// Drops `insert`'s update where one of its data-dependent offsets is out
/// of range. The read-modify-write form keeps a region-free loop body (the
/// GPU host lowering's loop kernel): its read and write at the clamped
/// offsets, the update selecting the old row where out of range; any other
/// insert runs under an scf.if.
LogicalResult guardInsertSlice(OpBuilder &b, tensor::InsertSliceOp insert) {
  auto [read, update] = readModifyWrite(insert);
  b.setInsertionPoint(read ? read.getOperation() : insert.getOperation());
  FailureOr<SmallVector<Value>> oks = clampOffsets(b, insert, insert.getDest());
  if (failed(oks))
    return failure();
  if (oks->empty())
    return success();
  Value ok = fp8::detail::allOf(b, insert.getLoc(), *oks);
  if (!read) {
    insertOnlyWhere(b, insert, ok);
    return success();
  }
  // The read at the write's clamped offsets (the same dynamic offsets).
  read.getOffsetsMutable().assign(insert.getOffsets());
  keepOldWhereNot(b, update, ok);
  return success();
}

/// Drops `insert`'s element where an index is out of range: the element
/// at the clamped indices is written back.
void guardInsert(OpBuilder &b, tensor::InsertOp insert) {
  b.setInsertionPoint(insert);
  SmallVector<Value> oks =
      clampIndices(b, insert, insert.getIndicesMutable(), insert.getDest());
  if (oks.empty())
    return;
  Location loc = insert.getLoc();
  Value old =
      tensor::ExtractOp::create(b, loc, insert.getDest(), insert.getIndices());
  insert.getScalarMutable().assign(arith::SelectOp::create(
      b, loc, fp8::detail::allOf(b, loc, oks), insert.getScalar(), old));
}

/// Clamps a read's data-dependent indices: a float element becomes NaN
/// where out of range (as a gather's), other elements read element 0.
void guardExtract(OpBuilder &b, tensor::ExtractOp ex) {
  b.setInsertionPoint(ex);
  SmallVector<Value> oks =
      clampIndices(b, ex, ex.getIndicesMutable(), ex.getTensor());
  if (!oks.empty())
    fp8::detail::guardExtractResult(b, ex, oks, "extract");
}

/// Clamps a slice read at data-dependent offsets (one that no guarded
/// write reads back): an out-of-range offset reads at offset 0.
LogicalResult guardExtractSlice(OpBuilder &b, tensor::ExtractSliceOp read) {
  b.setInsertionPoint(read);
  FailureOr<SmallVector<Value>> oks = clampOffsets(b, read, read.getSource());
  if (failed(oks))
    return failure();
  if (!oks->empty())
    ::mlir::emitRemark(read.getLoc(),
                       "fp8-guard-gathers: an out-of-range offset of this "
                       "slice reads at offset 0 (a slice is not filled with "
                       "NaN)");
  return success();
}

template <typename... Ops>
SmallVector<Operation *> collectOutsideLinalg(Operation *root) {
  SmallVector<Operation *> ops;
  root->walk([&](Operation *op) {
    if (isa<Ops...>(op) && !op->getParentOfType<linalg::LinalgOp>())
      ops.push_back(op);
  });
  return ops;
}

} // namespace

bool fp8::detail::isLoadedValue(Value index) { return isLoadedIndex(index); }

bool fp8::detail::isGuardedIndex(Value index, Value table, int64_t dim,
                                 int64_t span) {
  while (Operation *cast = index.getDefiningOp()) {
    if (!isa<arith::IndexCastOp, arith::IndexCastUIOp>(cast))
      break;
    index = cast->getOperand(0);
  }
  auto select = index.getDefiningOp<arith::SelectOp>();
  if (!select || !matchPattern(select.getFalseValue(), m_Zero()))
    return false;
  auto cmp = select.getCondition().getDefiningOp<arith::CmpIOp>();
  if (!cmp || cmp.getLhs() != select.getTrueValue())
    return false;
  Value bound = cmp.getRhs();
  auto type = cast<RankedTensorType>(table.getType());
  bool ult = cmp.getPredicate() == arith::CmpIPredicate::ult;
  if (span == 0 && ult && isDimOf(bound, table, dim))
    return true;
  if (type.isDynamicDim(dim))
    return ult && isDynamicBound(bound, table, dim, span);
  int64_t size = type.getDimSize(dim);
  if (ult)
    return span < size && isConstantAtMost(bound, size - span);
  return cmp.getPredicate() == arith::CmpIPredicate::ule && span < size &&
         isConstantAtMost(bound, size - 1 - span);
}

LogicalResult fp8::detail::guardSlices(Operation *root) {
  OpBuilder b(root->getContext());
  // The writes first: a read-modify-write's read takes its write's clamped
  // offsets, so that the reads below find it guarded.
  for (Operation *op :
       collectOutsideLinalg<tensor::InsertSliceOp, tensor::InsertOp>(root)) {
    if (auto insert = dyn_cast<tensor::InsertOp>(op)) {
      guardInsert(b, insert);
      continue;
    }
    if (failed(guardInsertSlice(b, cast<tensor::InsertSliceOp>(op))))
      return failure();
  }
  for (Operation *op :
       collectOutsideLinalg<tensor::ExtractSliceOp, tensor::ExtractOp>(root)) {
    if (auto ex = dyn_cast<tensor::ExtractOp>(op)) {
      guardExtract(b, ex);
      continue;
    }
    if (failed(guardExtractSlice(b, cast<tensor::ExtractSliceOp>(op))))
      return failure();
  }
  return success();
}
