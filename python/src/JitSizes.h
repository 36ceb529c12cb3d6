//===- JitSizes.h - the sizes a JIT function needs ----------*- C++ -*-===//
//-*-===//
//
// A function of a JIT module takes memrefs whose dynamic sizes the caller
// chooses (NumPy arrays). Its body relates them: a linalg op needs every
// operand dimension of one loop to have the same size, a
// `bufferization.materialize_in_destination` or `memref.copy` needs the
// destination to have the sizes of the source. A call that breaks one of
// these reads or writes past an array (a SIGSEGV inside the call, or heap
// damage found later). The relations are collected once, when the module is
// created (on the IR before lowering, with the functions it calls inlined),
// as equations between affine expressions of the arguments' sizes (MLIR's
// ValueBoundsOpInterface solves each size in terms of the arguments'), and
// every call is checked against them before it runs.
//
//===----------------------------------------------------------------------===//
#ifndef FP8_PYTHON_JITSIZES_H
#define FP8_PYTHON_JITSIZES_H

#include "Core.h"

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/BuiltinOps.h"

#include <map>
#include <string>
#include <vector>

namespace fp8py {

/// A size the caller chooses: dimension `dim` of memref argument `arg`, or
/// the value of scalar (index or integer) argument `arg` when `dim` is -1.
struct SizeTerm {
  int64_t arg = 0;
  int64_t dim = -1;
  bool operator==(const SizeTerm &o) const {
    return arg == o.arg && dim == o.dim;
  }
};

/// One side of an equation: a one-result affine map applied to `terms`
/// (its dimensions, then its symbols).
struct SizeExpr {
  mlir::AffineMap map;
  std::vector<SizeTerm> terms;
};

/// lhs == rhs must hold for a call; `origin` names the op that needs it
/// ("linalg.matmul at <input>:5:10").
struct SizeEquation {
  SizeExpr lhs, rhs;
  std::string origin;
};

/// The equations of every function of `module` (by name) that has a
/// dynamic size among its memref arguments; none for the others.
std::map<std::string, std::vector<SizeEquation>>
collectSizeEquations(mlir::ModuleOp module);

/// "" when `args` satisfy every equation of `function`, else the message
/// of the first that fails, naming the argument and dimension to blame (a
/// written argument before a read one, a later one before an earlier one).
std::string checkSizeEquations(const std::vector<SizeEquation> &equations,
                               const FunctionInfo &function,
                               const std::vector<JitModule::CallArg> &args);

} // namespace fp8py

#endif // FP8_PYTHON_JITSIZES_H
