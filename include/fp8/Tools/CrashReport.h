//===- CrashReport.h - internal errors instead of signal deaths -*- C++ -*-===//
//
// The packaged MLIR 22 crashes on some malformed inputs inside its own
// parsers (test/Upstream/). A tool built on fp8-mlir installs this reporter
// once; a crash (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT) while a thread is
// in an fp8 stage then prints
//   <tool>: internal error in <stage> while processing <where>
// on stderr and exits with status 1, so scripted use sees a failure with a
// message, not a signal death. The stage is per thread: set around parsing
// (setCrashStage), the pass running on that thread (recorded by
// CrashStageInstrumentation), cleared afterwards (clearCrashStage). A crash
// outside any stage, and every other signal, keep their usual effect.
//
//===----------------------------------------------------------------------===//
#ifndef FP8_TOOLS_CRASHREPORT_H
#define FP8_TOOLS_CRASHREPORT_H

#include "mlir/Pass/PassInstrumentation.h"
#include "llvm/ADT/StringRef.h"

namespace mlir::fp8 {

/// Installs the process-wide crash reporter for `toolName`: sigaction
/// handlers for the crash signals, chaining to the previous ones outside an
/// fp8 stage. Install it after LLVM's own handlers (llvm::InitLLVM).
/// Idempotent.
void installCrashReporter(llvm::StringRef toolName);

/// Records what the calling thread does now, e.g. ("the MLIR parser",
/// "model.mlir") or ("pass 'fp8-insert-quant'", "model.mlir:12").
void setCrashStage(llvm::StringRef stage, llvm::StringRef where);

/// The calling thread leaves fp8 work: a crash is no longer reported.
void clearCrashStage();

/// Records each pass as the stage of the thread that runs it, with the
/// location of the op it runs on; restores the previous stage afterwards.
class CrashStageInstrumentation : public PassInstrumentation {
public:
  void runBeforePass(Pass *pass, Operation *op) override;
  void runAfterPass(Pass *pass, Operation *op) override;
  void runAfterPassFailed(Pass *pass, Operation *op) override;
};

} // namespace mlir::fp8

#endif // FP8_TOOLS_CRASHREPORT_H
