//===- OutlineHostLoops.cpp - fp8-outline-host-kernels' loop kernels ------===//
//
// The host loops fp8-outline-host-kernels turns into one kernel each (the
// embedding gradient's scatter-add: a loop that views its buffers at its
// own indices): which loops can run as a kernel computing the host's bits
// (whyHostLoop), and which of their linalg ops the kernel's threads split
// (threadOp), each thread running the whole loop for its own elements, and
// which rows of the written buffer the threads also split into chunks
// (ownedRows: the embedding gradient's table rows, each thread adding only
// its chunk's tokens). The pass (OutlineHostKernels.cpp) builds the
// kernels.
//
//===----------------------------------------------------------------------===//
#include "OutlineHostKernels.h"

#include "fp8/Dialect/FP8/Utils/MemRefUtils.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Transforms/RegionUtils.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallBitVector.h"

#include <optional>

using namespace mlir;
using namespace mlir::fp8::detail;

bool fp8::detail::viewsPerIteration(scf::ForOp loop) {
  return loop.getBody()
      ->walk([&](Operation *op) {
        if (isa<memref::SubViewOp, memref::LoadOp, memref::StoreOp>(op) &&
            op->getParentOfType<scf::ForOp>() == loop &&
            !op->getParentOfType<linalg::LinalgOp>())
          return WalkResult::interrupt();
        return WalkResult::advance();
      })
      .wasInterrupted();
}

std::string fp8::detail::whyHostLoop(scf::ForOp loop) {
  if (inHostParallelLoop(loop))
    return "it is inside a host-parallel loop";
  if (loop.getNumResults())
    return "it has results (a kernel returns none)";
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(loop.getRegion(), captured);
  for (Value v : captured) {
    if (isa<MemRefType>(v.getType())) {
      std::string why = whyNotParameter(v);
      if (!why.empty())
        return "a buffer it uses " + why;
    } else if (!isa<IntegerType, FloatType, IndexType>(v.getType())) {
      return "it uses a value that is neither a memref nor a scalar";
    }
  }
  enum : unsigned { kRead = 1, kWrite = 2 };
  llvm::DenseMap<Value, unsigned> access;
  std::string why;
  loop.getBody()->walk([&](Operation *op) {
    auto refuse = [&](StringRef w) {
      why = "its body's " + op->getName().getStringRef().str() + " " + w.str();
      return WalkResult::interrupt();
    };
    if (isa<scf::ForOp, scf::YieldOp, memref::SubViewOp>(op))
      return WalkResult::advance();
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      access[fp8::getRootBuffer(load.getMemRef())] |= kRead;
      return WalkResult::advance();
    }
    if (auto store = dyn_cast<memref::StoreOp>(op)) {
      access[fp8::getRootBuffer(store.getMemRef())] |= kWrite;
      return WalkResult::advance();
    }
    if (auto l = dyn_cast<linalg::LinalgOp>(op)) {
      if (!l.hasPureBufferSemantics())
        return refuse("is not on buffers");
      if (!hasParallelOrReductionIterators(l))
        return refuse("has an iterator neither parallel nor a reduction");
      for (OpOperand *in : l.getDpsInputOperands())
        if (isa<MemRefType>(in->get().getType()))
          access[fp8::getRootBuffer(in->get())] |= kRead;
      for (OpOperand &init : l.getDpsInitsMutable())
        access[fp8::getRootBuffer(init.get())] |=
            kWrite | (l.payloadUsesValueFromOperand(&init) ? kRead : 0u);
      for (BlockArgument arg : l.getBlock()->getArguments())
        if (!isMemoryType(arg.getType()))
          return refuse("has an element type that is not "
                        "i8/i16/i32/i64/f16/bf16/f32 or FP8 codes");
      return WalkResult::advance();
    }
    std::string w = unsupportedBodyOp(op);
    if (!w.empty())
      return refuse(w);
    return WalkResult::advance();
  });
  if (!why.empty())
    return why;
  // The residency gives a kernel's write-only buffer a fresh device buffer
  // (an op kernel writes all of its output); a loop may write part of one.
  for (Value v : captured)
    if (isa<MemRefType>(v.getType()) &&
        access.lookup(fp8::getRootBuffer(v)) == kWrite)
      return "it writes a buffer it does not read (a kernel's write-only "
             "buffers are taken as wholly written)";
  return "";
}

namespace {

/// Whether the view `out` of a buffer, written in each iteration of `loop`
/// by threads that each own one of its elements, gives every thread the
/// same elements of the buffer in every iteration, so that no two threads
/// ever touch one element: along each dimension of more than one element
/// (the ones that tell threads apart) every memref.subview between `out`
/// and the buffer has an offset the iterations share and a nonzero stride.
/// A view sliding along such a dimension (`subview %acc[%i] [8] [1]`) would
/// hand a thread's element to its neighbour in the next iteration: an
/// unsynchronized read-add-write. Along the others the offset may vary per
/// iteration (the embedding gradient's row at each token's id).
bool keepsThreadElements(Value out, scf::ForOp loop) {
  auto outTy = cast<MemRefType>(out.getType());
  // Per dimension of the current view: whether threads differ along it.
  SmallVector<bool> threaded;
  for (int64_t size : outTy.getShape())
    threaded.push_back(size != 1);
  for (Value v = out;;) {
    auto sub = v.getDefiningOp<memref::SubViewOp>();
    if (!sub)
      // A buffer, or a view the iterations share: fixed from here on.
      return loop.isDefinedOutsideOfLoop(v);
    llvm::SmallBitVector dropped = sub.getDroppedDims();
    SmallVector<OpFoldResult> offsets = sub.getMixedOffsets();
    SmallVector<OpFoldResult> strides = sub.getMixedStrides();
    SmallVector<bool> source;
    unsigned resultDim = 0;
    for (unsigned d = 0, e = offsets.size(); d < e; ++d) {
      bool differs = !dropped.test(d) && threaded[resultDim++];
      source.push_back(differs);
      if (!differs)
        continue;
      std::optional<int64_t> stride = getConstantIntValue(strides[d]);
      auto offset = dyn_cast<Value>(offsets[d]);
      if (!stride || *stride == 0 ||
          (offset && !loop.isDefinedOutsideOfLoop(offset) &&
           !getConstantIntValue(offset)))
        return false;
    }
    threaded = std::move(source);
    v = sub.getSource();
  }
}

} // namespace

linalg::LinalgOp fp8::detail::threadOp(scf::ForOp loop, int64_t &total) {
  linalg::LinalgOp split;
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (auto l = dyn_cast<linalg::LinalgOp>(&op)) {
      if (split)
        return {};
      split = l;
      continue;
    }
    if (op.getNumRegions() || isa<memref::StoreOp>(op))
      return {};
  }
  if (!split || split.getNumDpsInits() != 1 ||
      split.getNumReductionLoops() != 0 ||
      !split.getMatchingIndexingMap(split.getDpsInitOperand(0)).isPermutation())
    return {};
  if (!keepsThreadElements(split.getDpsInitOperand(0)->get(), loop))
    return {};
  Value out = fp8::getRootBuffer(split.getDpsInitOperand(0)->get());
  for (OpOperand *in : split.getDpsInputOperands())
    if (fp8::getRootBuffer(in->get()) == out)
      return {};
  bool readsOut = loop.getBody()
                      ->walk([&](memref::LoadOp load) {
                        return fp8::getRootBuffer(load.getMemRef()) == out
                                   ? WalkResult::interrupt()
                                   : WalkResult::advance();
                      })
                      .wasInterrupted();
  if (readsOut)
    return {};
  int64_t n = 1;
  for (int64_t r : split.getStaticLoopRanges()) {
    if (ShapedType::isDynamic(r))
      return {};
    n *= r;
  }
  if (n <= 1)
    return {};
  total = n;
  return split;
}

std::optional<OwnedRows> fp8::detail::ownedRows(linalg::LinalgOp split,
                                                scf::ForOp loop) {
  auto varies = [&](OpFoldResult ofr) {
    auto v = dyn_cast<Value>(ofr);
    return v && !loop.isDefinedOutsideOfLoop(v) && !getConstantIntValue(v);
  };
  std::optional<OwnedRows> rows;
  for (Value v = split.getDpsInitOperand(0)->get();;) {
    auto sub = v.getDefiningOp<memref::SubViewOp>();
    if (!sub)
      return rows;
    SmallVector<OpFoldResult> offsets = sub.getMixedOffsets();
    SmallVector<OpFoldResult> sizes = sub.getMixedSizes();
    for (auto [d, offset] : llvm::enumerate(offsets)) {
      if (!varies(offset))
        continue;
      // One moving offset, on the view of a buffer the iterations share
      // (the table): a row index into it, one row at a time.
      // Distinct rows must be distinct memory: a nonzero static stride.
      auto source = cast<MemRefType>(sub.getSource().getType());
      SmallVector<int64_t> strides;
      int64_t base;
      if (rows || !loop.isDefinedOutsideOfLoop(sub.getSource()) ||
          getConstantIntValue(sizes[d]) != 1 || source.isDynamicDim(d) ||
          source.getDimSize(d) < 1 ||
          failed(source.getStridesAndOffset(strides, base)) ||
          ShapedType::isDynamic(strides[d]) || strides[d] == 0)
        return std::nullopt;
      rows = OwnedRows{cast<Value>(offset), source.getDimSize(d)};
    }
    v = sub.getSource();
  }
}
