//===- CrashReport.cpp - internal errors instead of signal deaths ---------===//
//
// Own sigaction handlers for the crash signals only (SIGSEGV, SIGBUS,
// SIGILL, SIGFPE, SIGABRT): a stop requested from outside (SIGQUIT, SIGXCPU,
// SIGXFSZ, SIGINT, ...) is not a crash and keeps its usual effect. A crash
// while no fp8 stage is active (outside a parse or a pass: other code of the
// host process, the JIT-compiled kernels) is handed to the handler that was
// installed before, so the process dies as it would have.
//
//===----------------------------------------------------------------------===//
#include "fp8/Tools/CrashReport.h"

#include "mlir/IR/Location.h"
#include "mlir/IR/Operation.h"
#include "mlir/Pass/Pass.h"

#include <atomic>
#include <csignal>
#include <cstring>
#include <string>
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

void copyTo(char *dst, size_t size, llvm::StringRef src) {
  size_t n = std::min(size - 1, src.size());
  std::memcpy(dst, src.data(), n);
  dst[n] = '\0';
}

void writeAll(const char *text) {
  size_t len = std::strlen(text);
  while (len > 0) {
    ssize_t n = ::write(STDERR_FILENO, text, len);
    if (n <= 0)
      return;
    text += n;
    len -= n;
  }
}

/// Runs on the crashing thread.
void onCrashSignal(int sig, siginfo_t *, void *) {
  if (stageText[0] != '\0') {
    writeAll(toolName);
    writeAll(": internal error in ");
    writeAll(stageText);
    writeAll(" while processing ");
    writeAll(whereText);
    writeAll(" (a crash, not a diagnostic: please report it with the input)\n");
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
} // namespace

void fp8::installCrashReporter(llvm::StringRef name) {
  static std::atomic<bool> installed{false};
  copyTo(toolName, sizeof(toolName), name);
  if (installed.exchange(true))
    return;
  struct sigaction action = {};
  action.sa_sigaction = onCrashSignal;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  for (int sig : kCrashSignals)
    sigaction(sig, &action, &previousActions[sig]);
}

void fp8::setCrashStage(llvm::StringRef stage, llvm::StringRef where) {
  copyTo(stageText, kTextSize, stage);
  copyTo(whereText, kTextSize, where);
}

void fp8::clearCrashStage() { setCrashStage("", ""); }

void fp8::CrashStageInstrumentation::runBeforePass(Pass *pass, Operation *op) {
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
