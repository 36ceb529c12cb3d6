//===- CrashReport.cpp - internal errors instead of signal deaths ---------===//
//
// Own sigaction handlers for the crash signals only (SIGSEGV, SIGBUS,
// SIGILL, SIGFPE, SIGABRT): a stop requested from outside (SIGQUIT, SIGXCPU,
// SIGXFSZ, SIGINT, ...) is not a crash and keeps its usual effect. A crash
// while no fp8 stage is active (outside a parse or a pass: other code of the
// host process, the JIT-compiled kernels) is handed to the handler that was
// installed before, so the process dies as it would have.
//
// runRecoverable adds a recovery point per thread: a crash on a thread that
// has one jumps back to it (sigsetjmp/siglongjmp, as llvm::CrashRecoveryContext
// does) instead of ending the process. The other ways the release libMLIR
// ends a process are caught before they become a SIGABRT: LLVM's fatal and
// out-of-memory errors (its handlers), uncaught C++ exceptions (a terminate
// handler), abort() called by JIT-compiled code (recoverableAbort). A SIGABRT
// that still arrives comes from the C library itself (heap corruption
// detected, with the allocator's lock possibly held): nothing in the process
// can be trusted, so it is never recovered; the process ends with status 1
// and a message saying so.
//
//===----------------------------------------------------------------------===//
#include "fp8/Tools/CrashReport.h"

#include "mlir/IR/Location.h"
#include "mlir/IR/Operation.h"
#include "mlir/Pass/Pass.h"
#include "llvm/Support/ErrorHandling.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csetjmp>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <cxxabi.h>
#include <exception>
#include <mutex>
#include <pthread.h>
#include <string>
#include <typeinfo>
#include <unistd.h>
#include <utility>
#include <vector>

using namespace mlir;

namespace {
/// Fixed-size buffers: the message is composed in the signal handler, which
/// must not allocate. An empty stage means "not inside fp8 work".
constexpr size_t kTextSize = 512;
char toolName[64] = "fp8";
thread_local char stageText[kTextSize] = "";
thread_local char whereText[kTextSize] = "";

constexpr int kCrashSignals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
struct sigaction previousActions[NSIG];

/// The recovery point of the calling thread (runRecoverable), what made it
/// jump there, and its cancellation flag.
thread_local sigjmp_buf *recoveryPoint = nullptr;
thread_local fp8::RecoveredFailure::Kind failureKind =
    fp8::RecoveredFailure::None;
thread_local char failureText[3 * kTextSize] = "";
thread_local char causeText[kTextSize] = "";
thread_local const std::atomic<bool> *cancelRequested = nullptr;
/// Where the calling thread's fatal reports go, and the capture of its
/// standard error to copy there first (redirectCrashReports).
thread_local int reportFd = STDERR_FILENO;
thread_local int capturedErrFd = -1;
/// The lowest address of the recovering thread's stack: a fault just below
/// it is a stack overflow.
thread_local uintptr_t stackLow = 0;

/// Appends `text` to `failureText` without allocating (signal handlers).
void appendFailure(const char *text) {
  size_t used = std::strlen(failureText);
  size_t n = std::min(sizeof(failureText) - 1 - used, std::strlen(text));
  std::memcpy(failureText + used, text, n);
  failureText[used + n] = '\0';
}

const char *describeSignal(int sig) {
  switch (sig) {
  case SIGSEGV:
    return "segmentation fault (an invalid memory access)";
  case SIGBUS:
    return "bus error";
  case SIGILL:
    return "illegal instruction";
  case SIGFPE:
    return "arithmetic exception (an integer division by zero or overflow)";
  default:
    return "signal";
  }
}

/// Records the lowest address of the calling thread's stack.
void recordStackLow() {
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) != 0)
    return;
  void *low = nullptr;
  size_t size = 0;
  if (pthread_attr_getstack(&attr, &low, &size) == 0)
    stackLow = reinterpret_cast<uintptr_t>(low);
  pthread_attr_destroy(&attr);
}

/// True for a SIGSEGV just below the calling thread's stack: an overflow.
bool isStackOverflow(int sig, siginfo_t *info) {
  auto addr = reinterpret_cast<uintptr_t>(info ? info->si_addr : nullptr);
  return sig == SIGSEGV && stackLow && addr < stackLow + 65536 &&
         addr + (1u << 20) >= stackLow;
}

/// Composes the message of a crash or fatal error and jumps to the calling
/// thread's recovery point.
[[noreturn]] void recover(fp8::RecoveredFailure::Kind kind, const char *what) {
  failureText[0] = '\0';
  appendFailure("internal error in ");
  appendFailure(stageText[0] ? stageText : "fp8-mlir");
  if (whereText[0]) {
    appendFailure(" while processing ");
    appendFailure(whereText);
  }
  appendFailure(": ");
  appendFailure(what);
  size_t n = std::min(sizeof(causeText) - 1, std::strlen(what));
  std::memcpy(causeText, what, n);
  causeText[n] = '\0';
  failureKind = kind;
  siglongjmp(*recoveryPoint, 1);
}

void copyTo(char *dst, size_t size, llvm::StringRef src) {
  size_t n = std::min(size - 1, src.size());
  std::memcpy(dst, src.data(), n);
  dst[n] = '\0';
}

void writeAll(const char *text, size_t len) {
  while (len > 0) {
    ssize_t n = ::write(reportFd, text, len);
    if (n <= 0)
      return;
    text += n;
    len -= n;
  }
}

void writeAll(const char *text) { writeAll(text, std::strlen(text)); }

/// Copies the calling thread's captured standard error to its report
/// descriptor (async-signal-safe: pread and write only).
void replayCapturedErr() {
  if (capturedErrFd < 0)
    return;
  char buf[4096];
  off_t at = 0;
  for (ssize_t n; (n = ::pread(capturedErrFd, buf, sizeof(buf), at)) > 0;
       at += n)
    writeAll(buf, n);
}

/// Set by the first thread that reports a crash. Worker threads of a pass
/// manager can crash at the same time: the first one writes its report and
/// exits the process; the others wait for that exit instead of
/// interleaving their reports with it (a lock-free atomic: signal-safe).
std::atomic<bool> crashReported{false};

/// Runs on the crashing thread.
void onCrashSignal(int sig, siginfo_t *info, void *) {
  bool overflow = isStackOverflow(sig, info);
  if (recoveryPoint && sig != SIGABRT)
    recover(fp8::RecoveredFailure::Crash,
            overflow ? "stack overflow (the input is nested too deeply)"
                     : describeSignal(sig));
  if (stageText[0] != '\0' || recoveryPoint) {
    if (crashReported.exchange(true))
      for (;;)
        ::pause();
    replayCapturedErr();
    writeAll(toolName);
    writeAll(": internal error in ");
    writeAll(stageText[0] ? stageText : "fp8-mlir");
    if (whereText[0]) {
      writeAll(" while processing ");
      writeAll(whereText);
    }
    if (overflow)
      writeAll(": stack overflow (the input is nested too deeply)\n");
    else if (sig == SIGABRT)
      // What reaches here is the C library's own abort (the fatal, OOM and
      // C++ runtime aborts are recovered before): it found its heap
      // corrupted and may hold the allocator's lock, so the process cannot
      // go on, not even in a recovered call.
      writeAll(": abort() (SIGABRT): the C library or the C++ runtime "
               "stopped the process (its message is above: a corrupted heap, "
               "or memory exhausted outside a recoverable call); the process "
               "cannot continue safely and exits with status 1\n");
    else
      writeAll(" (a crash, not a diagnostic: please report it with the "
               "input)\n");
    ::_exit(1);
  }
  // Not fp8's: restore the previous disposition and let the signal take
  // its course (a fault re-executes the faulting instruction on return).
  sigaction(sig, &previousActions[sig], nullptr);
  if (sig == SIGABRT)
    raise(sig);
}

std::string locationString(Location loc) {
  if (auto f = dyn_cast<FileLineColLoc>(loc))
    return (f.getFilename().getValue() + ":" + llvm::Twine(f.getLine())).str();
  if (auto n = dyn_cast<NameLoc>(loc))
    return locationString(n.getChildLoc());
  if (auto f = dyn_cast<FusedLoc>(loc))
    for (Location l : f.getLocations())
      if (std::string s = locationString(l); !s.empty())
        return s;
  if (auto c = dyn_cast<CallSiteLoc>(loc))
    return locationString(c.getCallee());
  return "";
}

/// The stages the running (possibly nested) passes replaced, per thread.
thread_local std::vector<std::pair<std::string, std::string>> stageStack;

/// Installs onCrashSignal for every crash signal whose current handler is
/// another one (installed after ours, e.g. Python's faulthandler enabled
/// later), chaining to that one.
void installHandlers() {
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  struct sigaction action = {};
  action.sa_sigaction = onCrashSignal;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  for (int sig : kCrashSignals) {
    struct sigaction current;
    if (sigaction(sig, nullptr, &current) == 0 &&
        (current.sa_flags & SA_SIGINFO) &&
        current.sa_sigaction == onCrashSignal)
      continue;
    sigaction(sig, &action, &previousActions[sig]);
  }
}

/// LLVM fatal errors (report_fatal_error, e.g. "IO failure on output
/// stream") on a thread with a recovery point unwind to it; elsewhere they
/// print as LLVM's default handler does, and LLVM then exits with status 1.
void onFatalError(void *, const char *reason, bool) {
  if (recoveryPoint) {
    std::string what = std::string("LLVM ERROR: ") + reason;
    recover(fp8::RecoveredFailure::FatalError, what.c_str());
  }
  writeAll("LLVM ERROR: ");
  writeAll(reason);
  writeAll("\n");
}

/// LLVM's allocation failures (llvm::report_bad_alloc_error, e.g. a
/// SmallVector or DenseMap that cannot grow) would write "out of memory" and
/// abort(); on a recovering thread nothing is corrupted, the run fails.
void onBadAlloc(void *, const char *reason, bool) {
  if (recoveryPoint) {
    // Composed without allocating: memory is what ran out.
    char what[kTextSize] = "out of memory (";
    size_t used = std::strlen(what);
    size_t n = std::min(sizeof(what) - 2 - used, std::strlen(reason));
    std::memcpy(what + used, reason, n);
    std::memcpy(what + used + n, ")", 2);
    recover(fp8::RecoveredFailure::FatalError, what);
  }
  writeAll("LLVM ERROR: out of memory\n");
  std::abort();
}

std::terminate_handler previousTerminate = nullptr;

/// An uncaught C++ exception (std::bad_alloc from operator new, a
/// std::length_error of a container): libstdc++ calls std::terminate on the
/// throwing thread before unwinding anything, so the run's state is what it
/// was at the throw, as for a crash signal. The type is named without
/// allocating (the exception may be std::bad_alloc).
void onTerminate() {
  if (recoveryPoint) {
    const std::type_info *type = abi::__cxa_current_exception_type();
    // Mangled names (the Itanium ABI): RTTI may be off in this build.
    if (type && std::strcmp(type->name(), "St9bad_alloc") == 0)
      recover(fp8::RecoveredFailure::FatalError,
              "out of memory (std::bad_alloc)");
    failureText[0] = '\0';
    char what[kTextSize] = "uncaught C++ exception ";
    size_t used = std::strlen(what);
    const char *name = type ? type->name() : "(none: std::terminate called)";
    size_t n = std::min(sizeof(what) - 1 - used, std::strlen(name));
    std::memcpy(what + used, name, n);
    what[used + n] = '\0';
    recover(fp8::RecoveredFailure::FatalError, what);
  }
  if (previousTerminate)
    previousTerminate();
  std::abort();
}
} // namespace

[[noreturn]] void fp8::recoverableAbort() {
  if (recoveryPoint)
    recover(RecoveredFailure::Crash,
            "abort() called by the compiled code (a failed cf.assert "
            "prints its message first)");
  std::abort();
}

void fp8::installCrashReporter(llvm::StringRef name) {
  copyTo(toolName, sizeof(toolName), name);
  // The tools parse on the thread that installs the reporter (main).
  recordStackLow();
  installHandlers();
}

namespace {
struct RecoverableRun {
  llvm::function_ref<void()> fn;
  std::atomic<bool> cancel{false};
  std::mutex mutex;
  std::condition_variable doneChanged;
  bool done = false;
  fp8::RecoveredFailure failure;
};

void *runRecoverableThread(void *arg) {
  RecoverableRun &run = *static_cast<RecoverableRun *>(arg);
  // The handler of a stack overflow needs a stack of its own.
  size_t altSize = 64 * 1024;
  stack_t alt = {};
  alt.ss_sp = std::malloc(altSize);
  alt.ss_size = altSize;
  bool haveAlt = alt.ss_sp && sigaltstack(&alt, nullptr) == 0;
  recordStackLow();
  sigjmp_buf point;
  cancelRequested = &run.cancel;
  failureKind = fp8::RecoveredFailure::None;
  if (sigsetjmp(point, /*savemask=*/1) == 0) {
    recoveryPoint = &point;
    run.fn();
  } else {
    run.failure.kind = failureKind;
    run.failure.message = failureText;
    run.failure.cause = causeText;
  }
  recoveryPoint = nullptr;
  cancelRequested = nullptr;
  fp8::clearCrashStage();
  if (haveAlt) {
    stack_t off = {};
    off.ss_flags = SS_DISABLE;
    sigaltstack(&off, nullptr);
  }
  std::free(alt.ss_sp);
  {
    std::lock_guard<std::mutex> lock(run.mutex);
    run.done = true;
  }
  run.doneChanged.notify_all();
  return nullptr;
}
} // namespace

fp8::RecoveredFailure fp8::runRecoverable(llvm::function_ref<void()> fn,
                                          size_t stackBytes,
                                          llvm::function_ref<bool()> poll) {
  installHandlers();
  static std::once_flag fatalHandlerOnce;
  std::call_once(fatalHandlerOnce, [] {
    llvm::install_fatal_error_handler(onFatalError);
    llvm::install_bad_alloc_error_handler(onBadAlloc);
    previousTerminate = std::set_terminate(onTerminate);
  });

  RecoverableRun run;
  run.fn = fn;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, stackBytes);
  pthread_t thread;
  int status = pthread_create(&thread, &attr, runRecoverableThread, &run);
  pthread_attr_destroy(&attr);
  if (status != 0) // No memory for the large stack: the default one.
    status = pthread_create(&thread, nullptr, runRecoverableThread, &run);
  if (status != 0) {
    run.failure.kind = RecoveredFailure::Crash;
    run.failure.message = "internal error: cannot start a thread (" +
                          std::string(std::strerror(status)) + ")";
    return run.failure;
  }
  {
    std::unique_lock<std::mutex> lock(run.mutex);
    while (!run.doneChanged.wait_for(lock, std::chrono::milliseconds(50),
                                     [&] { return run.done; })) {
      if (!poll)
        continue;
      lock.unlock();
      if (poll())
        run.cancel = true;
      lock.lock();
    }
  }
  pthread_join(thread, nullptr);
  return std::move(run.failure);
}

void fp8::setCrashStage(llvm::StringRef stage, llvm::StringRef where) {
  copyTo(stageText, kTextSize, stage);
  copyTo(whereText, kTextSize, where);
}

void fp8::clearCrashStage() { setCrashStage("", ""); }

void fp8::CrashStageInstrumentation::runBeforePass(Pass *pass, Operation *op) {
  // A cancelled run stops here, between passes: nothing is half-written.
  if (recoveryPoint && cancelRequested && cancelRequested->load() &&
      !pass->getArgument().empty()) {
    failureText[0] = '\0';
    appendFailure("interrupted before pass '");
    std::string name = pass->getArgument().str();
    appendFailure(name.c_str());
    appendFailure("'");
    failureKind = RecoveredFailure::Cancelled;
    siglongjmp(*recoveryPoint, 1);
  }
  stageStack.emplace_back(stageText, whereText);
  // Pass adaptors (the pass manager running nested pipelines) have no
  // argument: the stage stays the enclosing one until a real pass starts.
  if (pass->getArgument().empty())
    return;
  std::string where = locationString(op->getLoc());
  setCrashStage(("pass '" + pass->getArgument() + "'").str(),
                where.empty() ? llvm::StringRef(whereText)
                              : llvm::StringRef(where));
}

void fp8::CrashStageInstrumentation::runAfterPass(Pass *pass, Operation *) {
  if (stageStack.empty())
    return;
  auto [stage, where] = std::move(stageStack.back());
  stageStack.pop_back();
  // Between top-level passes and after the last one the pass manager
  // verifies the IR and the tool prints it: name that, not the stage before.
  if (stageStack.empty() && !pass->getArgument().empty())
    stage = ("the verifier or the output printer, after pass '" +
             pass->getArgument() + "'")
                .str();
  setCrashStage(stage, where);
}

void fp8::CrashStageInstrumentation::runAfterPassFailed(Pass *pass,
                                                        Operation *op) {
  runAfterPass(pass, op);
}

bool fp8::isCancellationRequested() {
  return recoveryPoint && cancelRequested && cancelRequested->load();
}

void fp8::stopCancelledRun(llvm::StringRef what) {
  if (!isCancellationRequested())
    std::abort(); // A caller's bug: there is nowhere to jump.
  copyTo(failureText, sizeof(failureText), what);
  failureKind = RecoveredFailure::Cancelled;
  siglongjmp(*recoveryPoint, 1);
}

void fp8::redirectCrashReports(int fd, int captured) {
  reportFd = fd;
  capturedErrFd = captured;
}
