//===- SharedKernel.h - lowered kernels shared as functions ----*- C++ -*-===//
#ifndef FP8_LIB_CONVERSION_FP8TOLINALG_SHAREDKERNEL_H
#define FP8_LIB_CONVERSION_FP8TOLINALG_SHAREDKERNEL_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace mlir::fp8::detail {

/// Appends '_' and `t` printed with every character outside [A-Za-z0-9] as
/// '_': a symbol-safe spelling of a type, for a shared kernel's name.
void appendMangled(std::string &name, Type t);

/// What a shared kernel computes from its arguments (the entry block's
/// arguments): its results.
using SharedKernelBody = function_ref<SmallVector<Value>(
    OpBuilder &b, Location loc, ValueRange arguments)>;

/// The results of a call of the private function `name` of `module` on
/// `args`, the function created on first use with the body `build`. The
/// name must spell everything the body depends on besides the argument
/// types, which it must spell too. A model repeats a few shapes over its
/// layers: one body per kernel signature keeps the module, and the time of
/// every later pass over it, growing by one call per use rather than by a
/// whole loop nest per use.
SmallVector<Value> callSharedKernel(OpBuilder &b, Location loc, ModuleOp module,
                                    StringRef name, ValueRange args,
                                    SharedKernelBody build);

} // namespace mlir::fp8::detail

#endif // FP8_LIB_CONVERSION_FP8TOLINALG_SHAREDKERNEL_H
