//===- Decompose.cpp - fp8-decompose: !fp8.scaled at function boundaries --===//
//
// The 1:N type conversion !fp8.scaled -> (data tensor, scale tensor) at
// func.func/call/return, with fp8.assemble/disassemble as materializations:
// how callers that hold raw buffers pass quantized tensors in and out.
// fp8-lower-to-linalg applies the same boundary conversion.
//
//===----------------------------------------------------------------------===//
#include "fp8/Conversion/FP8ToLinalg/FP8ToLinalg.h"
#include "fp8/Dialect/FP8/IR/FP8.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::fp8 {
#define GEN_PASS_DEF_FP8DECOMPOSEPASS
#include "fp8/Conversion/Passes.h.inc"
} // namespace mlir::fp8

using namespace mlir;
using namespace mlir::fp8;

void fp8::populateFP8DecomposeTypeConversion(TypeConverter &converter) {
  converter.addConversion([](Type t) { return t; });
  converter.addConversion(
      [](ScaledTensorType t, SmallVectorImpl<Type> &results) {
        results.push_back(t.getDataTensorType());
        results.push_back(t.getScaleTensorType());
        return success();
      });
  converter.addSourceMaterialization([](OpBuilder &b, ScaledTensorType type,
                                        ValueRange inputs,
                                        Location loc) -> Value {
    if (inputs.size() != 2)
      return Value();
    return AssembleOp::create(b, loc, type, inputs[0], inputs[1]);
  });
  converter.addTargetMaterialization([](OpBuilder &b, TypeRange types,
                                        ValueRange inputs, Location loc,
                                        Type original) -> SmallVector<Value> {
    if (inputs.size() != 1 || !isa<ScaledTensorType>(inputs[0].getType()))
      return {};
    auto op = DisassembleOp::create(b, loc, inputs[0]);
    if (TypeRange(op.getResultTypes()) != types)
      return {};
    return SmallVector<Value>(op.getResults());
  });
}

void fp8::populateFP8FunctionBoundaryConversion(TypeConverter &converter,
                                                RewritePatternSet &patterns,
                                                ConversionTarget &target) {
  populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                 converter);
  populateCallOpTypeConversionPattern(patterns, converter);
  populateReturnOpTypeConversionPattern(patterns, converter);
  target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp op) {
    return converter.isSignatureLegal(op.getFunctionType()) &&
           converter.isLegal(&op.getBody());
  });
  target.addDynamicallyLegalOp<func::CallOp, func::ReturnOp>(
      [&](Operation *op) { return converter.isLegal(op); });
  scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                       target);
}

/// The type, other than !fp8.scaled itself, that nests one (a tensor of
/// them, a function value's type), or null.
static Type nestingScaled(Type t) {
  if (isa<ScaledTensorType>(t))
    return {};
  bool nests = false;
  t.walk([&](ScaledTensorType) { nests = true; });
  return nests ? t : Type();
}

LogicalResult fp8::verifyScaledValuesConvertible(Operation *root,
                                                 StringRef pass) {
  WalkResult result = root->walk([&](Operation *op) {
    auto refuse = [&](Type t, StringRef what) {
      op->emitOpError() << pass << ": " << what << " has type " << t
                        << ", which nests !fp8.scaled: not supported (the 1:N "
                           "conversion of !fp8.scaled into its data and "
                           "scale tensors rewrites values of that type, "
                           "function signatures, direct calls, returns and "
                           "scf ops, not types built from it: a "
                           "tensor of scaled tensors, a function value for "
                           "func.constant or func.call_indirect)";
      return WalkResult::interrupt();
    };
    for (Value v : op->getOperands())
      if (Type t = nestingScaled(v.getType()))
        return refuse(t, "an operand");
    for (Value v : op->getResults())
      if (Type t = nestingScaled(v.getType()))
        return refuse(t, "a result");
    for (Region &r : op->getRegions())
      for (Block &b : r)
        for (BlockArgument a : b.getArguments()) {
          if (Type t = nestingScaled(a.getType()))
            return refuse(t, "a block argument");
          // The conversion leaves a non-entry block's signature as it is.
          if (isa<ScaledTensorType>(a.getType()) && !b.isEntryBlock()) {
            op->emitOpError()
                << pass << ": argument #" << a.getArgNumber()
                << " of a block other than the entry block has type "
                << a.getType()
                << ": not supported (a !fp8.scaled value passed by a branch, "
                   "cf.br or cf.cond_br; structured control flow, scf.if "
                   "and scf.for, carries one)";
            return WalkResult::interrupt();
          }
        }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

namespace {
struct FP8DecomposePass : fp8::impl::FP8DecomposePassBase<FP8DecomposePass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    TypeConverter converter;
    populateFP8DecomposeTypeConversion(converter);
    RewritePatternSet patterns(ctx);
    ConversionTarget target(*ctx);
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    populateFP8FunctionBoundaryConversion(converter, patterns, target);
    if (failed(
            verifyScaledValuesConvertible(getOperation(), "fp8-decompose")) ||
        failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
