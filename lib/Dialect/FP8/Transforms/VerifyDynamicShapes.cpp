//===- VerifyDynamicShapes.cpp - fp8-verify-dynamic-shapes ----------------===//
//
// Run-time checks of the operand sizes of linalg ops with dynamic shapes,
// built by upstream's RuntimeVerifiableOpInterface, and of the extents the
// operands of the fp8 matmuls share (Passes.td). Only these ops are asked:
// upstream's generate-runtime-verification would also check every memref
// access of the lowered program.
//
//===----------------------------------------------------------------------===//
#include "fp8/Dialect/FP8/Transforms/Passes.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Interfaces/RuntimeVerifiableOpInterface.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"

#include <string>

namespace mlir::fp8 {
#define GEN_PASS_DEF_FP8VERIFYDYNAMICSHAPESPASS
#include "fp8/Dialect/FP8/Transforms/Passes.h.inc"
} // namespace mlir::fp8

using namespace mlir;

namespace {

/// Whether some operand of `op` has a dynamic size: the verifier has
/// checked the sizes of an op whose shapes are all static.
bool hasDynamicSize(linalg::LinalgOp op) {
  return llvm::any_of(op->getOperandTypes(), [](Type type) {
    auto shaped = dyn_cast<ShapedType>(type);
    return shaped && shaped.hasRank() && !shaped.hasStaticShape();
  });
}

/// Whether every operand dimension of `op` provably equals the loop size
/// it implies, i.e. the size of the operand dimension that defines that
/// loop (linalg's shapes-to-loops map): then no run-time check can fail.
/// Proved by ValueBoundsOpInterface, e.g. an output `tensor.empty(%d)` with
/// `%d = tensor.dim %in, 0`. Upstream's checks do not fold away in such a
/// case (they compare `max(size - 1, 0) + 1` with the size), hence the
/// proof here. An index expression other than a plain loop (a convolution's
/// `d0 + d1`) is not proved.
bool sizesProvablyAgree(linalg::LinalgOp op) {
  AffineMap shapesToLoops = op.getShapesToLoopsMap();
  if (!shapesToLoops)
    return false;
  // The flattened operand dimensions, in the order of the map's inputs.
  SmallVector<std::pair<Value, int64_t>> shapeDims;
  for (OpOperand &operand : op->getOpOperands())
    for (int64_t d = 0, e = op.getRank(&operand); d < e; ++d)
      shapeDims.push_back({operand.get(), d});
  SmallVector<std::pair<Value, int64_t>> loopSizes;
  for (AffineExpr expr : shapesToLoops.getResults()) {
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (!dim)
      return false;
    loopSizes.push_back(shapeDims[dim.getPosition()]);
  }
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    for (auto [d, expr] : llvm::enumerate(map.getResults())) {
      auto loop = dyn_cast<AffineDimExpr>(expr);
      if (!loop)
        return false;
      auto [source, sourceDim] = loopSizes[loop.getPosition()];
      if (source == operand.get() && sourceDim == static_cast<int64_t>(d))
        continue;
      FailureOr<bool> equal = ValueBoundsConstraintSet::areEqual(
          {operand.get(), static_cast<int64_t>(d)}, {source, sourceDim});
      if (failed(equal) || !*equal)
        return false;
    }
  }
  return true;
}

/// The assert's message: the op and where the user wrote it, then
/// upstream's text (which dimension of which operand).
std::string describeFailure(Operation *op, StringRef what) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << op->getName() << " at " << op->getLoc() << ": " << what;
  return text;
}

/// One operand of an fp8 matmul and the extents of its dimensions, one
/// letter each (`"MK"`: A of fp8.scaled_matmul); the same letter in two
/// operands is an extent they share.
struct NamedOperand {
  StringRef name;
  Value value;
  StringRef extents;
};

/// The operands of `op` with their extents (docs of each op in FP8Ops.td);
/// empty for other ops. The result is listed with its type only (a dynamic
/// result size is computed from the operands by the lowering).
SmallVector<NamedOperand> namedOperands(Operation *op) {
  using fp8::GroupLayout;
  if (auto mm = dyn_cast<fp8::ScaledMatmulOp>(op))
    return {{"a", mm.getA(), "MK"},
            {"b", mm.getB(), "NK"},
            {"c", mm.getC(), "MN"},
            {"the result", mm.getResult(), "MN"}};
  auto gm = dyn_cast<fp8::GroupedScaledMatmulOp>(op);
  if (!gm)
    return {};
  switch (gm.getLayout()) {
  case GroupLayout::masked:
    return {{"a", gm.getA(), "GMK"},
            {"b", gm.getB(), "GNK"},
            {"counts", gm.getCounts(), "G"},
            {"c", gm.getC(), "GMN"},
            {"the result", gm.getResult(), "GMN"}};
  case GroupLayout::contiguous:
    return {{"a", gm.getA(), "MK"},
            {"b", gm.getB(), "GNK"},
            {"group_ids", gm.getGroupIds(), "M"},
            {"c", gm.getC(), "MN"},
            {"the result", gm.getResult(), "MN"}};
  case GroupLayout::k_grouped:
    return {{"a", gm.getA(), "MK"},
            {"b", gm.getB(), "NK"},
            {"group_ids", gm.getGroupIds(), "K"},
            {"c", gm.getC(), "GMN"},
            {"the result", gm.getResult(), "GMN"}};
  }
  return {};
}

/// The shape of an operand: a tensor's, or the data's of a !fp8.scaled.
ArrayRef<int64_t> shapeOf(Value value) {
  if (auto scaled = dyn_cast<fp8::ScaledTensorType>(value.getType()))
    return scaled.getShape();
  return cast<RankedTensorType>(value.getType()).getShape();
}

/// Dimension `dim` of `operand` as an index value, before `op`.
Value emitExtent(OpBuilder &b, Operation *op, const NamedOperand &operand,
                 int64_t dim) {
  int64_t size = shapeOf(operand.value)[dim];
  if (!ShapedType::isDynamic(size))
    return arith::ConstantIndexOp::create(b, op->getLoc(), size);
  Value tensor = operand.value;
  if (isa<fp8::ScaledTensorType>(tensor.getType()))
    tensor = fp8::DisassembleOp::create(b, op->getLoc(), tensor).getData();
  return tensor::DimOp::create(b, op->getLoc(), tensor, dim);
}

/// A cf.assert before `op` for every extent two of its operands share where
/// one of them is dynamic (the verifier compared the static ones).
void verifyFP8MatmulSizes(Operation *op) {
  SmallVector<NamedOperand> operands = namedOperands(op);
  llvm::erase_if(operands, [](const NamedOperand &o) { return !o.value; });
  OpBuilder b(op);
  // The first operand (and dimension) that has each extent.
  llvm::StringMap<std::pair<size_t, int64_t>> first;
  for (auto [i, operand] : llvm::enumerate(operands)) {
    for (auto [d, letter] : llvm::enumerate(operand.extents)) {
      auto [it, inserted] = first.try_emplace(StringRef(&letter, 1),
                                              std::make_pair(i, int64_t(d)));
      if (inserted)
        continue;
      const NamedOperand &other = operands[it->second.first];
      int64_t otherDim = it->second.second;
      bool isResult = operand.value == op->getResult(0);
      int64_t size = shapeOf(operand.value)[d];
      // A dynamic result size is the lowering's, from the operands.
      if (isResult && ShapedType::isDynamic(size))
        continue;
      if (!ShapedType::isDynamic(size) &&
          !ShapedType::isDynamic(shapeOf(other.value)[otherDim]))
        continue;
      Value lhs = emitExtent(b, op, other, otherDim);
      Value rhs = emitExtent(b, op, operand, d);
      Value same = arith::CmpIOp::create(b, op->getLoc(),
                                         arith::CmpIPredicate::eq, lhs, rhs);
      std::string what;
      llvm::raw_string_ostream os(what);
      os << "the " << letter << " of " << other.name << " (dimension "
         << otherDim << ") and of " << operand.name << " (dimension " << d
         << ") differ at run time";
      cf::AssertOp::create(b, op->getLoc(), same, describeFailure(op, what));
    }
  }
}

class VerifyDynamicShapesPass
    : public fp8::impl::FP8VerifyDynamicShapesPassBase<
          VerifyDynamicShapesPass> {
public:
  using FP8VerifyDynamicShapesPassBase::FP8VerifyDynamicShapesPassBase;
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> ops;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (hasDynamicSize(op) && isa<RuntimeVerifiableOpInterface>(*op) &&
          !sizesProvablyAgree(op))
        ops.push_back(op);
    });
    for (linalg::LinalgOp op : ops) {
      OpBuilder builder(op);
      cast<RuntimeVerifiableOpInterface>(*op).generateRuntimeVerification(
          builder, op.getLoc(), describeFailure);
    }
    SmallVector<Operation *> matmuls;
    getOperation()->walk([&](Operation *op) {
      if (isa<fp8::ScaledMatmulOp, fp8::GroupedScaledMatmulOp>(op))
        matmuls.push_back(op);
    });
    for (Operation *op : matmuls)
      verifyFP8MatmulSizes(op);
  }
};

} // namespace
