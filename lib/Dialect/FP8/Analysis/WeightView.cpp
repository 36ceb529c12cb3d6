//===- WeightView.cpp - which elements of which buffer a weight reads -----===//
#include "fp8/Dialect/FP8/Analysis/WeightView.h"
#include "fp8/Dialect/FP8/Analysis/RoleAnalysis.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::fp8;

namespace {

/// A strided view: element (i_0, ..., i_n) of the view is element
/// offset + sum(i_d * strides[d]) of the base, row-major.
struct Strided {
  int64_t offset = 0;
  SmallVector<int64_t> sizes, strides;
};

/// The whole of a statically shaped value, row-major.
std::optional<Strided> wholeOf(Value v) {
  auto t = dyn_cast<ShapedType>(v.getType());
  if (!t || !t.hasStaticShape())
    return std::nullopt;
  Strided s;
  s.sizes.assign(t.getShape().begin(), t.getShape().end());
  s.strides.assign(s.sizes.size(), 1);
  for (int64_t d = static_cast<int64_t>(s.sizes.size()) - 2; d >= 0; --d)
    s.strides[d] = s.strides[d + 1] * s.sizes[d + 1];
  return s;
}

/// Out dim d reads in dim perm[d] (linalg.transpose's convention).
bool permute(Strided &s, ArrayRef<int64_t> perm) {
  if (perm.size() != s.sizes.size())
    return false;
  Strided out{s.offset, {}, {}};
  for (int64_t p : perm) {
    if (p < 0 || p >= static_cast<int64_t>(s.sizes.size()))
      return false;
    out.sizes.push_back(s.sizes[p]);
    out.strides.push_back(s.strides[p]);
  }
  s = std::move(out);
  return true;
}

bool composeSlice(tensor::ExtractSliceOp op, Strided &s) {
  ArrayRef<int64_t> offsets = op.getStaticOffsets(),
                    sizes = op.getStaticSizes(),
                    strides = op.getStaticStrides();
  if (llvm::any_of(llvm::concat<const int64_t>(offsets, sizes, strides),
                   ShapedType::isDynamic))
    return false;
  llvm::SmallBitVector dropped = op.getDroppedDims();
  Strided out{s.offset, {}, {}};
  for (unsigned d = 0; d < offsets.size(); ++d) {
    out.offset += offsets[d] * s.strides[d];
    if (dropped.test(d))
      continue;
    out.sizes.push_back(sizes[d]);
    out.strides.push_back(s.strides[d] * strides[d]);
  }
  s = std::move(out);
  return true;
}

/// Each source dim split into its group's static sizes.
bool composeExpand(tensor::ExpandShapeOp op, Strided &s) {
  ArrayRef<int64_t> shape = op.getResultType().getShape();
  if (llvm::any_of(shape, ShapedType::isDynamic))
    return false;
  Strided out{s.offset, {}, {}};
  for (auto [src, group] : llvm::enumerate(op.getReassociationIndices())) {
    int64_t stride = s.strides[src] * s.sizes[src];
    for (int64_t d : group) {
      if (shape[d] == 0)
        return false;
      stride /= shape[d];
      out.sizes.push_back(shape[d]);
      out.strides.push_back(stride);
    }
  }
  s = std::move(out);
  return true;
}

/// Merges dims [from, to) when each is contiguous in the next (unit dims
/// ignored); false when they are not one strided run.
bool mergeRun(const Strided &s, unsigned from, unsigned to, int64_t &size,
              int64_t &stride) {
  size = 1;
  stride = 1;
  bool any = false;
  for (unsigned d = to; d-- > from;) {
    if (s.sizes[d] == 1)
      continue;
    if (any && s.strides[d] != stride * size)
      return false;
    if (!any)
      stride = s.strides[d];
    size *= s.sizes[d];
    any = true;
  }
  return true;
}

bool composeCollapse(tensor::CollapseShapeOp op, Strided &s) {
  Strided out{s.offset, {}, {}};
  for (ReassociationIndices group : op.getReassociationIndices()) {
    int64_t size, stride;
    if (group.empty() ||
        !mergeRun(s, group.front(), group.back() + 1, size, stride))
      return false;
    out.sizes.push_back(size);
    out.strides.push_back(stride);
  }
  s = std::move(out);
  return true;
}

/// A reshape of any grouping: the view must be one strided run.
bool composeReshape(Value result, Strided &s) {
  int64_t size, stride;
  std::optional<Strided> to = wholeOf(result);
  if (!to || !mergeRun(s, 0, s.sizes.size(), size, stride))
    return false;
  for (int64_t &st : to->strides)
    st *= stride;
  to->offset = s.offset;
  s = std::move(*to);
  return true;
}

/// A copy or cast generic: the output's loops read the input's dims in the
/// input map's order; loops the input does not index are broadcasts.
bool composeGeneric(linalg::GenericOp g, Strided &s) {
  AffineMap in = g.getIndexingMapsArray()[0];
  AffineMap out = g.getIndexingMapsArray()[1];
  auto outType = dyn_cast<ShapedType>(g->getResult(0).getType());
  if (!in.isProjectedPermutation() || !out.isPermutation() || !outType ||
      !outType.hasStaticShape() || in.getNumResults() != s.sizes.size())
    return false;
  Strided res{s.offset, {}, {}};
  for (auto [p, e] : llvm::enumerate(out.getResults())) {
    std::optional<unsigned> q = in.getResultPosition(e);
    res.sizes.push_back(outType.getDimSize(p));
    res.strides.push_back(q ? s.strides[*q] : 0);
  }
  s = std::move(res);
  return true;
}

bool composeBroadcast(linalg::BroadcastOp b, Strided &s) {
  ArrayRef<int64_t> added = b.getDimensions();
  auto outType = cast<ShapedType>(b->getResult(0).getType());
  if (!outType.hasStaticShape())
    return false;
  Strided res{s.offset, {}, {}};
  unsigned next = 0;
  for (int64_t d = 0; d < outType.getRank(); ++d) {
    res.sizes.push_back(outType.getDimSize(d));
    if (llvm::is_contained(added, d)) {
      res.strides.push_back(0);
    } else {
      if (next >= s.strides.size())
        return false;
      res.strides.push_back(s.strides[next++]);
    }
  }
  s = std::move(res);
  return true;
}

/// The permutation of a tosa.transpose (`perms`), if readable.
std::optional<SmallVector<int64_t>> tosaPerms(Operation *op) {
  if (auto a = op->getAttrOfType<DenseI32ArrayAttr>("perms"))
    return SmallVector<int64_t>(a.asArrayRef().begin(), a.asArrayRef().end());
  return std::nullopt;
}

/// Composes `def` (a value-preserving op) into `s`, the view of its data
/// input; false when it cannot be composed exactly.
bool compose(Operation *def, Strided &s) {
  Value result = def->getResult(0);
  if (auto slice = dyn_cast<tensor::ExtractSliceOp>(def))
    return composeSlice(slice, s);
  if (auto e = dyn_cast<tensor::ExpandShapeOp>(def))
    return composeExpand(e, s);
  if (auto c = dyn_cast<tensor::CollapseShapeOp>(def))
    return composeCollapse(c, s);
  if (auto t = dyn_cast<linalg::TransposeOp>(def))
    return permute(s, t.getPermutation());
  if (auto b = dyn_cast<linalg::BroadcastOp>(def))
    return composeBroadcast(b, s);
  if (auto g = dyn_cast<linalg::GenericOp>(def))
    return composeGeneric(g, s);
  StringRef name = def->getName().getStringRef();
  if (isa<tensor::ReshapeOp>(def) || name == "tosa.reshape")
    return composeReshape(result, s);
  if (name == "tosa.transpose") {
    std::optional<SmallVector<int64_t>> perms = tosaPerms(def);
    return perms && permute(s, *perms);
  }
  // Element-preserving: copies and float casts (tensor.cast, linalg.copy,
  // arith.extf/truncf on tensors, tosa.cast) read the same elements.
  // A tensor.cast may make static dims dynamic: the elements are the same.
  auto t = dyn_cast<ShapedType>(result.getType());
  return t && t.hasRank() &&
         t.getRank() == static_cast<int64_t>(s.sizes.size()) &&
         llvm::all_of(llvm::zip_equal(t.getShape(), s.sizes), [](auto p) {
           return ShapedType::isDynamic(std::get<0>(p)) ||
                  std::get<0>(p) == std::get<1>(p);
         });
}

/// [offset, size, stride, ...]: unit and stride-0 dims dropped, sorted by
/// stride (then size) descending, contiguous neighbours merged.
SmallVector<int64_t, 8> canonical(const Strided &s) {
  SmallVector<std::pair<int64_t, int64_t>> dims; // (stride, size)
  for (auto [size, stride] : llvm::zip_equal(s.sizes, s.strides))
    if (size != 1 && stride != 0)
      dims.push_back({stride, size});
  llvm::sort(dims, [](auto a, auto b) { return a > b; });
  SmallVector<std::pair<int64_t, int64_t>> merged;
  for (auto [stride, size] : dims) {
    if (!merged.empty() && merged.back().first == stride * size) {
      merged.back() = {stride, merged.back().second * size};
      continue;
    }
    merged.push_back({stride, size});
  }
  SmallVector<int64_t, 8> layout{s.offset};
  for (auto [stride, size] : merged)
    layout.append({size, stride});
  return layout;
}

} // namespace

WeightView fp8::getWeightView(Value v) {
  // Back to the root through the ops traceSource follows, then forward.
  SmallVector<Operation *> chain;
  Value root = v;
  for (unsigned steps = 0; steps < kMaxTraceSteps; ++steps) {
    Operation *def = root.getDefiningOp();
    if (!isValuePreserving(def))
      break;
    chain.push_back(def);
    root = isa<linalg::GenericOp>(def)
               ? cast<linalg::GenericOp>(def).getDpsInputOperand(0)->get()
               : def->getOperand(0);
  }
  Value base = root;
  std::optional<Strided> s = wholeOf(root);
  for (Operation *def : llvm::reverse(chain)) {
    if (s && compose(def, *s))
      continue;
    // Not composable exactly: the view starts over at this step's result.
    base = def->getResult(0);
    s = wholeOf(base);
  }
  WeightView view{base, {}};
  if (s)
    view.layout = canonical(*s);
  return view;
}

std::optional<ParameterKey> fp8::parameterKey(const WeightView &view) {
  auto arg = dyn_cast<BlockArgument>(view.base);
  if (!arg || !isa<FunctionOpInterface>(arg.getOwner()->getParentOp()))
    return std::nullopt;
  auto name = dyn_cast<NameLoc>(arg.getLoc());
  if (!name)
    return std::nullopt;
  return ParameterKey{Attribute(name.getName()).getAsOpaquePointer(),
                      arg.getType().getAsOpaquePointer(), view.layout};
}
