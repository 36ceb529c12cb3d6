//===- ReportFP8Ops.cpp - fp8-report's list of FP8 ops --------------------===//
#include "ReportFP8Ops.h"

#include "fp8/Dialect/FP8/IR/FP8.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::fp8;

/// A size list with `?` (dynamic, or a whole-dimension block) as null.
static llvm::json::Array sizes(ArrayRef<int64_t> dims) {
  llvm::json::Array a;
  for (int64_t d : dims)
    a.push_back(ShapedType::isDynamic(d) ? llvm::json::Value(nullptr)
                                         : llvm::json::Value(d));
  return a;
}

static std::string typeName(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  t.print(os);
  return s;
}

/// A tensor type; an !fp8.scaled one with its block and scale type.
static llvm::json::Object typeJson(Type type) {
  llvm::json::Object o;
  if (auto st = dyn_cast<ScaledTensorType>(type)) {
    o["shape"] = sizes(st.getShape());
    o["element_type"] = typeName(st.getElementType());
    o["block"] = sizes(st.getBlockShape());
    o["scale_type"] = typeName(st.getScaleType());
  } else if (auto t = dyn_cast<ShapedType>(type)) {
    o["shape"] = sizes(t.getShape());
    o["element_type"] = typeName(t.getElementType());
  }
  return o;
}

llvm::json::Array mlir::fp8::fp8OpsJson(
    ModuleOp module,
    function_ref<void(Operation *, llvm::json::Object &)> common) {
  llvm::json::Array out;
  module.walk([&](Operation *op) {
    llvm::json::Object o;
    bool fp8 =
        llvm::TypeSwitch<Operation *, bool>(op)
            .Case([&](QuantizeOp q) {
              o["input"] = typeJson(q.getInput().getType());
              o["scale_mode"] = stringifyScaleMode(q.getScaleMode()).str();
              return true;
            })
            .Case([&](RequantizeOp q) {
              o["input"] = typeJson(q.getInput().getType());
              o["scale_mode"] = stringifyScaleMode(q.getScaleMode()).str();
              std::optional<ArrayRef<int64_t>> perm = q.getPermutation();
              o["permutation"] = perm ? llvm::json::Value(sizes(*perm))
                                      : llvm::json::Value(nullptr);
              return true;
            })
            .Case<ScaledMatmulOp, GroupedScaledMatmulOp>([&](auto mm) {
              o["a"] = typeJson(mm.getA().getType());
              o["b"] = typeJson(mm.getB().getType());
              o["promote_interval"] = mm.getPromoteInterval();
              o["accumulator"] = static_cast<bool>(mm.getC());
              return true;
            })
            .Default([](Operation *) { return false; });
    if (!fp8)
      return;
    o["op"] = op->getName().getStringRef().str();
    o["result"] = typeJson(op->getResult(0).getType());
    common(op, o);
    out.push_back(std::move(o));
  });
  return out;
}
