//===- Launchers.h - fp8-launch-kernels' launcher functions -----*- C++ -*-===//
//
// The launcher functions of fp8-launch-kernels (LaunchKernels.cpp): a
// declaration per kernel at the call sites, a body (device buffers, TMA
// descriptors, the launch with the kernel's grid) defined from the kernel's
// typed configuration alone.
//
//===----------------------------------------------------------------------===//
#ifndef FP8_LIB_CONVERSION_FP8TONVVM_LAUNCHERS_H
#define FP8_LIB_CONVERSION_FP8TONVVM_LAUNCHERS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir {
namespace fp8 {

/// The declaration `func.func private @fp8_launch_<kernel>(args...)` at the
/// end of `module` (once per kernel); its body comes from defineLauncher.
/// It carries its kernel's reference (`fp8.kernel_ref`) and typed
/// configuration (`fp8.kernel`, copied), so the body can be defined after
/// the gpu.module became a binary.
func::FuncOp getOrDeclareLauncher(ModuleOp module, SymbolRefAttr kernel,
                                  Attribute config, TypeRange args);

/// Gives the declaration `fn` of a launcher its body (and drops the two
/// attributes above). Everything it needs follows from the declaration:
/// the kernel's configuration from the `fp8.kernel` copied from the
/// kernel, the kernel from `fp8.kernel_ref`, the shapes from the argument
/// types; so the bodies can be added after the host program was bufferized
/// and its buffers deallocated (the ownership-based deallocation rejects
/// the gpu ops) and the kernels compiled. `smCount`: the persistent grid's
/// width (0: the device's SM count at run time).
LogicalResult defineLauncher(func::FuncOp fn, int64_t smCount);

} // namespace fp8
} // namespace mlir

#endif // FP8_LIB_CONVERSION_FP8TONVVM_LAUNCHERS_H
