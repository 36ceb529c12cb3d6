//===- CoreInternal.h - shared by the files of FP8PythonCore -*- C++ -*-===//
//
// Shared by the files of FP8PythonCore (not by the binding files, which
// never touch an MLIR type).
//
//===----------------------------------------------------------------------===//
#ifndef FP8_PYTHON_COREINTERNAL_H
#define FP8_PYTHON_COREINTERNAL_H

#include "Core.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"

namespace fp8py {

/// Every dialect, extension and LLVM IR translation fp8-opt has, with the
/// passes registered (once per process) and fp8_mlir's crash reporter
/// installed.
const mlir::DialectRegistry &getRegistry();

/// The kernels of `module` as gpuKernels says, from the kernels of its
/// top-level gpu.modules only, or with `launchers` from every op carrying an
/// #fp8.gemm_kernel / #fp8.quantize_kernel (the kernels and the launchers
/// that name theirs), each kernel once.
std::vector<KernelInfo> readKernels(mlir::ModuleOp module, bool launchers);

} // namespace fp8py

#endif // FP8_PYTHON_COREINTERNAL_H
