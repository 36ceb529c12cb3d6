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
/// the gpu.module became a binary. A kernel that takes its sizes at run
/// time (the transpose kernel) gets a launcher per operand shape, named
/// with `suffix` (for humans; unique per shape).
func::FuncOp getOrDeclareLauncher(ModuleOp module, SymbolRefAttr kernel,
                                  Attribute config, TypeRange args,
                                  StringRef suffix = "");

/// Gives the declaration `fn` of a launcher its body (and drops the two
/// attributes above). Everything it needs follows from the declaration:
/// the kernel's configuration from the `fp8.kernel` copied from the
/// kernel, the kernel from `fp8.kernel_ref`, the shapes from the argument
/// types; so the bodies can be added after the host program was bufferized
/// and its buffers deallocated (the ownership-based deallocation rejects
/// the gpu ops) and the kernels compiled. `smCount`: the persistent grid's
/// width (0: the device's SM count at run time).
LogicalResult defineLauncher(func::FuncOp fn, int64_t smCount);

/// A unit attribute on a launcher declaration: its memref operands are
/// device buffers (its callers keep the tensors on the device,
/// makeLaunchesResident), so its body neither copies nor allocates.
/// Without it the launcher copies its inputs to the device and its results
/// back on every call.
constexpr llvm::StringLiteral kResidentOperandsAttrName =
    "fp8.resident_operands";

/// The operands a launcher of the kernel configuration `config` (its
/// fp8.kernel) writes: D of a GEMM, the codes and scales of a quantize or
/// requantize. It reads the others.
SmallVector<unsigned> getLauncherResults(Attribute config);

/// Device-resident tensors (Residency.cpp): every call of a launcher
/// declaration in `fn` (after bufferization and deallocation) gets device
/// buffers for its operands, and the launcher kResidentOperandsAttrName. A
/// host buffer is copied to the device before its first launcher use and
/// the copy reused by later launches while no host op writes the buffer; a
/// launch's result stays on the device and is copied to its host buffer
/// only before a host op reads it (or at the end of its block: a result the
/// function returns). Buffers passed from kernel to kernel never cross.
void makeLaunchesResident(func::FuncOp fn);

} // namespace fp8
} // namespace mlir

#endif // FP8_LIB_CONVERSION_FP8TONVVM_LAUNCHERS_H
