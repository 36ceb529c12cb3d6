//===- KernelFrame.h - one-kernel modules for the emulator's tests --------===//
//
// The emulator's unit tests write small kernels as MLIR text: the module
// around a kernel body, and its translation by the emulator, are the same
// in each of them.
//
//===----------------------------------------------------------------------===//
#ifndef FP8_UNITTESTS_EMULATOR_KERNELFRAME_H
#define FP8_UNITTESTS_EMULATOR_KERNELFRAME_H

#include "fp8/Emulator/Emulator.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/Parser/Parser.h"

#include <memory>
#include <string>

namespace emutest {

/// The text of a module holding gpu.module @`name` with one kernel
/// @k(`params`) of at most `maxntid` threads and the dynamic shared memory
/// @smem; `body` (ending with the kernel's return) follows %tid (tid.x)
/// and %s (@smem's address).
inline std::string kernelModuleText(const std::string &name,
                                    const std::string &params, unsigned maxntid,
                                    const std::string &body) {
  return "module attributes {gpu.container_module} {\ngpu.module @" + name +
         " {\n  llvm.mlir.global external @smem() {addr_space = 3 : i32, "
         "alignment = 1024 : i64} : !llvm.array<0 x i8>\n  llvm.func @k(" +
         params + ") attributes {nvvm.kernel, nvvm.maxntid = array<i32: " +
         std::to_string(maxntid) +
         ", 1, 1>} {\n    %tid = nvvm.read.ptx.sreg.tid.x : i32\n"
         "    %s = llvm.mlir.addressof @smem : !llvm.ptr<3>\n" +
         body + "\n  }\n}\n}";
}

/// A module's kernels as the emulator translated them, with the context
/// their attributes live in.
struct TranslatedKernels {
  std::unique_ptr<mlir::MLIRContext> ctx;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  /// Null when the text does not parse or translate (`error` says why).
  std::unique_ptr<mlir::fp8::emu::KernelModule> kernels;
  std::string error;
};

/// Parses `text` (every dialect registered) and translates its kernels.
inline TranslatedKernels translateKernels(const std::string &text) {
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  TranslatedKernels t;
  t.ctx = std::make_unique<mlir::MLIRContext>(registry);
  t.ctx->loadAllAvailableDialects();
  t.module = mlir::parseSourceString<mlir::ModuleOp>(text, t.ctx.get());
  if (!t.module) {
    t.error = "parse error";
    return t;
  }
  t.kernels = mlir::fp8::emu::KernelModule::create(*t.module, t.error);
  return t;
}

} // namespace emutest

#endif // FP8_UNITTESTS_EMULATOR_KERNELFRAME_H
