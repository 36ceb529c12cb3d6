//===- CrashRecoveryTest.cpp - fp8::runRecoverable ------------------------===//
//
// The recovery the Python module relies on (docs/robustness.md): a crash, a
// stack overflow, an LLVM fatal error or a cancellation on the recovering
// thread comes back as a RecoveredFailure, and the process goes on.
//
//===----------------------------------------------------------------------===//
#include "fp8/Tools/CrashReport.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/ErrorHandling.h"

#include "gtest/gtest.h"

#include <atomic>
#include <chrono>
#include <csignal>
#include <exception>
#include <pthread.h>
#include <sys/mman.h>
#include <thread>
#include <unistd.h>

using namespace mlir;
using fp8::RecoveredFailure;

namespace {
constexpr size_t kStack = size_t(64) << 20;

// Not static and with a volatile frame: neither inlined nor turned into a
// loop, so each call takes stack.
__attribute__((noinline)) int recurse(int depth) {
  volatile char frame[256];
  frame[0] = static_cast<char>(depth);
  return recurse(depth + 1) + frame[0];
}

TEST(CrashRecovery, ReturnsNoneAndRunsOnALargeStack) {
  size_t stackSize = 0;
  bool ran = false;
  RecoveredFailure f = fp8::runRecoverable(
      [&] {
        ran = true;
        pthread_attr_t attr;
        ASSERT_EQ(pthread_getattr_np(pthread_self(), &attr), 0);
        void *low;
        pthread_attr_getstack(&attr, &low, &stackSize);
        pthread_attr_destroy(&attr);
      },
      kStack);
  EXPECT_EQ(f.kind, RecoveredFailure::None);
  EXPECT_TRUE(ran);
  EXPECT_GE(stackSize, kStack);
}

TEST(CrashRecovery, NullDereferenceIsRecovered) {
  RecoveredFailure f = fp8::runRecoverable(
      [] {
        fp8::setCrashStage("the MLIR parser", "crash.mlir");
        volatile int *p = nullptr;
        *p = 1;
      },
      kStack);
  EXPECT_EQ(f.kind, RecoveredFailure::Crash);
  EXPECT_EQ(f.message, "internal error in the MLIR parser while processing "
                       "crash.mlir: segmentation fault (an invalid memory "
                       "access)");
  // The process, and the next recoverable run, go on.
  EXPECT_EQ(fp8::runRecoverable([] {}, kStack).kind, RecoveredFailure::None);
}

TEST(CrashRecovery, StackOverflowIsRecoveredAndNamed) {
  RecoveredFailure f = fp8::runRecoverable([] { (void)recurse(0); }, kStack);
  EXPECT_EQ(f.kind, RecoveredFailure::Crash);
  EXPECT_NE(f.message.find("stack overflow"), std::string::npos) << f.message;
}

TEST(CrashRecovery, FatalErrorIsRecovered) {
  RecoveredFailure f = fp8::runRecoverable(
      [] { llvm::report_fatal_error("IO failure on output stream"); }, kStack);
  EXPECT_EQ(f.kind, RecoveredFailure::FatalError);
  EXPECT_NE(f.message.find("LLVM ERROR: IO failure on output stream"),
            std::string::npos)
      << f.message;
}

TEST(CrashRecovery, LLVMOutOfMemoryIsRecovered) {
  RecoveredFailure f = fp8::runRecoverable(
      [] { llvm::report_bad_alloc_error("SmallVector capacity"); }, kStack);
  EXPECT_EQ(f.kind, RecoveredFailure::FatalError);
  EXPECT_EQ(f.cause, "out of memory (SmallVector capacity)");
}

TEST(CrashRecovery, FailedOperatorNewIsRecovered) {
  // libstdc++ throws std::bad_alloc; nothing catches it, so std::terminate
  // runs on this thread before any unwinding.
  RecoveredFailure f = fp8::runRecoverable(
      [] {
        volatile size_t huge = size_t(1) << 62;
        void *volatile p = ::operator new(huge);
        (void)p;
      },
      kStack);
  EXPECT_EQ(f.kind, RecoveredFailure::FatalError);
  EXPECT_EQ(f.cause, "out of memory (std::bad_alloc)");
  EXPECT_EQ(fp8::runRecoverable([] {}, kStack).kind, RecoveredFailure::None);
}

TEST(CrashRecovery, TerminateIsRecovered) {
  RecoveredFailure f = fp8::runRecoverable([] { std::terminate(); }, kStack);
  EXPECT_EQ(f.kind, RecoveredFailure::FatalError);
  EXPECT_NE(f.cause.find("uncaught C++ exception"), std::string::npos)
      << f.cause;
}

TEST(CrashRecovery, AbortOfCompiledCodeIsRecovered) {
  RecoveredFailure f =
      fp8::runRecoverable([] { fp8::recoverableAbort(); }, kStack);
  EXPECT_EQ(f.kind, RecoveredFailure::Crash);
  EXPECT_NE(f.cause.find("abort() called by the compiled code"),
            std::string::npos)
      << f.cause;
}

TEST(CrashRecoveryDeathTest, CLibraryAbortEndsWithStatusOneAndAMessage) {
  // The C library's own abort (heap corruption found) is not recovered: the
  // process exits with status 1, saying why, never dies of a signal.
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(fp8::runRecoverable(
                  [] {
                    fp8::setCrashStage("pass 'canonicalize'", "m.mlir");
                    raise(SIGABRT);
                  },
                  kStack),
              testing::ExitedWithCode(1),
              "internal error in pass 'canonicalize' while processing "
              "m.mlir: abort\\(\\) \\(SIGABRT\\).*cannot continue safely");
}

TEST(CrashReporterDeathTest, AbortInAToolStageExitsWithOne) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        fp8::installCrashReporter("fp8-opt");
        fp8::setCrashStage("the MLIR parser", "model.mlir");
        std::abort();
      },
      testing::ExitedWithCode(1),
      "fp8-opt: internal error in the MLIR parser while processing "
      "model.mlir: abort\\(\\) \\(SIGABRT\\).*cannot continue safely");
}

/// A pass that crashes on every function, as a pass crashing on some input
/// would.
struct CrashingPass
    : public PassWrapper<CrashingPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CrashingPass)
  StringRef getArgument() const override { return "test-crash"; }
  void runOnOperation() override {
    volatile int *p = nullptr;
    *p = 1;
  }
};

TEST(CrashReporterDeathTest, CrashOnAPassManagerWorkerThreadExitsWithOne) {
  // A tool (fp8-opt) runs function passes on MLIR's thread pool: the crash
  // happens on a worker thread, whose stage the instrumentation set.
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        fp8::installCrashReporter("fp8-opt");
        DialectRegistry registry;
        registry.insert<func::FuncDialect>();
        MLIRContext ctx(registry);
        ctx.loadAllAvailableDialects();
        OpBuilder b(&ctx);
        OwningOpRef<ModuleOp> module =
            ModuleOp::create(FileLineColLoc::get(&ctx, "model.mlir", 1, 1));
        b.setInsertionPointToEnd(module->getBody());
        for (int i = 0; i < 8; ++i) {
          auto f = func::FuncOp::create(
              b, FileLineColLoc::get(&ctx, "model.mlir", 10 + i, 1),
              "f" + std::to_string(i), b.getFunctionType({}, {}));
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPointToStart(f.addEntryBlock());
          func::ReturnOp::create(b, f.getLoc());
        }
        PassManager pm(&ctx);
        pm.addInstrumentation(
            std::make_unique<fp8::CrashStageInstrumentation>());
        pm.addNestedPass<func::FuncOp>(std::make_unique<CrashingPass>());
        (void)pm.run(*module);
      },
      testing::ExitedWithCode(1),
      "fp8-opt: internal error in pass 'test-crash' while processing "
      "model.mlir:1[0-7]");
}

TEST(CrashRecovery, CancellationStopsBeforeTheNextPass) {
  bool passesRan = false;
  // The caller's loop polls every 50 ms and sets the cancel flag when a poll
  // returns true; a second poll means the first one's flag is set. Waiting
  // for it (not for a fixed time, which a loaded machine can outlast) makes
  // the pass manager start after the request, whatever the scheduling.
  std::atomic<int> polls{0};
  RecoveredFailure f = fp8::runRecoverable(
      [&] {
        while (polls.load() < 2)
          std::this_thread::sleep_for(std::chrono::milliseconds(1));
        MLIRContext ctx(MLIRContext::Threading::DISABLED);
        OwningOpRef<ModuleOp> module = ModuleOp::create(UnknownLoc::get(&ctx));
        PassManager pm(&ctx);
        pm.addInstrumentation(
            std::make_unique<fp8::CrashStageInstrumentation>());
        pm.addPass(createCanonicalizerPass());
        (void)pm.run(*module);
        passesRan = true;
      },
      kStack,
      [&] {
        ++polls;
        return true;
      });
  EXPECT_EQ(f.kind, RecoveredFailure::Cancelled);
  EXPECT_EQ(f.message, "interrupted before pass 'canonicalize'");
  EXPECT_FALSE(passesRan);
}

TEST(CrashRecovery, NoPollNoCancellation) {
  bool passesRan = false;
  RecoveredFailure f = fp8::runRecoverable(
      [&] {
        MLIRContext ctx(MLIRContext::Threading::DISABLED);
        OwningOpRef<ModuleOp> module = ModuleOp::create(UnknownLoc::get(&ctx));
        PassManager pm(&ctx);
        pm.addInstrumentation(
            std::make_unique<fp8::CrashStageInstrumentation>());
        pm.addPass(createCanonicalizerPass());
        passesRan = succeeded(pm.run(*module));
      },
      kStack, [] { return false; });
  EXPECT_EQ(f.kind, RecoveredFailure::None);
  EXPECT_TRUE(passesRan);
}

TEST(CrashRecovery, StopCancelledRunEndsTheRunWhereItIsCalled) {
  // What JIT-compiled code does at an allocation once Ctrl-C asked it to
  // stop: the run ends there, the rest of `fn` never runs.
  std::atomic<int> polls{0};
  bool before = false, after = false;
  RecoveredFailure f = fp8::runRecoverable(
      [&] {
        before = fp8::isCancellationRequested();
        while (polls.load() < 2)
          std::this_thread::sleep_for(std::chrono::milliseconds(1));
        if (fp8::isCancellationRequested())
          fp8::stopCancelledRun("interrupted in the compiled code");
        after = true;
      },
      kStack,
      [&] {
        ++polls;
        return true;
      });
  EXPECT_EQ(f.kind, RecoveredFailure::Cancelled);
  EXPECT_EQ(f.message, "interrupted in the compiled code");
  EXPECT_FALSE(before);
  EXPECT_FALSE(after);
  // Outside a recovering thread nothing is requested.
  EXPECT_FALSE(fp8::isCancellationRequested());
}

TEST(CrashRecoveryDeathTest, RedirectedFatalReportKeepsTheCapturedStderr) {
  // A thread whose stderr is a capture (the Python module's calls): the
  // fatal report goes to the real stderr, after what the capture held.
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(fp8::runRecoverable(
                  [] {
                    int capture = memfd_create("capture", 0);
                    const char text[] = "written before the abort\n";
                    ASSERT_EQ(::write(capture, text, sizeof(text) - 1),
                              ssize_t(sizeof(text) - 1));
                    int realErr = dup(STDERR_FILENO);
                    dup2(capture, STDERR_FILENO);
                    fp8::redirectCrashReports(realErr, capture);
                    fp8::setCrashStage("pass 'canonicalize'", "m.mlir");
                    raise(SIGABRT);
                  },
                  kStack),
              testing::ExitedWithCode(1),
              "written before the abort.*internal error in pass "
              "'canonicalize' while processing m.mlir: abort");
}
} // namespace
