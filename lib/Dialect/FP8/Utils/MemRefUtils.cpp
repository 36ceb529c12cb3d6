//===- MemRefUtils.cpp - memref helpers shared by the passes --------------===//
//
//===----------------------------------------------------------------------===//
#include "fp8/Dialect/FP8/Utils/MemRefUtils.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;

Value mlir::fp8::getRootBuffer(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (auto view = dyn_cast<ViewLikeOpInterface>(def)) {
      v = view.getViewSource();
      continue;
    }
    if (auto meta = dyn_cast<memref::ExtractStridedMetadataOp>(def)) {
      v = meta.getSource();
      continue;
    }
    break;
  }
  return v;
}
