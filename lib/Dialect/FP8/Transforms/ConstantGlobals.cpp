//===- ConstantGlobals.cpp - fp8-constant-globals
//--------------------------===//
//
// The memref.globals one-shot bufferization would create for the tensor
// constants, created first in module order so that their order and names
// do not depend on the order bufferization visits the functions
// (Passes.td).
//
//===----------------------------------------------------------------------===//
#include "fp8/Dialect/FP8/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/Transforms/BufferUtils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::fp8 {
#define GEN_PASS_DEF_FP8CONSTANTGLOBALSPASS
#include "fp8/Dialect/FP8/Transforms/Passes.h.inc"
} // namespace mlir::fp8

using namespace mlir;

namespace {

class ConstantGlobalsPass
    : public fp8::impl::FP8ConstantGlobalsPassBase<ConstantGlobalsPass> {
public:
  using FP8ConstantGlobalsPassBase::FP8ConstantGlobalsPassBase;

  /// memref.global takes no alignment or a positive power of two (an i64):
  /// another value gave globals that fail to verify after the pass.
  LogicalResult initialize(MLIRContext *ctx) override {
    if (alignment != 0 &&
        (!llvm::isPowerOf2_64(alignment) || alignment > (uint64_t(1) << 62)))
      return emitError(UnknownLoc::get(ctx))
             << "fp8-constant-globals: option alignment="
             << static_cast<uint64_t>(alignment)
             << " is invalid: expected 0 (no alignment) or a power of two "
                "up to 2^62 (bytes, one-shot-bufferize's buffer-alignment)";
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (module.getBody()->empty())
      return;
    // New globals go before the module's first op other than the globals
    // at its start, in the order they are created (getGlobalFor moves each
    // to the very front).
    Operation *insertBefore = &module.getBody()->front();
    while (isa<memref::GlobalOp>(insertBefore) && insertBefore->getNextNode())
      insertBefore = insertBefore->getNextNode();
    bool atEnd = isa<memref::GlobalOp>(insertBefore);
    DenseSet<Operation *> existing;
    for (auto global : module.getOps<memref::GlobalOp>())
      existing.insert(global);
    SymbolTableCollection symbolTables;
    WalkResult walk = module.walk([&](arith::ConstantOp constant) {
      // Only what bufferization turns into a global of this module.
      if (!isa<RankedTensorType>(constant.getType()) ||
          constant->getParentWithTrait<OpTrait::SymbolTable>() != module)
        return WalkResult::advance();
      FailureOr<memref::GlobalOp> global = bufferization::getGlobalFor(
          constant, symbolTables, alignment, /*memorySpace=*/Attribute());
      if (failed(global)) {
        constant.emitError("fp8-constant-globals: no global for this "
                           "constant");
        return WalkResult::interrupt();
      }
      if (existing.insert(*global).second) {
        if (atEnd)
          (*global)->moveBefore(module.getBody(), module.getBody()->end());
        else
          (*global)->moveBefore(insertBefore);
      }
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
