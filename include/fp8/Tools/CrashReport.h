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
// An embedder that must survive such a crash (the Python module: an
// interpreter is never aborted) runs the work through runRecoverable: on its
// own thread with a large stack, where a crash signal, a stack overflow, an
// LLVM fatal error or a cancellation request unwinds to the caller with a
// message instead (docs/robustness.md argues this design).
//
//===----------------------------------------------------------------------===//
#ifndef FP8_TOOLS_CRASHREPORT_H
#define FP8_TOOLS_CRASHREPORT_H

#include "mlir/Pass/PassInstrumentation.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <atomic>
#include <cstddef>
#include <string>

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

/// What runRecoverable reports when `fn` did not return normally.
struct RecoveredFailure {
  enum Kind { None, Crash, FatalError, Cancelled } kind = None;
  /// "internal error in <stage> while processing <where>: <what>" for a
  /// crash or a fatal error; "interrupted before pass 'NAME'" when cancelled.
  std::string message;
  /// <what> alone, e.g. "segmentation fault (an invalid memory access)".
  std::string cause;
};

/// Runs `fn` on a new thread with `stackBytes` of stack and waits for it;
/// the calling thread calls `poll` every 50 ms meanwhile (e.g. to check for
/// Ctrl-C) and requests cancellation when it returns true. On that thread, a
/// crash signal (SIGSEGV, SIGBUS, SIGILL, SIGFPE, including a stack
/// overflow, handled on an alternate signal stack), an LLVM fatal error
/// (llvm::report_fatal_error), an allocation failure LLVM reports
/// (llvm::report_bad_alloc_error), an uncaught C++ exception
/// (std::terminate, e.g. std::bad_alloc), a call of recoverableAbort or,
/// once cancellation was requested, the start of the next pass
/// (CrashStageInstrumentation) jumps back to the start of the thread: `fn`
/// does not complete, nothing it allocated is freed (its MLIRContext is
/// leaked, never reused), and the failure is returned. Returns Kind::None
/// when `fn` returned. A SIGABRT (the C library found its heap corrupted:
/// nothing in the process can be trusted), and crashes and fatal errors on
/// other threads, keep the behaviour of installCrashReporter: a message on
/// stderr and exit status 1. So `fn` must run its passes on its own thread
/// (an MLIRContext with multithreading disabled).
RecoveredFailure runRecoverable(llvm::function_ref<void()> fn,
                                size_t stackBytes,
                                llvm::function_ref<bool()> poll = nullptr);

/// What JIT-compiled code should call as `abort` (the LLVM lowering of a
/// failed cf.assert calls it): on a thread inside runRecoverable, the run
/// fails with "abort() called by the compiled code" (a deliberate stop, the
/// heap is intact); elsewhere std::abort().
[[noreturn]] void recoverableAbort();

/// True on a thread inside runRecoverable whose caller asked it to stop
/// (its `poll` returned true).
bool isCancellationRequested();

/// Ends the run of the calling thread now, as a cancellation at a pass
/// boundary does: jumps back to runRecoverable, which returns
/// Kind::Cancelled with `what` as the message. Only on a thread where
/// isCancellationRequested() is true, and only where nothing the process
/// still uses is half-done (JIT-compiled code calling into the runtime:
/// what it allocated is leaked, its outputs are undefined).
[[noreturn]] void stopCancelledRun(llvm::StringRef what);

/// Sends the fatal reports of the calling thread (a SIGABRT on a
/// recovering thread) to descriptor `fd` instead of standard error, after
/// copying there what `captured` holds (a file read from its start; -1:
/// none). For a thread whose descriptors 1 and 2 are redirected into
/// captures (the Python module's calls): a report that ends the process
/// must reach the real stderr, with the messages written before it (the C
/// library's own, for a SIGABRT). A thread's setting ends with it.
void redirectCrashReports(int fd, int captured);

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
