//===- ReportFP8Ops.cpp - fp8-report's list of FP8 ops --------------------===//
#include "ReportCollect.h"

#include "fp8/Dialect/FP8/IR/FP8.h"

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::fp8;

/// A size list with `?` (dynamic, or a whole-dimension block) as nullopt.
static std::vector<std::optional<int64_t>> sizes(ArrayRef<int64_t> dims) {
  std::vector<std::optional<int64_t>> out;
  for (int64_t d : dims)
    out.push_back(ShapedType::isDynamic(d) ? std::nullopt
                                           : std::optional<int64_t>(d));
  return out;
}

static std::string typeName(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  t.print(os);
  return s;
}

/// A tensor type; an !fp8.scaled one with its block and scale type.
static ReportTensorType tensorType(Type type) {
  ReportTensorType t;
  if (auto st = dyn_cast<ScaledTensorType>(type)) {
    t.shape = sizes(st.getShape());
    t.elementType = typeName(st.getElementType());
    t.scaled = true;
    t.block = sizes(st.getBlockShape());
    t.scaleType = typeName(st.getScaleType());
  } else if (auto st = dyn_cast<ShapedType>(type)) {
    t.shape = sizes(st.getShape());
    t.elementType = typeName(st.getElementType());
  }
  return t;
}

/// The fields of `op`'s kind; false for an op that is not an FP8 op.
static bool fillFP8Op(Operation *op, ReportFP8Op &o) {
  return llvm::TypeSwitch<Operation *, bool>(op)
      .Case([&](QuantizeOp q) {
        o.input = tensorType(q.getInput().getType());
        o.scaleMode = stringifyScaleMode(q.getScaleMode()).str();
        return true;
      })
      .Case([&](RequantizeOp q) {
        o.input = tensorType(q.getInput().getType());
        o.scaleMode = stringifyScaleMode(q.getScaleMode()).str();
        if (std::optional<ArrayRef<int64_t>> perm = q.getPermutation())
          o.permutation = sizes(*perm);
        return true;
      })
      .Case<ScaledMatmulOp, GroupedScaledMatmulOp>([&](auto mm) {
        o.a = tensorType(mm.getA().getType());
        o.b = tensorType(mm.getB().getType());
        o.promoteInterval = mm.getPromoteInterval();
        o.accumulator = static_cast<bool>(mm.getC());
        return true;
      })
      .Default([](Operation *) { return false; });
}

std::vector<ReportFP8Op> mlir::fp8::collectFP8Ops(ModuleOp module) {
  std::vector<ReportFP8Op> out;
  module.walk([&](Operation *op) {
    ReportFP8Op o;
    if (!fillFP8Op(op, o))
      return;
    auto func = op->getParentOfType<FunctionOpInterface>();
    o.op = op->getName().getStringRef().str();
    o.result = tensorType(op->getResult(0).getType());
    o.function = cast<SymbolOpInterface>(func.getOperation()).getName().str();
    o.location = locationString(op->getLoc());
    o.count = runsPerCall(op, func.getOperation());
    out.push_back(std::move(o));
  });
  return out;
}
